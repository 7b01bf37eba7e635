// Multi-version concurrency control at the row level (Neumann, Mühlbauer & Kemper, "Fast
// Serializable Multi-Version Concurrency Control for Main-Memory Database Systems", SIGMOD
// 2015, §2 and §3): rows are changed in place; each change leaves an UndoEntry with the
// before-image in its transaction's undo buffer (engine/txn/), and the row points at its
// newest entry, a version chain from newest to oldest. An entry carries its transaction's id
// (a number >= 2^63) while the transaction runs and its commit timestamp once it committed.
// A reader walks a row's chain while it cannot see an entry's timestamp and applies the
// before-images.
//
// A chunk gets its ChunkVersions only with its first change; a chunk without one is read
// with no visibility check at all (the paper's version-free ranges, §3.3). The delete flags
// live here too, outside the hot arrays and outside a frozen chunk's Data Block (Data Blocks
// paper §5.3): a set flag is the newest state, the chain tells older readers otherwise.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "storage/hot_chunk.h"
#include "storage/value.h"

namespace floe {

class Table;

// A scan column that reads each row's id instead of a table column (DELETE and UPDATE find
// their rows through it).
constexpr size_t kRowIdColumn = ~size_t{0};

// Timestamps below it are commit timestamps; transaction ids start there.
constexpr uint64_t kTransactionIdBase = uint64_t{1} << 63;

// What one reader sees: every commit with a timestamp <= start, and its own changes.
struct Snapshot {
  uint64_t start = kTransactionIdBase - 1;  // default: everything committed
  uint64_t transaction = 0;                 // 0: no transaction of its own
  bool sees(uint64_t timestamp) const { return timestamp <= start || timestamp == transaction; }
};

// One change of a row, as its before-image: what a reader that cannot see the change reads
// instead, and what rollback writes back. It names table, row and columns with the old values,
// so that a write-ahead log can record it.
struct UndoEntry {
  enum class Kind : uint8_t {
    kInsert,  // rows [row_id, row_id + count) did not exist before
    kDelete,  // the row existed before
    kUpdate,  // `columns` held `before`
  };
  Kind kind = Kind::kInsert;
  std::atomic<uint64_t> timestamp{0};  // transaction id, then commit timestamp
  Table* table = nullptr;
  uint64_t row_id = 0;
  uint32_t count = 1;           // kInsert: rows of one chunk inserted in one go
  // The row's next older change (never set for kInsert); garbage collection cuts it while
  // readers walk the chain.
  std::atomic<UndoEntry*> older{nullptr};
  std::vector<uint32_t> columns;
  std::vector<Value> before;    // per column; strings own their bytes
};

class ChunkVersions {
 public:
  ChunkVersions();

  ~ChunkVersions();
  ChunkVersions(const ChunkVersions&) = delete;
  ChunkVersions& operator=(const ChunkVersions&) = delete;

  // The row's newest change, or null. Heads are atomic (the paper's §3.3): garbage
  // collection clears them while readers run; a writer installs the entry, fully written,
  // with a release store. Pages are allocated by writers (one at a time) and published with a
  // release store, so a reader may look a head up beside a writer.
  UndoEntry* head(uint32_t row) const {
    const std::atomic<UndoEntry*>* page = heads_[row / kPageRows].load(std::memory_order_acquire);
    return page ? page[row % kPageRows].load(std::memory_order_acquire) : nullptr;
  }
  void set_head(uint32_t row, UndoEntry* entry);
  // Rows with a version chain: 0 means reading the chunk needs only the delete flags.
  uint32_t chained_rows() const { return chained_rows_.load(std::memory_order_relaxed); }

  // Delete flags are atomic words: a writer flips a row's flag (after installing the undo
  // entry that tells older snapshots otherwise: release) beside readers of other rows of the
  // same word (acquire: a reader that sees the flag sees that entry).
  bool deleted(uint32_t row) const {
    return deleted_[row >> 6].load(std::memory_order_acquire) >> (row & 63) & 1;
  }
  void set_deleted(uint32_t row, bool deleted);
  uint32_t deleted_rows() const { return deleted_rows_.load(std::memory_order_relaxed); }

 private:
  // The chain heads in pages of kPageRows rows, each allocated with its first chain: a small
  // table's versions stay small.
  static constexpr uint32_t kPageRows = 1024;
  std::atomic<std::atomic<UndoEntry*>*> heads_[kChunkCapacity / kPageRows] = {};  // owned
  std::unique_ptr<std::atomic<uint64_t>[]> deleted_;  // bit set = row deleted (newest state)
  std::atomic<uint32_t> chained_rows_{0};
  std::atomic<uint32_t> deleted_rows_{0};
};

// The version of one row that `snapshot` sees: whether it exists, and the before-images of
// the changes it cannot see (newest first; for a column the last one applies).
struct RowVersion {
  bool exists = true;
  std::vector<const UndoEntry*> updates;  // kUpdate entries to apply
  // The column's value in this version when a change it cannot see replaced it; null when
  // the row's newest value is the one.
  const Value* before_image(size_t column) const;
};
RowVersion visible_version(const ChunkVersions& versions, uint32_t row, const Snapshot& snapshot);

// The transaction on whose behalf this thread writes (0: none): the uniqueness checks of
// storage/ need it to tell its own deletions from other running transactions'. Set for the
// duration of a statement by engine/txn.
uint64_t current_writer();
class WriterScope {
 public:
  explicit WriterScope(uint64_t transaction);
  ~WriterScope();
  WriterScope(const WriterScope&) = delete;
  WriterScope& operator=(const WriterScope&) = delete;

 private:
  uint64_t previous_;
};

}  // namespace floe
