#include "bench/tpch/query_timing.h"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "shell/statement_splitter.h"

namespace floe::tpch {

std::vector<std::string> split_statements(std::string_view script) {
  StatementSplitter splitter;
  std::istringstream lines{std::string(script)};
  for (std::string line; std::getline(lines, line);) splitter.add_line(line);
  std::vector<std::string> statements = splitter.take_statements();
  std::string rest = splitter.take_rest();
  if (!rest.empty()) statements.push_back(std::move(rest));
  return statements;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

FloeTiming time_floe(Connection& connection, const std::vector<std::string>& statements, int runs) {
  FloeTiming timing;
  std::vector<double> compile_ms, exec_ms;
  for (int run = 0; run < runs; ++run) {
    double compile = 0, exec = 0;
    for (const std::string& statement : statements) {
      Result result = connection.query(statement);
      const PhaseTimings& t = result.timings();
      compile += t.parse_ms + t.plan_ms + t.codegen_ms + t.compile_ms;
      exec += t.execute_ms;
      if (result.has_rows()) timing.result = std::move(result);
    }
    compile_ms.push_back(compile);
    exec_ms.push_back(exec);
  }
  timing.compile_ms = median(compile_ms);
  timing.exec_ms = median(exec_ms);
  return timing;
}

double time_duckdb(bench::DuckDbPeer& duckdb, const std::vector<std::string>& statements,
                   int runs) {
  std::vector<double> total_ms;
  for (int run = 0; run < runs; ++run) {
    auto start = std::chrono::steady_clock::now();
    for (const std::string& statement : statements) duckdb.execute(statement);
    total_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  return median(total_ms);
}

}  // namespace floe::tpch
