// Runs a physical plan through LLVM-generated code (the compiled executor). Every SELECT,
// and the SELECT part of INSERT ... SELECT, goes through here.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/plan/physical_plan.h"
#include "storage/value.h"

namespace floe {

enum class OptimizationLevel : uint8_t {
  kFast,       // no IR optimization passes, fast instruction selection
  kOptimized,  // the O2 pass pipeline
  kAuto,       // kOptimized when the plan reads many rows, else kFast
};

// The number of hardware threads (at least 1): the default of `SET threads`.
uint32_t default_thread_count();

struct ExecutionOptions {
  OptimizationLevel optimization = OptimizationLevel::kAuto;
  // Workers of a query (morsel-driven); at most default_thread_count() are used.
  uint32_t threads = default_thread_count();
  // Passed on to CsvOptions::progress by COPY FROM (the shell shows loading progress).
  std::function<void(uint64_t rows)> copy_progress;
};

struct QueryOutput {
  std::vector<std::string> column_names;
  std::vector<SqlType> column_types;
  std::vector<std::vector<Value>> rows;
  double codegen_ms = 0;  // building LLVM IR
  double compile_ms = 0;  // LLVM optimization + machine code
  double execute_ms = 0;  // running the pipelines
};

// Throws floe::Error on a runtime error (division by zero, overflow, invalid cast, ...).
QueryOutput execute_compiled(const plan::PhysicalPlan& plan, const ExecutionOptions& options);

// The LLVM IR of the query's module, one function per pipeline (EXPLAIN (IR)).
std::string generate_ir(const plan::PhysicalPlan& plan, const ExecutionOptions& options);

}  // namespace floe
