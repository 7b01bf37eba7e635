// Hash aggregation. The sink looks the group up in the worker's AggregationHashTable
// (thread-local pre-aggregation), inserts it when new and updates the aggregate states; the
// generated keys_equal and merge functions let the runtime combine the workers' tables.
// The source iterates the merged groups and finalizes the aggregates.
#include "codegen/aggregate_states.h"
#include "codegen/key_codegen.h"
#include "codegen/translator.h"
#include "runtime/aggregation_hash_table.h"
#include "storage/error.h"

namespace floe::codegen {
namespace {

class AggregationSink : public Consumer {
 public:
  AggregationSink(PipelineEnv& env, const plan::AggregateOp& aggregate)
      : env_(env),
        aggregate_(aggregate),
        states_(env, *env.materialization(aggregate).aggregate),
        slot_(env.materialization(aggregate).slot) {
    auto& pipeline = *env.pipeline;
    pipeline.keys_equal_function = emit_keys_equal();
    pipeline.merge_function = emit_merge();
    if (!aggregate.initial_groups.empty()) pipeline.initial_groups_function = emit_initial_groups();
  }

  void consume(Tuple& tuple, llvm::BasicBlock*) override {
    auto& b = env_.builder();
    auto& codegen = env_.codegen;
    auto* function = codegen.function();
    auto resolve = resolver_for(tuple);
    std::vector<SqlValue> keys;
    for (const auto& group : aggregate_.groups)
      keys.push_back(env_.expressions.compile(*group.expr, resolve));
    std::vector<AggregateInput> inputs;
    auto compile = [&](const plan::ExprPtr& expr) {
      return expr ? env_.expressions.compile(*expr, resolve) : SqlValue{};
    };
    for (const auto& call : aggregate_.aggregates) {
      AggregateInput input;
      input.argument = compile(call.argument);
      if (call.function == plan::AggregateFunction::kStringAgg) {
        input.delimiter = compile(call.parameter);
        input.order = compile(call.order);
      }
      inputs.push_back(input);
    }
    if (aggregate_.groups.empty()) {
      auto* row = global_group();
      for (size_t i = 0; i < inputs.size(); ++i) states_.update(row, i, inputs[i]);
      return;
    }
    auto* hash = hash_keys(env_, keys, states_.key_types());
    auto* table = env_.slot_pointer(slot_);
    auto* first = b.CreateCall(codegen.runtime_function("floe_rt_agg_lookup"),
                               {table, codegen.worker(), hash});
    auto* found = llvm::BasicBlock::Create(b.getContext(), "group_found", function);
    llvm::Value* existing = nullptr;
    llvm::BasicBlock* matched_block = nullptr;
    env_.emit_chain_walk(first, hash, "floe_rt_agg_next", "group",
                         [&](llvm::Value* entry, llvm::BasicBlock* advance) {
                           existing = b.CreateConstInBoundsGEP1_32(
                               b.getInt8Ty(), entry, sizeof(AggregationEntry), "payload");
                           std::vector<SqlValue> stored;
                           for (size_t k = 0; k < keys.size(); ++k)
                             stored.push_back(states_.load_key(existing, k));
                           auto* equal = keys_equal(env_, keys, stored, states_.key_types());
                           matched_block = b.GetInsertBlock();
                           b.CreateCondBr(equal, found, advance);
                         });

    // The chain held no equal keys: a new group.
    auto* created = b.CreateCall(codegen.runtime_function("floe_rt_agg_insert"),
                                 {table, codegen.worker(), hash});
    for (size_t k = 0; k < keys.size(); ++k) states_.store_key(created, k, keys[k]);
    auto* inserted_block = b.GetInsertBlock();
    b.CreateBr(found);

    b.SetInsertPoint(found);
    auto* row = b.CreatePHI(b.getPtrTy(), 2, "group_row");
    row->addIncoming(existing, matched_block);
    row->addIncoming(created, inserted_block);
    for (size_t i = 0; i < inputs.size(); ++i) states_.update(row, i, inputs[i]);
  }

 private:
  // The worker's one group without GROUP BY, looked up once per pipeline invocation in the
  // function's entry block (right after the load of the table's slot), not per row.
  llvm::Value* global_group() {
    auto* table = llvm::cast<llvm::Instruction>(env_.slot_pointer(slot_));
    llvm::IRBuilder<> entry_builder(table->getNextNode());
    return entry_builder.CreateCall(env_.codegen.runtime_function("floe_rt_agg_global_group"),
                                    {table, env_.codegen.worker()}, "global_group");
  }

  std::string emit_keys_equal() {
    auto& b = env_.builder();
    auto name = env_.function_name("agg_keys_equal");
    // The trailing context parameter of a RowEquality (runtime/row_callbacks.h) is unused.
    auto* function =
        env_.create_function(name, b.getInt1Ty(), {b.getPtrTy(), b.getPtrTy(), b.getPtrTy()});
    env_.codegen.begin_function(function, nullptr, nullptr);
    b.SetInsertPoint(llvm::BasicBlock::Create(b.getContext(), "entry", function));
    std::vector<SqlValue> a, c;
    for (size_t k = 0; k < aggregate_.groups.size(); ++k) {
      a.push_back(states_.load_key(function->getArg(0), k));
      c.push_back(states_.load_key(function->getArg(1), k));
    }
    b.CreateRet(keys_equal(env_, a, c, states_.key_types()));
    return name;
  }

  // bool initial_groups(void** state, WorkerContext* worker): inserts the groups of
  // AggregateOp::initial_groups into the worker's table, with zeroed (empty) states.
  std::string emit_initial_groups() {
    auto& b = env_.builder();
    auto name = env_.function_name("agg_initial_groups");
    auto* function = env_.create_function(name, b.getInt1Ty(), {b.getPtrTy(), b.getPtrTy()});
    env_.codegen.begin_function(function, function->getArg(0), function->getArg(1));
    b.SetInsertPoint(llvm::BasicBlock::Create(b.getContext(), "entry", function));
    auto no_columns = [](plan::ColumnId) -> SqlValue {
      throw Error("internal error: a column in an initial group key");
    };
    for (const auto& values : aggregate_.initial_groups) {
      std::vector<SqlValue> keys;
      for (const Value& value : values)
        keys.push_back(env_.expressions.compile(*plan::make_constant(value), no_columns));
      auto* hash = hash_keys(env_, keys, states_.key_types());
      auto* row = b.CreateCall(env_.codegen.runtime_function("floe_rt_agg_insert"),
                               {env_.slot_pointer(slot_), env_.codegen.worker(), hash});
      for (size_t k = 0; k < keys.size(); ++k) states_.store_key(row, k, keys[k]);
    }
    b.CreateRet(b.getTrue());
    return name;
  }

  // bool merge(WorkerContext* worker, uint8_t* into, const uint8_t* from, const void*): false
  // after an overflowing sum, recorded through the worker like a pipeline's failures.
  std::string emit_merge() {
    auto& b = env_.builder();
    auto name = env_.function_name("agg_merge");
    auto* function = env_.create_function(name, b.getInt1Ty(),
                                          {b.getPtrTy(), b.getPtrTy(), b.getPtrTy(), b.getPtrTy()});
    env_.codegen.begin_function(function, nullptr, function->getArg(0));
    b.SetInsertPoint(llvm::BasicBlock::Create(b.getContext(), "entry", function));
    for (size_t i = 0; i < aggregate_.aggregates.size(); ++i) {
      states_.merge(function->getArg(1), function->getArg(2), i);
    }
    b.CreateRet(b.getTrue());
    return name;
  }

  PipelineEnv& env_;
  const plan::AggregateOp& aggregate_;
  AggregateStates states_;
  uint32_t slot_ = 0;
};

class AggregationSource : public Source {
 public:
  AggregationSource(PipelineEnv& env, const plan::AggregateOp& aggregate)
      : env_(env),
        aggregate_(aggregate),
        states_(env, *env.materialization(aggregate).aggregate),
        slot_(env.materialization(aggregate).slot) {}

  void produce(Consumer& consumer) override {
    auto& b = env_.builder();
    auto* table = env_.slot_pointer(slot_);
    env_.emit_loop(env_.morsel_begin, env_.morsel_end, [&](llvm::Value* i, llvm::BasicBlock* next) {
      auto* row =
          b.CreateCall(env_.codegen.runtime_function("floe_rt_agg_row"), {table, i}, "group");
      Tuple tuple;
      for (size_t k = 0; k < aggregate_.groups.size(); ++k) {
        tuple[aggregate_.groups[k].id] = states_.load_key(row, k);
      }
      for (size_t a = 0; a < aggregate_.aggregates.size(); ++a) {
        tuple[aggregate_.aggregates[a].id] = states_.finalize(row, a);
      }
      consumer.consume(tuple, next);
    });
  }

 private:
  PipelineEnv& env_;
  const plan::AggregateOp& aggregate_;
  AggregateStates states_;
  uint32_t slot_ = 0;
};

}  // namespace

std::unique_ptr<Consumer> make_aggregation_sink(PipelineEnv& env,
                                                const plan::AggregateOp& aggregate) {
  return std::make_unique<AggregationSink>(env, aggregate);
}

std::unique_ptr<Source> make_aggregation_source(PipelineEnv& env,
                                                const plan::AggregateOp& aggregate) {
  return std::make_unique<AggregationSource>(env, aggregate);
}

}  // namespace floe::codegen
