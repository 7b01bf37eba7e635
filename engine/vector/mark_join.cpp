// The vectorized mark join probe (join_operators.h), as codegen/mark_join_translator.cpp
// (Neumann & Kemper, "Unnesting Arbitrary Queries", BTW 2015, section 2.2): every probe row
// passes on once, with its mark in a new column:
//  - a NULL strict key: FALSE;
//  - no NULL mark key: the candidates under the hash of its keys can make the mark TRUE
//    (and unknown), then those under the hash with NULL mark keys only unknown;
//  - a NULL mark key: every stored row is a candidate, which can only make it unknown.
// A row's walk ends at its first TRUE, and in the walks where TRUE is no longer possible at
// its first unknown. The walks go step by step over the rows still walking, as the probe of
// the other joins (hash_join_probe.cpp).
#include <algorithm>
#include <vector>

#include "engine/vector/join_operators.h"
#include "engine/vector/join_table_access.h"
#include "runtime/vector/key_match.h"

namespace floe::vectorized {
namespace {

class MarkJoinProbe : public ChunkOperator {
 public:
  MarkJoinProbe(const PipelineContext& context, const plan::JoinOp& join, const ChunkColumns& input)
      : context_(context),
        join_(join),
        rows_(context.physical.materialization(join)),
        keys_(context, join, false, input),
        candidates_(context, rows_),
        joined_(context, join, input),
        condition_executor_(context.worker),
        mark_type_(context.plan.registry[join.mark].type),
        nullable_(context.plan.registry[join.mark].nullable) {
    for (auto [id, index] : joined_.columns()) condition_executor_.bind_column(id, index);
    columns_ = input;
    columns_[join.mark] = input.size();
  }

  bool consume(DataChunk& chunk) override {
    const uint32_t n = chunk.count();
    if (n == 0) return true;
    const uint32_t extent = chunk.extent();
    keys_.evaluate(chunk);
    candidates_.reserve(extent);
    value_.assign(extent, 0);
    unknown_.assign(extent, 0);
    decided_.assign(extent, 0);
    equal_.assign(extent, 0);
    hashed_.resize(n);
    all_.resize(n);
    match_.resize(n);
    // Rows with a NULL strict key keep FALSE; the others walk by hash or, with a NULL mark
    // key, over every row.
    uint32_t strict = keys_.present(chunk.selection(), n, keys_.strict(), hashed_.data());
    uint32_t by_hash = 0, by_scan = 0;
    for (uint32_t i = 0; i < strict; ++i) {
      const uint32_t p = hashed_[i];
      bool null_mark = false;
      for (size_t k = keys_.strict(); k < keys_.count(); ++k)
        null_mark |= !keys_.key(k).is_valid(p);
      if (null_mark) {
        all_[by_scan++] = p;
      } else {
        hashed_[by_hash++] = p;
      }
    }
    walk(chunk, all_.data(), candidates_.find_all(all_.data(), by_scan, all_.data()), true);
    keys_.hash(hashed_.data(), by_hash, candidates_.hashes(), false, false);
    // The walk compacts its rows in place: the second walk starts from a copy.
    walking_.assign(hashed_.begin(), hashed_.begin() + by_hash);
    walk(chunk, walking_.data(), candidates_.find(walking_.data(), by_hash, walking_.data()),
         false);
    if (join_.mark_keys > 0) {
      uint32_t undecided = 0;
      for (uint32_t i = 0; i < by_hash; ++i) {
        hashed_[undecided] = hashed_[i];
        undecided += decided_[hashed_[i]] == 0;
      }
      keys_.hash(hashed_.data(), undecided, candidates_.hashes(), true, false);
      walk(chunk, hashed_.data(), candidates_.find(hashed_.data(), undecided, hashed_.data()),
           true);
    }
    Vector mark(mark_type_, extent);
    uint8_t* values = mark.mutable_values<uint8_t>();
    const uint32_t* sel = chunk.selection();
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t p = sel ? sel[i] : i;
      values[p] = value_[p];
      if (nullable_ && unknown_[p]) mark.set_valid(p, false);
    }
    chunk.add_column(std::move(mark));
    return next_->consume(chunk);
  }

 private:
  // Walks the rows rows[0..count) (each at its first candidate) until decided or exhausted.
  void walk(const DataChunk& chunk, uint32_t* rows, uint32_t count, bool unknown_ends) {
    const size_t strict = keys_.strict();
    while (count > 0) {
      uint32_t matches = count;
      const uint32_t* from = rows;
      for (size_t k = 0; k < strict; ++k) {
        matches = match_key_column(keys_.key(k), from, matches, candidates_.payloads(),
                                   joined_.key_slot(k), true, match_.data());
        from = match_.data();
      }
      if (strict == 0) std::copy(rows, rows + count, match_.begin());
      if (matches > 0) decide(chunk, matches, unknown_ends);
      uint32_t walking = 0;
      for (uint32_t i = 0; i < count; ++i) {
        rows[walking] = rows[i];
        walking += decided_[rows[i]] == 0;
      }
      count = candidates_.advance(rows, walking, rows);
    }
  }

  // The three-valued AND of the mark key equalities and the mark condition for the pairs
  // (match_[i], its candidate) that pass the residual: FALSE leaves the mark; TRUE decides
  // it; unknown sets it unknown and, with `unknown_ends`, decides it (settle).
  void decide(const DataChunk& chunk, uint32_t matches, bool unknown_ends) {
    uint8_t* const* payloads = candidates_.payloads();
    is_false_.assign(matches, 0);
    is_null_.assign(matches, 0);
    for (size_t k = keys_.strict(); k < keys_.count(); ++k) {
      const Vector& key = keys_.key(k);
      equal_rows_.resize(matches);
      uint32_t equal = match_key_column(key, match_.data(), matches, payloads, joined_.key_slot(k), false,
                                        equal_rows_.data());
      for (uint32_t e = 0; e < equal; ++e) equal_[equal_rows_[e]] = 1;
      for (uint32_t i = 0; i < matches; ++i) {
        const uint32_t p = match_[i];
        const bool null = !key.is_valid(p) || joined_.key_slot(k).is_null(payloads[p]);
        is_null_[i] |= null;
        is_false_[i] |= !null && !equal_[p];
        equal_[p] = 0;
      }
    }
    if (join_.residual || join_.mark_condition) {
      pair_payloads_.resize(matches);
      for (uint32_t i = 0; i < matches; ++i) pair_payloads_[i] = payloads[match_[i]];
      DataChunk joined = joined_.chunk(chunk, match_.data(), pair_payloads_.data(), matches);
      if (join_.residual) {
        // A pair the residual rejects is no candidate (generated code's join_pair).
        rejected_.assign(matches, 1);
        uint32_t passed = condition_executor_.select(*join_.residual, joined, residual_);
        for (uint32_t r = 0; r < passed; ++r) rejected_[residual_[r]] = 0;
        for (uint32_t i = 0; i < matches; ++i) is_false_[i] |= rejected_[i];
      }
      if (!join_.mark_condition) return settle(matches, unknown_ends);
      Vector condition = condition_executor_.evaluate(*join_.mark_condition, joined);
      const uint8_t* values = condition.values<uint8_t>();
      for (uint32_t i = 0; i < matches; ++i) {
        if (!condition.is_valid(i)) {
          is_null_[i] = 1;
        } else if (!values[i]) {
          is_false_[i] = 1;
        }
      }
    }
    settle(matches, unknown_ends);
  }

  void settle(uint32_t matches, bool unknown_ends) {
    for (uint32_t i = 0; i < matches; ++i) {
      if (is_false_[i]) continue;
      const uint32_t p = match_[i];
      value_[p] = !is_null_[i];
      unknown_[p] = is_null_[i];
      if (!is_null_[i] || unknown_ends) decided_[p] = 1;
    }
  }

  const PipelineContext& context_;
  const plan::JoinOp& join_;
  const plan::Materialization& rows_;
  JoinKeys keys_;
  JoinCandidates candidates_;
  JoinedRows joined_;
  ExpressionExecutor condition_executor_;  // over the joined rows
  SqlType mark_type_;
  bool nullable_;
  // By position: the mark so far, and whether the row's walk has ended.
  std::vector<uint8_t> value_, unknown_, decided_, equal_;
  std::vector<uint32_t> hashed_, walking_, all_, match_, equal_rows_;
  // By pair of a step.
  std::vector<uint8_t> is_false_, is_null_, rejected_;
  std::vector<uint32_t> residual_;
  std::vector<uint8_t*> pair_payloads_;
};

}  // namespace

std::unique_ptr<ChunkOperator> make_mark_join_probe(const PipelineContext& context,
                                                    const plan::JoinOp& join,
                                                    const ChunkColumns& input) {
  return std::make_unique<MarkJoinProbe>(context, join, input);
}

}  // namespace floe::vectorized
