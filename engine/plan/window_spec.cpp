#include "engine/plan/window_spec.h"

#include "engine/plan/aggregate_layout.h"

namespace floe::plan {
namespace {

WindowField window_field(const RowLayout& layout, size_t field) {
  WindowField result;
  result.offset = layout.offset(field);
  result.null_offset =
      layout.field(field).nullable ? layout.null_offset(field) : WindowField::kNeverNull;
  result.size = static_cast<uint32_t>(physical_size(layout.field(field).type.physical()));
  return result;
}

// The leading ORDER BY keys (up to two) whose values are integers: the evaluator's sort
// compares them without the comparator.
std::vector<WindowSortKey> integer_sort_keys(const WindowOp& window, const RowLayout& layout,
                                             const WindowLayout& fields) {
  std::vector<WindowSortKey> result;
  for (size_t k = 0; k < window.order.size() && result.size() < 2; ++k) {
    const SortKey& key = window.order[k];
    PhysicalType physical = key.expr->type.physical();
    bool integer = physical == PhysicalType::kBool || physical == PhysicalType::kInt16 ||
                   physical == PhysicalType::kInt32 || physical == PhysicalType::kInt64;
    if (!integer) break;
    result.push_back(
        {window_field(layout, fields.order_fields[k]), key.descending, key.nulls_first});
  }
  return result;
}

WindowFunctionSpec function_spec(const WindowOp::Function& function,
                                 const WindowLayout::Function& fields, const RowLayout& layout,
                                 const ColumnRegistry& registry) {
  const std::vector<size_t>& arguments = fields.argument_fields;
  WindowFunctionSpec spec;
  spec.kind = function.kind;
  spec.frame = function.frame;
  spec.result = window_field(layout, fields.result_field);
  switch (function.kind) {
    case WindowFunctionKind::kNtile:
      spec.has_parameter = true;
      spec.parameter = window_field(layout, arguments[0]);
      break;
    case WindowFunctionKind::kLag:
    case WindowFunctionKind::kLead:
    case WindowFunctionKind::kFirstValue:
    case WindowFunctionKind::kLastValue:
    case WindowFunctionKind::kNthValue:
      spec.value = window_field(layout, arguments[0]);
      spec.has_parameter = arguments.size() > 1;
      if (spec.has_parameter) spec.parameter = window_field(layout, arguments[1]);
      spec.has_default = arguments.size() > 2;
      if (spec.has_default) spec.default_value = window_field(layout, arguments[2]);
      break;
    case WindowFunctionKind::kAggregate:
      spec.state_size = describe_aggregate(*window_aggregate(function), registry).layout.size();
      spec.mergeable = !is_collected(function.aggregate);
      break;
    default:
      break;
  }
  return spec;
}

}  // namespace

WindowSpec window_spec(const WindowOp& window, const Materialization& rows,
                       const ColumnRegistry& registry) {
  const WindowLayout& fields = *rows.window;
  WindowSpec spec;
  spec.partitioned = fields.hash_field.has_value();
  if (spec.partitioned) spec.hash_offset = rows.layout.offset(*fields.hash_field);
  spec.sort_keys = integer_sort_keys(window, rows.layout, fields);
  spec.order_key_count = window.order.size();
  for (size_t f = 0; f < window.functions.size(); ++f)
    spec.functions.push_back(
        function_spec(window.functions[f], fields.functions[f], rows.layout, registry));
  return spec;
}

std::unique_ptr<AggregateOp> window_aggregate(const WindowOp::Function& function) {
  auto aggregate = std::make_unique<AggregateOp>();
  aggregate->aggregates.push_back(
      {function.id, function.aggregate,
       function.arguments.empty() ? nullptr : function.arguments[0]->clone(), false});
  return aggregate;
}

}  // namespace floe::plan
