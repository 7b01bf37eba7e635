#include "runtime/row_buffer.h"

#include <tbb/parallel_for.h>

#include <algorithm>

#include "runtime/cancellation.h"

namespace floe {

RowBuffer::RowBuffer(uint32_t row_size, uint32_t worker_count) : row_size_(row_size) {
  workers_.reserve(worker_count);
  for (uint32_t i = 0; i < worker_count; ++i) workers_.emplace_back(row_size);
}

void RowBuffer::finish() {
  rows_.clear();
  uint64_t total = 0;
  for (const EntryArena& arena : workers_) total += arena.size();
  rows_.reserve(total);
  for (const EntryArena& arena : workers_)
    arena.for_each([this](uint8_t* row) { rows_.push_back(row); });
}

namespace {
// Below this many rows per run, a parallel sort costs more than it saves.
constexpr size_t kMinRowsPerRun = 4096;
}  // namespace

void RowBuffer::sort(RowComparator compare, const std::atomic<bool>* cancel) {
  // One poll per task: a sort of millions of rows takes seconds.
  auto less_polling = [compare](CancelPoll& poll) {
    return [compare, &poll](const uint8_t* a, const uint8_t* b) {
      poll.tick();
      return compare(a, b) < 0;
    };
  };
  size_t count = rows_.size();
  size_t runs = std::min<size_t>(workers_.size(), count / kMinRowsPerRun);
  if (runs <= 1) {
    CancelPoll poll(cancel);
    std::stable_sort(rows_.begin(), rows_.end(), less_polling(poll));
    return;
  }
  // Stable merge sort over `runs` consecutive runs: sort each run in parallel, then merge
  // neighbouring runs pairwise (also in parallel) until one is left. std::merge takes ties
  // from the left run first, so the whole sort stays stable.
  std::vector<size_t> bounds(runs + 1);
  for (size_t r = 0; r <= runs; ++r) bounds[r] = count * r / runs;
  auto at = [](std::vector<uint8_t*>& rows, size_t index) {
    return rows.begin() + static_cast<ptrdiff_t>(index);
  };
  tbb::parallel_for(size_t{0}, runs, [&](size_t r) {
    CancelPoll poll(cancel);
    std::stable_sort(at(rows_, bounds[r]), at(rows_, bounds[r + 1]), less_polling(poll));
  });
  std::vector<uint8_t*> merged(count);
  for (size_t width = 1; width < runs; width *= 2) {
    tbb::parallel_for(size_t{0}, (runs + 2 * width - 1) / (2 * width), [&](size_t pair) {
      size_t first = pair * 2 * width;
      size_t low = bounds[first];
      size_t middle = bounds[std::min(runs, first + width)];
      size_t high = bounds[std::min(runs, first + 2 * width)];
      CancelPoll poll(cancel);
      std::merge(at(rows_, low), at(rows_, middle), at(rows_, middle), at(rows_, high),
                 at(merged, low), less_polling(poll));
    });
    rows_.swap(merged);
  }
}

void RowBuffer::apply_limit(uint64_t offset, std::optional<uint64_t> limit) {
  uint64_t begin = std::min<uint64_t>(offset, rows_.size());
  uint64_t end = limit ? begin + std::min(*limit, rows_.size() - begin) : rows_.size();
  rows_.erase(rows_.begin() + static_cast<ptrdiff_t>(end), rows_.end());
  rows_.erase(rows_.begin(), rows_.begin() + static_cast<ptrdiff_t>(begin));
}

}  // namespace floe
