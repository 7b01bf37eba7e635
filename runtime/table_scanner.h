// The vectorized scan subsystem (DESIGN.md "Scans"; Data Blocks paper §3.4 and §4): one
// precompiled interface over hot chunks and Data Blocks that compiled pipelines read through.
// A scanner walks a row-id range of one table and hands out batches of up to vector_size
// rows of the requested columns, in the layout of a hot chunk (FloeScanBatch), never
// crossing a chunk boundary. Per chunk:
//  1. a Data Block's restrictions are translated into its compressed domain; the SMA and the
//     dictionary rule blocks out (sma_skipping), and the PSMAs narrow the scan range (psma);
//  2. the first restriction finds the initial matches with SIMD, each further one reduces
//     them (simd_match.h), and NULLs are removed with the validity bitmaps;
//  3. a hot chunk's matches are handed over as a selection vector into its own arrays (no
//     copy); a Data Block's matching rows are unpacked, only the requested columns, into a
//     compacted batch. A hot chunk with no restriction is handed over as it is.
// An index scan gives the scanner a sorted list of row ids (runtime/index_lookup.h): it then
// visits only those rows, a chunk at a time, as the initial matches that the restrictions
// reduce (a selection vector into a hot chunk, unpacked rows of a Data Block).
//
// MVCC (storage/row_versions.h): a chunk without versions is read as above, with no
// visibility check. In a chunk with versions, the rows the scan's snapshot sees are copied
// into a compacted batch: deleted rows and rows not yet inserted for it are left out, and a
// row changed after the snapshot gets its before-image, restrictions checked on it.
// A requested column kRowIdColumn reads each row's id (chunk << 16 | row).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "runtime/array_matcher.h"
#include "runtime/restriction_step.h"
#include "runtime/runtime_abi.h"
#include "runtime/scan_restriction.h"
#include "storage/table.h"

namespace floe {

class TableScanner {
 public:
  // `columns` are the table's column indexes, in the order the batch presents them.
  // `row_ids` (sorted, distinct; owned by the caller): visit only these rows.
  TableScanner(const Table& table, std::vector<size_t> columns,
               std::vector<ScanRestriction> restrictions = {}, ScanSettings settings = {},
               const std::vector<uint64_t>* row_ids = nullptr);
  ~TableScanner();

  // Makes the scanner ready for another run of its query (a prepared statement's kept state,
  // engine/exec/query_run.h) with other restrictions (its parameters' values) and settings
  // (its snapshot) of the same vector size; then open() starts it as before. The row ids
  // list, if any, is the caller's as constructed (its contents may have changed).
  void restart(std::vector<ScanRestriction> restrictions, const ScanSettings& settings);
  // Restarts on row ids [begin_row, end_row) (chunk << 16 | row). Ids past the end of the
  // table are simply empty. Returns false when begin_row > end_row.
  bool open(uint64_t begin_row, uint64_t end_row);
  // Fills `batch` with the next up to vector-size matching rows; returns the count, 0 when
  // the range is exhausted. The batch's arrays stay valid until the next call.
  uint32_t next(FloeScanBatch& batch);

  const ScanStatistics& statistics() const { return statistics_; }

 private:
  struct ChunkPlan;  // the current segment's restrictions, ready to run
  void make_matchers();
  // Plans the restrictions over `range` of a chunk (a Data Block's PSMA may narrow it); false
  // when no row of it can match.
  bool plan_chunk(uint64_t chunk_index, RowRange& range);
  bool prepare_segment(uint64_t chunk_index, uint32_t row, uint32_t stop);
  // next() of an index scan: the listed rows of [position_, end_).
  uint32_t next_listed(FloeScanBatch& batch);
  uint32_t find_matches(uint32_t begin, uint32_t end);
  void hand_over_matches(uint32_t count, FloeScanBatch& batch);
  // Decodes the rows `positions` (or, when null, [begin, begin + count)) of the current
  // Data Block into the batch buffers.
  void unpack(const uint32_t* positions, uint32_t begin, uint32_t count, FloeScanBatch& batch);
  void hand_over(uint32_t begin, uint32_t count, FloeScanBatch& batch);
  // The versioned path: of the `count` candidate rows (`candidates`, sorted, or when null
  // [begin, begin + count)), those the snapshot sees, among the `matched` matches_ (or all
  // candidates when the scan has no restriction); returns their count.
  uint32_t hand_over_visible(const uint32_t* candidates, uint32_t begin, uint32_t count,
                             uint32_t matched, FloeScanBatch& batch);
  // Hands over `count` rows of the batch buffers (column_pointers_, validity_pointers_).
  void hand_over_buffers(uint32_t count, FloeScanBatch& batch);
  // Copies the rows `positions` of the current hot chunk into the batch buffers.
  void gather_hot(const uint32_t* positions, uint32_t count, FloeScanBatch& batch);
  // A column's value in a row as the snapshot sees it.
  Value visible_value(uint32_t row, size_t column, const RowVersion& version) const;
  bool passes_restrictions(uint32_t row, const RowVersion& version);
  // Writes a row's value (as `version` sees it) into position k of the batch buffers.
  void patch(uint32_t k, uint32_t row, const RowVersion& version);
  const uint64_t* row_ids(uint32_t begin);

  const Table& table_;
  std::vector<size_t> columns_;
  std::vector<PhysicalType> types_;
  std::vector<ScanRestriction> restrictions_;
  // Per restriction, its matcher over hot chunks' plain values (null: nothing passes).
  std::vector<std::unique_ptr<ArrayMatcher>> hot_matchers_;
  ScanSettings settings_;
  ScanStatistics statistics_;

  uint64_t position_ = 0;
  uint64_t end_ = 0;
  // Rows [position_, segment_end_) are in one chunk and share chunk_plan_; the PSMA ruled
  // out the rows from segment_end_ to segment_limit_, the end of the range in that chunk.
  uint64_t segment_end_ = 0;
  uint64_t segment_limit_ = 0;
  std::unique_ptr<ChunkPlan> chunk_plan_;

  const std::vector<uint64_t>* row_ids_ = nullptr;
  size_t next_id_ = 0;  // the first listed row id not handed out yet
  std::vector<uint32_t> listed_;  // the current batch's listed rows (versioned chunks)

  std::vector<uint32_t> matches_;
  // Batch buffers of unpacked Data Block rows, one per requested column.
  std::vector<std::unique_ptr<uint8_t[]>> values_;
  std::vector<std::vector<uint64_t>> validity_;
  std::vector<const void*> column_pointers_;
  // Row ids of the current chunk by position, when kRowIdColumn is requested.
  std::vector<uint64_t> chunk_row_ids_;
  uint64_t chunk_row_ids_chunk_ = ~uint64_t{0};
  // The versioned path's visible positions, and those that need before-images.
  std::vector<uint32_t> visible_;
  std::vector<std::pair<uint32_t, RowVersion>> patched_;
  std::deque<std::string> patched_strings_;  // the strings of before-images in the batch
  std::vector<const uint64_t*> validity_pointers_;
};

}  // namespace floe
