#include <gtest/gtest.h>

#include <algorithm>

#include "tests/unit/codegen_expression_harness.h"
#include "tests/unit/codegen_pipeline_harness.h"

namespace floe::codegen::testing {
namespace {

using plan::AggregateFunction;

Value key(const char* text) {
  return Value::string(text, SqlType::varchar(0));
}
Value no_key() {
  return Value::null(SqlType::varchar(0));
}
Value x(int32_t value) {
  return Value::integer(value);
}
Value no_x() {
  return Value::null(SqlType::integer());
}
Value d(int64_t cents) {
  return Value::decimal(cents, 10, 2);
}

// g(k varchar, x integer, d numeric(10,2) NOT NULL)
Table& group_table(Catalog& catalog, bool with_rows = true) {
  std::vector<std::vector<Value>> rows;
  if (with_rows) {
    rows = {{key("a"), x(1), d(150)},  {key("a"), x(3), d(225)},   {key("b"), no_x(), d(10)},
            {no_key(), x(5), d(100)},  {no_key(), no_x(), d(200)}, {key("a"), no_x(), d(300)},
            {key("c"), x(-2), d(-100)}};
  }
  return make_table(catalog, "g",
                    {{"k", SqlType::varchar(0), true},
                     {"x", SqlType::integer(), true},
                     {"d", SqlType::decimal(10, 2), false}},
                    rows);
}

class AggregateBuilder {
 public:
  AggregateBuilder(PlanBuilder& builder, const Table& table) : builder_(builder) {
    scan_ = builder.scan(table);
    aggregate_ = std::make_unique<plan::AggregateOp>();
  }
  plan::ColumnId column(size_t index) const { return scan_->columns[index].id; }
  void group(size_t index) {
    auto id = builder_.add_column(scan_table_type(index), true, "group");
    aggregate_->groups.push_back({id, builder_.ref(column(index))});
    builder_.output(id);
  }
  void add(AggregateFunction function, std::optional<size_t> argument, SqlType result) {
    auto id = builder_.add_column(result, true, "agg");
    aggregate_->aggregates.push_back(
        {id, function, argument ? builder_.ref(column(*argument)) : nullptr, false});
    builder_.output(id);
  }
  plan::PhysicalPlan finish() {
    return builder_.finish(over(std::move(aggregate_), std::move(scan_)));
  }

 private:
  SqlType scan_table_type(size_t index) const { return scan_->table->columns()[index].type; }
  PlanBuilder& builder_;
  std::unique_ptr<plan::ScanOp> scan_;
  std::unique_ptr<plan::AggregateOp> aggregate_;
};

void add_all_aggregates(AggregateBuilder& aggregate) {
  aggregate.add(AggregateFunction::kCountStar, std::nullopt, SqlType::big_int());
  aggregate.add(AggregateFunction::kCount, 1, SqlType::big_int());
  aggregate.add(AggregateFunction::kSum, 1, SqlType::big_int());
  aggregate.add(AggregateFunction::kSum, 2, SqlType::decimal(38, 2));
  aggregate.add(AggregateFunction::kAvg, 1, SqlType::double_type());
  aggregate.add(AggregateFunction::kMin, 1, SqlType::integer());
  aggregate.add(AggregateFunction::kMax, 2, SqlType::decimal(10, 2));
  aggregate.add(AggregateFunction::kAvg, 2, SqlType::double_type());
  aggregate.add(AggregateFunction::kMax, 0, SqlType::varchar(0));
}

TEST(CodegenAggregationTest, GroupsWithNullKeysAndNullInputs) {
  Catalog catalog;
  Table& table = group_table(catalog);
  PlanBuilder builder;
  AggregateBuilder aggregate(builder, table);
  aggregate.group(0);
  add_all_aggregates(aggregate);
  EXPECT_EQ(run_sorted(aggregate.finish()),
            (std::vector<std::string>{
                "NULL|2|1|5|3.00|5|5|2.00|1.5|NULL", "a|3|2|4|6.75|2|1|3.00|2.25|a",
                "b|1|0|NULL|0.10|NULL|NULL|0.10|0.1|b", "c|1|1|-2|-1.00|-2|-2|-1.00|-1|c"}));
}

TEST(CodegenAggregationTest, GlobalAggregate) {
  Catalog catalog;
  Table& table = group_table(catalog);
  PlanBuilder builder;
  AggregateBuilder aggregate(builder, table);
  add_all_aggregates(aggregate);
  EXPECT_EQ(run(aggregate.finish()),
            (std::vector<std::string>{"7|4|7|8.85|1.75|-2|3.00|1.2642857142857142|c"}));
}

TEST(CodegenAggregationTest, GlobalAggregateOfEmptyInputIsOneRow) {
  Catalog catalog;
  Table& table = group_table(catalog, false);
  PlanBuilder builder;
  AggregateBuilder aggregate(builder, table);
  add_all_aggregates(aggregate);
  EXPECT_EQ(run(aggregate.finish()),
            (std::vector<std::string>{"0|0|NULL|NULL|NULL|NULL|NULL|NULL|NULL"}));
}

TEST(CodegenAggregationTest, GroupedAggregateOfEmptyInputIsEmpty) {
  Catalog catalog;
  Table& table = group_table(catalog, false);
  PlanBuilder builder;
  AggregateBuilder aggregate(builder, table);
  aggregate.group(0);
  aggregate.add(AggregateFunction::kCountStar, std::nullopt, SqlType::big_int());
  EXPECT_TRUE(run(aggregate.finish()).empty());
}

TEST(CodegenAggregationTest, ManyGroupsAcrossChunks) {
  Catalog catalog;
  std::vector<std::vector<Value>> rows;
  for (int32_t i = 0; i < 100'000; ++i) rows.push_back({Value::integer(i)});
  Table& table = make_table(catalog, "n", {{"i", SqlType::integer(), false}}, rows);
  PlanBuilder builder;
  auto scan = builder.scan(table);
  auto i = scan->columns[0].id;
  auto map = std::make_unique<plan::MapOp>();
  auto bucket = builder.add_column(SqlType::integer(), false, "bucket");
  map->computed.push_back({bucket, arithmetic(plan::ArithmeticOp::kModulo, builder.ref(i),
                                              constant(Value::integer(1000)), SqlType::integer())});
  auto aggregate = std::make_unique<plan::AggregateOp>();
  auto group = builder.add_column(SqlType::integer(), false, "bucket");
  auto count = builder.add_column(SqlType::big_int(), false, "count");
  auto sum = builder.add_column(SqlType::big_int(), true, "sum");
  aggregate->groups.push_back({group, builder.ref(bucket)});
  aggregate->aggregates.push_back({count, AggregateFunction::kCountStar, nullptr, false});
  aggregate->aggregates.push_back({sum, AggregateFunction::kSum, builder.ref(i), false});
  builder.output(group);
  builder.output(count);
  builder.output(sum);
  auto rows_out =
      run_sorted(builder.finish(over(std::move(aggregate), over(std::move(map), std::move(scan)))));
  std::vector<std::string> expected;
  for (int64_t k = 0; k < 1000; ++k) {
    expected.push_back(std::to_string(k) + "|100|" + std::to_string(100 * k + 4'950'000));
  }
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(rows_out, expected);
}

TEST(CodegenAggregationTest, BigintSumIsWide) {
  Catalog catalog;
  Table& table = make_table(catalog, "big", {{"v", SqlType::big_int(), false}},
                            {{Value::big_int(INT64_MAX)}, {Value::big_int(1)}});
  PlanBuilder builder;
  auto scan = builder.scan(table);
  auto v = scan->columns[0].id;
  auto aggregate = std::make_unique<plan::AggregateOp>();
  auto total = builder.add_column(SqlType::decimal(38, 0), true, "sum");
  aggregate->aggregates.push_back({total, AggregateFunction::kSum, builder.ref(v), false});
  builder.output(total);
  // bigint sums are numeric(38,0): no overflow at 2^63.
  EXPECT_EQ(run(builder.finish(over(std::move(aggregate), std::move(scan)))),
            (std::vector<std::string>{"9223372036854775808"}));
}

}  // namespace
}  // namespace floe::codegen::testing
