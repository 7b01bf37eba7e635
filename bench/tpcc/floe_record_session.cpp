#include "bench/tpcc/floe_record_session.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "bench/tpcc/floe_record_fields.h"
#include "engine/api/floe_internal.h"
#include "engine/api/record_transaction.h"
#include "storage/error.h"

namespace floe::tpcc {

namespace {

using S = StatementId;

Value to_value(const Field& field) {
  if (const auto* integer = std::get_if<int64_t>(&field)) return Value::big_int(*integer);
  if (const auto* real = std::get_if<double>(&field)) return Value::double_value(*real);
  if (const auto* text = std::get_if<std::string>(&field)) return Value::string(*text);
  return Value();
}

std::vector<Value> to_values(std::initializer_list<Field> fields) {
  std::vector<Value> values;
  values.reserve(fields.size());
  for (const Field& field : fields) values.push_back(to_value(field));
  return values;
}

// decimal + amount, in the decimal's scale (`c_balance + $1` of the SQL statements).
Value add_amount(const Value& decimal, double amount) {
  const SqlType& type = decimal.type();
  const double factor = std::pow(10.0, type.scale);
  return Value::decimal(decimal.as_int128() + static_cast<int128_t>(std::llround(amount * factor)),
                        type.precision, type.scale);
}

Value add_count(const Value& integer, int64_t amount) {
  return Value::big_int(integer.as_int64() + amount);
}

// The table and the columns each reading statement returns, as in its SELECT list.
struct ReadList {
  StatementId statement;
  const char* table;
  std::vector<const char*> columns;
};

const std::vector<ReadList>& read_lists() {
  static const std::vector<ReadList> kLists = {
      {S::kNewOrderWarehouse, "warehouse", {"w_tax"}},
      {S::kNewOrderDistrict, "district", {"d_tax", "d_next_o_id"}},
      {S::kNewOrderCustomer, "customer", {"c_discount", "c_last", "c_credit"}},
      {S::kNewOrderItem, "item", {"i_price", "i_name", "i_data"}},
      {S::kNewOrderStock,
       "stock",
       {"s_quantity", "s_data", "s_dist_01", "s_dist_02", "s_dist_03", "s_dist_04", "s_dist_05",
        "s_dist_06", "s_dist_07", "s_dist_08", "s_dist_09", "s_dist_10"}},
      {S::kPaymentWarehouse,
       "warehouse",
       {"w_name", "w_street_1", "w_street_2", "w_city", "w_state", "w_zip"}},
      {S::kPaymentDistrict,
       "district",
       {"d_name", "d_street_1", "d_street_2", "d_city", "d_state", "d_zip"}},
      {S::kPaymentCustomer,
       "customer",
       {"c_first", "c_middle", "c_last", "c_street_1", "c_street_2", "c_city", "c_state", "c_zip",
        "c_phone", "c_since", "c_credit", "c_credit_lim", "c_discount", "c_balance"}},
      {S::kPaymentCustomerData, "customer", {"c_data"}},
      {S::kCustomersByLastName, "customer", {"c_id"}},
      {S::kOrderStatusCustomer, "customer", {"c_balance", "c_first", "c_middle", "c_last"}},
      {S::kOrderStatusLastOrder, "order", {"o_id", "o_entry_d", "o_carrier_id"}},
      {S::kOrderStatusOrderLines,
       "order_line",
       {"ol_i_id", "ol_supply_w_id", "ol_quantity", "ol_amount", "ol_delivery_d"}},
      {S::kDeliveryOrder, "order", {"o_c_id"}},
      {S::kStockLevelDistrict, "district", {"d_next_o_id"}},
  };
  return kLists;
}

// The tables, indexes and columns, resolved once per session.
struct Handles {
  explicit Handles(TransactionScope& tx)
      : warehouse(tx.table("warehouse")),
        district(tx.table("district")),
        customer(tx.table("customer")),
        history(tx.table("history")),
        new_order(tx.table("new_order")),
        order(tx.table("order")),
        order_line(tx.table("order_line")),
        item(tx.table("item")),
        stock(tx.table("stock")),
        customer_by_last_name(customer.index("customer_last_name")),
        order_by_customer(order.index("order_customer")) {
    for (const ReadList& list : read_lists()) {
      RecordTable table = tx.table(list.table);
      std::vector<size_t>& columns = reads[static_cast<size_t>(list.statement)];
      for (const char* name : list.columns) columns.push_back(table.column(name));
    }
  }

  RecordTable warehouse, district, customer, history, new_order, order, order_line, item, stock;
  RecordIndex customer_by_last_name, order_by_customer;
  std::array<std::vector<size_t>, kStatementCount> reads;
  size_t w_ytd = warehouse.column("w_ytd");
  size_t d_ytd = district.column("d_ytd"), d_next_o_id = district.column("d_next_o_id");
  size_t c_balance = customer.column("c_balance"),
         c_ytd_payment = customer.column("c_ytd_payment"),
         c_payment_cnt = customer.column("c_payment_cnt"), c_data = customer.column("c_data"),
         c_delivery_cnt = customer.column("c_delivery_cnt");
  size_t no_o_id = new_order.column("no_o_id");
  size_t o_carrier_id = order.column("o_carrier_id");
  size_t ol_i_id = order_line.column("ol_i_id"), ol_amount = order_line.column("ol_amount"),
         ol_delivery_d = order_line.column("ol_delivery_d");
  size_t s_quantity = stock.column("s_quantity"), s_ytd = stock.column("s_ytd"),
         s_order_cnt = stock.column("s_order_cnt"), s_remote_cnt = stock.column("s_remote_cnt");
};

class FloeRecordSession : public Session {
 public:
  explicit FloeRecordSession(Database& database) : connection_(database) {}

  void begin() override {
    tx_.emplace(connection_);
    if (!handles_) handles_.emplace(*tx_);
  }
  void commit() override {
    conflicts_as_retryable([&] { tx_->commit(); });
    tx_.reset();
  }
  void rollback() override {
    if (tx_ && tx_->active()) tx_->rollback();
    tx_.reset();
  }

  std::vector<Row> execute(StatementId statement, const std::vector<Field>& params) override {
    std::vector<Row> rows;
    conflicts_as_retryable([&] { rows = run(statement, params); });
    return rows;
  }

  std::vector<Row> query(const std::string& sql) override {
    std::vector<Row> rows;
    conflicts_as_retryable([&] {
      Result result = connection_.query(sql);
      for (const auto& values : result.rows()) rows.push_back(to_row(values));
    });
    return rows;
  }

 private:
  static void conflicts_as_retryable(const std::function<void()>& run) {
    try {
      run();
    } catch (const SerializationFailure& failure) {
      throw ConflictError(failure.what());
    }
  }
  static Row to_row(const std::vector<Value>& values) {
    Row row;
    row.reserve(values.size());
    for (const Value& value : values) row.push_back(to_field(value));
    return row;
  }
  // The statement's SELECT list of a row.
  Row read_row(StatementId statement, RowRef row) {
    return to_row(tx_->read(row, handles_->reads[static_cast<size_t>(statement)]));
  }
  // The rows whose key starts with `prefix`, in key order.
  std::vector<RowRef> rows_with_prefix(const RecordIndex& index, std::vector<Value> prefix) {
    std::vector<RowRef> rows;
    const IndexBound bound{std::move(prefix), true};
    tx_->scan_range(index, bound, bound, [&](RowRef row) {
      rows.push_back(row);
      return true;
    });
    return rows;
  }
  // SELECT <list> FROM <table> WHERE <whole primary key>.
  std::vector<Row> select_by_key(StatementId statement, const RecordTable& table,
                                 std::vector<Value> key) {
    std::optional<RowRef> row = tx_->lookup(table.primary_key(), key);
    if (!row) return {};
    return {read_row(statement, *row)};
  }

  std::vector<Row> run(StatementId statement, const std::vector<Field>& p) {
    TransactionScope& tx = *tx_;
    const Handles& h = *handles_;
    switch (statement) {
      case S::kNewOrderWarehouse:
      case S::kPaymentWarehouse:
        return select_by_key(statement, h.warehouse, to_values({p[0]}));
      case S::kNewOrderDistrict:
      case S::kPaymentDistrict:
      case S::kStockLevelDistrict:
        return select_by_key(statement, h.district, to_values({p[0], p[1]}));
      case S::kNewOrderCustomer:
      case S::kPaymentCustomer:
      case S::kPaymentCustomerData:
      case S::kOrderStatusCustomer:
        return select_by_key(statement, h.customer, to_values({p[0], p[1], p[2]}));
      case S::kNewOrderItem:
        return select_by_key(statement, h.item, to_values({p[0]}));
      case S::kNewOrderStock:
        return select_by_key(statement, h.stock, to_values({p[0], p[1]}));
      case S::kDeliveryOrder:
        return select_by_key(statement, h.order, to_values({p[0], p[1], p[2]}));
      case S::kNewOrderDistrictUpdate:
        if (auto row = tx.lookup(h.district.primary_key(), to_values({p[0], p[1]})))
          tx.update(*row, {{h.d_next_o_id, add_count(tx.read(*row, h.d_next_o_id), 1)}});
        return {};
      case S::kNewOrderOrderInsert:
        tx.insert(h.order, to_values({p[0], p[1], p[2], p[3], p[4], {}, p[5], p[6]}));
        return {};
      case S::kNewOrderNewOrderInsert:
        tx.insert(h.new_order, to_values({p[0], p[1], p[2]}));
        return {};
      case S::kNewOrderStockUpdate:
        if (auto row = tx.lookup(h.stock.primary_key(), to_values({p[3], p[4]}))) {
          std::vector<Value> old = tx.read(*row, {h.s_ytd, h.s_order_cnt, h.s_remote_cnt});
          tx.update(*row, {{h.s_quantity, to_value(p[0])},
                           {h.s_ytd, add_count(old[0], as_int(p[1]))},
                           {h.s_order_cnt, add_count(old[1], 1)},
                           {h.s_remote_cnt, add_count(old[2], as_int(p[2]))}});
        }
        return {};
      case S::kNewOrderOrderLineInsert:
        tx.insert(h.order_line,
                  to_values({p[0], p[1], p[2], p[3], p[4], p[5], {}, p[6], p[7], p[8]}));
        return {};
      case S::kPaymentWarehouseUpdate:
        if (auto row = tx.lookup(h.warehouse.primary_key(), to_values({p[1]})))
          tx.update(*row, {{h.w_ytd, add_amount(tx.read(*row, h.w_ytd), as_double(p[0]))}});
        return {};
      case S::kPaymentDistrictUpdate:
        if (auto row = tx.lookup(h.district.primary_key(), to_values({p[1], p[2]})))
          tx.update(*row, {{h.d_ytd, add_amount(tx.read(*row, h.d_ytd), as_double(p[0]))}});
        return {};
      case S::kPaymentCustomerUpdate:
        if (auto row = tx.lookup(h.customer.primary_key(), to_values({p[1], p[2], p[3]}))) {
          std::vector<Value> old = tx.read(*row, {h.c_balance, h.c_ytd_payment, h.c_payment_cnt});
          tx.update(*row, {{h.c_balance, add_amount(old[0], -as_double(p[0]))},
                           {h.c_ytd_payment, add_amount(old[1], as_double(p[0]))},
                           {h.c_payment_cnt, add_count(old[2], 1)}});
        }
        return {};
      case S::kPaymentCustomerDataUpdate:
        if (auto row = tx.lookup(h.customer.primary_key(), to_values({p[1], p[2], p[3]})))
          tx.update(*row, {{h.c_data, to_value(p[0])}});
        return {};
      case S::kPaymentHistoryInsert:
        tx.insert(h.history, to_values({p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]}));
        return {};
      case S::kCustomersByLastName: {
        std::vector<Row> rows;
        for (RowRef row : rows_with_prefix(h.customer_by_last_name, to_values({p[0], p[1], p[2]})))
          rows.push_back(read_row(statement, row));
        return rows;
      }
      case S::kOrderStatusLastOrder: {
        // ORDER BY o_id DESC LIMIT 1: the last of the customer's orders in key order.
        std::vector<RowRef> orders =
            rows_with_prefix(h.order_by_customer, to_values({p[0], p[1], p[2]}));
        if (orders.empty()) return {};
        return {read_row(statement, orders.back())};
      }
      case S::kOrderStatusOrderLines: {
        std::vector<Row> rows;
        for (RowRef row : rows_with_prefix(h.order_line.primary_key(), to_values({p[0], p[1], p[2]})))
          rows.push_back(read_row(statement, row));
        return rows;
      }
      case S::kDeliveryNewOrder: {
        // min(no_o_id): the first new order of the district in key order.
        Field oldest;
        const IndexBound district{to_values({p[0], p[1]}), true};
        tx.scan_range(h.new_order.primary_key(), district, district, [&](RowRef row) {
          oldest = to_field(tx.read(row, h.no_o_id));
          return false;
        });
        return {{oldest}};
      }
      case S::kDeliveryNewOrderDelete:
        if (auto row = tx.lookup(h.new_order.primary_key(), to_values({p[0], p[1], p[2]})))
          tx.erase(*row);
        return {};
      case S::kDeliveryOrderUpdate:
        if (auto row = tx.lookup(h.order.primary_key(), to_values({p[1], p[2], p[3]})))
          tx.update(*row, {{h.o_carrier_id, to_value(p[0])}});
        return {};
      case S::kDeliveryOrderLineUpdate:
        for (RowRef row : rows_with_prefix(h.order_line.primary_key(), to_values({p[1], p[2], p[3]})))
          tx.update(row, {{h.ol_delivery_d, to_value(p[0])}});
        return {};
      case S::kDeliveryOrderLineSum: {
        std::vector<RowRef> lines =
            rows_with_prefix(h.order_line.primary_key(), to_values({p[0], p[1], p[2]}));
        if (lines.empty()) return {{Field{}}};
        Value sum = tx.read(lines[0], h.ol_amount);
        for (size_t i = 1; i < lines.size(); ++i)
          sum = Value::decimal(sum.as_int128() + tx.read(lines[i], h.ol_amount).as_int128(), 38,
                               sum.type().scale);
        return {{to_field(sum)}};
      }
      case S::kDeliveryCustomerUpdate:
        if (auto row = tx.lookup(h.customer.primary_key(), to_values({p[1], p[2], p[3]}))) {
          std::vector<Value> old = tx.read(*row, {h.c_balance, h.c_delivery_cnt});
          tx.update(*row, {{h.c_balance, add_amount(old[0], as_double(p[0]))},
                           {h.c_delivery_cnt, add_count(old[1], 1)}});
        }
        return {};
      case S::kStockLevelCount: {
        // The distinct items of the district's last 20 orders whose stock is below the
        // threshold.
        std::vector<int64_t> items;
        tx.scan_range(h.order_line.primary_key(), IndexBound{to_values({p[0], p[1], p[3]}), true},
                      IndexBound{to_values({p[0], p[1], p[2]}), false}, [&](RowRef row) {
                        items.push_back(tx.read(row, h.ol_i_id).as_int64());
                        return true;
                      });
        std::sort(items.begin(), items.end());
        items.erase(std::unique(items.begin(), items.end()), items.end());
        int64_t low = 0;
        for (int64_t item : items) {
          std::optional<RowRef> stock =
              tx.lookup(h.stock.primary_key(), to_values({p[0], Field{item}}));
          if (stock && tx.read(*stock, h.s_quantity).as_int64() < as_int(p[4])) ++low;
        }
        return {{Field{low}}};
      }
      case S::kCount:
        break;
    }
    throw Error("TPC-C: unknown statement");
  }

  Connection connection_;
  std::optional<TransactionScope> tx_;
  std::optional<Handles> handles_;
};

}  // namespace

std::unique_ptr<Session> make_floe_record_session(api::Database& database) {
  return std::make_unique<FloeRecordSession>(api::EngineAccess::database(database));
}

}  // namespace floe::tpcc
