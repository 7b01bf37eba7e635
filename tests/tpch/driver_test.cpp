// The `floe-tpch run` driver: direct loading equals COPY of the .tbl files, the JSON report,
// and failing queries reported as errors.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "bench/tpch/tpch_run.h"
#include "engine/api/database.h"
#include "storage/error.h"
#include "tpch/direct_loader.h"
#include "tpch/schema_sql.h"
#include "tpch/tbl_files.h"

namespace floe::tpch {
namespace {

const std::string kTpchDir = std::string(FLOE_SOURCE_DIR) + "/bench/tpch";
constexpr const char* kTables[] = {"region",   "nation",   "part",   "supplier",
                                   "partsupp", "customer", "orders", "lineitem"};

struct ScratchDirectory {
  std::filesystem::path path;
  explicit ScratchDirectory(const std::string& name)
      : path(std::filesystem::temp_directory_path() /
             ("floe-driver-test-" + name + "-" + std::to_string(getpid()))) {
    std::filesystem::create_directories(path);
  }
  ~ScratchDirectory() { std::filesystem::remove_all(path); }
};

// Every value of every row, in storage order.
void expect_same_rows(const Table& direct, const Table& copied) {
  ASSERT_EQ(direct.row_count(), copied.row_count()) << direct.name();
  ASSERT_EQ(direct.chunk_count(), copied.chunk_count()) << direct.name();
  for (size_t c = 0; c < direct.columns().size(); ++c) {
    ASSERT_EQ(direct.columns()[c].type, copied.columns()[c].type);
    for (size_t k = 0; k < direct.chunk_count(); ++k) {
      ASSERT_EQ(direct.chunk(k).size(), copied.chunk(k).size());
      for (uint32_t row = 0; row < direct.chunk(k).size(); ++row) {
        uint64_t id = (uint64_t{k} << kChunkShift) | row;
        Value a = direct.value_at(id, c);
        Value b = copied.value_at(id, c);
        ASSERT_TRUE(a == b) << direct.name() << "." << direct.columns()[c].name << " chunk " << k
                            << " row " << row << ": " << a.to_string() << " vs " << b.to_string();
      }
    }
  }
}

TEST(TpchDriverTest, DirectLoadEqualsCopyOfTblFiles) {
  const std::string schema(schema_sql());
  Database direct;
  Connection(direct).query(schema);
  int progress_calls = 0;
  load_tables(direct.catalog(), 0.01, 2, [&](const LoadStatus&) { ++progress_calls; });
  EXPECT_GT(progress_calls, 0);

  ScratchDirectory files("tbl");
  write_tbl_files(0.01, files.path.string(), 2);
  Database copied;
  Connection connection(copied);
  connection.query(schema);
  for (const char* table : kTables) {
    connection.query(std::string("COPY ") + table + " FROM '" + files.path.string() + "/" + table +
                     ".tbl' WITH (DELIMITER '|')");
  }
  for (const char* table : kTables)
    expect_same_rows(*direct.catalog().find_table(table), *copied.catalog().find_table(table));

  // The same through queries: counts and sums agree.
  Connection direct_connection(direct);
  const char* check = "SELECT count(*), sum(l_extendedprice), sum(l_quantity) FROM lineitem";
  EXPECT_EQ(direct_connection.query(check).value(0, 0).to_string(), "60175");
  for (size_t c = 0; c < 3; ++c) {
    EXPECT_EQ(direct_connection.query(check).value(0, c).to_string(),
              connection.query(check).value(0, c).to_string());
  }
}

TEST(TpchDriverTest, JsonReportOfValidatedRun) {
  RunOptions options;
  options.scale_factor = 0.01;
  options.threads = 2;
  options.runs = 3;
  options.queries = {1, 6};
  options.validate = true;
  options.duckdb = false;
  options.tpch_dir = kTpchDir;
  std::vector<QueryReport> reports = run_tpch(options);
  ASSERT_EQ(reports.size(), 2u);
  for (const QueryReport& report : reports) {
    EXPECT_EQ(report.error, "") << report.query;
    EXPECT_EQ(report.valid, std::optional<bool>(true)) << report.query << ": " << report.mismatch;
    EXPECT_GT(report.exec_ms, 0) << report.query;
  }
  EXPECT_EQ(reports[0].rows, 4u);

  std::ostringstream json;
  write_report_json(json, reports);
  const std::string text = json.str();
  EXPECT_TRUE(text.starts_with("[\n {\"query\": \"q01\", \"compile_ms\": ")) << text;
  EXPECT_NE(text.find("{\"query\": \"q06\", \"compile_ms\": "), std::string::npos) << text;
  EXPECT_NE(text.find("\"exec_ms\": "), std::string::npos) << text;
  EXPECT_NE(text.find("\"rows\": 4, \"valid\": true}"), std::string::npos) << text;
  EXPECT_NE(text.find("\"rows\": 1, \"valid\": true}"), std::string::npos) << text;
  EXPECT_EQ(text.find("\"error\""), std::string::npos) << text;
  EXPECT_TRUE(text.ends_with("}\n]\n")) << text;
}

TEST(TpchDriverTest, FailingQueryIsAnErrorEntry) {
  ScratchDirectory tpch("queries");
  std::filesystem::create_directories(tpch.path / "queries");
  std::ofstream(tpch.path / "queries/q01.sql") << "select array[1, 2] from region;\n";
  std::filesystem::copy_file(kTpchDir + "/queries/q06.sql", tpch.path / "queries/q06.sql");

  RunOptions options;
  options.threads = 1;
  options.queries = {1, 6};
  options.validate = true;  // there is no answers folder: valid stays null
  options.duckdb = false;
  options.tpch_dir = tpch.path.string();
  std::vector<QueryReport> reports = run_tpch(options);
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_NE(reports[0].error, "");
  EXPECT_EQ(reports[1].error, "");
  EXPECT_EQ(reports[1].rows, 1u);
  EXPECT_FALSE(reports[1].valid.has_value());

  std::ostringstream json;
  write_report_json(json, reports);
  EXPECT_NE(json.str().find("\"valid\": null, \"error\": \""), std::string::npos) << json.str();
  EXPECT_NE(json.str().find("\"rows\": 1, \"valid\": null}"), std::string::npos) << json.str();
}

TEST(TpchDriverTest, QueryList) {
  EXPECT_EQ(parse_query_list("1,q06,Q15,22"), (std::vector<int>{1, 6, 15, 22}));
  EXPECT_THROW(parse_query_list("23"), Error);
  EXPECT_THROW(parse_query_list("q1x"), Error);
  EXPECT_THROW(parse_query_list(""), Error);
}

}  // namespace
}  // namespace floe::tpch
