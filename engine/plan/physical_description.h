// What both engines need to run a physical plan, decided once, without LLVM (DESIGN.md "One
// physical plan, one set of semantics"): the runtime objects of the query's state array
// (slots), the rows each pipeline breaker materializes and where each plan column sits in
// them, and per pipeline its source, its sink and its LIMIT checks. The compiled engine
// generates code against these descriptions (codegen/query_program.h); the executor builds
// the runtime objects from the slots (engine/exec/query_state.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "engine/plan/aggregate_layout.h"
#include "engine/plan/physical_plan.h"
#include "engine/plan/row_layout.h"
#include "engine/plan/window_layout.h"
#include "runtime/index_lookup.h"
#include "runtime/scan_restriction.h"
#include "storage/table.h"

namespace floe::plan {

// One entry of the query's state array (`void** state`): the executor creates the object
// per run, pipelines reach it by its index.
struct StateSlot {
  enum class Kind : uint8_t {
    kScanCursors,       // TableScanner*[worker_count] over `table`, reading `columns`
    kJoinTable,         // JoinHashTable with payloads of `size` bytes
    kConciseJoinTable,  // ConciseJoinTable with payloads of `size` bytes, `cat_key_columns`
    kAggregationTable,  // AggregationHashTable with payloads of `size` bytes
    kRowBuffer,         // RowBuffer with rows of `size` bytes
    kCounter,           // std::atomic<uint64_t> starting at 0 (streaming LIMIT)
  };
  Kind kind = Kind::kCounter;
  const Table* table = nullptr;
  std::vector<size_t> columns;
  uint32_t size = 0;
  std::vector<ScanRestriction> restrictions;  // kScanCursors: applied by the scanner
  const ScanOp* scan = nullptr;               // kScanCursors: the scan it serves
  std::optional<IndexLookup> index;           // kScanCursors: an index scan's rows
  uint32_t cat_key_columns = 0;  // kConciseJoinTable: integer keys staged for a CAT (0: CHT)
  // kScanCursors of an index nested-loop join (index_join.h): the rows of the index whose key
  // is that of a row of the join table in slot `index_join_table`, looked up once that table
  // is complete.
  std::optional<IndexJoinLookup> index_join;
  uint32_t index_join_table = 0;

  // A slot of a kind that only needs a size (tables, buffers, counters).
  static StateSlot sized(Kind kind, size_t size) {
    StateSlot slot;
    slot.kind = kind;
    slot.size = static_cast<uint32_t>(size);
    return slot;
  }
};

// Rows one pipeline materializes (its sink: a join build, an aggregation, a sort, a window)
// and a later one reads (its source, or a join probe).
struct Materialization {
  uint32_t slot = 0;
  RowLayout layout;
  struct Column {
    ColumnId id;
    size_t field;
  };
  std::vector<Column> columns;  // the plan columns a reader gets back, and where they are
  // Hash join: the payload starts with the keys (field k: key k); right/full outer and right
  // semi/anti joins end it with the "matched" byte (the last field). Null-aware anti join:
  // kCounter slots set to 1 when the build side has a row, and when it has a NULL key.
  uint32_t build_rows_slot = 0;
  // Hash join: its table (PhysicalPlan::choices); not kChaining: a kConciseJoinTable slot.
  JoinTableKind join_table = JoinTableKind::kChaining;
  uint32_t build_null_key_slot = 0;
  // Sort: the field of each sort key. A key that is no stored column is computed into a
  // field of its own: `computed_keys`, in this order, right after the columns' fields.
  std::vector<size_t> key_fields;
  std::vector<const Expr*> computed_keys;
  // Aggregation: the group row (`layout` is its layout).
  std::optional<AggregateLayout> aggregate;
  // Window: the fields of its keys, arguments and results (`columns` starts with the input
  // columns stored in the row, then the functions' results).
  std::optional<WindowLayout> window;
};

// One pipeline of PhysicalPlan::pipelines: where its morsels come from, where its tuples go.
struct PipelineDescription {
  enum class Source : uint8_t { kTable, kValues, kAggregation, kRows, kJoinUnmatched };
  enum class Sink : uint8_t { kJoinBuild, kAggregation, kSort, kWindow, kResult };
  struct LimitCheck {
    uint32_t counter_slot;
    uint64_t end;  // offset + limit: once the counter reaches it, the pipeline is done
  };

  int id = 0;  // Pipeline::id
  Source source = Source::kTable;
  const Table* table = nullptr;  // kTable: morsels are its chunks
  uint64_t value_rows = 0;       // kValues: VALUES rows, or generate_series values
  uint32_t source_slot = 0;      // kAggregation, kJoinUnmatched: the table; kRows: the buffer;
                                 // kTable: the scan's cursors (an index scan's row ids)
  bool ordered = false;          // Pipeline::ordered: one worker reads the source in order

  Sink sink = Sink::kResult;
  const LogicalOp* sink_op = nullptr;  // null for kResult
  uint32_t sink_slot = 0;
  // Outermost first: a pipeline that feeds the sink of an earlier one (below) keeps only
  // the checks of the LIMITs above the part they share.
  std::vector<LimitCheck> limits;
  // The next pipeline feeds the same sink (an outer join's unmatched rows, a UNION ALL's
  // further children): the sink is finalized after that one.
  bool sink_continues = false;

  // kAggregation sink.
  bool global_aggregation = false;  // no GROUP BY: one group even for empty input
  bool initial_groups = false;      // insert AggregateOp::initial_groups before it runs
  // kSort sink.
  uint64_t offset = 0;
  std::optional<uint64_t> limit;
};

struct ResultColumn {
  std::string name;
  SqlType type;
};

struct PhysicalDescription {
  std::vector<StateSlot> slots;
  std::vector<PipelineDescription> pipelines;  // one per PhysicalPlan::pipelines, same order
  // Per pipeline breaker (the JoinOp, AggregateOp, SortOp or WindowOp).
  std::unordered_map<const LogicalOp*, Materialization> materializations;
  // The slot of each scan (kScanCursors) and streaming LIMIT (kCounter).
  std::unordered_map<const LogicalOp*, uint32_t> operator_slots;
  uint32_t result_slot = 0;
  RowLayout result_layout;  // one field per result column
  std::vector<ResultColumn> result_columns;
  uint64_t scanned_rows = 0;  // total rows of the scanned tables
  // The vectorized scans apply the scans' restrictions (StateSlot::restrictions); otherwise
  // the pipelines evaluate them like any scan filter (JIT scan).
  bool push_restrictions = true;

  // Whether any expression or the query result reads the column (others are not loaded,
  // stored or passed on).
  bool is_used(ColumnId id) const { return used_columns.count(id) != 0; }
  std::unordered_set<ColumnId> used_columns;

  const Materialization& materialization(const LogicalOp& op) const {
    return materializations.at(&op);
  }
};

struct DescribeOptions {
  bool push_restrictions = true;  // PhysicalDescription::push_restrictions
};

// generate_series' arguments are constants by execution (folded, or uncorrelated subqueries
// run first); throws floe::NotSupported for one that is not.
const Value& series_argument(const Expr& expr);

// The physical planning step after make_physical_plan's pipeline cut. Throws
// floe::NotSupported for constructs no engine handles.
PhysicalDescription describe_physical(const PhysicalPlan& plan,
                                      const DescribeOptions& options = {});

}  // namespace floe::plan
