// A table's unique indexes: kept on append, taken back by truncate, valid across freezing,
// built in bulk after a deferred load; NULL keys never collide.
#include <gtest/gtest.h>

#include "storage/art_key.h"
#include "storage/error.h"
#include "storage/table.h"

namespace floe {
namespace {

std::vector<ColumnDef> columns() {
  return {{"id", SqlType::big_int(), false},
          {"name", SqlType::varchar(40), true},
          {"group", SqlType::integer(), true}};
}

std::vector<KeyConstraint> keys() {
  return {{"t_name_key", {1}, false}, {"t_pkey", {0}, true}};
}

std::vector<Value> row(int64_t id, std::optional<std::string> name, int32_t group = 0) {
  return {Value::big_int(id), name ? Value::string(*name) : Value::null(SqlType::varchar(40)),
          Value::integer(group)};
}

std::optional<uint64_t> find_id(const Table& table, int64_t id) {
  return table.primary_index()->find(table.primary_index()->key_of({Value::big_int(id)}));
}

std::string violation(Table& table, const std::vector<Value>& values) {
  try {
    TableAppender(table).append_row(values);
  } catch (const Error& error) {
    return error.what();
  }
  return "no error";
}

TEST(UniqueIndexTest, PrimaryKeyComesFirstAndChecksEveryAppend) {
  Table table("t", columns(), keys());
  ASSERT_EQ(table.unique_indexes().size(), 2u);
  EXPECT_EQ(table.primary_key(), std::vector<size_t>{0});
  EXPECT_EQ(table.unique_indexes()[1]->constraint().name, "t_name_key");
  TableAppender appender(table);
  const int64_t rows = kChunkCapacity + 100;
  for (int64_t i = 0; i < rows; ++i) appender.append_row(row(i * 3, "n" + std::to_string(i)));
  EXPECT_EQ(table.primary_index()->size(), static_cast<size_t>(rows));
  std::optional<uint64_t> found = find_id(table, (kChunkCapacity + 5) * 3);
  ASSERT_TRUE(found);
  EXPECT_EQ(*found, uint64_t{1} << kChunkShift | 5);
  EXPECT_FALSE(find_id(table, 1));

  EXPECT_EQ(violation(table, row(6, "new")),
            "duplicate key value violates unique constraint \"t_pkey\"\n"
            "DETAIL:  Key (id)=(6) already exists.");
  // The second index fails after the first took the row: the first gives it back.
  EXPECT_EQ(violation(table, row(1, "n7")),
            "duplicate key value violates unique constraint \"t_name_key\"\n"
            "DETAIL:  Key (name)=(n7) already exists.");
  EXPECT_EQ(table.row_count(), static_cast<uint64_t>(rows));
  EXPECT_EQ(table.chunk(1).size(), 100u);
  EXPECT_FALSE(find_id(table, 1));
  appender.append_row(row(1, "new"));
  EXPECT_TRUE(find_id(table, 1));
}

// NULL keys are indexed (a prefix lookup must find them) but never collide: NULLs are distinct.
TEST(UniqueIndexTest, NullKeysAreIndexedButNeverCollide) {
  Table table("t", columns(), keys());
  TableAppender appender(table);
  appender.append_row(row(1, std::nullopt));
  appender.append_row(row(2, std::nullopt));
  EXPECT_EQ(table.unique_indexes()[1]->size(), 2u);
  EXPECT_EQ(table.row_count(), 2u);
  table.truncate(1);
  EXPECT_EQ(table.unique_indexes()[1]->size(), 1u);
}

TEST(UniqueIndexTest, TruncateErasesTheEntriesOfItsRows) {
  Table table("t", columns(), keys());
  TableAppender appender(table);
  for (int64_t i = 0; i < 70000; ++i) appender.append_row(row(i, std::to_string(i)));
  table.truncate(10);
  EXPECT_EQ(table.primary_index()->size(), 10u);
  EXPECT_EQ(table.unique_indexes()[1]->size(), 10u);
  EXPECT_TRUE(find_id(table, 9));
  EXPECT_FALSE(find_id(table, 10));
  for (int64_t i = 10; i < 70000; ++i) appender.append_row(row(i, std::to_string(i)));
  EXPECT_EQ(table.primary_index()->size(), 70000u);
}

TEST(UniqueIndexTest, FrozenRowsKeepTheirEntries) {
  Table table("t", columns(), keys());
  TableAppender appender(table);
  for (int64_t i = 0; i < 1000; ++i) appender.append_row(row(i, std::to_string(i), 1000 - i));
  table.freeze_all();
  ASSERT_TRUE(table.chunk(0).frozen());
  EXPECT_EQ(find_id(table, 17), 17u);
  EXPECT_NE(violation(table, row(17, "x")).find("Key (id)=(17)"), std::string::npos);
  // Sorting on `group` reverses the rows: the indexes follow them.
  appender.append_row(row(5000, "5000", -1));
  table.freeze_all(2);
  std::optional<uint64_t> found = find_id(table, 17);
  ASSERT_TRUE(found);
  EXPECT_EQ(table.value_at(*found, 0).as_int64(), 17);
  EXPECT_EQ(table.value_at(*find_id(table, 5000), 0).as_int64(), 5000);
  EXPECT_NE(violation(table, row(2000, "999")).find("Key (name)=(999)"), std::string::npos);
}

TEST(UniqueIndexTest, DeferredAppendsAreIndexedInBulk) {
  Table table("t", columns(), keys());
  {
    TableAppender appender(table, IndexMaintenance::kDeferred);
    for (int64_t i = 0; i < 150000; ++i) appender.append_row(row(i, std::to_string(i)));
  }
  table.freeze_full_chunks();
  EXPECT_EQ(table.primary_index()->size(), 0u);
  table.build_indexes();
  EXPECT_EQ(table.primary_index()->size(), 150000u);
  EXPECT_EQ(table.unique_indexes()[1]->size(), 150000u);
  EXPECT_EQ(find_id(table, 140000), uint64_t{2} << kChunkShift | (140000 - 2 * kChunkCapacity));
  EXPECT_NE(violation(table, row(140000, "x")).find("t_pkey"), std::string::npos);
}

TEST(UniqueIndexTest, BulkBuildReportsADuplicateAndLeavesTheIndexesEmpty) {
  Table table("t", columns(), keys());
  TableAppender appender(table, IndexMaintenance::kDeferred);
  for (int64_t i = 0; i < 1000; ++i)
    appender.append_row(row(i, i == 900 ? "3" : std::to_string(i)));
  try {
    table.build_indexes();
    FAIL() << "no violation";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "duplicate key value violates unique constraint \"t_name_key\"\n"
                 "DETAIL:  Key (name)=(3) already exists.");
  }
  EXPECT_EQ(table.primary_index()->size(), 0u);
  EXPECT_EQ(table.unique_indexes()[1]->size(), 0u);
  table.truncate(0);
  EXPECT_EQ(table.row_count(), 0u);
}

}  // namespace
}  // namespace floe
