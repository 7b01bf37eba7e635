// Hash join (DESIGN.md "Hash join"). The build pipeline's sink materializes
// [keys, needed build columns] into JoinHashTable entries; the probe operator hashes the probe
// keys, walks the matching chain, compares keys, checks the residual and, by join type, pushes
// each joined tuple on (inner, left outer), the probe tuple once on its first match (semi), or
// the probe tuple when nothing matched (anti, and left/full outer with NULL build columns).
// NULL keys never match, so they are not stored, except by right/full outer and right
// semi/anti joins, which keep every build row with a "matched" byte that the probe sets; a
// later pipeline emits the rows whose byte is still 0 (outer, right anti) or 1 (right semi).
// The probe of a right semi/anti join emits nothing. The null-aware anti join (NOT IN) only
// records that the build side had rows and NULL keys. Mark joins keep NULL mark keys and are
// probed by mark_join_translator.cpp.
#include <cstddef>

#include "codegen/join_codegen.h"
#include "codegen/key_codegen.h"
#include "codegen/translator.h"
#include "runtime/join_hash_table.h"
#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::codegen {

std::vector<SqlType> join_key_types(const plan::JoinOp& join) {
  std::vector<SqlType> types;
  for (const auto& key : join.keys) types.push_back(key.build->type);
  return types;
}

std::vector<SqlValue> compile_join_keys(PipelineEnv& env, const plan::JoinOp& join, bool build_side,
                                        const Tuple& tuple, llvm::BasicBlock* on_null,
                                        size_t strict) {
  auto& b = env.builder();
  std::vector<SqlValue> keys;
  for (const auto& key : join.keys) {
    SqlValue value =
        env.expressions.compile(build_side ? *key.build : *key.probe, resolver_for(tuple));
    if (value.null && on_null && keys.size() < strict) {
      auto* present = llvm::BasicBlock::Create(b.getContext(), "join_key", env.codegen.function());
      b.CreateCondBr(value.null, on_null, present);
      b.SetInsertPoint(present);
      value.null = nullptr;
    }
    keys.push_back(value);
  }
  return keys;
}

Tuple join_pair(PipelineEnv& env, const plan::JoinOp& join, const Materialization& rows,
                const Tuple& probe, llvm::Value* payload, const std::vector<SqlValue>& build_keys,
                llvm::BasicBlock* reject) {
  Tuple joined = probe;
  for (const auto& column : rows.columns) {
    joined[column.id] = column.field < build_keys.size()
                            ? build_keys[column.field]
                            : load_field(env.codegen, payload, rows.layout, column.field);
  }
  if (join.residual) {
    auto& b = env.builder();
    auto* pass = env.expressions.compile_predicate(*join.residual, resolver_for(joined));
    auto* keep = llvm::BasicBlock::Create(b.getContext(), "join_residual", env.codegen.function());
    b.CreateCondBr(pass, keep, reject);
    b.SetInsertPoint(keep);
  }
  return joined;
}

namespace {

using plan::JoinType;

bool preserves_probe(JoinType type) {
  return type == JoinType::kLeftOuter || type == JoinType::kFullOuter;
}

// The payload byte of right/full outer joins that the probe sets on a match: the last field.
size_t matched_field(const RowLayout& layout) {
  return layout.field_count() - 1;
}

llvm::Value* matched_flag_address(PipelineEnv& env, llvm::Value* payload, const RowLayout& layout) {
  return env.builder().CreateConstInBoundsGEP1_64(env.builder().getInt8Ty(), payload,
                                                  layout.offset(matched_field(layout)));
}

llvm::BasicBlock* new_join_block(PipelineEnv& env, const char* name) {
  return llvm::BasicBlock::Create(env.builder().getContext(), name, env.codegen.function());
}

// Flags of the null-aware anti join, written by the build with relaxed stores.
void set_flag(PipelineEnv& env, uint32_t slot) {
  auto* store = env.builder().CreateStore(env.builder().getInt64(1), env.slot_pointer(slot));
  store->setAlignment(llvm::Align(8));
  store->setAtomic(llvm::AtomicOrdering::Monotonic);
}

llvm::Value* flag_is_set(PipelineEnv& env, uint32_t slot) {
  auto& b = env.builder();
  auto* load = b.CreateLoad(b.getInt64Ty(), env.slot_pointer(slot));
  load->setAlignment(llvm::Align(8));
  load->setAtomic(llvm::AtomicOrdering::Monotonic);
  return b.CreateICmpNE(load, b.getInt64(0));
}

class JoinBuild : public Consumer {
 public:
  // The payload (keys first, then the other build columns used above the join, then the
  // matched byte where the probe marks rows) is the physical description's.
  JoinBuild(PipelineEnv& env, const plan::JoinOp& join)
      : env_(env), join_(join), rows_(&env.materialization(join)) {}

  void consume(Tuple& tuple, llvm::BasicBlock* next) override {
    check_stack_depth();  // consumers of one pipeline call each other
    auto& b = env_.builder();
    llvm::BasicBlock* on_null = plan::join_preserves_build(join_.type) ? nullptr : next;
    if (join_.type == JoinType::kNullAwareAnti) {
      set_flag(env_, rows_->build_rows_slot);
      on_null = new_join_block(env_, "join_build_null_key");
    }
    auto keys =
        compile_join_keys(env_, join_, true, tuple, on_null, join_.keys.size() - join_.mark_keys);
    auto* hash = join_.type == JoinType::kMark ? mark_join_build_hash(env_, join_, keys)
                                               : hash_keys(env_, keys, join_key_types(join_));
    auto* payload = emit_join_insert(env_, *rows_, hash, keys);
    for (size_t k = 0; k < keys.size(); ++k)
      store_field(env_.codegen, payload, rows_->layout, k, keys[k]);
    auto resolve = resolver_for(tuple);
    for (const auto& column : rows_->columns) {
      if (column.field < keys.size()) continue;  // stored as a key
      store_field(env_.codegen, payload, rows_->layout, column.field, resolve(column.id));
    }
    if (join_.type != JoinType::kNullAwareAnti) return;
    auto* done = new_join_block(env_, "join_build_done");
    b.CreateBr(done);
    b.SetInsertPoint(on_null);
    set_flag(env_, rows_->build_null_key_slot);
    b.CreateBr(next);
    b.SetInsertPoint(done);
  }

 private:
  PipelineEnv& env_;
  const plan::JoinOp& join_;
  const Materialization* rows_;
};

class JoinProbe : public Consumer {
 public:
  JoinProbe(PipelineEnv& env, const plan::JoinOp& join, Consumer& next)
      : env_(env), join_(join), next_(next), rows_(env.materialization(join)) {
    // NOT NULL columns get no null checks downstream, so NULL-extended ones must be nullable.
    auto check_nullable = [&](plan::ColumnId id) {
      if (!env.column(id).nullable)
        throw Error("internal error: NOT NULL column on the NULL-extended side of an outer join");
    };
    if (preserves_probe(join.type)) {
      for (const auto& column : rows_.columns) check_nullable(column.id);
    }
    if (plan::join_preserves_build(join.type)) {
      if (plan::join_outputs_probe(join.type)) {
        for (auto id : plan::output_columns(*join.children[0]))
          if (env.is_used(id)) check_nullable(id);
      }
      env.continuations[&join] = {&next, env.program.pipelines.size() - 1};
    }
  }

  void consume(Tuple& tuple, llvm::BasicBlock* next) override {
    check_stack_depth();  // consumers of one pipeline call each other
    auto& b = env_.builder();
    auto& codegen = env_.codegen;
    auto types = join_key_types(join_);
    const JoinType type = join_.type;
    const bool emits_unmatched =
        preserves_probe(type) || type == JoinType::kAnti || type == JoinType::kNullAwareAnti;
    auto* unmatched = emits_unmatched ? new_join_block(env_, "join_unmatched") : next;
    auto* done = new_join_block(env_, "join_done");

    llvm::BasicBlock* on_null_key = unmatched;
    if (type == JoinType::kNullAwareAnti) {
      // A NULL on the build side makes every NOT IN unknown; a NULL probe key is unknown
      // unless the build side is empty.
      auto* no_null = new_join_block(env_, "join_build_no_null");
      b.CreateCondBr(flag_is_set(env_, rows_.build_null_key_slot), next, no_null);
      b.SetInsertPoint(no_null);
      on_null_key = new_join_block(env_, "join_probe_null_key");
      auto* keep = b.GetInsertBlock();
      b.SetInsertPoint(on_null_key);
      b.CreateCondBr(flag_is_set(env_, rows_.build_rows_slot), next, unmatched);
      b.SetInsertPoint(keep);
    }
    auto probe_keys = compile_join_keys(env_, join_, false, tuple, on_null_key, join_.keys.size());

    llvm::Value* matched = nullptr;
    if (preserves_probe(type)) {
      matched = env_.entry_alloca(b.getInt1Ty());
      b.CreateStore(b.getFalse(), matched);
    }
    auto* hash = hash_keys(env_, probe_keys, types);
    emit_join_candidates(
        env_, rows_, hash, probe_keys, "join",
        [&](llvm::Value* payload, llvm::BasicBlock* advance) {
          std::vector<SqlValue> build_keys;
          for (size_t k = 0; k < types.size(); ++k)
            build_keys.push_back(load_field(codegen, payload, rows_.layout, k));
          auto* match = new_join_block(env_, "join_match");
          b.CreateCondBr(keys_equal(env_, probe_keys, build_keys, types), match, advance);

          b.SetInsertPoint(match);
          Tuple joined = join_pair(env_, join_, rows_, tuple, payload, build_keys, advance);
          on_match(tuple, joined, payload, matched, next, advance);
        });
    // The chain is exhausted.
    if (matched) {
      b.CreateCondBr(b.CreateLoad(b.getInt1Ty(), matched), next, unmatched);
    } else {
      b.CreateBr(emits_unmatched ? unmatched : done);
    }
    if (emits_unmatched) {
      b.SetInsertPoint(unmatched);
      Tuple extended = tuple;
      if (preserves_probe(type)) {
        for (const auto& column : rows_.columns)
          extended[column.id] = codegen.null_value(env_.column(column.id).type);
      }
      next_.consume(extended, next);
      b.CreateBr(done);
    }
    b.SetInsertPoint(done);
  }

 private:
  // Emits what a matching pair does; ends with a branch.
  void on_match(Tuple& probe, Tuple& joined, llvm::Value* payload, llvm::Value* matched,
                llvm::BasicBlock* next, llvm::BasicBlock* advance) {
    auto& b = env_.builder();
    if (plan::join_preserves_build(join_.type)) {
      // Relaxed: the flags are read only after the probe pipeline has finished. Storing only
      // when the flag is still 0 keeps cache lines of popular build rows shared.
      auto* address = matched_flag_address(env_, payload, rows_.layout);
      auto* flag = b.CreateLoad(b.getInt8Ty(), address);
      flag->setAtomic(llvm::AtomicOrdering::Monotonic);
      auto* mark = new_join_block(env_, "join_mark");
      auto* marked = new_join_block(env_, "join_marked");
      b.CreateCondBr(b.CreateICmpEQ(flag, b.getInt8(0)), mark, marked);
      b.SetInsertPoint(mark);
      auto* store = b.CreateStore(b.getInt8(1), address);
      store->setAtomic(llvm::AtomicOrdering::Monotonic);
      b.CreateBr(marked);
      b.SetInsertPoint(marked);
    }
    if (matched) b.CreateStore(b.getTrue(), matched);
    switch (join_.type) {
      case JoinType::kLeftOuter:
      case JoinType::kRightOuter:
      case JoinType::kFullOuter:
      case JoinType::kInner:
        next_.consume(joined, advance);
        b.CreateBr(advance);
        return;
      case JoinType::kSemi:
        next_.consume(probe, next);
        b.CreateBr(next);
        return;
      case JoinType::kAnti:
      case JoinType::kNullAwareAnti:
        b.CreateBr(next);
        return;
      case JoinType::kRightSemi:  // every matching build row must be marked
      case JoinType::kRightAnti:
      case JoinType::kMark:  // probed by mark_join_translator.cpp
        b.CreateBr(advance);
        return;
    }
  }

  PipelineEnv& env_;
  const plan::JoinOp& join_;
  Consumer& next_;
  const Materialization& rows_;
};

// Scans the join table's directory slots [morsel_begin, morsel_end) and walks each slot's
// whole chain, emitting the entries whose matched byte is 0 (1 for right semi joins).
class JoinUnmatchedSource : public Source {
 public:
  JoinUnmatchedSource(PipelineEnv& env, const plan::JoinOp& join)
      : env_(env), join_(join), rows_(env.materialization(join)) {}

  void produce(Consumer& consumer) override {
    if (rows_.join_table != plan::JoinTableKind::kChaining) return produce_rows(consumer);
    auto& b = env_.builder();
    auto* table = env_.slot_pointer(rows_.slot);
    env_.emit_loop(env_.morsel_begin, env_.morsel_end, [&](llvm::Value* i, llvm::BasicBlock*) {
      auto* first = b.CreateCall(env_.codegen.runtime_function("floe_rt_join_slot_chain"),
                                 {table, i}, "chain");
      auto* before = b.GetInsertBlock();
      auto* head = new_join_block(env_, "unmatched_chain");
      auto* body = new_join_block(env_, "unmatched_entry");
      auto* emit = new_join_block(env_, "unmatched_emit");
      auto* advance = new_join_block(env_, "unmatched_next");
      auto* exhausted = new_join_block(env_, "unmatched_exhausted");
      b.CreateBr(head);

      b.SetInsertPoint(head);
      auto* entry = b.CreatePHI(b.getPtrTy(), 2, "entry");
      entry->addIncoming(first, before);
      b.CreateCondBr(b.CreateIsNull(entry), exhausted, body);

      b.SetInsertPoint(body);
      auto* payload =
          b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), entry, sizeof(JoinEntry), "payload");
      auto* flag = b.CreateLoad(b.getInt8Ty(), matched_flag_address(env_, payload, rows_.layout));
      b.CreateCondBr(is_wanted(flag), emit, advance);

      b.SetInsertPoint(emit);
      emit_row(consumer, payload, advance);
      b.CreateBr(advance);

      b.SetInsertPoint(advance);
      static_assert(offsetof(JoinEntry, next) == 0);
      entry->addIncoming(b.CreateLoad(b.getPtrTy(), entry, "next_entry"), advance);
      b.CreateBr(head);

      b.SetInsertPoint(exhausted);
    });
  }

 private:
  // A CHT/CAT: rows [morsel_begin, morsel_end) of its array.
  void produce_rows(Consumer& consumer) {
    auto& b = env_.builder();
    auto* table = env_.slot_pointer(rows_.slot);
    env_.emit_loop(env_.morsel_begin, env_.morsel_end, [&](llvm::Value* i, llvm::BasicBlock* next) {
      auto* payload =
          b.CreateCall(env_.codegen.runtime_function("floe_rt_concise_row"), {table, i}, "payload");
      auto* flag = b.CreateLoad(b.getInt8Ty(), matched_flag_address(env_, payload, rows_.layout));
      auto* emit = new_join_block(env_, "unmatched_emit");
      b.CreateCondBr(is_wanted(flag), emit, next);
      b.SetInsertPoint(emit);
      emit_row(consumer, payload, next);
    });
  }

  // Whether a row's matched byte selects it: 0, or 1 for right semi joins.
  llvm::Value* is_wanted(llvm::Value* flag) {
    const int8_t wanted = join_.type == JoinType::kRightSemi ? 1 : 0;
    return env_.builder().CreateICmpEQ(flag, env_.builder().getInt8(wanted));
  }

  // Passes a selected build row on (probe columns NULL); a dropped one goes to `next`.
  void emit_row(Consumer& consumer, llvm::Value* payload, llvm::BasicBlock* next) {
    Tuple tuple;
    if (plan::join_outputs_probe(join_.type)) {
      for (auto id : plan::output_columns(*join_.children[0]))
        if (env_.is_used(id)) tuple[id] = env_.codegen.null_value(env_.column(id).type);
    }
    for (const auto& column : rows_.columns)
      tuple[column.id] = load_field(env_.codegen, payload, rows_.layout, column.field);
    consumer.consume(tuple, next);
  }

  PipelineEnv& env_;
  const plan::JoinOp& join_;
  const Materialization& rows_;
};

}  // namespace

std::unique_ptr<Source> make_join_unmatched_source(PipelineEnv& env, const plan::JoinOp& join) {
  return std::make_unique<JoinUnmatchedSource>(env, join);
}

std::unique_ptr<Consumer> make_join_build(PipelineEnv& env, const plan::JoinOp& join) {
  return std::make_unique<JoinBuild>(env, join);
}

std::unique_ptr<Consumer> make_join_probe(PipelineEnv& env, const plan::JoinOp& join,
                                          Consumer& next) {
  if (join.type == JoinType::kMark) return make_mark_join_probe(env, join, next);
  return std::make_unique<JoinProbe>(env, join, next);
}

}  // namespace floe::codegen
