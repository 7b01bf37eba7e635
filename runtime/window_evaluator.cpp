#include "runtime/window_evaluator.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "runtime/cancellation.h"
#include "runtime/hash.h"
#include "runtime/parallel_sort.h"

namespace floe {
namespace {

using Bound = WindowFrame::Bound;
using Exclusion = WindowFrame::Exclusion;
using Unit = WindowFrame::Unit;

// Buckets of the hash partitioning: enough tasks for any worker count, few enough that small
// inputs do not pay for many empty ones.
constexpr unsigned kBucketBits = 8;
// Below this many rows per slice, scattering rows in parallel costs more than it saves.
constexpr size_t kMinRowsPerSlice = 4096;
// A partition of at least twice this many rows is evaluated in parallel ranges of rows.
constexpr size_t kMinRowsPerRange = 16384;
// Passes over sorted rows touch them in random memory order: prefetch this far ahead.
constexpr size_t kPrefetchDistance = 16;

bool is_null(const WindowField& field, const uint8_t* row) {
  return field.null_offset != WindowField::kNeverNull && row[field.null_offset] != 0;
}

void set_null(const WindowField& field, uint8_t* row, bool null) {
  if (field.null_offset != WindowField::kNeverNull) row[field.null_offset] = null ? 1 : 0;
}

int64_t load_int64(const WindowField& field, const uint8_t* row) {
  int64_t value;
  std::memcpy(&value, row + field.offset, sizeof(value));
  return value;
}

template <typename T>
void store(const WindowField& field, uint8_t* row, T value) {
  std::memcpy(row + field.offset, &value, sizeof(value));
  set_null(field, row, false);
}

// Copies a value (and whether it is NULL) from field `from` of `source` into `to` of `row`.
void copy_value(const WindowField& from, const uint8_t* source, const WindowField& to,
                uint8_t* row) {
  bool null = is_null(from, source);
  set_null(to, row, null);
  if (!null) std::memcpy(row + to.offset, source + from.offset, to.size);
}

// row + offset, clamped to [0, limit]; offsets may be as large as bigint allows.
size_t clamp_add(size_t row, uint64_t offset, size_t limit) {
  return offset >= limit - row ? limit : row + offset;
}
size_t clamp_sub(size_t row, uint64_t offset) {
  return offset >= row ? 0 : row - offset;
}

// The calling thread's worker: its string heap holds what the generated functions compute
// (string_agg). The executor runs the evaluation in a task arena of worker_count threads, as
// the morsel dispatcher does.
WorkerContext& current_worker(QueryContext& query) {
  auto thread = static_cast<uint32_t>(std::max(0, tbb::this_task_arena::current_thread_index()));
  return query.worker(thread < query.worker_count() ? thread : 0);
}

// What the sorts compare: up to two keys, then (if they tie and are not `exact`) the rows by
// the generated comparator. With PARTITION BY the keys are the partition hash and the first
// ORDER BY key if it is an integer, so that rows rarely reach the comparator (partitions
// whose hashes collide are sorted again, evaluate_partitions); without it they are the
// leading integer ORDER BY keys.
struct SortEntry {
  std::array<uint64_t, 2> keys;
  uint8_t* row;
};

struct EntryLess {
  RowComparator order;
  bool exact;  // equal keys mean peers in the window's order
  bool operator()(const SortEntry& a, const SortEntry& b) const {
    if (a.keys[0] != b.keys[0]) return a.keys[0] < b.keys[0];
    if (a.keys[1] != b.keys[1]) return a.keys[1] < b.keys[1];
    return !exact && order(a.row, b.row) < 0;
  }
};

// An unsigned number that orders as the key does (WindowSortKey). A NULL takes the number
// beyond either end; for 8-byte keys that costs the lowest value bit, so that neighbouring
// values tie and the comparator decides.
uint64_t sort_key(const WindowSortKey& key, const uint8_t* row) {
  const WindowField& field = key.field;
  int64_t value = 0;
  switch (field.size) {
    case 1:
      value = static_cast<int8_t>(row[field.offset]);
      break;
    case 2: {
      int16_t narrow;
      std::memcpy(&narrow, row + field.offset, sizeof(narrow));
      value = narrow;
      break;
    }
    case 4: {
      int32_t narrow;
      std::memcpy(&narrow, row + field.offset, sizeof(narrow));
      value = narrow;
      break;
    }
    default:
      value = load_int64(field, row);
  }
  const unsigned bits = field.size * 8;
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  uint64_t biased = (static_cast<uint64_t>(value) + (uint64_t{1} << (bits - 1))) & mask;
  if (key.descending) biased = mask - biased;
  if (field.null_offset == WindowField::kNeverNull) return biased;
  bool null = row[field.null_offset] != 0;
  if (bits < 64) {
    if (key.nulls_first) return null ? 0 : biased + 1;
    return null ? mask + 1 : biased;
  }
  if (key.nulls_first) return null ? 0 : (biased >> 1) + 1;
  return null ? ~uint64_t{0} : biased >> 1;
}

bool exact_sort_key(const WindowSortKey& key) {
  return key.field.size < 8 || key.field.null_offset == WindowField::kNeverNull;
}

// Whether any function needs the peer groups (rows with equal ORDER BY keys).
bool needs_peer_groups(const WindowSpec& spec) {
  for (const WindowFunctionSpec& function : spec.functions) {
    switch (function.kind) {
      case WindowFunctionKind::kRank:
      case WindowFunctionKind::kDenseRank:
      case WindowFunctionKind::kPercentRank:
      case WindowFunctionKind::kCumeDist:
        return true;
      case WindowFunctionKind::kFirstValue:
      case WindowFunctionKind::kLastValue:
      case WindowFunctionKind::kNthValue:
      case WindowFunctionKind::kAggregate:
        if (function.frame.unit != Unit::kRows || function.frame.exclusion == Exclusion::kGroup ||
            function.frame.exclusion == Exclusion::kTies)
          return true;
        break;
      default:
        break;
    }
  }
  return false;
}

// One partition: rows[0, count) sorted by the ORDER BY keys. A partition of at least
// 2 * kMinRowsPerRange rows is evaluated in parallel ranges of rows, each by the worker that
// runs it: any worker can compute a row's ranks, frame and segment tree query from its
// position alone (Leis et al. 2015, section 4.4); running aggregates take a parallel prefix.
class PartitionEvaluator {
 public:
  // One evaluator serves all partitions of a bucket, reusing its arrays.
  PartitionEvaluator(const WindowSpec& spec, QueryContext& query, WorkerContext* worker,
                     CancelPoll& poll)
      : spec_(spec),
        needs_peer_groups_(needs_peer_groups(spec)),
        query_(query),
        worker_(worker),
        poll_(poll) {}

  // Every function over the partition rows[0, count).
  bool evaluate(uint8_t* const* rows, size_t count) {
    rows_ = rows;
    count_ = count;
    size_t ranges = std::min<size_t>(count / kMinRowsPerRange, 4 * query_.worker_count());
    if (query_.worker_count() == 1 || ranges < 2) ranges = 1;
    bounds_.clear();
    for (size_t r = 0; r <= ranges; ++r) bounds_.push_back(count * r / ranges);
    if (needs_peer_groups_) find_peer_groups(spec_.peers);
    for (const WindowFunctionSpec& function : spec_.functions) {
      if (query_.failed() || !evaluate(function)) return false;
    }
    return true;
  }

 private:
  bool evaluate(const WindowFunctionSpec& function) {
    switch (function.kind) {
      case WindowFunctionKind::kRowNumber:
        return for_each_row([&](size_t i, WorkerContext&) {
          store(function.result, rows_[i], int64_t(i + 1));
          return true;
        });
      case WindowFunctionKind::kRank:
        return for_each_row([&](size_t i, WorkerContext&) {
          store(function.result, rows_[i], int64_t(peer_begin(i) + 1));
          return true;
        });
      case WindowFunctionKind::kDenseRank:
        return for_each_row([&](size_t i, WorkerContext&) {
          store(function.result, rows_[i], int64_t(groups_before_[i] + 1));
          return true;
        });
      case WindowFunctionKind::kPercentRank:
        return for_each_row([&](size_t i, WorkerContext&) {
          double rank = count_ > 1 ? double(peer_begin(i)) / double(count_ - 1) : 0.0;
          store(function.result, rows_[i], rank);
          return true;
        });
      case WindowFunctionKind::kCumeDist:
        return for_each_row([&](size_t i, WorkerContext&) {
          store(function.result, rows_[i], double(peer_end(i)) / double(count_));
          return true;
        });
      case WindowFunctionKind::kNtile:
        return ntile(function);
      case WindowFunctionKind::kLag:
      case WindowFunctionKind::kLead:
        return for_each_row([&](size_t i, WorkerContext&) {
          shift(function, i);
          return true;
        });
      case WindowFunctionKind::kFirstValue:
      case WindowFunctionKind::kLastValue:
      case WindowFunctionKind::kNthValue:
        return for_each_row(
            [&](size_t i, WorkerContext& worker) { return frame_value(function, i, worker); });
      case WindowFunctionKind::kAggregate:
        if (function.frame.start == Bound::kUnboundedPreceding &&
            function.frame.exclusion == Exclusion::kNoOthers)
          return running_aggregate(function);
        return function.mergeable ? sliding_aggregate(function) : recomputed_aggregate(function);
    }
    return true;
  }

  size_t range_count() const { return bounds_.size() - 1; }

  void prefetch(size_t i) const {
    if (i + kPrefetchDistance < count_) __builtin_prefetch(rows_[i + kPrefetchDistance]);
  }

  // Calls body(r, begin, end, worker, poll) for the ranges `first` to range_count() - 1, in
  // parallel when there are several; false when a body returned false.
  template <typename Body>
  bool for_ranges(size_t first, const Body& body) {
    if (range_count() == 1) return first > 0 || body(0, 0, count_, *worker_, poll_);
    std::atomic<bool> ok{true};
    tbb::parallel_for(first, range_count(), [&](size_t r) {
      if (!ok.load(std::memory_order_relaxed) || query_.failed()) return;
      CancelPoll poll(query_.cancel_flag());
      if (!body(r, bounds_[r], bounds_[r + 1], current_worker(query_), poll)) ok = false;
    });
    return ok;
  }

  // Functions whose value at row i depends on i's position alone: body(i, worker).
  template <typename Body>
  bool for_each_row(const Body& body) {
    return for_ranges(
        0, [&](size_t, size_t begin, size_t end, WorkerContext& worker, CancelPoll& poll) {
          for (size_t i = begin; i < end; ++i) {
            poll.tick();
            prefetch(i);
            if (!body(i, worker)) return false;
          }
          return true;
        });
  }

  // Peer groups: groups_before_[i] numbers row i's group from 0, group_starts_ holds each
  // group's first row and then count_. Each range numbers its groups, then a second pass
  // adds the groups of the ranges before it.
  void find_peer_groups(RowComparator peers) {
    groups_before_.resize(count_);
    std::vector<size_t>& groups_in = groups_in_range_;
    groups_in.assign(range_count(), 0);
    for_ranges(0, [&](size_t r, size_t begin, size_t end, WorkerContext&, CancelPoll& poll) {
      size_t groups = 0;
      for (size_t i = begin; i < end; ++i) {
        poll.tick();
        prefetch(i);
        if (i > 0 && peers(rows_[i - 1], rows_[i]) != 0) ++groups;
        groups_before_[i] = groups;
      }
      groups_in[r] = groups;
      return true;
    });
    std::vector<size_t>& groups_before_range = groups_before_range_;
    groups_before_range.assign(range_count(), 0);
    for (size_t r = 1; r < range_count(); ++r)
      groups_before_range[r] = groups_before_range[r - 1] + groups_in[r - 1];
    group_starts_.resize((count_ > 0 ? groups_before_range.back() + groups_in.back() + 1 : 0) + 1);
    for_ranges(0, [&](size_t r, size_t begin, size_t end, WorkerContext&, CancelPoll&) {
      size_t previous = 0;  // the range's own number of the row before
      for (size_t i = begin; i < end; ++i) {
        size_t local = groups_before_[i];
        if (i == 0 || local != previous) group_starts_[local + groups_before_range[r]] = i;
        previous = local;
        groups_before_[i] = local + groups_before_range[r];
      }
      return true;
    });
    group_starts_.back() = count_;
  }

  size_t peer_begin(size_t i) const { return group_starts_[groups_before_[i]]; }
  size_t peer_end(size_t i) const { return group_starts_[groups_before_[i] + 1]; }

  // Up to three runs of rows [begin, end), in row order: EXCLUDE cuts the current row or its
  // peers out of the frame (TIES keeps the current row itself).
  struct FrameRows {
    std::array<std::pair<size_t, size_t>, 3> runs;
    size_t size = 0;
    void add(size_t begin, size_t end) {
      if (begin < end) runs[size++] = {begin, end};
    }
  };

  FrameRows frame_rows(const WindowFunctionSpec& function, size_t i) const {
    const WindowFrame& frame = function.frame;
    size_t begin = frame_begin(function, i);
    size_t end = frame_end(function, i);
    FrameRows result;
    switch (frame.exclusion) {
      case Exclusion::kNoOthers:
        result.add(begin, end);
        break;
      case Exclusion::kCurrentRow:
        result.add(begin, std::min(end, i));
        result.add(std::max(begin, i + 1), end);
        break;
      case Exclusion::kGroup:
      case Exclusion::kTies:
        result.add(begin, std::min(end, peer_begin(i)));
        if (frame.exclusion == Exclusion::kTies && begin <= i && i < end) result.add(i, i + 1);
        result.add(std::max(begin, peer_end(i)), end);
        break;
    }
    return result;
  }

  // The frame of row i before EXCLUDE: rows [begin, end); empty when begin >= end.
  size_t frame_begin(const WindowFunctionSpec& function, size_t i) const {
    const WindowFrame& frame = function.frame;
    switch (frame.start) {
      case Bound::kUnboundedPreceding:
        return 0;
      case Bound::kPreceding:
        if (frame.unit == Unit::kRows) return clamp_sub(i, frame.start_offset);
        if (frame.unit == Unit::kGroups)
          return group_starts_[clamp_sub(groups_before_[i], frame.start_offset)];
        return range_bound(function.range_start, i, false);
      case Bound::kCurrentRow:
        return frame.unit == Unit::kRows ? i : peer_begin(i);
      case Bound::kFollowing:
        if (frame.unit == Unit::kRows) return clamp_add(i, frame.start_offset, count_);
        if (frame.unit == Unit::kGroups) return group_start(groups_before_[i], frame.start_offset);
        return range_bound(function.range_start, i, false);
      case Bound::kUnboundedFollowing:
        return count_;
    }
    return 0;
  }
  size_t frame_end(const WindowFunctionSpec& function, size_t i) const {
    const WindowFrame& frame = function.frame;
    switch (frame.end) {
      case Bound::kUnboundedPreceding:
        return 0;
      case Bound::kPreceding:
        if (frame.unit == Unit::kRows) return frame.end_offset > i ? 0 : i - frame.end_offset + 1;
        if (frame.unit == Unit::kGroups)
          return frame.end_offset > groups_before_[i]
                     ? 0
                     : group_starts_[groups_before_[i] - frame.end_offset + 1];
        return range_bound(function.range_end, i, true);
      case Bound::kCurrentRow:
        return frame.unit == Unit::kRows ? i + 1 : peer_end(i);
      case Bound::kFollowing:
        if (frame.unit == Unit::kRows) return clamp_add(i + 1, frame.end_offset, count_);
        if (frame.unit == Unit::kGroups)
          return group_start(groups_before_[i] + 1, frame.end_offset);
        return range_bound(function.range_end, i, true);
      case Bound::kUnboundedFollowing:
        return count_;
    }
    return count_;
  }

  // The first row of peer group `group + offset`, or count_ past the last group.
  size_t group_start(size_t group, uint64_t offset) const {
    return group_starts_[clamp_add(group, offset, group_starts_.size() - 1)];
  }

  // RANGE offset bounds: the first row that sorts after row i's bound (`past_equal`) or at
  // or after it. The rows are sorted by the key, so a binary search finds it.
  size_t range_bound(RowComparator compare, size_t i, bool past_equal) const {
    size_t low = 0;
    size_t high = count_;
    while (low < high) {
      size_t middle = low + (high - low) / 2;
      int32_t order = compare(rows_[middle], rows_[i]);
      if (order < 0 || (past_equal && order == 0))
        low = middle + 1;
      else
        high = middle;
    }
    return low;
  }

  // PostgreSQL's ntile (window_ntile): the bucket count is read from the partition's first
  // row (from the next rows while it is NULL, which gives NULL); the first
  // count % buckets buckets get one row more.
  bool ntile(const WindowFunctionSpec& function) {
    int64_t bucket = 0;
    uint64_t rows_in_bucket = 0;
    uint64_t boundary = 0;
    uint64_t remainder = 0;
    for (size_t i = 0; i < count_; ++i) {
      if (bucket == 0) {
        if (is_null(function.parameter, rows_[i])) {
          set_null(function.result, rows_[i], true);
          continue;
        }
        int64_t buckets = load_int64(function.parameter, rows_[i]);
        if (buckets <= 0) return fail("argument of ntile must be greater than zero");
        bucket = 1;
        boundary = count_ / static_cast<uint64_t>(buckets);
        if (boundary == 0) {
          boundary = 1;
        } else {
          remainder = count_ % static_cast<uint64_t>(buckets);
          if (remainder != 0) ++boundary;
        }
      }
      if (++rows_in_bucket > boundary) {
        if (remainder != 0 && static_cast<uint64_t>(bucket) == remainder) {
          remainder = 0;
          --boundary;
        }
        ++bucket;
        rows_in_bucket = 1;
      }
      store(function.result, rows_[i], static_cast<int32_t>(bucket));
    }
    return true;
  }

  // lag / lead: the value `offset` rows before / after, else the default (or NULL).
  void shift(const WindowFunctionSpec& function, size_t i) {
    uint8_t* row = rows_[i];
    int64_t offset = 1;
    if (function.has_parameter) {
      if (is_null(function.parameter, row)) {
        set_null(function.result, row, true);
        return;
      }
      offset = load_int64(function.parameter, row);
    }
    // In 128 bits: the offset may be any bigint.
    __int128 target = static_cast<__int128>(i) +
                      (function.kind == WindowFunctionKind::kLag ? -__int128{offset} : offset);
    if (target >= 0 && target < static_cast<__int128>(count_)) {
      copy_value(function.value, rows_[static_cast<size_t>(target)], function.result, row);
    } else if (function.has_default) {
      copy_value(function.default_value, row, function.result, row);
    } else {
      set_null(function.result, row, true);
    }
  }

  bool frame_value(const WindowFunctionSpec& function, size_t i, WorkerContext& worker) {
    uint8_t* row = rows_[i];
    FrameRows frame = frame_rows(function, i);
    std::optional<size_t> target;
    if (function.kind == WindowFunctionKind::kFirstValue) {
      if (frame.size > 0) target = frame.runs[0].first;
    } else if (function.kind == WindowFunctionKind::kLastValue) {
      if (frame.size > 0) target = frame.runs[frame.size - 1].second - 1;
    } else {
      if (is_null(function.parameter, row)) {
        set_null(function.result, row, true);
        return true;
      }
      int64_t n = load_int64(function.parameter, row);
      if (n <= 0) return fail("argument of nth_value must be greater than zero");
      // The n-th row of the frame's runs.
      auto skip = static_cast<uint64_t>(n) - 1;
      for (size_t r = 0; r < frame.size && !target; ++r) {
        auto [begin, end] = frame.runs[r];
        if (skip < end - begin)
          target = begin + skip;
        else
          skip -= end - begin;
      }
    }
    if (target) {
      copy_value(function.value, rows_[*target], function.result, row);
    } else {
      set_null(function.result, row, true);
    }
    return true;
  }

  // Frames that start at the partition's first row (without EXCLUDE) grow monotonically:
  // one running state. A row whose frame is the previous row's (peers, whole partitions)
  // copies its result rather than finalizing again (string_agg would concatenate anew).
  // Rows [begin, end) continue `state`, which holds the aggregate of rows [0, added).
  bool running_rows(const WindowFunctionSpec& function, size_t begin, size_t end, size_t added,
                    uint8_t* state, WorkerContext& worker, CancelPoll& poll) {
    for (size_t i = begin; i < end; ++i) {
      prefetch(i);
      size_t frame_end_row = frame_end(function, i);
      if (i > begin && frame_end_row == added) {
        copy_value(function.result, rows_[i - 1], function.result, rows_[i]);
        continue;
      }
      for (; added < frame_end_row; ++added) {
        poll.tick();
        if (!function.update(&worker, state, rows_[added])) return false;
      }
      if (!function.finalize(&worker, state, rows_[i])) return false;
    }
    return true;
  }

  // In parallel ranges, a parallel prefix: ranges 1 to R-2 aggregate the rows their frames
  // add on their own while range 0 is evaluated; the states before each range follow by
  // merging (the generated merge function, as in the segment tree); then ranges 1 to R-1 are
  // evaluated from them. A range's own aggregate may fail where the running one does not (a
  // sum leaving its type midway): it goes to a scratch context, and the partition is then
  // evaluated in one pass.
  bool running_aggregate(const WindowFunctionSpec& function) {
    const size_t ranges = range_count();
    const size_t size = function.state_size;
    if (ranges == 1 || !function.mergeable) {
      std::vector<uint8_t> state(size, 0);
      return running_rows(function, 0, count_, 0, state.data(), *worker_, poll_);
    }
    // Range r adds rows [added[r], added[r + 1]) to the running state.
    std::vector<size_t> added(ranges + 1, 0);
    for (size_t r = 1; r < ranges; ++r) added[r] = frame_end(function, bounds_[r] - 1);
    added[ranges] = count_;
    std::vector<uint8_t> own(ranges * size, 0);
    std::vector<uint8_t> before(ranges * size, 0);
    QueryContext scratch(query_.worker_count());
    bool evaluated = for_ranges(
        0, [&](size_t r, size_t begin, size_t end, WorkerContext& worker, CancelPoll& poll) {
          if (r == 0) return running_rows(function, begin, end, 0, before.data(), worker, poll);
          if (r == ranges - 1) return true;
          // The worker's string heap, but failures go to the scratch context.
          WorkerContext scratch_worker = worker;
          scratch_worker.query = &scratch;
          for (size_t j = added[r]; j < added[r + 1]; ++j) {
            poll.tick();
            prefetch(j);
            if (!function.update(&scratch_worker, own.data() + r * size, rows_[j])) return true;
          }
          return true;
        });
    if (!evaluated) return false;
    // The state before range r >= 1: range 0 left its running state in before[0].
    auto state_before = [&](size_t r) { return before.data() + (r == 1 ? 0 : r) * size; };
    WorkerContext merger = current_worker(query_);
    merger.query = &scratch;
    for (size_t r = 1; r + 1 < ranges && !scratch.failed(); ++r) {
      if (function.merge(&merger, state_before(r + 1), state_before(r)))
        function.merge(&merger, state_before(r + 1), own.data() + r * size);
    }
    if (scratch.failed()) {
      std::vector<uint8_t> state(size, 0);
      return running_rows(function, 0, count_, 0, state.data(), *worker_, poll_);
    }
    return for_ranges(
        1, [&](size_t r, size_t begin, size_t end, WorkerContext& worker, CancelPoll& poll) {
          return running_rows(function, begin, end, added[r], state_before(r), worker, poll);
        });
  }

  // Aggregates whose states cannot be merged without consuming them (string_agg): each frame
  // from its rows. Their result holds every input anyway, so this costs no more than it.
  bool recomputed_aggregate(const WindowFunctionSpec& function) {
    return for_ranges(
        0, [&](size_t, size_t begin, size_t end, WorkerContext& worker, CancelPoll& poll) {
          std::vector<uint8_t> state(function.state_size);
          for (size_t i = begin; i < end; ++i) {
            std::fill(state.begin(), state.end(), 0);
            FrameRows frame = frame_rows(function, i);
            for (size_t r = 0; r < frame.size; ++r) {
              for (size_t j = frame.runs[r].first; j < frame.runs[r].second; ++j) {
                poll.tick();
                if (!function.update(&worker, state.data(), rows_[j])) return false;
              }
            }
            if (!function.finalize(&worker, state.data(), rows_[i])) return false;
          }
          return true;
        });
  }

  // Other frames: a segment tree over the partition (Leis et al. 2015, section 4.2), binary
  // and stored as an array: node j (1 <= j < count) combines nodes 2j and 2j + 1, and node
  // count + i is row i's state. A frame's run is combined from O(log n) nodes, in row order.
  // A node whose merge fails (a sum beyond its machine width) is not an error yet, since no
  // frame may need it: it is marked invalid, and a frame that covers it combines its
  // children instead, so that only a frame's own sum can fail the query.
  bool sliding_aggregate(const WindowFunctionSpec& function) {
    const size_t size = function.state_size;
    std::vector<uint8_t> tree(2 * count_ * size, 0);
    auto node = [&](size_t j) { return tree.data() + j * size; };
    bool leaves = for_ranges(
        0, [&](size_t, size_t begin, size_t end, WorkerContext& worker, CancelPoll& poll) {
          for (size_t i = begin; i < end; ++i) {
            poll.tick();
            prefetch(i);
            if (!function.update(&worker, node(count_ + i), rows_[i])) return false;
          }
          return true;
        });
    if (!leaves) return false;
    std::vector<bool> valid(count_, true);
    QueryContext scratch(1);  // collects the build's merge failures
    for (size_t j = count_ - 1; j >= 1; --j) {
      poll_.tick();
      valid[j] = is_valid(valid, 2 * j) && is_valid(valid, 2 * j + 1) &&
                 function.merge(&scratch.worker(0), node(j), node(2 * j)) &&
                 function.merge(&scratch.worker(0), node(j), node(2 * j + 1));
    }
    return for_ranges(
        0, [&](size_t, size_t begin, size_t end, WorkerContext& worker, CancelPoll& poll) {
          std::vector<uint8_t> state(size);
          std::vector<size_t> right;
          // Folds node j into the frame's state, through its children when it is invalid.
          auto combine = [&](size_t j, const auto& self) -> bool {
            if (is_valid(valid, j)) return function.merge(&worker, state.data(), node(j));
            return self(2 * j, self) && self(2 * j + 1, self);
          };
          for (size_t i = begin; i < end; ++i) {
            std::fill(state.begin(), state.end(), 0);
            FrameRows frame = frame_rows(function, i);
            for (size_t r = 0; r < frame.size; ++r) {
              right.clear();
              for (size_t low = frame.runs[r].first + count_, high = frame.runs[r].second + count_;
                   low < high; low /= 2, high /= 2) {
                poll.tick();
                if ((low & 1) && !combine(low++, combine)) return false;
                if (high & 1) right.push_back(--high);
              }
              for (auto j = right.rbegin(); j != right.rend(); ++j)
                if (!combine(*j, combine)) return false;
            }
            if (!function.finalize(&worker, state.data(), rows_[i])) return false;
          }
          return true;
        });
  }

  // Leaves (rows) are always valid.
  bool is_valid(const std::vector<bool>& valid, size_t j) const { return j >= count_ || valid[j]; }

  bool fail(const std::string& message) {
    query_.fail(message);
    return false;
  }

  const WindowSpec& spec_;
  const bool needs_peer_groups_;
  uint8_t* const* rows_ = nullptr;
  size_t count_ = 0;
  QueryContext& query_;
  WorkerContext* worker_;  // the caller's, for what runs in one pass
  CancelPoll& poll_;
  std::vector<size_t> bounds_;               // the ranges: [bounds_[r], bounds_[r + 1])
  std::vector<size_t> groups_before_;        // the peer group of each row, counted from 0
  std::vector<size_t> group_starts_;         // each peer group's first row, then count_
  std::vector<size_t> groups_in_range_;      // find_peer_groups: new groups per range
  std::vector<size_t> groups_before_range_;  // and before each range
};

// rows[0, count), sorted by partition and ORDER BY keys: each partition's functions. With
// PARTITION BY the rows come sorted by their partition hash `hashes`, then by the first
// ORDER BY key, then by the comparator: rows of one hash are one partition, unless the hashes
// of several collide, whose rows are then sorted anew by the comparator.
bool evaluate_partitions(const WindowSpec& spec, uint8_t** rows, const uint64_t* hashes,
                         size_t count, QueryContext& query) {
  CancelPoll poll(query.cancel_flag());
  PartitionEvaluator evaluator(spec, query, &current_worker(query), poll);
  if (!spec.partitioned) return count == 0 || evaluator.evaluate(rows, count);
  auto in_order = [&](const uint8_t* a, const uint8_t* b) {
    poll.tick();
    return spec.order(a, b) < 0;
  };
  size_t begin = 0;
  while (begin < count) {
    size_t hash_end = begin + 1;
    bool one_partition = true;
    for (; hash_end < count && hashes[hash_end] == hashes[begin]; ++hash_end) {
      poll.tick();
      if (hash_end + kPrefetchDistance < count)
        __builtin_prefetch(rows[hash_end + kPrefetchDistance]);
      one_partition = one_partition && spec.same_partition(rows[begin], rows[hash_end]) == 0;
    }
    if (one_partition) {
      if (!evaluator.evaluate(rows + begin, hash_end - begin)) return false;
      begin = hash_end;
      continue;
    }
    std::stable_sort(rows + begin, rows + hash_end, in_order);
    while (begin < hash_end) {
      size_t end = begin + 1;
      while (end < hash_end && spec.same_partition(rows[begin], rows[end]) == 0) ++end;
      if (!evaluator.evaluate(rows + begin, end - begin)) return false;
      begin = end;
    }
  }
  return true;
}

// Sorts the entries and gives their rows in order; their first keys too when `keys`.
std::vector<uint8_t*> sorted_rows(std::vector<SortEntry>& entries, const EntryLess& less,
                                  size_t runs, const std::atomic<bool>* cancel,
                                  std::vector<uint64_t>* keys = nullptr) {
  parallel_stable_sort(entries, less, runs, cancel);
  std::vector<uint8_t*> rows(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) rows[i] = entries[i].row;
  if (keys) {
    keys->resize(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) (*keys)[i] = entries[i].keys[0];
  }
  return rows;
}

// Without PARTITION BY: one partition, sorted in parallel by its integer keys first.
bool evaluate_one_partition(RowBuffer& rows, const WindowSpec& spec, QueryContext& query) {
  std::vector<uint8_t*>& order = rows.order();
  std::vector<SortEntry> entries(order.size());
  // Keys after one whose numbers tie for different values would order rows of different
  // values: the comparator decides from there.
  size_t keys = 0;
  bool exact = true;
  while (keys < spec.sort_keys.size() && exact) exact = exact_sort_key(spec.sort_keys[keys++]);
  exact = exact && keys > 0 && keys == spec.order_key_count;
  tbb::parallel_for(tbb::blocked_range<size_t>(0, order.size(), kMinRowsPerSlice),
                    [&](const tbb::blocked_range<size_t>& range) {
                      for (size_t i = range.begin(); i < range.end(); ++i) {
                        SortEntry& entry = entries[i];
                        entry.row = order[i];
                        entry.keys = {0, 0};
                        for (size_t k = 0; k < keys; ++k)
                          entry.keys[k] = sort_key(spec.sort_keys[k], order[i]);
                      }
                    });
  order =
      sorted_rows(entries, EntryLess{spec.order, exact}, query.worker_count(), query.cancel_flag());
  return evaluate_partitions(spec, order.data(), nullptr, order.size(), query);
}

}  // namespace

bool evaluate_windows(RowBuffer& rows, const WindowSpec& spec, QueryContext& query,
                      bool keep_order) {
  std::vector<uint8_t*>& order = rows.order();
  if (!spec.partitioned) {
    if (!evaluate_one_partition(rows, spec, query)) return false;
    if (!keep_order) rows.finish();
    return true;
  }
  // Scatter the rows into buckets by the hash of their partition keys: rows of a partition
  // share a bucket. Slices of the input are scattered in parallel.
  constexpr size_t kBuckets = size_t{1} << kBucketBits;
  size_t count = order.size();
  size_t slices =
      std::max<size_t>(1, std::min<size_t>(query.worker_count(), count / kMinRowsPerSlice));
  std::vector<std::vector<std::vector<SortEntry>>> scattered(
      slices, std::vector<std::vector<SortEntry>>(kBuckets));
  tbb::parallel_for(size_t{0}, slices, [&](size_t slice) {
    CancelPoll poll(query.cancel_flag());
    for (size_t r = count * slice / slices; r < count * (slice + 1) / slices; ++r) {
      poll.tick();
      uint64_t hash;
      std::memcpy(&hash, order[r] + spec.hash_offset, sizeof(hash));
      uint64_t first_key = spec.sort_keys.empty() ? 0 : sort_key(spec.sort_keys[0], order[r]);
      scattered[slice][HashDirectoryShape::scramble(hash) >> (64 - kBucketBits)].push_back(
          {{hash, first_key}, order[r]});
    }
  });
  // Each bucket is gathered, sorted and evaluated by a task of its own.
  std::vector<std::vector<uint8_t*>> buckets(kBuckets);
  tbb::parallel_for(size_t{0}, kBuckets, [&](size_t b) {
    if (query.failed()) return;
    std::vector<SortEntry> entries;
    for (auto& slice : scattered) {
      entries.insert(entries.end(), slice[b].begin(), slice[b].end());
      std::vector<SortEntry>().swap(slice[b]);
    }
    std::vector<uint64_t> hashes;
    buckets[b] =
        sorted_rows(entries, EntryLess{spec.order, false}, 1, query.cancel_flag(), &hashes);
    std::vector<SortEntry>().swap(entries);
    evaluate_partitions(spec, buckets[b].data(), hashes.data(), buckets[b].size(), query);
  });
  if (query.failed()) return false;
  if (!keep_order) {
    rows.finish();
    return true;
  }
  order.clear();
  for (const auto& bucket : buckets) order.insert(order.end(), bucket.begin(), bucket.end());
  return true;
}

}  // namespace floe
