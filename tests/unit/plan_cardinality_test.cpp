#include "engine/plan/cardinality_estimator.h"
#include "tests/unit/sql_test_helpers.h"

namespace floe::testing {
namespace {

class PlanCardinalityTest : public SqlFixture {
 protected:
  void SetUp() override {
    SqlFixture::SetUp();
    // n: 1000 rows, k = 0..999, g = k % 10, s = 'a'.. or 'b'.. (100 values), x NULL when
    // k % 5 = 0. m: 10 rows, id = 0..9.
    connection_.query(
        "create table n (k integer, g integer, s text, x integer);"
        "create table m (id integer, name text)");
    std::string insert = "insert into n values ";
    for (int k = 0; k < 1000; ++k) {
      insert += (k ? "," : "") + std::string("(") + std::to_string(k) + "," +
                std::to_string(k % 10) + ",'" + (k % 2 ? "a" : "b") + std::to_string(k % 100) +
                "'," + (k % 5 ? std::to_string(k) : "null") + ")";
    }
    connection_.query(insert);
    connection_.query(
        "insert into m values (0,'a'),(1,'b'),(2,'c'),(3,'d'),(4,'e'),(5,'f'),(6,'g'),(7,'h'),"
        "(8,'i'),(9,'j')");
  }

  static const plan::LogicalOp* find(const plan::LogicalOp& op, plan::LogicalKind kind) {
    if (op.kind == kind) return &op;
    for (const auto& child : op.children)
      if (const plan::LogicalOp* found = find(*child, kind)) return found;
    return nullptr;
  }
  double rows_of(const std::string& sql, plan::LogicalKind kind = plan::LogicalKind::kScan) {
    plan::LogicalPlan plan = optimized(sql);
    const plan::LogicalOp* op = find(*plan.root, kind);
    EXPECT_NE(op, nullptr) << plan::to_string(plan);
    return op ? op->estimated_rows : -1;
  }
};

TEST_F(PlanCardinalityTest, ScansUseTableStatistics) {
  EXPECT_EQ(rows_of("select k from n"), 1000);
  EXPECT_NEAR(rows_of("select k from n where g = 3"), 100, 2);                 // 1/ndv
  EXPECT_NEAR(rows_of("select k from n where g <> 3"), 900, 2);                // 1 - 1/ndv
  EXPECT_NEAR(rows_of("select k from n where k < 250"), 250, 1);               // interpolation
  EXPECT_NEAR(rows_of("select k from n where 750 <= k"), 250, 1);              // either way round
  EXPECT_NEAR(rows_of("select k from n where k >= 100 and k < 300"), 200, 1);  // one interval
  EXPECT_NEAR(rows_of("select k from n where k < 2000"), 1000, 1);             // clamped
  EXPECT_NEAR(rows_of("select k from n where g = 1 or g = 2"), 190, 4);  // inclusion-exclusion
  EXPECT_NEAR(rows_of("select k from n where g in (1, 2, 3)"), 300, 6);  // k / ndv
  EXPECT_NEAR(rows_of("select k from n where not (g in (1, 2, 3))"), 700, 6);
  EXPECT_NEAR(rows_of("select k from n where s like 'a%'"), 50, 1e-9);   // prefix pattern
  EXPECT_NEAR(rows_of("select k from n where s like '%a'"), 100, 1e-9);  // general pattern
  EXPECT_NEAR(rows_of("select k from n where x is null"), 200, 1e-9);    // null count
  EXPECT_NEAR(rows_of("select k from n where x is not null"), 800, 1e-9);
  EXPECT_NEAR(rows_of("select k from n where g = 1 and x is null"), 20, 1);  // product
}

TEST_F(PlanCardinalityTest, OperatorsAboveScans) {
  using plan::LogicalKind;
  EXPECT_NEAR(rows_of("select g, count(*) from n group by g", LogicalKind::kAggregate), 10, 0.5);
  EXPECT_NEAR(rows_of("select g, k, count(*) from n group by g, k", LogicalKind::kAggregate), 1000,
              1e-9);  // capped by the input
  EXPECT_EQ(rows_of("select count(*) from n", LogicalKind::kAggregate), 1);
  EXPECT_EQ(rows_of("select k from n limit 5", LogicalKind::kLimit), 5);
  EXPECT_EQ(rows_of("select k from n order by k limit 7", LogicalKind::kSort), 7);
  EXPECT_NEAR(rows_of("select * from n join m on n.g = m.id", LogicalKind::kJoin), 1000, 10);
  // m keeps ids 0..4 of 0..9 (interpolated: 5/9 of 10 rows); n's 10 keys are capped by that.
  EXPECT_NEAR(rows_of("select * from n join m on n.g = m.id where m.id < 5", LogicalKind::kJoin),
              1000 * (50.0 / 9) / 10, 10);
  EXPECT_EQ(rows_of("select * from n, m", LogicalKind::kJoin), 10000);
}

TEST(CombinedDistinctTest, BacksOffExponentially) {
  EXPECT_DOUBLE_EQ(plan::combined_distinct({}), 1);
  EXPECT_DOUBLE_EQ(plan::combined_distinct({7}), 7);
  EXPECT_DOUBLE_EQ(plan::combined_distinct({100, 2000}), 2000 * 10);
  EXPECT_DOUBLE_EQ(plan::combined_distinct({16, 10000, 100}), 10000 * 10 * 2);
}

TEST_F(PlanCardinalityTest, SemiAntiAndOuterJoins) {
  plan::LogicalPlan plan = optimized("select * from n join m on n.g = m.id where m.id < 5");
  auto& join = const_cast<plan::JoinOp&>(
      static_cast<const plan::JoinOp&>(*find(*plan.root, plan::LogicalKind::kJoin)));
  ASSERT_EQ(static_cast<const plan::ScanOp&>(*join.children[0]).table->name(), "n");
  double inner = join.estimated_rows;
  auto estimate_as = [&](plan::JoinType type) {
    join.type = type;
    plan::CardinalityEstimator estimator;
    estimator.estimate(*plan.root);
    return join.estimated_rows;
  };
  EXPECT_DOUBLE_EQ(estimate_as(plan::JoinType::kSemi), inner);  // at most the probe side
  EXPECT_NEAR(estimate_as(plan::JoinType::kAnti), 1000 - inner, 1e-6);
  EXPECT_DOUBLE_EQ(estimate_as(plan::JoinType::kLeftOuter), 1000);  // the preserved side
  EXPECT_DOUBLE_EQ(estimate_as(plan::JoinType::kRightOuter), inner);
  // Every probe row matches: the anti join keeps its floor.
  plan::LogicalPlan all = optimized("select * from n join m on n.g = m.id");
  auto& full_join = const_cast<plan::LogicalOp&>(*find(*all.root, plan::LogicalKind::kJoin));
  static_cast<plan::JoinOp&>(full_join).type = plan::JoinType::kAnti;
  plan::CardinalityEstimator estimator;
  estimator.estimate(*all.root);
  double probe = full_join.children[0]->estimated_rows;
  EXPECT_DOUBLE_EQ(full_join.estimated_rows, probe * plan::CardinalityEstimator::kAntiJoinFloor);
}

// A join on a whole primary key is a foreign-key join: each row of the other side finds at
// most one partner, however correlated the key columns are.
TEST_F(PlanCardinalityTest, JoinsOnAPrimaryKeyFollowAForeignKey) {
  std::string sql =
      "create table pk (a integer, b integer, primary key (a, b));"
      "create table fk (a integer, b integer);"
      "insert into pk select k % 10, k / 10 from n where k < 100;"
      "insert into fk select k % 10, (k / 10) % 10 from n";
  connection_.query(sql);
  EXPECT_NEAR(
      rows_of("select 1 from fk, pk where fk.a = pk.a and fk.b = pk.b", plan::LogicalKind::kJoin),
      1000, 1);
  // Only part of the key: no such guarantee (100 partners per pk row on average).
  EXPECT_GT(rows_of("select 1 from fk, pk where fk.a = pk.a", plan::LogicalKind::kJoin), 5000);
}

TEST(JoinKeyDistinctTest, APrimaryKeySideIsUniqueAndCapsTheOtherSide) {
  Table table("t", {{"a", SqlType::integer(), false}, {"b", SqlType::integer(), false}},
              {{"t_pkey", {0, 1}, true}});
  plan::PrimaryKeyColumn a{&table, 1, 3, 800}, b{&table, 2, 3, 800};
  plan::JoinKeyDistinct distinct =
      plan::join_key_distinct({{200'000, 10'000}, {{}, {}}, 6e6}, {{200, 100}, {a, b}, 800});
  EXPECT_EQ(distinct.right, 800);  // unique: its rows
  EXPECT_EQ(distinct.left, 800);   // contained in the primary key's 800 values
  distinct =
      plan::join_key_distinct({{200'000, 10'000}, {{}, {}}, 6e6}, {{200, 100}, {a, {}}, 800});
  EXPECT_EQ(distinct.left, plan::combined_distinct({200'000, 10'000}));  // key not covered
}

TEST_F(PlanCardinalityTest, ExplainShowsEstimatedRows) {
  std::string text = plan::to_string(optimized("select k from n where k < 250"));
  EXPECT_NE(text.find("restrictions=[(k#0 < 250)] (est. rows 250)"), std::string::npos) << text;
}

}  // namespace
}  // namespace floe::testing
