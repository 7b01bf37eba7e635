// Left/right/full outer, (right) semi, (right) anti and null-aware anti hash joins over hand-built
// plans: duplicate build keys, NULL keys on both sides, residuals and empty inputs.
#include <gtest/gtest.h>

#include <functional>

#include "storage/error.h"
#include "tests/unit/codegen_expression_harness.h"
#include "tests/unit/codegen_pipeline_harness.h"

namespace floe::codegen::testing {
namespace {

using plan::JoinType;
using Rows = std::vector<std::string>;

// orders(o_id, o_cust) probes customers(c_id, c_name): customer 2 twice, NULL keys on both
// sides, order 13 without a customer.
class JoinTypesTest : public ::testing::Test {
 protected:
  JoinTypesTest() {
    orders_ =
        &make_table(catalog_, "orders",
                    {{"o_id", SqlType::integer(), true}, {"o_cust", SqlType::integer(), true}},
                    {{id(10), id(2)},
                     {id(11), id(2)},
                     {id(12), id(3)},
                     {id(13), id(4)},
                     {id(14), no_id()},
                     {id(15), id(1)}});
    customers_ =
        &make_table(catalog_, "customers",
                    {{"c_id", SqlType::integer(), true}, {"c_name", SqlType::varchar(0), true}},
                    {{id(1), str("ann")},
                     {id(2), str("bob")},
                     {id(2), str("bob the second, long name")},
                     {id(3), str("cid")},
                     {no_id(), str("nobody")}});
    no_null_customers_ =
        &make_table(catalog_, "no_null_customers",
                    {{"c_id", SqlType::integer(), true}, {"c_name", SqlType::varchar(0), true}},
                    {{id(1), str("ann")}, {id(2), str("bob")}});
    no_orders_ =
        &make_table(catalog_, "no_orders",
                    {{"o_id", SqlType::integer(), true}, {"o_cust", SqlType::integer(), true}}, {});
    empty_ = &make_table(
        catalog_, "empty",
        {{"c_id", SqlType::integer(), true}, {"c_name", SqlType::varchar(0), true}}, {});
  }

  using Residual = std::function<plan::ExprPtr(plan::ExprPtr c_name)>;

  // probe JOIN build ON o_cust = c_id [AND residual(c_name)], output o_id and c_name when the
  // join type outputs the probe / the build side.
  Rows join(JoinType type, const Table& build_table, Residual residual = nullptr,
            const Table* probe_table = nullptr) {
    PlanBuilder builder;
    auto probe = builder.scan(probe_table ? *probe_table : *orders_);
    auto build = builder.scan(build_table);
    auto o_id = probe->columns[0].id;
    auto c_name = build->columns[1].id;
    auto join = std::make_unique<plan::JoinOp>();
    join->type = type;
    join->keys.push_back({builder.ref(probe->columns[1].id), builder.ref(build->columns[0].id)});
    if (residual) join->residual = residual(builder.ref(c_name));
    join->children.push_back(std::move(probe));
    join->children.push_back(std::move(build));
    if (plan::join_outputs_probe(type)) builder.output(o_id);
    if (plan::join_outputs_build(type)) builder.output(c_name);
    return run_sorted(builder.finish(std::move(join)));
  }

  static plan::ExprPtr name_is(plan::CompareOp op, plan::ExprPtr c_name, const char* name) {
    return compare(op, std::move(c_name), constant(str(name)));
  }

  Catalog catalog_;
  Table* orders_;
  Table* customers_;
  Table* no_null_customers_;
  Table* no_orders_;
  Table* empty_;
};

TEST_F(JoinTypesTest, LeftOuterExtendsUnmatchedProbeRowsWithNulls) {
  EXPECT_EQ(join(JoinType::kLeftOuter, *customers_),
            (Rows{"10|bob", "10|bob the second, long name", "11|bob",
                  "11|bob the second, long name", "12|cid", "13|NULL", "14|NULL", "15|ann"}));
}

TEST_F(JoinTypesTest, LeftOuterCountsAMatchOnlyWhenTheResidualPasses) {
  auto not_ann_or_bob = [](plan::ExprPtr c_name) {
    auto not_ann = name_is(plan::CompareOp::kNotEqual, c_name->clone(), "ann");
    auto not_bob = name_is(plan::CompareOp::kNotEqual, std::move(c_name), "bob");
    return node(plan::ExprKind::kAnd, SqlType::boolean(),
                list(std::move(not_ann), std::move(not_bob)));
  };
  EXPECT_EQ(join(JoinType::kLeftOuter, *customers_, not_ann_or_bob),
            (Rows{"10|bob the second, long name", "11|bob the second, long name", "12|cid",
                  "13|NULL", "14|NULL", "15|NULL"}));
}

TEST_F(JoinTypesTest, LeftOuterWithEmptyBuildSide) {
  EXPECT_EQ(join(JoinType::kLeftOuter, *empty_),
            (Rows{"10|NULL", "11|NULL", "12|NULL", "13|NULL", "14|NULL", "15|NULL"}));
}

TEST_F(JoinTypesTest, RightOuterAddsUnmatchedBuildRowsWithNulls) {
  EXPECT_EQ(join(JoinType::kRightOuter, *customers_),
            (Rows{"10|bob", "10|bob the second, long name", "11|bob",
                  "11|bob the second, long name", "12|cid", "15|ann", "NULL|nobody"}));
  auto not_bob = [](plan::ExprPtr c_name) {
    return name_is(plan::CompareOp::kNotEqual, std::move(c_name), "bob");
  };
  EXPECT_EQ(join(JoinType::kRightOuter, *customers_, not_bob),
            (Rows{"10|bob the second, long name", "11|bob the second, long name", "12|cid",
                  "15|ann", "NULL|bob", "NULL|nobody"}));
  EXPECT_EQ(
      join(JoinType::kRightOuter, *customers_, nullptr, no_orders_),
      (Rows{"NULL|ann", "NULL|bob", "NULL|bob the second, long name", "NULL|cid", "NULL|nobody"}));
  EXPECT_TRUE(join(JoinType::kRightOuter, *empty_).empty());
}

TEST_F(JoinTypesTest, FullOuterAddsUnmatchedRowsOfBothSides) {
  auto not_bob = [](plan::ExprPtr c_name) {
    return name_is(plan::CompareOp::kNotEqual, std::move(c_name), "bob");
  };
  EXPECT_EQ(join(JoinType::kFullOuter, *customers_, not_bob),
            (Rows{"10|bob the second, long name", "11|bob the second, long name", "12|cid",
                  "13|NULL", "14|NULL", "15|ann", "NULL|bob", "NULL|nobody"}));
  EXPECT_EQ(join(JoinType::kFullOuter, *empty_),
            (Rows{"10|NULL", "11|NULL", "12|NULL", "13|NULL", "14|NULL", "15|NULL"}));
  EXPECT_EQ(join(JoinType::kFullOuter, *no_null_customers_, nullptr, no_orders_),
            (Rows{"NULL|ann", "NULL|bob"}));
}

TEST_F(JoinTypesTest, SemiEmitsEachMatchingProbeRowOnce) {
  EXPECT_EQ(join(JoinType::kSemi, *customers_), (Rows{"10", "11", "12", "15"}));
  auto is_bob = [](plan::ExprPtr c_name) {
    return name_is(plan::CompareOp::kEqual, std::move(c_name), "bob");
  };
  EXPECT_EQ(join(JoinType::kSemi, *customers_, is_bob), (Rows{"10", "11"}));
  EXPECT_TRUE(join(JoinType::kSemi, *empty_).empty());
}

TEST_F(JoinTypesTest, AntiEmitsProbeRowsWithoutMatch) {
  EXPECT_EQ(join(JoinType::kAnti, *customers_), (Rows{"13", "14"}));
  auto is_bob = [](plan::ExprPtr c_name) {
    return name_is(plan::CompareOp::kEqual, std::move(c_name), "bob");
  };
  EXPECT_EQ(join(JoinType::kAnti, *customers_, is_bob), (Rows{"12", "13", "14", "15"}));
  EXPECT_EQ(join(JoinType::kAnti, *empty_), (Rows{"10", "11", "12", "13", "14", "15"}));
}

TEST_F(JoinTypesTest, RightSemiEmitsEachMatchedBuildRowOnce) {
  EXPECT_EQ(join(JoinType::kRightSemi, *customers_),
            (Rows{"ann", "bob", "bob the second, long name", "cid"}));
  auto is_bob = [](plan::ExprPtr c_name) {
    return name_is(plan::CompareOp::kEqual, std::move(c_name), "bob");
  };
  EXPECT_EQ(join(JoinType::kRightSemi, *customers_, is_bob), (Rows{"bob"}));
  EXPECT_TRUE(join(JoinType::kRightSemi, *customers_, nullptr, no_orders_).empty());
}

TEST_F(JoinTypesTest, RightAntiEmitsBuildRowsWithoutMatch) {
  EXPECT_EQ(join(JoinType::kRightAnti, *customers_), (Rows{"nobody"}));
  auto is_bob = [](plan::ExprPtr c_name) {
    return name_is(plan::CompareOp::kEqual, std::move(c_name), "bob");
  };
  EXPECT_EQ(join(JoinType::kRightAnti, *customers_, is_bob),
            (Rows{"ann", "bob the second, long name", "cid", "nobody"}));
  EXPECT_EQ(join(JoinType::kRightAnti, *customers_, nullptr, no_orders_),
            (Rows{"ann", "bob", "bob the second, long name", "cid", "nobody"}));
}

TEST_F(JoinTypesTest, NullAwareAntiFollowsNotInSemantics) {
  // A NULL among the build keys: x NOT IN (..., NULL) is never true.
  EXPECT_TRUE(join(JoinType::kNullAwareAnti, *customers_).empty());
  // A NULL probe key is unknown against a non-empty build side.
  EXPECT_EQ(join(JoinType::kNullAwareAnti, *no_null_customers_), (Rows{"12", "13"}));
  // x NOT IN (empty) is true, even for x NULL.
  EXPECT_EQ(join(JoinType::kNullAwareAnti, *empty_), (Rows{"10", "11", "12", "13", "14", "15"}));
}

TEST_F(JoinTypesTest, NullAwareAntiRejectsResiduals) {
  auto is_bob = [](plan::ExprPtr c_name) {
    return name_is(plan::CompareOp::kEqual, std::move(c_name), "bob");
  };
  EXPECT_THROW(join(JoinType::kNullAwareAnti, *customers_, is_bob), NotSupported);
}

TEST_F(JoinTypesTest, LeftOuterRejectsNotNullBuildColumns) {
  Table& strict =
      make_table(catalog_, "strict",
                 {{"c_id", SqlType::integer(), false}, {"c_name", SqlType::varchar(0), false}},
                 {{id(1), str("ann")}});
  EXPECT_THROW(join(JoinType::kLeftOuter, strict), Error);
}

}  // namespace
}  // namespace floe::codegen::testing
