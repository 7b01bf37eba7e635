#include "engine/plan/expression.h"
#include "tests/unit/sql_test_helpers.h"

namespace floe::testing {
namespace {

class SqlOptimizerTest : public SqlFixture {
 protected:
  void SetUp() override {
    SqlFixture::SetUp();
    // Table statistics drive the join order: big 6 rows, small 3, tiny 2.
    connection_.query("insert into big values (1,1,1),(2,1,2),(3,2,3),(4,2,4),(5,3,5),(6,3,6)");
    connection_.query("insert into small values (1,1),(2,1),(3,2)");
    connection_.query("insert into tiny values (1,'a'),(2,'b')");
  }
};

TEST_F(SqlOptimizerTest, FoldsDateMinusIntervalIntoADateComparison) {
  std::string text = plan::to_string(
      optimized("select a from t where d <= date '1998-12-01' - interval '90' day"));
  EXPECT_NE(text.find("restrictions=[(d#3 <= date '1998-09-02')]"), std::string::npos) << text;
  EXPECT_EQ(text.find("timestamp"), std::string::npos) << text;
}

TEST_F(SqlOptimizerTest, ScanTestsStringRestrictionsAfterFixedWidthOnes) {
  std::string text =
      plan::to_string(optimized("select a from t where s in ('x', 'y') and a between 1 and 5"));
  EXPECT_NE(text.find("restrictions=[((a#0 >= 1) AND (a#0 <= 5)), (s#"), std::string::npos) << text;
}

TEST_F(SqlOptimizerTest, FoldsArithmeticAndBooleanConstants) {
  std::string text =
      plan::to_string(optimized("select a * (2 + 3), 1 = 1 from t where true and a > 10 - 4"));
  EXPECT_NE(text.find("(a#0 * 5)"), std::string::npos) << text;
  EXPECT_NE(text.find(":= t]"), std::string::npos) << text;
  EXPECT_NE(text.find("restrictions=[(a#0 > 6)]"), std::string::npos) << text;
  // Errors are left to run time rather than raised while planning.
  EXPECT_NE(plan::to_string(optimized("select 1 / 0")).find("(1 / 0)"), std::string::npos);
}

TEST_F(SqlOptimizerTest, EvaluatesConstantsWithPostgresSemantics) {
  plan::LogicalPlan plan = optimized(
      "select 7 / 2, -7 % 3, 1.5 * 2.25, date '2000-01-31' + interval '1' month, 2.5::integer,"
      " null::integer + 1, 'ab' || 'c', extract(year from date '1998-12-01')");
  const auto& map = static_cast<const plan::MapOp&>(*plan.root);
  std::vector<std::string> values;
  for (const auto& computed : map.computed) {
    ASSERT_EQ(computed.expr->kind, plan::ExprKind::kConstant) << computed.expr->to_string();
    values.push_back(computed.expr->constant.to_string());
  }
  EXPECT_EQ(values, (std::vector<std::string>{"3", "-1", "3.375", "2000-02-29 00:00:00", "3",
                                              "NULL", "abc", "1998"}));
}

TEST_F(SqlOptimizerTest, PushesPredicatesAndOrdersJoinsByCost) {
  plan::LogicalPlan plan = optimized(
      "select big.x, tiny.name from big, small, tiny"
      " where big.s_id = small.id and small.r_id = tiny.id and big.x > 2 and tiny.name = 'a'"
      " and big.x + tiny.id > small.id");
  std::string text = plan::to_string(plan);
  // Residual predicate over three tables sits above the last join.
  const plan::LogicalOp* op = plan.root.get();
  ASSERT_EQ(op->kind, plan::LogicalKind::kFilter) << text;
  const auto& top = static_cast<const plan::JoinOp&>(*op->children[0]);
  ASSERT_EQ(top.kind, plan::LogicalKind::kJoin) << text;
  ASSERT_EQ(top.keys.size(), 1u) << text;
  // Estimates: big 4.8 rows (x > 2 of 1..6), small 3, tiny 1 (name = 'a' of 2 values).
  // small ⋈ tiny (1.5 rows) first, then big: C_out 1.5 + 1 beats (big ⋈ small) ⋈ tiny.
  const auto& big = static_cast<const plan::ScanOp&>(*top.children[0]);
  ASSERT_EQ(big.kind, plan::LogicalKind::kScan) << text;
  EXPECT_EQ(big.table->name(), "big");
  ASSERT_EQ(big.restrictions.size(), 1u);  // x > 2
  EXPECT_NEAR(big.estimated_rows, 4.8, 1e-9);
  EXPECT_EQ(top.keys[0].probe->to_string(&plan.registry), "s_id#1");
  EXPECT_EQ(top.keys[0].build->to_string(&plan.registry), "id#3");
  // Column pruning: big.id is never used.
  EXPECT_EQ(big.columns.size(), 2u);
  const auto& lower = static_cast<const plan::JoinOp&>(*top.children[1]);
  ASSERT_EQ(lower.kind, plan::LogicalKind::kJoin) << text;
  EXPECT_NEAR(lower.estimated_rows, 1.5, 0.01);
  ASSERT_EQ(lower.keys.size(), 1u);
  // tiny (1 row) builds, small (3 rows) probes.
  const auto& small = static_cast<const plan::ScanOp&>(*lower.children[0]);
  const auto& tiny = static_cast<const plan::ScanOp&>(*lower.children[1]);
  EXPECT_EQ(small.table->name(), "small");
  EXPECT_EQ(tiny.table->name(), "tiny");
  ASSERT_EQ(tiny.restrictions.size(), 1u);
  EXPECT_EQ(tiny.restrictions[0].predicate->to_string(&plan.registry), "(name#6 = 'a')");
  EXPECT_EQ(lower.keys[0].probe->to_string(&plan.registry), "r_id#4");
  EXPECT_EQ(lower.keys[0].build->to_string(&plan.registry), "id#5");
  EXPECT_NE(text.find("HashJoin [r_id#4 = id#5] (est. rows "), std::string::npos) << text;
}

TEST_F(SqlOptimizerTest, JoinsConnectedTablesBeforeCrossProducts) {
  plan::LogicalPlan plan = optimized(
      "select 1 from big, tiny, small where big.s_id = small.id and small.r_id = tiny.id");
  std::string text = plan::to_string(plan);
  EXPECT_EQ(text.find("HashJoin []"), std::string::npos) << text;
}

TEST_F(SqlOptimizerTest, FactorsJoinKeysOutOfDisjunctions) {
  std::string text =
      plan::to_string(optimized("select 1 from big, small where (big.s_id = small.id and big.x = "
                                "1) or (small.id = big.s_id and small.r_id = 2)"
                                " or (big.s_id = small.id and small.r_id = 3)"));
  EXPECT_EQ(text.find("HashJoin []"), std::string::npos) << text;
}

TEST_F(SqlOptimizerTest, DerivesSingleTableFiltersFromDisjunctions) {
  std::string text = plan::to_string(optimized(
      "select 1 from big, small where big.s_id = small.id and "
      "((big.x = 1 and small.r_id = 2) or (big.x = 3 and small.r_id = 4 and big.id > 0))"));
  // Each table is filtered by what every disjunct says about it; the disjunction stays.
  EXPECT_NE(text.find("Scan big [id#0, s_id#1, x#2] filters=[((x#2 = 1) OR ((x#2 = 3) AND (id#0 > "
                      "0)))]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("filters=[((r_id#4 = 2) OR (r_id#4 = 4))]"), std::string::npos) << text;
  EXPECT_NE(text.find("Filter (((x#2 = 1) AND (r_id#4 = 2))"), std::string::npos) << text;
}

TEST_F(SqlOptimizerTest, RewritesDistinctAggregatesIntoTwoAggregations) {
  plan::LogicalPlan plan = optimized("select s_id, count(distinct x) from big group by s_id");
  const auto& upper = static_cast<const plan::AggregateOp&>(*plan.root);
  ASSERT_EQ(upper.kind, plan::LogicalKind::kAggregate);
  EXPECT_FALSE(upper.aggregates[0].distinct);
  const auto& lower = static_cast<const plan::AggregateOp&>(*upper.children[0]);
  ASSERT_EQ(lower.kind, plan::LogicalKind::kAggregate);
  EXPECT_EQ(lower.groups.size(), 2u);
  EXPECT_TRUE(lower.aggregates.empty());
}

TEST_F(SqlOptimizerTest, TagsTheInputForSeveralDistinctArguments) {
  plan::LogicalPlan plan = optimized("select count(distinct x), count(distinct id) from big");
  const auto& upper = static_cast<const plan::AggregateOp&>(*plan.root);
  ASSERT_EQ(upper.kind, plan::LogicalKind::kAggregate);
  ASSERT_EQ(upper.aggregates.size(), 2u);
  EXPECT_FALSE(upper.aggregates[0].distinct);
  const auto& lower = static_cast<const plan::AggregateOp&>(*upper.children[0]);
  ASSERT_EQ(lower.kind, plan::LogicalKind::kAggregate);
  EXPECT_EQ(lower.groups.size(), 3u);  // the tag and one column per DISTINCT argument
  // The input meets the tags 1 and 2 (no plain aggregates: no tag 0).
  std::string text = plan::to_string(plan);
  EXPECT_NE(text.find("Values rows=2"), std::string::npos) << text;
  EXPECT_NE(text.find("CASE"), std::string::npos) << text;
}

TEST_F(SqlOptimizerTest, SplitsMixedDistinctAndPlainAggregatesIntoPartials) {
  plan::LogicalPlan plan = optimized(
      "select s_id, count(*), count(distinct x), sum(id), avg(id), min(id) from big group by s_id");
  std::string text = plan::to_string(plan);
  // A map finishes count (coalesce to 0) and avg (sum / count) over the upper aggregation.
  const auto& finish = static_cast<const plan::MapOp&>(*plan.root);
  ASSERT_EQ(finish.kind, plan::LogicalKind::kMap) << text;
  ASSERT_EQ(finish.computed.size(), 2u) << text;
  EXPECT_EQ(finish.computed[0].expr->kind, plan::ExprKind::kCoalesce) << text;
  EXPECT_EQ(plan.registry[finish.computed[0].id].type, SqlType::big_int());
  EXPECT_EQ(finish.computed[1].expr->kind, plan::ExprKind::kArithmetic) << text;
  EXPECT_EQ(plan.registry[finish.computed[1].id].type, SqlType::double_type());
  // Upper: sum of count(*) partials, count(x), sum of sums, sum and count for avg, min of mins.
  const auto& upper = static_cast<const plan::AggregateOp&>(*finish.children[0]);
  ASSERT_EQ(upper.kind, plan::LogicalKind::kAggregate) << text;
  EXPECT_EQ(upper.groups.size(), 1u);
  std::vector<plan::AggregateFunction> upper_functions;
  for (const auto& call : upper.aggregates) {
    EXPECT_FALSE(call.distinct);
    upper_functions.push_back(call.function);
  }
  using F = plan::AggregateFunction;
  EXPECT_EQ(upper_functions,
            (std::vector<F>{F::kSum, F::kCount, F::kSum, F::kSum, F::kSum, F::kMin}))
      << text;
  // Lower: groups (s_id, x) with the partial aggregates.
  const auto& lower = static_cast<const plan::AggregateOp&>(*upper.children[0]);
  ASSERT_EQ(lower.kind, plan::LogicalKind::kAggregate) << text;
  EXPECT_EQ(lower.groups.size(), 2u);
  std::vector<F> lower_functions;
  for (const auto& call : lower.aggregates) lower_functions.push_back(call.function);
  EXPECT_EQ(lower_functions, (std::vector<F>{F::kCountStar, F::kSum, F::kSum, F::kCount, F::kMin}))
      << text;
}

}  // namespace
}  // namespace floe::testing
