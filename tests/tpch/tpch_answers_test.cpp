// TPC-H queries against the reference answers (shared/tpch/README.md rules), at SF 0.01 and,
// with lineitem spread over ten chunks, at SF 0.1. Data: CALL dbgen, floe's own generator
// (byte-identical to dbgen 2.14). The answers must not depend on how the tables are stored
// (hot chunks, Data Blocks) nor on the scan (vectorized with restrictions, JIT).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <memory>
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

std::string query_name(int number) {
  char name[8];
  std::snprintf(name, sizeof name, "q%02d", number);
  return name;
}

// One database per scale factor and storage: every chunk hot, or every chunk frozen.
Database& database(const std::string& scale_factor, bool frozen) {
  static std::map<std::pair<std::string, bool>, std::unique_ptr<Database>> databases;
  auto& database = databases[{scale_factor, frozen}];
  if (!database) {
    database = std::make_unique<Database>();
    Connection connection(*database);
    connection.query("SET freeze_policy = 'never'");
    connection.query("CALL dbgen(" + scale_factor + ")");
    if (frozen) connection.query("VACUUM FREEZE");
  }
  return *database;
}

struct QueryRun {
  uint32_t threads;
  OptimizationLevel level;
  ScanMode scan_mode;
  plan::JoinTableKind join_table = plan::JoinTableKind::kChaining;
  ExecutionMode engine = ExecutionMode::kCompiled;
  // Adaptive execution's test hook (ExecutionOptions::adaptive_switch_morsel): 0, or the
  // morsel from which on the code runs.
  uint64_t switch_morsel = 0;
};

const char* engine_name(ExecutionMode mode) {
  switch (mode) {
    case ExecutionMode::kCompiled:
      return "compiled";
    case ExecutionMode::kVectorized:
      return "vectorized";
    case ExecutionMode::kAdaptive:
      return "adaptive";
  }
  return "?";
}

const char* join_table_name(plan::JoinTableKind kind) {
  switch (kind) {
    case plan::JoinTableKind::kChaining:
      return "chaining";
    case plan::JoinTableKind::kCht:
      return "CHT";
    case plan::JoinTableKind::kCat:
      return "CAT";
    case plan::JoinTableKind::kAuto:
      return "auto";
  }
  return "?";
}

void expect_answer(Database& database, const std::string& scale_factor, int number,
                   const std::vector<QueryRun>& runs, const std::string& storage) {
  Connection connection(database);
  for (const QueryRun& run : runs) {
    connection.options().threads = run.threads;
    connection.options().optimization = run.level;
    connection.options().scan_mode = run.scan_mode;
    connection.options().join_table = run.join_table;
    connection.options().adaptive_switch_morsel = run.switch_morsel;
    // Through SET, which also picks the engine's default vector size.
    connection.query(std::string("set execution_mode = '") + engine_name(run.engine) + "'");
    // q15 creates a view, queries it and drops it: its answer is the one with rows.
    Result result;
    for (const std::string& statement : tpch::split_statements(
             read_file(kSourceDir + "/bench/tpch/queries/" + query_name(number) + ".sql"))) {
      Result statement_result = connection.query(statement);
      if (statement_result.has_rows()) result = std::move(statement_result);
    }
    tpch::Answer answer = tpch::read_answer(kSourceDir + "/bench/tpch/answers/sf" + scale_factor +
                                            "/" + query_name(number) + ".csv");
    std::vector<SqlType> types;
    for (size_t i = 0; i < result.column_count(); ++i) types.push_back(result.column_type(i));
    EXPECT_EQ(
        tpch::compare_with_answer(types, result.rows(), answer, tpch::order_key_columns(number)),
        "")
        << query_name(number) << " at SF " << scale_factor << " on " << storage << " ("
        << (run.level == OptimizationLevel::kFast ? "fast" : "optimized") << ", "
        << (run.scan_mode == ScanMode::kJit ? "JIT scan" : "vectorized scan") << ", "
        << join_table_name(run.join_table) << " join tables, "
        << engine_name(run.engine) << " engine, switch at morsel " << run.switch_morsel << ") at "
        << run.threads << " threads";
  }
}

class TpchAnswersTest : public ::testing::TestWithParam<int> {};

TEST_P(TpchAnswersTest, MatchesReferenceAnswer) {
  // The answers must not depend on the number of workers (morsel-driven execution) nor on
  // the optimization level.
  std::vector<QueryRun> runs;
  for (uint32_t threads : {1u, 2u})
    for (OptimizationLevel level : {OptimizationLevel::kFast, OptimizationLevel::kOptimized})
      runs.push_back({threads, level, ScanMode::kVectorized});
  runs.push_back({2, OptimizationLevel::kFast, ScanMode::kJit});
  expect_answer(database("0.01", false), "0.01", GetParam(), runs, "hot chunks");
  expect_answer(database("0.01", true), "0.01", GetParam(), runs, "Data Blocks");
}

TEST_P(TpchAnswersTest, MatchesReferenceAnswerOnManyChunks) {
  std::vector<QueryRun> runs{{2, OptimizationLevel::kFast, ScanMode::kVectorized}};
  expect_answer(database("0.1", true), "0.1", GetParam(), runs, "Data Blocks");
  runs.push_back({2, OptimizationLevel::kFast, ScanMode::kJit});
  expect_answer(database("0.1", false), "0.1", GetParam(), runs, "hot chunks");
}

// The answers must not depend on the join tables (SET join_table) either.
TEST_P(TpchAnswersTest, MatchesReferenceAnswerUnderEveryJoinTable) {
  std::vector<QueryRun> runs;
  for (auto kind :
       {plan::JoinTableKind::kCht, plan::JoinTableKind::kCat, plan::JoinTableKind::kAuto})
    runs.push_back({2, OptimizationLevel::kFast, ScanMode::kVectorized, kind});
  expect_answer(database("0.01", false), "0.01", GetParam(), runs, "hot chunks");
  runs.resize(2);
  expect_answer(database("0.1", true), "0.1", GetParam(), runs, "Data Blocks");
}

// The vectorized engine gives the same answers, under every join table.
TEST_P(TpchAnswersTest, MatchesReferenceAnswerInTheVectorizedEngine) {
  std::vector<QueryRun> runs;
  for (uint32_t threads : {1u, 2u})
    runs.push_back({threads, OptimizationLevel::kFast, ScanMode::kVectorized,
                    plan::JoinTableKind::kChaining, ExecutionMode::kVectorized});
  for (auto kind : {plan::JoinTableKind::kCht, plan::JoinTableKind::kCat})
    runs.push_back({2, OptimizationLevel::kFast, ScanMode::kVectorized, kind,
                    ExecutionMode::kVectorized});
  expect_answer(database("0.01", false), "0.01", GetParam(), runs, "hot chunks");
  runs.resize(2);
  expect_answer(database("0.1", true), "0.1", GetParam(), runs, "Data Blocks");
}

// Adaptive execution gives the same answers: as it happens to switch, and switching at a
// fixed morsel (the test hook), so that pipelines run some morsels in each engine.
TEST_P(TpchAnswersTest, MatchesReferenceAnswerInAdaptiveExecution) {
  std::vector<QueryRun> runs;
  for (uint64_t switch_morsel : {0, 1, 3})
    runs.push_back({2, OptimizationLevel::kFast, ScanMode::kVectorized,
                    plan::JoinTableKind::kChaining, ExecutionMode::kAdaptive, switch_morsel});
  runs.push_back({2, OptimizationLevel::kFast, ScanMode::kVectorized, plan::JoinTableKind::kCht,
                  ExecutionMode::kAdaptive, 2});
  expect_answer(database("0.01", false), "0.01", GetParam(), runs, "hot chunks");
  runs.resize(2);
  runs[1].switch_morsel = 5;
  expect_answer(database("0.1", true), "0.1", GetParam(), runs, "Data Blocks");
}

INSTANTIATE_TEST_SUITE_P(Sf001, TpchAnswersTest, ::testing::Range(1, 23),
                         [](const auto& info) { return query_name(info.param); });

}  // namespace
}  // namespace floe
