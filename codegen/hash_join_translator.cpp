// Hash join (DESIGN.md "Hash join"). The build pipeline's sink materializes
// [keys, needed build columns] into JoinHashTable entries; the probe operator hashes the probe
// keys, walks the matching chain, compares keys, checks the residual and pushes each joined
// tuple on. NULL keys never match (inner join), so they are neither stored nor probed.
#include "codegen/key_codegen.h"
#include "codegen/translator.h"
#include "runtime/join_hash_table.h"
#include "storage/error.h"

namespace floe::codegen {
namespace {

std::vector<SqlType> key_types(const plan::JoinOp& join) {
  std::vector<SqlType> types;
  for (const auto& key : join.keys) types.push_back(key.build->type);
  return types;
}

// Compiles the keys on one side; a NULL key drops the tuple (branch to `next`).
std::vector<SqlValue> compile_keys(PipelineEnv& env, const plan::JoinOp& join, bool build_side,
                                   const Tuple& tuple, llvm::BasicBlock* next) {
  auto& b = env.builder();
  std::vector<SqlValue> keys;
  for (const auto& key : join.keys) {
    SqlValue value =
        env.expressions.compile(build_side ? *key.build : *key.probe, resolver_for(tuple));
    if (value.null) {
      auto* present = llvm::BasicBlock::Create(b.getContext(), "join_key", env.codegen.function());
      b.CreateCondBr(value.null, next, present);
      b.SetInsertPoint(present);
      value.null = nullptr;
    }
    keys.push_back(value);
  }
  return keys;
}

class JoinBuild : public Consumer {
 public:
  JoinBuild(PipelineEnv& env, const plan::JoinOp& join) : env_(env), join_(join) {
    if (join.type != plan::JoinType::kInner) throw NotSupported("this join type");
    // Payload: the keys first, then the other build columns used above the join. A key that
    // is a plain column also gives that column back (non-NULL, as the join only keeps matches).
    std::vector<RowField> fields;
    for (const auto& type : key_types(join)) fields.push_back({type, false});
    Materialization rows;
    for (auto id : plan::output_columns(*join.children[1])) {
      if (!env.is_used(id)) continue;
      size_t field = fields.size();
      for (size_t k = 0; k < join.keys.size(); ++k) {
        const auto& key = *join.keys[k].build;
        if (key.kind == plan::ExprKind::kColumn && key.column == id) field = k;
      }
      if (field == fields.size()) fields.push_back({env.column(id).type, env.column(id).nullable});
      rows.columns.push_back({id, field});
    }
    rows.layout = RowLayout(std::move(fields));
    rows.slot =
        env.add_slot(StateSlot{StateSlot::Kind::kJoinTable, nullptr, {}, rows.layout.size()});
    env.pipeline->sink = PipelineProgram::Sink::kJoinBuild;
    env.pipeline->sink_slot = rows.slot;
    rows_ = &(env.materializations[&join] = std::move(rows));
  }

  void consume(Tuple& tuple, llvm::BasicBlock* next) override {
    auto& b = env_.builder();
    auto keys = compile_keys(env_, join_, true, tuple, next);
    auto* hash = hash_keys(env_, keys, key_types(join_));
    auto* payload =
        b.CreateCall(env_.codegen.runtime_function("floe_rt_join_insert"),
                     {env_.slot_pointer(rows_->slot), env_.codegen.worker(), hash}, "join_payload");
    for (size_t k = 0; k < keys.size(); ++k)
      store_field(env_.codegen, payload, rows_->layout, k, keys[k]);
    auto resolve = resolver_for(tuple);
    for (const auto& column : rows_->columns) {
      if (column.field < keys.size()) continue;  // stored as a key
      store_field(env_.codegen, payload, rows_->layout, column.field, resolve(column.id));
    }
  }

 private:
  PipelineEnv& env_;
  const plan::JoinOp& join_;
  const Materialization* rows_ = nullptr;
};

class JoinProbe : public Consumer {
 public:
  JoinProbe(PipelineEnv& env, const plan::JoinOp& join, Consumer& next)
      : env_(env), join_(join), next_(next), rows_(env.materializations.at(&join)) {}

  void consume(Tuple& tuple, llvm::BasicBlock* next) override {
    auto& b = env_.builder();
    auto& codegen = env_.codegen;
    auto* function = codegen.function();
    auto types = key_types(join_);
    auto probe_keys = compile_keys(env_, join_, false, tuple, next);
    auto* hash = hash_keys(env_, probe_keys, types);
    auto* table = env_.slot_pointer(rows_.slot);
    auto* first = b.CreateCall(codegen.runtime_function("floe_rt_join_lookup"), {table, hash});
    env_.emit_chain_walk(
        first, hash, "floe_rt_join_next", "join",
        [&](llvm::Value* entry, llvm::BasicBlock* advance) {
          auto* payload =
              b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), entry, sizeof(JoinEntry), "payload");
          std::vector<SqlValue> build_keys;
          for (size_t k = 0; k < types.size(); ++k)
            build_keys.push_back(load_field(codegen, payload, rows_.layout, k));
          auto* match = llvm::BasicBlock::Create(b.getContext(), "join_match", function);
          b.CreateCondBr(keys_equal(env_, probe_keys, build_keys, types), match, advance);

          b.SetInsertPoint(match);
          Tuple joined = tuple;
          for (const auto& column : rows_.columns) {
            joined[column.id] = column.field < types.size()
                                    ? build_keys[column.field]
                                    : load_field(codegen, payload, rows_.layout, column.field);
          }
          if (join_.residual) {
            auto* pass = env_.expressions.compile_predicate(*join_.residual, resolver_for(joined));
            auto* keep = llvm::BasicBlock::Create(b.getContext(), "join_residual", function);
            b.CreateCondBr(pass, keep, advance);
            b.SetInsertPoint(keep);
          }
          next_.consume(joined, advance);
          b.CreateBr(advance);
        });
  }

 private:
  PipelineEnv& env_;
  const plan::JoinOp& join_;
  Consumer& next_;
  const Materialization& rows_;
};

}  // namespace

std::unique_ptr<Consumer> make_join_build(PipelineEnv& env, const plan::JoinOp& join) {
  return std::make_unique<JoinBuild>(env, join);
}

std::unique_ptr<Consumer> make_join_probe(PipelineEnv& env, const plan::JoinOp& join,
                                          Consumer& next) {
  return std::make_unique<JoinProbe>(env, join, next);
}

}  // namespace floe::codegen
