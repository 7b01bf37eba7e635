#include "tests/unit/sql_test_helpers.h"

namespace floe::testing {
namespace {

using ApiStatementsTest = SqlFixture;

TEST_F(ApiStatementsTest, CreatesTablesWithPostgresTypes) {
  Result result = connection_.query(
      "create table types (b boolean, s smallint, i int4, g int8, n numeric, m decimal(20,4), r "
      "real,"
      " f double precision, d date, ts timestamp, iv interval, c char, c5 character(5), v "
      "varchar(7),"
      " t text not null, primary key (i, g))");
  EXPECT_EQ(result.command_tag(), "CREATE TABLE");
  const Table* table = database_.catalog().find_table("types");
  ASSERT_NE(table, nullptr);
  std::vector<std::string> types;
  for (const ColumnDef& column : table->columns()) types.push_back(column.type.to_string());
  EXPECT_EQ(types, (std::vector<std::string>{
                       "boolean", "smallint", "integer", "bigint", "numeric(18,3)", "numeric(20,4)",
                       "double precision", "double precision", "date", "timestamp", "interval",
                       "character(1)", "character(5)", "character varying(7)", "text"}));
  EXPECT_EQ(table->primary_key(), (std::vector<size_t>{2, 3}));
  EXPECT_FALSE(table->columns()[2].nullable);
  EXPECT_FALSE(table->columns()[14].nullable);
  EXPECT_TRUE(table->columns()[0].nullable);
}

TEST_F(ApiStatementsTest, CreateAndDropErrors) {
  EXPECT_EQ(error_of("create table t (x integer)"), "relation \"t\" already exists@13");
  EXPECT_NO_THROW(connection_.query("create table if not exists t (x integer)"));
  EXPECT_EQ(error_of("create table u (x money)"), "not supported: type money@18");
  EXPECT_EQ(error_of("create table u (x integer, x integer)"),
            "column \"x\" specified more than once@27");
  EXPECT_EQ(error_of("drop table nope"), "table \"nope\" does not exist@-1");
  EXPECT_EQ(connection_.query("drop table if exists nope, tiny").command_tag(), "DROP TABLE");
  EXPECT_EQ(database_.catalog().find_table("tiny"), nullptr);
}

TEST_F(ApiStatementsTest, InsertsValuesWithAssignmentCasts) {
  Result result = connection_.query(
      "insert into t values (1, 2.345, 7, '2020-02-29', 5, 'abc'), (2, null, -1.5, null, null, "
      "null)");
  EXPECT_EQ(result.command_tag(), "INSERT 0 2");
  EXPECT_EQ(result.affected_rows(), 2u);
  const Table& table = *database_.catalog().find_table("t");
  ASSERT_EQ(table.row_count(), 2u);
  EXPECT_EQ(table.value_at(0, 1).to_string(), "2.35");
  EXPECT_EQ(connection_.query("insert into t (s, a) values ('x', 3)").command_tag(), "INSERT 0 1");
}

TEST_F(ApiStatementsTest, FailedInsertLeavesTheTableUnchanged) {
  connection_.query("insert into t (a) values (1)");
  EXPECT_EQ(error_of("insert into t (a, b) values (2, 1), (null, 2)"),
            "null value in column \"a\" of relation \"t\" violates not-null constraint\n"
            "DETAIL:  Failing row contains (null, 2.00, null, null, null, null).@-1");
  EXPECT_EQ(error_of("insert into t (a, s) values (3, 'much too long')"),
            "value too long for type character varying(10)@32");
  EXPECT_EQ(error_of("insert into t (a) values (1, 2)"),
            "INSERT has more expressions than target columns@29");
  EXPECT_EQ(error_of("insert into t (q) values (1)"),
            "column \"q\" of relation \"t\" does not exist@15");
  EXPECT_EQ(error_of("insert into t (a) values ('x')"),
            "invalid input syntax for type integer: \"x\"@26");
  EXPECT_EQ(error_of("insert into t (a, d) values (4, 'x'::text)"),
            "column \"d\" is of type date but expression is of type text@32");
  EXPECT_EQ(database_.catalog().find_table("t")->row_count(), 1u);
}

// SHOW threads tells how many threads queries run on: a request beyond the cores is capped
// (SET says so in a notice), unless the API asks for oversubscription.
TEST_F(ApiStatementsTest, ShowThreadsIsTheCountInUse) {
  uint32_t cores = default_thread_count();
  std::string requested = std::to_string(cores + 2);
  Result set = connection_.query("set threads = " + requested);
  EXPECT_EQ(connection_.options().threads, cores + 2);
  ASSERT_EQ(set.notices().size(), 1u);
  EXPECT_EQ(set.notices()[0], "threads = " + requested + " is more than the " +
                                  std::to_string(cores) + " cores: queries run on " +
                                  std::to_string(cores) + " threads");
  EXPECT_EQ(connection_.query("show threads").value(0, 0).to_string(), std::to_string(cores));
  EXPECT_EQ(connection_.query("select 1").workers(), cores);
  // Notices of every statement of a script reach its result.
  EXPECT_EQ(connection_.query("set threads = " + requested + "; select 1").notices().size(), 1u);
  connection_.options().oversubscribe = true;
  EXPECT_EQ(connection_.query("show threads").value(0, 0).to_string(), requested);
  EXPECT_EQ(connection_.query("select 1").workers(), cores + 2);
  EXPECT_TRUE(connection_.query("set threads = " + requested).notices().empty());
}

TEST_F(ApiStatementsTest, SetAndShowSettings) {
  EXPECT_EQ(connection_.query("set optimization = 'fast'").command_tag(), "SET");
  EXPECT_EQ(connection_.options().optimization, OptimizationLevel::kFast);
  EXPECT_TRUE(connection_.query("set threads to 1").notices().empty());
  Result show = connection_.query("show threads");
  ASSERT_EQ(show.row_count(), 1u);
  EXPECT_EQ(show.column_name(0), "threads");
  EXPECT_EQ(show.value(0, 0).to_string(), "1");
  EXPECT_EQ(error_of("set threads = 0"), "invalid value for parameter \"threads\": \"0\"@-1");
  EXPECT_EQ(error_of("set optimization = 'max'"),
            "invalid value for parameter \"optimization\": \"max\"@-1");
  EXPECT_EQ(error_of("set nope = 1"), "unrecognized configuration parameter \"nope\"@-1");
  connection_.query("reset all");
  EXPECT_EQ(connection_.options().threads, default_thread_count());
}

}  // namespace
}  // namespace floe::testing
