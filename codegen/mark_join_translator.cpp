// Mark join probe (JoinType::kMark; Neumann & Kemper, "Unnesting Arbitrary Queries", BTW
// 2015, section 2.2). The build side is the hash join's (hash_join_translator.cpp): rows with a
// NULL strict key are dropped, mark keys keep their NULLs, and a row with a NULL mark key is
// stored under the hash of its keys with all mark keys NULL (mark_join_build_hash). Each
// probe row passes on once with its mark:
//  - a NULL strict key: no candidate, FALSE;
//  - no NULL mark key: the chain of its keys' hash gives the rows that can make the mark
//    TRUE (and, through mark_condition, unknown); then the chain of the NULL-mark-key rows
//    with the same strict keys can only make it unknown;
//  - a NULL mark key: the mark cannot be TRUE; every stored row is a possible candidate
//    (the three-valued comparison of the other mark keys decides), so all are visited, as
//    PostgreSQL's hashed subplan does for a NULL in a row-valued IN.
// A walk ends at the first TRUE, and where TRUE is no longer possible at the first unknown.
#include "codegen/join_codegen.h"
#include "codegen/key_codegen.h"
#include "storage/stack_depth.h"

namespace floe::codegen {

namespace {

using plan::JoinType;

// The keys with every mark key NULL.
std::vector<SqlValue> with_null_marks(PipelineEnv& env, const plan::JoinOp& join,
                                      std::vector<SqlValue> keys) {
  for (size_t k = keys.size() - join.mark_keys; k < keys.size(); ++k)
    keys[k].null = env.builder().getTrue();
  return keys;
}

// i1 OR of the NULL flags of the mark keys; null when none can be NULL.
llvm::Value* any_null_mark(PipelineEnv& env, const plan::JoinOp& join,
                           const std::vector<SqlValue>& keys) {
  llvm::Value* any = nullptr;
  for (size_t k = keys.size() - join.mark_keys; k < keys.size(); ++k) {
    if (!keys[k].null) continue;
    any = any ? env.builder().CreateOr(any, keys[k].null) : keys[k].null;
  }
  return any;
}

class MarkJoinProbe : public Consumer {
 public:
  MarkJoinProbe(PipelineEnv& env, const plan::JoinOp& join, Consumer& next)
      : env_(env),
        join_(join),
        next_(next),
        rows_(env.materialization(join)),
        types_(join_key_types(join)),
        strict_(join.keys.size() - join.mark_keys) {}

  void consume(Tuple& tuple, llvm::BasicBlock* next) override {
    check_stack_depth();  // consumers of one pipeline call each other
    auto& b = env_.builder();
    mark_value_ = env_.entry_alloca(b.getInt1Ty());
    mark_null_ = env_.entry_alloca(b.getInt1Ty());
    b.CreateStore(b.getFalse(), mark_value_);
    b.CreateStore(b.getFalse(), mark_null_);
    emit_ = block("mark_emit");

    auto probe_keys = compile_join_keys(env_, join_, false, tuple, emit_, strict_);
    llvm::Value* null_mark = any_null_mark(env_, join_, probe_keys);
    auto* hashed = block("mark_hashed");
    if (null_mark) {
      auto* scan_all = block("mark_scan_all");
      b.CreateCondBr(null_mark, scan_all, hashed);
      b.SetInsertPoint(scan_all);
      emit_join_all_rows(env_, rows_, "mark_all", visitor(tuple, probe_keys, true));
      b.CreateBr(emit_);
    } else {
      b.CreateBr(hashed);
    }

    b.SetInsertPoint(hashed);
    walk_chain(probe_keys, probe_keys, tuple, false);
    if (join_.mark_keys)
      walk_chain(with_null_marks(env_, join_, probe_keys), probe_keys, tuple, true);
    b.CreateBr(emit_);

    b.SetInsertPoint(emit_);
    Tuple marked = tuple;
    const bool nullable = env_.column(join_.mark).nullable;
    marked[join_.mark] = {b.CreateLoad(b.getInt1Ty(), mark_value_),
                          nullable ? b.CreateLoad(b.getInt1Ty(), mark_null_) : nullptr};
    next_.consume(marked, next);
  }

 private:
  llvm::BasicBlock* block(const char* name) {
    return llvm::BasicBlock::Create(env_.builder().getContext(), name, env_.codegen.function());
  }

  // The chain of the entries stored under the hash of `hashed`.
  void walk_chain(const std::vector<SqlValue>& hashed, const std::vector<SqlValue>& probe_keys,
                  Tuple& tuple, bool unknown_ends) {
    emit_join_candidates(env_, rows_, hash_keys(env_, hashed, types_), hashed, "mark_chain",
                         visitor(tuple, probe_keys, unknown_ends));
  }

  // The visit of a candidate: its mark value ends the walk when TRUE (or unknown, with
  // `unknown_ends`); an unknown one otherwise leaves the mark unknown.
  std::function<void(llvm::Value*, llvm::BasicBlock*)> visitor(
      Tuple& tuple, const std::vector<SqlValue>& probe_keys, bool unknown_ends) {
    return [this, &tuple, &probe_keys, unknown_ends](llvm::Value* payload,
                                                     llvm::BasicBlock* advance) {
      auto& b = env_.builder();
      auto& codegen = env_.codegen;
      std::vector<SqlValue> build_keys;
      for (size_t k = 0; k < types_.size(); ++k)
        build_keys.push_back(load_field(codegen, payload, rows_.layout, k));
      std::vector<SqlValue> probe_strict(probe_keys.begin(), probe_keys.begin() + strict_);
      std::vector<SqlValue> build_strict(build_keys.begin(), build_keys.begin() + strict_);
      std::vector<SqlType> strict_types(types_.begin(), types_.begin() + strict_);
      auto* candidate = block("mark_candidate");
      b.CreateCondBr(keys_equal(env_, probe_strict, build_strict, strict_types), candidate,
                     advance);
      b.SetInsertPoint(candidate);
      Tuple joined = join_pair(env_, join_, rows_, tuple, payload, build_keys, advance);
      // The three-valued AND of the mark key equalities and the mark condition.
      llvm::Value* is_false = b.getFalse();
      llvm::Value* is_null = b.getFalse();
      auto add_term = [&](llvm::Value* value, llvm::Value* null) {
        if (null) {
          is_false = b.CreateOr(is_false, b.CreateAnd(b.CreateNot(null), b.CreateNot(value)));
          is_null = b.CreateOr(is_null, null);
        } else {
          is_false = b.CreateOr(is_false, b.CreateNot(value));
        }
      };
      for (size_t k = strict_; k < types_.size(); ++k) {
        const SqlValue& probe = probe_keys[k];
        const SqlValue& build = build_keys[k];
        llvm::Value* null = probe.null && build.null ? b.CreateOr(probe.null, build.null)
                                                     : (probe.null ? probe.null : build.null);
        add_term(env_.expressions.equal(zero_if_null(codegen, probe), zero_if_null(codegen, build),
                                        types_[k]),
                 null);
      }
      if (join_.mark_condition) {
        SqlValue condition = env_.expressions.compile(*join_.mark_condition, resolver_for(joined));
        add_term(condition.value, condition.null);
      }
      auto* decided = block("mark_decided");
      auto* unknown = block("mark_unknown");
      b.CreateCondBr(is_false, advance, decided);
      b.SetInsertPoint(decided);
      b.CreateStore(b.CreateNot(is_null), mark_value_);
      b.CreateStore(is_null, mark_null_);
      b.CreateCondBr(is_null, unknown, emit_);
      b.SetInsertPoint(unknown);
      b.CreateBr(unknown_ends ? emit_ : advance);
    };
  }

  PipelineEnv& env_;
  const plan::JoinOp& join_;
  Consumer& next_;
  const Materialization& rows_;
  const std::vector<SqlType> types_;
  const size_t strict_;
  llvm::Value* mark_value_ = nullptr;
  llvm::Value* mark_null_ = nullptr;
  llvm::BasicBlock* emit_ = nullptr;
};

}  // namespace

llvm::Value* mark_join_build_hash(PipelineEnv& env, const plan::JoinOp& join,
                                  const std::vector<SqlValue>& keys) {
  const auto types = join_key_types(join);
  llvm::Value* hash = hash_keys(env, keys, types);
  llvm::Value* null_mark = any_null_mark(env, join, keys);
  if (!null_mark) return hash;
  return env.builder().CreateSelect(null_mark,
                                    hash_keys(env, with_null_marks(env, join, keys), types), hash);
}

std::unique_ptr<Consumer> make_mark_join_probe(PipelineEnv& env, const plan::JoinOp& join,
                                               Consumer& next) {
  return std::make_unique<MarkJoinProbe>(env, join, next);
}

}  // namespace floe::codegen
