#include "engine/exec/query_state.h"

#include <algorithm>
#include <atomic>

#include "runtime/predicate_log.h"
#include "runtime/table_scanner.h"
#include "storage/error.h"

namespace floe {

namespace {
using Kind = plan::StateSlot::Kind;
}

QueryState::QueryState(const std::vector<plan::StateSlot>& slots, uint32_t worker_count,
                       const ScanSettings& scan)
    : worker_count_(worker_count) {
  index_rows_.resize(slots.size());
  for (const auto& slot : slots) {
    kinds_.push_back(slot.kind);
    std::shared_ptr<void> object;
    switch (slot.kind) {
      case Kind::kScanCursors: {
        if (scan.reads) scan.reads->add(*slot.table, slot.restrictions);
        // An array of one scanner per worker; the scanners are owned next to it.
        auto scanners = std::make_shared<std::vector<TableScanner*>>();
        // An index scan looks its rows up once, for all workers; the probe scan of an index
        // nested-loop join once its join table is complete (finalize_join_table).
        std::vector<uint64_t>* row_ids = nullptr;
        if (slot.index || slot.index_join) {
          auto ids = std::make_shared<std::vector<uint64_t>>(slot.index ? index_row_ids(*slot.index)
                                                                        : std::vector<uint64_t>{});
          if (slot.index_join)
            index_joins_.push_back({slot.index_join_table, *slot.index_join, ids.get()});
          row_ids = ids.get();
          index_rows_[pointers_.size()] = row_ids;
          owned_.push_back(std::move(ids));
        }
        for (uint32_t w = 0; w < worker_count; ++w) {
          auto scanner = std::make_shared<TableScanner>(*slot.table, slot.columns,
                                                        slot.restrictions, scan, row_ids);
          scanners->push_back(scanner.get());
          owned_.push_back(std::move(scanner));
        }
        pointers_.push_back(scanners->data());
        owned_.push_back(std::move(scanners));
        continue;
      }
      case Kind::kJoinTable:
        object = std::make_shared<JoinHashTable>(slot.size, worker_count);
        break;
      case Kind::kConciseJoinTable:
        object = std::make_shared<ConciseJoinTable>(slot.size, worker_count, slot.cat_key_columns);
        break;
      case Kind::kAggregationTable:
        object = std::make_shared<AggregationHashTable>(slot.size, worker_count);
        break;
      case Kind::kRowBuffer:
        object = std::make_shared<RowBuffer>(slot.size, worker_count);
        break;
      case Kind::kCounter:
        object = std::make_shared<std::atomic<uint64_t>>(0);
        break;
    }
    pointers_.push_back(object.get());
    owned_.push_back(std::move(object));
  }
}

bool QueryState::restartable(const std::vector<plan::StateSlot>& slots) {
  return std::all_of(slots.begin(), slots.end(), [](const plan::StateSlot& slot) {
    return (slot.kind == Kind::kScanCursors && !slot.index_join) ||
           slot.kind == Kind::kRowBuffer || slot.kind == Kind::kCounter;
  });
}

void QueryState::restart(const std::vector<plan::StateSlot>& slots, const ScanSettings& scan) {
  for (uint32_t s = 0; s < slots.size(); ++s) {
    const plan::StateSlot& slot = slots[s];
    switch (slot.kind) {
      case Kind::kScanCursors: {
        if (scan.reads) scan.reads->add(*slot.table, slot.restrictions);
        if (slot.index) *index_rows_[s] = index_row_ids(*slot.index);
        auto* const* scanners = static_cast<TableScanner* const*>(pointers_[s]);
        for (uint32_t w = 0; w < worker_count_; ++w)
          scanners[w]->restart(slot.restrictions, scan);
        break;
      }
      case Kind::kRowBuffer:
        rows(s).clear();
        break;
      case Kind::kCounter:
        static_cast<std::atomic<uint64_t>*>(pointers_[s])->store(0);
        break;
      default:
        throw Error("internal error: restarting the state of a query with hash tables");
    }
  }
}

ScanStatistics QueryState::scan_statistics(uint32_t slot, uint32_t worker_count) const {
  ScanStatistics total;
  auto* const* scanners = static_cast<TableScanner* const*>(pointers_[slot]);
  for (uint32_t w = 0; w < worker_count; ++w) total += scanners[w]->statistics();
  return total;
}

void QueryState::finalize_join_table(uint32_t slot, const std::atomic<bool>* cancel) {
  if (kinds_[slot] == Kind::kConciseJoinTable) {
    concise_join_table(slot).finalize(cancel);
  } else {
    join_table(slot).finalize(cancel);
  }
  for (const IndexJoin& index_join : index_joins_) {
    if (index_join.table_slot != slot) continue;
    std::vector<const uint8_t*> rows;
    if (kinds_[slot] == Kind::kConciseJoinTable) {
      const ConciseJoinTable& table = concise_join_table(slot);
      for (uint32_t r = 0; r < table.size(); ++r) rows.push_back(table.row(r));
    } else {
      const JoinHashTable& table = join_table(slot);
      for (const JoinEntry* entry = table.first(); entry; entry = table.following(entry))
        rows.push_back(reinterpret_cast<const uint8_t*>(entry + 1));
    }
    *index_join.row_ids = index_join_row_ids(index_join.lookup, rows);
  }
}

uint64_t QueryState::join_scan_units(uint32_t slot) {
  if (kinds_[slot] == Kind::kConciseJoinTable) return concise_join_table(slot).size();
  return join_table(slot).slot_count();
}

uint64_t QueryState::counter(uint32_t slot) const {
  return static_cast<const std::atomic<uint64_t>*>(pointers_[slot])->load();
}

}  // namespace floe
