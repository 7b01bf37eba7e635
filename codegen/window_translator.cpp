// Window functions. The sink appends each tuple to a RowBuffer, in the row the plan layer
// laid out (engine/plan/window_layout.h): the columns read above the window, the partition
// and ORDER BY keys, the functions' arguments, a hash of the partition keys, and a field for
// each function's result. It provides the comparators and, for window
// aggregates, update/merge/finalize functions over the aggregate states GROUP BY uses
// (aggregate_states.h), so both compute the same. The runtime (window_evaluator.h) then
// partitions, sorts and evaluates the rows; the materialized source reads them back.
#include <memory>

#include "codegen/aggregate_states.h"
#include "codegen/key_codegen.h"
#include "codegen/row_compare.h"
#include "codegen/translator.h"
#include "engine/plan/window_spec.h"

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
    plan::WindowKeys keys = plan::window_keys(window, rows_);
    auto& pipeline = *env.pipeline;
    std::vector<RowKey> all_keys = keys.partition;
    all_keys.insert(all_keys.end(), keys.order.begin(), keys.order.end());
    pipeline.compare_function = emit_row_comparator(env, "window_order", rows_.layout, all_keys);
    pipeline.window_same_partition =
        emit_row_comparator(env, "window_partition", rows_.layout, keys.partition);
    pipeline.window_peers = emit_row_comparator(env, "window_peers", rows_.layout, keys.order);
    pipeline.window = plan::window_spec(window, rows_, env.plan.registry);
    for (size_t f = 0; f < window.functions.size(); ++f) {
      // RANGE offset bounds: the bound's field against the range key's, by comparators.
      PipelineProgram::WindowRangeBounds bounds;
      std::string* names[] = {&bounds.start, &bounds.end};
      for (size_t i = 0; i < 2; ++i) {
        if (!keys.range_bounds[f][i]) continue;
        *names[i] = emit_row_comparator(
            env, (i == 0 ? "window_range_start" : "window_range_end") + std::to_string(f),
            rows_.layout, {*keys.range_bounds[f][i]});
      }
      pipeline.window_range_bounds.push_back(std::move(bounds));
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
  // The aggregate's update, merge and finalize functions over its own state row.
  PipelineProgram::WindowAggregateFunctions emit_aggregate(size_t f) {
    const std::vector<size_t>& arguments = fields_.functions[f].argument_fields;
    AggregateStates states(env_, *plan::window_aggregate(window_.functions[f]));
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
