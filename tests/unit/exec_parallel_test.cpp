// Morsel-driven execution: every query gives the same result at 1, 2 and 4 threads (after
// sorting the rows of queries without ORDER BY, whose order SQL leaves open).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "engine/api/database.h"
#include "storage/error.h"

namespace floe::testing {
namespace {

// Over two chunks (2^16 rows each), so that several morsels and workers share each pipeline.
constexpr int kFactRows = 150'000;
constexpr int kKeys = 5'003;

class ExecParallelTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    database_ = new Database();
    Connection connection(*database_);
    connection.query(
        "create table facts (id bigint, k integer, v bigint, s varchar(40));"
        "create table dims (k integer, label varchar(40))");
    // Per process: ctest runs the tests of this suite in parallel processes.
    std::string path =
        ::testing::TempDir() + "exec_parallel_facts_" + std::to_string(getpid()) + ".csv";
    {
      std::ofstream out(path);
      // Strings longer than 12 bytes live out of line (in the string heap).
      for (int id = 0; id < kFactRows; ++id)
        out << id << ',' << id % kKeys << ',' << (id * 7) % 1000 << ",customer-name-" << id % 97
            << '\n';
    }
    connection.query("copy facts from '" + path + "' with (delimiter ',')");
    std::remove(path.c_str());
    std::string dims = "insert into dims values ";
    for (int k = 0; k < kKeys; k += 2)  // every other key: half the facts find no partner
      dims += (k ? ", (" : "(") + std::to_string(k) + ", 'label-" + std::to_string(k % 50) + "')";
    connection.query(dims);
  }
  static void TearDownTestSuite() {
    delete database_;
    database_ = nullptr;
  }

  // The rows of `sql` run with `threads` workers, as "v1|v2|..." lines; sorted unless
  // `ordered`.
  static std::vector<std::string> rows(const std::string& sql, uint32_t threads, bool ordered) {
    Connection connection(*database_);
    connection.options().threads = threads;
    Result result = connection.query(sql);
    std::vector<std::string> lines;
    for (size_t r = 0; r < result.row_count(); ++r) {
      std::string line;
      for (size_t c = 0; c < result.column_count(); ++c)
        line += (c ? "|" : "") + result.value(r, c).to_string();
      lines.push_back(line);
    }
    if (!ordered) std::sort(lines.begin(), lines.end());
    return lines;
  }

  // The result at 1 worker, after checking that 2 and 4 workers give the same.
  static std::vector<std::string> same_at_all_thread_counts(const std::string& sql, bool ordered) {
    std::vector<std::string> expected = rows(sql, 1, ordered);
    for (uint32_t threads : {2u, 4u})
      EXPECT_EQ(rows(sql, threads, ordered), expected) << sql << " at " << threads << " threads";
    return expected;
  }

  static std::string error_of(const std::string& sql, uint32_t threads) {
    Connection connection(*database_);
    connection.options().threads = threads;
    try {
      connection.query(sql);
    } catch (const Error& error) {
      return error.what();
    }
    return "no error";
  }

  static Database* database_;
};

Database* ExecParallelTest::database_ = nullptr;

TEST_F(ExecParallelTest, AggregatesManyGroups) {
  auto result = same_at_all_thread_counts(
      "select k, count(*), sum(v), min(s), max(v), min(s || '!') from facts group by k", false);
  EXPECT_EQ(result.size(), static_cast<size_t>(kKeys));
}

TEST_F(ExecParallelTest, JoinsAndAggregates) {
  auto result = same_at_all_thread_counts(
      "select d.label, count(*), sum(f.v), max(f.id) from facts f join dims d on f.k = d.k"
      " group by d.label order by d.label",
      true);
  EXPECT_EQ(result.size(), 25u);  // even keys only: even labels
  same_at_all_thread_counts(
      "select f.id, d.label from facts f join dims d on f.k = d.k"
      " where f.id % 1000 = 4",
      false);
}

TEST_F(ExecParallelTest, SortsWithLimit) {
  auto top = same_at_all_thread_counts(
      "select id, v, s from facts order by v desc, id limit 25 offset 3", true);
  ASSERT_EQ(top.size(), 25u);
  EXPECT_EQ(top.front(), "3857|999|customer-name-74");
  // Large enough to be sorted in parallel runs and merged.
  auto all = same_at_all_thread_counts("select s, id from facts order by s, id", true);
  EXPECT_EQ(all.size(), static_cast<size_t>(kFactRows));
}

TEST_F(ExecParallelTest, GlobalAggregates) {
  auto result = same_at_all_thread_counts(
      "select count(*), sum(v), min(id), max(s), min(v), count(distinct k) from facts", true);
  EXPECT_EQ(result, (std::vector<std::string>{"150000|74925000|0|customer-name-96|0|5003"}));
  // No row qualifies: still exactly one group.
  EXPECT_EQ(same_at_all_thread_counts("select count(*), max(v) from facts where v < 0", true),
            (std::vector<std::string>{"0|NULL"}));
}

TEST_F(ExecParallelTest, LimitWithoutOrderStopsEarly) {
  for (uint32_t threads : {1u, 2u, 4u})
    EXPECT_EQ(rows("select id from facts where v > 10 limit 7", threads, false).size(), 7u);
}

TEST_F(ExecParallelTest, RuntimeErrorAtEveryThreadCount) {
  for (uint32_t threads : {1u, 2u, 4u}) {
    EXPECT_EQ(error_of("select sum(100 / (v - 500)) from facts", threads), "division by zero");
    EXPECT_EQ(error_of("select id / (id - 140000) from facts", threads), "division by zero");
  }
}

}  // namespace
}  // namespace floe::testing
