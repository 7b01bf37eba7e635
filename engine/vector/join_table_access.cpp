#include "engine/vector/join_table_access.h"

#include <algorithm>
#include <numeric>
#include <type_traits>

#include "runtime/hash.h"
#include "runtime/vector/key_hash.h"
#include "runtime/vector/primitives.h"
#include "runtime/vector/row_gather.h"

namespace floe::vectorized {

JoinKeys::JoinKeys(const PipelineContext& context, const plan::JoinOp& join, bool build_side,
                   const ChunkColumns& input)
    : join_(join),
      build_side_(build_side),
      executor_(context.worker),
      strict_(join.keys.size() - join.mark_keys) {
  for (auto [id, index] : input) executor_.bind_column(id, index);
}

void JoinKeys::evaluate(const DataChunk& chunk) {
  keys_.clear();
  for (const auto& key : join_.keys)
    keys_.push_back(executor_.evaluate(build_side_ ? *key.build : *key.probe, chunk));
}

uint32_t JoinKeys::present(const uint32_t* sel, uint32_t n, size_t count, uint32_t* out) const {
  for (size_t k = 0; k < count; ++k) {
    if (keys_[k].all_valid()) continue;
    n = select_rows(sel, n, out, [&](uint32_t p) { return keys_[k].is_valid(p); });
    sel = out;
  }
  if (sel == out) return n;
  if (sel) {
    std::copy(sel, sel + n, out);
  } else {
    std::iota(out, out + n, 0u);
  }
  return n;
}

void JoinKeys::hash(const uint32_t* sel, uint32_t n, uint64_t* hashes, bool null_marks,
                    bool mark_build) const {
  const size_t hashed = null_marks || mark_build ? strict_ : keys_.size();
  // Without keys hashed, the chain is generated code's empty one: 0.
  if (hashed == 0) for_each_row(sel, n, [&](uint32_t p) { hashes[p] = 0; });
  for (size_t k = 0; k < hashed; ++k) hash_key_column(keys_[k], sel, n, hashes, k == 0);
  if (hashed == keys_.size()) return;
  // runtime/hash.h's hash_null_key per mark key: the strict keys' chain goes on with NULLs.
  auto with_null_marks = [&](uint64_t hash) {
    for (size_t k = strict_; k < keys_.size(); ++k) hash = hash_null_key(hash);
    return hash;
  };
  if (null_marks) {
    for_each_row(sel, n, [&](uint32_t p) { hashes[p] = with_null_marks(hashes[p]); });
    return;
  }
  // A stored row of a mark join: NULL mark keys all become NULL in the hash.
  std::vector<uint64_t> strict_hashes(hashes, hashes + (n ? (sel ? sel[n - 1] + 1 : n) : 0));
  for (size_t k = strict_; k < keys_.size(); ++k) hash_key_column(keys_[k], sel, n, hashes, k == 0);
  for_each_row(sel, n, [&](uint32_t p) {
    bool null_mark = false;
    for (size_t k = strict_; k < keys_.size(); ++k) null_mark |= !keys_[k].is_valid(p);
    if (null_mark) hashes[p] = with_null_marks(strict_hashes[p]);
  });
}

void JoinKeys::integer_keys(const uint32_t* sel, uint32_t n, int64_t* out) const {
  const size_t columns = keys_.size();
  for (size_t k = 0; k < columns; ++k) {
    const Vector& key = keys_[k];
    visit_physical(key.physical(), [&](auto t) {
      using T = decltype(t);
      if constexpr (std::is_integral_v<T>) {  // CAT keys are integers (physical_plan.cpp)
        const T* values = key.values<T>();
        for_each_row(sel, n, [&](uint32_t p) {
          out[p * columns + k] = key.is_valid(p) ? static_cast<int64_t>(values[p]) : 0;
        });
      }
    });
  }
}

JoinTableRef join_table_of(const PipelineContext& context, const plan::Materialization& rows) {
  JoinTableRef table;
  const plan::StateSlot& slot = context.physical.slots[rows.slot];
  if (slot.kind == plan::StateSlot::Kind::kConciseJoinTable) {
    table.concise = static_cast<ConciseJoinTable*>(context.state[rows.slot]);
    table.cat_key_columns = slot.cat_key_columns;
  } else {
    table.chaining = static_cast<JoinHashTable*>(context.state[rows.slot]);
  }
  return table;
}

JoinCandidates::JoinCandidates(const PipelineContext& context, const plan::Materialization& rows)
    : table_(join_table_of(context, rows)) {}

void JoinCandidates::reserve(uint32_t extent) {
  if (payloads_.size() >= extent) return;
  hashes_.resize(extent);
  cat_keys_.resize(size_t{extent} * table_.cat_key_columns);
  payloads_.resize(extent);
  entries_.resize(extent);
  cursors_.resize(extent);
  all_rows_.resize(extent);
}

uint32_t JoinCandidates::find(const uint32_t* sel, uint32_t n, uint32_t* out) {
  // X100-style (thesis §5.3; Barber et al. §2: data-independent accesses): first the whole
  // vector's first table accesses (directory slots, bitmap words) are prefetched, so that
  // their cache misses overlap, then the lookups read them; a CHT/CAT's candidate rows, which
  // the key comparison reads next, are prefetched by the lookup pass in turn.
  for_each_row(sel, n, [&](uint32_t p) {
    if (table_.chaining) {
      table_.chaining->prefetch(hashes_[p]);
    } else {
      table_.concise->prefetch(hashes_[p], cat_key(p));
    }
  });
  return select_rows(sel, n, out, [&](uint32_t p) {
    all_rows_[p] = 0;
    if (table_.chaining) {
      JoinEntry* entry = table_.chaining->lookup(hashes_[p]);
      entries_[p] = entry;
      payloads_[p] = entry ? entry->payload() : nullptr;
    } else {
      payloads_[p] = table_.concise->lookup(hashes_[p], cat_key(p), &cursors_[p]);
      if (payloads_[p]) __builtin_prefetch(payloads_[p]);
    }
    return payloads_[p] != nullptr;
  });
}

uint32_t JoinCandidates::find_all(const uint32_t* sel, uint32_t n, uint32_t* out) {
  return select_rows(sel, n, out, [&](uint32_t p) {
    all_rows_[p] = 1;
    if (table_.chaining) {
      JoinEntry* entry = table_.chaining->first();
      entries_[p] = entry;
      payloads_[p] = entry ? entry->payload() : nullptr;
    } else {
      cursors_[p].position = 0;
      payloads_[p] = table_.concise->size() ? table_.concise->row(0) : nullptr;
    }
    return payloads_[p] != nullptr;
  });
}

bool JoinCandidates::step(uint32_t p) {
  if (table_.chaining) {
    JoinEntry* entry = all_rows_[p] ? table_.chaining->following(entries_[p])
                                    : JoinHashTable::next(entries_[p], hashes_[p]);
    entries_[p] = entry;
    payloads_[p] = entry ? entry->payload() : nullptr;
  } else if (all_rows_[p]) {
    uint32_t next = ++cursors_[p].position;
    payloads_[p] = next < table_.concise->size() ? table_.concise->row(next) : nullptr;
  } else {
    payloads_[p] = table_.concise->next(hashes_[p], cat_key(p), &cursors_[p]);
  }
  return payloads_[p] != nullptr;
}

uint32_t JoinCandidates::advance(const uint32_t* sel, uint32_t n, uint32_t* out) {
  return select_rows(sel, n, out, [&](uint32_t p) { return step(p); });
}

JoinedRows::JoinedRows(const PipelineContext& context, const plan::JoinOp& join,
                       const ChunkColumns& probe)
    : layout_(context.physical.materialization(join).layout),
      capacity_(context.vector_size),
      probe_width_(probe.size()),
      columns_(probe) {
  for (const auto& column : context.physical.materialization(join).columns) {
    columns_[column.id] = probe_width_ + build_fields_.size();
    build_fields_.push_back(column.field);
  }
  for (size_t k = 0; k < join.keys.size(); ++k) key_slots_.push_back(plan::row_slot(layout_, k));
}

DataChunk JoinedRows::chunk(const DataChunk& probe, const uint32_t* positions,
                            const uint8_t* const* payloads, uint32_t n) const {
  DataChunk joined(capacity_);
  for (size_t c = 0; c < probe_width_; ++c) {
    Vector column(probe.column(c).type(), n);
    take_values(probe.column(c), positions, n, column);
    joined.add_column(std::move(column));
  }
  for (Vector& column : build_columns(payloads, n)) joined.add_column(std::move(column));
  joined.set_count(n);
  return joined;
}

std::vector<Vector> JoinedRows::build_columns(const uint8_t* const* payloads, uint32_t n) const {
  std::vector<Vector> columns;
  for (size_t field : build_fields_) {
    Vector column(layout_.field(field).type, n);
    if (payloads) {
      gather_column(payloads, n, field_offsets(layout_, field), column);
    } else {
      for (uint32_t i = 0; i < n; ++i) column.set_valid(i, false);
    }
    columns.push_back(std::move(column));
  }
  return columns;
}

}  // namespace floe::vectorized
