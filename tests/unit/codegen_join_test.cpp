#include <gtest/gtest.h>

#include "tests/unit/codegen_expression_harness.h"
#include "tests/unit/codegen_pipeline_harness.h"

namespace floe::codegen::testing {
namespace {

struct JoinTables {
  Catalog catalog;
  Table* orders;
  Table* customers;
};

// orders(o_id NOT NULL, o_cust) probes customers(c_id, c_name NOT NULL): duplicate build
// keys, NULL keys on both sides, probe keys without a match.
void fill(JoinTables& t) {
  t.orders =
      &make_table(t.catalog, "orders",
                  {{"o_id", SqlType::integer(), false}, {"o_cust", SqlType::integer(), true}},
                  {{id(10), id(2)},
                   {id(11), id(2)},
                   {id(12), id(3)},
                   {id(13), id(4)},
                   {id(14), no_id()},
                   {id(15), id(1)}});
  t.customers =
      &make_table(t.catalog, "customers",
                  {{"c_id", SqlType::integer(), true}, {"c_name", SqlType::varchar(0), false}},
                  {{id(1), str("ann")},
                   {id(2), str("bob")},
                   {id(2), str("bob the second, long name")},
                   {id(3), str("cid")},
                   {no_id(), str("nobody")}});
}

TEST(CodegenJoinTest, InnerJoinWithDuplicatesAndNullKeys) {
  JoinTables t;
  fill(t);
  PlanBuilder builder;
  auto probe = builder.scan(*t.orders);
  auto build = builder.scan(*t.customers);
  auto o_id = probe->columns[0].id;
  auto o_cust = probe->columns[1].id;
  auto c_name = build->columns[1].id;
  auto join = std::make_unique<plan::JoinOp>();
  join->keys.push_back({builder.ref(o_cust), builder.ref(build->columns[0].id)});
  join->children.push_back(std::move(probe));
  join->children.push_back(std::move(build));
  builder.output(o_id);
  builder.output(c_name);
  EXPECT_EQ(run_sorted(builder.finish(std::move(join))),
            (std::vector<std::string>{"10|bob", "10|bob the second, long name", "11|bob",
                                      "11|bob the second, long name", "12|cid", "15|ann"}));
}

TEST(CodegenJoinTest, ResidualAndStringKeys) {
  JoinTables t;
  fill(t);
  PlanBuilder builder;
  auto probe = builder.scan(*t.customers);
  auto build = builder.scan(*t.customers);
  auto left_id = probe->columns[0].id;
  auto left_name = probe->columns[1].id;
  auto right_id = build->columns[0].id;
  auto right_name = build->columns[1].id;
  // Self join on (c_name, c_id) with residual c_id <> 2: every row but the bobs and NULL id.
  auto join = std::make_unique<plan::JoinOp>();
  join->keys.push_back({builder.ref(left_name), builder.ref(right_name)});
  join->keys.push_back({builder.ref(left_id), builder.ref(right_id)});
  join->residual =
      compare(plan::CompareOp::kNotEqual, builder.ref(right_id), constant(Value::integer(2)));
  join->children.push_back(std::move(probe));
  join->children.push_back(std::move(build));
  builder.output(left_name);
  builder.output(right_id);
  EXPECT_EQ(run_sorted(builder.finish(std::move(join))),
            (std::vector<std::string>{"ann|1", "cid|3"}));
}

TEST(CodegenJoinTest, EmptyBuildSide) {
  JoinTables t;
  fill(t);
  Table& empty = make_table(t.catalog, "empty", {{"e", SqlType::integer(), false}}, {});
  PlanBuilder builder;
  auto probe = builder.scan(*t.orders);
  auto build = builder.scan(empty);
  auto join = std::make_unique<plan::JoinOp>();
  join->keys.push_back({builder.ref(probe->columns[0].id), builder.ref(build->columns[0].id)});
  builder.output(probe->columns[0].id);
  join->children.push_back(std::move(probe));
  join->children.push_back(std::move(build));
  EXPECT_TRUE(run(builder.finish(std::move(join))).empty());
}

}  // namespace
}  // namespace floe::codegen::testing
