#include "engine/sql/distinct_on.h"

#include "engine/plan/expression_utils.h"
#include "storage/error.h"

namespace floe::sql {
namespace {

using plan::ExprPtr;

// PostgreSQL's transformDistinctOnClause: the ORDER BY keys that are DISTINCT ON keys must
// come first, and once an ORDER BY key is not one, every DISTINCT ON key must have come.
void check_order(const std::vector<ExprPtr>& keys, const std::vector<int>& locations,
                 const std::vector<plan::SortKey>& order) {
  auto fail = [&](size_t key) {
    throw Error("SELECT DISTINCT ON expressions must match initial ORDER BY expressions",
                locations[key]);
  };
  std::vector<bool> matched(keys.size(), false);
  bool skipped = false;
  for (const plan::SortKey& sort : order) {
    bool found = false;
    for (size_t k = 0; k < keys.size(); ++k) {
      if (!expr_equal(*keys[k], *sort.expr)) continue;
      if (skipped) fail(k);
      matched[k] = found = true;
    }
    skipped |= !found;
  }
  for (size_t k = 0; k < keys.size() && skipped; ++k)
    if (!matched[k]) fail(k);
}

}  // namespace

plan::LogicalOpPtr first_row_per_group(plan::LogicalOpPtr input, std::vector<ExprPtr> keys,
                                       const std::vector<int>& locations,
                                       std::vector<plan::SortKey> order,
                                       plan::ColumnRegistry& registry) {
  check_order(keys, locations, order);
  auto window = std::make_unique<plan::WindowOp>();
  window->partitions = std::move(keys);
  window->order = std::move(order);
  plan::WindowOp::Function row_number{};
  row_number.id = registry.add({SqlType::big_int(), false, "row_number"});
  row_number.kind = WindowFunctionKind::kRowNumber;
  row_number.frame.unit = WindowFrame::Unit::kRows;
  window->functions.push_back(std::move(row_number));
  window->children.push_back(std::move(input));

  std::vector<ExprPtr> operands;
  operands.push_back(plan::make_column(window->functions[0].id, SqlType::big_int(), false));
  operands.push_back(plan::make_constant(Value::big_int(1)));
  auto filter = std::make_unique<plan::FilterOp>();
  filter->predicate = plan::make_expr(plan::ExprKind::kCompare, SqlType::boolean(),
                                      std::move(operands));
  filter->predicate->compare_op = plan::CompareOp::kEqual;
  filter->predicate->nullable = false;
  filter->children.push_back(std::move(window));
  return filter;
}

}  // namespace floe::sql
