// The TPC-C population and one of each transaction on a tiny population (2 warehouses, 100
// items, 30 customers per district), on floe (SQL and the record-level API) and on SQLite,
// checked with SQL of their own.
#include <gtest/gtest.h>

#include "bench/tpcc/tpcc_consistency.h"
#include "bench/tpcc/tpcc_population.h"
#include "bench/tpcc/tpcc_transactions.h"

namespace floe::tpcc {
namespace {

constexpr Scale kTiny{100, 30};
constexpr int kWarehouses = 2;

class TpccTransactionsTest : public ::testing::TestWithParam<std::pair<Engine, Api>> {
 protected:
  void SetUp() override {
    backend_ = make_backend(GetParam().first, GetParam().second);
    Random random(1);
    populate(*backend_, kTiny, kWarehouses, 2, random.load_constants(), "2026-01-01 00:00:00",
             nullptr);
    session_ = backend_->connect();
  }

  int64_t count(const std::string& sql) { return as_int(session_->query(sql).at(0).at(0)); }
  double number(const std::string& sql) { return as_double(session_->query(sql).at(0).at(0)); }
  void expect_consistent() {
    ConsistencyResult result = check_consistency(*session_);
    EXPECT_TRUE(result.ok()) << result.violations[0] << " " << result.violations[1] << " "
                             << result.violations[2] << " " << result.violations[3];
  }

  std::unique_ptr<Backend> backend_;
  std::unique_ptr<Session> session_;
};

TEST_P(TpccTransactionsTest, PopulationHasTheCardinalitiesOfClause4_3) {
  EXPECT_EQ(count("SELECT count(*) FROM warehouse"), 2);
  EXPECT_EQ(count("SELECT count(*) FROM district"), 20);
  EXPECT_EQ(count("SELECT count(*) FROM item"), 100);
  EXPECT_EQ(count("SELECT count(*) FROM stock"), 200);
  EXPECT_EQ(count("SELECT count(*) FROM customer"), 600);
  EXPECT_EQ(count("SELECT count(*) FROM history"), 600);
  EXPECT_EQ(count("SELECT count(*) FROM \"order\""), 600);
  // Orders 22..30 of each district are new (the last 30%).
  EXPECT_EQ(count("SELECT count(*) FROM new_order"), 180);
  EXPECT_EQ(count("SELECT count(*) FROM \"order\" WHERE o_carrier_id IS NULL"), 180);
  EXPECT_EQ(count("SELECT count(*) FROM order_line"), count("SELECT sum(o_ol_cnt) FROM \"order\""));
  EXPECT_EQ(count("SELECT count(*) FROM order_line WHERE ol_delivery_d IS NULL AND "
                  "ol_amount > 0"),
            count("SELECT count(*) FROM order_line WHERE ol_o_id >= 22"));
  EXPECT_EQ(count("SELECT count(DISTINCT c_last) FROM customer"), 30);
  EXPECT_EQ(count("SELECT count(*) FROM customer WHERE c_last = 'BARBARBAR'"), 20);
  EXPECT_EQ(count("SELECT min(d_next_o_id) FROM district"), 31);
  EXPECT_EQ(count("SELECT max(d_next_o_id) FROM district"), 31);
  expect_consistent();
}

TEST_P(TpccTransactionsTest, NewOrderInsertsTheOrderAndUpdatesStock) {
  int64_t quantity = count("SELECT s_quantity FROM stock WHERE s_w_id = 2 AND s_i_id = 7");
  NewOrderInput input{
      1, 3, 5, {{7, 2, 4}, {8, 1, 10}, {9, 1, 1}, {10, 1, 2}, {11, 1, 3}}, "2026-01-02 00:00:00"};
  NewOrderOutput out = run_new_order(*session_, input);
  EXPECT_FALSE(out.rolled_back);
  EXPECT_EQ(out.o_id, 31);
  EXPECT_EQ(out.brand_generic.size(), 5u);
  EXPECT_GT(out.total_amount, 0);
  EXPECT_EQ(count("SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 3"), 32);
  EXPECT_EQ(count("SELECT o_c_id FROM \"order\" WHERE o_w_id = 1 AND o_d_id = 3 AND o_id = 31"), 5);
  // One line is supplied by warehouse 2: the order is not all local.
  EXPECT_EQ(count("SELECT o_all_local FROM \"order\" WHERE o_w_id = 1 AND o_d_id = 3 AND "
                  "o_id = 31"),
            0);
  EXPECT_EQ(count("SELECT count(*) FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 3 AND "
                  "ol_o_id = 31"),
            5);
  EXPECT_EQ(count("SELECT count(*) FROM new_order WHERE no_w_id = 1 AND no_d_id = 3 AND "
                  "no_o_id = 31"),
            1);
  int64_t expected = quantity - 4 >= 10 ? quantity - 4 : quantity - 4 + 91;
  EXPECT_EQ(count("SELECT s_quantity FROM stock WHERE s_w_id = 2 AND s_i_id = 7"), expected);
  EXPECT_EQ(count("SELECT s_remote_cnt FROM stock WHERE s_w_id = 2 AND s_i_id = 7"), 1);
  EXPECT_EQ(count("SELECT s_ytd FROM stock WHERE s_w_id = 2 AND s_i_id = 7"), 4);
  EXPECT_EQ(count("SELECT s_order_cnt FROM stock WHERE s_w_id = 1 AND s_i_id = 8"), 1);
  // OL_AMOUNT = OL_QUANTITY * I_PRICE.
  EXPECT_NEAR(number("SELECT ol_amount FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 3 AND "
                     "ol_o_id = 31 AND ol_number = 2"),
              10 * number("SELECT i_price FROM item WHERE i_id = 8"), 0.001);
  expect_consistent();
}

TEST_P(TpccTransactionsTest, NewOrderWithAnUnusedItemRollsBack) {
  NewOrderInput input{1, 3, 5, {{7, 1, 4}, {8, 1, 10}, {101, 1, 1}}, "2026-01-02 00:00:00"};
  NewOrderOutput out = run_new_order(*session_, input);
  EXPECT_TRUE(out.rolled_back);
  EXPECT_EQ(count("SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 3"), 31);
  EXPECT_EQ(count("SELECT count(*) FROM \"order\""), 600);
  EXPECT_EQ(count("SELECT count(*) FROM order_line WHERE ol_o_id = 31"), 0);
  EXPECT_EQ(count("SELECT sum(s_order_cnt) FROM stock"), 0);
  expect_consistent();
}

TEST_P(TpccTransactionsTest, PaymentByIdOfABadCreditCustomer) {
  int64_t c_id = count(
      "SELECT min(c_id) FROM customer WHERE c_w_id = 2 AND c_d_id = 4 AND "
      "c_credit = 'BC'");
  ASSERT_GT(c_id, 0);
  PaymentInput input{1, 2, 2, 4, CustomerSelector::by_id(c_id), 123.45, "2026-01-02 00:00:00"};
  PaymentOutput out = run_payment(*session_, input);
  EXPECT_EQ(out.c_id, c_id);
  EXPECT_EQ(out.c_credit, "BC");
  EXPECT_NEAR(out.c_balance, -133.45, 0.001);
  std::string key = " WHERE c_w_id = 2 AND c_d_id = 4 AND c_id = " + std::to_string(c_id);
  EXPECT_NEAR(number("SELECT c_balance FROM customer" + key), -133.45, 0.001);
  EXPECT_NEAR(number("SELECT c_ytd_payment FROM customer" + key), 133.45, 0.001);
  EXPECT_EQ(count("SELECT c_payment_cnt FROM customer" + key), 2);
  std::string c_data = as_string(session_->query("SELECT c_data FROM customer" + key)[0][0]);
  EXPECT_EQ(c_data.rfind(std::to_string(c_id) + " 4 2 2 1 123.45 | ", 0), 0u) << c_data;
  EXPECT_LE(c_data.size(), 500u);
  EXPECT_NEAR(number("SELECT w_ytd FROM warehouse WHERE w_id = 1"), 300123.45, 0.001);
  EXPECT_NEAR(number("SELECT d_ytd FROM district WHERE d_w_id = 1 AND d_id = 2"), 30123.45, 0.001);
  EXPECT_EQ(count("SELECT count(*) FROM history WHERE h_amount > 100"), 1);
  expect_consistent();
}

TEST_P(TpccTransactionsTest, PaymentByLastNameTakesTheMiddleCustomer) {
  // The customers named BARBARBAR of district (1, 1), by first name: position ceil(n / 2).
  std::vector<Row> rows = session_->query(
      "SELECT c_id FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_last = 'BARBARBAR' "
      "ORDER BY c_first");
  ASSERT_FALSE(rows.empty());
  int64_t expected = as_int(rows[(rows.size() - 1) / 2][0]);
  PaymentInput input{
      1, 1, 1, 1, CustomerSelector::by_last_name("BARBARBAR"), 5.0, "2026-01-02 00:00:00"};
  EXPECT_EQ(run_payment(*session_, input).c_id, expected);
  OrderStatusInput status{1, 1, CustomerSelector::by_last_name("BARBARBAR")};
  EXPECT_EQ(run_order_status(*session_, status).c_id, expected);
  expect_consistent();
}

TEST_P(TpccTransactionsTest, OrderStatusFindsTheLastOrder) {
  NewOrderInput input{2,
                      5,
                      9,
                      {{1, 2, 1}, {2, 2, 1}, {3, 2, 1}, {4, 2, 1}, {5, 2, 1}, {6, 2, 1}},
                      "2026-01-02 00:00:00"};
  run_new_order(*session_, input);
  OrderStatusOutput out = run_order_status(*session_, {2, 5, CustomerSelector::by_id(9)});
  EXPECT_EQ(out.c_id, 9);
  EXPECT_EQ(out.o_id, 31);
  EXPECT_EQ(out.order_lines, 6u);
}

TEST_P(TpccTransactionsTest, DeliveryDeliversTheOldestOrderOfEachDistrict) {
  int64_t c_id = count(
      "SELECT o_c_id FROM \"order\" WHERE o_w_id = 2 AND o_d_id = 7 AND "
      "o_id = 22");
  std::string customer =
      " FROM customer WHERE c_w_id = 2 AND c_d_id = 7 AND c_id = " + std::to_string(c_id);
  double balance = number("SELECT c_balance" + customer);
  double amount = number(
      "SELECT sum(ol_amount) FROM order_line WHERE ol_w_id = 2 AND "
      "ol_d_id = 7 AND ol_o_id = 22");
  DeliveryOutput out = run_delivery(*session_, {2, 6, "2026-01-03 00:00:00"});
  EXPECT_EQ(out.delivered, 10);
  EXPECT_EQ(count("SELECT count(*) FROM new_order WHERE no_w_id = 2"), 80);
  EXPECT_EQ(count("SELECT min(no_o_id) FROM new_order WHERE no_w_id = 2"), 23);
  EXPECT_EQ(count("SELECT count(*) FROM \"order\" WHERE o_w_id = 2 AND o_id = 22 AND "
                  "o_carrier_id = 6"),
            10);
  EXPECT_EQ(count("SELECT count(*) FROM order_line WHERE ol_w_id = 2 AND ol_o_id = 22 AND "
                  "ol_delivery_d IS NULL"),
            0);
  EXPECT_NEAR(number("SELECT c_balance" + customer), balance + amount, 0.001);
  EXPECT_EQ(count("SELECT c_delivery_cnt" + customer), 1);
  expect_consistent();
}

TEST_P(TpccTransactionsTest, StockLevelCountsTheRecentItemsBelowTheThreshold) {
  for (int64_t threshold : {10, 15, 20, 100}) {
    int64_t expected = count(
        "SELECT count(*) FROM stock WHERE s_w_id = 1 AND s_quantity < " +
        std::to_string(threshold) +
        " AND s_i_id IN (SELECT ol_i_id FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 4 AND "
        "ol_o_id >= 11 AND ol_o_id < 31)");
    EXPECT_EQ(run_stock_level(*session_, {1, 4, threshold}).low_stock, expected) << threshold;
  }
  EXPECT_GT(run_stock_level(*session_, {1, 4, 101}).low_stock, 0);
}

TEST_P(TpccTransactionsTest, TheMixKeepsTheDatabaseConsistent) {
  Random random(9);
  NurandConstants load = random.load_constants();
  InputGenerator inputs(kTiny, kWarehouses, 4, random.run_constants(load));
  std::array<int, kTransactionTypes> counts{};
  for (int i = 0; i < 100; ++i) {
    TransactionType type = inputs.next_type();
    ++counts[static_cast<size_t>(type)];
    switch (type) {
      case TransactionType::kNewOrder:
        run_new_order(*session_, inputs.new_order());
        break;
      case TransactionType::kPayment:
        run_payment(*session_, inputs.payment());
        break;
      case TransactionType::kOrderStatus:
        run_order_status(*session_, inputs.order_status());
        break;
      case TransactionType::kDelivery:
        run_delivery(*session_, inputs.delivery());
        break;
      case TransactionType::kStockLevel:
        run_stock_level(*session_, inputs.stock_level());
        break;
    }
  }
  EXPECT_GT(counts[0], 25);  // 45% of 100
  EXPECT_GT(counts[1], 25);  // 43%
  expect_consistent();
}

std::string backend_name(const ::testing::TestParamInfo<std::pair<Engine, Api>>& info) {
  if (info.param.first == Engine::kSqlite) return "sqlite";
  return info.param.second == Api::kRecord ? "floe_record" : "floe";
}

INSTANTIATE_TEST_SUITE_P(Engines, TpccTransactionsTest,
                         ::testing::Values(std::pair{Engine::kFloe, Api::kSql},
                                           std::pair{Engine::kFloe, Api::kRecord},
                                           std::pair{Engine::kSqlite, Api::kSql}),
                         backend_name);

TEST(TpccBackendTest, SqliteHasNoRecordApi) {
  try {
    make_backend(Engine::kSqlite, Api::kRecord);
    FAIL() << "no error";
  } catch (const DriverError& error) {
    EXPECT_STREQ(error.what(), "--api record: SQLite has no record-level API; use --api sql");
  }
}

}  // namespace
}  // namespace floe::tpcc
