#include <gtest/gtest.h>

#include <cmath>

#include "storage/decimal.h"
#include "storage/distinct_sketch.h"
#include "storage/table.h"
#include "storage/table_statistics.h"

namespace floe {
namespace {

std::vector<ColumnDef> columns() {
  return {{"id", SqlType::big_int(), false},
          {"price", SqlType::decimal(15, 2), true},
          {"name", SqlType::varchar(40), true},
          {"day", SqlType::date(), true}};
}

TEST(TableStatisticsTest, MinMaxNullsAndDistinctValues) {
  Table table("t", columns(), {{"t_pkey", {0}, true}});
  TableAppender appender(table);
  for (int i = 0; i < 1000; ++i) {
    appender.append_row({Value::big_int(i - 500),
                         Value::decimal(i % 7 == 0 ? 0 : 100 + i % 50, 15, 2),
                         i % 4 == 0 ? Value::null(SqlType::varchar(40))
                                    : Value::string("name " + std::to_string(i % 20)),
                         Value::date(10000 + i % 30)});
  }
  auto id = table.column_statistics(0);
  EXPECT_EQ(id->row_count, 1000u);
  EXPECT_EQ(id->null_count, 0u);
  EXPECT_EQ(id->min.as_int64(), -500);
  EXPECT_EQ(id->max.as_int64(), 499);
  EXPECT_NEAR(id->distinct_count, 1000, 30);

  auto price = table.column_statistics(1);
  EXPECT_EQ(price->min.type(), SqlType::decimal(15, 2));
  EXPECT_EQ(price->min.to_string(), "0.00");
  EXPECT_EQ(price->max.to_string(), "1.49");
  EXPECT_NEAR(price->distinct_count, 51, 2);  // 100..149 and 0

  auto name = table.column_statistics(2);
  EXPECT_EQ(name->null_count, 250u);
  EXPECT_EQ(name->min.as_string(), "name 1");  // i % 4 != 0: odd numbers and 2, 6, 10, ...
  EXPECT_EQ(name->max.as_string(), "name 9");
  EXPECT_NEAR(name->distinct_count, 15, 1);

  auto day = table.column_statistics(3);
  EXPECT_EQ(day->min.as_int64(), 10000);
  EXPECT_EQ(day->max.as_int64(), 10029);
  EXPECT_NEAR(day->distinct_count, 30, 1);
}

TEST(TableStatisticsTest, AllNullColumnHasNoMinMax) {
  Table table("t", columns(), {{"t_pkey", {0}, true}});
  TableAppender appender(table);
  for (int i = 0; i < 3; ++i)
    appender.append_row({Value::big_int(i), Value::null(SqlType::decimal(15, 2)),
                         Value::null(SqlType::varchar(40)), Value::null(SqlType::date())});
  auto price = table.column_statistics(1);
  EXPECT_EQ(price->null_count, 3u);
  EXPECT_TRUE(price->min.is_null());
  EXPECT_TRUE(price->max.is_null());
  EXPECT_EQ(price->distinct_count, 0);
}

TEST(TableStatisticsTest, HyperLogLogIsWithinAFewPercent) {
  Table table("t", {{"id", SqlType::integer(), false}, {"text", SqlType::text(), false}}, {});
  TableAppender appender(table);
  constexpr int kDistinct = 100000;
  for (int i = 0; i < 2 * kDistinct; ++i)  // every value twice, across chunks
    appender.append_row(
        {Value::integer(i % kDistinct),
         Value::string("a somewhat longer string number " + std::to_string(i % kDistinct))});
  EXPECT_NEAR(table.column_statistics(0)->distinct_count, kDistinct, 0.05 * kDistinct);
  EXPECT_NEAR(table.column_statistics(1)->distinct_count, kDistinct, 0.05 * kDistinct);
}

TEST(TableStatisticsTest, SmallRangeCorrectionCountsFewValuesExactly) {
  DistinctSketch sketch;
  EXPECT_EQ(sketch.estimate(), 0);
  for (int round = 0; round < 3; ++round)
    for (uint64_t i = 0; i < 50; ++i) sketch.add_hash(hash_integer(i));
  EXPECT_NEAR(sketch.estimate(), 50, 1);
}

TEST(TableStatisticsTest, CacheIsRefreshedWhenRowsChangeSignificantly) {
  Table table("t", columns(), {{"t_pkey", {0}, true}});
  TableAppender appender(table);
  auto row = [](int64_t id) {
    return std::vector<Value>{Value::big_int(id), Value::null(SqlType::decimal(15, 2)),
                              Value::null(SqlType::varchar(40)), Value::null(SqlType::date())};
  };
  for (int64_t id = 1; id <= 1000; ++id) appender.append_row(row(id));
  auto first = table.column_statistics(0);
  EXPECT_EQ(table.column_statistics(0), first);  // cached
  EXPECT_EQ(first->row_count, 1000u);
  // Up to 50 + 10% of 1000 changed rows keep the statistics (PostgreSQL's analyze rule).
  for (int64_t id = 1001; id < 1150; ++id) appender.append_row(row(id));
  EXPECT_EQ(table.column_statistics(0), first);
  uint64_t modifications = table.modification_count();
  appender.append_row(row(1150));
  EXPECT_GT(table.modification_count(), modifications);
  auto second = table.column_statistics(0);
  EXPECT_NE(second, first);
  EXPECT_EQ(second->row_count, 1150u);
  EXPECT_EQ(second->max.as_int64(), 1150);
  EXPECT_EQ(first->max.as_int64(), 1000);  // a plan holding the old statistics keeps them
  table.truncate(1);                       // takes rows back: refreshed at once
  EXPECT_EQ(table.column_statistics(0)->max.as_int64(), 1);
  appender.append_row(row(2));  // 1 of a 1-row table: within the 50 rows
  EXPECT_EQ(table.column_statistics(0)->max.as_int64(), 1);
  table.analyze();  // ANALYZE: exact
  EXPECT_EQ(table.column_statistics(0)->max.as_int64(), 2);
  table.remove_all_rows();
  EXPECT_EQ(table.column_statistics(0)->row_count, 0u);
}

TEST(TableStatisticsTest, AnalyzeComputesEveryColumnOnceUntilRowsChange) {
  Table table("t", columns(), {{"t_pkey", {0}, true}});
  TableAppender appender(table);
  appender.append_row(
      {Value::big_int(3), Value::decimal(250, 15, 2), Value::string("x"), Value::date(10000)});
  auto cached_id = table.column_statistics(0);
  table.analyze();
  EXPECT_EQ(table.column_statistics(0), cached_id);  // kept, not recomputed
  auto name = table.column_statistics(2);
  table.analyze();
  EXPECT_EQ(table.column_statistics(2), name);
  EXPECT_NEAR(name->distinct_count, 1, 0.01);
  EXPECT_EQ(table.column_statistics(3)->min.as_int64(), 10000);
  appender.append_row({Value::big_int(9), Value::null(SqlType::decimal(15, 2)), Value::string("y"),
                       Value::date(10001)});
  table.analyze();
  EXPECT_NE(table.column_statistics(2), name);
  EXPECT_EQ(table.column_statistics(0)->max.as_int64(), 9);
  EXPECT_EQ(table.column_statistics(1)->null_count, 1u);
}

}  // namespace
}  // namespace floe
