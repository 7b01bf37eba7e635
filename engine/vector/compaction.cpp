#include "engine/vector/compaction.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "runtime/vector/row_gather.h"
#include "storage/error.h"

namespace floe::vectorized {

template <typename Chunk>
void CompactionBuffer::start(const Chunk& chunk) {
  if (chunk_) return;
  chunk_.emplace(capacity_);
  for (size_t c = 0; c < chunk.column_count(); ++c) chunk_->add_column(chunk.column(c).type());
}

void CompactionBuffer::append_column(size_t c, const Vector& from, const uint32_t* positions,
                                     uint32_t count) {
  Vector& out = chunk_->column(c);
  take_values(from, positions, count, out, size_);
  if (out.physical() != PhysicalType::kString) return;
  StringRef* strings = out.mutable_values<StringRef>() + size_;
  for (uint32_t i = 0; i < count; ++i)
    if (out.is_valid(size_ + i) && !strings[i].is_inline())
      strings[i] = strings_.store(strings[i].view());
}

void CompactionBuffer::append(const DataChunk& chunk, uint32_t first, uint32_t count) {
  start(chunk);
  positions_.resize(count);
  const uint32_t* sel = chunk.selection();
  for (uint32_t i = 0; i < count; ++i) positions_[i] = sel ? sel[first + i] : first + i;
  for (size_t c = 0; c < chunk.column_count(); ++c)
    append_column(c, chunk.column(c), positions_.data(), count);
  size_ += count;
}

void CompactionBuffer::append(const LogicalChunk& chunk, uint32_t first, uint32_t count) {
  start(chunk);
  positions_.resize(count);
  for (size_t c = 0; c < chunk.column_count(); ++c) {
    const uint32_t* index = chunk.index(c);
    for (uint32_t i = 0; i < count; ++i) positions_[i] = index ? index[first + i] : first + i;
    append_column(c, chunk.column(c), positions_.data(), count);
  }
  size_ += count;
}

DataChunk CompactionBuffer::take() {
  DataChunk out = std::move(*chunk_);
  out.set_count(size_);
  chunk_.reset();
  size_ = 0;
  return out;
}

CompactionPolicy full_compaction(uint32_t vector_size) {
  return {vector_size - 1, vector_size};
}

// Chunks of at most `threshold` rows are buffered; the buffer goes on once another such chunk
// might not fit (section 3.2, "Binary Compaction": at >= D - threshold).
CompactionPolicy threshold_compaction(uint32_t threshold, uint32_t vector_size) {
  threshold = std::min(threshold, vector_size - 1);
  return {threshold, vector_size - threshold};
}

CompactionPolicy binary_compaction(uint32_t vector_size) {
  // DuckDB's 128 of 2048 (section 1), at least 1 row.
  return threshold_compaction(std::max<uint32_t>(1, vector_size / 16), vector_size);
}

PipelineCompaction::PipelineCompaction(const plan::PhysicalPlan& plan,
                                       const plan::Pipeline& pipeline, uint32_t vector_size) {
  for (const plan::LogicalOp* op : pipeline.operators) {
    auto choice = plan.choices.find(op);
    if (choice == plan.choices.end()) continue;
    strategies_[op] = choice->second.compaction;
    if (choice->second.compaction == plan::CompactionStrategy::kLearned ||
        choice->second.compaction == plan::CompactionStrategy::kSmart)
      learners_[op] = std::make_unique<CompactionLearner>(vector_size);
  }
}

plan::CompactionStrategy PipelineCompaction::strategy(const plan::LogicalOp& op) const {
  auto found = strategies_.find(&op);
  return found == strategies_.end() ? plan::CompactionStrategy::kNone : found->second;
}

CompactionLearner* PipelineCompaction::learner(const plan::LogicalOp& op) const {
  auto found = learners_.find(&op);
  return found == learners_.end() ? nullptr : found->second.get();
}

Compactor::Compactor(const ChunkColumns& input, uint32_t vector_size, CompactionPolicy policy,
                     CompactionLearner* learner, bool ordered, StringHeap& strings)
    : vector_size_(vector_size),
      policy_(policy),
      learner_(learner),
      ordered_(ordered),
      buffer_(vector_size, strings) {
  columns_ = input;
}

bool Compactor::consume(DataChunk& chunk) {
  return sample(chunk);
}

bool Compactor::consume_logical(LogicalChunk& chunk) {
  return sample(chunk);
}

template <typename Chunk>
bool Compactor::sample(Chunk& chunk) {
  if (!learner_) return compact(chunk, policy_);
  // A sample of the learner: this chunk's rows per microsecond from here to the pipeline's
  // end, the copying included (section 4, "UpdateArm").
  const uint32_t rows = chunk.count();  // operators above may narrow the chunk
  const size_t arm = learner_->select();
  const auto start = std::chrono::steady_clock::now();
  const bool more =
      compact(chunk, threshold_compaction(learner_->threshold(arm), vector_size_));
  const double micros = std::chrono::duration<double, std::micro>(
                            std::chrono::steady_clock::now() - start)
                            .count();
  learner_->update(arm, rows / std::max(micros, 1e-3));
  return more;
}

template <typename Chunk>
bool Compactor::compact(Chunk& chunk, CompactionPolicy policy) {
  uint32_t n = chunk.count();
  if (n > policy.threshold) {
    // Rows that came before must not be overtaken where the order counts.
    if (ordered_ && buffer_.size() > 0 && !flush()) return false;
    return pass(chunk);
  }
  for (uint32_t first = 0; first < n;) {
    const uint32_t count = std::min(n - first, buffer_.room());
    buffer_.append(chunk, first, count);
    first += count;
    if (buffer_.size() >= policy.flush_at && !flush()) return false;
  }
  return true;
}

bool Compactor::flush() {
  if (buffer_.size() == 0) return true;
  DataChunk merged = buffer_.take();
  return next_->consume(merged);
}

std::unique_ptr<Compactor> make_compactor(const PipelineContext& context, const plan::LogicalOp& op,
                                          const ChunkColumns& input, bool ordered) {
  if (!context.compaction) return nullptr;
  const uint32_t size = context.vector_size;
  StringHeap& strings = *context.worker.strings;
  // A buffer of one row compacts nothing.
  if (size < 2) return nullptr;
  switch (context.compaction->strategy(op)) {
    case plan::CompactionStrategy::kNone:
      return nullptr;
    case plan::CompactionStrategy::kFull:
      return std::make_unique<Compactor>(input, size, full_compaction(size), nullptr, ordered,
                                         strings);
    case plan::CompactionStrategy::kBinary:
      return std::make_unique<Compactor>(input, size, binary_compaction(size), nullptr, ordered,
                                         strings);
    case plan::CompactionStrategy::kLearned:
    case plan::CompactionStrategy::kSmart:
      return std::make_unique<Compactor>(input, size, CompactionPolicy{},
                                         context.compaction->learner(op), ordered, strings);
    case plan::CompactionStrategy::kLogical:
      return nullptr;
  }
  throw Error("internal error: unknown compaction strategy");
}

bool logical_compaction(const PipelineContext& context, const plan::LogicalOp& join) {
  if (!context.compaction) return false;
  const plan::CompactionStrategy strategy = context.compaction->strategy(join);
  return strategy == plan::CompactionStrategy::kLogical ||
         strategy == plan::CompactionStrategy::kSmart;
}

}  // namespace floe::vectorized
