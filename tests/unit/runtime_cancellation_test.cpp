// The runtime's long loops stop with PostgreSQL's cancel message once the statement's cancel
// flag is set (runtime/cancellation.h); without it they run as before.
#include "runtime/cancellation.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>

#include "runtime/aggregation_hash_table.h"
#include "runtime/hash.h"
#include "runtime/join_hash_table.h"
#include "runtime/query_context.h"
#include "runtime/row_buffer.h"
#include "runtime/runtime_abi.h"
#include "storage/error.h"

namespace floe {
namespace {

constexpr int kRows = 20000;  // several CancelPoll intervals per worker

// The message `work` throws, or "" when it finishes.
template <typename Work>
std::string error_of(Work work) {
  try {
    work();
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

int32_t by_value(const uint8_t* a, const uint8_t* b, const void*) {
  int64_t x, y;
  std::memcpy(&x, a, sizeof x);
  std::memcpy(&y, b, sizeof y);
  return (x > y) - (x < y);
}

bool same_value(const uint8_t* a, const uint8_t* b, const void*) {
  return by_value(a, b, nullptr) == 0;
}

bool keep_first(WorkerContext*, uint8_t*, const uint8_t*, const void*) {
  return true;
}

TEST(CancellationTest, CancelPollChecksEveryInterval) {
  std::atomic<bool> flag{true};
  CancelPoll poll(&flag);
  for (uint32_t i = 1; i < CancelPoll::kInterval; ++i) poll.tick();
  EXPECT_EQ(error_of([&] { poll.tick(); }), kCanceledMessage);
  CancelPoll without_flag(nullptr);
  for (uint32_t i = 0; i < 2 * CancelPoll::kInterval; ++i) without_flag.tick();
}

TEST(CancellationTest, QueryContextRecordsTheCancel) {
  std::atomic<bool> flag{false};
  QueryContext query(2, &flag);
  EXPECT_TRUE(floe_rt_check_canceled(&query.worker(1)));
  EXPECT_FALSE(query.failed());
  flag = true;
  EXPECT_FALSE(floe_rt_check_canceled(&query.worker(1)));
  EXPECT_TRUE(query.failed());
  EXPECT_EQ(query.error_message(), kCanceledMessage);
}

TEST(CancellationTest, SortStops) {
  for (bool canceled : {false, true}) {
    std::atomic<bool> flag{canceled};
    QueryContext query(2);
    RowBuffer rows(sizeof(int64_t), 2);
    for (int64_t i = 0; i < kRows; ++i) {
      uint8_t* row = floe_rt_rows_append(&rows, &query.worker(static_cast<uint32_t>(i % 2)));
      int64_t value = (i * 7919) % kRows;
      std::memcpy(row, &value, sizeof value);
    }
    rows.finish();
    EXPECT_EQ(error_of([&] { rows.sort(&by_value, &flag); }), canceled ? kCanceledMessage : "");
  }
}

TEST(CancellationTest, JoinBuildStops) {
  for (bool canceled : {false, true}) {
    std::atomic<bool> flag{canceled};
    QueryContext query(2);
    JoinHashTable table(sizeof(int64_t), 2);
    for (int64_t i = 0; i < kRows; ++i)
      floe_rt_join_insert(&table, &query.worker(static_cast<uint32_t>(i % 2)), mix_hash(i));
    EXPECT_EQ(error_of([&] { table.finalize(&flag); }), canceled ? kCanceledMessage : "");
  }
}

TEST(CancellationTest, AggregationMergeStops) {
  for (bool canceled : {false, true}) {
    std::atomic<bool> flag{canceled};
    QueryContext query(2, &flag);
    AggregationHashTable table(sizeof(int64_t), 2);
    for (int64_t i = 0; i < kRows; ++i) {
      for (uint32_t worker = 0; worker < 2; ++worker) {
        uint8_t* group = floe_rt_agg_insert(&table, &query.worker(worker), mix_hash(i));
        std::memcpy(group, &i, sizeof i);
      }
    }
    EXPECT_EQ(error_of([&] { table.merge(&same_value, &keep_first, query); }),
              canceled ? kCanceledMessage : "");
  }
}

}  // namespace
}  // namespace floe
