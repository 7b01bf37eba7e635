// The window evaluator's frames and segment tree against a direct computation, with
// hand-written stand-ins for the generated comparators and aggregate functions.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstring>
#include <map>
#include <vector>

#include "runtime/query_context.h"
#include "runtime/row_buffer.h"
#include "runtime/runtime_abi.h"
#include "runtime/window_evaluator.h"

namespace floe {
namespace {

using Bound = WindowFrame::Bound;

struct Row {
  int64_t partition;
  int64_t order;  // unique within the partition
  int64_t value;
  int64_t hash;
  int64_t result;
  uint8_t result_null;
};

const Row* as_row(const uint8_t* bytes) {
  return reinterpret_cast<const Row*>(bytes);
}
int32_t compare(int64_t a, int64_t b) {
  return (a > b) - (a < b);
}
int32_t by_partition(const uint8_t* a, const uint8_t* b, const void*) {
  return compare(as_row(a)->partition, as_row(b)->partition);
}
int32_t by_order(const uint8_t* a, const uint8_t* b, const void*) {
  return compare(as_row(a)->order, as_row(b)->order);
}
int32_t by_both(const uint8_t* a, const uint8_t* b, const void*) {
  int32_t order = by_partition(a, b, nullptr);
  return order != 0 ? order : by_order(a, b, nullptr);
}

// sum(value): NULL over an empty frame.
struct SumState {
  int64_t sum;
  int64_t count;
};
bool sum_update(WorkerContext*, uint8_t* state, const uint8_t* row, const void*) {
  auto* sum = reinterpret_cast<SumState*>(state);
  sum->sum += as_row(row)->value;
  ++sum->count;
  return true;
}
bool sum_merge(WorkerContext*, uint8_t* into, const uint8_t* from, const void*) {
  auto* sum = reinterpret_cast<SumState*>(into);
  sum->sum += reinterpret_cast<const SumState*>(from)->sum;
  sum->count += reinterpret_cast<const SumState*>(from)->count;
  return true;
}
bool sum_finalize(WorkerContext*, const uint8_t* state, uint8_t* row, const void*) {
  const auto* sum = reinterpret_cast<const SumState*>(state);
  auto* target = reinterpret_cast<Row*>(row);
  target->result = sum->sum;
  target->result_null = sum->count == 0;
  return true;
}
bool failing_update(WorkerContext* worker, uint8_t*, const uint8_t*, const void*) {
  worker->query->fail("bigint out of range");
  return false;
}

WindowSpec sum_spec(const WindowFrame& frame, bool partitioned) {
  WindowSpec spec;
  spec.partitioned = partitioned;
  spec.hash_offset = offsetof(Row, hash);
  spec.order = by_both;
  spec.same_partition = by_partition;
  spec.peers = by_order;
  WindowFunctionSpec function;
  function.kind = WindowFunctionKind::kAggregate;
  function.frame = frame;
  function.result = {offsetof(Row, result), offsetof(Row, result_null), sizeof(int64_t)};
  function.state_size = sizeof(SumState);
  function.update = sum_update;
  function.merge = sum_merge;
  function.finalize = sum_finalize;
  spec.functions.push_back(function);
  return spec;
}

// Rows appended by two workers in an order unrelated to the ORDER BY key.
void fill(RowBuffer& buffer, QueryContext& query, int64_t rows, int64_t partitions) {
  for (int64_t i = 0; i < rows; ++i) {
    int64_t n = (i * 7919) % rows;
    Row row{n % partitions, n, (n * 37) % 101 - 50, n % partitions, 0, 0};
    std::memcpy(floe_rt_rows_append(&buffer, &query.worker(static_cast<uint32_t>(i % 2))), &row,
                sizeof row);
  }
  buffer.finish();
}

// The frame [begin, end) of position i among `count` rows, computed directly.
std::pair<int64_t, int64_t> direct_frame(const WindowFrame& frame, int64_t i, int64_t count) {
  auto bound = [&](Bound kind, uint64_t offset, bool end) -> int64_t {
    auto shift = static_cast<int64_t>(offset);
    switch (kind) {
      case Bound::kUnboundedPreceding:
        return 0;
      case Bound::kPreceding:
        return i - shift + (end ? 1 : 0);
      case Bound::kCurrentRow:
        return i + (end ? 1 : 0);
      case Bound::kFollowing:
        return i + shift + (end ? 1 : 0);
      case Bound::kUnboundedFollowing:
        return count;
    }
    return 0;
  };
  int64_t begin = std::clamp<int64_t>(bound(frame.start, frame.start_offset, false), 0, count);
  int64_t end = std::clamp<int64_t>(bound(frame.end, frame.end_offset, true), 0, count);
  return {begin, end};
}

void expect_direct_sums(RowBuffer& buffer, const WindowFrame& frame) {
  std::map<int64_t, std::vector<Row>> partitions;
  for (uint64_t r = 0; r < buffer.size(); ++r) {
    Row row;
    std::memcpy(&row, buffer.row(r), sizeof row);
    partitions[row.partition].push_back(row);
  }
  for (auto& [key, rows] : partitions) {
    std::sort(rows.begin(), rows.end(),
              [](const Row& a, const Row& b) { return a.order < b.order; });
    auto count = static_cast<int64_t>(rows.size());
    std::vector<int64_t> prefix(rows.size() + 1, 0);  // sums of the first i values
    for (size_t i = 0; i < rows.size(); ++i) prefix[i + 1] = prefix[i] + rows[i].value;
    for (int64_t i = 0; i < count; ++i) {
      auto [begin, end] = direct_frame(frame, i, count);
      int64_t sum =
          begin < end ? prefix[static_cast<size_t>(end)] - prefix[static_cast<size_t>(begin)] : 0;
      const Row& row = rows[static_cast<size_t>(i)];
      ASSERT_EQ(row.result_null != 0, begin >= end) << "partition " << key << " row " << i;
      if (begin < end) {
        ASSERT_EQ(row.result, sum) << "partition " << key << " row " << i;
      }
    }
  }
}

const std::vector<WindowFrame> kRowsFrames = {
    {WindowFrame::Unit::kRows, Bound::kUnboundedPreceding, Bound::kCurrentRow, 0, 0},
    {WindowFrame::Unit::kRows, Bound::kPreceding, Bound::kFollowing, 3, 2},
    {WindowFrame::Unit::kRows, Bound::kPreceding, Bound::kPreceding, 5, 1},
    {WindowFrame::Unit::kRows, Bound::kFollowing, Bound::kFollowing, 1, 4},
    {WindowFrame::Unit::kRows, Bound::kCurrentRow, Bound::kUnboundedFollowing, 0, 0},
    {WindowFrame::Unit::kRows, Bound::kPreceding, Bound::kPreceding, 1, 3},  // always empty
    {WindowFrame::Unit::kRows, Bound::kPreceding, Bound::kCurrentRow, 1000000, 0},
    {WindowFrame::Unit::kRows, Bound::kUnboundedPreceding, Bound::kFollowing, 0, uint64_t{1} << 40},
};

// Hash-partitioned (13 partitions) and one partition, which comes out sorted.
TEST(WindowEvaluatorTest, SlidingSumsMatchDirectSums) {
  for (bool partitioned : {true, false}) {
    for (const WindowFrame& frame : kRowsFrames) {
      QueryContext query(2);
      RowBuffer buffer(sizeof(Row), 2);
      fill(buffer, query, partitioned ? 20000 : 9999, partitioned ? 13 : 1);
      ASSERT_TRUE(evaluate_windows(buffer, sum_spec(frame, partitioned), query));
      expect_direct_sums(buffer, frame);
      for (uint64_t r = 1; r < buffer.size() && !partitioned; ++r)
        ASSERT_LT(as_row(buffer.row(r - 1))->order, as_row(buffer.row(r))->order);
    }
  }
}

// Partitions of 50,000 rows and more are evaluated in parallel ranges: the segment tree is
// queried from every range, running sums take a parallel prefix.
TEST(WindowEvaluatorTest, LargePartitionsInParallelRangesMatchDirectSums) {
  tbb::task_arena arena(2);
  for (int64_t partitions : {1, 2}) {
    for (const WindowFrame& frame : kRowsFrames) {
      QueryContext query(2);
      RowBuffer buffer(sizeof(Row), 2);
      fill(buffer, query, 100000, partitions);
      bool evaluated = false;
      arena.execute([&] {
        evaluated = evaluate_windows(buffer, sum_spec(frame, partitions > 1), query, false);
      });
      ASSERT_TRUE(evaluated);
      expect_direct_sums(buffer, frame);
    }
  }
}

// Partitions whose hashes all collide, sorted by hash and the ORDER BY key as a number:
// the evaluator sorts their rows again by the comparator before it evaluates them.
TEST(WindowEvaluatorTest, CollidingPartitionHashesKeepPartitionsWhole) {
  for (const WindowFrame& frame : kRowsFrames) {
    QueryContext query(2);
    RowBuffer buffer(sizeof(Row), 2);
    fill(buffer, query, 5000, 7);
    for (uint64_t r = 0; r < buffer.size(); ++r) reinterpret_cast<Row*>(buffer.row(r))->hash = 42;
    WindowSpec spec = sum_spec(frame, true);
    spec.sort_keys = {{{offsetof(Row, order), WindowField::kNeverNull, 8}, false, false}};
    spec.order_key_count = 1;
    ASSERT_TRUE(evaluate_windows(buffer, spec, query));
    expect_direct_sums(buffer, frame);
  }
}

// sum(value) that fails once the sum drops below -1000.
bool floor_sum_update(WorkerContext* worker, uint8_t* state, const uint8_t* row,
                      const void* context) {
  sum_update(worker, state, row, context);
  if (reinterpret_cast<SumState*>(state)->sum >= -1000) return true;
  worker->query->fail("sum below floor");
  return false;
}

// A running sum that stays above the floor while the sums of the later ranges on their own
// do not: the parallel prefix gives way to one pass, without an error.
TEST(WindowEvaluatorTest, ParallelPrefixFallsBackWhenARangeAloneFails) {
  tbb::task_arena arena(2);
  QueryContext query(2);
  RowBuffer buffer(sizeof(Row), 2);
  const int64_t rows = 100000;
  for (int64_t i = 0; i < rows; ++i) {
    int64_t n = (i * 7919) % rows;
    Row row{0, n, n < rows / 2 ? 1 : -1, 0, 0, 0};
    std::memcpy(floe_rt_rows_append(&buffer, &query.worker(static_cast<uint32_t>(i % 2))), &row,
                sizeof row);
  }
  buffer.finish();
  WindowSpec spec = sum_spec(kRowsFrames[0], false);
  spec.functions[0].update = floor_sum_update;
  bool evaluated = false;
  arena.execute([&] { evaluated = evaluate_windows(buffer, spec, query); });
  ASSERT_TRUE(evaluated) << query.error_message();
  expect_direct_sums(buffer, kRowsFrames[0]);

  // Past the floor for real: the error of the running sum.
  QueryContext failing(2);
  RowBuffer negative(sizeof(Row), 2);
  for (int64_t i = 0; i < rows; ++i) {
    Row row{0, i, -1, 0, 0, 0};
    std::memcpy(floe_rt_rows_append(&negative, &failing.worker(0)), &row, sizeof row);
  }
  negative.finish();
  arena.execute([&] { evaluated = evaluate_windows(negative, spec, failing); });
  EXPECT_FALSE(evaluated);
  EXPECT_EQ(failing.error_message(), "sum below floor");
}

// Keys the sort compares as numbers (WindowSpec::sort_keys): a nullable integer descending
// with NULLs first, a nullable bigint ascending with NULLs last (whose number loses a bit
// to NULL), then a key only the comparator sees.
struct KeyedRow {
  int32_t a;
  uint8_t a_null;
  int64_t b;
  uint8_t b_null;
  int64_t id;
  int64_t result;
};
const KeyedRow* as_keyed(const uint8_t* bytes) {
  return reinterpret_cast<const KeyedRow*>(bytes);
}
int32_t keyed_order(const uint8_t* x, const uint8_t* y, const void*) {
  const KeyedRow* a = as_keyed(x);
  const KeyedRow* b = as_keyed(y);
  if (a->a_null != b->a_null) return a->a_null ? -1 : 1;
  if (!a->a_null && a->a != b->a) return a->a > b->a ? -1 : 1;
  if (a->b_null != b->b_null) return a->b_null ? 1 : -1;
  if (!a->b_null && a->b != b->b) return compare(a->b, b->b);
  return compare(a->id, b->id);
}
int32_t no_keys(const uint8_t*, const uint8_t*, const void*) {
  return 0;
}

TEST(WindowEvaluatorTest, IntegerSortKeysOrderAsTheComparator) {
  tbb::task_arena arena(2);
  QueryContext query(2);
  RowBuffer buffer(sizeof(KeyedRow), 2);
  const int64_t rows = 50000;
  const int64_t big = int64_t{1} << 62;
  for (int64_t i = 0; i < rows; ++i) {
    int64_t n = (i * 7919) % rows;
    KeyedRow row{static_cast<int32_t>(n % 23) - 11, n % 17 == 0, 0, n % 13 == 0, n, 0};
    // Neighbouring bigints (which share their number) and the extremes.
    row.b = n % 5 == 0 ? (n % 2 ? INT64_MIN : INT64_MAX) : (n % 3 - 1) * big + n % 4;
    std::memcpy(floe_rt_rows_append(&buffer, &query.worker(static_cast<uint32_t>(i % 2))), &row,
                sizeof row);
  }
  buffer.finish();
  WindowSpec spec;
  spec.order = keyed_order;
  spec.same_partition = no_keys;
  spec.peers = keyed_order;
  spec.order_key_count = 3;
  spec.sort_keys = {{{offsetof(KeyedRow, a), offsetof(KeyedRow, a_null), 4}, true, true},
                    {{offsetof(KeyedRow, b), offsetof(KeyedRow, b_null), 8}, false, false}};
  WindowFunctionSpec row_number;
  row_number.kind = WindowFunctionKind::kRowNumber;
  row_number.result = {offsetof(KeyedRow, result), WindowField::kNeverNull, sizeof(int64_t)};
  spec.functions.push_back(row_number);
  bool evaluated = false;
  arena.execute([&] { evaluated = evaluate_windows(buffer, spec, query); });
  ASSERT_TRUE(evaluated);
  std::vector<KeyedRow> expected;
  for (uint64_t r = 0; r < buffer.size(); ++r) expected.push_back(*as_keyed(buffer.row(r)));
  std::sort(expected.begin(), expected.end(), [](const KeyedRow& x, const KeyedRow& y) {
    return keyed_order(reinterpret_cast<const uint8_t*>(&x), reinterpret_cast<const uint8_t*>(&y),
                       nullptr) < 0;
  });
  for (size_t i = 0; i < expected.size(); ++i)
    ASSERT_EQ(expected[i].result, static_cast<int64_t>(i + 1)) << "row " << expected[i].id;
}

// Peer groups of three ORDER BY values, for GROUPS frames and EXCLUDE.
int32_t by_thirds(const uint8_t* a, const uint8_t* b, const void*) {
  return compare(as_row(a)->order / 3, as_row(b)->order / 3);
}

// Whether row j (of peer group gj) is in row i's (group gi) frame, computed directly.
bool in_frame(const WindowFrame& frame, int64_t i, int64_t gi, int64_t j, int64_t gj) {
  bool groups = frame.unit == WindowFrame::Unit::kGroups;
  int64_t at = groups ? gi : i;
  int64_t position = groups ? gj : j;
  auto after_start = [&]() {
    auto shift = static_cast<int64_t>(frame.start_offset);
    switch (frame.start) {
      case Bound::kUnboundedPreceding:
        return true;
      case Bound::kPreceding:
        return position >= at - shift;
      case Bound::kCurrentRow:
        return position >= at;
      case Bound::kFollowing:
        return position >= at + shift;
      case Bound::kUnboundedFollowing:
        return false;
    }
    return false;
  };
  auto before_end = [&]() {
    auto shift = static_cast<int64_t>(frame.end_offset);
    switch (frame.end) {
      case Bound::kUnboundedPreceding:
        return false;
      case Bound::kPreceding:
        return position <= at - shift;
      case Bound::kCurrentRow:
        return position <= at;
      case Bound::kFollowing:
        return position <= at + shift;
      case Bound::kUnboundedFollowing:
        return true;
    }
    return false;
  };
  if (!after_start() || !before_end()) return false;
  switch (frame.exclusion) {
    case WindowFrame::Exclusion::kNoOthers:
      return true;
    case WindowFrame::Exclusion::kCurrentRow:
      return j != i;
    case WindowFrame::Exclusion::kGroup:
      return gj != gi;
    case WindowFrame::Exclusion::kTies:
      return gj != gi || j == i;
  }
  return true;
}

const std::vector<WindowFrame> kGroupFrames = {
    {WindowFrame::Unit::kGroups, Bound::kPreceding, Bound::kFollowing, 2, 1},
    {WindowFrame::Unit::kGroups, Bound::kFollowing, Bound::kFollowing, 1, 3},
    {WindowFrame::Unit::kGroups, Bound::kUnboundedPreceding, Bound::kPreceding, 0, 1},
    {WindowFrame::Unit::kGroups, Bound::kCurrentRow, Bound::kCurrentRow, 0, 0,
     WindowFrame::Exclusion::kTies},
    {WindowFrame::Unit::kGroups, Bound::kPreceding, Bound::kUnboundedFollowing, 1, 0,
     WindowFrame::Exclusion::kGroup},
    {WindowFrame::Unit::kRows, Bound::kPreceding, Bound::kFollowing, 4, 4,
     WindowFrame::Exclusion::kCurrentRow},
    {WindowFrame::Unit::kRows, Bound::kUnboundedPreceding, Bound::kCurrentRow, 0, 0,
     WindowFrame::Exclusion::kTies},
    {WindowFrame::Unit::kRange, Bound::kUnboundedPreceding, Bound::kUnboundedFollowing, 0, 0,
     WindowFrame::Exclusion::kGroup},
};

// GROUPS frames and EXCLUDE, through the segment tree and through the aggregation of each
// frame anew (the aggregates that cannot merge states), against direct sums.
TEST(WindowEvaluatorTest, GroupFramesAndExclusionMatchDirectSums) {
  for (bool mergeable : {true, false}) {
    for (const WindowFrame& frame : kGroupFrames) {
      QueryContext query(2);
      RowBuffer buffer(sizeof(Row), 2);
      fill(buffer, query, 3000, 7);
      WindowSpec spec = sum_spec(frame, true);
      spec.peers = by_thirds;
      spec.functions[0].mergeable = mergeable;
      ASSERT_TRUE(evaluate_windows(buffer, spec, query));
      std::map<int64_t, std::vector<Row>> partitions;
      for (uint64_t r = 0; r < buffer.size(); ++r)
        partitions[as_row(buffer.row(r))->partition].push_back(*as_row(buffer.row(r)));
      for (auto& [key, rows] : partitions) {
        std::sort(rows.begin(), rows.end(),
                  [](const Row& a, const Row& b) { return a.order < b.order; });
        std::vector<int64_t> group(rows.size());
        for (size_t i = 1; i < rows.size(); ++i)
          group[i] = group[i - 1] + (rows[i].order / 3 != rows[i - 1].order / 3 ? 1 : 0);
        for (size_t i = 0; i < rows.size(); ++i) {
          int64_t sum = 0;
          bool empty = true;
          for (size_t j = 0; j < rows.size(); ++j) {
            if (!in_frame(frame, int64_t(i), group[i], int64_t(j), group[j])) continue;
            sum += rows[j].value;
            empty = false;
          }
          ASSERT_EQ(rows[i].result_null != 0, empty) << "partition " << key << " row " << i;
          if (!empty) {
            ASSERT_EQ(rows[i].result, sum) << "partition " << key << " row " << i;
          }
        }
      }
    }
  }
}

TEST(WindowEvaluatorTest, FailureOfGeneratedCodeStopsEvaluation) {
  for (bool partitioned : {false, true}) {
    QueryContext query(2);
    RowBuffer buffer(sizeof(Row), 2);
    fill(buffer, query, 1000, 3);
    WindowSpec spec = sum_spec(kRowsFrames[1], partitioned);
    spec.functions[0].update = failing_update;
    EXPECT_FALSE(evaluate_windows(buffer, spec, query));
    EXPECT_EQ(query.error_message(), "bigint out of range");
  }
}

}  // namespace
}  // namespace floe
