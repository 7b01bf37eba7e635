// Generates one LLVM module per query: for each pipeline of the physical plan one function
//   bool floe_pipeline_<id>(void** state, WorkerContext* worker, uint64_t begin, uint64_t end)
// over one morsel of its source, plus the helper functions its sink needs.
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <unordered_map>

#include "codegen/jit.h"
#include "codegen/query_program.h"
#include "codegen/translator.h"
#include "storage/error.h"

namespace floe::codegen {
namespace {

using plan::LogicalKind;

std::unique_ptr<Consumer> make_sink(PipelineEnv& env, const plan::LogicalOp* sink) {
  if (!sink) return make_result_sink(env);
  switch (sink->kind) {
    case LogicalKind::kJoin:
      return make_join_build(env, static_cast<const plan::JoinOp&>(*sink));
    case LogicalKind::kAggregate:
      return make_aggregation_sink(env, static_cast<const plan::AggregateOp&>(*sink));
    case LogicalKind::kSort:
      return make_sort_sink(env, static_cast<const plan::SortOp&>(*sink));
    case LogicalKind::kWindow:
      return make_window_sink(env, static_cast<const plan::WindowOp&>(*sink));
    default:
      throw Error("internal error: operator cannot be a pipeline sink");
  }
}

std::unique_ptr<Consumer> make_operator(PipelineEnv& env, const plan::LogicalOp& op,
                                        Consumer& next) {
  switch (op.kind) {
    case LogicalKind::kFilter:
      return make_filter(env, static_cast<const plan::FilterOp&>(op), next);
    case LogicalKind::kMap:
      return make_map(env, static_cast<const plan::MapOp&>(op), next);
    case LogicalKind::kJoin:
      return make_join_probe(env, static_cast<const plan::JoinOp&>(op), next);
    case LogicalKind::kLimit:
      return make_limit(env, static_cast<const plan::LimitOp&>(op), next);
    case LogicalKind::kRepeat:
      return make_repeat(env, static_cast<const plan::RepeatOp&>(op), next);
    default:
      throw Error("internal error: operator cannot stream inside a pipeline");
  }
}

std::unique_ptr<Source> make_source(PipelineEnv& env, const plan::LogicalOp& source) {
  switch (source.kind) {
    case LogicalKind::kScan:
      return make_scan_source(env, static_cast<const plan::ScanOp&>(source));
    case LogicalKind::kValues:
      return make_values_source(env, static_cast<const plan::ValuesOp&>(source));
    case LogicalKind::kSeries:
      return make_series_source(env, static_cast<const plan::SeriesOp&>(source));
    case LogicalKind::kAggregate:
      return make_aggregation_source(env, static_cast<const plan::AggregateOp&>(source));
    case LogicalKind::kSort:
      return make_sort_source(env, static_cast<const plan::SortOp&>(source));
    case LogicalKind::kWindow:
      return make_materialized_source(env, source);
    case LogicalKind::kJoin:
      return make_join_unmatched_source(env, static_cast<const plan::JoinOp&>(source));
    default:
      throw Error("internal error: operator cannot be a pipeline source");
  }
}

// Where the pipelines of a UNION ALL's further children join the first child's: the
// consumers above the union, the first child's pipeline program and how many of its LIMIT
// checks are above the union.
struct UnionContinuation {
  Consumer* above = nullptr;
  size_t pipeline = 0;
  size_t limits_above = 0;
};
using UnionContinuations = std::unordered_map<const plan::LogicalOp*, UnionContinuation>;

// A pipeline that feeds the sink of an earlier one (the unmatched rows of a right/full outer
// join after its probe pipeline, a UNION ALL's further children after the first) starts as a
// copy of that pipeline's program, with only the LIMIT checks above the shared part, and the
// sink is finalized after it: the pipelines feeding one sink run one after another.
void continue_pipeline(QueryProgram& program, size_t pipeline, size_t limits_above) {
  PipelineProgram follower = program.pipelines[pipeline];
  follower.limits.resize(limits_above);
  follower.global_aggregation = false;  // its one group exists already
  follower.initial_groups_function.clear();
  follower.sink_continues = false;
  program.pipelines.back().sink_continues = true;
  program.pipelines.push_back(std::move(follower));
}

// The pipeline of a right/full outer join's unmatched build rows reuses the consumers of the
// join's probe pipeline above the join (the same sink, the same LIMIT counters).
Consumer* continue_probe_pipeline(PipelineEnv& env, const plan::JoinOp& join) {
  const Materialization& rows = env.materializations.at(&join);
  continue_pipeline(env.program, rows.probe_pipeline, rows.limits_above);
  return rows.unmatched_consumer;
}

// The index of the union's child whose root pushes into the union in this pipeline (the
// operator before it, or the source).
size_t union_child(const plan::Pipeline& pipeline, size_t position) {
  const plan::LogicalOp* below = position ? pipeline.operators[position - 1] : pipeline.source;
  const auto& children = pipeline.operators[position]->children;
  for (size_t i = 0; i < children.size(); ++i)
    if (children[i].get() == below) return i;
  throw Error("internal error: a union's input pipeline does not come from its child");
}

// `consumers` keeps every pipeline's consumers until the module is complete. With
// `count_rows`, a row counter follows the source and every streaming operator.
void generate_pipeline(PipelineEnv& env, const plan::Pipeline& pipeline, bool count_rows,
                       UnionContinuations& unions,
                       std::vector<std::unique_ptr<Consumer>>& consumers) {
  auto& program = env.program;
  bool unmatched_rows = pipeline.source->kind == LogicalKind::kJoin;
  Consumer* first = nullptr;
  // The operators this pipeline generates itself: up to the union whose consumers above an
  // earlier pipeline made, or all (none for a join's unmatched rows).
  size_t own = pipeline.operators.size();
  if (unmatched_rows) {
    first = continue_probe_pipeline(env, static_cast<const plan::JoinOp&>(*pipeline.source));
    own = 0;
  } else {
    for (size_t k = 0; k < pipeline.operators.size() && !first; ++k) {
      auto found = unions.find(pipeline.operators[k]);
      if (found == unions.end()) continue;
      continue_pipeline(program, found->second.pipeline, found->second.limits_above);
      first = found->second.above;
      own = k + 1;
    }
    if (!first) program.pipelines.emplace_back();
  }
  auto& compiled = program.pipelines.back();
  compiled.id = pipeline.id;
  compiled.ordered = pipeline.ordered;
  compiled.function = "floe_pipeline_" + std::to_string(pipeline.id);
  env.pipeline = &compiled;

  auto count = [&](const plan::LogicalOp& op) {
    if (!count_rows) return;
    consumers.push_back(make_row_counter(env, op, *first));
    first = consumers.back().get();
  };
  if (!first) {
    consumers.push_back(make_sink(env, pipeline.sink));
    first = consumers.back().get();
  }
  for (size_t k = own; k-- > 0;) {
    const plan::LogicalOp& op = *pipeline.operators[k];
    if (op.kind == LogicalKind::kUnionAll) {
      // The first child's pipeline makes the consumers above; the others continue there.
      if (!unions.count(&op)) {
        count(op);
        unions[&op] = {first, program.pipelines.size() - 1, compiled.limits.size()};
      }
      consumers.push_back(make_union_all_input(env, static_cast<const plan::UnionAllOp&>(op),
                                               union_child(pipeline, k), *first));
    } else {
      count(op);
      consumers.push_back(make_operator(env, op, *first));
    }
    first = consumers.back().get();
  }
  if (!unmatched_rows) count(*pipeline.source);
  auto source = make_source(env, *pipeline.source);

  auto& b = env.builder();
  auto* function =
      env.create_function(compiled.function, b.getInt1Ty(),
                          {b.getPtrTy(), b.getPtrTy(), b.getInt64Ty(), b.getInt64Ty()});
  function->getArg(0)->setName("state");
  function->getArg(1)->setName("worker");
  env.morsel_begin = function->getArg(2);
  env.morsel_end = function->getArg(3);
  env.morsel_begin->setName("begin");
  env.morsel_end->setName("end");
  env.codegen.begin_function(function, function->getArg(0), function->getArg(1));
  b.SetInsertPoint(llvm::BasicBlock::Create(b.getContext(), "entry", function));
  source->produce(*first);
  b.CreateRet(b.getTrue());
}

}  // namespace

std::vector<std::string> QueryProgram::entry_points() const {
  std::vector<std::string> names;
  for (const auto& pipeline : pipelines) {
    names.push_back(pipeline.function);
    std::vector<const std::string*> helpers = {
        &pipeline.keys_equal_function, &pipeline.merge_function, &pipeline.compare_function,
        &pipeline.initial_groups_function, &pipeline.window_same_partition,
        &pipeline.window_peers};
    for (const auto& aggregate : pipeline.window_aggregates)
      helpers.insert(helpers.end(), {&aggregate.update, &aggregate.merge, &aggregate.finalize});
    for (const auto* helper : helpers) {
      // A sink's helpers are shared by the pipelines that feed it.
      if (!helper->empty() && std::find(names.begin(), names.end(), *helper) == names.end())
        names.push_back(*helper);
    }
  }
  return names;
}

QueryProgram generate_query(const plan::PhysicalPlan& plan, const GenerateOptions& options) {
  QueryProgram program;
  program.context = std::make_unique<llvm::LLVMContext>();
  program.module = std::make_unique<llvm::Module>("floe_query", *program.context);
  prepare_module(*program.module);
  CodegenContext codegen(*program.context, *program.module);
  ExpressionCompiler expressions(codegen);
  PipelineEnv env(codegen, expressions, plan.logical, program, options.push_restrictions);
  std::vector<std::unique_ptr<Consumer>> consumers;
  UnionContinuations unions;
  for (const auto& pipeline : plan.pipelines)
    generate_pipeline(env, pipeline, options.count_rows, unions, consumers);
  program.embedded_objects = codegen.take_embedded_objects();

  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(*program.module, &stream)) {
    throw Error("internal error: generated code is invalid: " + stream.str());
  }
  return program;
}

}  // namespace floe::codegen
