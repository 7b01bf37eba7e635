#include "codegen/expression_compiler.h"

#include "codegen/expression_arithmetic.h"
#include "codegen/expression_cast.h"
#include "codegen/expression_comparison.h"
#include "codegen/expression_function.h"
#include "codegen/expression_hash.h"
#include "codegen/expression_ir.h"
#include "codegen/expression_logic.h"
#include "codegen/expression_string.h"
#include "codegen/expression_temporal.h"
#include "codegen/row_codegen.h"
#include "runtime/parameter_slot.h"
#include "runtime/query_context.h"
#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::codegen {
namespace {

SqlValue compile_constant(CodegenContext& context, const plan::Expr& expr) {
  const Value& constant = expr.constant;
  if (constant.is_null()) return context.null_value(expr.type);
  llvm::Type* type = context.register_type(expr.type);
  switch (expr.type.physical()) {
    case PhysicalType::kBool:
      return {context.builder().getInt1(constant.as_bool()), nullptr};
    case PhysicalType::kInt16:
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
    case PhysicalType::kInt128:
      return {int_constant(type, constant.as_int128()), nullptr};
    case PhysicalType::kDouble:
      return {llvm::ConstantFP::get(type, constant.as_double()), nullptr};
    case PhysicalType::kInterval: {
      const Interval& interval = constant.as_interval();
      auto& builder = context.builder();
      return {llvm::ConstantStruct::get(
                  llvm::cast<llvm::StructType>(type),
                  {builder.getInt32(interval.months), builder.getInt32(interval.days),
                   builder.getInt64(interval.micros)}),
              nullptr};
    }
    case PhysicalType::kString:
      return {string_constant(context, constant.as_string()), nullptr};
  }
  throw Error("internal error: unknown physical type");
}

// $n: loaded from the run's slot (WorkerContext::parameters), so that the compiled code
// serves every execution of a prepared statement.
SqlValue compile_parameter(CodegenContext& context, const plan::Expr& expr) {
  auto& builder = context.builder();
  auto* field = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), context.worker(),
                                                   offsetof(WorkerContext, parameters));
  auto* slots = builder.CreateLoad(builder.getPtrTy(), field);
  auto* slot = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), slots,
                                                  expr.parameter * sizeof(ParameterSlot));
  auto* null_flag = builder.CreateLoad(
      builder.getInt8Ty(),
      builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), slot,
                                         offsetof(ParameterSlot, is_null)));
  return {load_value(context, slot, expr.type.physical()),
          builder.CreateICmpNE(null_flag, builder.getInt8(0))};
}

}  // namespace

SqlValue ExpressionCompiler::compile(const plan::Expr& expr, const ColumnResolver& columns) {
  check_stack_depth();
  ChildCompiler child = [&](const plan::Expr& e) { return compile(e, columns); };
  auto operand = [&](size_t i) { return compile(*expr.children[i], columns); };
  switch (expr.kind) {
    case plan::ExprKind::kColumn:
      return columns(expr.column);
    case plan::ExprKind::kConstant:
      return compile_constant(context_, expr);
    case plan::ExprKind::kArithmetic: {
      SqlValue a = operand(0);
      return compile_arithmetic(context_, expr, a, operand(1));
    }
    case plan::ExprKind::kNegate:
      return compile_negate(context_, expr, operand(0));
    case plan::ExprKind::kCompare: {
      SqlValue a = operand(0);
      return compile_comparison(context_, expr.compare_op, a, operand(1), expr.children[0]->type);
    }
    case plan::ExprKind::kAnd:
    case plan::ExprKind::kOr:
      return compile_junction(context_, expr, child);
    case plan::ExprKind::kNot:
      return compile_not(context_, operand(0));
    case plan::ExprKind::kIsNull:
      return compile_is_null(context_, operand(0), expr.negated);
    case plan::ExprKind::kCase:
      return compile_case(context_, expr, child);
    case plan::ExprKind::kCast: {
      const plan::Expr& source = *expr.children[0];
      if (source.kind == plan::ExprKind::kConstant && source.constant.is_null()) {
        return context_.null_value(expr.type);
      }
      return cast_value(context_, operand(0), source.type, expr.type);
    }
    case plan::ExprKind::kLike:
      return compile_like(context_, operand(0), *expr.children[1], expr.negated);
    case plan::ExprKind::kInList: {
      SqlValue needle = operand(0);
      std::vector<SqlValue> items;
      for (size_t i = 1; i < expr.children.size(); ++i) items.push_back(operand(i));
      return compile_in_list(context_, needle, items, expr.children[0]->type, expr.negated);
    }
    case plan::ExprKind::kCoalesce:
      return compile_coalesce(context_, expr, child);
    case plan::ExprKind::kExtract:
      return compile_extract(context_, expr.date_part, operand(0), expr.children[0]->type,
                             expr.type);
    case plan::ExprKind::kGreatest:
    case plan::ExprKind::kLeast: {
      std::vector<SqlValue> arguments;
      for (size_t i = 0; i < expr.children.size(); ++i) arguments.push_back(operand(i));
      return compile_extremum(context_, expr, arguments);
    }
    case plan::ExprKind::kFunction: {
      std::vector<SqlValue> arguments;
      for (size_t i = 0; i < expr.children.size(); ++i) arguments.push_back(operand(i));
      return compile_function(context_, expr, arguments);
    }
    case plan::ExprKind::kParameter:
      return compile_parameter(context_, expr);
    case plan::ExprKind::kScalarSubquery:
    case plan::ExprKind::kExists:
    case plan::ExprKind::kInSubquery:
      throw Error("internal error: a subquery reached code generation", expr.position);
  }
  throw Error("internal error: unknown expression kind", expr.position);
}

llvm::Value* ExpressionCompiler::compile_predicate(const plan::Expr& expr,
                                                   const ColumnResolver& columns) {
  SqlValue value = compile(expr, columns);
  return unless_null(context_, value.value, value.null);
}

llvm::Value* ExpressionCompiler::hash(const SqlValue& value, const SqlType& type,
                                      llvm::Value* seed) {
  return hash_value(context_, value.value, type, seed);
}

llvm::Value* ExpressionCompiler::equal(llvm::Value* a, llvm::Value* b, const SqlType& type) {
  return values_equal(context_, a, b, type);
}

llvm::Value* ExpressionCompiler::compare(llvm::Value* a, llvm::Value* b, const SqlType& type) {
  return values_compare(context_, a, b, type);
}

}  // namespace floe::codegen
