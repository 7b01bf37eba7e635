// The vectorized hash join probe of every join kind but the mark join (join_operators.h), as
// codegen/hash_join_translator.cpp's JoinProbe: per chunk, the probe keys are hashed, each
// row with present keys starts at its first candidate, and then, step by step, every row
// still walking compares its current candidate's keys (key_match.h), the matching pairs pass
// the residual, and the row moves on to its next candidate (X100 thesis §5.3). By join kind:
//  - inner and outer joins push the joined pairs, in chunks of at most the vector size
//    (pairs of several steps are gathered until the next step could overflow one);
//  - under logical or smart compaction an inner join without residual gathers them the same
//    way but copies only the build columns: the probe columns are referenced through an
//    extended selection vector (SIGMOD 2024 §5.2, logical_chunk.h), also when the probe
//    chunk is itself such a chunk;
//  - semi, anti and null-aware anti joins stop a row's walk at its first match and push the
//    probe chunk with a narrowed selection;
//  - left/full outer joins then push the unmatched probe rows with NULL build columns;
//  - right/full outer and right semi/anti joins set the matched byte of every matching
//    build row (relaxed, only when still 0, as generated code); right semi/anti push nothing.
#include <algorithm>
#include <atomic>
#include <set>
#include <vector>

#include "engine/plan/expression_utils.h"
#include "engine/vector/compaction.h"
#include "engine/vector/join_operators.h"
#include "engine/vector/join_table_access.h"
#include "runtime/vector/key_match.h"
#include "storage/error.h"

namespace floe::vectorized {
namespace {

using plan::JoinType;

bool outputs_pairs(JoinType type) {
  return type == JoinType::kInner || type == JoinType::kLeftOuter ||
         type == JoinType::kRightOuter || type == JoinType::kFullOuter;
}

bool preserves_probe(JoinType type) {
  return type == JoinType::kLeftOuter || type == JoinType::kFullOuter;
}

// The first match decides the probe row.
bool stops_at_match(JoinType type) {
  return type == JoinType::kSemi || type == JoinType::kAnti || type == JoinType::kNullAwareAnti;
}

bool flag_set(const PipelineContext& context, uint32_t slot) {
  return static_cast<std::atomic<uint64_t>*>(context.state[slot])
             ->load(std::memory_order_relaxed) != 0;
}

class JoinProbe : public ChunkOperator {
 public:
  JoinProbe(const PipelineContext& context, const plan::JoinOp& join, const ChunkColumns& input)
      : context_(context),
        join_(join),
        type_(join.type),
        rows_(context.physical.materialization(join)),
        keys_(context, join, false, input),
        candidates_(context, rows_),
        joined_(context, join, input),
        residual_executor_(context.worker),
        logical_(type_ == JoinType::kInner && !join.residual && logical_compaction(context, join)) {
    for (auto [id, index] : joined_.columns()) residual_executor_.bind_column(id, index);
    if (logical_) {
      std::set<plan::ColumnId> read;
      for (const auto& key : join.keys) plan::collect_columns(*key.probe, read);
      for (plan::ColumnId id : read)
        if (auto found = input.find(id); found != input.end()) key_columns_.insert(found->second);
    }
    if (outputs_pairs(type_)) {
      columns_ = joined_.columns();
    } else if (plan::join_outputs_probe(type_)) {
      columns_ = input;
    } else {
      // A right semi/anti join's probe pushes nothing; the operators above are built over
      // the build columns of the unmatched-rows source.
      for (size_t j = 0; j < rows_.columns.size(); ++j) columns_[rows_.columns[j].id] = j;
    }
  }

  bool consume(DataChunk& chunk) override {
    if (logical_) input_ = LogicalChunk::wrap(chunk, joined_.probe_width());
    return probe(chunk);
  }

  // Under logical compaction the pairs reference the chunk's rows; only the key columns are
  // read (copied, where indexed).
  bool consume_logical(LogicalChunk& chunk) override {
    if (!logical_) return ChunkConsumer::consume_logical(chunk);
    DataChunk keys = chunk.materialize(key_columns_);
    input_ = chunk.view(joined_.probe_width());
    return probe(keys);
  }

 private:
  bool probe(DataChunk& chunk) {
    const uint32_t n = chunk.count();
    if (n == 0) return true;
    // NOT IN: a NULL on the build side makes every row's result unknown.
    if (type_ == JoinType::kNullAwareAnti && flag_set(context_, rows_.build_null_key_slot))
      return true;
    const uint32_t extent = chunk.extent();
    keys_.evaluate(chunk);
    candidates_.reserve(extent);
    matched_.assign(extent, 0);
    active_.resize(n);
    match_.resize(n);
    const uint32_t* sel = chunk.selection();
    uint32_t walking = keys_.present(sel, n, keys_.count(), active_.data());
    if (type_ == JoinType::kNullAwareAnti && walking < n &&
        flag_set(context_, rows_.build_rows_slot)) {
      // A NULL probe key against a non-empty build side is unknown: the row is dropped, as
      // if it had matched.
      for (uint32_t i = 0; i < n; ++i) matched_[sel ? sel[i] : i] = 1;
      for (uint32_t i = 0; i < walking; ++i) matched_[active_[i]] = 0;
    }
    keys_.hash(active_.data(), walking, candidates_.hashes(), false, false);
    if (candidates_.cat_key_columns())
      keys_.integer_keys(active_.data(), walking, candidates_.cat_keys());
    walking = candidates_.find(active_.data(), walking, active_.data());
    while (walking > 0) {
      uint32_t matches = walking;
      const uint32_t* from = active_.data();
      for (size_t k = 0; k < join_.keys.size(); ++k) {
        matches = match_key_column(keys_.key(k), from, matches, candidates_.payloads(),
                                   joined_.key_slot(k), true, match_.data());
        from = match_.data();
      }
      if (join_.keys.empty()) std::copy(active_.begin(), active_.begin() + walking, match_.begin());
      if (matches > 0 && !on_matches(chunk, matches)) return false;
      if (stops_at_match(type_)) {
        walking = select_unmatched(walking);
      }
      walking = candidates_.advance(active_.data(), walking, active_.data());
    }
    if (!flush_pairs(chunk)) return false;
    return finish(chunk);
  }

  // The pairs (match_[i], its current candidate) of one step, key-equal.
  bool on_matches(const DataChunk& chunk, uint32_t matches) {
    if (outputs_pairs(type_)) {
      if (pair_positions_.size() + matches > context_.vector_size && !flush_pairs(chunk))
        return false;
      for (uint32_t i = 0; i < matches; ++i) {
        pair_positions_.push_back(match_[i]);
        pair_payloads_.push_back(candidates_.payloads()[match_[i]]);
      }
      return true;
    }
    pair_positions_.assign(match_.begin(), match_.begin() + matches);
    pair_payloads_.clear();
    for (uint32_t i = 0; i < matches; ++i)
      pair_payloads_.push_back(candidates_.payloads()[match_[i]]);
    if (!join_.residual) {
      mark_pairs(nullptr, matches);
    } else {
      DataChunk joined = joined_pairs(chunk);
      uint32_t passed = residual_executor_.select(*join_.residual, joined, residual_);
      mark_pairs(residual_.data(), passed);
    }
    pair_positions_.clear();
    pair_payloads_.clear();
    return true;
  }

  DataChunk joined_pairs(const DataChunk& chunk) {
    return joined_.chunk(chunk, pair_positions_.data(), pair_payloads_.data(),
                         static_cast<uint32_t>(pair_positions_.size()));
  }

  // The pairs (all, or those at `passed[0..count)`) matched: their probe rows, and their
  // build rows' matched bytes where the join keeps build rows.
  void mark_pairs(const uint32_t* passed, uint32_t count) {
    const bool mark_build = plan::join_preserves_build(type_);
    // The "matched" byte is the last field only where the join keeps build rows; a cross
    // join's build rows may have no field at all.
    const uint32_t flag = mark_build ? rows_.layout.offset(rows_.layout.field_count() - 1) : 0;
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t pair = passed ? passed[i] : i;
      matched_[pair_positions_[pair]] = 1;
      if (!mark_build) continue;
      // Relaxed: the bytes are read only after the probe pipeline has finished.
      std::atomic_ref<uint8_t> byte(pair_payloads_[pair][flag]);
      if (byte.load(std::memory_order_relaxed) == 0) byte.store(1, std::memory_order_relaxed);
    }
  }

  // Inner and outer joins: pushes the gathered pairs that pass the residual.
  bool flush_pairs(const DataChunk& chunk) {
    if (pair_positions_.empty()) return true;
    // The statement may be canceled while a probe chunk has many matches.
    if (context_.worker.query->check_canceled())
      throw Error(context_.worker.query->error_message());
    if (logical_) return flush_logical();
    DataChunk joined = joined_pairs(chunk);
    uint32_t count = joined.count();
    if (join_.residual) {
      count = residual_executor_.select(*join_.residual, joined, residual_);
      joined.set_selection(residual_.data());
      joined.set_count(count);
    }
    mark_pairs(join_.residual ? residual_.data() : nullptr, count);
    pair_positions_.clear();
    pair_payloads_.clear();
    return count == 0 || next_->consume(joined);
  }

  bool flush_logical() {
    const auto n = static_cast<uint32_t>(pair_positions_.size());
    LogicalChunk joined = input_.view(joined_.probe_width());
    joined.select(pair_positions_.data(), n);
    const size_t build = joined.add_group(nullptr);
    for (Vector& column : joined_.build_columns(pair_payloads_.data(), n))
      joined.add_column(std::move(column), build);
    mark_pairs(nullptr, n);
    pair_positions_.clear();
    pair_payloads_.clear();
    return next_->consume_logical(joined);
  }

  // Keeps the walking rows that have not matched yet.
  uint32_t select_unmatched(uint32_t walking) {
    uint32_t kept = 0;
    for (uint32_t i = 0; i < walking; ++i) {
      active_[kept] = active_[i];
      kept += matched_[active_[i]] == 0;
    }
    return kept;
  }

  // After the walk: what depends on whether a probe row matched.
  bool finish(DataChunk& chunk) {
    const bool wants_matched = type_ == JoinType::kSemi;
    if (!preserves_probe(type_) && !wants_matched && type_ != JoinType::kAnti &&
        type_ != JoinType::kNullAwareAnti)
      return true;
    const uint32_t* sel = chunk.selection();
    output_.resize(chunk.count());
    uint32_t count = 0;
    for (uint32_t i = 0; i < chunk.count(); ++i) {
      const uint32_t p = sel ? sel[i] : i;
      output_[count] = p;
      count += (matched_[p] != 0) == wants_matched;
    }
    if (count == 0) return true;
    if (preserves_probe(type_)) {
      DataChunk extended = joined_.chunk(chunk, output_.data(), nullptr, count);
      return next_->consume(extended);
    }
    chunk.set_selection(output_.data());
    chunk.set_count(count);
    return next_->consume(chunk);
  }

  const PipelineContext& context_;
  const plan::JoinOp& join_;
  const JoinType type_;
  const plan::Materialization& rows_;
  JoinKeys keys_;
  JoinCandidates candidates_;
  JoinedRows joined_;
  ExpressionExecutor residual_executor_;  // over the joined rows
  std::vector<uint8_t> matched_;          // by position: the probe row matched
  std::vector<uint32_t> active_;          // the rows still walking
  std::vector<uint32_t> match_;           // of those, the ones whose candidate matches
  std::vector<uint32_t> pair_positions_;  // gathered pairs: probe row and build row
  std::vector<uint8_t*> pair_payloads_;
  std::vector<uint32_t> residual_;
  std::vector<uint32_t> output_;
  const bool logical_;            // the pairs go on as LogicalChunks
  std::set<size_t> key_columns_;  // logical: the input columns the probe keys read
  LogicalChunk input_{0, 0};      // logical: the probe chunk's rows the pairs select
};

}  // namespace

std::unique_ptr<ChunkOperator> make_join_probe(const PipelineContext& context,
                                               const plan::JoinOp& join,
                                               const ChunkColumns& input) {
  if (join.type == JoinType::kMark) return make_mark_join_probe(context, join, input);
  return std::make_unique<JoinProbe>(context, join, input);
}

}  // namespace floe::vectorized
