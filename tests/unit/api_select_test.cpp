#include "tests/unit/sql_test_helpers.h"

namespace floe::testing {
namespace {

class ApiSelectTest : public SqlFixture {
 protected:
  void SetUp() override {
    SqlFixture::SetUp();
    connection_.query(
        "insert into t values (1, 1.50, 0.10, '1998-01-01', 10, 'a'), (2, 2.25, 0.20, "
        "'1998-06-01', 20, 'b'),"
        " (3, null, 0.30, '1999-01-01', 30, 'a'), (4, 4.00, 0.40, null, null, null)");
    connection_.query("insert into big values (1,1,1),(2,1,2),(3,2,3),(4,2,4),(5,3,5),(6,3,6)");
    connection_.query("insert into small values (1,1),(2,1),(3,2)");
    connection_.query("insert into tiny values (1,'x'),(2,'y')");
  }

  // Rows as "v1|v2" strings in result order.
  std::vector<std::string> rows(const std::string& sql) {
    return result_lines(connection_.query(sql));
  }
  using Rows = std::vector<std::string>;
};

TEST_F(ApiSelectTest, FiltersProjectsAndSorts) {
  EXPECT_EQ(rows("select a, b * (1 - c) from t where d < date '1998-12-01' order by a"),
            (Rows{"1|1.3500", "2|1.8000"}));
  EXPECT_EQ(rows("select s, a from t order by s desc, a limit 2 offset 1"), (Rows{"b|2", "a|1"}));
  EXPECT_EQ(rows("select 1 + 1 as two, 'x'"), (Rows{"2|x"}));
  Result result = connection_.query("select a as k from t where a = 1");
  EXPECT_EQ(result.column_name(0), "k");
  EXPECT_EQ(result.command_tag(), "SELECT 1");
}

// Aggregates and grouping() are named after the function, as in PostgreSQL.
TEST_F(ApiSelectTest, NamesAggregateColumnsAfterTheFunction) {
  Result result = connection_.query(
      "select s, every(a > 0), grouping(s), string_agg(s, ',') from t group by rollup (s)");
  EXPECT_EQ(result.column_name(1), "every");
  EXPECT_EQ(result.column_name(2), "grouping");
  EXPECT_EQ(result.column_name(3), "string_agg");
}

// SELECT FROM t is a query result with rows but no columns, as in PostgreSQL.
TEST_F(ApiSelectTest, ResultWithoutColumns) {
  Result result = connection_.query("select from t");
  EXPECT_TRUE(result.has_rows());
  EXPECT_EQ(result.column_count(), 0u);
  EXPECT_EQ(result.row_count(), 4u);
  EXPECT_EQ(result.command_tag(), "SELECT 4");
  result = connection_.query("select from t where a > 10");
  EXPECT_TRUE(result.has_rows());
  EXPECT_EQ(result.row_count(), 0u);
  EXPECT_FALSE(connection_.query("create table z (a integer)").has_rows());
}

TEST_F(ApiSelectTest, GroupsAndAggregates) {
  EXPECT_EQ(rows("select s, count(*), sum(b), avg(e) from t group by s order by s nulls first"),
            (Rows{"NULL|1|4.00|NULL", "a|2|1.50|20", "b|1|2.25|20"}));
  EXPECT_EQ(rows("select count(distinct e), sum(distinct e), avg(distinct e) from t"),
            (Rows{"3|60|20"}));
  EXPECT_EQ(rows("select count(s), max(d), min(b) from t"), (Rows{"3|1999-01-01|1.50"}));
  EXPECT_EQ(rows("select s_id, count(distinct x) from big group by s_id order by 1"),
            (Rows{"1|2", "2|2", "3|2"}));
  EXPECT_EQ(rows("select s from t group by s having count(*) > 1"), (Rows{"a"}));
  EXPECT_EQ(rows("select distinct s from t where s is not null order by s"), (Rows{"a", "b"}));
}

TEST_F(ApiSelectTest, JoinsAndSubqueries) {
  EXPECT_EQ(rows("select big.id, tiny.name from big join small on big.s_id = small.id, tiny"
                 " where small.r_id = tiny.id and big.x > 2 order by big.id"),
            (Rows{"3|x", "4|x", "5|y", "6|y"}));
  EXPECT_EQ(rows("select a from t where e = (select max(e) from t)"), (Rows{"3"}));
  EXPECT_EQ(rows("select (select id from big where id > 10)"), (Rows{"NULL"}));
  EXPECT_EQ(
      rows("select k, n from (select s as k, count(*) as n from t group by s) as g where n > 1"),
      (Rows{"a|2"}));
  EXPECT_EQ(rows("select g.y from (select a from t) as g (y) where g.y < 2"), (Rows{"1"}));
  EXPECT_EQ(error_of("select (select id from big)"),
            "more than one row returned by a subquery used as an expression@7");
}

TEST_F(ApiSelectTest, InsertSelectCopyAndExplain) {
  EXPECT_EQ(connection_.query("insert into small select id, x from big where x > 4").command_tag(),
            "INSERT 0 2");
  EXPECT_EQ(rows("select count(*) from small"), (Rows{"5"}));
  std::string path = ::testing::TempDir() + "/api_select_test.csv";
  EXPECT_EQ(
      connection_.query("copy (select id, name from tiny) to '" + path + "' with (format csv)")
          .command_tag(),
      "COPY 2");
  connection_.query("create table tiny2 (id integer, name char(5))");
  EXPECT_EQ(connection_.query("copy tiny2 from '" + path + "' (format csv)").command_tag(),
            "COPY 2");
  EXPECT_EQ(rows("select name from tiny2 order by id"), (Rows{"x", "y"}));
  Result plan = connection_.query("explain select count(*) from big");
  EXPECT_EQ(plan.column_name(0), "QUERY PLAN");
  EXPECT_GT(plan.row_count(), 1u);
  Result ir = connection_.query("explain (ir) select id from big");
  std::string text;
  for (size_t r = 0; r < ir.row_count(); ++r) text += ir.value(r, 0).to_string() + "\n";
  EXPECT_NE(text.find("floe_pipeline_"), std::string::npos);
}

}  // namespace
}  // namespace floe::testing
