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

// `--freeze cold` (the Data Blocks paper's §5.3): with the full 3,000 orders per district,
// the lines of the 2,100 delivered orders fill three chunks, frozen after the population
// while the rest stays hot; Delivery then changes hot lines, the transactions read frozen
// and hot ones, and the consistency conditions hold.
TEST(TpccFreezeTest, ColdOrderLinesFreezeAndStayConsistent) {
  for (Api api : {Api::kRecord, Api::kSql}) {
    RunOptions options;
    options.api = api;
    options.warehouses = 1;
    options.duration_seconds = 2;
    options.scale = Scale{1000, 3000};
    options.progress = false;
    options.freeze = FreezeMode::kCold;
    RunResult result = run_tpcc(options);
    EXPECT_EQ(result.chunks_frozen_at_start, 3u);
    EXPECT_GT(result.committed, 0u);
    EXPECT_TRUE(result.consistency.ok());
    EXPECT_NE(to_json(options, result).find("\"freeze\": \"cold\", \"chunks_frozen_at_start\": 3"),
              std::string::npos);
  }
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
