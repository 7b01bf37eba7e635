// The hash-join experiments of Barber et al., "Memory-Efficient Hash Joins" (VLDB 2015,
// section 4), on floe's join tables: chaining (runtime/join_hash_table.h), CHT
// (runtime/concise_hash_table.h) and CAT (runtime/concise_array_table.h). Prints CSV, one
// line per configuration, each time the median of --runs runs (bench/RESULTS.md, plots by
// bench/join_tables/plot.gnuplot).
//
//   floe_bench_join_experiments size     Table 1 / Figs 6, 8: memory per build row and
//                                        build + probe time, inner 1E2..1E7, payload 0/8/24
//                                        (--payload P: one payload; --max-rows N)
//   --probes N: probe rows (default 4M)
//   floe_bench_join_experiments density  Fig 12: keys in a range 2x, 10x, 100x the rows
//   floe_bench_join_experiments filter   Fig 14: a 3-way join pipeline at selectivity
//                                        0..100%, with and without early bitmap filtering
//   floe_bench_join_experiments multiway Fig 9: 2- to 4-way joins, memory and time
//
// Workload as in the paper: unique 8-byte integer keys, random in a range twice the build
// rows (unless said otherwise), probe keys drawn from the build keys (hits) or from the rest
// of the range (misses). The chaining table and CHT store the key in the payload (the caller
// compares keys), CAT stores the payload alone. Builds run on a task arena of --threads.
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "runtime/bitmap_filter.h"
#include "runtime/concise_array_table.h"
#include "runtime/concise_hash_table.h"
#include "runtime/hash.h"
#include "runtime/join_hash_table.h"

namespace floe {
namespace {

int g_runs = 5;
uint32_t g_threads = 2;
int g_payload = -1;                     // size: only this payload (-1: 0, 8 and 24)
uint64_t g_max_rows = 10'000'000;       // size: the largest inner
uint64_t g_probes = uint64_t{1} << 22;  // probe rows (size: at least the inner's rows)
constexpr uint32_t kVector = 2048;

double median_ms(const std::function<void()>& run) {
  std::vector<double> times;
  for (int r = 0; r < g_runs; ++r) {
    auto start = std::chrono::steady_clock::now();
    run();
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

uint64_t hash_of(int64_t key) {
  return mix_hash(static_cast<uint64_t>(key));
}

struct Workload {
  std::vector<int64_t> build_keys;
  std::vector<int64_t> probe_keys;
};

// `rows` unique keys in [0, range), `probes` probe keys of which `hit_percent` hit.
Workload make_workload(uint64_t rows, uint64_t range, uint64_t probes, int hit_percent,
                       uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<int64_t> all(range);
  std::iota(all.begin(), all.end(), int64_t{0});
  std::shuffle(all.begin(), all.end(), random);
  Workload load;
  load.build_keys.assign(all.begin(), all.begin() + rows);
  load.probe_keys.resize(probes);
  for (int64_t& key : load.probe_keys) {
    bool hit = static_cast<int>(random() % 100) < hit_percent;
    key = hit || range == rows ? all[random() % rows] : all[rows + random() % (range - rows)];
  }
  return load;
}

// One join table of a kind with `payload` bytes per row besides the key; the interface the
// experiments need: insert (worker 0 of the arena's workers), finalize, probe sum, memory.
class Table {
 public:
  virtual ~Table() = default;
  virtual void build(const std::vector<int64_t>& keys) = 0;
  // The number of matches of `key` (after comparing keys where the table needs it).
  virtual uint32_t probe(int64_t key) const = 0;
  virtual bool may_contain(int64_t key) const = 0;
  virtual uint64_t memory_bytes() const = 0;
  // For the bitmap filter.
  virtual BitmapFilterJoin filter_join(const uint64_t* hashes, const int64_t* const* keys) const {
    (void)hashes;
    (void)keys;
    return {};
  }
};

// Inserts in parallel: each of the arena's workers takes a slice of the keys.
template <typename Insert>
void parallel_insert(const std::vector<int64_t>& keys, const Insert& insert) {
  const uint64_t slice = (keys.size() + g_threads - 1) / g_threads;
  tbb::parallel_for(uint32_t{0}, g_threads, [&](uint32_t w) {
    const uint64_t end = std::min<uint64_t>(keys.size(), (w + 1) * slice);
    for (uint64_t i = w * slice; i < end; ++i) insert(w, keys[i]);
  });
}

// Chaining and CHT: a hash per row, the key in the payload.
template <typename HashTable>
void build_hashed(HashTable& table, const std::vector<int64_t>& keys) {
  parallel_insert(keys, [&](uint32_t w, int64_t key) {
    std::memcpy(table.insert(w, hash_of(key)), &key, sizeof key);
  });
  table.finalize();
}

class ChainingTable : public Table {
 public:
  explicit ChainingTable(uint32_t payload) : payload_(payload), table_(8 + payload, g_threads) {}
  void build(const std::vector<int64_t>& keys) override { build_hashed(table_, keys); }
  uint32_t probe(int64_t key) const override {
    uint64_t hash = hash_of(key);
    uint32_t matches = 0;
    for (JoinEntry* e = table_.lookup(hash); e; e = JoinHashTable::next(e, hash))
      matches += std::memcmp(e->payload(), &key, sizeof key) == 0;
    return matches;
  }
  bool may_contain(int64_t key) const override { return table_.lookup(hash_of(key)) != nullptr; }
  // Entries (header, key, payload rounded to 8) and the directory.
  uint64_t memory_bytes() const override {
    return table_.size() * (sizeof(JoinEntry) + ((8 + payload_ + 7) & ~7u)) +
           table_.slot_count() * 8;
  }

 private:
  uint32_t payload_;
  JoinHashTable table_;
};

class ChtTable : public Table {
 public:
  explicit ChtTable(uint32_t payload) : table_(8 + payload, g_threads) {}
  void build(const std::vector<int64_t>& keys) override { build_hashed(table_, keys); }
  uint32_t probe(int64_t key) const override {
    uint64_t hash = hash_of(key);
    uint32_t matches = 0;
    for (ConciseCursor c = table_.probe(hash); c.valid(); c = table_.advance(hash, c))
      matches += std::memcmp(table_.row(c.position), &key, sizeof key) == 0;
    return matches;
  }
  bool may_contain(int64_t key) const override { return table_.may_contain(hash_of(key)); }
  uint64_t memory_bytes() const override { return table_.memory_bytes(); }
  BitmapFilterJoin filter_join(const uint64_t* hashes, const int64_t* const*) const override {
    return {&table_, hashes, nullptr, nullptr};
  }

 private:
  ConciseHashTable table_;
};

class CatTable : public Table {
 public:
  CatTable(uint32_t payload, uint64_t range)
      : table_(layout(range), payload == 0 ? 0 : payload, g_threads) {}
  void build(const std::vector<int64_t>& keys) override {
    parallel_insert(keys, [&](uint32_t w, int64_t key) { table_.insert(w, &key); });
    table_.finalize();
  }
  uint32_t probe(int64_t key) const override {
    uint32_t matches = 0;
    for (ConciseCursor c = table_.probe(&key); c.valid(); c = table_.advance(&key, c)) ++matches;
    return matches;
  }
  bool may_contain(int64_t key) const override { return table_.may_contain(&key); }
  uint64_t memory_bytes() const override { return table_.memory_bytes(); }
  BitmapFilterJoin filter_join(const uint64_t*, const int64_t* const* keys) const override {
    return {nullptr, nullptr, &table_, keys};
  }

 private:
  static DenseKeyLayout layout(uint64_t range) {
    std::vector<KeyColumnRange> columns = {{0, static_cast<int64_t>(range - 1)}};
    return *DenseKeyLayout::make(columns);
  }
  ConciseArrayTable table_;
};

const char* kKinds[] = {"chaining", "cht", "cat"};

std::unique_ptr<Table> make_table(const std::string& kind, uint32_t payload, uint64_t range) {
  if (kind == "chaining") return std::make_unique<ChainingTable>(payload);
  if (kind == "cht") return std::make_unique<ChtTable>(payload);
  return std::make_unique<CatTable>(payload, range);
}

// Probes in parallel slices; returns the matches (so that the work is not optimized away).
uint64_t parallel_probe(const Table& table, const std::vector<int64_t>& keys) {
  std::vector<uint64_t> matches(g_threads, 0);
  const uint64_t slice = (keys.size() + g_threads - 1) / g_threads;
  tbb::parallel_for(uint32_t{0}, g_threads, [&](uint32_t w) {
    const uint64_t end = std::min<uint64_t>(keys.size(), (w + 1) * slice);
    uint64_t sum = 0;
    for (uint64_t i = w * slice; i < end; ++i) sum += table.probe(keys[i]);
    matches[w] = sum;
  });
  return std::accumulate(matches.begin(), matches.end(), uint64_t{0});
}

// Table 1 / Figs 6 and 8, and Fig 12 (with `range_factor`): per kind, memory per row, build
// and probe time, probe throughput.
void size_line(uint64_t rows, uint32_t payload, uint64_t range_factor) {
  const uint64_t probes = std::max<uint64_t>(rows, g_probes);
  Workload load = make_workload(rows, range_factor * rows, probes, 100, rows * 31 + payload);
  for (const char* kind : kKinds) {
    uint64_t bytes = 0;
    uint64_t matches = 0;
    double build = median_ms([&] {
      auto table = make_table(kind, payload, range_factor * rows);
      table->build(load.build_keys);
      bytes = table->memory_bytes();
    });
    auto table = make_table(kind, payload, range_factor * rows);
    table->build(load.build_keys);
    double probe = median_ms([&] { matches = parallel_probe(*table, load.probe_keys); });
    std::printf(
        "%s,%llu,%u,%llu,%.2f,%.3f,%.3f,%.1f,%llu\n", kind, static_cast<unsigned long long>(rows),
        payload, static_cast<unsigned long long>(range_factor),
        static_cast<double>(bytes) / static_cast<double>(rows), build, probe,
        static_cast<double>(probes) / probe / 1000.0, static_cast<unsigned long long>(matches));
    std::fflush(stdout);
  }
}

void run_size() {
  std::printf(
      "table,inner_rows,payload,range_factor,bytes_per_row,build_ms,probe_ms,"
      "probe_mkeys_per_s,matches\n");
  for (uint32_t payload : {0u, 8u, 24u}) {
    if (g_payload >= 0 && payload != static_cast<uint32_t>(g_payload)) continue;
    for (uint64_t rows = 100; rows <= g_max_rows; rows *= 10) size_line(rows, payload, 2);
  }
}

void run_density() {
  std::printf(
      "table,inner_rows,payload,range_factor,bytes_per_row,build_ms,probe_ms,"
      "probe_mkeys_per_s,matches\n");
  for (uint64_t factor : {2, 10, 100}) size_line(1'000'000, 8, factor);
}

// A probe pipeline through `joins` joins (each a build side of `rows` rows, payload 8),
// batch by batch as the vectorized engine runs it: with early filtering, each batch first
// passes every join's bitmap (runtime/bitmap_filter.h), then probes the arrays; without, it
// probes join after join. `selectivity`: the share of probe rows that match every join.
double pipeline_ms(const std::vector<std::unique_ptr<Table>>& tables,
                   const std::vector<std::vector<int64_t>>& probe_keys, bool early,
                   uint64_t* survivors) {
  const uint64_t rows = probe_keys[0].size();
  std::vector<uint64_t> counts(g_threads, 0);
  double ms = median_ms([&] {
    const uint64_t batches = (rows + kVector - 1) / kVector;
    tbb::parallel_for(uint32_t{0}, g_threads, [&](uint32_t w) {
      uint32_t sel[kVector];
      uint64_t hashes[8][kVector];
      uint64_t count_here = 0;
      for (uint64_t batch = w; batch < batches; batch += g_threads) {
        const uint64_t begin = batch * kVector;
        const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(kVector, rows - begin));
        for (uint32_t i = 0; i < n; ++i) sel[i] = i;
        uint32_t active = n;
        std::vector<BitmapFilterJoin> filter;
        std::vector<const int64_t*> key_columns(tables.size());
        for (size_t j = 0; j < tables.size(); ++j) {
          key_columns[j] = probe_keys[j].data() + begin;
          for (uint32_t i = 0; i < n; ++i) hashes[j][i] = hash_of(key_columns[j][i]);
          filter.push_back(tables[j]->filter_join(hashes[j], &key_columns[j]));
        }
        if (early) active = filter_by_bitmaps(filter, sel, active, sel);
        for (size_t j = 0; j < tables.size(); ++j) {
          uint32_t kept = 0;
          for (uint32_t i = 0; i < active; ++i) {
            uint32_t row = sel[i];
            sel[kept] = row;
            kept += tables[j]->probe(key_columns[j][row]) != 0;
          }
          active = kept;
        }
        count_here += active;
      }
      counts[w] = count_here;
    });
  });
  *survivors = std::accumulate(counts.begin(), counts.end(), uint64_t{0});
  return ms;
}

// `joins` build sides of `rows` rows each and the probe keys per join: a probe row matches
// all of them with probability `selectivity`%, else misses the first (or a random) one.
void make_pipeline(const std::string& kind, size_t joins, uint64_t rows, uint64_t probes,
                   int selectivity, std::vector<std::unique_ptr<Table>>& tables,
                   std::vector<std::vector<int64_t>>& probe_keys) {
  std::mt19937_64 random(joins * 1000 + selectivity);
  tables.clear();
  probe_keys.assign(joins, std::vector<int64_t>(probes));
  std::vector<Workload> loads;
  for (size_t j = 0; j < joins; ++j) {
    loads.push_back(make_workload(rows, 2 * rows, probes, 100, j + 7));
    tables.push_back(make_table(kind, 8, 2 * rows));
    tables.back()->build(loads.back().build_keys);
  }
  for (uint64_t p = 0; p < probes; ++p) {
    bool all = static_cast<int>(random() % 100) < selectivity;
    size_t miss = random() % joins;
    for (size_t j = 0; j < joins; ++j) {
      const auto& keys = loads[j].build_keys;
      // A miss: a key of the range's other half (not built).
      probe_keys[j][p] = all || j != miss ? keys[random() % rows] : -1 - static_cast<int64_t>(p);
    }
  }
}

void run_filter() {
  std::printf("table,joins,inner_rows,selectivity,early_filter,probe_ms,survivors\n");
  const uint64_t rows = 1'000'000, probes = g_probes;
  for (const char* kind : {"cht", "cat"}) {
    for (int selectivity : {0, 20, 40, 60, 80, 100}) {
      std::vector<std::unique_ptr<Table>> tables;
      std::vector<std::vector<int64_t>> keys;
      make_pipeline(kind, 3, rows, probes, selectivity, tables, keys);
      for (bool early : {false, true}) {
        uint64_t survivors = 0;
        double ms = pipeline_ms(tables, keys, early, &survivors);
        std::printf("%s,3,%llu,%d,%d,%.3f,%llu\n", kind, static_cast<unsigned long long>(rows),
                    selectivity, early ? 1 : 0, ms, static_cast<unsigned long long>(survivors));
        std::fflush(stdout);
      }
    }
  }
}

void run_multiway() {
  std::printf("table,joins,inner_rows,total_bytes,build_ms,probe_ms\n");
  const uint64_t rows = 1'000'000, probes = g_probes;
  for (const char* kind : kKinds) {
    for (size_t joins = 1; joins <= 3; ++joins) {  // 2- to 4-way joins
      std::vector<std::unique_ptr<Table>> tables;
      std::vector<std::vector<int64_t>> keys;
      double build = median_ms([&] { make_pipeline(kind, joins, rows, probes, 50, tables, keys); });
      uint64_t bytes = 0;
      for (const auto& table : tables) bytes += table->memory_bytes();
      uint64_t survivors = 0;
      double probe = pipeline_ms(tables, keys, std::string(kind) != "chaining", &survivors);
      std::printf("%s,%zu,%llu,%llu,%.3f,%.3f\n", kind, joins + 1,
                  static_cast<unsigned long long>(rows), static_cast<unsigned long long>(bytes),
                  build, probe);
      std::fflush(stdout);
    }
  }
}

}  // namespace
}  // namespace floe

int main(int argc, char** argv) {
  std::string experiment = argc > 1 ? argv[1] : "";
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string name = argv[i];
    if (name == "--runs") floe::g_runs = std::stoi(argv[i + 1]);
    if (name == "--threads") floe::g_threads = static_cast<uint32_t>(std::stoi(argv[i + 1]));
    if (name == "--payload") floe::g_payload = std::stoi(argv[i + 1]);
    if (name == "--max-rows") floe::g_max_rows = std::stoull(argv[i + 1]);
    if (name == "--probes") floe::g_probes = std::stoull(argv[i + 1]);
  }
  tbb::task_arena arena(static_cast<int>(floe::g_threads));
  return arena.execute([&] {
    if (experiment == "size") {
      floe::run_size();
    } else if (experiment == "density") {
      floe::run_density();
    } else if (experiment == "filter") {
      floe::run_filter();
    } else if (experiment == "multiway") {
      floe::run_multiway();
    } else {
      std::fprintf(stderr,
                   "usage: floe_bench_join_experiments size|density|filter|multiway "
                   "[--runs N] [--threads N] [--payload P] [--max-rows N] "
                   "[--probes N]\n");
      return 1;
    }
    return 0;
  });
}
