#include "tests/unit/sql_test_helpers.h"

namespace floe::testing {
namespace {

using SqlBinderTest = SqlFixture;

TEST_F(SqlBinderTest, ReportsNameErrorsWithPositions) {
  EXPECT_EQ(error_of("select x from t"), "column \"x\" does not exist@7");
  EXPECT_EQ(error_of("select a from nope"), "relation \"nope\" does not exist@14");
  EXPECT_EQ(error_of("select id from big, small"), "column reference \"id\" is ambiguous@7");
  EXPECT_EQ(error_of("select q.a from t"), "missing FROM-clause entry for table \"q\"@7");
  EXPECT_EQ(error_of("select 1; select x from t"), "column \"x\" does not exist@17");
  EXPECT_EQ(error_of("selec 1"), "syntax error at or near \"selec\"@0");
}

TEST_F(SqlBinderTest, ReportsTypeAndClauseErrors) {
  EXPECT_EQ(error_of("select d * 2 from t"), "operator does not exist: date * integer@9");
  EXPECT_EQ(error_of("select a from t where a = d"), "operator does not exist: integer = date@24");
  EXPECT_EQ(error_of("select a from t where sum(a) > 1"),
            "aggregate functions are not allowed in WHERE@22");
  EXPECT_EQ(
      error_of("select a, count(*) from t"),
      "column \"a\" must appear in the GROUP BY clause or be used in an aggregate function@7");
  EXPECT_EQ(error_of("select a from t where a"),
            "argument of WHERE must be type boolean, not type integer@22");
  EXPECT_EQ(error_of("select d from t where d < 'x'"),
            "invalid input syntax for type date: \"x\"@26");
  EXPECT_EQ(error_of("select sum(s) from t"), "function sum(character varying) does not exist@7");
}

TEST_F(SqlBinderTest, RejectsUnsupportedConstructsByName) {
  EXPECT_EQ(error_of("select s from t where s similar to 'a'"), "not supported: SIMILAR TO@24");
  EXPECT_EQ(error_of("select a from t where s like all (select s from t)"),
            "not supported: ALL (subquery) with operator ~~@24");
  EXPECT_EQ(error_of("select * from unnest(1)"), "not supported: the function unnest in FROM@14");
}

TEST_F(SqlBinderTest, TypesArithmeticLikePostgres) {
  EXPECT_EQ(output_type("select a + 1 from t"), SqlType::integer());
  EXPECT_EQ(output_type("select a + e from t"), SqlType::big_int());
  EXPECT_EQ(output_type("select 5000000000"), SqlType::big_int());
  EXPECT_EQ(output_type("select 0.06"), SqlType::decimal(3, 2));
  EXPECT_EQ(output_type("select b + c from t"), SqlType::decimal(16, 2));
  EXPECT_EQ(output_type("select b * (1 - c) from t"), SqlType::decimal(31, 4));
  EXPECT_EQ(output_type("select b / 2 from t"), SqlType::double_type());
  EXPECT_EQ(output_type("select a / 2 from t"), SqlType::integer());
  EXPECT_EQ(output_type("select a + 1.5 from t"), SqlType::decimal(12, 1));
  EXPECT_EQ(output_type("select 'x' from t"), SqlType::text());
  EXPECT_EQ(output_type("select s || 'x' from t"), SqlType::text());
}

TEST_F(SqlBinderTest, TypesDatesAndAggregates) {
  EXPECT_EQ(output_type("select d - 1 from t"), SqlType::date());
  EXPECT_EQ(output_type("select d - d from t"), SqlType::integer());
  EXPECT_EQ(output_type("select d + interval '3' month from t"), SqlType::timestamp());
  EXPECT_EQ(output_type("select extract(year from d) from t"), SqlType::decimal(7, 0));
  EXPECT_EQ(output_type("select date_part('year', d) from t"), SqlType::double_type());
  EXPECT_EQ(output_type("select substring(s from 1 for 2) from t"), SqlType::text());
  EXPECT_EQ(output_type("select count(*) from t"), SqlType::big_int());
  EXPECT_EQ(output_type("select sum(a) from t"), SqlType::big_int());
  EXPECT_EQ(output_type("select sum(e) from t"), SqlType::decimal(38, 0));
  EXPECT_EQ(output_type("select sum(b) from t"), SqlType::decimal(38, 2));
  EXPECT_EQ(output_type("select avg(b) from t"), SqlType::double_type());
  EXPECT_EQ(output_type("select max(s) from t"), SqlType::varchar(10));
  EXPECT_EQ(output_type("select case when a > 1 then a else 1.5 end from t"),
            SqlType::decimal(11, 1));
  EXPECT_EQ(output_type("select coalesce(a, e) from t"), SqlType::big_int());
}

TEST_F(SqlBinderTest, LiteralsTakeTheTypeOfTheirContext) {
  std::string text = plan::to_string(bind("select a from t where d < '1998-01-01' and s = 'ab'"));
  EXPECT_NE(text.find("(d#3 < date '1998-01-01')"), std::string::npos) << text;
  EXPECT_NE(text.find("(s#5 = 'ab')"), std::string::npos) << text;
  text = plan::to_string(
      bind("select a from t where a in (1, 2) and d between '1995-01-01' and '1995-12-31'"));
  EXPECT_NE(text.find("(a#0 IN (1, 2))"), std::string::npos) << text;
  EXPECT_NE(text.find("(d#3 >= date '1995-01-01')"), std::string::npos) << text;
}

TEST_F(SqlBinderTest, ResolvesGroupByAndOrderByNames) {
  plan::LogicalPlan plan =
      bind("select a % 3 as k, count(*) as n from t group by k order by 2 desc, k");
  ASSERT_EQ(plan.outputs.size(), 2u);
  EXPECT_EQ(plan.outputs[0].name, "k");
  EXPECT_EQ(plan.outputs[1].name, "n");
  std::string text = plan::to_string(plan);
  EXPECT_NE(text.find("Sort [count#7 DESC NULLS FIRST, ?column?#6 ASC NULLS LAST]"),
            std::string::npos)
      << text;
  EXPECT_NO_THROW(bind("select a + 1, count(*) from t group by 1"));
  EXPECT_NO_THROW(bind("select a + 1 from t group by a + 1 having count(*) > 1"));
  EXPECT_EQ(bind("select t.*, big.x from t, big").outputs.size(), 7u);
}

}  // namespace
}  // namespace floe::testing
