#include "engine/txn/transaction.h"

#include <algorithm>

#include "storage/epoch_manager.h"
#include "storage/error.h"

namespace floe {

namespace {

uint32_t row_in_chunk(uint64_t row_id) {
  return static_cast<uint32_t>(row_id & (kChunkCapacity - 1));
}

// Whether any of `columns` is a column of a unique index.
bool changes_keys(const Table& table, const std::vector<uint32_t>& columns) {
  for (const auto& index : table.unique_indexes())
    for (size_t key : index->constraint().columns)
      if (std::find(columns.begin(), columns.end(), key) != columns.end()) return true;
  return false;
}

}  // namespace

UndoEntry& Transaction::add_entry(UndoEntry::Kind kind, Table& table, uint64_t row_id) {
  UndoEntry& entry = undo_.emplace_back();
  entry.kind = kind;
  entry.timestamp.store(id_, std::memory_order_relaxed);
  entry.table = &table;
  entry.row_id = row_id;
  return entry;
}

Transaction::Append::Append(Transaction& transaction, Table& table)
    : transaction_(transaction), table_(table), old_row_count_(table.row_count()) {
  table.hide_appends();
}

Transaction::Append::~Append() { transaction_.record_append(table_, old_row_count_); }

bool Transaction::try_without_readers(const std::function<void()>& change) {
  std::unique_lock<ReaderLatch> alone;
  if (readers_) {
    alone = std::unique_lock(*readers_, std::try_to_lock);
    if (!alone.owns_lock()) return false;
  }
  change();
  return true;
}

void Transaction::record_append(Table& table, uint64_t old_row_count) {
  // The appended rows of each chunk, in chunk order: rollback undoes them last chunk first,
  // so each is then the table's tail and can be truncated.
  struct Segment {
    size_t chunk;
    uint32_t first, end;
  };
  std::vector<Segment> segments;
  uint64_t remaining = table.row_count();
  for (size_t c = table.chunk_count(); c-- > 0 && remaining > old_row_count;) {
    const uint32_t size = table.chunk(c).size();
    const uint32_t first = remaining - size >= old_row_count
                               ? 0
                               : static_cast<uint32_t>(old_row_count - (remaining - size));
    segments.push_back({c, first, size});
    remaining -= size;
  }
  for (auto segment = segments.rbegin(); segment != segments.rend(); ++segment) {
    UndoEntry& entry = add_entry(UndoEntry::Kind::kInsert, table,
                                 uint64_t{segment->chunk} << kChunkShift | segment->first);
    entry.count = segment->end - segment->first;
    ChunkVersions& versions = table.chunk(segment->chunk).ensure_versions();
    for (uint32_t row = segment->first; row < segment->end; ++row) versions.set_head(row, &entry);
  }
  table.show_appends();  // the chains now tell readers the rows are not theirs
}

void Transaction::check_conflict(const Table& table, uint64_t row_id) const {
  const ChunkVersions* versions = table.chunk(row_id >> kChunkShift).versions();
  if (!versions) return;
  const UndoEntry* head = versions->head(row_in_chunk(row_id));
  if (head && !snapshot_.sees(head->timestamp.load(std::memory_order_acquire)))
    throw SerializationFailure();
}

void Transaction::delete_row(Table& table, uint64_t row_id) {
  check_conflict(table, row_id);
  table.unindex_dead_rows();
  UndoEntry& entry = add_entry(UndoEntry::Kind::kDelete, table, row_id);
  ChunkVersions& versions = table.versions_of(row_id);
  entry.older.store(versions.head(row_in_chunk(row_id)), std::memory_order_relaxed);
  versions.set_head(row_in_chunk(row_id), &entry);
  // The row keeps its index entries: a deleted row gives its key up to the next insert
  // (UniqueIndex::insert), and a rollback needs nothing back.
  table.set_row_deleted(row_id, true);
}

bool Transaction::update_moves_row(const Table& table, uint64_t row_id,
                                   const std::vector<uint32_t>& columns) {
  return table.chunk(row_id >> kChunkShift).frozen() || changes_keys(table, columns);
}

uint64_t Transaction::update_row(Table& table, uint64_t row_id,
                                 const std::vector<uint32_t>& columns,
                                 const std::vector<Value>& values) {
  check_conflict(table, row_id);
  if (!update_moves_row(table, row_id, columns) && try_without_readers([&] {
        UndoEntry& entry = add_entry(UndoEntry::Kind::kUpdate, table, row_id);
        entry.columns = columns;
        for (uint32_t column : columns) entry.before.push_back(table.value_at(row_id, column));
        ChunkVersions& versions = table.versions_of(row_id);
        entry.older.store(versions.head(row_in_chunk(row_id)), std::memory_order_relaxed);
        versions.set_head(row_in_chunk(row_id), &entry);
        table.write_row(row_id, columns, values);
      }))
    return row_id;
  std::vector<Value> row;
  for (size_t c = 0; c < table.columns().size(); ++c) row.push_back(table.value_at(row_id, c));
  for (size_t i = 0; i < columns.size(); ++i) row[columns[i]] = values[i];
  delete_row(table, row_id);
  {
    Append append(*this, table);
    TableAppender(table).append_row(row);  // a violation: the statement's rollback undoes
  }
  const size_t last = table.chunk_count() - 1;
  return uint64_t{last} << kChunkShift | (table.chunk(last).size() - 1);
}

void Transaction::undo(UndoEntry& entry) {
  Table& table = *entry.table;
  ChunkVersions& versions = table.versions_of(entry.row_id);
  const uint32_t row = row_in_chunk(entry.row_id);
  switch (entry.kind) {
    case UndoEntry::Kind::kInsert: {
      const size_t chunk = entry.row_id >> kChunkShift;
      for (uint32_t i = 0; i < entry.count; ++i) {
        table.unindex_row(entry.row_id + i);
        versions.set_head(row + i, nullptr);
      }
      const TableChunk& last = table.chunk(table.chunk_count() - 1);
      const bool tail =
          chunk == table.chunk_count() - 1 && !last.frozen() && row + entry.count == last.size();
      if (tail) {
        table.truncate(table.row_count() - entry.count);
      } else {
        for (uint32_t i = 0; i < entry.count; ++i) table.set_row_deleted(entry.row_id + i, true);
      }
      return;
    }
    case UndoEntry::Kind::kDelete:
      table.set_row_deleted(entry.row_id, false);
      table.index_row(entry.row_id);  // back, if an insert of this transaction took the key
      break;
    case UndoEntry::Kind::kUpdate:  // never of a key (update_moves_row)
      table.write_row(entry.row_id, entry.columns, entry.before);
      break;
  }
  versions.set_head(row, entry.older.load(std::memory_order_relaxed));
}

void Transaction::rollback_to(size_t mark) {
  if (undo_.size() <= mark) return;
  std::unique_lock<ReaderLatch> alone;
  if (readers_) alone = std::unique_lock(*readers_);
  while (undo_.size() > mark) {
    undo(undo_.back());
    undo_.pop_back();
  }
}

void Transaction::publish(uint64_t commit_timestamp) {
  commit_timestamp_ = commit_timestamp;
  for (UndoEntry& entry : undo_) entry.timestamp.store(commit_timestamp, std::memory_order_release);
}

void Transaction::collect() {
  std::vector<Table*> tables;
  for (UndoEntry& entry : undo_) {
    Table& table = *entry.table;
    if (std::find(tables.begin(), tables.end(), &table) == tables.end()) tables.push_back(&table);
    ChunkVersions* versions = table.chunk(entry.row_id >> kChunkShift).versions();
    if (!versions) continue;
    const uint32_t first = row_in_chunk(entry.row_id);
    for (uint32_t row = first; row < first + entry.count; ++row) {
      // Everything older than this entry was collected before (commit order): cut the chain.
      UndoEntry* head = versions->head(row);
      if (head == &entry) {
        versions->set_head(row, nullptr);
        if (entry.kind == UndoEntry::Kind::kDelete) table.note_dead_row(entry.row_id);
        continue;
      }
      for (UndoEntry* newer = head; newer; newer = newer->older.load(std::memory_order_relaxed)) {
        if (newer->older.load(std::memory_order_relaxed) == &entry) {
          newer->older.store(nullptr, std::memory_order_release);
          break;
        }
      }
    }
  }
  for (Table* table : tables) {
    for (size_t c = 0; c < table->chunk_count(); ++c) {
      TableChunk& chunk = table->chunk(c);
      const ChunkVersions* versions = chunk.versions();
      if (versions && versions->chained_rows() == 0 && versions->deleted_rows() == 0)
        chunk.drop_versions();
    }
  }
  // Readers that started before the chains were cut may still be on these entries.
  epochs().retire_object(std::move(undo_));
  undo_.clear();
}

}  // namespace floe
