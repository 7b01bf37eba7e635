// Compares a TPC-H query result with a reference answer under the rules of
// shared/tpch/README.md: equal row counts; integers, strings (without CHAR padding) and
// dates exactly equal; other numbers within 1e-6 relative or 0.01 absolute; rows may be
// reordered only among rows whose ORDER BY keys are equal.
#pragma once

#include <string>
#include <vector>

#include "storage/value.h"

namespace floe::tpch {

struct Answer {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

// Reads a '|'-separated answer file with a header row. Throws floe::Error.
Answer read_answer(const std::string& path);

// Output positions of the ORDER BY keys of TPC-H query `number` (1..22).
std::vector<size_t> order_key_columns(int number);

// Empty when the result matches, else a description of the first difference.
std::string compare_with_answer(const std::vector<SqlType>& types,
                                const std::vector<std::vector<Value>>& rows, const Answer& answer,
                                const std::vector<size_t>& order_keys);

}  // namespace floe::tpch
