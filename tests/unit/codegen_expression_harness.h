// Test harness for the expression compiler: compiles one expression into a tiny JIT-compiled
// function, runs it on one row of column values and returns the result.
#pragma once

#include <string>
#include <vector>

#include "codegen/jit.h"
#include "engine/plan/expression.h"
#include "storage/value.h"

namespace floe::codegen::testing {

// Evaluates `expr`, whose column ColumnId i reads inputs[i] (nullable as its kColumn node
// says), at `level`. Returns the result's text ("NULL" for NULL) or "ERROR: <message>".
std::string evaluate(const plan::Expr& expr, const std::vector<Value>& inputs,
                     JitOptimization level);

// evaluate() at both optimization levels; fails the test when they disagree.
std::string run(const plan::Expr& expr, const std::vector<Value>& inputs = {});

// ExpressionCompiler::equal, compare and hash applied to two non-null values of one type.
struct KeyResults {
  bool equal;
  int32_t compare;
  uint64_t hash_a;
  uint64_t hash_b;
};
KeyResults key_functions(const Value& a, const Value& b);

// Expression builders.
template <typename... Exprs>
std::vector<plan::ExprPtr> list(Exprs... exprs) {
  std::vector<plan::ExprPtr> out;
  (out.push_back(std::move(exprs)), ...);
  return out;
}
plan::ExprPtr constant(Value value);
plan::ExprPtr column(plan::ColumnId id, SqlType type, bool nullable = true);
plan::ExprPtr null_of(SqlType type);
plan::ExprPtr arithmetic(plan::ArithmeticOp op, plan::ExprPtr a, plan::ExprPtr b, SqlType type);
plan::ExprPtr negate(plan::ExprPtr operand);
plan::ExprPtr compare(plan::CompareOp op, plan::ExprPtr a, plan::ExprPtr b);
plan::ExprPtr node(plan::ExprKind kind, SqlType type, std::vector<plan::ExprPtr> children);
plan::ExprPtr cast(plan::ExprPtr operand, SqlType type);

}  // namespace floe::codegen::testing
