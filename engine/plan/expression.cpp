#include "engine/plan/expression.h"

#include <cctype>

#include "engine/plan/logical_plan.h"
#include "runtime/function_registry.h"
#include "storage/stack_depth.h"

namespace floe::plan {

ExprPtr Expr::clone() const {
  check_stack_depth();
  auto copy = std::make_unique<Expr>();
  copy->kind = kind;
  copy->type = type;
  copy->nullable = nullable;
  copy->position = position;
  copy->column = column;
  copy->columns = columns;
  copy->constant = constant;
  copy->arithmetic_op = arithmetic_op;
  copy->compare_op = compare_op;
  copy->negated = negated;
  copy->date_part = date_part;
  copy->function = function;
  copy->parameter = parameter;
  copy->subquery = subquery;
  for (const ExprPtr& child : children) copy->children.push_back(child->clone());
  return copy;
}

namespace {

const char* arithmetic_symbol(ArithmeticOp op) {
  switch (op) {
    case ArithmeticOp::kAdd:
      return "+";
    case ArithmeticOp::kSubtract:
      return "-";
    case ArithmeticOp::kMultiply:
      return "*";
    case ArithmeticOp::kDivide:
      return "/";
    case ArithmeticOp::kModulo:
      return "%";
  }
  return "?";
}

const char* compare_symbol(CompareOp op) {
  switch (op) {
    case CompareOp::kEqual:
      return "=";
    case CompareOp::kNotEqual:
      return "<>";
    case CompareOp::kLess:
      return "<";
    case CompareOp::kLessEqual:
      return "<=";
    case CompareOp::kGreater:
      return ">";
    case CompareOp::kGreaterEqual:
      return ">=";
  }
  return "?";
}

std::string constant_text(const Value& value) {
  if (value.is_null()) return "NULL";
  if (value.type().is_string() || value.type().id == TypeId::kUnknown)
    return "'" + value.to_string() + "'";
  if (value.type().is_numeric() || value.type().id == TypeId::kBoolean) return value.to_string();
  return value.type().to_string() + " '" + value.to_string() + "'";
}

// name(arguments) for functions, the operator between or before its operands for operators.
template <typename Join, typename Child>
std::string function_text(const FunctionOverload& function, Join join, Child child) {
  const std::string& name = function.name;
  if (std::isalpha(static_cast<unsigned char>(name[0]))) return name + "(" + join() + ")";
  if (function.parameters.size() == 1) return "(" + name + child(0) + ")";
  return "(" + child(0) + " " + name + " " + child(1) + ")";
}

}  // namespace

std::string Expr::to_string(const ColumnRegistry* registry) const {
  check_stack_depth();
  auto child = [&](size_t i) { return children[i]->to_string(registry); };
  auto join = [&](size_t from, const char* separator) {
    std::string out;
    for (size_t i = from; i < children.size(); ++i) {
      if (i > from) out += separator;
      out += child(i);
    }
    return out;
  };
  switch (kind) {
    case ExprKind::kColumn:
      return (registry ? (*registry)[column].name : std::string()) + "#" + std::to_string(column);
    case ExprKind::kConstant:
      return constant_text(constant);
    case ExprKind::kParameter:
      return "$" + std::to_string(parameter + 1);
    case ExprKind::kArithmetic:
      return "(" + child(0) + " " + arithmetic_symbol(arithmetic_op) + " " + child(1) + ")";
    case ExprKind::kNegate:
      return "(-" + child(0) + ")";
    case ExprKind::kCompare:
      return "(" + child(0) + " " + compare_symbol(compare_op) + " " + child(1) + ")";
    case ExprKind::kAnd:
      return "(" + join(0, " AND ") + ")";
    case ExprKind::kOr:
      return "(" + join(0, " OR ") + ")";
    case ExprKind::kNot:
      return "(NOT " + child(0) + ")";
    case ExprKind::kIsNull:
      return "(" + child(0) + (negated ? " IS NOT NULL)" : " IS NULL)");
    case ExprKind::kCase: {
      std::string out = "CASE";
      for (size_t i = 0; i + 1 < children.size(); i += 2)
        out += " WHEN " + child(i) + " THEN " + child(i + 1);
      return out + " ELSE " + child(children.size() - 1) + " END";
    }
    case ExprKind::kCast:
      return "CAST(" + child(0) + " AS " + type.to_string() + ")";
    case ExprKind::kLike:
      return "(" + child(0) + (negated ? " NOT LIKE " : " LIKE ") + child(1) + ")";
    case ExprKind::kInList:
      return "(" + child(0) + (negated ? " NOT IN (" : " IN (") + join(1, ", ") + "))";
    case ExprKind::kCoalesce:
      return "COALESCE(" + join(0, ", ") + ")";
    case ExprKind::kExtract:
      return std::string("EXTRACT(") + date_part_name(date_part) + " FROM " + child(0) + ")";
    case ExprKind::kScalarSubquery:
      return "(subquery)";
    case ExprKind::kExists:
      return negated ? "NOT EXISTS (subquery)" : "EXISTS (subquery)";
    case ExprKind::kInSubquery: {
      std::string needle = children.size() == 1 ? child(0) : "(" + join(0, ", ") + ")";
      if (compare_op == CompareOp::kEqual)
        return "(" + needle + (negated ? " NOT IN" : " IN") + " (subquery))";
      std::string any = "(" + needle + " " + compare_symbol(compare_op) + " ANY (subquery))";
      return negated ? "(NOT " + any + ")" : any;
    }
    case ExprKind::kGreatest:
      return "GREATEST(" + join(0, ", ") + ")";
    case ExprKind::kLeast:
      return "LEAST(" + join(0, ", ") + ")";
    case ExprKind::kFunction:
      return function_text(*function, [&] { return join(0, ", "); }, child);
  }
  return "?";
}

ExprPtr make_column(ColumnId column, SqlType type, bool nullable) {
  auto expr = std::make_unique<Expr>();
  expr->kind = ExprKind::kColumn;
  expr->type = type;
  expr->nullable = nullable;
  expr->column = column;
  return expr;
}

ExprPtr make_constant(Value value) {
  auto expr = std::make_unique<Expr>();
  expr->kind = ExprKind::kConstant;
  expr->type = value.type();
  expr->nullable = value.is_null();
  expr->constant = std::move(value);
  return expr;
}

ExprPtr make_cast(ExprPtr operand, SqlType target) {
  if (operand->type == target) return operand;
  auto expr = std::make_unique<Expr>();
  expr->kind = ExprKind::kCast;
  expr->type = target;
  expr->nullable = operand->nullable;
  expr->position = operand->position;
  expr->children.push_back(std::move(operand));
  return expr;
}

ExprPtr make_parameter(uint32_t index, SqlType type) {
  auto expr = std::make_unique<Expr>();
  expr->kind = ExprKind::kParameter;
  expr->type = type;
  expr->parameter = index;
  return expr;
}

}  // namespace floe::plan
