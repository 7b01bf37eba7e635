// EXPLAIN ANALYZE: the rows each operator produced (exact), the pipeline times and the phase
// times, at 1 and 2 threads and both optimization levels.

#include <re2/re2.h>

#include "tests/unit/sql_test_helpers.h"

namespace floe::testing {
namespace {

class ApiExplainAnalyzeTest : public SqlFixture {
 protected:
  void SetUp() override {
    SqlFixture::SetUp();
    connection_.query(
        "insert into t values (1, 1.50, 0.10, '1998-01-01', 10, 'a'), (2, 2.25, 0.20, "
        "'1998-06-01', 20, 'b'), (3, null, 0.30, '1999-01-01', 30, 'a'), (4, 4.00, 0.40, null, "
        "null, null)");
    connection_.query("insert into big values (1,1,1),(2,1,2),(3,2,3),(4,2,4),(5,3,5),(6,3,6)");
    connection_.query("insert into small values (1,1),(2,1),(3,2)");
    connection_.query("create table empty_t (id integer)");
  }

  std::vector<std::string> lines(const std::string& sql) {
    Result result = connection_.query(sql);
    EXPECT_EQ(result.column_count(), 1u);
    std::vector<std::string> out;
    for (size_t r = 0; r < result.row_count(); ++r) out.push_back(result.value(r, 0).to_string());
    return out;
  }

  // The actual rows of the only operator line that starts (after its indentation) with
  // `op`, or -1.
  static int64_t actual_rows(const std::vector<std::string>& plan, const std::string& op) {
    static const RE2 kRows(R"(\(actual rows (\d+)\))");
    int64_t rows = -1;
    for (const auto& line : plan) {
      if (line.find_first_not_of(' ') == std::string::npos ||
          line.compare(line.find_first_not_of(' '), op.size(), op) != 0)
        continue;
      int64_t line_rows = 0;
      if (!RE2::PartialMatch(line, kRows, &line_rows)) continue;
      EXPECT_EQ(rows, -1) << "two lines start with " << op;
      rows = line_rows;
    }
    return rows;
  }

  static bool has_line(const std::vector<std::string>& plan, const std::string& pattern) {
    RE2 regex(pattern);
    for (const auto& line : plan)
      if (RE2::FullMatch(line, regex)) return true;
    return false;
  }

  void set(const std::string& name, const std::string& value) {
    connection_.query("set " + name + " = " + value);
  }
};

TEST_F(ApiExplainAnalyzeTest, CountsScanAggregateAndFilterRows) {
  auto plan = lines("explain analyze select s, count(*) from t group by s having count(*) > 1");
  EXPECT_EQ(actual_rows(plan, "Scan t"), 4);
  EXPECT_EQ(actual_rows(plan, "Aggregate"), 3);  // a, b, NULL
  EXPECT_EQ(actual_rows(plan, "Filter"), 1);
  EXPECT_EQ(actual_rows(plan, "Output"), -1);  // the header has no count
  plan = lines("explain analyze select a from t where e >= 20");
  EXPECT_EQ(actual_rows(plan, "Scan t"), 2);  // after the pushed-down filter
}

TEST_F(ApiExplainAnalyzeTest, CountsJoinRows) {
  auto plan = lines(
      "explain analyze select big.id from big join small on big.s_id = small.id"
      " where small.r_id = 1");
  EXPECT_EQ(actual_rows(plan, "Scan big"), 6);
  EXPECT_EQ(actual_rows(plan, "Scan small"), 2);
  EXPECT_EQ(actual_rows(plan, "HashJoin"), 4);
  // Outer joins count their NULL-extended rows too, whichever side the optimizer builds.
  for (const char* type : {"left", "right", "full"}) {
    std::string query = std::string("select big.id, small.id from big ") + type +
                        " join small on big.x = small.r_id + 4";
    size_t expected = connection_.query(query).row_count();
    EXPECT_EQ(actual_rows(lines("explain analyze " + query), "HashJoin"),
              static_cast<int64_t>(expected))
        << type;
  }
}

TEST_F(ApiExplainAnalyzeTest, JoinWithEmptyBuild) {
  auto plan = lines("explain analyze select big.id from big join empty_t on big.s_id = empty_t.id");
  EXPECT_EQ(actual_rows(plan, "Scan empty_t"), 0);
  EXPECT_EQ(actual_rows(plan, "HashJoin"), 0);
  EXPECT_TRUE(has_line(plan, R"(Execution: \d+\.\d{3} ms)"));
}

TEST_F(ApiExplainAnalyzeTest, ExactAtEveryThreadCountAndOptimizationLevel) {
  // Enough rows for several morsels (kMorselRows = 16384), so that two workers share them.
  connection_.query("create table many (k integer, v integer)");
  connection_.query("insert into many values (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)");
  for (int i = 0; i < 13; ++i) connection_.query("insert into many select k, v + 1 from many");
  const int64_t total = 5 << 13;
  for (const char* threads : {"1", "2"}) {
    for (const char* level : {"fast", "optimized"}) {
      set("threads", threads);
      set("optimization", level);
      SCOPED_TRACE(std::string(threads) + " threads, " + level);
      auto plan = lines(
          "explain analyze select many.k, count(*) from many join small on many.k = small.id"
          " where many.v > 3 group by many.k order by many.k");
      int64_t filtered =
          connection_.query("select count(*) from many where v > 3").value(0, 0).as_int64();
      EXPECT_LT(filtered, total);
      EXPECT_EQ(actual_rows(plan, "Scan many"), filtered);
      EXPECT_EQ(actual_rows(plan, "Scan small"), 3);
      EXPECT_EQ(actual_rows(plan, "Aggregate"), 3);
      EXPECT_EQ(actual_rows(plan, "Sort"), 3);
      EXPECT_TRUE(has_line(plan, R"(  P\d+: .* \(\d+\.\d{3} ms\))"));
      EXPECT_TRUE(has_line(plan, R"(Planning: \d+\.\d{3} ms)"));
      EXPECT_TRUE(has_line(plan, R"(Codegen: \d+\.\d{3} ms)"));
      EXPECT_TRUE(has_line(plan, std::string(R"(Compile \()") + level + R"(\): \d+\.\d{3} ms)"));
      EXPECT_TRUE(has_line(plan, R"(Execution: \d+\.\d{3} ms)"));
    }
  }
}

TEST_F(ApiExplainAnalyzeTest, LimitStopsCounting) {
  set("threads", "1");
  EXPECT_EQ(actual_rows(lines("explain analyze select id from big limit 2"), "Limit"), 2);
}

TEST_F(ApiExplainAnalyzeTest, OptionSyntaxAndResult) {
  Result result = connection_.query("explain (analyze) select a from t");
  EXPECT_EQ(result.column_name(0), "QUERY PLAN");
  EXPECT_GT(result.timings().execute_ms, 0);
  EXPECT_EQ(actual_rows(lines("explain (analyze true) select a from t"), "Scan t"), 4);
  // ANALYZE false is a plain EXPLAIN: nothing runs, nothing is counted.
  auto plain = lines("explain (analyze false) select a from t");
  EXPECT_EQ(actual_rows(plain, "Scan t"), -1);
  EXPECT_FALSE(has_line(plain, "Execution: .*"));
  EXPECT_EQ(actual_rows(lines("explain (analyze on) select a from t"), "Scan t"), 4);
  EXPECT_EQ(actual_rows(lines("explain (analyze 0) select a from t"), "Scan t"), -1);
  EXPECT_EQ(error_of("explain (analyze maybe) select a from t"),
            "analyze requires a Boolean value@9");
  EXPECT_EQ(error_of("explain (analyze, ir) select a from t"),
            "not supported: EXPLAIN with both IR and ANALYZE@-1");
  // Runtime errors of the query surface as for the query itself.
  EXPECT_NE(error_of("explain analyze select a / (a - 1) from t").find("division by zero"),
            std::string::npos);
}

TEST_F(ApiExplainAnalyzeTest, NoCountingCodeWithoutAnalyze) {
  Result ir = connection_.query("explain (ir) select a from t where e > 1");
  std::string text;
  for (size_t r = 0; r < ir.row_count(); ++r) text += ir.value(r, 0).to_string() + "\n";
  EXPECT_EQ(text.find("row_counts"), std::string::npos);
}

}  // namespace
}  // namespace floe::testing
