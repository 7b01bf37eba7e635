#include "engine/vector/streaming_operators.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <set>
#include <vector>

#include "engine/plan/expression_utils.h"
#include "engine/vector/expression_executor.h"
#include "runtime/row_buffer.h"
#include "runtime/table_function.h"
#include "runtime/vector/function_call.h"
#include "runtime/vector/row_gather.h"
#include "runtime/vector/row_scatter.h"
#include "storage/error.h"

namespace floe::vectorized {
namespace {

// An executor that reads the input chunk's columns.
ExpressionExecutor bound_executor(const PipelineContext& context, const ChunkColumns& input) {
  ExpressionExecutor executor(context.worker);
  for (auto [id, index] : input) executor.bind_column(id, index);
  return executor;
}

class Filter : public ChunkOperator {
 public:
  Filter(const PipelineContext& context, const plan::FilterOp& filter, const ChunkColumns& input)
      : filter_(filter), executor_(bound_executor(context, input)) {
    columns_ = input;
    std::set<plan::ColumnId> read;
    plan::collect_columns(*filter.predicate, read);
    for (plan::ColumnId id : read)
      if (auto found = input.find(id); found != input.end())
        predicate_columns_.insert(found->second);
  }

  bool consume(DataChunk& chunk) override {
    uint32_t count = executor_.select(*filter_.predicate, chunk, selection_);
    if (count == 0) return true;
    chunk.set_selection(selection_.data());
    chunk.set_count(count);
    return next_->consume(chunk);
  }

  // Above a logically compacting join: the predicate's columns are read, then every
  // extended selection vector is narrowed (SIGMOD 2024 §5.2); the rest is not copied.
  bool consume_logical(LogicalChunk& chunk) override {
    DataChunk read = chunk.materialize(predicate_columns_);
    uint32_t count = executor_.select(*filter_.predicate, read, selection_);
    if (count == 0) return true;
    if (count < chunk.count()) chunk.select(selection_.data(), count);
    return next_->consume_logical(chunk);
  }

 private:
  const plan::FilterOp& filter_;
  ExpressionExecutor executor_;
  std::vector<uint32_t> selection_;  // the chunk's selection after this filter
  std::set<size_t> predicate_columns_;
};

class Map : public ChunkOperator {
 public:
  Map(const PipelineContext& context, const plan::MapOp& map, const ChunkColumns& input)
      : map_(map), executor_(bound_executor(context, input)) {
    columns_ = input;
    // Later expressions may read earlier ones' columns, which follow the input's.
    for (const auto& computed : map.computed) {
      size_t index = columns_.size();
      columns_[computed.id] = index;
      executor_.bind_column(computed.id, index);
    }
  }

  bool consume(DataChunk& chunk) override {
    for (const auto& computed : map_.computed)
      chunk.add_column(executor_.evaluate(*computed.expr, chunk));
    return next_->consume(chunk);
  }

 private:
  const plan::MapOp& map_;
  ExpressionExecutor executor_;
};

class Limit : public ChunkOperator {
 public:
  Limit(const PipelineContext& context, const plan::LimitOp& limit, const ChunkColumns& input)
      : offset_(limit.offset) {
    columns_ = input;
    uint32_t slot = context.physical.operator_slots.at(&limit);
    counter_ = static_cast<std::atomic<uint64_t>*>(context.state[slot]);
    for (const auto& check : context.description.limits)
      if (check.counter_slot == slot) end_ = check.end;
  }

  bool consume(DataChunk& chunk) override {
    const uint32_t n = chunk.count();
    // The chunk's rows are numbers [seen, seen + n) of the rows that reached the limit.
    const uint64_t seen = counter_->fetch_add(n, std::memory_order_relaxed);
    if (seen >= end_) return false;
    const uint32_t first =
        static_cast<uint32_t>(std::min<uint64_t>(n, offset_ - std::min(offset_, seen)));
    const uint32_t last = static_cast<uint32_t>(std::min<uint64_t>(n, end_ - seen));
    if (first < last) {
      if (first > 0 || last < n) {
        // Rows [first, last) of the chunk, as positions.
        selection_.resize(last - first);
        const uint32_t* sel = chunk.selection();
        for (uint32_t i = first; i < last; ++i) selection_[i - first] = sel ? sel[i] : i;
        chunk.set_selection(selection_.data());
        chunk.set_count(last - first);
      }
      if (!next_->consume(chunk)) return false;
    }
    // The chunk that takes the count to the end ends the pipeline right away.
    return seen + n < end_;
  }

 private:
  std::atomic<uint64_t>* counter_ = nullptr;
  uint64_t offset_ = 0;
  uint64_t end_ = 0;
  std::vector<uint32_t> selection_;
};

class UnionAllInput : public ChunkOperator {
 public:
  UnionAllInput(const PipelineContext& context, const plan::UnionAllOp& union_all, size_t child,
                const ChunkColumns& input)
      : inputs_(union_all.inputs[child]), executor_(bound_executor(context, input)) {
    for (size_t c = 0; c < union_all.columns.size(); ++c) columns_[union_all.columns[c]] = c;
  }

  bool consume(DataChunk& chunk) override {
    DataChunk output(chunk.capacity());
    for (const auto& input : inputs_) output.add_column(executor_.evaluate(*input, chunk));
    output.set_count(chunk.count());
    output.set_selection(chunk.selection());
    return next_->consume(output);
  }

 private:
  const std::vector<plan::ExprPtr>& inputs_;
  ExpressionExecutor executor_;
};

class TableFunctionCall : public ChunkOperator {
 public:
  TableFunctionCall(const PipelineContext& context, const plan::TableFunctionOp& call,
                    const ChunkColumns& input)
      : context_(context),
        call_(call),
        executor_(bound_executor(context, input)),
        input_columns_(input.size()),
        type_(context.plan.registry[call.column].type) {
    columns_ = input;
    columns_[call.column] = input_columns_;
    if (call.ordinality) columns_[*call.ordinality] = input_columns_ + 1;
  }

  bool consume(DataChunk& chunk) override {
    std::vector<Vector> arguments;
    for (const auto& argument : call_.arguments)
      arguments.push_back(executor_.evaluate(*argument, chunk));
    std::vector<FunctionSlot> slots(std::max<size_t>(1, arguments.size()));
    const uint32_t* sel = chunk.selection();
    start_output();
    for (uint32_t i = 0; i < chunk.count(); ++i) {
      const uint32_t p = sel ? sel[i] : i;
      for (size_t a = 0; a < arguments.size(); ++a) {
        // A NULL's bits are passed too: the function reads only the NULL flag then.
        write_slot(arguments[a], p, slots[a]);
        slots[a].bytes[kFunctionSlotNullOffset] = arguments[a].is_valid(p) ? 0 : 1;
      }
      alignas(kTableFunctionCursorAlignment) unsigned char storage[kTableFunctionCursorSize];
      TableFunctionCursor* cursor =
          call_.function->open(storage, {slots.data(), call_.function->parameters.size()});
      FunctionSlot value;
      for (int64_t ordinal = 1; cursor->next(*context_.worker.strings, value); ++ordinal) {
        const uint32_t k = static_cast<uint32_t>(sources_.size());
        sources_.push_back(p);
        read_slot(value, *values_, k);
        values_->set_valid(k, value.bytes[kFunctionSlotNullOffset] == 0);
        if (ordinals_) ordinals_->mutable_values<int64_t>()[k] = ordinal;
        if (sources_.size() == context_.vector_size) {
          if (!flush(chunk)) return false;
          start_output();
        }
      }
    }
    return sources_.empty() || flush(chunk);
  }

 private:
  void start_output() {
    sources_.clear();
    values_.emplace(type_, context_.vector_size);
    if (call_.ordinality) ordinals_.emplace(SqlType::big_int(), context_.vector_size);
  }

  // Pushes the rows made so far: the input columns of their input rows, value, ordinality.
  bool flush(const DataChunk& input) {
    // The statement may be canceled while a call yields many rows.
    if (context_.worker.query->check_canceled())
      throw Error(context_.worker.query->error_message());
    const uint32_t n = static_cast<uint32_t>(sources_.size());
    DataChunk output(context_.vector_size);
    for (size_t c = 0; c < input_columns_; ++c) {
      Vector column(input.column(c).type(), n);
      take_values(input.column(c), sources_.data(), n, column);
      output.add_column(std::move(column));
    }
    output.add_column(std::move(*values_));
    if (ordinals_) output.add_column(std::move(*ordinals_));
    output.set_count(n);
    return next_->consume(output);
  }

  const PipelineContext& context_;
  const plan::TableFunctionOp& call_;
  ExpressionExecutor executor_;
  size_t input_columns_;
  SqlType type_;
  std::vector<uint32_t> sources_;  // per output row, its input row's position
  std::optional<Vector> values_;
  std::optional<Vector> ordinals_;
};

class RowCounter : public ChunkOperator {
 public:
  RowCounter(const PipelineContext& context, const plan::LogicalOp& op,
             const plan::LogicalOp* next, const ChunkColumns& input)
      : count_((*context.row_counts)[&op]),
        out_(context.chunk_counts ? &(*context.chunk_counts)[&op] : nullptr),
        in_(context.chunk_counts && next ? &(*context.chunk_counts)[next] : nullptr) {
    columns_ = input;
  }

  bool consume(DataChunk& chunk) override {
    tally(chunk.count());
    return next_->consume(chunk);
  }

  bool consume_logical(LogicalChunk& chunk) override {
    tally(chunk.count());
    return next_->consume_logical(chunk);
  }

 private:
  void tally(uint32_t rows) {
    count_ += rows;
    if (out_) {
      ++out_->chunks_out;
      out_->rows_out += rows;
    }
    if (in_) {
      ++in_->chunks_in;
      in_->rows_in += rows;
    }
  }

  uint64_t& count_;
  ChunkCounts* out_;
  ChunkCounts* in_;
};

class ResultSink : public ChunkConsumer {
 public:
  ResultSink(const PipelineContext& context, const ChunkColumns& input)
      : buffer_(*static_cast<RowBuffer*>(context.state[context.physical.result_slot])),
        worker_(context.worker.worker_id) {
    const auto& layout = context.physical.result_layout;
    for (size_t i = 0; i < context.plan.outputs.size(); ++i) {
      fields_.push_back({input.at(context.plan.outputs[i].id), {layout.offset(i), std::nullopt}});
      if (layout.field(i).nullable) fields_.back().offsets.null_offset = layout.null_offset(i);
    }
  }

  bool consume(DataChunk& chunk) override {
    rows_.resize(chunk.count());
    for (auto& row : rows_) row = buffer_.append(worker_);
    for (const auto& field : fields_) {
      if (!scatter_column(chunk.column(field.column), chunk.selection(), chunk.count(),
                          rows_.data(), field.offsets))
        throw Error("internal error: NULL value in a NOT NULL column");
    }
    return true;
  }

 private:
  struct Field {
    size_t column;  // in the chunk
    RowFieldOffsets offsets;
  };
  RowBuffer& buffer_;
  uint32_t worker_;
  std::vector<Field> fields_;
  std::vector<uint8_t*> rows_;
};

}  // namespace

std::unique_ptr<ChunkOperator> make_filter(const PipelineContext& context,
                                           const plan::FilterOp& filter,
                                           const ChunkColumns& input) {
  return std::make_unique<Filter>(context, filter, input);
}

std::unique_ptr<ChunkOperator> make_map(const PipelineContext& context, const plan::MapOp& map,
                                        const ChunkColumns& input) {
  return std::make_unique<Map>(context, map, input);
}

std::unique_ptr<ChunkOperator> make_limit(const PipelineContext& context,
                                          const plan::LimitOp& limit, const ChunkColumns& input) {
  return std::make_unique<Limit>(context, limit, input);
}

std::unique_ptr<ChunkOperator> make_union_all_input(const PipelineContext& context,
                                                    const plan::UnionAllOp& union_all, size_t child,
                                                    const ChunkColumns& input) {
  return std::make_unique<UnionAllInput>(context, union_all, child, input);
}

std::unique_ptr<ChunkOperator> make_table_function(const PipelineContext& context,
                                                   const plan::TableFunctionOp& call,
                                                   const ChunkColumns& input) {
  return std::make_unique<TableFunctionCall>(context, call, input);
}

std::unique_ptr<ChunkOperator> make_row_counter(const PipelineContext& context,
                                                const plan::LogicalOp& op,
                                                const plan::LogicalOp* next,
                                                const ChunkColumns& input) {
  return std::make_unique<RowCounter>(context, op, next, input);
}

std::unique_ptr<ChunkConsumer> make_result_sink(const PipelineContext& context,
                                                const ChunkColumns& input) {
  return std::make_unique<ResultSink>(context, input);
}

}  // namespace floe::vectorized
