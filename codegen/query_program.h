// What the code generator hands to the executor: the query's LLVM module, the names of its
// functions per pipeline, and the physical descriptions it was generated against (the
// state slots, row layouts and pipeline descriptions of engine/plan/physical_description.h,
// which the executor also reads).
#pragma once

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/plan/physical_description.h"
#include "runtime/window_evaluator.h"

namespace floe::codegen {

// The generated functions of one pipeline (PhysicalDescription::pipelines, same index). The
// callbacks of runtime tables take their (unused) context last (runtime/row_callbacks.h).
struct PipelineProgram {
  int id = 0;
  std::string function;  // bool (void** state, WorkerContext*, uint64 begin, uint64 end)

  // kAggregation sink.
  // Inserts AggregateOp::initial_groups before the pipeline runs (empty: none).
  std::string initial_groups_function;  // bool (void** state, WorkerContext*)
  std::string keys_equal_function;      // RowEquality
  std::string merge_function;           // StateMerge
  // kSort and kWindow sinks.
  std::string compare_function;  // RowComparator
  // kWindow sink: the spec without its callbacks, which the executor looks up by the names
  // below (window_aggregates: update, merge, finalize per function; empty for the functions
  // that are no aggregates).
  WindowSpec window;
  std::string window_same_partition;  // RowComparator
  std::string window_peers;           // RowComparator
  struct WindowAggregateFunctions {
    std::string update;    // StateUpdate
    std::string merge;     // StateMerge
    std::string finalize;  // StateFinalize
  };
  std::vector<WindowAggregateFunctions> window_aggregates;
  // Per function, its RANGE offset bounds' comparators (empty: none), called as (row,
  // current row).
  struct WindowRangeBounds {
    std::string start;  // RowComparator
    std::string end;
  };
  std::vector<WindowRangeBounds> window_range_bounds;
};

struct QueryProgram {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  std::shared_ptr<const plan::PhysicalDescription> physical;
  std::vector<PipelineProgram> pipelines;  // in execution order, one per physical pipeline
  std::vector<std::shared_ptr<void>> embedded_objects;  // must outlive the machine code
  // With row counting: the operator behind each entry of WorkerContext::row_counts.
  std::vector<const plan::LogicalOp*> counted_operators;

  // Every generated function the executor calls (to force their compilation).
  std::vector<std::string> entry_points() const;
  // Those of pipeline `index`: its morsel function and its sink's helpers.
  std::vector<std::string> pipeline_entry_points(size_t index) const;
};

struct GenerateOptions {
  // EXPLAIN ANALYZE: code counting the rows each operator produces (QueryProgram::
  // counted_operators); without it the generated code is free of any counting.
  bool count_rows = false;
  // Adaptive execution's background compile: once set (the query ended first), generation
  // stops before the next pipeline and throws QueryAbandoned, no longer reading the plan.
  const std::atomic<bool>* abandoned = nullptr;
};

// What generate_query throws when GenerateOptions::abandoned was set.
struct QueryAbandoned {};

// Generates the module for all pipelines of `plan` (produce/consume, Neumann VLDB 2011)
// against `physical` (describe_physical of `plan`). Throws floe::NotSupported for constructs
// the code generator does not handle.
QueryProgram generate_query(const plan::PhysicalPlan& plan,
                            std::shared_ptr<const plan::PhysicalDescription> physical,
                            const GenerateOptions& options = {});

}  // namespace floe::codegen
