#include "bench/tpcc/tpcc_transactions.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench/tpcc/tpcc_population.h"

namespace floe::tpcc {

namespace {

using S = StatementId;

// The single row a statement must return.
Row single_row(Session& session, StatementId statement, const std::vector<Field>& params) {
  std::vector<Row> rows = session.execute(statement, params);
  if (rows.size() != 1) {
    throw DriverError(std::string("TPC-C: expected one row from: ") + statement_sql(statement) +
                ", got " + std::to_string(rows.size()));
  }
  return std::move(rows[0]);
}

double round_cents(double amount) {
  return std::round(amount * 100) / 100;
}

// The customer's id: given, or the one at position ceil(n / 2) of the customers with the
// last name sorted by first name (2.5.2.2, 2.6.2.2).
int64_t find_customer(Session& session, int64_t w_id, int64_t d_id,
                      const CustomerSelector& customer) {
  if (customer.c_id) return *customer.c_id;
  std::vector<Row> rows = session.execute(S::kCustomersByLastName, {w_id, d_id, customer.c_last});
  if (rows.empty()) throw DriverError("TPC-C: no customer with last name " + customer.c_last);
  return as_int(rows[(rows.size() - 1) / 2][0]);
}

}  // namespace

const char* transaction_name(TransactionType type) {
  static constexpr const char* kNames[] = {"New-Order", "Payment", "Order-Status", "Delivery",
                                           "Stock-Level"};
  return kNames[static_cast<int>(type)];
}

NewOrderOutput run_new_order(Session& session, const NewOrderInput& input) {
  NewOrderOutput out;
  session.begin();
  double w_tax = as_double(single_row(session, S::kNewOrderWarehouse, {input.w_id})[0]);
  Row district = single_row(session, S::kNewOrderDistrict, {input.w_id, input.d_id});
  double d_tax = as_double(district[0]);
  out.o_id = as_int(district[1]);
  session.execute(S::kNewOrderDistrictUpdate, {input.w_id, input.d_id});
  Row customer = single_row(session, S::kNewOrderCustomer, {input.w_id, input.d_id, input.c_id});
  double c_discount = as_double(customer[0]);
  bool all_local = true;
  for (const NewOrderLine& line : input.lines) all_local &= line.supply_w_id == input.w_id;
  session.execute(S::kNewOrderOrderInsert,
                  {out.o_id, input.d_id, input.w_id, input.c_id, input.entry_d,
                   static_cast<int64_t>(input.lines.size()), int64_t{all_local}});
  session.execute(S::kNewOrderNewOrderInsert, {out.o_id, input.d_id, input.w_id});
  double total = 0;
  for (size_t i = 0; i < input.lines.size(); ++i) {
    const NewOrderLine& line = input.lines[i];
    std::vector<Row> items = session.execute(S::kNewOrderItem, {line.item_id});
    if (items.empty()) {  // the 1% with an unused item id (2.4.2.3)
      session.rollback();
      out.rolled_back = true;
      return out;
    }
    double i_price = as_double(items[0][0]);
    const std::string& i_data = as_string(items[0][2]);
    Row stock =
        single_row(session, S::kNewOrderStock, {line.supply_w_id, line.item_id, input.d_id});
    int64_t s_quantity = as_int(stock[0]);
    const std::string& s_data = as_string(stock[1]);
    const std::string& dist_info = as_string(stock[2]);
    s_quantity = s_quantity - line.quantity >= 10 ? s_quantity - line.quantity
                                                  : s_quantity - line.quantity + 91;
    bool remote = line.supply_w_id != input.w_id;
    session.execute(S::kNewOrderStockUpdate,
                    {s_quantity, line.quantity, int64_t{remote}, line.supply_w_id, line.item_id});
    double amount = round_cents(static_cast<double>(line.quantity) * i_price);
    total += amount;
    bool original = i_data.find("ORIGINAL") != std::string::npos &&
                    s_data.find("ORIGINAL") != std::string::npos;
    out.brand_generic.push_back(original ? 'B' : 'G');
    session.execute(S::kNewOrderOrderLineInsert,
                    {out.o_id, input.d_id, input.w_id, static_cast<int64_t>(i + 1), line.item_id,
                     line.supply_w_id, line.quantity, amount, dist_info});
  }
  session.commit();
  out.total_amount = total * (1 - c_discount) * (1 + w_tax + d_tax);
  return out;
}

PaymentOutput run_payment(Session& session, const PaymentInput& input) {
  PaymentOutput out;
  session.begin();
  session.execute(S::kPaymentWarehouseUpdate, {input.h_amount, input.w_id});
  Row warehouse = single_row(session, S::kPaymentWarehouse, {input.w_id});
  session.execute(S::kPaymentDistrictUpdate, {input.h_amount, input.w_id, input.d_id});
  Row district = single_row(session, S::kPaymentDistrict, {input.w_id, input.d_id});
  out.c_id = find_customer(session, input.c_w_id, input.c_d_id, input.customer);
  std::vector<Field> key = {input.c_w_id, input.c_d_id, out.c_id};
  Row customer = single_row(session, S::kPaymentCustomer, key);
  out.c_credit = as_string(customer[10]);
  out.c_balance = as_double(customer[13]) - input.h_amount;
  session.execute(S::kPaymentCustomerUpdate,
                  {input.h_amount, input.c_w_id, input.c_d_id, out.c_id});
  if (out.c_credit == "BC") {  // bad credit: the payment goes in front of C_DATA (2.5.2.2)
    std::string c_data = as_string(single_row(session, S::kPaymentCustomerData, key)[0]);
    char amount[32];
    std::snprintf(amount, sizeof(amount), "%.2f", input.h_amount);
    c_data = std::to_string(out.c_id) + " " + std::to_string(input.c_d_id) + " " +
             std::to_string(input.c_w_id) + " " + std::to_string(input.d_id) + " " +
             std::to_string(input.w_id) + " " + amount + " | " + c_data;
    if (c_data.size() > 500) c_data.resize(500);
    session.execute(S::kPaymentCustomerDataUpdate, {c_data, input.c_w_id, input.c_d_id, out.c_id});
  }
  std::string h_data = as_string(warehouse[0]) + "    " + as_string(district[0]);
  session.execute(S::kPaymentHistoryInsert, {out.c_id, input.c_d_id, input.c_w_id, input.d_id,
                                             input.w_id, input.h_date, input.h_amount, h_data});
  session.commit();
  return out;
}

OrderStatusOutput run_order_status(Session& session, const OrderStatusInput& input) {
  OrderStatusOutput out;
  session.begin();
  out.c_id = find_customer(session, input.w_id, input.d_id, input.customer);
  single_row(session, S::kOrderStatusCustomer, {input.w_id, input.d_id, out.c_id});
  std::vector<Row> orders =
      session.execute(S::kOrderStatusLastOrder, {input.w_id, input.d_id, out.c_id});
  if (!orders.empty()) {
    out.o_id = as_int(orders[0][0]);
    out.order_lines =
        session.execute(S::kOrderStatusOrderLines, {input.w_id, input.d_id, *out.o_id}).size();
  }
  session.commit();
  return out;
}

DeliveryOutput run_delivery(Session& session, const DeliveryInput& input) {
  DeliveryOutput out;
  session.begin();
  for (int64_t d_id = 1; d_id <= kDistrictsPerWarehouse; ++d_id) {
    Field oldest = single_row(session, S::kDeliveryNewOrder, {input.w_id, d_id})[0];
    if (std::holds_alternative<std::monostate>(oldest)) continue;  // skipped (2.7.4.2)
    int64_t o_id = as_int(oldest);
    session.execute(S::kDeliveryNewOrderDelete, {input.w_id, d_id, o_id});
    int64_t c_id = as_int(single_row(session, S::kDeliveryOrder, {input.w_id, d_id, o_id})[0]);
    session.execute(S::kDeliveryOrderUpdate, {input.carrier_id, input.w_id, d_id, o_id});
    session.execute(S::kDeliveryOrderLineUpdate, {input.delivery_d, input.w_id, d_id, o_id});
    Field sum = single_row(session, S::kDeliveryOrderLineSum, {input.w_id, d_id, o_id})[0];
    double amount = std::holds_alternative<std::monostate>(sum) ? 0 : as_double(sum);
    session.execute(S::kDeliveryCustomerUpdate, {amount, input.w_id, d_id, c_id});
    ++out.delivered;
  }
  session.commit();
  return out;
}

StockLevelOutput run_stock_level(Session& session, const StockLevelInput& input) {
  StockLevelOutput out;
  session.begin();
  int64_t next_o_id =
      as_int(single_row(session, S::kStockLevelDistrict, {input.w_id, input.d_id})[0]);
  out.low_stock =
      as_int(single_row(session, S::kStockLevelCount,
                        {input.w_id, input.d_id, next_o_id, next_o_id - 20, input.threshold})[0]);
  session.commit();
  return out;
}

InputGenerator::InputGenerator(const Scale& scale, int warehouses, uint64_t seed,
                               const NurandConstants& c)
    : scale_(scale), warehouses_(warehouses), random_(seed), c_(c) {}

TransactionType InputGenerator::next_type() {
  int64_t draw = random_.uniform(1, 100);
  if (draw <= 45) return TransactionType::kNewOrder;
  if (draw <= 88) return TransactionType::kPayment;
  if (draw <= 92) return TransactionType::kOrderStatus;
  if (draw <= 96) return TransactionType::kDelivery;
  return TransactionType::kStockLevel;
}

int64_t InputGenerator::other_warehouse(int64_t w_id) {
  if (warehouses_ == 1) return w_id;
  int64_t other = random_.uniform(1, warehouses_ - 1);
  return other >= w_id ? other + 1 : other;
}

CustomerSelector InputGenerator::customer(int by_last_name_percent) {
  int64_t customers = scale_.customers_per_district;
  if (random_.uniform(1, 100) <= by_last_name_percent) {
    // NURand(255, 0, 999); a test scale below 1,000 customers has only names 0..customers-1.
    return CustomerSelector::by_last_name(
        last_name(random_.nurand(255, 0, std::min<int64_t>(999, customers - 1), c_)));
  }
  return CustomerSelector::by_id(random_.nurand(1023, 1, customers, c_));
}

NewOrderInput InputGenerator::new_order() {
  NewOrderInput input{random_.uniform(1, warehouses_),
                      random_.uniform(1, kDistrictsPerWarehouse),
                      random_.nurand(1023, 1, scale_.customers_per_district, c_),
                      {},
                      current_timestamp()};
  int64_t line_count = random_.uniform(5, 15);
  bool rollback = random_.uniform(1, 100) == 1;
  for (int64_t i = 0; i < line_count; ++i) {
    NewOrderLine line;
    line.item_id = random_.nurand(8191, 1, scale_.items, c_);
    if (rollback && i == line_count - 1) line.item_id = scale_.items + 1;  // unused
    line.supply_w_id = random_.uniform(1, 100) == 1 ? other_warehouse(input.w_id) : input.w_id;
    line.quantity = random_.uniform(1, 10);
    input.lines.push_back(line);
  }
  return input;
}

PaymentInput InputGenerator::payment() {
  PaymentInput input;
  input.w_id = random_.uniform(1, warehouses_);
  input.d_id = random_.uniform(1, kDistrictsPerWarehouse);
  if (random_.uniform(1, 100) <= 85) {
    input.c_w_id = input.w_id;
    input.c_d_id = input.d_id;
  } else {  // a customer of a remote warehouse
    input.c_w_id = other_warehouse(input.w_id);
    input.c_d_id = random_.uniform(1, kDistrictsPerWarehouse);
  }
  input.customer = customer(60);
  input.h_amount = static_cast<double>(random_.uniform(100, 500000)) / 100;
  input.h_date = current_timestamp();
  return input;
}

OrderStatusInput InputGenerator::order_status() {
  OrderStatusInput input;
  input.w_id = random_.uniform(1, warehouses_);
  input.d_id = random_.uniform(1, kDistrictsPerWarehouse);
  input.customer = customer(60);
  return input;
}

DeliveryInput InputGenerator::delivery() {
  return {random_.uniform(1, warehouses_), random_.uniform(1, 10), current_timestamp()};
}

StockLevelInput InputGenerator::stock_level() {
  return {random_.uniform(1, warehouses_), random_.uniform(1, kDistrictsPerWarehouse),
          random_.uniform(10, 20)};
}

}  // namespace floe::tpcc
