// A stable sort in parallel runs, for the sort operator's rows (row_buffer.h) and the window
// evaluator's sort entries (window_evaluator.h). Runs in the caller's task arena.
#pragma once

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <vector>

#include "runtime/cancellation.h"

namespace floe {

// Below this many elements per run, a parallel sort costs more than it saves.
constexpr size_t kMinElementsPerSortRun = 4096;

// Sorts `items` stably by `less` in up to `max_runs` runs. Polls `cancel` as it compares and
// throws floe::Error when it is set.
template <typename T, typename Less>
void parallel_stable_sort(std::vector<T>& items, const Less& less, size_t max_runs,
                          const std::atomic<bool>* cancel) {
  // One poll per task: a sort of millions of rows takes seconds.
  auto less_polling = [&less](CancelPoll& poll) {
    return [&less, &poll](const T& a, const T& b) {
      poll.tick();
      return less(a, b);
    };
  };
  size_t count = items.size();
  size_t runs = std::min(max_runs, count / kMinElementsPerSortRun);
  if (runs <= 1) {
    CancelPoll poll(cancel);
    std::stable_sort(items.begin(), items.end(), less_polling(poll));
    return;
  }
  // Stable merge sort over `runs` consecutive runs: sort each run in parallel, then merge
  // neighbouring runs pairwise (also in parallel) until one is left. std::merge takes ties
  // from the left run first, so the whole sort stays stable.
  std::vector<size_t> bounds(runs + 1);
  for (size_t r = 0; r <= runs; ++r) bounds[r] = count * r / runs;
  auto at = [](std::vector<T>& vector, size_t index) {
    return vector.begin() + static_cast<ptrdiff_t>(index);
  };
  tbb::parallel_for(size_t{0}, runs, [&](size_t r) {
    CancelPoll poll(cancel);
    std::stable_sort(at(items, bounds[r]), at(items, bounds[r + 1]), less_polling(poll));
  });
  std::vector<T> merged(count);
  for (size_t width = 1; width < runs; width *= 2) {
    tbb::parallel_for(size_t{0}, (runs + 2 * width - 1) / (2 * width), [&](size_t pair) {
      size_t first = pair * 2 * width;
      size_t low = bounds[first];
      size_t middle = bounds[std::min(runs, first + width)];
      size_t high = bounds[std::min(runs, first + 2 * width)];
      CancelPoll poll(cancel);
      std::merge(at(items, low), at(items, middle), at(items, middle), at(items, high),
                 at(merged, low), less_polling(poll));
    });
    items.swap(merged);
  }
}

}  // namespace floe
