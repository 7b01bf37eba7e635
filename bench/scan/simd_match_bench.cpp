// Match finding at each instruction set level (runtime/simd_match.h), after Figures 8 and 9
// of the Data Blocks paper (Lang et al., SIGMOD 2016, section 4.2).
//
//   find/<type>/<level>/<s>    find_matches of lo <= v <= hi selecting s percent of a 64K-row
//                              chunk, one call per vector of 16K rows; items = rows.
//   reduce/<type>/<level>/<s>  reduce_matches with a 40% restriction on the positions left by
//                              a first restriction of selectivity s percent (uniformly spread
//                              matches), per 16K-row vector (Figure 9); items = positions.
//
// Counters bits, level (0 scalar, 1 sse4.2, 2 avx2, 3 avx512) and selectivity make the CSV
// output plottable (bench/scan/simd_match.gnuplot); ns_per_tuple = time per item.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "runtime/simd_match.h"

namespace floe::simd {
namespace {

constexpr uint32_t kRows = 1 << 16;  // a chunk (storage/hot_chunk.h)
constexpr uint32_t kVector = 16384;  // the vector size of Figure 9
constexpr int kSecondSelectivity = 40;

const int kFindSelectivities[] = {0, 1, 10, 20, 50, 100};
const int kReduceSelectivities[] = {1, 10, 20, 50, 75, 100};

// Values uniform in [0, 100), so [0, s - 1] selects s percent.
template <typename T>
std::vector<T> make_column(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> column(kRows);
  for (T& value : column) value = static_cast<T>(rng() % 100);
  return column;
}

// [200, 250] lies above every value: all comparisons, no match.
template <typename T>
std::pair<T, T> bounds_for(int percent) {
  if (percent == 0) return {T{200}, T{250}};
  return {T{0}, static_cast<T>(percent - 1)};
}

void set_counters(benchmark::State& state, int bits, Isa isa, int percent, double items) {
  state.SetItemsProcessed(static_cast<int64_t>(items) * state.iterations());
  state.counters["bits"] = bits;
  state.counters["level"] = static_cast<int>(isa);
  state.counters["selectivity"] = percent;
  state.counters["ns_per_tuple"] = benchmark::Counter(
      items * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

template <typename T>
void bench_find(benchmark::State& state, Isa isa, int percent) {
  set_isa(isa);
  const std::vector<T> column = make_column<T>(1);
  const auto [lo, hi] = bounds_for<T>(percent);
  std::vector<uint32_t> matches(kVector);
  for (auto _ : state) {
    uint32_t found = 0;
    for (uint32_t begin = 0; begin < kRows; begin += kVector) {
      found += find_matches(column.data(), begin, begin + kVector, lo, hi, matches.data());
      benchmark::ClobberMemory();
    }
    benchmark::DoNotOptimize(found);
  }
  set_counters(state, 8 * sizeof(T), isa, percent, kRows);
}

template <typename T>
void bench_reduce(benchmark::State& state, Isa isa, int first_percent) {
  set_isa(isa);
  const std::vector<T> column = make_column<T>(2);
  const auto [lo, hi] = bounds_for<T>(kSecondSelectivity);
  // The first restriction's match vectors, one per 16K-row vector.
  std::mt19937_64 rng(3);
  std::bernoulli_distribution first(first_percent / 100.0);
  std::vector<std::vector<uint32_t>> vectors(kRows / kVector);
  double positions = 0;
  for (uint32_t v = 0; v < vectors.size(); ++v) {
    for (uint32_t row = v * kVector; row < (v + 1) * kVector; ++row) {
      if (first(rng)) vectors[v].push_back(row);
    }
    positions += static_cast<double>(vectors[v].size());
  }
  std::vector<uint32_t> kept(kVector);
  for (auto _ : state) {
    uint32_t total = 0;
    for (const std::vector<uint32_t>& matches : vectors) {
      total += reduce_matches(column.data(), matches.data(), static_cast<uint32_t>(matches.size()),
                              lo, hi, kept.data());
      benchmark::ClobberMemory();
    }
    benchmark::DoNotOptimize(total);
  }
  set_counters(state, 8 * sizeof(T), isa, first_percent, positions);
}

// One benchmark per selectivity and level this CPU runs: <kind>/<type>/<level>/<s>.
void register_levels(const std::string& kind, const char* type_name, const int* percents,
                     size_t count, void (*bench)(benchmark::State&, Isa, int)) {
  for (size_t i = 0; i < count; ++i) {
    for (Isa isa : {Isa::kScalar, Isa::kSse42, Isa::kAvx2, Isa::kAvx512}) {
      if (isa > best_isa()) continue;
      std::string name =
          kind + "/" + type_name + "/" + isa_name(isa) + "/" + std::to_string(percents[i]);
      benchmark::RegisterBenchmark(name.c_str(), bench, isa, percents[i]);
    }
  }
}

template <typename T>
void register_type(const char* type_name) {
  register_levels("find", type_name, kFindSelectivities, std::size(kFindSelectivities),
                  bench_find<T>);
  register_levels("reduce", type_name, kReduceSelectivities, std::size(kReduceSelectivities),
                  bench_reduce<T>);
}

}  // namespace
}  // namespace floe::simd

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  floe::simd::register_type<uint8_t>("u8");
  floe::simd::register_type<uint16_t>("u16");
  floe::simd::register_type<uint32_t>("u32");
  floe::simd::register_type<uint64_t>("u64");
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
