#include "bench/tpcc/floe_record_session.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "bench/tpcc/floe_fields.h"
#include "engine/api/floe.h"

namespace floe::tpcc {

namespace {

using S = StatementId;
using api::Connection;
using api::RecordBound;
using api::RecordIndex;
using api::RecordKey;
using api::RecordTable;
using api::RecordValue;
using api::RowRef;
using api::SerializationFailure;
using api::Transaction;
using api::Value;

Value to_value(const Field& field) {
  if (const auto* integer = std::get_if<int64_t>(&field)) return Value::big_int(*integer);
  if (const auto* real = std::get_if<double>(&field)) return Value::double_value(*real);
  if (const auto* text = std::get_if<std::string>(&field)) return Value::text(*text);
  return Value();
}

std::vector<Value> to_values(std::initializer_list<Field> fields) {
  std::vector<Value> values;
  values.reserve(fields.size());
  for (const Field& field : fields) values.push_back(to_value(field));
  return values;
}

// decimal + amount, in the decimal's scale (`c_balance + $1` of the SQL statements).
Value add_amount(const RecordValue& decimal, double amount) {
  const api::Type type = decimal.type();
  const double factor = std::pow(10.0, type.scale);
  return Value::numeric_unscaled(decimal.as_int64() + std::llround(amount * factor),
                                 type.precision, type.scale);
}

Value add_count(const RecordValue& integer, int64_t amount) {
  return Value::big_int(integer.as_int64() + amount);
}

// A statement parameter as the next key column's value.
void add_field(RecordKey& key, const Field& field) {
  if (const auto* integer = std::get_if<int64_t>(&field)) {
    key.add(*integer);
  } else if (const auto* text = std::get_if<std::string>(&field)) {
    key.add(std::string_view(*text));
  } else {
    key.add(to_value(field));
  }
}

// The key buffer refilled with `fields`.
RecordKey& refill(RecordKey& key, std::initializer_list<Field> fields) {
  key.clear();
  for (const Field& field : fields) add_field(key, field);
  return key;
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
      {S::kNewOrderStock, "stock", {"s_quantity", "s_data"}},  // and s_dist_xx (Handles)
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
  explicit Handles(Transaction& tx)
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
  // Key buffers, refilled per operation (RecordKey).
  RecordKey warehouse_key{warehouse.primary_key()}, district_key{district.primary_key()},
      customer_key{customer.primary_key()}, item_key{item.primary_key()},
      stock_key{stock.primary_key()}, order_key{order.primary_key()},
      new_order_key{new_order.primary_key()}, order_line_key{order_line.primary_key()},
      order_line_high{order_line.primary_key()}, last_name_key{customer_by_last_name},
      customer_order_key{order_by_customer};
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
  // s_dist_01 .. s_dist_10, consecutive: the stock read's third column is s_dist_<d_id>.
  size_t s_dist_01 = stock.column("s_dist_01");
  size_t s_quantity = stock.column("s_quantity"), s_ytd = stock.column("s_ytd"),
         s_order_cnt = stock.column("s_order_cnt"), s_remote_cnt = stock.column("s_remote_cnt");
};

class FloeRecordSession : public Session {
 public:
  explicit FloeRecordSession(api::Database& database) : connection_(database) {}

  void begin() override {
    tx_.emplace(connection_.begin());
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
      const api::Result result = connection_.query(sql);
      for (size_t r = 0; r < result.row_count(); ++r) {
        Row& row = rows.emplace_back();
        for (size_t c = 0; c < result.column_count(); ++c)
          row.push_back(to_field(result.value(r, c)));
      }
    });
    return rows;
  }

 private:
  template <typename Run>
  static void conflicts_as_retryable(Run&& run) {
    try {
      run();
    } catch (const SerializationFailure& failure) {
      throw ConflictError(failure.what());
    }
  }
  // The statement's SELECT list of a row.
  Row read_row(StatementId statement, RowRef row) {
    tx_->read(row, handles_->reads[static_cast<size_t>(statement)], values_);
    Row fields;
    fields.reserve(values_.size());
    for (const RecordValue& value : values_) fields.push_back(to_field(value));
    return fields;
  }
  // The rows whose key starts with `prefix`, in key order.
  std::vector<RowRef> rows_with_prefix(const RecordKey& prefix) {
    std::vector<RowRef> rows;
    tx_->scan_prefix(prefix, [&](RowRef row) {
      rows.push_back(row);
      return true;
    });
    return rows;
  }
  // SELECT <list> FROM <table> WHERE <whole primary key>.
  std::vector<Row> select_by_key(StatementId statement, const RecordKey& key) {
    std::optional<RowRef> row = tx_->lookup(key);
    if (!row) return {};
    return {read_row(statement, *row)};
  }

  std::vector<Row> run(StatementId statement, const std::vector<Field>& p) {
    Transaction& tx = *tx_;
    Handles& h = *handles_;
    switch (statement) {
      case S::kNewOrderWarehouse:
      case S::kPaymentWarehouse:
        return select_by_key(statement, refill(h.warehouse_key, {p[0]}));
      case S::kNewOrderDistrict:
      case S::kPaymentDistrict:
      case S::kStockLevelDistrict:
        return select_by_key(statement, refill(h.district_key, {p[0], p[1]}));
      case S::kNewOrderCustomer:
      case S::kPaymentCustomer:
      case S::kPaymentCustomerData:
      case S::kOrderStatusCustomer:
        return select_by_key(statement, refill(h.customer_key, {p[0], p[1], p[2]}));
      case S::kNewOrderItem:
        return select_by_key(statement, refill(h.item_key, {p[0]}));
      case S::kNewOrderStock: {
        std::vector<size_t>& columns = h.reads[static_cast<size_t>(statement)];
        columns.resize(3);
        const int64_t d_id = as_int(p[2]);  // as the statement's CASE: else s_dist_10
        columns[2] = h.s_dist_01 + static_cast<size_t>(d_id >= 1 && d_id <= 9 ? d_id - 1 : 9);
        return select_by_key(statement, refill(h.stock_key, {p[0], p[1]}));
      }
      case S::kDeliveryOrder:
        return select_by_key(statement, refill(h.order_key, {p[0], p[1], p[2]}));
      case S::kNewOrderDistrictUpdate:
        if (auto row = tx.lookup(refill(h.district_key, {p[0], p[1]})))
          tx.update(*row, {{h.d_next_o_id, add_count(tx.read_value(*row, h.d_next_o_id), 1)}});
        return {};
      case S::kNewOrderOrderInsert:
        tx.insert(h.order, to_values({p[0], p[1], p[2], p[3], p[4], {}, p[5], p[6]}));
        return {};
      case S::kNewOrderNewOrderInsert:
        tx.insert(h.new_order, to_values({p[0], p[1], p[2]}));
        return {};
      case S::kNewOrderStockUpdate:
        if (auto row = tx.lookup(refill(h.stock_key, {p[3], p[4]}))) {
          tx.read(*row, {h.s_ytd, h.s_order_cnt, h.s_remote_cnt}, values_);
          tx.update(*row, {{h.s_quantity, to_value(p[0])},
                           {h.s_ytd, add_count(values_[0], as_int(p[1]))},
                           {h.s_order_cnt, add_count(values_[1], 1)},
                           {h.s_remote_cnt, add_count(values_[2], as_int(p[2]))}});
        }
        return {};
      case S::kNewOrderOrderLineInsert:
        tx.insert(h.order_line,
                  to_values({p[0], p[1], p[2], p[3], p[4], p[5], {}, p[6], p[7], p[8]}));
        return {};
      case S::kPaymentWarehouseUpdate:
        if (auto row = tx.lookup(refill(h.warehouse_key, {p[1]})))
          tx.update(*row,
                    {{h.w_ytd, add_amount(tx.read_value(*row, h.w_ytd), as_double(p[0]))}});
        return {};
      case S::kPaymentDistrictUpdate:
        if (auto row = tx.lookup(refill(h.district_key, {p[1], p[2]})))
          tx.update(*row,
                    {{h.d_ytd, add_amount(tx.read_value(*row, h.d_ytd), as_double(p[0]))}});
        return {};
      case S::kPaymentCustomerUpdate:
        if (auto row = tx.lookup(refill(h.customer_key, {p[1], p[2], p[3]}))) {
          tx.read(*row, {h.c_balance, h.c_ytd_payment, h.c_payment_cnt}, values_);
          tx.update(*row, {{h.c_balance, add_amount(values_[0], -as_double(p[0]))},
                           {h.c_ytd_payment, add_amount(values_[1], as_double(p[0]))},
                           {h.c_payment_cnt, add_count(values_[2], 1)}});
        }
        return {};
      case S::kPaymentCustomerDataUpdate:
        if (auto row = tx.lookup(refill(h.customer_key, {p[1], p[2], p[3]})))
          tx.update(*row, {{h.c_data, to_value(p[0])}});
        return {};
      case S::kPaymentHistoryInsert:
        tx.insert(h.history, to_values({p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]}));
        return {};
      case S::kCustomersByLastName: {
        std::vector<Row> rows;
        for (RowRef row : rows_with_prefix(refill(h.last_name_key, {p[0], p[1], p[2]})))
          rows.push_back(read_row(statement, row));
        return rows;
      }
      case S::kOrderStatusLastOrder: {
        // ORDER BY o_id DESC LIMIT 1: the last of the customer's orders in key order.
        std::vector<RowRef> orders =
            rows_with_prefix(refill(h.customer_order_key, {p[0], p[1], p[2]}));
        if (orders.empty()) return {};
        return {read_row(statement, orders.back())};
      }
      case S::kOrderStatusOrderLines: {
        std::vector<Row> rows;
        for (RowRef row : rows_with_prefix(refill(h.order_line_key, {p[0], p[1], p[2]})))
          rows.push_back(read_row(statement, row));
        return rows;
      }
      case S::kDeliveryNewOrder: {
        // min(no_o_id): the first new order of the district in key order.
        Field oldest;
        tx.scan_prefix(refill(h.new_order_key, {p[0], p[1]}), [&](RowRef row) {
          oldest = to_field(tx.read_value(row, h.no_o_id));
          return false;
        });
        return {{oldest}};
      }
      case S::kDeliveryNewOrderDelete:
        if (auto row = tx.lookup(refill(h.new_order_key, {p[0], p[1], p[2]}))) tx.erase(*row);
        return {};
      case S::kDeliveryOrderUpdate:
        if (auto row = tx.lookup(refill(h.order_key, {p[1], p[2], p[3]})))
          tx.update(*row, {{h.o_carrier_id, to_value(p[0])}});
        return {};
      case S::kDeliveryOrderLineUpdate:
        for (RowRef row : rows_with_prefix(refill(h.order_line_key, {p[1], p[2], p[3]})))
          tx.update(row, {{h.ol_delivery_d, to_value(p[0])}});
        return {};
      case S::kDeliveryOrderLineSum: {
        std::optional<int> scale;
        int64_t total = 0;  // unscaled
        tx.scan_prefix(refill(h.order_line_key, {p[0], p[1], p[2]}), [&](RowRef row) {
          const RecordValue amount = tx.read_value(row, h.ol_amount);
          total += amount.as_int64();
          scale = amount.type().scale;
          return true;
        });
        if (!scale) return {{Field{}}};
        return {{numeric_field(total, *scale)}};
      }
      case S::kDeliveryCustomerUpdate:
        if (auto row = tx.lookup(refill(h.customer_key, {p[1], p[2], p[3]}))) {
          tx.read(*row, {h.c_balance, h.c_delivery_cnt}, values_);
          tx.update(*row, {{h.c_balance, add_amount(values_[0], as_double(p[0]))},
                           {h.c_delivery_cnt, add_count(values_[1], 1)}});
        }
        return {};
      case S::kStockLevelCount: {
        // The distinct items of the district's last 20 orders whose stock is below the
        // threshold.
        std::vector<int64_t> items;
        tx.scan_range(RecordBound{refill(h.order_line_key, {p[0], p[1], p[3]}), true},
                      RecordBound{refill(h.order_line_high, {p[0], p[1], p[2]}), false},
                      [&](RowRef row) {
                        items.push_back(tx.read_value(row, h.ol_i_id).as_int64());
                        return true;
                      });
        std::sort(items.begin(), items.end());
        items.erase(std::unique(items.begin(), items.end()), items.end());
        int64_t low = 0;
        for (int64_t item : items) {
          std::optional<RowRef> stock = tx.lookup(refill(h.stock_key, {p[0], Field{item}}));
          if (stock && tx.read_value(*stock, h.s_quantity).as_int64() < as_int(p[4])) ++low;
        }
        return {{Field{low}}};
      }
      case S::kCount:
        break;
    }
    throw DriverError("TPC-C: unknown statement");
  }

  Connection connection_;
  std::optional<Transaction> tx_;
  std::optional<Handles> handles_;
  std::vector<RecordValue> values_;  // read buffer, reused
};

}  // namespace

std::unique_ptr<Session> make_floe_record_session(api::Database& database) {
  return std::make_unique<FloeRecordSession>(database);
}

}  // namespace floe::tpcc
