// Functions that unnested subqueries and LATERAL joins call (engine/plan/dependent_join.h).
// They are internal (SQL cannot call them), but like every registry function one
// implementation serves generated code and constant folding.
#include "runtime/function_adapter.h"
#include "runtime/functions/function_families.h"
#include "runtime/series.h"
#include "storage/error.h"

namespace floe {

namespace {

// A scalar subquery that gave an outer row `rows` rows: PostgreSQL's error for more than one.
bool single_row(int64_t rows) {
  if (rows > 1) throw Error("more than one row returned by a subquery used as an expression");
  return true;
}

// The number of values of an integer generate_series(start, stop, step), with its errors.
int64_t integer_series_length(int64_t start, int64_t stop, int64_t step) {
  return static_cast<int64_t>(series_length(start, stop, step));
}

}  // namespace

void register_subquery_functions(FunctionRegistry& r) {
  r.add_internal(std::string(kSingleRowFunction), {TypeId::kBigInt}, returns(SqlType::boolean()),
        typed_function<single_row>);
  r.add_internal(std::string(kSeriesLengthFunction), {TypeId::kBigInt, TypeId::kBigInt, TypeId::kBigInt},
        returns(SqlType::big_int()), typed_function<integer_series_length>);
}

}  // namespace floe
