#include <gtest/gtest.h>

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

std::string substring(const char* text, int32_t start, std::optional<int32_t> length) {
  auto children = list(column(0, SqlType::text()), constant(Value::integer(start)));
  if (length) children.push_back(constant(Value::integer(*length)));
  return run(*node(ExprKind::kSubstring, SqlType::text(), std::move(children)),
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
  auto null_start = node(ExprKind::kSubstring, SqlType::text(),
                         list(column(0, SqlType::text()), null_of(SqlType::integer())));
  EXPECT_EQ(run(*null_start, {Value::string("hello")}), "NULL");
}

TEST(CodegenExpressionString, Concat) {
  auto expr = node(ExprKind::kConcat, SqlType::text(),
                   list(column(0, SqlType::text()), column(1, SqlType::text())));
  EXPECT_EQ(run(*expr, {Value::string("ab"), Value::string("cd")}), "abcd");
  EXPECT_EQ(
      run(*expr, {Value::string("a long left side, "), Value::string("and a long right side")}),
      "a long left side, and a long right side");
  EXPECT_EQ(run(*expr, {Value::string(""), Value::string("")}), "");
  EXPECT_EQ(run(*expr, {Value::null(SqlType::text()), Value::string("x")}), "NULL");
  auto with_constant = node(
      ExprKind::kConcat, SqlType::text(),
      list(constant(Value::string("constant longer than twelve: ")), column(0, SqlType::text())));
  EXPECT_EQ(run(*with_constant, {Value::string("x")}), "constant longer than twelve: x");
}

}  // namespace
}  // namespace floe::codegen::testing
