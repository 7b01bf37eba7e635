// A short floe-tpcc run with two terminals on a tiny population: transactions commit,
// conflicts are retried, and the consistency conditions hold.
#include <gtest/gtest.h>

#include "bench/tpcc/tpcc_driver.h"

namespace floe::tpcc {
namespace {

class TpccDriverTest : public ::testing::TestWithParam<std::pair<Engine, Api>> {};

TEST_P(TpccDriverTest, TwoTerminalsStayConsistent) {
  RunOptions options;
  options.engine = GetParam().first;
  options.api = GetParam().second;
  options.warehouses = 1;  // both terminals on one warehouse: conflicts
  options.threads = 2;
  options.duration_seconds = 2;
  options.scale = Scale{100, 30};
  options.progress = false;
  RunResult result = run_tpcc(options);
  EXPECT_GT(result.committed, 0u);
  EXPECT_TRUE(result.consistency.ok());
  std::string json = to_json(options, result);
  for (const char* key :
       {"\"tps\": ", "\"tpmC\": ", "\"committed\": ", "\"aborted\": ", "\"consistency_ok\": true"})
    EXPECT_NE(json.find(key), std::string::npos) << key << " in " << json;
}

INSTANTIATE_TEST_SUITE_P(Engines, TpccDriverTest,
                         ::testing::Values(std::pair{Engine::kFloe, Api::kSql},
                                           std::pair{Engine::kFloe, Api::kRecord},
                                           std::pair{Engine::kSqlite, Api::kSql}),
                         [](const auto& info) {
                           if (info.param.first == Engine::kSqlite) return "sqlite";
                           return info.param.second == Api::kRecord ? "floe_record" : "floe";
                         });

}  // namespace
}  // namespace floe::tpcc
