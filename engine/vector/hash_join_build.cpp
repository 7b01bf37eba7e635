// The vectorized join build sink (join_operators.h), as codegen/hash_join_translator.cpp's
// JoinBuild: the same rows, hashes and payloads in the same table.
#include <atomic>
#include <vector>

#include "engine/vector/join_operators.h"
#include "engine/vector/join_table_access.h"
#include "storage/error.h"

namespace floe::vectorized {
namespace {

using plan::JoinType;

class JoinBuild : public ChunkConsumer {
 public:
  JoinBuild(const PipelineContext& context, const plan::JoinOp& join, const ChunkColumns& input)
      : join_(join),
        rows_(context.physical.materialization(join)),
        keys_(context, join, true, input),
        worker_(context.worker.worker_id),
        table_(join_table_of(context, rows_)) {
    for (const auto& column : rows_.columns)
      if (column.field >= join.keys.size()) stored_.push_back({input.at(column.id), column.field});
    if (join.type == JoinType::kNullAwareAnti) {
      build_rows_ = static_cast<std::atomic<uint64_t>*>(context.state[rows_.build_rows_slot]);
      null_keys_ = static_cast<std::atomic<uint64_t>*>(context.state[rows_.build_null_key_slot]);
    }
  }

  bool consume(DataChunk& chunk) override {
    const uint32_t n = chunk.count();
    if (n == 0) return true;
    keys_.evaluate(chunk);
    const uint32_t extent = chunk.extent();
    selection_.resize(n);
    // The rows to store: all where the join keeps build rows, else those whose strict keys
    // are present.
    uint32_t kept = n;
    const uint32_t* sel = chunk.selection();
    if (!plan::join_preserves_build(join_.type)) {
      kept = keys_.present(sel, n, keys_.strict(), selection_.data());
      sel = selection_.data();
    }
    if (build_rows_) {
      build_rows_->store(1, std::memory_order_relaxed);
      if (kept < n) null_keys_->store(1, std::memory_order_relaxed);
    }
    if (kept == 0) return true;
    hashes_.resize(extent);
    keys_.hash(sel, kept, hashes_.data(), false, join_.type == JoinType::kMark);
    cat_keys_.resize(size_t{extent} * table_.cat_key_columns);
    if (table_.cat_key_columns) keys_.integer_keys(sel, kept, cat_keys_.data());
    payloads_.resize(kept);
    for (uint32_t i = 0; i < kept; ++i) {
      const uint32_t p = sel ? sel[i] : i;
      payloads_[i] = table_.chaining ? table_.chaining->insert(worker_, hashes_[p])
                                     : table_.concise->insert(
                                           worker_, hashes_[p],
                                           table_.cat_key_columns
                                               ? &cat_keys_[size_t{p} * table_.cat_key_columns]
                                               : nullptr);
    }
    bool stored = true;
    for (size_t k = 0; k < keys_.count(); ++k)
      stored &=
          scatter_column(keys_.key(k), sel, kept, payloads_.data(), field_offsets(rows_.layout, k));
    for (const auto& column : stored_)
      stored &= scatter_column(chunk.column(column.chunk_column), sel, kept, payloads_.data(),
                               field_offsets(rows_.layout, column.field));
    if (!stored) throw Error("internal error: NULL value in a NOT NULL column");
    return true;
  }

 private:
  struct Stored {
    size_t chunk_column;
    size_t field;
  };

  const plan::JoinOp& join_;
  const plan::Materialization& rows_;
  JoinKeys keys_;
  uint32_t worker_;
  JoinTableRef table_;
  std::vector<Stored> stored_;                   // the build columns that are no key
  std::atomic<uint64_t>* build_rows_ = nullptr;  // null-aware anti join only
  std::atomic<uint64_t>* null_keys_ = nullptr;
  std::vector<uint32_t> selection_;
  std::vector<uint64_t> hashes_;
  std::vector<int64_t> cat_keys_;
  std::vector<uint8_t*> payloads_;
};

}  // namespace

std::unique_ptr<ChunkConsumer> make_join_build(const PipelineContext& context,
                                               const plan::JoinOp& join,
                                               const ChunkColumns& input) {
  return std::make_unique<JoinBuild>(context, join, input);
}

}  // namespace floe::vectorized
