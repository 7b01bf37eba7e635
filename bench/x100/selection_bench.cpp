// Branching against branch-free selection (X100 thesis §5.2.2, Fig 5.6): the vectorized
// engine's selection primitive select_compare (runtime/vector/primitives.h) selecting
// `value < s` from 4-byte integers uniform in [0, 100), so that s percent qualify, in vectors
// of 1024 rows (the thesis' size) over a 1M-row column.
//
//   select/<mode>/<s>   mode branch_free (the engine's) or branching; items = rows.
//
// Counters branching (0/1) and selectivity make the CSV plottable (bench/x100/selection.gnuplot);
// ns_per_tuple = time per row.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "runtime/vector/primitives.h"

namespace floe::vectorized {
namespace {

constexpr uint32_t kRows = 1 << 20;
constexpr uint32_t kVector = 1024;

template <SelectionMode kMode>
void bench_select(benchmark::State& state, int percent) {
  std::mt19937_64 rng(1);
  std::vector<int32_t> column(kRows);
  for (int32_t& value : column) value = static_cast<int32_t>(rng() % 100);
  const std::vector<int32_t> bound(kVector, percent);
  std::vector<uint32_t> out(kVector);
  for (auto _ : state) {
    uint32_t selected = 0;
    for (uint32_t begin = 0; begin < kRows; begin += kVector) {
      selected += select_compare<kMode>(Comparison::kLess, column.data() + begin, bound.data(),
                                        nullptr, kVector, nullptr, out.data());
      benchmark::ClobberMemory();
    }
    benchmark::DoNotOptimize(selected);
  }
  state.SetItemsProcessed(int64_t{kRows} * state.iterations());
  state.counters["branching"] = kMode == SelectionMode::kBranching;
  state.counters["selectivity"] = percent;
  state.counters["ns_per_tuple"] = benchmark::Counter(
      kRows * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void register_all() {
  for (int percent = 0; percent <= 100; percent += 5) {
    std::string suffix = "/" + std::to_string(percent);
    benchmark::RegisterBenchmark(("select/branch_free" + suffix).c_str(),
                                 bench_select<SelectionMode::kBranchFree>, percent)
        ->MinTime(0.1);
    benchmark::RegisterBenchmark(("select/branching" + suffix).c_str(),
                                 bench_select<SelectionMode::kBranching>, percent)
        ->MinTime(0.1);
  }
}

}  // namespace
}  // namespace floe::vectorized

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  floe::vectorized::register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
