// The vectorized early bitmap filter (join_operators.h; VLDB 2015 section 3.1, the joins
// and the place: engine/plan/bitmap_filter_joins.h), as codegen/bitmap_filter_translator.cpp:
// the chunk's selection keeps the rows whose probe keys every taking-part join's CHT/CAT
// bitmap may contain. A NULL key matches nothing in these joins, so its row goes too.
#include <vector>

#include "engine/plan/bitmap_filter_joins.h"
#include "engine/vector/join_operators.h"
#include "engine/vector/join_table_access.h"
#include "runtime/vector/primitives.h"

namespace floe::vectorized {
namespace {

class BitmapFilter : public ChunkOperator {
 public:
  BitmapFilter(const PipelineContext& context, const std::vector<const plan::JoinOp*>& joins,
               const ChunkColumns& input) {
    columns_ = input;
    for (const plan::JoinOp* join : joins) {
      bool available = true;
      for (const auto& key : join->keys) available = available && input.count(key.probe->column);
      if (!available) continue;
      joins_.push_back({JoinKeys(context, *join, false, input),
                        join_table_of(context, context.physical.materialization(*join))});
    }
  }

  bool consume(DataChunk& chunk) override {
    uint32_t n = chunk.count();
    const uint32_t extent = chunk.extent();
    selection_.resize(n);
    hashes_.resize(extent);
    const uint32_t* sel = chunk.selection();
    for (Join& join : joins_) {
      join.keys.evaluate(chunk);
      n = join.keys.present(sel, n, join.keys.count(), selection_.data());
      sel = selection_.data();
      join.keys.hash(sel, n, hashes_.data(), false, false);
      const uint32_t columns = join.table.cat_key_columns;
      cat_keys_.resize(size_t{extent} * columns);
      if (columns) join.keys.integer_keys(sel, n, cat_keys_.data());
      n = select_rows(sel, n, selection_.data(), [&](uint32_t p) {
        return join.table.concise->may_contain(hashes_[p],
                                               columns ? &cat_keys_[size_t{p} * columns] : nullptr);
      });
    }
    if (n == 0) return true;
    chunk.set_selection(sel);
    chunk.set_count(n);
    return next_->consume(chunk);
  }

 private:
  struct Join {
    JoinKeys keys;
    JoinTableRef table;
  };
  std::vector<Join> joins_;
  std::vector<uint32_t> selection_;
  std::vector<uint64_t> hashes_;
  std::vector<int64_t> cat_keys_;
};

}  // namespace

std::unique_ptr<ChunkOperator> make_bitmap_filter(const PipelineContext& context,
                                                  const plan::Pipeline& pipeline, size_t position,
                                                  const ChunkColumns& input) {
  auto joins = plan::bitmap_filter_joins(pipeline, position, context.physical);
  if (joins.empty()) return nullptr;
  return std::make_unique<BitmapFilter>(context, joins, input);
}

}  // namespace floe::vectorized
