// Window functions. The sink appends each tuple to a RowBuffer: the columns read above the
// window, the partition and ORDER BY keys, the functions' arguments, a hash of the partition
// keys, and a field for each function's result. It provides the comparators and, for window
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
  WindowSink(PipelineEnv& env, const WindowOp& window) : env_(env), window_(window) {
    Materialization rows;
    for (auto id : plan::output_columns(*window.children[0])) {
      if (!env.is_used(id)) continue;
      rows.columns.push_back({id, fields_.size()});
      fields_.push_back({env.column(id).type, env.column(id).nullable});
    }
    passed_ = rows.columns;
    std::vector<RowKey> partition_keys;
    std::vector<RowKey> order_keys;
    for (const auto& partition : window.partitions) {
      partition_key_fields_.push_back(field_for(*partition));
      partition_keys.push_back({partition_key_fields_.back(), partition->type});
    }
    for (const auto& key : window.order)
      order_keys.push_back({field_for(*key.expr), key.expr->type, key.descending, key.nulls_first});
    if (!window.partitions.empty()) hash_field_ = add_field({SqlType::big_int(), false});
    std::vector<std::vector<size_t>> argument_fields;
    // RANGE offset bounds: fields of the key and of the bounds, compared by comparators.
    std::vector<std::array<std::optional<RowKey>, 2>> range_keys;
    for (const auto& function : window.functions) {
      argument_fields.emplace_back();
      for (const auto& argument : function.arguments)
        argument_fields.back().push_back(field_for(*argument));
      range_keys.emplace_back();
      const plan::ExprPtr* bounds[] = {&function.start_bound, &function.end_bound};
      for (size_t i = 0; i < 2; ++i) {
        if (!*bounds[i]) continue;
        const plan::SortKey& key = window.order[0];
        range_keys.back()[i] = RowKey{field_for(*function.range_key), function.range_key->type,
                                      key.descending, key.nulls_first, field_for(**bounds[i])};
      }
      result_fields_.push_back(
          add_field({env.column(function.id).type, env.column(function.id).nullable}));
      rows.columns.push_back({function.id, result_fields_.back()});
    }
    rows.layout = RowLayout(fields_);
    rows.slot = env.window_slot(window, rows.layout.size());
    rows_ = &(env.materializations[&window] = std::move(rows));

    auto& pipeline = *env.pipeline;
    std::vector<RowKey> all_keys = partition_keys;
    all_keys.insert(all_keys.end(), order_keys.begin(), order_keys.end());
    pipeline.compare_function = emit_row_comparator(env, "window_order", rows_->layout, all_keys);
    pipeline.window_same_partition =
        emit_row_comparator(env, "window_partition", rows_->layout, partition_keys);
    pipeline.window_peers = emit_row_comparator(env, "window_peers", rows_->layout, order_keys);
    pipeline.window.partitioned = !window.partitions.empty();
    if (pipeline.window.partitioned)
      pipeline.window.hash_offset = rows_->layout.offset(hash_field_);
    pipeline.window.sort_keys = integer_sort_keys(order_keys);
    pipeline.window.order_key_count = order_keys.size();
    for (size_t f = 0; f < window.functions.size(); ++f) {
      PipelineProgram::WindowRangeBounds bounds;
      std::string* names[] = {&bounds.start, &bounds.end};
      for (size_t i = 0; i < 2; ++i) {
        if (range_keys[f][i])
          *names[i] = emit_row_comparator(
              env, (i == 0 ? "window_range_start" : "window_range_end") + std::to_string(f),
              rows_->layout, {*range_keys[f][i]});
      }
      pipeline.window_range_bounds.push_back(std::move(bounds));
      pipeline.window.functions.push_back(function_spec(f, argument_fields[f]));
      pipeline.window_aggregates.push_back(window.functions[f].kind ==
                                                   WindowFunctionKind::kAggregate
                                               ? emit_aggregate(f, argument_fields[f])
                                               : PipelineProgram::WindowAggregateFunctions{});
    }
  }

  void consume(Tuple& tuple, llvm::BasicBlock*) override {
    auto& b = env_.builder();
    auto* row = b.CreateCall(env_.codegen.runtime_function("floe_rt_rows_append"),
                             {env_.slot_pointer(rows_->slot), env_.codegen.worker()}, "window_row");
    auto resolve = resolver_for(tuple);
    std::vector<SqlValue> values(fields_.size());
    for (const auto& column : passed_) values[column.field] = resolve(column.id);
    for (const auto& [expr, field] : computed_)
      values[field] = env_.expressions.compile(*expr, resolve);
    for (size_t field = 0; field < fields_.size(); ++field) {
      if (values[field].value) store_field(env_.codegen, row, rows_->layout, field, values[field]);
    }
    if (window_.partitions.empty()) return;
    std::vector<SqlValue> keys;
    std::vector<SqlType> types;
    for (size_t k = 0; k < window_.partitions.size(); ++k) {
      keys.push_back(values[partition_key_fields_[k]]);
      types.push_back(window_.partitions[k]->type);
    }
    store_field(env_.codegen, row, rows_->layout, hash_field_,
                {hash_keys(env_, keys, types), nullptr});
  }

 private:
  size_t add_field(RowField field) {
    fields_.push_back(std::move(field));
    return fields_.size() - 1;
  }

  // The field holding `expr`'s value: a stored column's own, or a new computed one.
  size_t field_for(const plan::Expr& expr) {
    if (expr.kind == plan::ExprKind::kColumn) {
      for (const auto& column : passed_)
        if (column.id == expr.column) return column.field;
    }
    for (const auto& [computed, field] : computed_)
      if (computed == &expr) return field;
    size_t field = add_field({expr.type, expr.nullable});
    computed_.push_back({&expr, field});
    return field;
  }

  WindowField window_field(size_t field) const {
    const RowLayout& layout = rows_->layout;
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

  WindowFunctionSpec function_spec(size_t f, const std::vector<size_t>& arguments) const {
    const auto& function = window_.functions[f];
    WindowFunctionSpec spec;
    spec.kind = function.kind;
    spec.frame = function.frame;
    spec.result = window_field(result_fields_[f]);
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
  PipelineProgram::WindowAggregateFunctions emit_aggregate(size_t f,
                                                           const std::vector<size_t>& arguments) {
    const auto& function = window_.functions[f];
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
          load_field(env_.codegen, update_function->getArg(2), rows_->layout, arguments[0]);
    if (arguments.size() > 1)  // string_agg's delimiter
      input.delimiter =
          load_field(env_.codegen, update_function->getArg(2), rows_->layout, arguments[1]);
    states.update(update_function->getArg(1), 0, input);
    b.CreateRet(b.getTrue());
    names.update = update;

    auto [merge, merge_function] = begin("window_merge");
    states.merge(merge_function->getArg(1), merge_function->getArg(2), 0);
    b.CreateRet(b.getTrue());
    names.merge = merge;

    auto [finalize, finalize_function] = begin("window_finalize");
    store_field(env_.codegen, finalize_function->getArg(2), rows_->layout, result_fields_[f],
                states.finalize(finalize_function->getArg(1), 0));
    b.CreateRet(b.getTrue());
    names.finalize = finalize;
    return names;
  }

  PipelineEnv& env_;
  const WindowOp& window_;
  std::vector<RowField> fields_;
  std::vector<Materialization::Column> passed_;  // input columns stored in the row
  std::vector<std::pair<const plan::Expr*, size_t>> computed_;
  std::vector<size_t> partition_key_fields_;
  size_t hash_field_ = 0;
  std::vector<size_t> result_fields_;
  const Materialization* rows_ = nullptr;
};

}  // namespace

std::unique_ptr<Consumer> make_window_sink(PipelineEnv& env, const plan::WindowOp& window) {
  return std::make_unique<WindowSink>(env, window);
}

}  // namespace floe::codegen
