// The vectorized window operator (materialized_rows.h). The rows and the evaluation are the
// compiled engine's (runtime/window_evaluator.h over plan::window_spec); only the callbacks
// differ: RowOrders over the keys plan::window_keys describes instead of generated
// comparators, and, for window aggregates, the aggregate kernels GROUP BY's vectorized
// aggregation uses (runtime/vector/aggregate_kernels.h) on the state row of
// plan::window_aggregate, one row at a time, instead of generated update / merge / finalize
// functions. Both compute what the shared runtime functions compute.
#include <array>
#include <deque>
#include <optional>
#include <vector>

#include "engine/plan/aggregate_layout.h"
#include "engine/plan/row_keys.h"
#include "engine/plan/window_spec.h"
#include "engine/vector/materialized_rows.h"
#include "engine/vector/row_appender.h"
#include "runtime/vector/aggregate_kernels.h"
#include "runtime/vector/key_hash.h"
#include "runtime/vector/row_gather.h"
#include "runtime/window_evaluator.h"
#include "storage/error.h"

namespace floe::vectorized {
namespace {

class WindowSink : public ChunkConsumer {
 public:
  WindowSink(const PipelineContext& context, const plan::WindowOp& window,
             const ChunkColumns& input)
      : rows_(context.physical.materialization(window)),
        fields_(*rows_.window),
        appender_(context, rows_, input) {
    for (size_t c = 0; c < fields_.passed_columns; ++c)
      appender_.add_column(rows_.columns[c].id, rows_.columns[c].field);
    for (const auto& [expr, field] : fields_.computed) appender_.add_expression(*expr, field);
    if (fields_.hash_field) hash_offsets_ = field_offsets(rows_.layout, *fields_.hash_field);
  }

  bool consume(DataChunk& chunk) override {
    const std::vector<uint8_t*>& rows = appender_.append(chunk);
    if (!fields_.hash_field) return true;
    // The hash of the partition keys, as generated code chains it (key_hash.h).
    Vector hashes(SqlType::big_int(), chunk.extent());
    auto* values = reinterpret_cast<uint64_t*>(hashes.mutable_values<int64_t>());
    for (size_t k = 0; k < fields_.partition_fields.size(); ++k) {
      hash_key_column(appender_.values(fields_.partition_fields[k]), chunk.selection(),
                      chunk.count(), values, k == 0);
    }
    scatter_column(hashes, chunk.selection(), chunk.count(), rows.data(), hash_offsets_);
    return true;
  }

 private:
  const plan::Materialization& rows_;
  const plan::WindowLayout& fields_;
  RowAppender appender_;
  RowFieldOffsets hash_offsets_;
};

// A one-row vector of `type` for this thread's `use` (0, 1: the inputs, 2: the result),
// present: the evaluator calls the callbacks once per row, from several threads.
Vector& scratch(size_t use, const SqlType& type) {
  thread_local std::array<Vector, 3> vectors;
  Vector& vector = vectors[use];
  if (vector.extent() == 0 || vector.type() != type) vector = Vector(type, 1);
  vector.set_valid(0, true);
  return vector;
}

// A window aggregate's state row and the fields of its inputs and result: the context of
// its update / merge / finalize callbacks.
struct WindowAggregate {
  StateKernel kernel;
  std::vector<std::pair<SqlType, RowFieldOffsets>> inputs;  // argument, string_agg's delimiter
  SqlType result_type;
  RowFieldOffsets result;

  static bool update(WorkerContext* worker, uint8_t* state, const uint8_t* row,
                     const void* context) {
    const auto& aggregate = *static_cast<const WindowAggregate*>(context);
    std::array<const Vector*, 2> inputs = {nullptr, nullptr};
    for (size_t i = 0; i < aggregate.inputs.size(); ++i) {
      Vector& input = scratch(i, aggregate.inputs[i].first);
      gather_column(&row, 1, aggregate.inputs[i].second, input);
      inputs[i] = &input;
    }
    return update_states(aggregate.kernel, *worker, inputs[0], nullptr, 1, &state, inputs[1]);
  }

  static bool merge(WorkerContext* worker, uint8_t* into, const uint8_t* from,
                    const void* context) {
    const auto& aggregate = *static_cast<const WindowAggregate*>(context);
    // The kernels fold their inputs' states without changing them (collected lists aside:
    // those are never merged, as the spec is not mergeable).
    auto* source = const_cast<uint8_t*>(from);
    return combine_states(aggregate.kernel, *worker, &into, &source, 1);
  }

  static bool finalize(WorkerContext* worker, const uint8_t* state, uint8_t* row,
                       const void* context) {
    const auto& aggregate = *static_cast<const WindowAggregate*>(context);
    Vector& value = scratch(2, aggregate.result_type);
    if (!finalize_states(aggregate.kernel, *worker, &state, 1, value)) return false;
    if (!scatter_column(value, nullptr, 1, &row, aggregate.result)) {
      worker->query->fail("internal error: NULL value in a NOT NULL column");
      return false;
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<ChunkConsumer> make_window_sink(const PipelineContext& context,
                                                const plan::WindowOp& window,
                                                const ChunkColumns& input) {
  return std::make_unique<WindowSink>(context, window, input);
}

void evaluate_window_rows(const plan::LogicalPlan& plan, const plan::PhysicalDescription& physical,
                          const plan::PipelineDescription& pipeline, RowBuffer& rows,
                          QueryContext& query, bool keep_order) {
  const auto& window = static_cast<const plan::WindowOp&>(*pipeline.sink_op);
  const plan::Materialization& materialization = physical.materialization(window);
  const plan::RowLayout& layout = materialization.layout;
  plan::WindowKeys keys = plan::window_keys(window, materialization);
  std::vector<plan::RowKey> all_keys = keys.partition;
  all_keys.insert(all_keys.end(), keys.order.begin(), keys.order.end());
  // The callbacks' contexts live until the evaluation is done (deques do not move them).
  std::deque<RowOrder> orders;
  auto comparator = [&](const std::vector<plan::RowKey>& row_keys) {
    return orders.emplace_back(plan::row_order(layout, row_keys)).comparator();
  };
  std::deque<WindowAggregate> aggregates;
  WindowSpec spec = plan::window_spec(window, materialization, plan.registry);
  spec.order = comparator(all_keys);
  spec.same_partition = comparator(keys.partition);
  spec.peers = comparator(keys.order);
  for (size_t f = 0; f < spec.functions.size(); ++f) {
    WindowFunctionSpec& function = spec.functions[f];
    if (keys.range_bounds[f][0]) function.range_start = comparator({*keys.range_bounds[f][0]});
    if (keys.range_bounds[f][1]) function.range_end = comparator({*keys.range_bounds[f][1]});
    if (function.kind != WindowFunctionKind::kAggregate) continue;
    plan::AggregateLayout states =
        plan::describe_aggregate(*plan::window_aggregate(window.functions[f]), plan.registry);
    WindowAggregate& aggregate = aggregates.emplace_back();
    aggregate.kernel = plan::state_kernel(states.states.at(0), states.layout);
    const plan::WindowLayout::Function& fields = materialization.window->functions[f];
    for (size_t argument : fields.argument_fields)
      aggregate.inputs.push_back({layout.field(argument).type, field_offsets(layout, argument)});
    aggregate.result_type = layout.field(fields.result_field).type;
    aggregate.result = field_offsets(layout, fields.result_field);
    function.update = StateUpdate(&WindowAggregate::update, &aggregate);
    function.merge = StateMerge(&WindowAggregate::merge, &aggregate);
    function.finalize = StateFinalize(&WindowAggregate::finalize, &aggregate);
  }
  if (!evaluate_windows(rows, spec, query, keep_order)) throw Error(query.error_message());
}

}  // namespace floe::vectorized
