#include "bench/tpch/answer_check.h"

#include <cmath>
#include <fstream>

#include "storage/error.h"

namespace floe::tpch {

namespace {

std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    size_t bar = line.find('|', start);
    fields.push_back(line.substr(start, bar == std::string::npos ? std::string::npos : bar - start));
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  return fields;
}

std::string without_trailing_blanks(std::string text) {
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

bool numbers_agree(double actual, double expected) {
  double difference = std::fabs(actual - expected);
  return difference <= std::max(1e-6 * std::fabs(expected), 0.01);
}

bool field_matches(const Value& actual, const SqlType& type, const std::string& expected) {
  if (actual.is_null() || expected == "NULL") return actual.is_null() && expected == "NULL";
  if (type.id == TypeId::kDecimal || type.id == TypeId::kDouble) {
    char* end = nullptr;
    double expected_number = std::strtod(expected.c_str(), &end);
    if (end == expected.c_str()) return false;
    double actual_number = cast_value(actual, SqlType::double_type()).as_double();
    return numbers_agree(actual_number, expected_number);
  }
  if (type.is_string()) return without_trailing_blanks(actual.to_string()) == without_trailing_blanks(expected);
  return actual.to_string() == expected;
}

bool row_matches(const std::vector<SqlType>& types, const std::vector<Value>& actual,
                 const std::vector<std::string>& expected) {
  if (actual.size() != expected.size()) return false;
  for (size_t i = 0; i < actual.size(); ++i)
    if (!field_matches(actual[i], types[i], expected[i])) return false;
  return true;
}

std::string row_text(const std::vector<Value>& row) {
  std::string out;
  for (size_t i = 0; i < row.size(); ++i) out += (i ? "|" : "") + row[i].to_string();
  return out;
}

std::string row_text(const std::vector<std::string>& row) {
  std::string out;
  for (size_t i = 0; i < row.size(); ++i) out += (i ? "|" : "") + row[i];
  return out;
}

bool same_keys(const std::vector<std::string>& a, const std::vector<std::string>& b,
               const std::vector<size_t>& keys) {
  for (size_t key : keys)
    if (without_trailing_blanks(a[key]) != without_trailing_blanks(b[key])) return false;
  return true;
}

}  // namespace

Answer read_answer(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open answer file " + path);
  Answer answer;
  std::string line;
  if (std::getline(in, line)) answer.header = split_fields(line);
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    answer.rows.push_back(split_fields(line));
  }
  return answer;
}

std::vector<size_t> order_key_columns(int number) {
  static const std::vector<std::vector<size_t>> kKeys = {
      {0, 1}, {0, 2, 1, 3}, {1, 2}, {0}, {1}, {}, {0, 1, 2}, {0}, {0, 1}, {2}, {1},
      {0},    {1, 0},       {},     {0}, {3, 0, 1, 2}, {}, {4, 3}, {}, {0}, {1, 0}, {0}};
  return kKeys.at(static_cast<size_t>(number - 1));
}

std::string compare_with_answer(const std::vector<SqlType>& types,
                                const std::vector<std::vector<Value>>& rows, const Answer& answer,
                                const std::vector<size_t>& order_keys) {
  if (rows.size() != answer.rows.size())
    return "row count " + std::to_string(rows.size()) + ", expected " +
           std::to_string(answer.rows.size());
  if (!rows.empty() && rows[0].size() != answer.rows[0].size())
    return "column count " + std::to_string(rows[0].size()) + ", expected " +
           std::to_string(answer.rows[0].size());
  // Walk blocks of expected rows with equal ORDER BY keys; within a block any order is fine.
  size_t begin = 0;
  while (begin < rows.size()) {
    size_t end = begin + 1;
    if (!order_keys.empty())
      while (end < rows.size() && same_keys(answer.rows[begin], answer.rows[end], order_keys)) ++end;
    std::vector<bool> used(end - begin, false);
    for (size_t expected = begin; expected < end; ++expected) {
      bool found = false;
      for (size_t actual = begin; actual < end && !found; ++actual) {
        if (used[actual - begin] || !row_matches(types, rows[actual], answer.rows[expected])) continue;
        used[actual - begin] = found = true;
      }
      if (!found)
        return "row " + std::to_string(expected + 1) + ": expected " +
               row_text(answer.rows[expected]) + ", got " + row_text(rows[expected]);
    }
    begin = end;
  }
  return "";
}

}  // namespace floe::tpch
