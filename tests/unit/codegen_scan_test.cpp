#include <gtest/gtest.h>

#include <algorithm>
#include <re2/re2.h>
#include <set>

#include "codegen/runtime_declarations.h"
#include "runtime/runtime_symbols.h"
#include "storage/error.h"
#include "tests/unit/codegen_expression_harness.h"
#include "tests/unit/codegen_pipeline_harness.h"

namespace floe::codegen::testing {
namespace {

constexpr int64_t kRows = 70'000;  // two chunks: 65536 + 4464

std::string text_of(int64_t i) {
  return i % 2 ? "s" + std::to_string(i) : "a longer string " + std::to_string(i);
}

// t(a integer NOT NULL, b bigint, s varchar, d numeric(12,2) NOT NULL, f boolean)
Table& wide_table(Catalog& catalog) {
  std::vector<std::vector<Value>> rows;
  for (int64_t i = 0; i < kRows; ++i) {
    rows.push_back({Value::integer(static_cast<int32_t>(i)),
                    i % 7 == 0 ? Value::null(SqlType::big_int()) : Value::big_int(i * 3),
                    i % 5 == 0 ? Value::null(SqlType::varchar(0))
                               : Value::string(text_of(i), SqlType::varchar(0)),
                    Value::decimal(i, 12, 2),
                    i % 3 == 0 ? Value::null(SqlType::boolean()) : Value::boolean(i % 2 == 0)});
  }
  return make_table(catalog, "t",
                    {{"a", SqlType::integer(), false},
                     {"b", SqlType::big_int(), true},
                     {"s", SqlType::varchar(0), true},
                     {"d", SqlType::decimal(12, 2), false},
                     {"f", SqlType::boolean(), true}},
                    rows);
}

std::string expected_row(int64_t i) {
  return std::to_string(i) + "|" + (i % 7 == 0 ? "NULL" : std::to_string(i * 3)) + "|" +
         (i % 5 == 0 ? "NULL" : text_of(i)) + "|" + Value::decimal(i, 12, 2).to_string() + "|" +
         (i % 3 == 0 ? "NULL" : (i % 2 == 0 ? "t" : "f"));
}

TEST(CodegenScanTest, ReadsEveryChunkWithNulls) {
  Catalog catalog;
  Table& table = wide_table(catalog);
  ASSERT_EQ(table.chunk_count(), 2u);
  PlanBuilder builder;
  auto scan = builder.scan(table);
  for (const auto& column : scan->columns) builder.output(column.id);
  auto rows = run(builder.finish(std::move(scan)));
  ASSERT_EQ(rows.size(), static_cast<size_t>(kRows));
  for (int64_t i = 0; i < kRows; ++i) ASSERT_EQ(rows[i], expected_row(i)) << "row " << i;
}

TEST(CodegenScanTest, PushedDownAndStreamingFilters) {
  Catalog catalog;
  Table& table = wide_table(catalog);
  PlanBuilder builder;
  auto scan = builder.scan(table);
  auto a = scan->columns[0].id;
  auto b = scan->columns[1].id;
  auto s = scan->columns[2].id;
  // Pushed down: b < 600 (NULL b rejected). Streaming: a % 2 = 0.
  scan->filters.push_back(
      compare(plan::CompareOp::kLess, builder.ref(b), constant(Value::big_int(600))));
  auto filter = std::make_unique<plan::FilterOp>();
  filter->predicate = compare(plan::CompareOp::kEqual,
                              arithmetic(plan::ArithmeticOp::kModulo, builder.ref(a),
                                         constant(Value::integer(2)), SqlType::integer()),
                              constant(Value::integer(0)));
  builder.output(a);
  builder.output(s);
  auto rows = run(builder.finish(over(std::move(filter), std::move(scan))));
  std::vector<std::string> expected;
  for (int64_t i = 0; i * 3 < 600; ++i) {
    if (i % 7 != 0 && i % 2 == 0) {
      expected.push_back(std::to_string(i) + "|" + (i % 5 == 0 ? "NULL" : text_of(i)));
    }
  }
  EXPECT_EQ(rows, expected);
}

TEST(CodegenScanTest, MapComputesColumns) {
  Catalog catalog;
  Table& table =
      make_table(catalog, "m", {{"x", SqlType::integer(), true}},
                 {{Value::integer(1)}, {Value::null(SqlType::integer())}, {Value::integer(5)}});
  PlanBuilder builder;
  auto scan = builder.scan(table);
  auto x = scan->columns[0].id;
  auto map = std::make_unique<plan::MapOp>();
  auto doubled = builder.add_column(SqlType::integer(), true, "doubled");
  map->computed.push_back({doubled, arithmetic(plan::ArithmeticOp::kMultiply, builder.ref(x),
                                               constant(Value::integer(2)), SqlType::integer())});
  builder.output(doubled);
  builder.output(x);
  EXPECT_EQ(run(builder.finish(over(std::move(map), std::move(scan)))),
            (std::vector<std::string>{"2|1", "NULL|NULL", "10|5"}));
}

TEST(CodegenScanTest, ValuesRows) {
  PlanBuilder builder;
  auto values = std::make_unique<plan::ValuesOp>();
  auto n = builder.add_column(SqlType::integer(), false, "n");
  auto s = builder.add_column(SqlType::text(), true, "s");
  values->columns = {n, s};
  auto row = [](int32_t number, Value text) {
    std::vector<plan::ExprPtr> exprs;
    exprs.push_back(constant(Value::integer(number)));
    exprs.push_back(constant(std::move(text)));
    return exprs;
  };
  values->rows.push_back(row(1, Value::string("x")));
  values->rows.push_back(row(2, Value::null(SqlType::text())));
  values->rows.push_back(row(3, Value::string("a string longer than twelve")));
  builder.output(s);
  builder.output(n);
  EXPECT_EQ(run(builder.finish(std::move(values))),
            (std::vector<std::string>{"x|1", "NULL|2", "a string longer than twelve|3"}));
}

TEST(CodegenScanTest, RuntimeErrorBecomesError) {
  Catalog catalog;
  Table& table = make_table(catalog, "z", {{"x", SqlType::integer(), false}},
                            {{Value::integer(4)}, {Value::integer(0)}});
  PlanBuilder builder;
  auto scan = builder.scan(table);
  auto x = scan->columns[0].id;
  auto map = std::make_unique<plan::MapOp>();
  auto quotient = builder.add_column(SqlType::integer(), false, "q");
  map->computed.push_back(
      {quotient, arithmetic(plan::ArithmeticOp::kDivide, constant(Value::integer(8)),
                            builder.ref(x), SqlType::integer())});
  builder.output(quotient);
  auto plan = builder.finish(over(std::move(map), std::move(scan)));
  for (auto level : {OptimizationLevel::kFast, OptimizationLevel::kOptimized}) {
    ExecutionOptions options;
    options.optimization = level;
    try {
      execute_compiled(plan, options);
      FAIL() << "expected an error";
    } catch (const Error& error) {
      EXPECT_STREQ(error.what(), "division by zero");
    }
  }
}

TEST(CodegenScanTest, GenerateIrHasOneFunctionPerPipeline) {
  Catalog catalog;
  Table& table =
      make_table(catalog, "g", {{"x", SqlType::integer(), false}}, {{Value::integer(1)}});
  PlanBuilder builder;
  auto scan = builder.scan(table);
  auto x = scan->columns[0].id;
  auto sort = std::make_unique<plan::SortOp>();
  sort->keys.push_back({builder.ref(x), true, false});
  builder.output(x);
  auto plan = builder.finish(over(std::move(sort), std::move(scan)));
  ASSERT_EQ(plan.pipelines.size(), 2u);
  std::string ir = generate_ir(plan, {});
  // RE2 rather than std::regex: GCC 12 warns falsely inside <regex> under the sanitizers.
  RE2 definition("define [^@]*@floe_pipeline_[0-9]+\\(");
  re2::StringPiece rest(ir);
  int count = 0;
  while (RE2::FindAndConsume(&rest, definition)) ++count;
  EXPECT_EQ(count, 2);
  EXPECT_NE(ir.find("@floe_sort_compare_0"), std::string::npos);
  EXPECT_NE(ir.find("floe_rt_scan_next"), std::string::npos);
}

TEST(CodegenScanTest, RuntimeDeclarationsMatchRuntimeSymbols) {
  std::set<std::string> bound;
  for (const auto& [name, address] : runtime_symbols()) bound.insert(name);
  auto declared_list = declared_runtime_functions();
  std::set<std::string> declared(declared_list.begin(), declared_list.end());
  EXPECT_EQ(declared, bound);
}

}  // namespace
}  // namespace floe::codegen::testing
