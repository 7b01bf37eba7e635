#include <gtest/gtest.h>

#include "runtime/function_registry.h"
#include "storage/error.h"
#include "tests/unit/codegen_expression_harness.h"

namespace floe::codegen::testing {
namespace {

using plan::ExprKind;

std::string like(const char* text, const char* pattern, bool negated = false) {
  auto expr = node(ExprKind::kLike, SqlType::boolean(),
                   list(column(0, SqlType::text()), constant(Value::string(pattern))));
  expr->negated = negated;
  return run(*expr, {text ? Value::string(text) : Value::null(SqlType::text())});
}

TEST(CodegenExpressionString, LikeFastPathsAndRegex) {
  EXPECT_EQ(like("PROMO BRUSHED", "PROMO%"), "t");  // prefix
  EXPECT_EQ(like("STANDARD BRUSHED", "PROMO%"), "f");
  EXPECT_EQ(like("LARGE POLISHED BRASS", "%BRASS"), "t");               // suffix
  EXPECT_EQ(like("special requests here", "%special%requests%"), "t");  // ordered contains
  EXPECT_EQ(like("requests special", "%special%requests%"), "f");
  EXPECT_EQ(like("forest green", "%green%"), "t");  // contains
  EXPECT_EQ(like("abc", "abc"), "t");               // equality
  EXPECT_EQ(like("abcd", "abc"), "f");
  EXPECT_EQ(like("abc", "a_c"), "t");  // RE2
  EXPECT_EQ(like("abbc", "a_c"), "f");
  EXPECT_EQ(like("100%", "100\\%"), "t");  // escape
  EXPECT_EQ(like("1000", "100\\%"), "f");
  EXPECT_EQ(like("abc", "a%", true), "f");
  EXPECT_EQ(like(nullptr, "a%"), "NULL");
  EXPECT_EQ(like(nullptr, "a%", true), "NULL");
}

TEST(CodegenExpressionString, LikeNullAndNonConstantPatterns) {
  auto null_pattern = node(ExprKind::kLike, SqlType::boolean(),
                           list(column(0, SqlType::text()), null_of(SqlType::text())));
  EXPECT_EQ(run(*null_pattern, {Value::string("x")}), "NULL");
  auto column_pattern = node(ExprKind::kLike, SqlType::boolean(),
                             list(column(0, SqlType::text()), column(1, SqlType::text())));
  try {
    evaluate(*column_pattern, {Value::string("x"), Value::string("x")}, JitOptimization::kFast);
    FAIL() << "expected NotSupported";
  } catch (const NotSupported& error) {
    EXPECT_STREQ(error.what(), "not supported: LIKE with a non-constant pattern");
  }
}

// A call of the registry overload `name`(parameters).
plan::ExprPtr call(const char* name, std::vector<TypeId> parameters,
                   std::vector<plan::ExprPtr> args) {
  auto expr = node(ExprKind::kFunction, SqlType::text(), std::move(args));
  for (const FunctionOverload& overload : function_registry().overloads(name))
    if (overload.parameters == parameters) expr->function = &overload;
  EXPECT_NE(expr->function, nullptr);
  return expr;
}

std::string substring(const char* text, int32_t start, std::optional<int32_t> length) {
  auto children = list(column(0, SqlType::text()), constant(Value::integer(start)));
  std::vector<TypeId> parameters = {TypeId::kText, TypeId::kInteger};
  if (length) {
    children.push_back(constant(Value::integer(*length)));
    parameters.push_back(TypeId::kInteger);
  }
  return run(*call("substring", parameters, std::move(children)),
             {text ? Value::string(text) : Value::null(SqlType::text())});
}

TEST(CodegenExpressionString, SubstringEdgeCases) {
  EXPECT_EQ(substring("hello", 2, 3), "ell");
  EXPECT_EQ(substring("hello", 2, std::nullopt), "ello");
  EXPECT_EQ(substring("hello", 0, 3), "he");  // start < 1 shortens the length
  EXPECT_EQ(substring("hello", -5, 3), "");
  EXPECT_EQ(substring("hello", 4, 100), "lo");
  EXPECT_EQ(substring("hello", 10, 2), "");
  EXPECT_EQ(substring("a string longer than twelve bytes", 3, 6), "string");
  EXPECT_EQ(substring("a string longer than twelve bytes", 10, 100), "longer than twelve bytes");
  EXPECT_EQ(substring("hello", 1, -1), "ERROR: negative substring length not allowed");
  EXPECT_EQ(substring(nullptr, 1, -1), "NULL");  // NULL input: no error
  auto null_start = call("substring", {TypeId::kText, TypeId::kInteger},
                         list(column(0, SqlType::text()), null_of(SqlType::integer())));
  EXPECT_EQ(run(*null_start, {Value::string("hello")}), "NULL");
}

TEST(CodegenExpressionString, Concat) {
  std::vector<TypeId> texts = {TypeId::kText, TypeId::kText};
  auto expr = call("||", texts, list(column(0, SqlType::text()), column(1, SqlType::text())));
  EXPECT_EQ(run(*expr, {Value::string("ab"), Value::string("cd")}), "abcd");
  EXPECT_EQ(
      run(*expr, {Value::string("a long left side, "), Value::string("and a long right side")}),
      "a long left side, and a long right side");
  EXPECT_EQ(run(*expr, {Value::string(""), Value::string("")}), "");
  EXPECT_EQ(run(*expr, {Value::null(SqlType::text()), Value::string("x")}), "NULL");
  auto with_constant = call(
      "||", texts,
      list(constant(Value::string("constant longer than twelve: ")), column(0, SqlType::text())));
  EXPECT_EQ(run(*with_constant, {Value::string("x")}), "constant longer than twelve: x");
}

// A function that may return NULL for non-null arguments: substring(text FROM pattern).
TEST(CodegenExpressionString, NullResultOfAFunction) {
  auto expr = call("substring", {TypeId::kText, TypeId::kText},
                   list(column(0, SqlType::text()), constant(Value::string("[0-9]+"))));
  EXPECT_EQ(run(*expr, {Value::string("abc123def")}), "123");
  EXPECT_EQ(run(*expr, {Value::string("abc")}), "NULL");
  EXPECT_EQ(run(*expr, {Value::null(SqlType::text())}), "NULL");
}

}  // namespace
}  // namespace floe::codegen::testing
