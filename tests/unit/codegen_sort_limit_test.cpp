#include <gtest/gtest.h>

#include "tests/unit/codegen_expression_harness.h"
#include "tests/unit/codegen_pipeline_harness.h"

namespace floe::codegen::testing {
namespace {

// s(a integer NOT NULL, b integer): a = 0..9
Table& sort_table(Catalog& catalog) {
  const std::vector<std::optional<int32_t>> b = {5, std::nullopt, 3, 5, std::nullopt, 1, 9, 3, 0,
                                                 7};
  std::vector<std::vector<Value>> rows;
  for (int32_t a = 0; a < 10; ++a) {
    rows.push_back(
        {Value::integer(a), b[a] ? Value::integer(*b[a]) : Value::null(SqlType::integer())});
  }
  return make_table(catalog, "s",
                    {{"a", SqlType::integer(), false}, {"b", SqlType::integer(), true}}, rows);
}

struct SortCase {
  std::unique_ptr<plan::ScanOp> scan;
  std::unique_ptr<plan::SortOp> sort = std::make_unique<plan::SortOp>();
  plan::ColumnId a;
  plan::ColumnId b;
};

SortCase sort_case(PlanBuilder& builder, const Table& table) {
  SortCase c;
  c.scan = builder.scan(table);
  c.a = c.scan->columns[0].id;
  c.b = c.scan->columns[1].id;
  builder.output(c.a);
  builder.output(c.b);
  return c;
}

TEST(CodegenSortTest, DescendingNullsFirstWithOffsetAndLimit) {
  Catalog catalog;
  Table& table = sort_table(catalog);
  PlanBuilder builder;
  auto c = sort_case(builder, table);
  c.sort->keys.push_back({builder.ref(c.b), true, true});
  c.sort->keys.push_back({builder.ref(c.a), false, false});
  c.sort->offset = 2;
  c.sort->limit = 5;
  EXPECT_EQ(run(builder.finish(over(std::move(c.sort), std::move(c.scan)))),
            (std::vector<std::string>{"6|9", "9|7", "0|5", "3|5", "2|3"}));
}

TEST(CodegenSortTest, AscendingNullsLastThenDescending) {
  Catalog catalog;
  Table& table = sort_table(catalog);
  PlanBuilder builder;
  auto c = sort_case(builder, table);
  c.sort->keys.push_back({builder.ref(c.b), false, false});
  c.sort->keys.push_back({builder.ref(c.a), true, true});
  EXPECT_EQ(run(builder.finish(over(std::move(c.sort), std::move(c.scan)))),
            (std::vector<std::string>{"8|0", "5|1", "7|3", "2|3", "3|5", "0|5", "9|7", "6|9",
                                      "4|NULL", "1|NULL"}));
}

TEST(CodegenSortTest, ComputedKeyIsStable) {
  Catalog catalog;
  Table& table = sort_table(catalog);
  PlanBuilder builder;
  auto c = sort_case(builder, table);
  c.sort->keys.push_back({negate(builder.ref(c.b)), false, true});
  EXPECT_EQ(run(builder.finish(over(std::move(c.sort), std::move(c.scan)))),
            (std::vector<std::string>{"1|NULL", "4|NULL", "6|9", "9|7", "0|5", "3|5", "2|3", "7|3",
                                      "5|1", "8|0"}));
}

TEST(CodegenLimitTest, StreamingLimitAndOffset) {
  Catalog catalog;
  Table& table = sort_table(catalog);
  PlanBuilder builder;
  auto c = sort_case(builder, table);
  auto limit = std::make_unique<plan::LimitOp>();
  limit->limit = 3;
  limit->offset = 2;
  EXPECT_EQ(run(builder.finish(over(std::move(limit), std::move(c.scan)))),
            (std::vector<std::string>{"2|3", "3|5", "4|NULL"}));
}

TEST(CodegenLimitTest, LimitZeroAndOffsetOnly) {
  Catalog catalog;
  Table& table = sort_table(catalog);
  {
    PlanBuilder builder;
    auto c = sort_case(builder, table);
    auto limit = std::make_unique<plan::LimitOp>();
    limit->limit = 0;
    EXPECT_TRUE(run(builder.finish(over(std::move(limit), std::move(c.scan)))).empty());
  }
  PlanBuilder builder;
  auto c = sort_case(builder, table);
  auto limit = std::make_unique<plan::LimitOp>();
  limit->offset = 8;
  EXPECT_EQ(run(builder.finish(over(std::move(limit), std::move(c.scan)))),
            (std::vector<std::string>{"8|0", "9|7"}));
}

TEST(CodegenLimitTest, LimitAcrossChunksAndAfterSort) {
  Catalog catalog;
  std::vector<std::vector<Value>> rows;
  for (int32_t i = 0; i < 140'000; ++i) rows.push_back({Value::integer(i)});
  Table& table = make_table(catalog, "n", {{"i", SqlType::integer(), false}}, rows);
  {
    PlanBuilder builder;
    auto scan = builder.scan(table);
    builder.output(scan->columns[0].id);
    auto limit = std::make_unique<plan::LimitOp>();
    limit->limit = 3;
    limit->offset = 65'535;
    EXPECT_EQ(run(builder.finish(over(std::move(limit), std::move(scan)))),
              (std::vector<std::string>{"65535", "65536", "65537"}));
  }
  PlanBuilder builder;
  auto scan = builder.scan(table);
  auto i = scan->columns[0].id;
  builder.output(i);
  auto sort = std::make_unique<plan::SortOp>();
  sort->keys.push_back({builder.ref(i), true, true});
  auto limit = std::make_unique<plan::LimitOp>();
  limit->limit = 2;
  EXPECT_EQ(run(builder.finish(over(std::move(limit), over(std::move(sort), std::move(scan))))),
            (std::vector<std::string>{"139999", "139998"}));
}

}  // namespace
}  // namespace floe::codegen::testing
