#include <gtest/gtest.h>

#include <string>

#include "runtime/like_matcher.h"
#include "runtime/runtime_abi.h"
#include "runtime_test_strings.h"
#include "storage/error.h"

namespace floe {
namespace {

using Kind = LikeMatcher::Kind;

bool like(std::string_view text, std::string_view pattern) {
  return LikeMatcher(pattern).matches(text);
}

TEST(LikeMatcherTest, ChoosesTheFastPath) {
  EXPECT_EQ(LikeMatcher("abc").kind(), Kind::kEquals);
  EXPECT_EQ(LikeMatcher("").kind(), Kind::kEquals);
  EXPECT_EQ(LikeMatcher("abc%").kind(), Kind::kPrefix);
  EXPECT_EQ(LikeMatcher("abc%%").kind(), Kind::kPrefix);
  EXPECT_EQ(LikeMatcher("%abc").kind(), Kind::kSuffix);
  EXPECT_EQ(LikeMatcher("%abc%").kind(), Kind::kContains);
  EXPECT_EQ(LikeMatcher("%").kind(), Kind::kContains);
  EXPECT_EQ(LikeMatcher("%%").kind(), Kind::kContains);
  EXPECT_EQ(LikeMatcher("%a%b%").kind(), Kind::kOrderedContains);
  EXPECT_EQ(LikeMatcher("a%b").kind(), Kind::kOrderedContains);
  EXPECT_EQ(LikeMatcher("a_c").kind(), Kind::kRegex);
  EXPECT_EQ(LikeMatcher("a\\_c").kind(), Kind::kEquals);
  EXPECT_EQ(LikeMatcher("50\\%%").kind(), Kind::kPrefix);
}

TEST(LikeMatcherTest, Equality) {
  EXPECT_TRUE(like("abc", "abc"));
  EXPECT_FALSE(like("abcd", "abc"));
  EXPECT_FALSE(like("ab", "abc"));
  EXPECT_TRUE(like("", ""));
  EXPECT_FALSE(like("a", ""));
}

TEST(LikeMatcherTest, PrefixSuffixContains) {
  EXPECT_TRUE(like("abcdef", "abc%"));
  EXPECT_TRUE(like("abc", "abc%"));
  EXPECT_FALSE(like("xabc", "abc%"));
  EXPECT_TRUE(like("xxabc", "%abc"));
  EXPECT_TRUE(like("abc", "%abc"));
  EXPECT_FALSE(like("abcx", "%abc"));
  EXPECT_TRUE(like("special requests", "%requests%"));
  EXPECT_TRUE(like("requests", "%requests%"));
  EXPECT_FALSE(like("request", "%requests%"));
  EXPECT_FALSE(like("", "%a%"));
  EXPECT_TRUE(like("", "%"));
  EXPECT_TRUE(like("anything", "%"));
}

TEST(LikeMatcherTest, OrderedContains) {
  // TPC-H Q13: o_comment NOT LIKE '%special%requests%'.
  EXPECT_TRUE(like("the special pending requests", "%special%requests%"));
  EXPECT_FALSE(like("the requests are special", "%special%requests%"));
  EXPECT_FALSE(like("specialrequest", "%special%requests%"));
  EXPECT_TRUE(like("specialrequests", "%special%requests%"));
  EXPECT_TRUE(like("ab", "a%b"));
  EXPECT_TRUE(like("axxb", "a%b"));
  EXPECT_FALSE(like("a", "a%a"));  // prefix and suffix must not overlap
  EXPECT_TRUE(like("aa", "a%a"));
  EXPECT_TRUE(like("a-x-y-b", "a%x%y%b"));
  EXPECT_FALSE(like("a-y-x-b", "a%x%y%b"));
  EXPECT_FALSE(like("axb", "a%x%x%b"));
}

TEST(LikeMatcherTest, UnderscoreUsesRegex) {
  EXPECT_TRUE(like("abc", "a_c"));
  EXPECT_FALSE(like("ac", "a_c"));
  EXPECT_FALSE(like("abbc", "a_c"));
  EXPECT_TRUE(like("abbc", "a%_c"));
  EXPECT_TRUE(like("a\nc", "a_c"));  // '_' matches a newline too
  EXPECT_TRUE(like("line1\nline2", "%1_l%"));
  EXPECT_TRUE(like("x.y", "x_y"));
  EXPECT_FALSE(like("x.yz", "x_y"));  // anchored at both ends
  // Regex metacharacters in the pattern are literals.
  EXPECT_TRUE(like("a.*(b)", "a.*(_)"));
  EXPECT_FALSE(like("aXXb", "a.*_"));
  // '_' is one UTF-8 character, of 1 to 4 bytes (PostgreSQL in a UTF8 database).
  EXPECT_TRUE(like("caf\xC3\xA9", "caf_"));
  EXPECT_FALSE(like("caf\xC3\xA9", "caf__"));
  EXPECT_TRUE(like("h\xC3\xA9llo", "h_llo"));
  EXPECT_TRUE(like("\u20ac5", "_5"));  // the 3-byte euro sign
  EXPECT_TRUE(like("x\xF0\x9F\x98\x80y", "x_y"));
  EXPECT_FALSE(like("x\xF0\x9F\x98\x80y", "x____y"));
  // Multi-byte literals in a pattern with '_', escaped or not.
  EXPECT_TRUE(like("\xC3\xA9t\xC3\xA9", "\xC3\xA9_\\\xC3\xA9"));
  EXPECT_FALSE(like("\xC3\xA9t\xC3\xA8", "\xC3\xA9_\xC3\xA9"));
  EXPECT_TRUE(like(std::string_view("a\0b", 3), "a_b"));
}

TEST(LikeMatcherTest, Escapes) {
  EXPECT_TRUE(like("50%", "50\\%"));
  EXPECT_FALSE(like("500", "50\\%"));
  EXPECT_TRUE(like("50% off", "50\\%%"));
  EXPECT_TRUE(like("a_b", "a\\_b"));
  EXPECT_FALSE(like("axb", "a\\_b"));
  EXPECT_TRUE(like("a\\b", "a\\\\b"));
  EXPECT_TRUE(like("x_y", "%\\__"));
  EXPECT_FALSE(like("xay", "%\\__"));
  EXPECT_THROW(LikeMatcher("abc\\"), Error);
}

TEST(LikeMatcherTest, AbiEntryPoint) {
  LikeMatcher matcher("%BRASS");
  auto hit = testing::halves("LARGE BRUSHED BRASS");
  auto miss = testing::halves("BRASS LARGE");
  EXPECT_TRUE(floe_rt_like(&matcher, hit.lo, hit.hi));
  EXPECT_FALSE(floe_rt_like(&matcher, miss.lo, miss.hi));
}

}  // namespace
}  // namespace floe
