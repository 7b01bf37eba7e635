// ConciseJoinTable (runtime/concise_join_table.h): the CHT/CAT behind SET join_table in the
// compiled engine. The CAT-or-CHT decision at finalize, and lookups through either against a
// multimap model: duplicates, a skewed key, outliers, a NULL-as-0 row, the row scan.
#include "runtime/concise_join_table.h"

#include <random>

#include "tests/unit/join_table_test_support.h"

namespace floe {
namespace {

using join_table_test::BuildRow;
using join_table_test::load;
using join_table_test::Model;
using join_table_test::model_ids;
using join_table_test::model_of;

constexpr uint32_t kWorkers = 3;

// Builds the table from `rows` with kWorkers threads.
void build(ConciseJoinTable& table, const std::vector<BuildRow>& rows) {
  join_table_test::insert_in_parallel(kWorkers, rows.size(), [&](uint32_t w, size_t i) {
    join_table_test::store(
        table.insert(w, mix_hash(static_cast<uint64_t>(rows[i].key)), &rows[i].key), rows[i]);
  });
  table.finalize();
}

// The ids of the candidates of `key` whose stored key is `key` (the caller's comparison).
// Prefetched first as the vectorized probe does, so that every lookup of these tests (CAT keys
// in and out of range, CHT, empty tables) goes through prefetch() too.
std::vector<int64_t> matches(const ConciseJoinTable& table, int64_t key) {
  std::vector<int64_t> ids;
  const uint64_t hash = mix_hash(static_cast<uint64_t>(key));
  table.prefetch(hash, &key);
  ConciseCursor cursor;
  for (uint8_t* row = table.lookup(hash, &key, &cursor); row;
       row = table.next(hash, &key, &cursor)) {
    if (load(row).key == key) ids.push_back(load(row).id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

void expect_model(const ConciseJoinTable& table, const std::vector<BuildRow>& rows,
                  int64_t probe_min, int64_t probe_max) {
  Model model = model_of(rows);
  for (int64_t key = probe_min; key <= probe_max; ++key) {
    ASSERT_EQ(matches(table, key), model_ids(model, key)) << key;
    if (!model_ids(model, key).empty()) {
      EXPECT_TRUE(table.may_contain(mix_hash(static_cast<uint64_t>(key)), &key)) << key;
    }
  }
  // The row scan sees every row once.
  std::vector<int64_t> ids;
  for (uint32_t p = 0; p < table.size(); ++p) ids.push_back(load(table.row(p)).id);
  std::sort(ids.begin(), ids.end());
  ASSERT_EQ(ids.size(), rows.size());
  for (size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(ids[i], static_cast<int64_t>(i));
}

std::vector<BuildRow> rows_with(int64_t range, size_t count, uint32_t seed) {
  std::mt19937_64 random(seed);
  std::vector<BuildRow> rows;
  for (size_t i = 0; i < count; ++i) {
    int64_t key = i % 10 == 0 ? 17 : static_cast<int64_t>(random() % range);  // skew
    rows.push_back({key, static_cast<int64_t>(i)});
  }
  return rows;
}

TEST(ConciseJoinTableTest, DenseIntegerKeysBecomeACat) {
  ConciseJoinTable table(sizeof(join_table_test::Payload), kWorkers, 1);
  std::vector<BuildRow> rows = rows_with(5000, 20000, 1);
  rows.push_back({0, static_cast<int64_t>(rows.size())});          // a NULL key, stored as 0
  rows.push_back({INT64_MAX, static_cast<int64_t>(rows.size())});  // an outlier: overflow
  build(table, rows);
  EXPECT_EQ(table.kind(), JoinTableKind::kCat);
  expect_model(table, rows, -10, 5010);
  EXPECT_EQ(matches(table, INT64_MAX), std::vector<int64_t>{static_cast<int64_t>(rows.size() - 1)});
}

TEST(ConciseJoinTableTest, SparseIntegerKeysFallBackToCht) {
  ConciseJoinTable table(sizeof(join_table_test::Payload), kWorkers, 1);
  std::vector<BuildRow> rows = rows_with(5000, 20000, 2);
  for (auto& row : rows) row.key *= 1000003;
  build(table, rows);
  EXPECT_EQ(table.kind(), JoinTableKind::kCht);
  Model model = model_of(rows);
  for (int64_t key = 0; key < 5000; ++key)
    ASSERT_EQ(matches(table, key * 1000003), model_ids(model, key * 1000003)) << key;
}

TEST(ConciseJoinTableTest, WithoutKeyColumnsACht) {
  ConciseJoinTable table(sizeof(join_table_test::Payload), kWorkers, 0);
  std::vector<BuildRow> rows = rows_with(300, 5000, 3);
  build(table, rows);
  EXPECT_EQ(table.kind(), JoinTableKind::kCht);
  expect_model(table, rows, -5, 305);
}

TEST(ConciseJoinTableTest, EmptyBuildSide) {
  for (uint32_t keys : {0u, 1u}) {
    ConciseJoinTable table(sizeof(join_table_test::Payload), kWorkers, keys);
    build(table, {});
    EXPECT_EQ(table.size(), 0u);
    EXPECT_TRUE(matches(table, 1).empty());
  }
}

}  // namespace
}  // namespace floe
