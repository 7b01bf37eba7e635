#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/unit/codegen_expression_harness.h"

namespace floe::codegen::testing {
namespace {

using plan::CompareOp;
using plan::ExprKind;

// A boolean operand: 't', 'f' or 'n' (NULL), as a nullable column so that nothing folds.
plan::ExprPtr truth(char which, plan::ColumnId id, std::vector<Value>& inputs) {
  inputs.resize(std::max<size_t>(inputs.size(), id + 1));
  inputs[id] = which == 'n' ? Value::null(SqlType::boolean()) : Value::boolean(which == 't');
  return column(id, SqlType::boolean());
}

std::string junction(ExprKind kind, const std::string& operands) {
  std::vector<Value> inputs;
  std::vector<plan::ExprPtr> children;
  for (size_t i = 0; i < operands.size(); ++i) {
    children.push_back(truth(operands[i], static_cast<plan::ColumnId>(i), inputs));
  }
  return run(*node(kind, SqlType::boolean(), std::move(children)), inputs);
}

TEST(CodegenExpressionLogic, AndOrThreeValued) {
  EXPECT_EQ(junction(ExprKind::kAnd, "tt"), "t");
  EXPECT_EQ(junction(ExprKind::kAnd, "tf"), "f");
  EXPECT_EQ(junction(ExprKind::kAnd, "fn"), "f");
  EXPECT_EQ(junction(ExprKind::kAnd, "nf"), "f");
  EXPECT_EQ(junction(ExprKind::kAnd, "tn"), "NULL");
  EXPECT_EQ(junction(ExprKind::kAnd, "ntt"), "NULL");
  EXPECT_EQ(junction(ExprKind::kOr, "ff"), "f");
  EXPECT_EQ(junction(ExprKind::kOr, "tn"), "t");
  EXPECT_EQ(junction(ExprKind::kOr, "nt"), "t");
  EXPECT_EQ(junction(ExprKind::kOr, "fn"), "NULL");
  EXPECT_EQ(junction(ExprKind::kOr, "nnf"), "NULL");
}

TEST(CodegenExpressionLogic, NotAndIsNull) {
  std::vector<Value> inputs;
  EXPECT_EQ(run(*node(ExprKind::kNot, SqlType::boolean(), list(truth('t', 0, inputs))), inputs),
            "f");
  EXPECT_EQ(run(*node(ExprKind::kNot, SqlType::boolean(), list(truth('n', 0, inputs))), inputs),
            "NULL");
  auto is_null = node(ExprKind::kIsNull, SqlType::boolean(), list(column(0, SqlType::integer())));
  is_null->nullable = false;
  EXPECT_EQ(run(*is_null, {Value::null(SqlType::integer())}), "t");
  EXPECT_EQ(run(*is_null, {Value::integer(0)}), "f");
  is_null->negated = true;
  EXPECT_EQ(run(*is_null, {Value::integer(0)}), "t");
  auto not_null_column =
      node(ExprKind::kIsNull, SqlType::boolean(), list(column(0, SqlType::integer(), false)));
  EXPECT_EQ(run(*not_null_column, {Value::integer(0)}), "f");
}

// CASE WHEN x <> 0 THEN 100 / x WHEN x IS NULL THEN -1 ELSE 0 END
plan::ExprPtr guarded_division() {
  auto x = [] { return column(0, SqlType::integer()); };
  auto is_null = node(ExprKind::kIsNull, SqlType::boolean(), list(x()));
  return node(ExprKind::kCase, SqlType::integer(),
              list(compare(CompareOp::kNotEqual, x(), constant(Value::integer(0))),
                   arithmetic(plan::ArithmeticOp::kDivide, constant(Value::integer(100)), x(),
                              SqlType::integer()),
                   std::move(is_null), constant(Value::integer(-1)), constant(Value::integer(0))));
}

TEST(CodegenExpressionLogic, CaseEvaluatesOnlyTheChosenBranch) {
  auto expr = guarded_division();
  EXPECT_EQ(run(*expr, {Value::integer(4)}), "25");
  EXPECT_EQ(run(*expr, {Value::integer(0)}), "0");  // no division by zero
  EXPECT_EQ(run(*expr, {Value::null(SqlType::integer())}), "-1");
  // No ELSE given by the user: the binder supplies ELSE NULL.
  auto without_else = node(
      ExprKind::kCase, SqlType::text(),
      list(compare(CompareOp::kGreater, column(0, SqlType::integer()), constant(Value::integer(0))),
           constant(Value::string("positive")), null_of(SqlType::text())));
  EXPECT_EQ(run(*without_else, {Value::integer(3)}), "positive");
  EXPECT_EQ(run(*without_else, {Value::integer(-3)}), "NULL");
  EXPECT_EQ(run(*without_else, {Value::null(SqlType::integer())}), "NULL");
}

TEST(CodegenExpressionLogic, Coalesce) {
  auto expr = node(ExprKind::kCoalesce, SqlType::integer(),
                   list(column(0, SqlType::integer()), column(1, SqlType::integer()),
                        constant(Value::integer(7))));
  expr->nullable = false;
  EXPECT_EQ(run(*expr, {Value::integer(1), Value::integer(2)}), "1");
  EXPECT_EQ(run(*expr, {Value::null(SqlType::integer()), Value::integer(2)}), "2");
  EXPECT_EQ(run(*expr, {Value::null(SqlType::integer()), Value::null(SqlType::integer())}), "7");
  auto all_nullable = node(ExprKind::kCoalesce, SqlType::text(),
                           list(column(0, SqlType::text()), column(1, SqlType::text())));
  EXPECT_EQ(run(*all_nullable, {Value::null(SqlType::text()), Value::null(SqlType::text())}),
            "NULL");
  EXPECT_EQ(
      run(*all_nullable, {Value::null(SqlType::text()), Value::string("a long string value")}),
      "a long string value");
}

plan::ExprPtr in_list(plan::ExprPtr needle, std::vector<Value> items, bool negated) {
  std::vector<plan::ExprPtr> children;
  children.push_back(std::move(needle));
  for (Value& item : items) children.push_back(constant(std::move(item)));
  auto expr = node(ExprKind::kInList, SqlType::boolean(), std::move(children));
  expr->negated = negated;
  return expr;
}

TEST(CodegenExpressionLogic, InListWithNulls) {
  auto i = [](int32_t v) { return Value::integer(v); };
  Value null = Value::null(SqlType::integer());
  auto x = [] { return column(0, SqlType::integer()); };
  EXPECT_EQ(run(*in_list(x(), {i(1), i(2), i(3)}, false), {i(2)}), "t");
  EXPECT_EQ(run(*in_list(x(), {i(1), i(2), i(3)}, false), {i(5)}), "f");
  EXPECT_EQ(run(*in_list(x(), {i(1), null}, false), {i(1)}), "t");
  EXPECT_EQ(run(*in_list(x(), {i(1), null}, false), {i(5)}), "NULL");
  EXPECT_EQ(run(*in_list(x(), {i(1), i(2)}, false), {null}), "NULL");
  EXPECT_EQ(run(*in_list(x(), {i(1), i(2)}, true), {i(5)}), "t");
  EXPECT_EQ(run(*in_list(x(), {i(1), i(2)}, true), {i(2)}), "f");
  EXPECT_EQ(run(*in_list(x(), {i(1), null}, true), {i(5)}), "NULL");
  auto s = [](const char* v) { return Value::string(v); };
  auto text = [] { return column(0, SqlType::text()); };
  EXPECT_EQ(run(*in_list(text(), {s("MAIL"), s("SHIP"), s("a much longer string")}, false),
                {s("a much longer string")}),
            "t");
  EXPECT_EQ(run(*in_list(text(), {s("MAIL"), s("SHIP")}, false), {s("AIR")}), "f");
}

std::string comparison(CompareOp op, Value a, Value b) {
  SqlType type = a.type();
  return run(*compare(op, column(0, type), column(1, type)), {std::move(a), std::move(b)});
}

TEST(CodegenExpressionLogic, ComparisonsPerType) {
  EXPECT_EQ(comparison(CompareOp::kLess, Value::integer(-1), Value::integer(1)), "t");
  EXPECT_EQ(comparison(CompareOp::kGreaterEqual, Value::small_int(3), Value::small_int(3)), "t");
  EXPECT_EQ(comparison(CompareOp::kNotEqual, Value::big_int(3), Value::big_int(3)), "f");
  EXPECT_EQ(comparison(CompareOp::kLess, Value::decimal(-5, 20, 2), Value::decimal(1, 20, 2)), "t");
  EXPECT_EQ(comparison(CompareOp::kLess, Value::boolean(false), Value::boolean(true)), "t");
  EXPECT_EQ(comparison(CompareOp::kEqual, Value::null(SqlType::integer()), Value::integer(1)),
            "NULL");
  EXPECT_EQ(comparison(CompareOp::kEqual, Value::date(10), Value::date(10)), "t");
  // Intervals compare by span: 1 month = 30 days.
  EXPECT_EQ(comparison(CompareOp::kEqual, Value::interval({1, 0, 0}), Value::interval({0, 30, 0})),
            "t");
  EXPECT_EQ(comparison(CompareOp::kGreater, Value::interval({0, 1, 0}),
                       Value::interval({0, 0, 86400LL * 1000000 - 1})),
            "t");
}

TEST(CodegenExpressionLogic, DoubleComparisonsTreatNaNAsLargestAndEqualToItself) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  auto d = [](double v) { return Value::double_value(v); };
  EXPECT_EQ(comparison(CompareOp::kEqual, d(nan), d(nan)), "t");
  EXPECT_EQ(comparison(CompareOp::kGreater, d(nan), d(INFINITY)), "t");
  EXPECT_EQ(comparison(CompareOp::kLess, d(1), d(nan)), "t");
  EXPECT_EQ(comparison(CompareOp::kNotEqual, d(1), d(nan)), "t");
  EXPECT_EQ(comparison(CompareOp::kEqual, d(0.0), d(-0.0)), "t");
  EXPECT_EQ(comparison(CompareOp::kLessEqual, d(2), d(1.5)), "f");
}

TEST(CodegenExpressionLogic, StringComparisons) {
  auto s = [](const char* v) { return Value::string(v); };
  EXPECT_EQ(comparison(CompareOp::kEqual, s("abc"), s("abc")), "t");
  EXPECT_EQ(comparison(CompareOp::kEqual, s("abcdefgh"), s("abcdefgh")), "t");
  EXPECT_EQ(comparison(CompareOp::kEqual, s("abcdefgh"), s("abcdefgx")), "f");
  EXPECT_EQ(comparison(CompareOp::kEqual, s("a long string, not inlined"),
                       s("a long string, not inlined")),
            "t");
  EXPECT_EQ(comparison(CompareOp::kEqual, s("a long string, not inlined"),
                       s("a long string, not inlineD")),
            "f");
  EXPECT_EQ(comparison(CompareOp::kEqual, s(""), s("")), "t");
  EXPECT_EQ(comparison(CompareOp::kLess, s("abc"), s("abd")), "t");
  EXPECT_EQ(comparison(CompareOp::kLess, s("ab"), s("abc")), "t");
  EXPECT_EQ(comparison(CompareOp::kGreater, s("b"), s("abcdefghijklmnop")), "t");
  EXPECT_EQ(comparison(CompareOp::kLess, Value::null(SqlType::text()), s("x")), "NULL");
}

TEST(CodegenExpressionLogic, KeyFunctionsAgreeWithEquality) {
  auto check = [](const Value& a, const Value& b, bool equal, int sign) {
    KeyResults r = key_functions(a, b);
    EXPECT_EQ(r.equal, equal) << a.to_string() << " vs " << b.to_string();
    EXPECT_EQ((r.compare > 0) - (r.compare < 0), sign) << a.to_string() << " vs " << b.to_string();
    if (equal) {
      EXPECT_EQ(r.hash_a, r.hash_b) << a.to_string();
    } else {
      EXPECT_NE(r.hash_a, r.hash_b) << a.to_string() << " vs " << b.to_string();
    }
  };
  double nan = std::numeric_limits<double>::quiet_NaN();
  check(Value::integer(5), Value::integer(5), true, 0);
  check(Value::integer(5), Value::integer(-5), false, 1);
  check(Value::small_int(-1), Value::small_int(2), false, -1);
  check(Value::big_int(1LL << 40), Value::big_int(1LL << 41), false, -1);
  check(Value::decimal(static_cast<int128_t>(1) << 100, 38, 2), Value::decimal(1, 38, 2), false, 1);
  check(Value::double_value(0.0), Value::double_value(-0.0), true, 0);
  check(Value::double_value(nan), Value::double_value(-nan), true, 0);
  check(Value::double_value(nan), Value::double_value(1e300), false, 1);
  check(Value::boolean(true), Value::boolean(false), false, 1);
  check(Value::interval({1, 0, 0}), Value::interval({0, 30, 0}), true, 0);
  check(Value::string("same text, long enough"), Value::string("same text, long enough"), true, 0);
  check(Value::string("abc"), Value::string("abd"), false, -1);
  check(Value::date(1), Value::date(2), false, -1);
}

}  // namespace
}  // namespace floe::codegen::testing
