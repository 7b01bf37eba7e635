// Runs parsed sqllogictest records against a fresh in-memory floe database.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "storage/value.h"
#include "tests/sqllogictest/slt_parser.h"

namespace floe {

struct SltSummary {
  int records = 0;
  int failures = 0;
};

class SltRunner {
 public:
  // `setup`: SQL run on each file's fresh connection before its records (a setting to run
  // the whole suite under, e.g. "set scan_mode = 'jit'").
  SltRunner(std::ostream& report, std::string setup) : report_(report), setup_(std::move(setup)) {}

  // Runs one file; failures are written to the report with file:line, SQL, expected and actual.
  SltSummary run_file(const std::string& path);

 private:
  std::ostream& report_;
  std::string setup_;
};

// The text of one result value as the tests spell it: NULL, (empty) for '', else floe's
// text output.
std::string slt_value_text(const Value& value);

// Expected result lines flattened to values: tab-separated rows (DuckDB) or one value per
// line (SQLite) both work.
std::vector<std::string> flatten_expected(const std::vector<std::string>& lines);

}  // namespace floe
