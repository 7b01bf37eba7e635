// Concise array table (runtime/concise_array_table.h), its dense key layout and the 'auto'
// choice (runtime/dense_key_layout.h, runtime/join_table_choice.h), against a
// std::unordered_multimap model.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "runtime/concise_array_table.h"
#include "runtime/join_table_choice.h"
#include "tests/unit/join_table_test_support.h"

namespace floe {
namespace {

using namespace join_table_test;

DenseKeyLayout layout_of(std::vector<KeyColumnRange> ranges) {
  std::optional<DenseKeyLayout> layout = DenseKeyLayout::make(ranges);
  EXPECT_TRUE(layout.has_value());
  return *layout;
}

KeyStats stats_of(const std::vector<int64_t>& values) {
  KeyStats stats;
  for (int64_t value : values) stats.add(value);
  return stats;
}

// A CAT over single-column keys whose payload is the row id alone (no key).
ConciseArrayTable build(const DenseKeyLayout& layout, const std::vector<BuildRow>& rows,
                        uint32_t workers = 2) {
  ConciseArrayTable table(layout, sizeof(int64_t), workers);
  insert_in_parallel(workers, rows.size(), [&](uint32_t worker, size_t i) {
    std::memcpy(table.insert(worker, &rows[i].key), &rows[i].id, sizeof(int64_t));
  });
  table.finalize();
  return table;
}

// The ids of the rows with `key`, sorted; matches are exact.
std::vector<int64_t> ids_of(const ConciseArrayTable& table, const int64_t* key) {
  std::vector<int64_t> ids;
  for (ConciseCursor cursor = table.probe(key); cursor.valid();
       cursor = table.advance(key, cursor)) {
    EXPECT_LT(cursor.position, table.size());
    int64_t id;
    std::memcpy(&id, table.row(cursor.position), sizeof id);
    ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

void expect_model(const ConciseArrayTable& table, const std::vector<BuildRow>& rows,
                  const std::vector<int64_t>& absent) {
  Model model = model_of(rows);
  ASSERT_EQ(table.size(), rows.size());
  for (auto it = model.begin(); it != model.end(); it = model.equal_range(it->first).second) {
    ASSERT_EQ(ids_of(table, &it->first), model_ids(model, it->first)) << it->first;
    EXPECT_TRUE(table.may_contain(&it->first));
  }
  for (int64_t key : absent) ASSERT_TRUE(ids_of(table, &key).empty()) << "key " << key;
}

// Rows with the distinct keys `keys` (shuffled), ids in order.
std::vector<BuildRow> rows_of(std::vector<int64_t> keys, uint64_t seed) {
  std::shuffle(keys.begin(), keys.end(), std::mt19937_64(seed));
  std::vector<BuildRow> rows;
  for (int64_t key : keys) rows.push_back({key, static_cast<int64_t>(rows.size())});
  return rows;
}

TEST(CatLayoutTest, PacksOffsetsFromTheMinimum) {
  DenseKeyLayout layout = layout_of({{-5, 10}});
  EXPECT_EQ(layout.range(), 16u);
  uint64_t dense;
  int64_t key = -5;
  ASSERT_TRUE(layout.pack(&key, &dense));
  EXPECT_EQ(dense, 0u);
  key = 10;
  ASSERT_TRUE(layout.pack(&key, &dense));
  EXPECT_EQ(dense, 15u);
  for (int64_t out : {int64_t{-6}, int64_t{11}, INT64_MIN, INT64_MAX})
    EXPECT_FALSE(layout.pack(&out, &dense)) << out;
}

TEST(CatLayoutTest, ConcatenatesColumnsInTheBitsTheirRangesNeed) {
  // Widths 4 (first column, range 10), 2 (span 3) and 2 (span 2): 10 << 4 dense keys.
  DenseKeyLayout layout = layout_of({{0, 9}, {100, 103}, {-1, 1}});
  EXPECT_EQ(layout.range(), 160u);
  uint64_t dense;
  int64_t key[] = {9, 103, 1};
  ASSERT_TRUE(layout.pack(key, &dense));
  EXPECT_EQ(dense, (9u << 4) | (3u << 2) | 2u);
  int64_t out_of_range[][3] = {{10, 100, 0}, {0, 99, 0}, {0, 100, 2}, {-1, 100, 0}};
  for (const auto& out : out_of_range) EXPECT_FALSE(layout.pack(out, &dense));
}

TEST(CatLayoutTest, RejectsRangesBeyondItsBits) {
  std::vector<KeyColumnRange> whole = {{INT64_MIN, INT64_MAX}};
  EXPECT_FALSE(DenseKeyLayout::make(whole).has_value());
  std::vector<KeyColumnRange> wide = {{0, int64_t{1} << 40}, {0, int64_t{1} << 30}};
  EXPECT_FALSE(DenseKeyLayout::make(wide).has_value());
  std::vector<KeyColumnRange> empty = {{5, 4}};
  EXPECT_FALSE(DenseKeyLayout::make(empty).has_value());
  DenseKeyLayout low = layout_of({{INT64_MIN, INT64_MIN + 10}});
  uint64_t dense;
  int64_t key = INT64_MAX;
  EXPECT_FALSE(low.pack(&key, &dense));
  key = INT64_MIN + 3;
  ASSERT_TRUE(low.pack(&key, &dense));
  EXPECT_EQ(dense, 3u);
}

TEST(CatLayoutTest, KeyStatsKeepTheTwoDistinctExtremes) {
  KeyStats left = stats_of({5, 5, 9, 7, 5});
  EXPECT_EQ(left.min, 5);
  EXPECT_EQ(left.second_min, 7);
  EXPECT_EQ(left.max, 9);
  EXPECT_EQ(left.second_max, 7);
  EXPECT_EQ(left.count, 5u);
  left.merge(stats_of({INT64_MAX, 6, -3}));
  EXPECT_EQ(left.min, -3);
  EXPECT_EQ(left.second_min, 5);
  EXPECT_EQ(left.max, INT64_MAX);
  EXPECT_EQ(left.second_max, 9);
  EXPECT_EQ(left.count, 8u);
  KeyStats empty;
  left.merge(empty);
  EXPECT_EQ(left.min, -3);
  EXPECT_EQ(left.count, 8u);
}

TEST(CatLayoutTest, AutoPicksCatUpToOnePercentDensity) {
  std::vector<int64_t> keys;
  for (int64_t i = 0; i < 1000; ++i) keys.push_back(i * 100);  // range 99901 <= 100 * 1000
  std::vector<KeyStats> dense = {stats_of(keys)};
  JoinTableChoice choice = choose_join_table(dense);
  EXPECT_EQ(choice.kind, JoinTableKind::kCat);
  EXPECT_EQ(choice.cat_layout->range(), 99901u);

  keys.push_back(INT64_MAX);  // a sentinel
  std::vector<KeyStats> outlier = {stats_of(keys)};
  choice = choose_join_table(outlier);
  EXPECT_EQ(choice.kind, JoinTableKind::kCat);
  EXPECT_EQ(choice.cat_layout->range(), 99801u);  // [100, 99900]: 0 and the sentinel overflow

  keys.clear();
  for (int64_t i = 0; i < 1000; ++i) keys.push_back(i * 101);  // range 100900 > 100 * 1000
  std::vector<KeyStats> sparse = {stats_of(keys)};
  EXPECT_EQ(choose_join_table(sparse).kind, JoinTableKind::kCht);
  EXPECT_EQ(choose_join_table({}).kind, JoinTableKind::kCht);  // not integer keys
  std::vector<KeyStats> none = {KeyStats{}};
  EXPECT_EQ(choose_join_table(none).kind, JoinTableKind::kCht);
}

TEST(CatLayoutTest, AutoPacksCompositeKeys) {
  // 1000 rows of (a in [0, 99], b in [0, 9]): 100 << 4 = 1600 dense keys.
  std::vector<int64_t> a, b;
  for (int64_t i = 0; i < 1000; ++i) {
    a.push_back(i / 10);
    b.push_back(i % 10);
  }
  std::vector<KeyStats> stats = {stats_of(a), stats_of(b)};
  JoinTableChoice choice = choose_join_table(stats);
  ASSERT_EQ(choice.kind, JoinTableKind::kCat);
  EXPECT_EQ(choice.cat_layout->columns(), 2u);
  EXPECT_EQ(choice.cat_layout->range(), 1600u);
}

TEST(CatTest, EmptyTableHasNoRows) {
  ConciseArrayTable table(layout_of({{0, 100}}), sizeof(int64_t), 2);
  table.finalize();
  EXPECT_EQ(table.size(), 0u);
  for (int64_t key : {int64_t{0}, int64_t{50}, int64_t{-1}, INT64_MAX}) {
    EXPECT_FALSE(table.probe(&key).valid());
    EXPECT_FALSE(table.may_contain(&key));
  }
}

TEST(CatTest, DenseKeysNeedNoOverflowAndNoKeys) {
  std::vector<int64_t> keys;
  for (int64_t key = 1000; key < 51000; ++key) keys.push_back(key);
  std::vector<BuildRow> rows = rows_of(keys, 1);
  ConciseArrayTable table = build(layout_of({{1000, 50999}}), rows);
  expect_model(table, rows, {999, 51000, INT64_MIN, INT64_MAX, 0, -1000});
  EXPECT_EQ(table.overflow_size(), 0u);
  // Payloads only, plus the bitmap: 2 bits per key of the range (rounded to whole words).
  EXPECT_LE(table.memory_bytes(), rows.size() * sizeof(int64_t) + 50000 / 4 + 8 * 64);
  // The bitmap is exact for keys in range.
  int64_t key = 1000;
  EXPECT_TRUE(table.may_contain(&key));
  key = 999;
  EXPECT_FALSE(table.may_contain(&key));
}

TEST(CatTest, SparseKeys) {
  // 20000 distinct keys in a range 100 times larger.
  std::mt19937_64 random(2);
  std::set<int64_t> keys;
  while (keys.size() < 20000) keys.insert(static_cast<int64_t>(random() % 2'000'000));
  std::vector<int64_t> absent;
  for (int64_t key = 0; absent.size() < 20000; ++key)
    if (!keys.count(key)) absent.push_back(key);
  std::vector<BuildRow> rows = rows_of({keys.begin(), keys.end()}, 3);
  ConciseArrayTable table = build(layout_of({{*keys.begin(), *keys.rbegin()}}), rows);
  expect_model(table, rows, absent);
  EXPECT_EQ(table.overflow_size(), 0u);
}

TEST(CatTest, NegativeKeys) {
  std::vector<int64_t> keys;
  for (int64_t key = -30000; key < 0; key += 3) keys.push_back(key);
  std::vector<BuildRow> rows = rows_of(keys, 4);
  ConciseArrayTable table = build(layout_of({{-30000, -3}}), rows);
  expect_model(table, rows, {-29999, -29998, -1, 0, 1, -30001, INT64_MIN});
}

TEST(CatTest, DuplicateKeysOverflow) {
  // Key k appears k % 4 + 1 times: the first takes the bit, the others overflow.
  std::vector<BuildRow> rows;
  uint32_t duplicates = 0;
  for (int64_t key = 0; key < 20000; key += 2) {
    for (int64_t copy = 0; copy <= key % 4; ++copy)
      rows.push_back({key, static_cast<int64_t>(rows.size())});
    duplicates += static_cast<uint32_t>(key % 4);
  }
  std::shuffle(rows.begin(), rows.end(), std::mt19937_64(5));
  ConciseArrayTable table = build(layout_of({{0, 19998}}), rows, 4);
  EXPECT_EQ(table.overflow_size(), duplicates);
  expect_model(table, rows, {1, 3, 19999, -2, 20000});
}

TEST(CatTest, SkewedKeys) {
  std::vector<BuildRow> rows;
  for (int64_t i = 0; i < 30000; ++i) rows.push_back({7, i});
  for (int64_t key = 0; key < 30000; ++key) rows.push_back({key, 30000 + key});
  std::shuffle(rows.begin(), rows.end(), std::mt19937_64(6));
  expect_model(build(layout_of({{0, 29999}}), rows, 4), rows, {-1, 30000});
}

TEST(CatTest, KeysOutOfRangeOverflow) {
  // The layout covers [0, 9999]; keys run from -500 to 10499, plus sentinels.
  std::vector<int64_t> keys;
  for (int64_t key = -500; key < 10500; key += 2) keys.push_back(key);
  keys.push_back(INT64_MAX);
  keys.push_back(INT64_MIN);
  std::vector<BuildRow> rows = rows_of(keys, 7);
  ConciseArrayTable table = build(layout_of({{0, 9999}}), rows);
  EXPECT_EQ(table.overflow_size(), 250u + 250u + 2u);
  expect_model(table, rows, {-499, -1, 1, 9999, 10001, 10500, INT64_MAX - 1, INT64_MIN + 1});
}

TEST(CatTest, ZeroPayloadIsJustTheBitmap) {
  // A semi join's table: no payload; a probe only says whether the key is there.
  ConciseArrayTable table(layout_of({{0, 999}}), 0, 1);
  for (int64_t key = 0; key < 1000; key += 5) table.insert(0, &key);
  table.finalize();
  EXPECT_EQ(table.memory_bytes(), table.bitmap().memory_bytes());
  for (int64_t key = 0; key < 1000; ++key) EXPECT_EQ(table.probe(&key).valid(), key % 5 == 0);
}

TEST(CatTest, CompositeKeys) {
  // (a, b) with a in [0, 99], b in [-50, 49], a random half of them, plus keys out of range.
  DenseKeyLayout layout = layout_of({{0, 99}, {-50, 49}});
  std::mt19937_64 random(8);
  std::map<std::pair<int64_t, int64_t>, std::vector<int64_t>> model;
  ConciseArrayTable table(layout, sizeof(int64_t), 2);
  int64_t id = 0;
  std::vector<std::array<int64_t, 2>> keys;
  for (int64_t a = -2; a < 102; ++a)
    for (int64_t b = -52; b < 52; ++b)
      if (random() % 2) keys.push_back({a, b});
  for (int64_t copy = 0; copy < 3; ++copy) keys.push_back({5, 5});  // duplicates
  insert_in_parallel(2, keys.size(), [&](uint32_t worker, size_t i) {
    int64_t row_id = static_cast<int64_t>(i);
    std::memcpy(table.insert(worker, keys[i].data()), &row_id, sizeof row_id);
  });
  for (const auto& key : keys) model[{key[0], key[1]}].push_back(id++);
  table.finalize();
  ASSERT_EQ(table.size(), keys.size());
  for (int64_t a = -3; a < 103; ++a) {
    for (int64_t b = -53; b < 53; ++b) {
      int64_t key[] = {a, b};
      auto it = model.find({a, b});
      std::vector<int64_t> expected = it == model.end() ? std::vector<int64_t>{} : it->second;
      ASSERT_EQ(ids_of(table, key), expected) << a << ", " << b;
    }
  }
}

TEST(CatTest, ParallelBuildsHoldTheSameRows) {
  // Several partitions; the bitmap depends on the keys alone.
  std::vector<int64_t> keys;
  for (int64_t key = 0; key < 300000; key += 3) keys.push_back(key);
  std::vector<BuildRow> rows = rows_of(keys, 9);
  for (int64_t i = 0; i < 20000; ++i) rows.push_back({rows[i % 500].key, 100000 + i});
  std::vector<int64_t> absent = {1, 2, 299998, 300000, -3};
  std::vector<uint64_t> first_bitmap;
  for (uint32_t workers : {1u, 2u, 4u}) {
    SCOPED_TRACE(workers);
    ConciseArrayTable table = build(layout_of({{0, 299997}}), rows, workers);
    expect_model(table, rows, absent);
    std::vector<uint64_t> bitmap;
    for (uint64_t i = 0; i < table.bitmap().word_count(); ++i)
      bitmap.push_back(table.bitmap().word(i));
    if (first_bitmap.empty()) first_bitmap = bitmap;
    EXPECT_EQ(bitmap, first_bitmap);
  }
}

TEST(CatTest, ScramblingIsABijectionThatSpreadsPartitions) {
  // Keys that are all multiples of 64 (a predicate on the low bits): partitioning on the
  // dense key's low bits alone would put them all in one partition.
  std::vector<int64_t> keys;
  for (int64_t key = 0; key < (int64_t{1} << 22); key += 64) keys.push_back(key);
  std::vector<BuildRow> rows = rows_of(keys, 10);
  ConciseArrayTable table = build(layout_of({{0, (int64_t{1} << 22) - 1}}), rows);
  expect_model(table, rows, {1, 63, 65});
  uint64_t partitions = 0;
  std::map<uint64_t, uint64_t> per_partition;
  for (int64_t key : keys) ++per_partition[table.partition_of(static_cast<uint64_t>(key))];
  partitions = per_partition.size();
  EXPECT_GE(partitions, 2u);
  uint64_t smallest = UINT64_MAX, largest = 0;
  for (const auto& [partition, count] : per_partition) {
    smallest = std::min(smallest, count);
    largest = std::max(largest, count);
  }
  EXPECT_LT(largest, 2 * smallest);
  // Every dense key has its own bucket within the bitmap.
  std::vector<bool> seen(table.bitmap().bucket_count());
  for (uint64_t dense = 0; dense < table.layout().range(); ++dense) {
    uint64_t bucket = table.bucket_of(dense);
    ASSERT_LT(bucket, seen.size());
    ASSERT_FALSE(seen[bucket]) << dense;
    seen[bucket] = true;
  }
}

TEST(CatTest, BatchProbeFindsWhatSingleProbesFind) {
  DenseKeyLayout layout = layout_of({{0, 999}, {0, 9}});
  ConciseArrayTable table(layout, sizeof(int64_t), 1);
  std::map<std::pair<int64_t, int64_t>, std::vector<int64_t>> model;
  int64_t id = 0;
  for (int64_t a = 0; a < 1000; a += 2) {
    for (int64_t b = 0; b < 10; b += 3) {
      for (int64_t copy = 0; copy <= a % 3; ++copy, ++id) {
        int64_t key[] = {a, b};
        std::memcpy(table.insert(0, key), &id, sizeof id);
        model[{a, b}].push_back(id);
      }
    }
  }
  table.finalize();
  constexpr uint32_t kBatch = 2048;
  std::vector<int64_t> a(kBatch), b(kBatch);
  for (uint32_t r = 0; r < kBatch; ++r) {
    a[r] = static_cast<int64_t>(r % 1003);
    b[r] = static_cast<int64_t>(r % 11);
  }
  const int64_t* columns[] = {a.data(), b.data()};
  std::vector<uint32_t> sel(kBatch);
  for (uint32_t r = 0; r < kBatch; ++r) sel[r] = r;
  std::vector<ConciseCursor> cursors(kBatch);
  std::vector<std::vector<int64_t>> found(kBatch);
  uint32_t count = table.probe_batch(columns, sel.data(), kBatch, cursors.data(), sel.data());
  while (count > 0) {
    for (uint32_t i = 0; i < count; ++i) {
      int64_t row_id;
      std::memcpy(&row_id, table.row(cursors[sel[i]].position), sizeof row_id);
      found[sel[i]].push_back(row_id);
    }
    count = table.advance_batch(columns, sel.data(), count, cursors.data(), sel.data());
  }
  for (uint32_t r = 0; r < kBatch; ++r) {
    std::sort(found[r].begin(), found[r].end());
    auto it = model.find({a[r], b[r]});
    EXPECT_EQ(found[r], it == model.end() ? std::vector<int64_t>{} : it->second) << r;
  }
}

}  // namespace
}  // namespace floe
