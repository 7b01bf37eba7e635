// Produce/consume code generation (Neumann, VLDB 2011): a pipeline's source emits the loop
// over its morsel and pushes each tuple, held in registers, through the streaming operators
// into the sink. One translator per operator kind, one file each.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "codegen/codegen_context.h"
#include "codegen/expression_compiler.h"
#include "codegen/query_program.h"
#include "codegen/row_codegen.h"

namespace floe::codegen {

// How often a loop inside a morsel polls the cancel flag: 64K steps take well under 100 ms
// (a few ms at most), and the poll costs one runtime call.
constexpr uint64_t kLoopStepsPerCancelCheck = uint64_t{1} << 16;

// The current tuple: the information units available at this point of the pipeline.
using Tuple = std::unordered_map<plan::ColumnId, SqlValue>;

ColumnResolver resolver_for(const Tuple& tuple);

class Consumer;

// Rows one pipeline materializes (sink) and a later one reads (source or join probe), as the
// physical description lays them out.
using Materialization = plan::Materialization;

// Everything translators share while the module of one query is generated.
class PipelineEnv {
 public:
  PipelineEnv(CodegenContext& codegen, ExpressionCompiler& expressions,
              const plan::LogicalPlan& plan, const plan::PhysicalDescription& physical,
              QueryProgram& program);

  CodegenContext& codegen;
  ExpressionCompiler& expressions;
  const plan::LogicalPlan& plan;
  const plan::PhysicalDescription& physical;
  QueryProgram& program;
  // The pipeline being generated, and its physical description.
  PipelineProgram* pipeline = nullptr;
  const plan::PipelineDescription* description = nullptr;
  llvm::Value* morsel_begin = nullptr;  // i64 parameters of the pipeline function
  llvm::Value* morsel_end = nullptr;
  // Where a later pipeline goes on in an earlier one's consumers: above a UNION ALL (its
  // further children), above a right/full outer or right semi/anti join (set by its probe,
  // for the pipeline of its unmatched or matched build rows).
  struct Continuation {
    Consumer* above = nullptr;
    size_t pipeline = 0;  // the index of the earlier pipeline in QueryProgram::pipelines
  };
  std::unordered_map<const plan::LogicalOp*, Continuation> continuations;

  llvm::IRBuilder<>& builder() { return codegen.builder(); }
  const plan::ColumnInfo& column(plan::ColumnId id) const { return plan.registry[id]; }
  // Whether any expression or the query result reads the column.
  bool is_used(plan::ColumnId id) const { return physical.is_used(id); }
  // The rows the pipeline breaker `op` materializes.
  const Materialization& materialization(const plan::LogicalOp& op) const {
    return physical.materialization(op);
  }
  // The slot of a scan or a streaming LIMIT.
  uint32_t operator_slot(const plan::LogicalOp& op) const {
    return physical.operator_slots.at(&op);
  }
  // state[slot], loaded in the current function's entry block.
  llvm::Value* slot_pointer(uint32_t slot);
  // Emits the load of worker->worker_id, as i64.
  llvm::Value* worker_id();
  // worker->row_counts (EXPLAIN ANALYZE), loaded in the current function's entry block.
  llvm::Value* row_counts();
  // An alloca in the current function's entry block.
  llvm::Value* entry_alloca(llvm::Type* type);

  // "floe_<kind>_<pipeline id>", e.g. floe_sort_compare_3.
  std::string function_name(const std::string& kind) const;
  // An externally visible function of the module (bool results are i1 zeroext, as C++ wants).
  llvm::Function* create_function(const std::string& name, llvm::Type* result,
                                  const std::vector<llvm::Type*>& parameters);

  // for (i = begin; i < end; ++i) body(i, next): `body` emits at the insertion point and may
  // branch to `next` to continue with the following i; afterwards the insertion point is
  // after the loop.
  void emit_loop(llvm::Value* begin, llvm::Value* end,
                 const std::function<void(llvm::Value* i, llvm::BasicBlock* next)>& body);

  // Emits a poll of the statement's cancel flag (runtime/cancellation.h) for a loop that can
  // run long inside one morsel, at the insertion point of its back edge: every
  // kLoopStepsPerCancelCheck-th pass returns false from the pipeline when canceled.
  void poll_cancel(const std::string& name);

  // Walks a hash-table chain: for (entry = first; entry; entry = next_function(entry, hash))
  // visit(entry, advance). `visit` emits code where `entry` is not null and branches to
  // `advance` to go on with the chain (or elsewhere to leave it). Afterwards the insertion
  // point is the block reached when the chain is exhausted. The walk polls the cancel flag:
  // a cross product is one long chain.
  void emit_chain_walk(
      llvm::Value* first, llvm::Value* hash, const std::string& next_function,
      const std::string& name,
      const std::function<void(llvm::Value* entry, llvm::BasicBlock* advance)>& visit);
  // The same walk with the step emitted by `next_of(entry)` (at the back edge).
  void emit_chain_walk(
      llvm::Value* first, const std::function<llvm::Value*(llvm::Value* entry)>& next_of,
      const std::string& name,
      const std::function<void(llvm::Value* entry, llvm::BasicBlock* advance)>& visit);

 private:
  std::map<std::pair<llvm::Function*, uint32_t>, llvm::Value*> slot_loads_;
  std::map<llvm::Function*, llvm::Value*> row_counts_loads_;
};

// Streaming operators and sinks.
class Consumer {
 public:
  virtual ~Consumer() = default;
  // Emits the processing of `tuple` at the insertion point. A path that drops the tuple
  // branches to `next`; on return the insertion point is where processing ends normally
  // (the caller then branches to `next`).
  virtual void consume(Tuple& tuple, llvm::BasicBlock* next) = 0;
};

class Source {
 public:
  virtual ~Source() = default;
  // Emits the loop over the morsel [morsel_begin, morsel_end), calling consumer.consume.
  virtual void produce(Consumer& consumer) = 0;
};

std::unique_ptr<Source> make_scan_source(PipelineEnv& env, const plan::ScanOp& scan);
std::unique_ptr<Source> make_values_source(PipelineEnv& env, const plan::ValuesOp& values);
std::unique_ptr<Source> make_series_source(PipelineEnv& env, const plan::SeriesOp& series);
std::unique_ptr<Source> make_aggregation_source(PipelineEnv& env,
                                                const plan::AggregateOp& aggregate);
std::unique_ptr<Source> make_sort_source(PipelineEnv& env, const plan::SortOp& sort);
// The rows a sort or window sink materialized, in their final order.
std::unique_ptr<Source> make_materialized_source(PipelineEnv& env, const plan::LogicalOp& op);
// The build rows of a right/full outer join that found no match, with NULL probe columns.
std::unique_ptr<Source> make_join_unmatched_source(PipelineEnv& env, const plan::JoinOp& join);

std::unique_ptr<Consumer> make_filter(PipelineEnv& env, const plan::FilterOp& filter,
                                      Consumer& next);
std::unique_ptr<Consumer> make_map(PipelineEnv& env, const plan::MapOp& map, Consumer& next);
std::unique_ptr<Consumer> make_join_probe(PipelineEnv& env, const plan::JoinOp& join,
                                          Consumer& next);
std::unique_ptr<Consumer> make_limit(PipelineEnv& env, const plan::LimitOp& limit, Consumer& next);
std::unique_ptr<Consumer> make_repeat(PipelineEnv& env, const plan::RepeatOp& repeat,
                                      Consumer& next);
std::unique_ptr<Consumer> make_table_function(PipelineEnv& env, const plan::TableFunctionOp& call,
                                              Consumer& next);
// The union's input from its child number `child`: the union's columns, pushed into `next`
// (the consumers above the union, shared by the pipelines of all children).
std::unique_ptr<Consumer> make_union_all_input(PipelineEnv& env, const plan::UnionAllOp& union_all,
                                               size_t child, Consumer& next);
// EXPLAIN ANALYZE: counts the tuples `op` passes on to `next`.
std::unique_ptr<Consumer> make_row_counter(PipelineEnv& env, const plan::LogicalOp& op,
                                           Consumer& next);

// Sinks are created before their pipeline's function, so that they can emit helper functions
// (comparators, merge functions) and register the rows they materialize.
std::unique_ptr<Consumer> make_join_build(PipelineEnv& env, const plan::JoinOp& join);
std::unique_ptr<Consumer> make_aggregation_sink(PipelineEnv& env,
                                                const plan::AggregateOp& aggregate);
std::unique_ptr<Consumer> make_sort_sink(PipelineEnv& env, const plan::SortOp& sort);
std::unique_ptr<Consumer> make_window_sink(PipelineEnv& env, const plan::WindowOp& window);
std::unique_ptr<Consumer> make_result_sink(PipelineEnv& env);

}  // namespace floe::codegen
