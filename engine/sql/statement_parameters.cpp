#include "engine/sql/statement_parameters.h"

#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "storage/error.h"

namespace floe::sql {

namespace {
thread_local StatementParameters* current_parameters = nullptr;
}

StatementParameters* StatementParameters::current() { return current_parameters; }

StatementParameters::Scope::Scope(StatementParameters& parameters)
    : previous_(current_parameters) {
  current_parameters = &parameters;
}

StatementParameters::Scope::~Scope() { current_parameters = previous_; }

plan::ExprPtr StatementParameters::bind(int number, int location) {
  StatementParameters* parameters = current();
  if (!parameters || number < 1)
    throw Error("there is no parameter $" + std::to_string(number), location);
  return parameters->reference(static_cast<uint32_t>(number - 1), location);
}

plan::ExprPtr StatementParameters::reference(uint32_t index, int location) {
  if (index >= types_.size()) types_.resize(index + 1, SqlType::unknown());
  if (index >= used_.size()) used_.resize(index + 1, false);
  used_[index] = true;
  plan::ExprPtr expr;
  if (constants_) {
    if (index >= values_.size())
      throw Error("there is no parameter $" + std::to_string(index + 1), location);
    expr = plan::make_constant(values_[index]);
  } else {
    expr = plan::make_parameter(index, types_[index]);
  }
  expr->position = location;
  return expr;
}

void StatementParameters::deduce(uint32_t index, const SqlType& type) {
  if (index < types_.size() && types_[index].id == TypeId::kUnknown) types_[index] = type;
}

std::vector<SqlType> StatementParameters::final_types() const {
  std::vector<SqlType> types = types_;
  for (size_t i = 0; i < types.size(); ++i) {
    if (types[i].id != TypeId::kUnknown) continue;
    if (i >= used_.size() || !used_[i])
      throw Error("could not determine data type of parameter $" + std::to_string(i + 1));
    types[i] = SqlType::text();
  }
  return types;
}

size_t highest_parameter(std::string_view sql) {
  std::string text(sql);
  PgQueryScanResult scanned = pg_query_scan(text.c_str());
  if (scanned.error) {  // the parser reports it
    pg_query_free_scan_result(scanned);
    return 0;
  }
  PgQuery__ScanResult* result = pg_query__scan_result__unpack(
      nullptr, scanned.pbuf.len, reinterpret_cast<const uint8_t*>(scanned.pbuf.data));
  pg_query_free_scan_result(scanned);
  if (!result) throw Error("could not decode the scanned tokens");
  size_t highest = 0;
  for (size_t i = 0; i < result->n_tokens; ++i) {
    const PgQuery__ScanToken& token = *result->tokens[i];
    if (token.token != PG_QUERY__TOKEN__PARAM) continue;
    // "$n": the digits after the dollar sign.
    highest = std::max(highest, std::strtoul(text.c_str() + token.start + 1, nullptr, 10));
  }
  pg_query__scan_result__free_unpacked(result, nullptr);
  return highest;
}

}  // namespace floe::sql
