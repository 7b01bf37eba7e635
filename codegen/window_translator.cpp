// Window functions. The sink appends each tuple to a RowBuffer, in the row the plan layer
// laid out (engine/plan/window_layout.h): the columns read above the window, the partition
// and ORDER BY keys, the functions' arguments, a hash of the partition keys, and a field for
// each function's result. It provides the comparators and, for window
// aggregates, update/merge/finalize functions over the aggregate states GROUP BY uses
// (aggregate_states.h), so both compute the same. The runtime (window_evaluator.h) then
// partitions, sorts and evaluates the rows; the materialized source reads them back.
#include <array>
#include <memory>
#include <optional>

#include "codegen/aggregate_states.h"
#include "codegen/key_codegen.h"
#include "codegen/row_compare.h"
#include "codegen/translator.h"

namespace floe::codegen {
namespace {

using plan::WindowOp;

class WindowSink : public Consumer {
 public:
  WindowSink(PipelineEnv& env, const WindowOp& window)
      : env_(env),
        window_(window),
        rows_(env.materialization(window)),
        fields_(*rows_.window) {
    std::vector<RowKey> partition_keys;
    std::vector<RowKey> order_keys;
    for (size_t k = 0; k < window.partitions.size(); ++k)
      partition_keys.push_back({fields_.partition_fields[k], window.partitions[k]->type});
    for (size_t k = 0; k < window.order.size(); ++k) {
      const plan::SortKey& key = window.order[k];
      order_keys.push_back(
          {fields_.order_fields[k], key.expr->type, key.descending, key.nulls_first});
    }
    auto& pipeline = *env.pipeline;
    std::vector<RowKey> all_keys = partition_keys;
    all_keys.insert(all_keys.end(), order_keys.begin(), order_keys.end());
    pipeline.compare_function = emit_row_comparator(env, "window_order", rows_.layout, all_keys);
    pipeline.window_same_partition =
        emit_row_comparator(env, "window_partition", rows_.layout, partition_keys);
    pipeline.window_peers = emit_row_comparator(env, "window_peers", rows_.layout, order_keys);
    pipeline.window.partitioned = fields_.hash_field.has_value();
    if (pipeline.window.partitioned)
      pipeline.window.hash_offset = rows_.layout.offset(*fields_.hash_field);
    pipeline.window.sort_keys = integer_sort_keys(order_keys);
    pipeline.window.order_key_count = order_keys.size();
    for (size_t f = 0; f < window.functions.size(); ++f) {
      // RANGE offset bounds: the bound's field against the range key's, by comparators.
      const plan::WindowLayout::Function& function = fields_.functions[f];
      PipelineProgram::WindowRangeBounds bounds;
      std::string* names[] = {&bounds.start, &bounds.end};
      for (size_t i = 0; i < 2; ++i) {
        if (!function.bound_fields[i]) continue;
        const plan::SortKey& key = window.order[0];
        RowKey range_key{function.range_key_field, window.functions[f].range_key->type,
                         key.descending, key.nulls_first, function.bound_fields[i]};
        *names[i] = emit_row_comparator(
            env, (i == 0 ? "window_range_start" : "window_range_end") + std::to_string(f),
            rows_.layout, {range_key});
      }
      pipeline.window_range_bounds.push_back(std::move(bounds));
      pipeline.window.functions.push_back(function_spec(f));
      pipeline.window_aggregates.push_back(window.functions[f].kind ==
                                                   WindowFunctionKind::kAggregate
                                               ? emit_aggregate(f)
                                               : PipelineProgram::WindowAggregateFunctions{});
    }
  }

  void consume(Tuple& tuple, llvm::BasicBlock*) override {
    auto& b = env_.builder();
    auto* row = b.CreateCall(env_.codegen.runtime_function("floe_rt_rows_append"),
                             {env_.slot_pointer(rows_.slot), env_.codegen.worker()}, "window_row");
    auto resolve = resolver_for(tuple);
    std::vector<SqlValue> values(rows_.layout.field_count());
    for (size_t c = 0; c < fields_.passed_columns; ++c)
      values[rows_.columns[c].field] = resolve(rows_.columns[c].id);
    for (const auto& [expr, field] : fields_.computed)
      values[field] = env_.expressions.compile(*expr, resolve);
    for (size_t field = 0; field < values.size(); ++field) {
      if (values[field].value) store_field(env_.codegen, row, rows_.layout, field, values[field]);
    }
    if (!fields_.hash_field) return;
    std::vector<SqlValue> keys;
    std::vector<SqlType> types;
    for (size_t k = 0; k < window_.partitions.size(); ++k) {
      keys.push_back(values[fields_.partition_fields[k]]);
      types.push_back(window_.partitions[k]->type);
    }
    store_field(env_.codegen, row, rows_.layout, *fields_.hash_field,
                {hash_keys(env_, keys, types), nullptr});
  }

 private:
  WindowField window_field(size_t field) const {
    const RowLayout& layout = rows_.layout;
    WindowField result;
    result.offset = layout.offset(field);
    result.null_offset =
        layout.field(field).nullable ? layout.null_offset(field) : WindowField::kNeverNull;
    result.size = static_cast<uint32_t>(physical_size(layout.field(field).type.physical()));
    return result;
  }

  // The leading ORDER BY keys (up to two) whose values are integers: the evaluator's sort
  // compares them without the comparator.
  std::vector<WindowSortKey> integer_sort_keys(const std::vector<RowKey>& keys) const {
    std::vector<WindowSortKey> result;
    for (const RowKey& key : keys) {
      PhysicalType physical = key.type.physical();
      bool integer = physical == PhysicalType::kBool || physical == PhysicalType::kInt16 ||
                     physical == PhysicalType::kInt32 || physical == PhysicalType::kInt64;
      if (!integer || result.size() == 2) break;
      result.push_back({window_field(key.field), key.descending, key.nulls_first});
    }
    return result;
  }

  WindowFunctionSpec function_spec(size_t f) const {
    const auto& function = window_.functions[f];
    const std::vector<size_t>& arguments = fields_.functions[f].argument_fields;
    WindowFunctionSpec spec;
    spec.kind = function.kind;
    spec.frame = function.frame;
    spec.result = window_field(fields_.functions[f].result_field);
    switch (function.kind) {
      case WindowFunctionKind::kNtile:
        spec.has_parameter = true;
        spec.parameter = window_field(arguments[0]);
        break;
      case WindowFunctionKind::kLag:
      case WindowFunctionKind::kLead:
      case WindowFunctionKind::kFirstValue:
      case WindowFunctionKind::kLastValue:
      case WindowFunctionKind::kNthValue:
        spec.value = window_field(arguments[0]);
        spec.has_parameter = arguments.size() > 1;
        if (spec.has_parameter) spec.parameter = window_field(arguments[1]);
        spec.has_default = arguments.size() > 2;
        if (spec.has_default) spec.default_value = window_field(arguments[2]);
        break;
      default:
        break;
    }
    return spec;
  }

  // The aggregate's update, merge and finalize functions over its own state row.
  PipelineProgram::WindowAggregateFunctions emit_aggregate(size_t f) {
    const auto& function = window_.functions[f];
    const std::vector<size_t>& arguments = fields_.functions[f].argument_fields;
    plan::AggregateOp aggregate;
    aggregate.aggregates.push_back({function.id, function.aggregate,
                                    arguments.empty() ? nullptr : function.arguments[0]->clone(),
                                    false});
    AggregateStates states(env_, aggregate);
    WindowFunctionSpec& spec = env_.pipeline->window.functions[f];
    spec.state_size = states.layout().size();
    spec.mergeable = !plan::is_collected(function.aggregate);
    auto& b = env_.builder();
    auto begin = [&](const std::string& kind) {
      auto name = env_.function_name(kind + std::to_string(f));
      auto* generated = env_.create_function(
          name, b.getInt1Ty(), {b.getPtrTy(), b.getPtrTy(), b.getPtrTy(), b.getPtrTy()});
      env_.codegen.begin_function(generated, nullptr, generated->getArg(0));
      b.SetInsertPoint(llvm::BasicBlock::Create(b.getContext(), "entry", generated));
      return std::make_pair(name, generated);
    };
    PipelineProgram::WindowAggregateFunctions names;
    auto [update, update_function] = begin("window_update");
    AggregateInput input;
    if (!arguments.empty())
      input.argument =
          load_field(env_.codegen, update_function->getArg(2), rows_.layout, arguments[0]);
    if (arguments.size() > 1)  // string_agg's delimiter
      input.delimiter =
          load_field(env_.codegen, update_function->getArg(2), rows_.layout, arguments[1]);
    states.update(update_function->getArg(1), 0, input);
    b.CreateRet(b.getTrue());
    names.update = update;

    auto [merge, merge_function] = begin("window_merge");
    states.merge(merge_function->getArg(1), merge_function->getArg(2), 0);
    b.CreateRet(b.getTrue());
    names.merge = merge;

    auto [finalize, finalize_function] = begin("window_finalize");
    store_field(env_.codegen, finalize_function->getArg(2), rows_.layout,
                fields_.functions[f].result_field,
                states.finalize(finalize_function->getArg(1), 0));
    b.CreateRet(b.getTrue());
    names.finalize = finalize;
    return names;
  }

  PipelineEnv& env_;
  const WindowOp& window_;
  const Materialization& rows_;          // laid out by the plan layer (window_layout.h)
  const plan::WindowLayout& fields_;
};

}  // namespace

std::unique_ptr<Consumer> make_window_sink(PipelineEnv& env, const plan::WindowOp& window) {
  return std::make_unique<WindowSink>(env, window);
}

}  // namespace floe::codegen
