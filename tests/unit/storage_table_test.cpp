#include <gtest/gtest.h>

#include "storage/catalog.h"
#include "storage/error.h"

namespace floe {
namespace {

std::vector<ColumnDef> two_columns() {
  return {{"id", SqlType::big_int(), false}, {"name", SqlType::varchar(40), true}};
}

TEST(TableTest, AppendsAcrossChunks) {
  Table table("t", two_columns(), {{"t_pkey", {0}, true}});
  TableAppender appender(table);
  const uint64_t rows = kChunkCapacity + 1000;
  for (uint64_t i = 0; i < rows; ++i) {
    std::string name = i % 3 ? "name number " + std::to_string(i) + " is long" : "";
    appender.append_row({Value::big_int(static_cast<int64_t>(i)),
                         i % 3 ? Value::string(name) : Value::null(SqlType::varchar(40))});
  }
  ASSERT_EQ(table.row_count(), rows);
  ASSERT_EQ(table.chunk_count(), 2u);
  EXPECT_EQ(table.chunk(0).size(), kChunkCapacity);
  EXPECT_EQ(table.chunk(1).size(), 1000u);
  const HotChunk& first = *table.chunk(0).hot();
  const HotChunk& second = *table.chunk(1).hot();
  EXPECT_EQ(first.validity(0), nullptr);  // NOT NULL: no bitmap
  ASSERT_NE(first.validity(1), nullptr);
  const auto* ids = reinterpret_cast<const int64_t*>(second.data(0));
  EXPECT_EQ(ids[5], static_cast<int64_t>(kChunkCapacity + 5));
  EXPECT_FALSE(first.is_valid(1, 3));
  EXPECT_TRUE(first.is_valid(1, 4));
  const auto* names = reinterpret_cast<const StringRef*>(second.data(1));
  EXPECT_EQ(names[1].view(), "name number " + std::to_string(kChunkCapacity + 1) + " is long");
}

TEST(TableTest, TruncateTakesBackRows) {
  Table table("t", two_columns(), {{"t_pkey", {0}, true}});
  TableAppender appender(table);
  for (int i = 0; i < 70000; ++i) appender.append_row({Value::big_int(i), Value::string("x")});
  table.truncate(10);
  EXPECT_EQ(table.row_count(), 10u);
  EXPECT_EQ(table.chunk_count(), 1u);
  EXPECT_EQ(table.chunk(0).size(), 10u);
  appender.append_row({Value::big_int(99), Value::null(SqlType::varchar(40))});
  EXPECT_EQ(table.row_count(), 11u);
  EXPECT_FALSE(table.chunk(0).hot()->is_valid(1, 10));
}

TEST(TableTest, RejectsNullInNotNullColumnWithoutPartialRow) {
  Table table("t", two_columns(), {{"t_pkey", {0}, true}});
  TableAppender appender(table);
  appender.append_row({Value::big_int(1), Value::string("a")});
  EXPECT_THROW(appender.append_row({Value::null(SqlType::big_int()), Value::string("b")}), Error);
  EXPECT_EQ(table.row_count(), 1u);
  EXPECT_EQ(table.chunk(0).size(), 1u);
}

TEST(CatalogTest, CreatesFindsAndDropsTables) {
  Catalog catalog;
  catalog.create_table("b", two_columns(), {});
  catalog.create_table("a", two_columns(), {});
  EXPECT_THROW(catalog.create_table("a", two_columns(), {}), Error);
  ASSERT_NE(catalog.find_table("a"), nullptr);
  EXPECT_EQ(catalog.find_table("a")->find_column("name"), 1u);
  EXPECT_FALSE(catalog.find_table("a")->find_column("nope").has_value());
  EXPECT_EQ(catalog.table_names(), (std::vector<std::string>{"a", "b"}));
  catalog.drop_table("a");
  EXPECT_EQ(catalog.find_table("a"), nullptr);
  EXPECT_THROW(catalog.drop_table("a"), Error);
}

}  // namespace
}  // namespace floe
