// Generates one LLVM module per query: for each pipeline of the physical plan one function
//   bool floe_pipeline_<id>(void** state, WorkerContext* worker, uint64_t begin, uint64_t end)
// over one morsel of its source, plus the helper functions its sink needs (which adaptive
// execution compiles as one module per pipeline: ModulePartCompiler).
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <unordered_map>

#include "codegen/jit.h"
#include "codegen/join_codegen.h"
#include "codegen/query_program.h"
#include "codegen/translator.h"
#include "engine/plan/bitmap_filter_joins.h"
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
    case LogicalKind::kTableFunction:
      return make_table_function(env, static_cast<const plan::TableFunctionOp&>(op), next);
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

// A pipeline that feeds the sink of an earlier one (the unmatched rows of a right/full outer
// join after its probe pipeline, a UNION ALL's further children after the first) goes on in
// that pipeline's consumers above the shared part, and so has its sink's functions; the
// physical description says which of its LIMIT checks apply.
Consumer* continue_pipeline(PipelineEnv& env, const PipelineEnv::Continuation& from) {
  PipelineProgram follower = env.program.pipelines[from.pipeline];
  follower.initial_groups_function.clear();  // its groups exist already
  env.program.pipelines.push_back(std::move(follower));
  return from.above;
}

// `consumers` keeps every pipeline's consumers until the module is complete. With
// `count_rows`, a row counter follows the source and every streaming operator.
void generate_pipeline(PipelineEnv& env, const plan::Pipeline& pipeline, bool count_rows,
                       std::vector<std::unique_ptr<Consumer>>& consumers) {
  auto& program = env.program;
  bool unmatched_rows = pipeline.source->kind == LogicalKind::kJoin;
  Consumer* first = nullptr;
  // The operators this pipeline generates itself: up to the union whose consumers above an
  // earlier pipeline made, or all (none for a join's unmatched rows).
  size_t own = pipeline.operators.size();
  if (unmatched_rows) {
    first = continue_pipeline(env, env.continuations.at(pipeline.source));
    own = 0;
  } else {
    for (size_t k = 0; k < pipeline.operators.size() && !first; ++k) {
      auto found = env.continuations.find(pipeline.operators[k]);
      if (found == env.continuations.end()) continue;
      first = continue_pipeline(env, found->second);
      own = k + 1;
    }
    if (!first) program.pipelines.emplace_back();
  }
  auto& compiled = program.pipelines.back();
  compiled.id = pipeline.id;
  compiled.function = "floe_pipeline_" + std::to_string(pipeline.id);
  env.pipeline = &compiled;
  env.description = &env.physical.pipelines.at(program.pipelines.size() - 1);

  auto count = [&](const plan::LogicalOp& op) {
    if (!count_rows) return;
    consumers.push_back(make_row_counter(env, op, *first));
    first = consumers.back().get();
  };
  if (!first) {
    consumers.push_back(make_sink(env, pipeline.sink));
    first = consumers.back().get();
  }
  // The first CHT/CAT join, where the early bitmap filter goes (bitmap_filter_translator.cpp).
  const size_t first_concise_join = plan::first_concise_join(pipeline, own, env.physical);
  for (size_t k = own; k-- > 0;) {
    const plan::LogicalOp& op = *pipeline.operators[k];
    if (op.kind == LogicalKind::kUnionAll) {
      // The first child's pipeline makes the consumers above; the others continue there.
      if (!env.continuations.count(&op)) {
        count(op);
        env.continuations[&op] = {first, program.pipelines.size() - 1};
      }
      consumers.push_back(make_union_all_input(env, static_cast<const plan::UnionAllOp&>(op),
                                               plan::union_child(pipeline, k), *first));
    } else {
      count(op);
      consumers.push_back(make_operator(env, op, *first));
    }
    first = consumers.back().get();
    if (k == first_concise_join) {
      if (auto filter = make_bitmap_filter(env, pipeline, k, *first)) {
        consumers.push_back(std::move(filter));
        first = consumers.back().get();
      }
    }
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

std::vector<std::string> QueryProgram::pipeline_entry_points(size_t index) const {
  const PipelineProgram& pipeline = pipelines[index];
  std::vector<std::string> names = {pipeline.function};
  std::vector<const std::string*> helpers = {
      &pipeline.keys_equal_function,   &pipeline.merge_function,
      &pipeline.compare_function,      &pipeline.initial_groups_function,
      &pipeline.window_same_partition, &pipeline.window_peers};
  for (const auto& aggregate : pipeline.window_aggregates)
    helpers.insert(helpers.end(), {&aggregate.update, &aggregate.merge, &aggregate.finalize});
  for (const auto& bounds : pipeline.window_range_bounds)
    helpers.insert(helpers.end(), {&bounds.start, &bounds.end});
  for (const auto* helper : helpers)
    if (!helper->empty()) names.push_back(*helper);
  return names;
}

std::vector<std::string> QueryProgram::entry_points() const {
  std::vector<std::string> names;
  for (size_t p = 0; p < pipelines.size(); ++p) {
    for (auto& name : pipeline_entry_points(p)) {
      // A sink's helpers are shared by the pipelines that feed it.
      if (std::find(names.begin(), names.end(), name) == names.end())
        names.push_back(std::move(name));
    }
  }
  return names;
}

QueryProgram generate_query(const plan::PhysicalPlan& plan,
                            std::shared_ptr<const plan::PhysicalDescription> physical,
                            const GenerateOptions& options) {
  QueryProgram program;
  program.physical = std::move(physical);
  program.context = std::make_unique<llvm::LLVMContext>();
  program.module = std::make_unique<llvm::Module>("floe_query", *program.context);
  prepare_module(*program.module);
  CodegenContext codegen(*program.context, *program.module);
  ExpressionCompiler expressions(codegen);
  PipelineEnv env(codegen, expressions, plan.logical, *program.physical, program);
  std::vector<std::unique_ptr<Consumer>> consumers;
  for (const auto& pipeline : plan.pipelines) {
    if (options.abandoned && options.abandoned->load(std::memory_order_relaxed))
      throw QueryAbandoned{};
    generate_pipeline(env, pipeline, options.count_rows, consumers);
  }
  program.embedded_objects = codegen.take_embedded_objects();

  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(*program.module, &stream)) {
    throw Error("internal error: generated code is invalid: " + stream.str());
  }
  return program;
}

}  // namespace floe::codegen
