#include "engine/vector/repeat_operator.h"

#include <vector>

#include "engine/vector/expression_executor.h"
#include "runtime/vector/row_gather.h"
#include "storage/error.h"

namespace floe::vectorized {
namespace {

// New chunks of the input's columns, each row's position taken as often as its count says.
class Repeat : public ChunkOperator {
 public:
  Repeat(const PipelineContext& context, const plan::RepeatOp& repeat, const ChunkColumns& input)
      : context_(context), repeat_(repeat), executor_(context.worker) {
    columns_ = input;
    for (auto [id, index] : input) executor_.bind_column(id, index);
  }

  bool consume(DataChunk& chunk) override {
    Vector counts = executor_.evaluate(*repeat_.count, chunk);
    const int64_t* values = counts.values<int64_t>();
    const uint32_t* sel = chunk.selection();
    sources_.clear();
    for (uint32_t i = 0; i < chunk.count(); ++i) {
      const uint32_t p = sel ? sel[i] : i;
      if (!counts.is_valid(p)) continue;
      for (int64_t copy = 0; copy < values[p]; ++copy) {
        sources_.push_back(p);
        if (sources_.size() == context_.vector_size && !flush(chunk)) return false;
      }
    }
    return sources_.empty() || flush(chunk);
  }

 private:
  bool flush(const DataChunk& input) {
    // A large count makes many chunks of one row: the statement may be canceled meanwhile.
    if (context_.worker.query->check_canceled())
      throw Error(context_.worker.query->error_message());
    const auto n = static_cast<uint32_t>(sources_.size());
    DataChunk output(context_.vector_size);
    for (size_t c = 0; c < input.column_count(); ++c) {
      Vector column(input.column(c).type(), n);
      take_values(input.column(c), sources_.data(), n, column);
      output.add_column(std::move(column));
    }
    output.set_count(n);
    sources_.clear();
    return next_->consume(output);
  }

  const PipelineContext& context_;
  const plan::RepeatOp& repeat_;
  ExpressionExecutor executor_;
  std::vector<uint32_t> sources_;  // per output row, its input row's position
};

}  // namespace

std::unique_ptr<ChunkOperator> make_repeat(const PipelineContext& context,
                                           const plan::RepeatOp& repeat,
                                           const ChunkColumns& input) {
  return std::make_unique<Repeat>(context, repeat, input);
}

}  // namespace floe::vectorized
