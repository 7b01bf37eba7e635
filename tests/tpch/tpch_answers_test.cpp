// TPC-H queries at SF 0.01 against the reference answers (shared/tpch/README.md rules).
// Data: CALL dbgen, floe's own generator (byte-identical to dbgen 2.14).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "bench/tpch/answer_check.h"
#include "bench/tpch/query_timing.h"
#include "engine/api/database.h"

namespace floe {
namespace {

const std::string kSourceDir = FLOE_SOURCE_DIR;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

class TpchAnswersTest : public ::testing::TestWithParam<int> {
 protected:
  static void SetUpTestSuite() {
    database_ = new Database();
    Connection connection(*database_);
    connection.query("CALL dbgen(0.01)");
  }
  static void TearDownTestSuite() {
    delete database_;
    database_ = nullptr;
  }
  static Database* database_;
};

Database* TpchAnswersTest::database_ = nullptr;

std::string query_name(int number) {
  char name[8];
  std::snprintf(name, sizeof name, "q%02d", number);
  return name;
}

TEST_P(TpchAnswersTest, MatchesReferenceAnswer) {
  const int number = GetParam();
  Connection connection(*database_);
  // The answers must not depend on the number of workers (morsel-driven execution).
  for (uint32_t threads : {1u, 2u}) {
    connection.options().threads = threads;
    for (OptimizationLevel level : {OptimizationLevel::kFast, OptimizationLevel::kOptimized}) {
      connection.options().optimization = level;
      // q15 creates a view, queries it and drops it: its answer is the one with rows.
      Result result;
      for (const std::string& statement : tpch::split_statements(
               read_file(kSourceDir + "/bench/tpch/queries/" + query_name(number) + ".sql"))) {
        Result statement_result = connection.query(statement);
        if (statement_result.has_rows()) result = std::move(statement_result);
      }
      tpch::Answer answer = tpch::read_answer(kSourceDir + "/bench/tpch/answers/sf0.01/" +
                                              query_name(number) + ".csv");
      std::vector<SqlType> types;
      for (size_t i = 0; i < result.column_count(); ++i) types.push_back(result.column_type(i));
      EXPECT_EQ(
          tpch::compare_with_answer(types, result.rows(), answer, tpch::order_key_columns(number)),
          "")
          << query_name(number) << (level == OptimizationLevel::kFast ? " (fast)" : " (optimized)")
          << " at " << threads << " threads";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sf001, TpchAnswersTest, ::testing::Range(1, 23),
                         [](const auto& info) { return query_name(info.param); });

}  // namespace
}  // namespace floe
