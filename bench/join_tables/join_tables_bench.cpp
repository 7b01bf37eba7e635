// Join hash tables side by side, after Figures 6-8 / Table 1 of Barber et al.,
// "Memory-Efficient Hash Joins" (VLDB 2015, section 4): the chaining table
// (runtime/join_hash_table.h), CHT (runtime/concise_hash_table.h) and CAT
// (runtime/concise_array_table.h), on the paper's workload: 8-byte integer keys, unique and
// random in a range twice the build cardinality, an 8-byte payload.
//
//   build/<table>/<rows>         insert + finalize of `rows` build rows (one worker inserts,
//                                finalize runs on the task arena); items = build rows.
//   probe/<table>/<rows>/<hit>   kProbes probe keys, `hit` percent of them present, one at a
//                                time as generated code probes; items = probe keys.
//   probe_batch/<table>/<rows>/<hit>  the same through the batch probe of the vectorized
//                                engine (vectors of 2048), CHT and CAT only.
//
// Counter bytes_per_row: the table's memory (bitmap, arrays, directory, overflow) per build
// row. The chaining table and CHT store the key in the payload (the caller compares keys),
// CAT stores the payload alone.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <vector>

#include "runtime/concise_array_table.h"
#include "runtime/concise_hash_table.h"
#include "runtime/hash.h"
#include "runtime/join_hash_table.h"

namespace floe {
namespace {

constexpr uint32_t kProbes = 1 << 23;
constexpr uint32_t kVector = 2048;

struct Workload {
  std::vector<int64_t> build_keys;  // unique, in [0, 2 * rows), shuffled
  std::vector<int64_t> probe_keys;  // hit percent of them build keys, the rest absent
};

// Workloads are shared by the benchmarks of one size and hit rate.
const Workload& workload(uint64_t rows, int hit_percent) {
  static std::map<std::pair<uint64_t, int>, Workload> cache;
  auto [it, inserted] = cache.try_emplace({rows, hit_percent});
  Workload& load = it->second;
  if (!inserted) return load;
  std::mt19937_64 random(rows + hit_percent);
  std::vector<int64_t> range(2 * rows);
  std::iota(range.begin(), range.end(), int64_t{0});
  std::shuffle(range.begin(), range.end(), random);
  load.build_keys.assign(range.begin(), range.begin() + rows);
  load.probe_keys.resize(kProbes);
  for (int64_t& key : load.probe_keys) {
    bool hit = static_cast<int>(random() % 100) < hit_percent;
    key = hit ? range[random() % rows] : range[rows + random() % rows];
  }
  return load;
}

uint64_t hash_of(int64_t key) {
  return mix_hash(static_cast<uint64_t>(key));
}

struct KeyPayload {
  int64_t key;
  int64_t value;
};

// Candidate row `payload`'s value if it holds `key`, else 0 (the caller's key comparison).
int64_t value_if_key(const uint8_t* payload, int64_t key) {
  KeyPayload row;
  std::memcpy(&row, payload, sizeof row);
  return row.key == key ? row.value : 0;
}

// The tables that take a hash per row and keep the key in the payload.
template <typename HashTable>
struct HashedTable {
  HashTable table{sizeof(KeyPayload), 1};

  explicit HashedTable(uint64_t) {}
  void insert(int64_t key) {
    KeyPayload row{key, key * 3};
    std::memcpy(table.insert(0, hash_of(key)), &row, sizeof row);
  }
  void finalize() { table.finalize(); }
};

// A vectorized probe of `count` rows of a CHT (input: hashes) or CAT (input: key columns);
// value(row, position) is a candidate's contribution to the sum.
template <typename Table, typename Input, typename Value>
int64_t batch_sum(const Table& table, Input input, uint32_t count, const Value& value) {
  uint32_t sel[kVector];
  ConciseCursor cursors[kVector];
  for (uint32_t i = 0; i < count; ++i) sel[i] = i;
  int64_t sum = 0;
  for (uint32_t active = table.probe_batch(input, sel, count, cursors, sel); active > 0;
       active = table.advance_batch(input, sel, active, cursors, sel)) {
    for (uint32_t i = 0; i < active; ++i) sum += value(sel[i], cursors[sel[i]].position);
  }
  return sum;
}

struct Chaining : HashedTable<JoinHashTable> {
  static constexpr const char* kName = "chaining";
  using HashedTable::HashedTable;

  int64_t probe(int64_t key) const {
    uint64_t hash = hash_of(key);
    int64_t sum = 0;
    for (JoinEntry* entry = table.lookup(hash); entry; entry = JoinHashTable::next(entry, hash))
      sum += value_if_key(entry->payload(), key);
    return sum;
  }
  // Entries (header + payload) and the directory.
  uint64_t memory_bytes() const {
    return table.size() * (sizeof(JoinEntry) + sizeof(KeyPayload)) + table.slot_count() * 8;
  }
};

struct Cht : HashedTable<ConciseHashTable> {
  static constexpr const char* kName = "cht";
  using HashedTable::HashedTable;

  int64_t probe(int64_t key) const {
    uint64_t hash = hash_of(key);
    int64_t sum = 0;
    for (ConciseCursor c = table.probe(hash); c.valid(); c = table.advance(hash, c))
      sum += value_if_key(table.row(c.position), key);
    return sum;
  }
  int64_t probe_batch(const int64_t* keys, uint32_t count) const {
    uint64_t hashes[kVector];
    for (uint32_t i = 0; i < count; ++i) hashes[i] = hash_of(keys[i]);
    return batch_sum(table, hashes, count, [&](uint32_t row, uint32_t position) {
      return value_if_key(table.row(position), keys[row]);
    });
  }
  uint64_t memory_bytes() const { return table.memory_bytes(); }
};

struct Cat {
  static constexpr const char* kName = "cat";
  ConciseArrayTable table;

  static DenseKeyLayout layout(uint64_t rows) {
    std::vector<KeyColumnRange> range = {{0, static_cast<int64_t>(2 * rows - 1)}};
    return *DenseKeyLayout::make(range);
  }
  explicit Cat(uint64_t rows) : table(layout(rows), sizeof(int64_t), 1) {}
  void insert(int64_t key) {
    int64_t value = key * 3;
    std::memcpy(table.insert(0, &key), &value, sizeof value);
  }
  void finalize() { table.finalize(); }
  int64_t value(uint32_t position) const {
    int64_t value;
    std::memcpy(&value, table.row(position), sizeof value);
    return value;
  }
  int64_t probe(int64_t key) const {
    int64_t sum = 0;
    for (ConciseCursor c = table.probe(&key); c.valid(); c = table.advance(&key, c))
      sum += value(c.position);
    return sum;
  }
  int64_t probe_batch(const int64_t* keys, uint32_t count) const {
    const int64_t* columns[] = {keys};
    return batch_sum(table, columns, count,
                     [&](uint32_t, uint32_t position) { return value(position); });
  }
  uint64_t memory_bytes() const { return table.memory_bytes(); }
};

template <typename Table>
std::unique_ptr<Table> build(const Workload& load) {
  auto table = std::make_unique<Table>(load.build_keys.size());
  for (int64_t key : load.build_keys) table->insert(key);
  table->finalize();
  return table;
}

template <typename Table>
void BM_Build(benchmark::State& state) {
  const auto rows = static_cast<uint64_t>(state.range(0));
  const Workload& load = workload(rows, 100);
  uint64_t bytes = 0;
  for (auto _ : state) {
    std::unique_ptr<Table> table = build<Table>(load);
    bytes = table->memory_bytes();
    benchmark::DoNotOptimize(table.get());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * rows));
  state.counters["bytes_per_row"] = static_cast<double>(bytes) / static_cast<double>(rows);
}

template <typename Table>
void BM_Probe(benchmark::State& state) {
  const auto rows = static_cast<uint64_t>(state.range(0));
  const Workload& load = workload(rows, static_cast<int>(state.range(1)));
  std::unique_ptr<Table> table = build<Table>(load);
  for (auto _ : state) {
    int64_t sum = 0;
    for (int64_t key : load.probe_keys) sum += table->probe(key);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kProbes));
  state.counters["bytes_per_row"] =
      static_cast<double>(table->memory_bytes()) / static_cast<double>(rows);
}

template <typename Table>
void BM_ProbeBatch(benchmark::State& state) {
  const auto rows = static_cast<uint64_t>(state.range(0));
  const Workload& load = workload(rows, static_cast<int>(state.range(1)));
  std::unique_ptr<Table> table = build<Table>(load);
  for (auto _ : state) {
    int64_t sum = 0;
    for (uint32_t i = 0; i < kProbes; i += kVector)
      sum += table->probe_batch(load.probe_keys.data() + i, kVector);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kProbes));
}

const int64_t kRows[] = {1 << 20, 1 << 24};  // the paper's 1E6 and (about) 1E7 inners
const int64_t kHitPercents[] = {100, 10};

template <typename Table>
void register_table() {
  std::string name = Table::kName;
  for (int64_t rows : kRows) {
    benchmark::RegisterBenchmark(("build/" + name).c_str(), BM_Build<Table>)
        ->Arg(rows)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    for (int64_t hit : kHitPercents) {
      benchmark::RegisterBenchmark(("probe/" + name).c_str(), BM_Probe<Table>)
          ->Args({rows, hit})
          ->Unit(benchmark::kMillisecond);
      if constexpr (requires(const Table& table) { table.probe_batch(nullptr, 0u); }) {
        benchmark::RegisterBenchmark(("probe_batch/" + name).c_str(), BM_ProbeBatch<Table>)
            ->Args({rows, hit})
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
}

}  // namespace
}  // namespace floe

int main(int argc, char** argv) {
  floe::register_table<floe::Chaining>();
  floe::register_table<floe::Cht>();
  floe::register_table<floe::Cat>();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
