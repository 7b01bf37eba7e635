// Generates one LLVM module per query: for each pipeline of the physical plan one function
//   bool floe_pipeline_<id>(void** state, WorkerContext* worker, uint64_t begin, uint64_t end)
// over one morsel of its source, plus the helper functions its sink needs.
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>

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
    case LogicalKind::kAggregate:
      return make_aggregation_source(env, static_cast<const plan::AggregateOp&>(source));
    case LogicalKind::kSort:
      return make_sort_source(env, static_cast<const plan::SortOp&>(source));
    case LogicalKind::kJoin:
      return make_join_unmatched_source(env, static_cast<const plan::JoinOp&>(source));
    default:
      throw Error("internal error: operator cannot be a pipeline source");
  }
}

// The pipeline of a right/full outer join's unmatched build rows reuses the consumers of the
// join's probe pipeline above the join (the same sink, the same LIMIT counters): it starts as
// a copy of that pipeline's program, with the LIMIT checks above the join only, and that
// sink is finalized after it.
Consumer* continue_probe_pipeline(PipelineEnv& env, const plan::JoinOp& join) {
  auto& program = env.program;
  const Materialization& rows = env.materializations.at(&join);
  PipelineProgram follower = program.pipelines[rows.probe_pipeline];
  follower.limits.resize(rows.limits_above);
  follower.global_aggregation = false;  // its one group exists already
  follower.initial_groups_function.clear();
  follower.sink_continues = false;
  program.pipelines.back().sink_continues = true;
  program.pipelines.push_back(std::move(follower));
  return rows.unmatched_consumer;
}

// `consumers` keeps every pipeline's consumers until the module is complete. With
// `count_rows`, a row counter follows the source and every streaming operator.
void generate_pipeline(PipelineEnv& env, const plan::Pipeline& pipeline, bool count_rows,
                       std::vector<std::unique_ptr<Consumer>>& consumers) {
  auto& program = env.program;
  Consumer* first = nullptr;
  if (pipeline.source->kind == LogicalKind::kJoin) {
    first = continue_probe_pipeline(env, static_cast<const plan::JoinOp&>(*pipeline.source));
  } else {
    program.pipelines.emplace_back();
  }
  auto& compiled = program.pipelines.back();
  compiled.id = pipeline.id;
  compiled.function = "floe_pipeline_" + std::to_string(pipeline.id);
  env.pipeline = &compiled;

  if (!first) {
    auto count = [&](const plan::LogicalOp& op) {
      if (!count_rows) return;
      consumers.push_back(make_row_counter(env, op, *first));
      first = consumers.back().get();
    };
    consumers.push_back(make_sink(env, pipeline.sink));
    first = consumers.back().get();
    for (auto op = pipeline.operators.rbegin(); op != pipeline.operators.rend(); ++op) {
      count(**op);
      consumers.push_back(make_operator(env, **op, *first));
      first = consumers.back().get();
    }
    count(*pipeline.source);
  }
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
    for (const auto* helper : {&pipeline.keys_equal_function, &pipeline.merge_function,
                               &pipeline.compare_function, &pipeline.initial_groups_function}) {
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
  for (const auto& pipeline : plan.pipelines)
    generate_pipeline(env, pipeline, options.count_rows, consumers);
  program.embedded_objects = codegen.take_embedded_objects();

  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(*program.module, &stream)) {
    throw Error("internal error: generated code is invalid: " + stream.str());
  }
  return program;
}

}  // namespace floe::codegen
