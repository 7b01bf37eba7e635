// Differential test of the vectorized engine and adaptive execution against the compiled
// engine: random filter and projection queries over a table of three chunks (NULLs, long
// strings, numerics, dates), half of them frozen into Data Blocks, run in every execution
// mode on 2 workers; the rows (in any order) or the error must be the same. Adaptive
// execution runs as it happens to switch, and switching at a random morsel (the test hook),
// so that a query's morsels run in both engines, also those that raise its error.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "engine/api/database.h"
#include "tests/unit/result_lines.h"

namespace floe::testing {
namespace {

constexpr int kQueries = 300;

class QueryGenerator {
 public:
  explicit QueryGenerator(uint32_t seed) : random_(seed) {}

  // select <projections> from vd where <predicate>, with a sampling term so that results
  // stay small, and sometimes a LIMIT that lets every row through (its rows are then the
  // same in both engines).
  std::string query() {
    std::string select = "select id";
    for (int i = 0, n = 1 + pick(3); i < n; ++i) select += ", " + projection();
    std::string where = " where id % " + std::to_string(200 + pick(300)) + " = " +
                        std::to_string(pick(200)) + " and (" + predicate(3) + ")";
    std::string sql = select + " from vd" + where;
    if (pick(4) == 0) sql = "select * from (" + sql + ") q where " + predicate_over_id();
    if (pick(5) == 0) sql += " limit 100000";
    return sql;
  }

 private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(random_); }

  std::string integer() {
    switch (pick(6)) {
      case 0:
        return "k";
      case 1:
        return "id";
      case 2:
        return std::to_string(pick(2000) - 1000);
      case 3:
        return "(k " + std::string(pick(2) ? "+" : "*") + " " + std::to_string(pick(9)) + ")";
      case 4:
        return "coalesce(k, " + std::to_string(pick(50)) + ")";
      default:
        return "length(s)";
    }
  }

  std::string projection() {
    switch (pick(8)) {
      case 0:
        return integer() + " + " + integer();
      case 1:
        // Division by zero fails in both engines on the same rows.
        return "id / (k - " + std::to_string(pick(1000)) + ")";
      case 2:
        return "upper(s) || '-' || cast(k as text)";
      case 3:
        return "case when k > " + std::to_string(pick(1000)) + " then s else 'small' end";
      case 4:
        return "v * " + std::to_string(pick(10)) + ".5";
      case 5:
        return "d + " + std::to_string(pick(100));
      case 6:
        return "f / 3";
      default:
        return "b or k is null";
    }
  }

  std::string comparison() {
    static const char* kOps[] = {"=", "<>", "<", "<=", ">", ">="};
    std::string op = kOps[pick(6)];
    switch (pick(9)) {
      case 0:
        return "k " + op + " " + std::to_string(pick(1000));
      case 1:
        return "s " + op + " 'row-" + std::to_string(pick(300)) + "-tail-of-the-string'";
      case 2:
        return "v " + op + " " + std::to_string(pick(100)) + "." + std::to_string(pick(100));
      case 3:
        return "d " + op + " date '2021-01-01' + " + std::to_string(pick(1000));
      case 4:
        return integer() + " " + op + " " + integer();
      case 5:
        return std::string(pick(2) ? "k" : "s") + (pick(2) ? " is null" : " is not null");
      case 6:
        return "k between " + std::to_string(pick(500)) + " and " + std::to_string(500 + pick(500));
      case 7:
        return "s like '%" + std::to_string(pick(30)) + "%'";
      default:
        return "k in (" + std::to_string(pick(1000)) + ", " + std::to_string(pick(1000)) + ", " +
               std::to_string(pick(1000)) + ")";
    }
  }

  std::string predicate(int depth) {
    if (depth == 0 || pick(3) == 0) return comparison();
    switch (pick(3)) {
      case 0:
        return "(" + predicate(depth - 1) + " and " + predicate(depth - 1) + ")";
      case 1:
        return "(" + predicate(depth - 1) + " or " + predicate(depth - 1) + ")";
      default:
        return "not (" + predicate(depth - 1) + ")";
    }
  }

  std::string predicate_over_id() { return "id % 3 <> " + std::to_string(pick(3)); }

  std::mt19937 random_;
};

// The rows (sorted) or the error of `sql` in `mode` (`switch_morsel`: adaptive execution's
// test hook, ExecutionOptions::adaptive_switch_morsel).
std::vector<std::string> run(Database& database, const std::string& sql, ExecutionMode mode,
                             uint64_t switch_morsel = 0) {
  Connection connection(database);
  connection.options().execution_mode = mode;
  connection.options().adaptive_switch_morsel = switch_morsel;
  connection.options().threads = 2;
  connection.options().oversubscribe = true;
  return sorted_rows(connection, sql);
}

TEST(VectorizedDifferentialTest, RandomFilterAndProjectionQueriesMatchCompiled) {
  Database database;
  Connection setup(database);
  setup.query(
      "set freeze_policy = 'never';"
      "create table vd (id bigint not null, k integer, s varchar(40), v numeric(10,2), "
      "d date, f double precision, b boolean);"
      "insert into vd select n, case when n % 9 = 0 then null else n % 1000 end, "
      "case when n % 13 = 0 then null when n % 2 = 0 then 'r' || cast(n % 50 as text) "
      "else 'row-' || cast(n % 300 as text) || '-tail-of-the-string' end, "
      "cast(n % 10000 as numeric(10,2)) * 0.01, date '2021-01-01' + cast(n % 1000 as integer), "
      "n / 7.0, n % 4 = 1 from generate_series(0, 149999) as g(n)");
  QueryGenerator generator(20261124);
  int errors = 0, with_rows = 0;
  for (int q = 0; q < kQueries; ++q) {
    // The second half runs over Data Blocks: the first two chunks frozen.
    if (q == kQueries / 2) setup.query("vacuum freeze vd");
    std::string sql = generator.query();
    auto compiled = run(database, sql, ExecutionMode::kCompiled);
    auto vectorized = run(database, sql, ExecutionMode::kVectorized);
    ASSERT_EQ(vectorized, compiled) << sql;
    ASSERT_EQ(run(database, sql, ExecutionMode::kAdaptive), compiled) << sql;
    const uint64_t switch_morsel = 1 + q % 9;
    ASSERT_EQ(run(database, sql, ExecutionMode::kAdaptive, switch_morsel), compiled)
        << sql << " (adaptive, switching at morsel " << switch_morsel << ")";
    const bool failed = !compiled.empty() && compiled[0].rfind("error: ", 0) == 0;
    errors += failed;
    with_rows += !failed && !compiled.empty();
  }
  // Both outcomes were exercised.
  EXPECT_GT(errors, 0);
  EXPECT_GT(with_rows, kQueries / 3);
}

}  // namespace
}  // namespace floe::testing
