// The fast paths of prepared statements and planning (issue 10): statistics refreshed only
// after significant changes yet still steering plans, INSERT / UPDATE / DELETE compiled once
// through PreparedStatement (and again after DDL), and point lookups that run on the calling
// thread and reuse nothing that a later execution or an error could spoil.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/api/record_transaction.h"
#include "tests/unit/sql_test_helpers.h"

namespace floe {
namespace {

class ApiFastpathTest : public ::testing::Test {
 protected:
  std::string plan_text(const std::string& sql) {
    Result result = connection_.query("explain " + sql);
    std::string text;
    for (size_t r = 0; r < result.row_count(); ++r) text += result.value(r, 0).to_string() + "\n";
    return text;
  }
  static std::vector<std::string> rows(const Result& result) {
    return testing::result_lines(result);
  }
  using Rows = std::vector<std::string>;

  Database database_;
  Connection connection_{database_};
};

// Table::column_statistics keeps its statistics until 50 + 10% of the rows changed: a small
// insert leaves the estimate (and so the plan) as it was, a large load refreshes the
// statistics, and the join's build side follows the filtered side's new estimate.
TEST_F(ApiFastpathTest, StatisticsSteerPlansAfterLargeLoad) {
  connection_.query(
      "create table fastpath_a (x int, y int);"
      "insert into fastpath_a select g, g from generate_series(1, 1000) g;"
      "create table fastpath_b (x int, y int);"
      "insert into fastpath_b select g % 100, g from generate_series(1, 5000) g");
  const std::string join =
      "select count(*) from fastpath_a a join fastpath_b b on a.x = b.x where a.y > 900";
  EXPECT_NE(plan_text(join).find("Scan fastpath_a -> HashJoin build"), std::string::npos)
      << plan_text(join);
  EXPECT_NE(plan_text("select * from fastpath_a where y > 900").find("(est. rows 100)"),
            std::string::npos);
  // 100 rows (fewer than 50 + 10% of 1000) above the old maximum: the statistics stay.
  connection_.query("insert into fastpath_a select g, g from generate_series(2001, 2100) g");
  EXPECT_NE(plan_text("select * from fastpath_a where y > 900").find("(est. rows 110)"),
            std::string::npos)
      << plan_text("select * from fastpath_a where y > 900");
  // 10,000 more: refreshed. y > 900 now keeps most rows (about 10,000 against fastpath_b's
  // 5,000), so fastpath_b becomes the build side; the old statistics would have said 1,110.
  connection_.query("insert into fastpath_a select g, g from generate_series(1001, 11000) g");
  std::string plan = plan_text(join);
  EXPECT_NE(plan.find("Scan fastpath_b -> HashJoin build"), std::string::npos) << plan;
  EXPECT_EQ(connection_.query(join).value(0, 0).as_int64(),
            connection_
                .query("select count(*) from fastpath_a a, fastpath_b b where a.x = b.x "
                       "and a.y > 900")
                .value(0, 0)
                .as_int64());
}

// A prepared UPDATE, DELETE and INSERT ... SELECT compile their query at the first execution
// only; DDL prepares them again.
TEST_F(ApiFastpathTest, PreparedDmlCompilesOnce) {
  connection_.query(
      "create table fastpath_t (k int primary key, v bigint, s text);"
      "insert into fastpath_t select g, g * 10, 's' || g from generate_series(1, 100000) g;"
      "create table fastpath_copy (k int, s text)");
  PreparedStatement update =
      connection_.prepare("update fastpath_t set v = v + $1, s = $2 where k = $3 returning k, v");
  Result first = update.execute({Value::big_int(1), Value::string("one"), Value::integer(70000)});
  EXPECT_EQ(rows(first), (Rows{"70000|700001"}));
  EXPECT_GT(first.timings().compile_ms, 0);
  for (int32_t k = 1; k <= 50; ++k) {
    Result result = update.execute({Value::big_int(k), Value::string("x"), Value::integer(k)});
    EXPECT_EQ(result.timings().compile_ms, 0);
    EXPECT_EQ(result.timings().codegen_ms, 0);
    EXPECT_EQ(rows(result), (Rows{std::to_string(k) + "|" + std::to_string(k * 11)}));
  }
  EXPECT_EQ(rows(connection_.query("select v, s from fastpath_t where k = 70000")),
            (Rows{"700001|one"}));

  PreparedStatement remove = connection_.prepare("delete from fastpath_t where k = $1");
  EXPECT_EQ(remove.execute({Value::integer(99999)}).affected_rows(), 1u);
  Result again = remove.execute({Value::integer(99998)});
  EXPECT_EQ(again.affected_rows(), 1u);
  EXPECT_EQ(again.timings().compile_ms, 0);
  EXPECT_EQ(remove.execute({Value::integer(99999)}).affected_rows(), 0u);

  PreparedStatement copy = connection_.prepare(
      "insert into fastpath_copy select k, s from fastpath_t where k between $1 and $2");
  EXPECT_EQ(copy.execute({Value::integer(65530), Value::integer(65540)}).affected_rows(), 11u);
  Result copied = copy.execute({Value::integer(99990), Value::integer(100000)});
  EXPECT_EQ(copied.affected_rows(), 9u);  // 99998 and 99999 are gone
  EXPECT_EQ(copied.timings().compile_ms, 0);

  // DDL: prepared (and compiled) again, with the new column layout.
  connection_.query("alter table fastpath_t add column w int default 5");
  Result after = update.execute({Value::big_int(1), Value::string("y"), Value::integer(2)});
  EXPECT_GT(after.timings().compile_ms, 0);
  EXPECT_EQ(rows(after), (Rows{"2|23"}));
  EXPECT_EQ(rows(connection_.query("select k, v, s, w from fastpath_t where k = 2")),
            (Rows{"2|23|y|5"}));
}

// Every parameter type through PreparedStatement into UPDATE's SET and WHERE and INSERT's
// VALUES; an undeclared parameter takes its value's type (a new type compiles again).
TEST_F(ApiFastpathTest, PreparedDmlParametersOfEveryType) {
  connection_.query(
      "create table fastpath_types (k int primary key, sm smallint, bi bigint, d numeric(10,2), "
      "f double precision, b boolean, dt date, ts timestamp, s text, vc varchar(4))");
  PreparedStatement insert = connection_.prepare(
      "insert into fastpath_types values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)");
  insert.execute({Value::integer(1), Value::small_int(-7), Value::big_int(1LL << 40),
                  Value::decimal(12345, 10, 2), Value::double_value(0.25), Value::boolean(true),
                  Value::date(19000), Value::timestamp(1'700'000'000'000'000LL),
                  Value::string("text"), Value::string("vc")});
  insert.execute({Value::integer(2), Value(), Value(), Value(), Value(), Value(), Value(), Value(),
                  Value(), Value()});
  PreparedStatement update = connection_.prepare(
      "update fastpath_types set sm = $1, bi = $2, d = $3, f = $4, b = $5, dt = $6, ts = $7, "
      "s = $8, vc = $9 where k = $10 and (b = $5 or b is null or not b)");
  EXPECT_EQ(update
                .execute({Value::small_int(3), Value::big_int(-5), Value::decimal(-250, 10, 2),
                          Value::double_value(1.5), Value::boolean(false), Value::date(0),
                          Value::timestamp(0), Value::string("new"), Value::string("abcd"),
                          Value::integer(2)})
                .affected_rows(),
            1u);
  EXPECT_EQ(rows(connection_.query("select * from fastpath_types order by k")),
            (Rows{"1|-7|1099511627776|123.45|0.25|t|2022-01-08|2023-11-14 22:13:20|text|vc",
                  "2|3|-5|-2.50|1.5|f|1970-01-01|1970-01-01 00:00:00|new|abcd"}));
  PreparedStatement remove =
      connection_.prepare("delete from fastpath_types where dt = $1 and s = $2");
  EXPECT_EQ(remove.execute({Value::date(0), Value::string("other")}).affected_rows(), 0u);
  // The same parameter as an untyped literal now: bound and compiled again, same rows.
  Result removed =
      remove.execute({Value::string("1970-01-01", SqlType::unknown()), Value::string("new")});
  EXPECT_EQ(removed.affected_rows(), 1u);
  EXPECT_THROW(update.execute({Value::small_int(1), Value::big_int(1), Value::decimal(1, 10, 2),
                               Value::double_value(1), Value::boolean(true), Value::date(1),
                               Value::timestamp(1), Value::string("s"), Value::string("too long"),
                               Value::integer(1)}),
               Error);
  EXPECT_EQ(rows(connection_.query("select k, vc from fastpath_types")), (Rows{"1|vc"}));
}

// A prepared point lookup runs many times with results that stay valid after later runs,
// sees each statement's snapshot (its own transaction's changes, not a rolled-back one's),
// and works after runtime errors, on hot and frozen chunks.
TEST_F(ApiFastpathTest, LookupsReuseStateSafely) {
  connection_.query(
      "create table fastpath_kv (k bigint primary key, v int, s text);"
      "insert into fastpath_kv select g, g % 7, 'a longer string value ' || g from "
      "generate_series(1, 200000) g");
  PreparedStatement lookup = connection_.prepare("select s, 70 / v from fastpath_kv where k = $1");
  std::vector<Result> results;
  for (int64_t k = 1; k <= 20; ++k) {
    if (k % 7 == 0) {  // v = 0
      EXPECT_THROW(lookup.execute({Value::big_int(k)}), Error);
      continue;
    }
    results.push_back(lookup.execute({Value::big_int(k * 9000)}));
  }
  size_t index = 0;
  for (int64_t k = 1; k <= 20; ++k) {
    if (k % 7 == 0) continue;
    const Result& result = results[index++];
    ASSERT_EQ(result.row_count(), 1u);
    EXPECT_EQ(result.value(0, 0).as_string(), "a longer string value " + std::to_string(k * 9000));
    EXPECT_EQ(result.value(0, 1).as_int64(), 70 / ((k * 9000) % 7));
  }
  EXPECT_EQ(lookup.execute({Value::big_int(200001)}).row_count(), 0u);
  EXPECT_EQ(lookup.execute({Value()}).row_count(), 0u);

  connection_.query("begin");
  connection_.query("update fastpath_kv set s = 'mine' where k = 150000");
  EXPECT_EQ(lookup.execute({Value::big_int(150000)}).value(0, 0).as_string(), "mine");
  connection_.query("rollback");
  EXPECT_EQ(lookup.execute({Value::big_int(150000)}).value(0, 0).as_string(),
            "a longer string value 150000");

  connection_.query("vacuum freeze fastpath_kv");
  EXPECT_EQ(lookup.execute({Value::big_int(3)}).value(0, 0).as_string(), "a longer string value 3");
  connection_.query("set threads = 1");  // (a plan keeps its settings; the lookup still runs)
  EXPECT_EQ(lookup.execute({Value::big_int(65536)}).value(0, 1).as_int64(), 70 / (65536 % 7));
}

// A ROLLBACK invalidates prepared statements (Database::schema_version) only when DDL ran in
// the block: after rolling back row changes (SQL, an aborted block's COMMIT, the record path)
// they run on without being prepared again.
TEST_F(ApiFastpathTest, RollbackReprepareOnlyAfterDdl) {
  connection_.query(
      "create table fastpath_rb (k bigint primary key, v int);"
      "insert into fastpath_rb select g, g from generate_series(1, 100) g");
  PreparedStatement lookup = connection_.prepare("select v from fastpath_rb where k = $1");
  const uint64_t version = database_.schema_version();
  connection_.query("begin; update fastpath_rb set v = 0 where k = 5");
  EXPECT_EQ(lookup.execute({Value::big_int(5)}).value(0, 0).as_int64(), 0);
  connection_.query("rollback");
  EXPECT_EQ(database_.schema_version(), version);
  EXPECT_EQ(lookup.execute({Value::big_int(5)}).value(0, 0).as_int64(), 5);
  EXPECT_THROW(connection_.query("begin; update fastpath_rb set v = 0 where k = 6; select 1 / 0"),
               Error);
  EXPECT_THROW(connection_.query("select 1"), Error);  // the block is aborted
  connection_.query("commit");  // rolls the aborted block back
  EXPECT_EQ(database_.schema_version(), version);
  EXPECT_EQ(lookup.execute({Value::big_int(6)}).value(0, 0).as_int64(), 6);
  {
    TransactionScope tx = connection_.begin();
    tx.query("delete from fastpath_rb where k = 7");
    tx.rollback();
  }
  EXPECT_EQ(database_.schema_version(), version);
  EXPECT_EQ(lookup.execute({Value::big_int(7)}).value(0, 0).as_int64(), 7);

  // A block with DDL: its rollback invalidates the prepared statements, which then run
  // prepared again.
  connection_.query("begin; create table fastpath_rb2 (x int)");
  PreparedStatement count = connection_.prepare("select count(*) from fastpath_rb");
  EXPECT_EQ(count.execute({}).value(0, 0).as_int64(), 100);
  const uint64_t with_ddl = database_.schema_version();
  connection_.query("rollback");
  EXPECT_GT(database_.schema_version(), with_ddl);
  EXPECT_EQ(lookup.execute({Value::big_int(8)}).value(0, 0).as_int64(), 8);
  EXPECT_EQ(count.execute({}).value(0, 0).as_int64(), 100);
}

}  // namespace
}  // namespace floe
