#include "engine/exec/morsel_dispatch.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>

namespace floe {

std::vector<Morsel> table_morsels(const Table& table) {
  std::vector<Morsel> morsels;
  for (size_t c = 0; c < table.chunk_count(); ++c) {
    uint64_t base = uint64_t{c} << kChunkShift;
    uint64_t size = table.chunk(c).size();
    for (uint64_t begin = 0; begin < size; begin += kMorselRows)
      morsels.push_back({base + begin, base + std::min(size, begin + kMorselRows)});
  }
  return morsels;
}

std::vector<Morsel> row_id_morsels(const std::vector<uint64_t>& rows) {
  std::vector<Morsel> morsels;
  for (size_t i = 0; i < rows.size();) {
    const uint64_t chunk = rows[i] >> kChunkShift;
    size_t end = i + 1;
    while (end < rows.size() && end - i < kMorselRows && rows[end] >> kChunkShift == chunk) ++end;
    morsels.push_back({rows[i], rows[end - 1] + 1});
    i = end;
  }
  return morsels;
}

std::vector<Morsel> index_morsels(uint64_t count) {
  std::vector<Morsel> morsels;
  for (uint64_t begin = 0; begin < count; begin += kMorselRows)
    morsels.push_back({begin, std::min(count, begin + kMorselRows)});
  return morsels;
}

void dispatch_morsels(const std::vector<Morsel>& morsels, bool in_order,
                      const std::function<bool()>& stop,
                      const std::function<void(const Morsel&, uint32_t worker)>& work) {
  auto worker = [] { return static_cast<uint32_t>(tbb::this_task_arena::current_thread_index()); };
  if (in_order) {
    for (const Morsel& morsel : morsels) {
      if (stop()) return;
      work(morsel, worker());
    }
    return;
  }
  // One task per morsel (simple_partitioner with grain 1): stealing balances the workers.
  tbb::parallel_for(
      tbb::blocked_range<size_t>(0, morsels.size(), 1),
      [&](const tbb::blocked_range<size_t>& range) {
        for (size_t m = range.begin(); m != range.end(); ++m) {
          if (stop()) return;
          work(morsels[m], worker());
        }
      },
      tbb::simple_partitioner());
}

}  // namespace floe
