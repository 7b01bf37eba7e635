// Join hash table build + probe (DESIGN.md "Hash join"): materialize N build rows, finalize
// the tagged directory, then probe N keys of which half are absent (exercising the tag
// filter).
#include <benchmark/benchmark.h>

#include <cstring>

#include "runtime/hash.h"
#include "runtime/join_hash_table.h"

namespace floe {
namespace {

void BM_JoinBuildProbe(benchmark::State& state) {
  const auto keys = static_cast<int64_t>(state.range(0));
  for (auto _ : state) {
    JoinHashTable table(sizeof(int64_t), 1);
    for (int64_t key = 0; key < keys; ++key) {
      uint8_t* payload = table.insert(0, mix_hash(static_cast<uint64_t>(2 * key)));
      int64_t stored = 2 * key;
      std::memcpy(payload, &stored, sizeof stored);
    }
    table.finalize();
    int64_t matches = 0;
    for (int64_t key = 0; key < keys; ++key) {
      uint64_t hash = mix_hash(static_cast<uint64_t>(key));  // odd keys are absent
      for (JoinEntry* entry = table.lookup(hash); entry; entry = JoinHashTable::next(entry, hash)) {
        int64_t stored;
        std::memcpy(&stored, entry->payload(), sizeof stored);
        matches += stored == key;
      }
    }
    benchmark::DoNotOptimize(matches);
  }
  state.SetItemsProcessed(state.iterations() * keys * 2);
}
BENCHMARK(BM_JoinBuildProbe)
    ->RangeMultiplier(10)
    ->Range(1000, 1000000)
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace floe

BENCHMARK_MAIN();
