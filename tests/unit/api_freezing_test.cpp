// When chunks freeze: bulk loads under freeze_policy 'auto' / 'bulk', the background freezer
// under 'auto' only, nothing under 'never'; results never depend on it.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "engine/api/database.h"

namespace floe {
namespace {

class FreezingTest : public ::testing::Test {
 protected:
  FreezingTest() : connection_(database_) {
    connection_.query(
        "create table digits (x integer);"
        "insert into digits values (0), (1), (2), (3), (4), (5), (6), (7), (8), (9);"
        "create table t (id integer, s text)");
  }

  std::pair<int64_t, int64_t> hot_and_frozen() {
    Result result = connection_.query(
        "select hot_chunks, frozen_chunks from floe_storage where table_name = 't' and "
        "column_name = 'id'");
    return {result.value(0, 0).as_int64(), result.value(0, 1).as_int64()};
  }

  Database database_;
  Connection connection_;
};

TEST_F(FreezingTest, InsertSelectIntoAnEmptyTableFreezesItsFullChunks) {
  connection_.query(
      "insert into t select a.x * 10000 + b.x * 1000 + c.x * 100 + d.x * 10 + e.x, 'row' "
      "from digits a, digits b, digits c, digits d, digits e");
  // 100000 rows: a full chunk, frozen, and a partial one, hot.
  EXPECT_EQ(hot_and_frozen(), std::make_pair(int64_t{1}, int64_t{1}));
  EXPECT_EQ(connection_.query("select sum(id) from t").value(0, 0).to_string(), "4999950000");
}

TEST_F(FreezingTest, NeverPolicyKeepsChunksHotUntilVacuumFreeze) {
  connection_.query("set freeze_policy = 'never'");
  connection_.query(
      "insert into t select a.x * 10000 + b.x * 1000 + c.x * 100 + d.x * 10 + e.x, 'row' "
      "from digits a, digits b, digits c, digits d, digits e");
  EXPECT_EQ(hot_and_frozen().second, 0);
  connection_.query("vacuum freeze t");
  EXPECT_EQ(hot_and_frozen(), std::make_pair(int64_t{0}, int64_t{2}));
  connection_.query("insert into t values (1, 'more')");
  EXPECT_EQ(hot_and_frozen(), std::make_pair(int64_t{1}, int64_t{2}));
}

TEST_F(FreezingTest, BackgroundFreezerFreezesFullUntouchedChunks) {
  connection_.query("set freeze_policy = 'bulk'");
  connection_.query("set freeze_delay = 0");
  // Row by row: not a bulk load, so the full chunk stays hot.
  connection_.query("insert into t values (1, 'a')");
  connection_.query(
      "insert into t select a.x * 10000 + b.x * 1000 + c.x * 100 + d.x * 10 + e.x, 'row' "
      "from digits a, digits b, digits c, digits d, digits e");
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  EXPECT_EQ(hot_and_frozen().second, 0);  // 'bulk': no background freezing
  connection_.query("set freeze_policy = 'auto'");
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (hot_and_frozen().second < 1 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  // The full chunk freezes; the partial last one stays hot.
  EXPECT_EQ(hot_and_frozen(), std::make_pair(int64_t{1}, int64_t{1}));
  EXPECT_EQ(connection_.query("select count(*) from t where id = 1").value(0, 0).as_int64(), 2);
}

}  // namespace
}  // namespace floe
