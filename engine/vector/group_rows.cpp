#include "engine/vector/group_rows.h"

#include "runtime/vector/key_hash.h"
#include "runtime/vector/key_match.h"
#include "runtime/vector/primitives.h"
#include "storage/physical_order.h"

namespace floe::vectorized {

GroupRows::GroupRows(const plan::AggregateLayout& layout) {
  for (size_t k = 0; k < layout.key_types.size(); ++k) {
    RowSlot slot = plan::row_slot(layout.layout, k);
    keys_.push_back(slot);
    RowFieldOffsets field{slot.offset, std::nullopt};
    if (slot.null_offset >= 0) field.null_offset = static_cast<uint32_t>(slot.null_offset);
    key_fields_.push_back(field);
  }
  for (const auto& state : layout.states)
    kernels_.push_back(plan::state_kernel(state, layout.layout));
}

// The X100 thesis' vectorized hash table lookup (§5.3): hash all rows, then walk the chains
// a step at a time for all rows at once, comparing keys column by column (check/recheck).
// The rows whose chain ends are new groups; two of them with one hash in the same chunk may
// have one key, so only the first of each hash is inserted per round, and the others look
// again in the next round (where they find it, or, with another key, insert theirs).
void GroupRows::find_or_insert(AggregationHashTable& table, WorkerContext& worker,
                               const std::vector<Vector>& keys, const uint32_t* sel, uint32_t n,
                               uint32_t extent, uint8_t** rows) {
  hashes_.resize(extent);
  candidates_.resize(extent);
  candidate_rows_.resize(extent);
  for (size_t k = 0; k < keys.size(); ++k) hash_key_column(keys[k], sel, n, hashes_.data(), k == 0);
  remaining_.resize(n);
  pending_.resize(n);
  matched_.resize(n);
  uint32_t left = 0;
  for_each_row(sel, n, [&](uint32_t p) { remaining_[left++] = p; });
  const uint32_t worker_id = worker.worker_id;
  while (left > 0) {
    uint32_t walking = left;
    for (uint32_t i = 0; i < left; ++i) {
      const uint32_t p = remaining_[i];
      pending_[i] = p;
      candidates_[p] = table.lookup(worker_id, hashes_[p]);
    }
    missing_.clear();
    while (walking > 0) {
      // Rows at the end of their chain are missing; the others compare their candidate.
      uint32_t with = 0;
      for (uint32_t i = 0; i < walking; ++i) {
        const uint32_t p = pending_[i];
        if (!candidates_[p]) {
          missing_.push_back(p);
          continue;
        }
        candidate_rows_[p] = candidates_[p]->payload();
        rows[p] = nullptr;
        pending_[with++] = p;
      }
      uint32_t matched = with;
      const uint32_t* candidates = pending_.data();
      for (size_t k = 0; k < keys.size() && matched > 0; ++k) {
        matched = match_key_column(keys[k], candidates, matched, candidate_rows_.data(), keys_[k],
                                   true, matched_.data());
        candidates = matched_.data();
      }
      for (uint32_t i = 0; i < matched; ++i) rows[matched_[i]] = candidate_rows_[matched_[i]];
      // The others go on along their chain.
      walking = 0;
      for (uint32_t i = 0; i < with; ++i) {
        const uint32_t p = pending_[i];
        if (rows[p]) continue;
        candidates_[p] = AggregationHashTable::next(candidates_[p], hashes_[p]);
        pending_[walking++] = p;
      }
    }
    insert_missing(table, worker, keys, rows);
    left = static_cast<uint32_t>(remaining_.size());
  }
}

void GroupRows::insert_missing(AggregationHashTable& table, WorkerContext& worker,
                               const std::vector<Vector>& keys, uint8_t** rows) {
  remaining_.clear();
  inserted_positions_.clear();
  inserted_rows_.clear();
  inserted_hashes_.clear();
  for (uint32_t p : missing_) {
    if (!inserted_hashes_.insert(hashes_[p]).second) {
      remaining_.push_back(p);
      continue;
    }
    rows[p] = table.insert(worker.worker_id, hashes_[p]);
    inserted_positions_.push_back(p);
    inserted_rows_.push_back(rows[p]);
  }
  const auto count = static_cast<uint32_t>(inserted_rows_.size());
  for (size_t k = 0; k < keys.size(); ++k) {
    scatter_column(keys[k], inserted_positions_.data(), count, inserted_rows_.data(),
                   key_fields_[k]);
    if (keys[k].physical() != PhysicalType::kString) continue;
    for (uint8_t* row : inserted_rows_) {
      if (keys_[k].is_null(row)) continue;
      auto string = keys_[k].load<StringRef>(row);
      if (!string.is_inline()) keys_[k].store(row, worker.strings->store(string.view()));
    }
  }
}

bool GroupRows::keys_equal(const uint8_t* a, const uint8_t* b, const void* context) {
  const auto& groups = *static_cast<const GroupRows*>(context);
  for (const RowSlot& slot : groups.keys_) {
    const bool a_null = slot.is_null(a);
    const bool b_null = slot.is_null(b);
    if (a_null || b_null) {
      if (a_null != b_null) return false;
      continue;
    }
    const bool equal = visit_physical(slot.type, [&](auto t) {
      using T = decltype(t);
      return sql_compare(slot.load<T>(a), slot.load<T>(b)) == 0;
    });
    if (!equal) return false;
  }
  return true;
}

bool GroupRows::merge(WorkerContext* worker, uint8_t* into, const uint8_t* from,
                      const void* context) {
  const auto& groups = *static_cast<const GroupRows*>(context);
  // A collected state moves its items out of `from` (aggregate_kernels.h).
  uint8_t* source = const_cast<uint8_t*>(from);
  for (const StateKernel& kernel : groups.kernels_) {
    if (!combine_states(kernel, *worker, &into, &source, 1)) return false;
  }
  return true;
}

}  // namespace floe::vectorized
