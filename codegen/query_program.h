// What the code generator hands to the executor: the query's LLVM module and a description
// of the runtime objects behind each slot of the query state array (`void** state`) and of
// each pipeline's source and sink.
#pragma once

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "codegen/row_layout.h"
#include "engine/plan/physical_plan.h"
#include "runtime/scan_restriction.h"
#include "runtime/window_evaluator.h"
#include "storage/table.h"

namespace floe::codegen {

struct StateSlot {
  enum class Kind : uint8_t {
    kScanCursors,       // TableScanner*[worker_count] over `table`, reading `columns`
    kJoinTable,         // JoinHashTable with payloads of `size` bytes
    kAggregationTable,  // AggregationHashTable with payloads of `size` bytes
    kRowBuffer,         // RowBuffer with rows of `size` bytes
    kCounter,           // std::atomic<uint64_t> starting at 0 (streaming LIMIT)
  };
  Kind kind = Kind::kCounter;
  const Table* table = nullptr;
  std::vector<size_t> columns;
  uint32_t size = 0;
  std::vector<ScanRestriction> restrictions;  // kScanCursors: applied by the scanner
  const plan::ScanOp* scan = nullptr;         // kScanCursors: the scan it serves

  // A slot of a kind that only needs a size (tables, buffers, counters).
  static StateSlot sized(Kind kind, size_t size) {
    StateSlot slot;
    slot.kind = kind;
    slot.size = static_cast<uint32_t>(size);
    return slot;
  }
};

struct PipelineProgram {
  enum class Source : uint8_t { kTable, kValues, kAggregation, kRows, kJoinUnmatched };
  enum class Sink : uint8_t { kJoinBuild, kAggregation, kSort, kWindow, kResult };
  struct LimitCheck {
    uint32_t counter_slot;
    uint64_t end;  // offset + limit: once the counter reaches it, the pipeline is done
  };

  int id = 0;
  std::string function;  // bool (void** state, WorkerContext*, uint64 begin, uint64 end)

  Source source = Source::kTable;
  const Table* table = nullptr;  // kTable: morsels are its chunks
  uint64_t value_rows = 0;       // kValues
  uint32_t source_slot = 0;      // kAggregation, kJoinUnmatched: the table; kRows: the buffer
  bool ordered = false;          // plan::Pipeline::ordered: one worker reads the source

  Sink sink = Sink::kResult;
  uint32_t sink_slot = 0;
  std::vector<LimitCheck> limits;
  // The next pipeline feeds the same sink (an outer join's unmatched rows): the sink is
  // finalized after that one.
  bool sink_continues = false;

  // kAggregation sink.
  bool global_aggregation = false;  // no GROUP BY: one group even for empty input
  // Inserts AggregateOp::initial_groups before the pipeline runs (empty: none).
  std::string initial_groups_function;  // bool (void** state, WorkerContext*)
  std::string keys_equal_function;      // bool (const uint8_t*, const uint8_t*)
  std::string merge_function;           // bool (WorkerContext*, uint8_t* into, const uint8_t* from)
  // kSort and kWindow sinks.
  std::string compare_function;  // int32 (const uint8_t*, const uint8_t*)
  uint64_t offset = 0;
  std::optional<uint64_t> limit;
  // kWindow sink: the spec without its function pointers, which the executor looks up by
  // the names below (window_aggregates: update, merge, finalize per function; empty for
  // the functions that are no aggregates).
  WindowSpec window;
  std::string window_same_partition;  // int32 (const uint8_t*, const uint8_t*)
  std::string window_peers;           // int32 (const uint8_t*, const uint8_t*)
  struct WindowAggregateFunctions {
    std::string update;    // bool (WorkerContext*, uint8_t* state, const uint8_t* row)
    std::string merge;     // bool (WorkerContext*, uint8_t* into, const uint8_t* from)
    std::string finalize;  // bool (WorkerContext*, const uint8_t* state, uint8_t* row)
  };
  std::vector<WindowAggregateFunctions> window_aggregates;
  // Per function, its RANGE offset bounds' comparators (empty: none).
  struct WindowRangeBounds {
    std::string start;  // int32 (const uint8_t* row, const uint8_t* current)
    std::string end;
  };
  std::vector<WindowRangeBounds> window_range_bounds;
};

struct ResultColumn {
  std::string name;
  SqlType type;
};

struct QueryProgram {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  std::vector<StateSlot> slots;
  std::vector<PipelineProgram> pipelines;  // in execution order
  uint32_t result_slot = 0;
  RowLayout result_layout;  // one field per result column
  std::vector<ResultColumn> result_columns;
  std::vector<std::shared_ptr<void>> embedded_objects;  // must outlive the machine code
  uint64_t scanned_rows = 0;                            // total rows of the scanned tables
  // With row counting: the operator behind each entry of WorkerContext::row_counts.
  std::vector<const plan::LogicalOp*> counted_operators;

  // Every generated function the executor calls (to force their compilation).
  std::vector<std::string> entry_points() const;
};

struct GenerateOptions {
  // EXPLAIN ANALYZE: code counting the rows each operator produces (QueryProgram::
  // counted_operators); without it the generated code is free of any counting.
  bool count_rows = false;
  // The vectorized scan applies the scans' restrictions (StateSlot::restrictions), so the
  // generated code does not; otherwise it evaluates them like any scan filter (JIT scan).
  bool push_restrictions = true;
};

// Generates the module for all pipelines of `plan` (produce/consume, Neumann VLDB 2011).
// Throws floe::NotSupported for constructs the code generator does not handle.
QueryProgram generate_query(const plan::PhysicalPlan& plan, const GenerateOptions& options = {});

}  // namespace floe::codegen
