// Concise hash table (runtime/concise_hash_table.h) against a std::unordered_multimap model.
#include <gtest/gtest.h>

#include <atomic>
#include <random>

#include "runtime/concise_hash_table.h"
#include "runtime/hash.h"
#include "storage/error.h"
#include "tests/unit/join_table_test_support.h"

namespace floe {
namespace {

using namespace join_table_test;

using HashFn = uint64_t (*)(int64_t);

// The inverse of the golden-ratio multiplier modulo 2^64 (Newton's iteration).
constexpr uint64_t inverse_golden() {
  uint64_t x = kGoldenRatio64;
  for (int i = 0; i < 6; ++i) x *= 2 - kGoldenRatio64 * x;
  return x;
}
static_assert(inverse_golden() * kGoldenRatio64 == 1);

uint64_t good_hash(int64_t key) {
  return mix_hash(static_cast<uint64_t>(key));
}
// Different keys, equal hashes: the caller's key comparison tells them apart.
uint64_t weak_hash(int64_t key) {
  return static_cast<uint64_t>(key) % 7;
}
// Distinct hashes that the bitmap's multiplicative hash sends to one home bucket (a skewed
// key set that defeats the first hash function); the overflow's second hash spreads them.
uint64_t defeating_hash(int64_t key) {
  return static_cast<uint64_t>(key) * inverse_golden();
}

ConciseHashTable build(const std::vector<BuildRow>& rows, HashFn hash_fn, uint32_t workers = 2) {
  ConciseHashTable table(sizeof(Payload), workers);
  insert_in_parallel(workers, rows.size(), [&](uint32_t worker, size_t i) {
    store(table.insert(worker, hash_fn(rows[i].key)), rows[i]);
  });
  table.finalize();
  return table;
}

// The ids of the rows with `key`, sorted, walking the candidates as generated code does.
std::vector<int64_t> ids_of(const ConciseHashTable& table, int64_t key, HashFn hash_fn) {
  uint64_t hash = hash_fn(key);
  std::vector<int64_t> ids;
  for (ConciseCursor cursor = table.probe(hash); cursor.valid();
       cursor = table.advance(hash, cursor)) {
    EXPECT_LT(cursor.position, table.size());
    Payload payload = load(table.row(cursor.position));
    if (payload.key == key) ids.push_back(payload.id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

// Every key of the rows and `absent` more keys probe as in the model; the table's rows are
// the build rows, each once.
void expect_model(const ConciseHashTable& table, const std::vector<BuildRow>& rows, HashFn hash_fn,
                  const std::vector<int64_t>& absent = {}) {
  Model model = model_of(rows);
  ASSERT_EQ(table.size(), rows.size());
  for (auto it = model.begin(); it != model.end(); it = model.equal_range(it->first).second) {
    ASSERT_EQ(ids_of(table, it->first, hash_fn), model_ids(model, it->first)) << it->first;
    EXPECT_TRUE(table.may_contain(hash_fn(it->first)));
  }
  for (int64_t key : absent) ASSERT_TRUE(ids_of(table, key, hash_fn).empty()) << "key " << key;
  std::vector<std::pair<int64_t, int64_t>> stored, built;
  for (uint32_t i = 0; i < table.size(); ++i) {
    Payload payload = load(table.row(i));
    stored.emplace_back(payload.key, payload.id);
  }
  for (const BuildRow& row : rows) built.emplace_back(row.key, row.id);
  std::sort(stored.begin(), stored.end());
  std::sort(built.begin(), built.end());
  EXPECT_EQ(stored, built);
}

// `count` rows with distinct random keys (ids 0..count-1) and as many absent keys: mix_hash
// is a bijection, so distinct inputs give distinct keys.
void random_keys(size_t count, uint64_t seed, std::vector<BuildRow>& rows,
                 std::vector<int64_t>& absent) {
  for (uint64_t i = 0; i < 2 * count; ++i) {
    auto key = static_cast<int64_t>(mix_hash((seed << 40) + i));
    if (i < count)
      rows.push_back({key, static_cast<int64_t>(i)});
    else
      absent.push_back(key);
  }
}

TEST(ChtTest, EmptyTableHasNoRows) {
  ConciseHashTable table(sizeof(Payload), 2);
  table.finalize();
  EXPECT_EQ(table.size(), 0u);
  for (int64_t key : {0, 1, -5, 1000}) EXPECT_FALSE(table.probe(good_hash(key)).valid());
  EXPECT_FALSE(table.may_contain(good_hash(0)));
}

TEST(ChtTest, OneRow) {
  std::vector<BuildRow> rows = {{42, 7}};
  ConciseHashTable table = build(rows, good_hash, 1);
  expect_model(table, rows, good_hash, {41, 43, 0});
  EXPECT_EQ(table.overflow_size(), 0u);
}

class ChtHashTest : public ::testing::TestWithParam<HashFn> {};

TEST_P(ChtHashTest, UniqueKeys) {
  std::vector<BuildRow> rows;
  std::vector<int64_t> absent;
  random_keys(20000, 1, rows, absent);
  expect_model(build(rows, GetParam()), rows, GetParam(), absent);
}

TEST_P(ChtHashTest, DuplicateKeys) {
  // Key k appears k % 5 + 1 times; odd keys are absent.
  std::vector<BuildRow> rows;
  std::vector<int64_t> absent;
  for (int64_t key = 0; key < 20000; key += 2) {
    for (int64_t copy = 0; copy <= key % 5; ++copy)
      rows.push_back({key, static_cast<int64_t>(rows.size())});
    absent.push_back(key + 1);
  }
  std::shuffle(rows.begin(), rows.end(), std::mt19937_64(2));
  expect_model(build(rows, GetParam()), rows, GetParam(), absent);
}

TEST_P(ChtHashTest, SkewedKeys) {
  // A few keys with many duplicates among distinct ones: most of their rows overflow.
  std::vector<BuildRow> rows;
  for (int64_t i = 0; i < 20000; ++i) rows.push_back({0, i});
  for (int64_t i = 0; i < 2000; ++i) rows.push_back({1, 20000 + i});
  for (int64_t i = 0; i < 200; ++i) rows.push_back({2, 22000 + i});
  for (int64_t key = 3; key < 40000; ++key) rows.push_back({key, 22200 + key});
  std::shuffle(rows.begin(), rows.end(), std::mt19937_64(3));
  ConciseHashTable table = build(rows, GetParam(), 4);
  expect_model(table, rows, GetParam(), {-1, 40000, 40001});
  EXPECT_GE(table.overflow_size(), 20000u - 2 + 2000 - 2 + 200 - 2);
}

INSTANTIATE_TEST_SUITE_P(Hashes, ChtHashTest,
                         ::testing::Values(&good_hash, &weak_hash, &defeating_hash));

TEST(ChtTest, CollidingHashesGoToTheOverflow) {
  // All rows share one home bucket: two take it and the next, the rest overflow.
  std::vector<BuildRow> rows;
  for (int64_t key = 1; key <= 5000; ++key) rows.push_back({key, key});
  ConciseHashTable table = build(rows, defeating_hash);
  EXPECT_EQ(table.overflow_size(), rows.size() - 2);
  expect_model(table, rows, defeating_hash, {0, 5001});
}

TEST(ChtTest, MillionsOfRows) {
  std::vector<BuildRow> rows;
  std::vector<int64_t> absent;
  random_keys(3'000'000, 4, rows, absent);
  ConciseHashTable table = build(rows, good_hash);
  ASSERT_EQ(table.size(), rows.size());
  for (const BuildRow& row : rows)
    ASSERT_EQ(ids_of(table, row.key, good_hash), std::vector<int64_t>{row.id}) << row.key;
  for (int64_t key : absent) ASSERT_TRUE(ids_of(table, key, good_hash).empty()) << key;
  // Section 2.1: 8 bitmap bits per row in words of 32 bits plus a 32-bit count, 2 bytes per
  // row. A row overflows when its home bucket and the next are both taken on its arrival:
  // about 0.7% of the rows at fill 1/8.
  double bitmap_bytes_per_row = static_cast<double>(table.bitmap().memory_bytes()) / rows.size();
  EXPECT_GE(bitmap_bytes_per_row, 2.0);
  EXPECT_LT(bitmap_bytes_per_row, 2.01);
  EXPECT_LT(table.overflow_size(), rows.size() / 100);
  EXPECT_LT(table.memory_bytes(), rows.size() * (sizeof(Payload) + 2.5));
}

TEST(ChtTest, ParallelBuildsHoldTheSameRows) {
  // Large enough for several partitions; duplicates make placement order-dependent.
  std::vector<BuildRow> rows;
  std::vector<int64_t> absent;
  random_keys(150000, 5, rows, absent);
  for (int64_t i = 0; i < 50000; ++i) rows.push_back({rows[i % 1000].key, 150000 + i});
  std::shuffle(rows.begin(), rows.end(), std::mt19937_64(6));
  for (uint32_t workers : {1u, 2u, 4u}) {
    SCOPED_TRACE(workers);
    ConciseHashTable table = build(rows, good_hash, workers);
    expect_model(table, rows, good_hash, absent);
  }
}

TEST(ChtTest, BatchProbeFindsWhatSingleProbesFind) {
  std::vector<BuildRow> rows;
  std::vector<int64_t> absent;
  random_keys(50000, 7, rows, absent);
  for (int64_t i = 0; i < 5000; ++i) rows.push_back({rows[i % 100].key, 50000 + i});
  ConciseHashTable table = build(rows, weak_hash);
  Model model = model_of(rows);

  // A batch of 2048 probe rows, half of them present keys; every other row selected.
  constexpr uint32_t kBatch = 2048;
  std::vector<int64_t> keys(kBatch);
  std::vector<uint64_t> hashes(kBatch);
  for (uint32_t r = 0; r < kBatch; ++r) {
    keys[r] = r % 2 ? rows[r * 13 % rows.size()].key : absent[r];
    hashes[r] = weak_hash(keys[r]);
  }
  std::vector<uint32_t> sel;
  for (uint32_t r = 0; r < kBatch; r += 2) sel.push_back(r);
  sel.push_back(1);
  std::vector<ConciseCursor> cursors(kBatch);
  std::vector<std::vector<int64_t>> found(kBatch);
  auto count = static_cast<uint32_t>(sel.size());
  count = table.probe_batch(hashes.data(), sel.data(), count, cursors.data(), sel.data());
  while (count > 0) {
    for (uint32_t i = 0; i < count; ++i) {
      Payload payload = load(table.row(cursors[sel[i]].position));
      if (payload.key == keys[sel[i]]) found[sel[i]].push_back(payload.id);
    }
    count = table.advance_batch(hashes.data(), sel.data(), count, cursors.data(), sel.data());
  }
  for (uint32_t r = 0; r < kBatch; ++r) {
    std::sort(found[r].begin(), found[r].end());
    bool selected = r % 2 == 0 || r == 1;
    EXPECT_EQ(found[r], selected ? model_ids(model, keys[r]) : std::vector<int64_t>{}) << r;
  }
}

TEST(ChtTest, FinalizeStopsOnCancel) {
  ConciseHashTable table(sizeof(Payload), 1);
  for (int64_t key = 0; key < 100000; ++key) store(table.insert(0, good_hash(key)), {key, key});
  std::atomic<bool> cancel{true};
  EXPECT_THROW(table.finalize(&cancel), Error);
}

}  // namespace
}  // namespace floe
