// The vectorized aggregation sink, its start and its merge (aggregation.h).
#include <optional>
#include <vector>

#include "engine/vector/aggregation.h"
#include "engine/vector/expression_executor.h"
#include "engine/vector/group_rows.h"
#include "runtime/vector/primitives.h"
#include "storage/error.h"

namespace floe::vectorized {
namespace {

using plan::AggregateFunction;

AggregationHashTable& table_of(const plan::PhysicalDescription& physical,
                               const plan::AggregateOp& aggregate, void** state) {
  return *static_cast<AggregationHashTable*>(state[physical.materialization(aggregate).slot]);
}

const plan::AggregateOp& sink_aggregate(const plan::PipelineDescription& pipeline) {
  return static_cast<const plan::AggregateOp&>(*pipeline.sink_op);
}

[[noreturn]] void throw_recorded(const WorkerContext& worker) {
  throw Error(worker.query->error_message());
}

// A string min/max that took a row's string points at that row's bytes, which may live only
// as long as the chunk (a scan batch's before-images): the taken ones are copied into the
// worker's heap, at most once per group and chunk (later rows see the copy's pointer).
void keep_taken_strings(const StateKernel& kernel, const Vector& argument, const uint32_t* sel,
                        uint32_t n, uint8_t* const* rows, StringHeap& heap) {
  const StringRef* values = argument.values<StringRef>();
  for_each_row(sel, n, [&](uint32_t p) {
    if (!argument.is_valid(p) || values[p].is_inline()) return;
    const auto held = kernel.value.load<StringRef>(rows[p]);
    if (held.is_inline() || held.rest.pointer != values[p].rest.pointer) return;
    kernel.value.store(rows[p], heap.store(held.view()));
  });
}

bool keeps_strings(const StateKernel& kernel) {
  return (kernel.kind == StateKind::kMin || kernel.kind == StateKind::kMax) &&
         kernel.argument == PhysicalType::kString;
}

class AggregationSink : public ChunkConsumer {
 public:
  AggregationSink(const PipelineContext& context, const plan::AggregateOp& aggregate,
                  const ChunkColumns& input)
      : aggregate_(aggregate),
        worker_(context.worker),
        executor_(context.worker),
        table_(table_of(context.physical, aggregate, context.state)),
        groups_(*context.physical.materialization(aggregate).aggregate) {
    for (auto [id, index] : input) executor_.bind_column(id, index);
  }

  bool consume(DataChunk& chunk) override {
    const uint32_t* sel = chunk.selection();
    const uint32_t n = chunk.count();
    const uint32_t extent = chunk.extent();
    // Every key and input is computed before any state changes, as generated code does per
    // row.
    keys_.clear();
    for (const auto& group : aggregate_.groups)
      keys_.push_back(executor_.evaluate(*group.expr, chunk));
    inputs_.clear();
    for (const auto& call : aggregate_.aggregates) {
      Input input;
      auto evaluate = [&](const plan::ExprPtr& expr) -> std::optional<Vector> {
        if (!expr) return std::nullopt;
        return executor_.evaluate(*expr, chunk);
      };
      input.argument = evaluate(call.argument);
      if (call.function == AggregateFunction::kStringAgg) {
        input.delimiter = evaluate(call.parameter);
        input.order = evaluate(call.order);
      }
      inputs_.push_back(std::move(input));
    }
    rows_.resize(extent);
    if (aggregate_.groups.empty()) {
      uint8_t* group = table_.global_group(worker_.worker_id);
      for_each_row(sel, n, [&](uint32_t p) { rows_[p] = group; });
    } else {
      groups_.find_or_insert(table_, worker_, keys_, sel, n, extent, rows_.data());
    }
    auto pointer = [](const std::optional<Vector>& v) { return v ? &*v : nullptr; };
    for (size_t i = 0; i < inputs_.size(); ++i) {
      const Input& input = inputs_[i];
      const StateKernel& kernel = groups_.kernels()[i];
      if (!update_states(kernel, worker_, pointer(input.argument), sel, n, rows_.data(),
                         pointer(input.delimiter), pointer(input.order)))
        throw_recorded(worker_);
      if (keeps_strings(kernel))
        keep_taken_strings(kernel, *input.argument, sel, n, rows_.data(), *worker_.strings);
    }
    return true;
  }

 private:
  struct Input {
    std::optional<Vector> argument;   // null: count(*)
    std::optional<Vector> delimiter;  // string_agg
    std::optional<Vector> order;      // string_agg's ORDER BY key
  };

  const plan::AggregateOp& aggregate_;
  WorkerContext& worker_;
  ExpressionExecutor executor_;
  AggregationHashTable& table_;
  GroupRows groups_;
  std::vector<Vector> keys_;
  std::vector<Input> inputs_;
  std::vector<uint8_t*> rows_;  // by position: the row's group row
};

}  // namespace

std::unique_ptr<ChunkConsumer> make_aggregation_sink(const PipelineContext& context,
                                                     const plan::AggregateOp& aggregate,
                                                     const ChunkColumns& input) {
  return std::make_unique<AggregationSink>(context, aggregate, input);
}

void start_aggregation(const plan::PhysicalDescription& physical,
                       const plan::PipelineDescription& pipeline, void** state,
                       WorkerContext& worker) {
  const plan::AggregateOp& aggregate = sink_aggregate(pipeline);
  AggregationHashTable& table = table_of(physical, aggregate, state);
  // Without GROUP BY there is exactly one group (hash 0, no keys), even for empty input.
  if (pipeline.global_aggregation) table.insert(worker.worker_id, 0);
  if (!pipeline.initial_groups) return;
  const plan::AggregateLayout& layout = *physical.materialization(aggregate).aggregate;
  GroupRows groups(layout);
  for (const auto& values : aggregate.initial_groups) {
    std::vector<Vector> keys;
    for (size_t k = 0; k < values.size(); ++k) {
      keys.emplace_back(layout.key_types[k], 1);
      keys.back().set(0, values[k], *worker.strings);
    }
    uint8_t* row = nullptr;
    groups.find_or_insert(table, worker, keys, nullptr, 1, 1, &row);
  }
}

void merge_aggregation(const plan::PhysicalDescription& physical,
                       const plan::PipelineDescription& pipeline, void** state,
                       QueryContext& query) {
  const plan::AggregateOp& aggregate = sink_aggregate(pipeline);
  GroupRows groups(*physical.materialization(aggregate).aggregate);
  if (!table_of(physical, aggregate, state)
           .merge(RowEquality(&GroupRows::keys_equal, &groups),
                  StateMerge(&GroupRows::merge, &groups), query))
    throw Error(query.error_message());
}

}  // namespace floe::vectorized
