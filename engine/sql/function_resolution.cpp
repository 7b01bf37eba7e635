#include "engine/sql/function_resolution.h"

#include <optional>

#include "engine/plan/expression_utils.h"
#include "engine/sql/type_rules.h"
#include "runtime/function_registry.h"
#include "storage/error.h"

namespace floe::sql {

using plan::ExprPtr;

namespace {

// How an argument meets a parameter.
enum class Match { kNone, kExact, kPreferred, kOther };

// PostgreSQL's preferred types (double precision among numbers, text among strings) win a tie
// between conversions.
Match match(const plan::Expr& argument, TypeId parameter) {
  const SqlType& type = argument.type;
  if (is_unknown_literal(argument)) {
    if (parameter == TypeId::kText) return Match::kPreferred;
    if (parameter == TypeId::kDecimal) return Match::kNone;  // no precision to give it
    return parameter == TypeId::kDouble ? Match::kPreferred : Match::kOther;
  }
  if (type.id == parameter || (type.is_string() && parameter == TypeId::kText))
    return Match::kExact;
  int from = numeric_rank(type.id), to = numeric_rank(parameter);
  if (from >= 0 && to > from)
    return parameter == TypeId::kDouble ? Match::kPreferred : Match::kOther;
  if (type.id == TypeId::kDate && parameter == TypeId::kTimestamp) return Match::kOther;
  return Match::kNone;
}

// The argument as the parameter's type: strings stay as they are, integers become the
// numeric type that holds them.
ExprPtr convert(ExprPtr argument, TypeId parameter) {
  if (parameter == TypeId::kText) return resolve_unknown(std::move(argument));
  if (parameter == TypeId::kDecimal) {
    if (argument->type.id == TypeId::kDecimal) return argument;
    SqlType target = as_decimal(argument->type);
    return coerce(std::move(argument), target);
  }
  return coerce(std::move(argument), SqlType{parameter});
}

std::string signature(std::string_view name, const std::vector<ExprPtr>& arguments,
                      bool is_operator) {
  auto type = [&](size_t i) {  // PostgreSQL names types here without their modifiers
    SqlType type = arguments[i]->type;
    if (type.id == TypeId::kDecimal) return std::string("numeric");
    type.length = 0;
    return type.id == TypeId::kChar ? std::string("character") : type.to_string();
  };
  if (is_operator) {
    if (arguments.size() == 1) return std::string(name) + " " + type(0);
    return type(0) + " " + std::string(name) + " " + type(1);
  }
  std::string text = std::string(name) + "(";
  for (size_t i = 0; i < arguments.size(); ++i) text += (i ? ", " : "") + type(i);
  return text + ")";
}

}  // namespace

bool is_registry_function(std::string_view name) {
  return !function_registry().overloads(name).empty();
}

size_t resolve_overload(std::string_view name,
                        const std::vector<const std::vector<TypeId>*>& candidates,
                        std::vector<ExprPtr>& arguments, int location, bool is_operator) {
  // Best candidate: most exact matches, then most conversions to preferred types.
  std::optional<size_t> best;
  bool ambiguous = false;
  std::pair<int, int> best_score{-1, -1};
  for (size_t c = 0; c < candidates.size(); ++c) {
    const std::vector<TypeId>& parameters = *candidates[c];
    if (parameters.size() != arguments.size()) continue;
    std::pair<int, int> score{0, 0};
    bool fits = true;
    for (size_t i = 0; i < arguments.size() && fits; ++i) {
      Match m = match(*arguments[i], parameters[i]);
      fits = m != Match::kNone;
      score.first += m == Match::kExact;
      score.second += m == Match::kPreferred;
    }
    if (!fits) continue;
    if (score > best_score) {
      best = c;
      best_score = score;
      ambiguous = false;
    } else if (score == best_score) {
      ambiguous = true;
    }
  }
  if (!best || ambiguous) {
    std::string what = signature(name, arguments, is_operator);
    if (is_operator)
      throw Error(best ? "operator is not unique: " + what : "operator does not exist: " + what,
                  location);
    throw Error("function " + what + (best ? " is not unique" : " does not exist"), location);
  }
  for (size_t i = 0; i < arguments.size(); ++i)
    arguments[i] = convert(std::move(arguments[i]), (*candidates[*best])[i]);
  return *best;
}

ExprPtr resolve_function(std::string_view name, std::vector<ExprPtr> arguments, int location,
                         bool is_operator) {
  const std::vector<FunctionOverload>& overloads = function_registry().overloads(name);
  std::vector<const std::vector<TypeId>*> candidates;
  for (const FunctionOverload& overload : overloads) candidates.push_back(&overload.parameters);
  const FunctionOverload* best =
      &overloads[resolve_overload(name, candidates, arguments, location, is_operator)];
  std::vector<FunctionArgument> described;
  for (const ExprPtr& argument : arguments) {
    bool constant = argument->kind == plan::ExprKind::kConstant;
    described.push_back({argument->type, constant ? &argument->constant : nullptr});
  }
  SqlType type = best->result_type(described);
  auto call = plan::make_expr(plan::ExprKind::kFunction, type, std::move(arguments), location);
  call->function = best;
  call->nullable |= best->may_return_null;
  return call;
}

}  // namespace floe::sql
