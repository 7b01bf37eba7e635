#include "storage/row_versions.h"

namespace floe {

namespace {
thread_local uint64_t writer = 0;
}

ChunkVersions::ChunkVersions() : deleted_(new std::atomic<uint64_t>[kChunkCapacity / 64]()) {}

ChunkVersions::~ChunkVersions() {
  for (auto& page : heads_) delete[] page.load(std::memory_order_relaxed);
}

void ChunkVersions::set_head(uint32_t row, UndoEntry* entry) {
  std::atomic<std::atomic<UndoEntry*>*>& pages = heads_[row / kPageRows];
  std::atomic<UndoEntry*>* page = pages.load(std::memory_order_acquire);
  if (!page) {
    if (!entry) return;
    page = new std::atomic<UndoEntry*>[kPageRows]();
    pages.store(page, std::memory_order_release);
  }
  std::atomic<UndoEntry*>& head = page[row % kPageRows];
  UndoEntry* old = head.load(std::memory_order_relaxed);
  if (!old && entry) chained_rows_.fetch_add(1, std::memory_order_relaxed);
  if (old && !entry) chained_rows_.fetch_sub(1, std::memory_order_relaxed);
  head.store(entry, std::memory_order_release);
}

void ChunkVersions::set_deleted(uint32_t row, bool deleted) {
  if (this->deleted(row) == deleted) return;
  deleted_[row >> 6].fetch_xor(uint64_t{1} << (row & 63), std::memory_order_release);
  if (deleted)
    deleted_rows_.fetch_add(1, std::memory_order_relaxed);
  else
    deleted_rows_.fetch_sub(1, std::memory_order_relaxed);
}

const Value* RowVersion::before_image(size_t column) const {
  // The oldest change the snapshot cannot see holds the value it sees: the last in the list.
  for (auto entry = updates.rbegin(); entry != updates.rend(); ++entry) {
    const auto& columns = (*entry)->columns;
    for (size_t i = 0; i < columns.size(); ++i)
      if (columns[i] == column) return &(*entry)->before[i];
  }
  return nullptr;
}

RowVersion visible_version(const ChunkVersions& versions, uint32_t row, const Snapshot& snapshot) {
  RowVersion version;
  version.exists = !versions.deleted(row);
  for (const UndoEntry* entry = versions.head(row);
       entry && !snapshot.sees(entry->timestamp.load(std::memory_order_acquire));
       entry = entry->older.load(std::memory_order_acquire)) {
    switch (entry->kind) {
      case UndoEntry::Kind::kInsert:
        version.exists = false;
        break;
      case UndoEntry::Kind::kDelete:
        version.exists = true;
        break;
      case UndoEntry::Kind::kUpdate:
        version.updates.push_back(entry);
        break;
    }
  }
  return version;
}

uint64_t current_writer() {
  return writer;
}

WriterScope::WriterScope(uint64_t transaction) : previous_(writer) {
  writer = transaction;
}

WriterScope::~WriterScope() {
  writer = previous_;
}

}  // namespace floe
