// Adaptive execution (engine/exec/adaptive_executor.h): queries switch from the vectorized
// engine to the compiled code in the middle of their pipelines (forced by the test hook
// ExecutionOptions::adaptive_switch_morsel) with the compiled engine's results and errors,
// short queries end before their code is ready, and the compile thread never reads a plan
// that is gone (run under ASan).
#include <gtest/gtest.h>

#include <re2/re2.h>

#include <string>
#include <vector>

#include "engine/api/database.h"
#include "tests/unit/result_lines.h"

namespace floe::testing {
namespace {

// 200,000 rows: four chunks, thirteen morsels.
class AdaptiveExecutionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Connection setup(database_);
    setup.query(
        "set freeze_policy = 'never';"
        "create table ad (id bigint not null, g integer, s text);"
        "insert into ad select n, n % 37, 'v' || cast(n % 101 as text) "
        "from generate_series(0, 199999) as g(n);"
        "create table ad_small (g integer, name text);"
        "insert into ad_small select n, 'group ' || cast(n as text) "
        "from generate_series(0, 36) as g(n)");
  }

  // The rows (sorted) or the error of `sql`.
  std::vector<std::string> run(const std::string& sql, ExecutionMode mode,
                               uint64_t switch_morsel = 0, uint32_t compiled_pipelines = 0) {
    Connection connection(database_);
    connection.options().execution_mode = mode;
    connection.options().adaptive_switch_morsel = switch_morsel;
    connection.options().adaptive_compiled_pipelines = compiled_pipelines;
    connection.options().threads = 2;
    connection.options().oversubscribe = true;
    return sorted_rows(connection, sql);
  }

  // EXPLAIN ANALYZE's lines in adaptive mode.
  std::vector<std::string> explain_analyze(const std::string& sql, uint64_t switch_morsel) {
    Connection connection(database_);
    connection.options().execution_mode = ExecutionMode::kAdaptive;
    connection.options().adaptive_switch_morsel = switch_morsel;
    connection.options().threads = 2;
    connection.options().oversubscribe = true;
    return result_lines(connection.query("explain analyze " + sql));
  }

  Database database_;
};

const std::vector<std::string> kQueries = {
    // Aggregation sink, switched in the middle of its pipeline, then finalized by the code.
    "select g, count(*), sum(id), min(s), max(s) from ad group by g",
    "select count(*), sum(id * 2), avg(g) from ad where g < 20",
    // Join build and probe, sort and window.
    "select n.name, count(*) from ad a join ad_small n on a.g = n.g where a.id % 7 = 1 "
    "group by n.name order by n.name",
    "select id, s from ad where id % 997 = 3 order by s, id limit 50",
    "select id, g, rank() over (partition by g order by id) from ad where id % 1009 = 5",
    // LIMIT counters shared by both engines, UNION ALL.
    "select count(*) from (select id from ad where g = 3 limit 4000) q",
    "select g from ad where id < 3 union all select g from ad where id > 199997",
};

TEST_F(AdaptiveExecutionTest, SwitchesToCompiledCodeInTheMiddleOfAPipeline) {
  for (const std::string& sql : kQueries) {
    auto compiled = run(sql, ExecutionMode::kCompiled);
    ASSERT_FALSE(compiled.empty()) << sql;
    ASSERT_NE(compiled[0].rfind("error: ", 0), 0u) << sql << ": " << compiled[0];
    EXPECT_EQ(run(sql, ExecutionMode::kAdaptive), compiled) << sql;
    for (uint64_t switch_morsel : {1, 2, 5, 12})
      EXPECT_EQ(run(sql, ExecutionMode::kAdaptive, switch_morsel), compiled)
          << sql << " (switching at morsel " << switch_morsel << ")";
  }
}

// Each pipeline is compiled as its own module and switches when its code is ready, so a
// pipeline may run vectorized after a compiled one: the vectorized engine reads the hash
// tables, aggregation tables and sorted rows the code built and finalized.
TEST_F(AdaptiveExecutionTest, RunsVectorizedAfterCompiledPipelines) {
  for (const std::string& sql : kQueries) {
    auto compiled = run(sql, ExecutionMode::kCompiled);
    for (uint32_t compiled_pipelines : {1, 2, 3})
      EXPECT_EQ(run(sql, ExecutionMode::kAdaptive, 0, compiled_pipelines), compiled)
          << sql << " (the first " << compiled_pipelines << " pipelines compiled)";
  }
}

// EXPLAIN ANALYZE counts each engine's morsels per pipeline: switching at the fifth morsel,
// the scan pipeline over 13 morsels runs 5 vectorized and 8 compiled.
TEST_F(AdaptiveExecutionTest, ExplainAnalyzeShowsTheMorselsOfEachEngine) {
  auto lines = explain_analyze("select g, count(*) from ad group by g", 5);
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  EXPECT_TRUE(RE2::PartialMatch(text, R"(\(morsels: 5 vectorized, 8 compiled\))")) << text;
  // The aggregation's result pipeline starts after the switch: compiled only.
  EXPECT_TRUE(RE2::PartialMatch(text, R"(\(morsels: 0 vectorized, \d+ compiled\))")) << text;
  EXPECT_TRUE(RE2::PartialMatch(text, R"(Compile \(background, (fast|optimized)\): [0-9.]+ ms)"))
      << text;
  EXPECT_TRUE(RE2::PartialMatch(text, R"(Execution \(adaptive\): [0-9.]+ ms)")) << text;
  // Rows counted by both engines add up.
  EXPECT_TRUE(RE2::PartialMatch(text, R"(Scan ad.*\(actual rows 200000\))")) << text;
}

// Errors are the compiled engine's, whichever engine meets the failing row: here the
// division by zero is in the last chunk (a compiled morsel when switching at morsel 1, a
// vectorized one when switching at morsel 13 or never).
TEST_F(AdaptiveExecutionTest, ErrorsAreTheSameInEitherEngine) {
  const std::vector<std::string> failing = {
      "select sum(id / (id - 199990)) from ad",
      "select g, sum(100 / (id - 5)) from ad group by g",
      "select cast(id * 100000000000000 as integer) from ad where id > 100000",
  };
  for (const std::string& sql : failing) {
    auto compiled = run(sql, ExecutionMode::kCompiled);
    ASSERT_EQ(compiled.size(), 1u) << sql;
    ASSERT_EQ(compiled[0].rfind("error: ", 0), 0u) << sql << ": " << compiled[0];
    for (uint64_t switch_morsel : {0, 1, 3, 13})
      EXPECT_EQ(run(sql, ExecutionMode::kAdaptive, switch_morsel), compiled)
          << sql << " (switching at morsel " << switch_morsel << ")";
  }
}

// Short queries end long before their code is ready and never wait for it: the compile thread
// drops their plans (abandons their IR generation) or frees their code afterwards.
TEST_F(AdaptiveExecutionTest, ShortQueriesEndBeforeTheirCodeIsReady) {
  Connection connection(database_);
  connection.query("set execution_mode = 'adaptive'");
  // Many pipelines: long IR generation, a quick run over tiny inputs.
  std::string wide = "select g from ad_small where g = 0";
  for (int i = 1; i < 24; ++i)
    wide += " union all select g from ad_small where g = " + std::to_string(i);
  int unfinished = 0;
  for (int i = 0; i < 40; ++i) {
    EXPECT_EQ(result_lines(connection.query("select name from ad_small where g = 7")),
              std::vector<std::string>{"group 7"});
    EXPECT_EQ(connection.query(wide).row_count(), 24u);
    for (const auto& line : result_lines(connection.query("explain analyze " + wide)))
      unfinished += line == "Compile (background): unfinished";
  }
  // Of 40 such queries, at least one ended before its code was compiled.
  EXPECT_GT(unfinished, 0);
}

// A prepared statement compiles once and reuses its code in adaptive mode too.
TEST_F(AdaptiveExecutionTest, PreparedStatementsRunInAdaptiveMode) {
  Connection connection(database_);
  connection.query("set execution_mode = 'adaptive'");
  PreparedStatement statement =
      connection.prepare("select count(*), sum(id) from ad where g = $1 and id < $2");
  Connection compiled(database_);
  for (int g : {0, 5, 36}) {
    std::string sql = "select count(*), sum(id) from ad where g = " + std::to_string(g) +
                      " and id < 150000";
    EXPECT_EQ(result_lines(statement.execute({Value::integer(g), Value::big_int(150000)})),
              result_lines(compiled.query(sql)));
  }
}

}  // namespace
}  // namespace floe::testing
