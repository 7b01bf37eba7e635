// Functions that unnested subqueries and LATERAL joins call (engine/plan/dependent_join.h).
// They are internal (SQL cannot call them), but like every registry function one
// implementation serves generated code and constant folding.
#include "runtime/function_adapter.h"
#include "runtime/functions/function_families.h"
#include "storage/error.h"

namespace floe {

namespace {

// A scalar subquery that gave an outer row `rows` rows: PostgreSQL's error for more than one.
bool single_row(int64_t rows) {
  if (rows > 1) throw Error("more than one row returned by a subquery used as an expression");
  return true;
}

}  // namespace

void register_subquery_functions(FunctionRegistry& r) {
  r.add_internal(std::string(kSingleRowFunction), {TypeId::kBigInt}, returns(SqlType::boolean()),
                 typed_function<single_row>);
}

}  // namespace floe
