#include "bench/tpch/tpch_run.h"

#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "bench/peers/duckdb_peer.h"
#include "bench/tpch/answer_check.h"
#include "bench/tpch/query_timing.h"
#include "storage/error.h"
#include "tpch/schema_sql.h"
#include "tpch/tbl_files.h"

namespace floe::tpch {
namespace {

constexpr int kQueryCount = 22;
constexpr double kDuckDbOnDiskScaleFactor = 10;
constexpr const char* kDuckDbMemoryLimit = "5GB";
constexpr const char* kTables[] = {"region",   "nation",   "part",   "supplier",
                                   "partsupp", "customer", "orders", "lineitem"};

std::string query_name(int number) {
  char name[8];
  std::snprintf(name, sizeof name, "q%02d", number);
  return name;
}

// "sf0.01", "sf1": the answer folder of a scale factor.
std::string answer_folder(double scale_factor) {
  char name[32];
  std::snprintf(name, sizeof name, "sf%g", scale_factor);
  return name;
}

// Removes a temporary directory on every way out.
struct TemporaryDirectory {
  std::filesystem::path path;
  explicit TemporaryDirectory(const std::string& purpose)
      : path(std::filesystem::temp_directory_path() /
             ("floe-tpch-" + purpose + "-" + std::to_string(getpid()))) {
    std::filesystem::create_directories(path);
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

// The same data in DuckDB, through .tbl files (DuckDB's dbgen extension is not available
// offline); the row counts must match floe's tables.
void load_duckdb(bench::DuckDbPeer& duckdb, const RunOptions& options, const std::string& schema,
                 const Catalog& catalog) {
  TemporaryDirectory directory("tbl");
  write_tbl_files(options.scale_factor, directory.path.string(), options.threads);
  for (const std::string& statement : split_statements(schema)) duckdb.execute(statement);
  for (const char* table : kTables) {
    duckdb.execute(std::string("COPY ") + table + " FROM '" +
                   (directory.path / (std::string(table) + ".tbl")).string() +
                   "' (DELIMITER '|', HEADER false)");
    std::string rows = duckdb.scalar(std::string("SELECT count(*) FROM ") + table);
    if (rows != std::to_string(catalog.find_table(table)->row_count()))
      throw Error(std::string("DuckDB loaded ") + rows + " rows into " + table);
  }
  duckdb.execute("SET threads TO " + std::to_string(options.threads));
}

void validate(QueryReport& report, int number, const Result& result,
              const std::string& answer_path) {
  std::vector<SqlType> types;
  for (size_t i = 0; i < result.column_count(); ++i) types.push_back(result.column_type(i));
  report.mismatch = compare_with_answer(types, result.rows(), read_answer(answer_path),
                                        order_key_columns(number));
  report.valid = report.mismatch.empty();
}

// One query script on floe, in the connection's execution mode: TPC-H query `number`,
// validated against its reference answer when asked. `first_value`: its result's first
// value.
QueryReport run_floe(const std::string& name, const std::vector<std::string>& statements,
                     int number, const RunOptions& options, Connection& connection,
                     const std::string& answer_dir, std::string& first_value) {
  QueryReport report;
  report.query = name;
  try {
    FloeTiming timing = time_floe(connection, statements, options.runs);
    if (timing.result.row_count() && timing.result.column_count())
      first_value = timing.result.value(0, 0).to_string();
    report.compile_ms = timing.compile_ms;
    report.exec_ms = timing.exec_ms;
    report.rows = timing.result.row_count();
    std::string answer_path = answer_dir + "/" + report.query + ".csv";
    if (number && options.validate && std::filesystem::exists(answer_path))
      validate(report, number, timing.result, answer_path);
  } catch (const std::exception& error) {
    report.error = error.what();
  }
  return report;
}

// One query script, in each of RunOptions::modes, then on DuckDB: TPC-H query `number`, or
// (number 0) a file of RunOptions::query_files, whose first value (the queries of bench/sql
// aggregate to one row) is checked against DuckDB's.
std::vector<QueryReport> run_query(const std::string& name, const std::string& path, int number,
                                   const RunOptions& options, Connection& connection,
                                   bench::DuckDbPeer* duckdb, const std::string& answer_dir) {
  std::vector<std::string> statements = split_statements(read_text_file(path));
  std::vector<QueryReport> reports;
  std::vector<std::string> first_values;
  const std::vector<std::string> modes =
      options.modes.empty() ? std::vector<std::string>{""} : options.modes;
  for (const std::string& mode : modes) {
    if (!mode.empty()) connection.query("SET execution_mode = '" + mode + "'");
    first_values.emplace_back();
    reports.push_back(
        run_floe(name, statements, number, options, connection, answer_dir, first_values.back()));
    reports.back().mode = mode;
  }
  if (duckdb == nullptr) return reports;
  std::optional<double> duckdb_ms;
  std::string duckdb_value, duckdb_error;
  try {
    duckdb_ms = time_duckdb(*duckdb, statements, options.runs);
    if (!number) duckdb_value = duckdb->scalar(statements.back());
  } catch (const std::exception& error) {
    duckdb_ms.reset();
    duckdb_error = error.what();
  }
  for (size_t m = 0; m < reports.size(); ++m) {
    QueryReport& report = reports[m];
    report.duckdb_ms = duckdb_ms;
    report.duckdb_error = duckdb_error;
    if (!number && duckdb_ms && report.error.empty()) {
      report.valid = duckdb_value == first_values[m];
      if (!*report.valid)
        report.mismatch = "floe returned " + first_values[m] + ", DuckDB " + duckdb_value;
    }
  }
  return reports;
}

}  // namespace

std::string read_text_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("could not open file \"" + path + "\"");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<int> parse_query_list(const std::string& list) {
  std::vector<int> queries;
  std::stringstream items(list);
  for (std::string item; std::getline(items, item, ',');) {
    std::string_view digits = item;
    if (digits.starts_with('q') || digits.starts_with('Q')) digits.remove_prefix(1);
    int number = 0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (error != std::errc() || end != digits.data() + digits.size() || number < 1 ||
        number > kQueryCount)
      throw Error("invalid query \"" + item + "\": expected 1..22 or q01..q22");
    queries.push_back(number);
  }
  if (queries.empty()) throw Error("empty query list");
  return queries;
}

std::vector<QueryReport> run_tpch(const RunOptions& options) {
  if (options.runs < 1) throw Error("the run count must be at least 1");
  if (options.threads < 1) throw Error("the thread count must be at least 1");
  const std::string schema(schema_sql());
  Database database;
  Connection connection(database);
  connection.query(schema);
  {
    auto statements = database.lock_statements();  // no background freezing meanwhile
    load_tables(database.catalog(), options.scale_factor, options.threads, options.progress,
                options.freeze);
  }
  connection.options().threads = static_cast<uint32_t>(options.threads);
  if (!options.freeze) connection.query("SET freeze_policy = 'never'");
  if (!options.setup.empty()) connection.query(options.setup);

  // From SF 10 on, floe's tables (about 15 GiB at SF 10) and an in-memory DuckDB do not both
  // fit in 24 GiB: DuckDB then keeps its data in a database file with a bounded buffer pool.
  TemporaryDirectory duckdb_directory("duckdb");
  const bool duckdb_on_disk = options.scale_factor >= kDuckDbOnDiskScaleFactor;
  std::unique_ptr<bench::DuckDbPeer> duckdb;
  if (options.duckdb)
    duckdb = bench::DuckDbPeer::open_if_available(
        duckdb_on_disk ? (duckdb_directory.path / "tpch.duckdb").string() : "");
  if (duckdb && duckdb_on_disk) {
    duckdb->execute("SET memory_limit = '" + std::string(kDuckDbMemoryLimit) + "'");
    duckdb->execute("SET preserve_insertion_order = false");  // lets COPY stream in bounded memory
  }
  if (duckdb) load_duckdb(*duckdb, options, schema, database.catalog());

  std::vector<int> queries = options.queries;
  if (queries.empty()) {
    for (int number = 1; number <= kQueryCount; ++number) queries.push_back(number);
  }
  const std::string answer_dir =
      options.tpch_dir + "/answers/" + answer_folder(options.scale_factor);
  std::vector<QueryReport> reports;
  if (!options.query_files.empty()) {
    for (const std::string& file : options.query_files) {
      auto query_reports = run_query(std::filesystem::path(file).stem().string(), file, 0,
                                     options, connection, duckdb.get(), answer_dir);
      reports.insert(reports.end(), query_reports.begin(), query_reports.end());
    }
    return reports;
  }
  for (int number : queries) {
    std::string name = query_name(number);
    auto query_reports = run_query(name, options.tpch_dir + "/queries/" + name + ".sql", number,
                                   options, connection, duckdb.get(), answer_dir);
    reports.insert(reports.end(), query_reports.begin(), query_reports.end());
  }
  return reports;
}

}  // namespace floe::tpch
