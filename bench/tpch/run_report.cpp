#include "bench/tpch/run_report.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace floe::tpch {
namespace {

bool has_duckdb(const std::vector<QueryReport>& reports) {
  for (const QueryReport& report : reports)
    if (report.duckdb_ms || !report.duckdb_error.empty()) return true;
  return false;
}

double floe_total_ms(const QueryReport& report) {
  return report.compile_ms + report.exec_ms;
}

// Sub-microsecond timings are clock noise; keep them from dragging the mean to zero.
double log_ms(double ms) {
  return std::log(std::max(ms, 1e-3));
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string json_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", value);
  return text;
}

std::string valid_text(const QueryReport& report) {
  if (!report.valid) return "-";
  return *report.valid ? "yes" : "NO";
}

}  // namespace

GeometricMeans geometric_means(const std::vector<QueryReport>& reports, const std::string& mode) {
  const bool both = has_duckdb(reports);
  double floe_log_sum = 0, duckdb_log_sum = 0;
  int count = 0;
  for (const QueryReport& report : reports) {
    if (report.mode != mode || !report.error.empty() || (both && !report.duckdb_ms)) continue;
    floe_log_sum += log_ms(floe_total_ms(report));
    if (both) duckdb_log_sum += log_ms(*report.duckdb_ms);
    ++count;
  }
  GeometricMeans means;
  if (count == 0) return means;
  means.floe_ms = std::exp(floe_log_sum / count);
  if (both) means.duckdb_ms = std::exp(duckdb_log_sum / count);
  return means;
}

void print_report_table(std::FILE* out, const std::vector<QueryReport>& reports) {
  const bool duckdb = has_duckdb(reports);
  std::vector<std::string> modes;  // in the order of the reports
  for (const QueryReport& report : reports)
    if (std::find(modes.begin(), modes.end(), report.mode) == modes.end())
      modes.push_back(report.mode);
  const bool with_modes = !modes.empty() && !modes.front().empty();
  std::fprintf(out, "%-6s ", "query");
  if (with_modes) std::fprintf(out, "%-10s ", "mode");
  std::fprintf(out, "%11s %11s %8s %6s", "compile ms", "exec ms", "rows", "valid");
  if (duckdb) std::fprintf(out, " %11s %8s", "duckdb ms", "ratio");
  std::fputc('\n', out);
  for (const QueryReport& report : reports) {
    std::fprintf(out, "%-6s ", report.query.c_str());
    if (with_modes) std::fprintf(out, "%-10s ", report.mode.c_str());
    if (report.error.empty()) {
      std::fprintf(out, "%11.2f %11.2f %8llu %6s", report.compile_ms, report.exec_ms,
                   static_cast<unsigned long long>(report.rows), valid_text(report).c_str());
    } else {
      std::fprintf(out, "%11s %11s %8s %6s", "-", "-", "-", "error");
    }
    if (duckdb) {
      if (report.duckdb_ms) {
        std::fprintf(out, " %11.2f", *report.duckdb_ms);
        if (report.error.empty())
          std::fprintf(out, " %8.2f", floe_total_ms(report) / *report.duckdb_ms);
        else
          std::fprintf(out, " %8s", "-");
      } else {
        std::fprintf(out, " %11s %8s", "error", "-");
      }
    }
    std::fputc('\n', out);
  }
  for (const QueryReport& report : reports) {
    std::string name = report.query + (report.mode.empty() ? "" : " (" + report.mode + ")");
    if (!report.error.empty())
      std::fprintf(out, "%s: floe error: %s\n", name.c_str(), report.error.c_str());
    if (!report.mismatch.empty())
      std::fprintf(out, "%s: wrong answer: %s\n", name.c_str(), report.mismatch.c_str());
    if (!report.duckdb_error.empty() && report.mode == modes.front())
      std::fprintf(out, "%s: duckdb error: %s\n", report.query.c_str(),
                   report.duckdb_error.c_str());
  }
  for (const std::string& mode : modes) {
    GeometricMeans means = geometric_means(reports, mode);
    if (!means.floe_ms) continue;
    std::fprintf(out, "geometric mean of compile + exec%s: floe %.2f ms",
                 mode.empty() ? "" : (" (" + mode + ")").c_str(), *means.floe_ms);
    if (means.duckdb_ms)
      std::fprintf(out, ", duckdb %.2f ms, ratio %.2f", *means.duckdb_ms,
                   *means.floe_ms / *means.duckdb_ms);
    std::fputc('\n', out);
  }
}

void write_report_json(std::ostream& out, const std::vector<QueryReport>& reports) {
  out << "[";
  for (size_t i = 0; i < reports.size(); ++i) {
    const QueryReport& report = reports[i];
    out << (i ? ",\n " : "\n ") << "{\"query\": " << json_string(report.query);
    if (!report.mode.empty()) out << ", \"mode\": " << json_string(report.mode);
    out << ", \"compile_ms\": " << json_number(report.compile_ms)
        << ", \"exec_ms\": " << json_number(report.exec_ms) << ", \"rows\": " << report.rows
        << ", \"valid\": " << (report.valid ? (*report.valid ? "true" : "false") : "null");
    if (!report.mismatch.empty()) out << ", \"mismatch\": " << json_string(report.mismatch);
    if (!report.error.empty()) out << ", \"error\": " << json_string(report.error);
    if (report.duckdb_ms) {
      out << ", \"duckdb_ms\": " << json_number(*report.duckdb_ms);
      if (report.error.empty())
        out << ", \"ratio\": " << json_number(floe_total_ms(report) / *report.duckdb_ms);
    }
    if (!report.duckdb_error.empty())
      out << ", \"duckdb_error\": " << json_string(report.duckdb_error);
    out << "}";
  }
  out << "\n]\n";
}

}  // namespace floe::tpch
