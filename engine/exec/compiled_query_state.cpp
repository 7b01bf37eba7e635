#include "engine/exec/compiled_query_state.h"

#include <atomic>

#include "runtime/table_scan_cursor.h"

namespace floe {

namespace {
using Kind = codegen::StateSlot::Kind;
}

CompiledQueryState::CompiledQueryState(const std::vector<codegen::StateSlot>& slots,
                                       uint32_t worker_count) {
  for (const auto& slot : slots) {
    std::shared_ptr<void> object;
    switch (slot.kind) {
      case Kind::kScanCursors: {
        // An array of one cursor per worker; the cursors are owned next to it.
        auto cursors = std::make_shared<std::vector<TableScanCursor*>>();
        for (uint32_t w = 0; w < worker_count; ++w) {
          auto cursor = std::make_shared<TableScanCursor>(*slot.table, slot.columns);
          cursors->push_back(cursor.get());
          owned_.push_back(std::move(cursor));
        }
        pointers_.push_back(cursors->data());
        owned_.push_back(std::move(cursors));
        continue;
      }
      case Kind::kJoinTable:
        object = std::make_shared<JoinHashTable>(slot.size, worker_count);
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

uint64_t CompiledQueryState::counter(uint32_t slot) const {
  return static_cast<const std::atomic<uint64_t>*>(pointers_[slot])->load();
}

}  // namespace floe
