// The outcome of `floe-tpch run` per query, printed as a table and written as JSON.
#pragma once

#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace floe::tpch {

struct QueryReport {
  std::string query;  // "q01"
  std::string mode;   // floe's execution mode when RunOptions::modes named it, else empty
  double compile_ms = 0;
  double exec_ms = 0;  // median
  uint64_t rows = 0;
  std::optional<bool> valid;        // empty when there is no answer to check against
  std::string mismatch;             // the first difference when valid == false
  std::string error;                // floe failed (e.g. "not supported: ..."); timings are 0
  std::optional<double> duckdb_ms;  // median compile + exec, when DuckDB ran the query
  std::string duckdb_error;
};

// Geometric means of compile + exec over the queries both systems ran (floe alone when no
// query has DuckDB timings), of the reports of one execution mode. Empty when no query
// qualifies.
struct GeometricMeans {
  std::optional<double> floe_ms;
  std::optional<double> duckdb_ms;
};
GeometricMeans geometric_means(const std::vector<QueryReport>& reports,
                               const std::string& mode = "");

void print_report_table(std::FILE* out, const std::vector<QueryReport>& reports);

// A JSON array with one object per query (and mode): query, mode when named, compile_ms, exec_ms, rows, valid
// (true/false/null), and mismatch, error, duckdb_ms, duckdb_error, ratio when present.
void write_report_json(std::ostream& out, const std::vector<QueryReport>& reports);

}  // namespace floe::tpch
