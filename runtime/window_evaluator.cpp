#include "runtime/window_evaluator.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "runtime/cancellation.h"
#include "runtime/hash.h"

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

// One partition: rows[0, count) sorted by the ORDER BY keys.
class PartitionEvaluator {
 public:
  PartitionEvaluator(const WindowSpec& spec, uint8_t* const* rows, size_t count,
                     WorkerContext* worker, CancelPoll& poll)
      : rows_(rows), count_(count), worker_(worker), poll_(poll) {
    // Peer groups: [peer_begin_[i], peer_end_[i]) holds the rows with row i's ORDER BY keys.
    peer_begin_.resize(count);
    peer_end_.resize(count);
    groups_before_.resize(count);
    size_t begin = 0;
    group_starts_.push_back(0);
    for (size_t i = 1; i <= count; ++i) {
      poll_.tick();
      if (i < count && spec.peers(rows[i - 1], rows[i]) == 0) continue;
      for (size_t j = begin; j < i; ++j) {
        peer_begin_[j] = begin;
        peer_end_[j] = i;
        groups_before_[j] = group_starts_.size() - 1;
      }
      group_starts_.push_back(i);
      begin = i;
    }
  }

  bool evaluate(const WindowFunctionSpec& function) {
    switch (function.kind) {
      case WindowFunctionKind::kRowNumber:
        for (size_t i = 0; i < count_; ++i) store(function.result, rows_[i], int64_t(i + 1));
        return true;
      case WindowFunctionKind::kRank:
        for (size_t i = 0; i < count_; ++i)
          store(function.result, rows_[i], int64_t(peer_begin_[i] + 1));
        return true;
      case WindowFunctionKind::kDenseRank:
        for (size_t i = 0; i < count_; ++i)
          store(function.result, rows_[i], int64_t(groups_before_[i] + 1));
        return true;
      case WindowFunctionKind::kPercentRank:
        for (size_t i = 0; i < count_; ++i) {
          double rank = count_ > 1 ? double(peer_begin_[i]) / double(count_ - 1) : 0.0;
          store(function.result, rows_[i], rank);
        }
        return true;
      case WindowFunctionKind::kCumeDist:
        for (size_t i = 0; i < count_; ++i)
          store(function.result, rows_[i], double(peer_end_[i]) / double(count_));
        return true;
      case WindowFunctionKind::kNtile:
        return ntile(function);
      case WindowFunctionKind::kLag:
      case WindowFunctionKind::kLead:
        shift(function);
        return true;
      case WindowFunctionKind::kFirstValue:
      case WindowFunctionKind::kLastValue:
      case WindowFunctionKind::kNthValue:
        return frame_value(function);
      case WindowFunctionKind::kAggregate:
        if (function.frame.start == Bound::kUnboundedPreceding &&
            function.frame.exclusion == Exclusion::kNoOthers)
          return running_aggregate(function);
        return function.mergeable ? sliding_aggregate(function) : recomputed_aggregate(function);
    }
    return true;
  }

 private:
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
        result.add(begin, std::min(end, peer_begin_[i]));
        if (frame.exclusion == Exclusion::kTies && begin <= i && i < end) result.add(i, i + 1);
        result.add(std::max(begin, peer_end_[i]), end);
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
        return frame.unit == Unit::kRows ? i : peer_begin_[i];
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
        return frame.unit == Unit::kRows ? i + 1 : peer_end_[i];
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
  void shift(const WindowFunctionSpec& function) {
    for (size_t i = 0; i < count_; ++i) {
      uint8_t* row = rows_[i];
      int64_t offset = 1;
      if (function.has_parameter) {
        if (is_null(function.parameter, row)) {
          set_null(function.result, row, true);
          continue;
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
  }

  bool frame_value(const WindowFunctionSpec& function) {
    for (size_t i = 0; i < count_; ++i) {
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
          continue;
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
    }
    return true;
  }

  // Frames that start at the partition's first row (without EXCLUDE) grow monotonically:
  // one running state. A row whose frame is the previous row's (peers, whole partitions)
  // copies its result rather than finalizing again (string_agg would concatenate anew).
  bool running_aggregate(const WindowFunctionSpec& function) {
    std::vector<uint8_t> state(function.state_size, 0);
    size_t added = 0;
    for (size_t i = 0; i < count_; ++i) {
      size_t end = frame_end(function, i);
      if (i > 0 && end == added) {
        copy_value(function.result, rows_[i - 1], function.result, rows_[i]);
        continue;
      }
      for (; added < end; ++added) {
        poll_.tick();
        if (!function.update(worker_, state.data(), rows_[added])) return false;
      }
      if (!function.finalize(worker_, state.data(), rows_[i])) return false;
    }
    return true;
  }

  // Aggregates whose states cannot be merged without consuming them (string_agg): each frame
  // from its rows. Their result holds every input anyway, so this costs no more than it.
  bool recomputed_aggregate(const WindowFunctionSpec& function) {
    std::vector<uint8_t> state(function.state_size);
    for (size_t i = 0; i < count_; ++i) {
      std::fill(state.begin(), state.end(), 0);
      FrameRows frame = frame_rows(function, i);
      for (size_t r = 0; r < frame.size; ++r) {
        for (size_t j = frame.runs[r].first; j < frame.runs[r].second; ++j) {
          poll_.tick();
          if (!function.update(worker_, state.data(), rows_[j])) return false;
        }
      }
      if (!function.finalize(worker_, state.data(), rows_[i])) return false;
    }
    return true;
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
    for (size_t i = 0; i < count_; ++i) {
      poll_.tick();
      if (!function.update(worker_, node(count_ + i), rows_[i])) return false;
    }
    std::vector<bool> valid(count_, true);
    QueryContext scratch(1);  // collects the build's merge failures
    for (size_t j = count_ - 1; j >= 1; --j) {
      poll_.tick();
      valid[j] = is_valid(valid, 2 * j) && is_valid(valid, 2 * j + 1) &&
                 function.merge(&scratch.worker(0), node(j), node(2 * j)) &&
                 function.merge(&scratch.worker(0), node(j), node(2 * j + 1));
    }
    std::vector<uint8_t> state(size);
    std::vector<size_t> right;
    // Folds node j into the frame's state, through its children when it is invalid.
    auto combine = [&](size_t j, const auto& self) -> bool {
      if (is_valid(valid, j)) return function.merge(worker_, state.data(), node(j));
      return self(2 * j, self) && self(2 * j + 1, self);
    };
    for (size_t i = 0; i < count_; ++i) {
      std::fill(state.begin(), state.end(), 0);
      FrameRows frame = frame_rows(function, i);
      for (size_t r = 0; r < frame.size; ++r) {
        right.clear();
        for (size_t low = frame.runs[r].first + count_, high = frame.runs[r].second + count_;
             low < high; low /= 2, high /= 2) {
          poll_.tick();
          if ((low & 1) && !combine(low++, combine)) return false;
          if (high & 1) right.push_back(--high);
        }
        for (auto j = right.rbegin(); j != right.rend(); ++j)
          if (!combine(*j, combine)) return false;
      }
      if (!function.finalize(worker_, state.data(), rows_[i])) return false;
    }
    return true;
  }

  // Leaves (rows) are always valid.
  bool is_valid(const std::vector<bool>& valid, size_t j) const { return j >= count_ || valid[j]; }

  bool fail(const std::string& message) {
    worker_->query->fail(message);
    return false;
  }

  uint8_t* const* rows_;
  size_t count_;
  WorkerContext* worker_;
  CancelPoll& poll_;
  std::vector<size_t> peer_begin_;
  std::vector<size_t> peer_end_;
  std::vector<size_t> groups_before_;  // the peer group of each row, counted from 0
  std::vector<size_t> group_starts_;   // each peer group's first row, then count_
};

// Rows [begin, end) of `rows`, sorted by partition and ORDER BY keys: each partition's
// functions.
bool evaluate_partitions(const WindowSpec& spec, uint8_t* const* rows, size_t count,
                         QueryContext& query) {
  // Each thread uses its own worker context, whose string heap holds the strings that the
  // generated functions compute (string_agg). The executor runs the evaluation in a task arena
  // of worker_count threads, as the morsel dispatcher does.
  auto thread = static_cast<uint32_t>(std::max(0, tbb::this_task_arena::current_thread_index()));
  WorkerContext* worker = &query.worker(thread < query.worker_count() ? thread : 0);
  CancelPoll poll(query.cancel_flag());
  size_t begin = 0;
  while (begin < count) {
    size_t end = begin + 1;
    while (end < count && spec.same_partition(rows[begin], rows[end]) == 0) {
      poll.tick();
      ++end;
    }
    PartitionEvaluator partition(spec, rows + begin, end - begin, worker, poll);
    for (const WindowFunctionSpec& function : spec.functions) {
      if (query.failed() || !partition.evaluate(function)) return false;
    }
    begin = end;
  }
  return true;
}

}  // namespace

bool evaluate_windows(RowBuffer& rows, const WindowSpec& spec, QueryContext& query) {
  std::vector<uint8_t*>& order = rows.order();
  if (!spec.partitioned) {
    rows.sort(spec.order, query.cancel_flag());
    return evaluate_partitions(spec, order.data(), order.size(), query);
  }
  // Scatter the rows into buckets by the hash of their partition keys: rows of a partition
  // share a bucket. Slices of the input are scattered in parallel.
  constexpr size_t kBuckets = size_t{1} << kBucketBits;
  size_t count = order.size();
  size_t slices =
      std::max<size_t>(1, std::min<size_t>(query.worker_count(), count / kMinRowsPerSlice));
  std::vector<std::vector<std::vector<uint8_t*>>> scattered(
      slices, std::vector<std::vector<uint8_t*>>(kBuckets));
  tbb::parallel_for(size_t{0}, slices, [&](size_t slice) {
    CancelPoll poll(query.cancel_flag());
    for (size_t r = count * slice / slices; r < count * (slice + 1) / slices; ++r) {
      poll.tick();
      uint64_t hash;
      std::memcpy(&hash, order[r] + spec.hash_offset, sizeof(hash));
      scattered[slice][HashDirectoryShape::scramble(hash) >> (64 - kBucketBits)].push_back(
          order[r]);
    }
  });
  // Each bucket is gathered, sorted and evaluated by a task of its own.
  std::vector<std::vector<uint8_t*>> buckets(kBuckets);
  tbb::parallel_for(size_t{0}, kBuckets, [&](size_t b) {
    if (query.failed()) return;
    std::vector<uint8_t*>& bucket = buckets[b];
    for (auto& slice : scattered) bucket.insert(bucket.end(), slice[b].begin(), slice[b].end());
    CancelPoll poll(query.cancel_flag());
    std::stable_sort(bucket.begin(), bucket.end(), [&](const uint8_t* x, const uint8_t* y) {
      poll.tick();
      return spec.order(x, y) < 0;
    });
    evaluate_partitions(spec, bucket.data(), bucket.size(), query);
  });
  if (query.failed()) return false;
  order.clear();
  for (const auto& bucket : buckets) order.insert(order.end(), bucket.begin(), bucket.end());
  return true;
}

}  // namespace floe
