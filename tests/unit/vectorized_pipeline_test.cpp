// The vectorized pipeline driver (engine/exec/vectorized_executor.h) through the Database
// API: a table of three chunks, scanned by 1 and 2 workers (oversubscribed, so that both
// really share the morsels), in chunks of several vector sizes. Expected rows are computed
// here from the generated input.
#include <gtest/gtest.h>
#include <re2/re2.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/api/database.h"
#include "storage/error.h"
#include "tests/unit/result_lines.h"

namespace floe::testing {
namespace {

// Three chunks (2^16 rows each, the last one partly filled), several morsels each.
constexpr int64_t kRows = 150'000;
constexpr uint32_t kThreadCounts[] = {1, 2};
constexpr uint32_t kVectorSizes[] = {1, 100, 2048, 8192};

// vp(id bigint, k integer, s varchar(40)): k = id % 1000 except NULL for every 7th id; s is
// 'row-<id % 300>-with-a-long-tail' (out of line) for odd ids, NULL for even ones.
int64_t k_of(int64_t id) {
  return id % 1000;
}
bool k_null(int64_t id) {
  return id % 7 == 0;
}
std::string s_of(int64_t id) {
  return id % 2 ? "row-" + std::to_string(id % 300) + "-with-a-long-tail" : "NULL";
}

using Lines = std::vector<std::string>;

class VectorizedPipelineTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    database_ = new Database();
    Connection connection(*database_);
    connection.query(
        "create table vp (id bigint not null, k integer, s varchar(40));"
        "insert into vp select n, case when n % 7 = 0 then null else n % 1000 end, "
        "case when n % 2 = 1 then 'row-' || cast(n % 300 as text) || '-with-a-long-tail' end "
        "from generate_series(0, " +
        std::to_string(kRows - 1) + ") as g(n)");
  }
  static void TearDownTestSuite() {
    delete database_;
    database_ = nullptr;
  }

  static Connection& vectorized(Connection& connection, uint32_t threads, uint32_t vector_size) {
    connection.options().execution_mode = ExecutionMode::kVectorized;
    connection.options().threads = threads;
    connection.options().oversubscribe = true;
    connection.options().scan.vector_size = vector_size;
    return connection;
  }

  // The rows as "v1|v2|..." lines, sorted.
  static Lines lines(const Result& result) { return sorted_lines(result); }

  // `sql` gives `expected` (any order) on every thread count and vector size, vectorized.
  static void expect_rows(const std::string& sql, Lines expected) {
    std::sort(expected.begin(), expected.end());
    for (uint32_t threads : kThreadCounts) {
      for (uint32_t vector_size : kVectorSizes) {
        Connection connection(*database_);
        Result result = vectorized(connection, threads, vector_size).query(sql);
        EXPECT_EQ(result.workers(), threads);
        EXPECT_EQ(lines(result), expected)
            << sql << " at " << threads << " threads, vector size " << vector_size;
      }
    }
  }

  static Database* database_;
};

Database* VectorizedPipelineTest::database_ = nullptr;

TEST_F(VectorizedPipelineTest, ScansEveryChunk) {
  Lines expected;
  for (int64_t id = 0; id < kRows; ++id)
    if (id % 10'000 == 4'321) expected.push_back(std::to_string(id) + "|" + s_of(id));
  expect_rows("select id, s from vp where id % 10000 = 4321", expected);
}

TEST_F(VectorizedPipelineTest, FiltersNarrowTheSelectionInTurn) {
  // A restriction the scanner applies, then two filters over its selection vector, then a
  // projection over the surviving rows only (1 / (k - 3) fails on rows the filters drop).
  Lines expected;
  for (int64_t id = 0; id < kRows; ++id) {
    if (k_null(id) || k_of(id) >= 20 || k_of(id) == 3 || id % 2 == 0) continue;
    if (s_of(id).find("-1") == std::string::npos) continue;
    expected.push_back(std::to_string(id) + "|" + std::to_string(100 / (k_of(id) - 3)));
  }
  ASSERT_FALSE(expected.empty());
  expect_rows("select id, 100 / (k - 3) from vp where k < 20 and s like '%-1%' and k <> 3",
              expected);
}

TEST_F(VectorizedPipelineTest, NullsAndStringsPassThroughProjections) {
  Lines expected;
  for (int64_t id = 0; id < kRows; ++id) {
    if (id % 5'000 != 7) continue;
    std::string s = s_of(id);
    expected.push_back(std::to_string(id) + "|" +
                       (k_null(id) ? "NULL" : std::to_string(k_of(id) * 2)) + "|" +
                       (s == "NULL" ? "NULL" : s + "!"));
  }
  expect_rows("select id, k * 2, s || '!' from vp where id % 5000 = 7", expected);
}

TEST_F(VectorizedPipelineTest, LimitAcrossWorkersLetsExactlyItsRowsThrough) {
  for (uint32_t threads : kThreadCounts) {
    for (uint32_t vector_size : kVectorSizes) {
      for (auto [limit, offset] : {std::pair{1000, 0}, {10, 5}, {1, 70'000}, {3, 74'997}}) {
        Connection connection(*database_);
        std::string sql = "select id from vp where id % 2 = 0 limit " + std::to_string(limit) +
                          " offset " + std::to_string(offset);
        Result result = vectorized(connection, threads, vector_size).query(sql);
        // 75,000 even ids: the offset leaves `limit` rows of them.
        EXPECT_EQ(result.row_count(), static_cast<size_t>(limit)) << sql;
        std::set<int64_t> ids;
        for (size_t r = 0; r < result.row_count(); ++r) {
          int64_t id = result.value(r, 0).as_int64();
          EXPECT_EQ(id % 2, 0);
          ids.insert(id);
        }
        EXPECT_EQ(ids.size(), result.row_count()) << "duplicate rows: " << sql;
      }
    }
  }
}

TEST_F(VectorizedPipelineTest, LimitPastTheRowsGivesThemAll) {
  Connection connection(*database_);
  Result result =
      vectorized(connection, 2, 2048).query("select id from vp limit 1000000 offset 149990");
  EXPECT_EQ(result.row_count(), 10u);
}

TEST_F(VectorizedPipelineTest, ReachedLimitStopsTheScanEarly) {
  // EXPLAIN ANALYZE counts the rows each operator passed on: the scan stops after the
  // morsels that were running when the LIMIT was reached, far short of the table.
  Connection connection(*database_);
  Result result =
      vectorized(connection, 2, 1024).query("explain analyze select id from vp limit 5");
  std::string text;
  for (size_t r = 0; r < result.row_count(); ++r) text += result.value(r, 0).to_string() + "\n";
  // RE2 rather than std::regex: GCC 12 warns falsely inside <regex> under the sanitizers.
  int64_t scanned = 0;
  int64_t limited = 0;
  ASSERT_TRUE(RE2::PartialMatch(text, R"(Scan vp.*\(actual rows (\d+)\))", &scanned)) << text;
  EXPECT_LT(scanned, kRows / 2) << text;
  ASSERT_TRUE(RE2::PartialMatch(text, R"(Limit.*\(actual rows (\d+)\))", &limited)) << text;
  EXPECT_EQ(limited, 5) << text;
}

TEST_F(VectorizedPipelineTest, UnionAllChildrenShareTheSink) {
  Lines expected;
  for (int64_t id = 0; id < kRows; ++id) {
    if (id % 30'000 == 11) expected.push_back(std::to_string(id));
    if (id % 40'000 == 13) expected.push_back(std::to_string(-id));
  }
  expected.push_back("0");
  expect_rows(
      "select id from vp where id % 30000 = 11 union all select -id from vp where id % 40000 = 13 "
      "union all values (0)",
      expected);
}

TEST_F(VectorizedPipelineTest, RuntimeErrorIsTheQueryError) {
  for (uint32_t threads : kThreadCounts) {
    Connection connection(*database_);
    EXPECT_THROW(
        {
          try {
            vectorized(connection, threads, 2048).query("select id / (k - 999) from vp");
          } catch (const Error& error) {
            EXPECT_STREQ(error.what(), "division by zero");
            throw;
          }
        },
        Error);
  }
}

TEST_F(VectorizedPipelineTest, CancelStopsALongQuery) {
  Connection connection(*database_);
  vectorized(connection, 2, 2048);
  // Billions of series values, none of which passes: long enough to be canceled midway.
  auto running = std::async(std::launch::async, [&] {
    try {
      connection.query("select n from generate_series(1, 20000000000) as g(n) where n = 0");
    } catch (const Error& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto start = std::chrono::steady_clock::now();
  connection.cancel();
  EXPECT_EQ(running.get(), "canceling statement due to user request");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

}  // namespace
}  // namespace floe::testing
