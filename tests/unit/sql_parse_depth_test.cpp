#include "engine/sql/parse_depth.h"

#include <gtest/gtest.h>

#include <string>

namespace floe::sql {
namespace {

std::string repeat(const std::string& text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

// The bound beyond the levels every statement has.
size_t levels(const std::string& sql) {
  return parse_depth_bound(sql) - parse_depth_bound("select 1");
}

TEST(ParseDepthTest, ChainsCountTheirOperators) {
  EXPECT_GE(levels("select 1" + repeat(" + 1", 1000)), 1000u);
  EXPECT_GE(levels("select 1" + repeat("::int", 1000)), 1000u);
  EXPECT_GE(levels("select x" + repeat(" is null", 1000)), 1000u);
  EXPECT_GE(levels("select * from t" + repeat(" join t on a = b and c = d", 1000)), 1000u);
  // Set operations chain across the commas of their select lists.
  EXPECT_GE(levels(repeat("select a, b from t union ", 1000) + "select a, b from t"), 1000u);
}

TEST(ParseDepthTest, GroupsNest) {
  EXPECT_GE(levels("select " + repeat("(select ", 1000) + "1" + repeat(")", 1000)), 2000u);
  EXPECT_GE(levels("select " + repeat("case when true then ", 500) + "1" + repeat(" end", 500)),
            1000u);
  EXPECT_GE(levels("select " + repeat("(", 1000) + "a" + repeat(").x", 1000)), 2000u);
  EXPECT_GE(levels("select " + repeat("f(", 1000) + "1" + repeat(")", 1000)), 1000u);
}

TEST(ParseDepthTest, FlatListsStayShallow) {
  std::string values = "insert into t values (-1, 'a', null)";
  std::string in_list = "select 1 where x in (0";
  std::string or_chain = "select 1 where x = 0";
  std::string columns = "select a0";
  for (int i = 1; i < 10000; ++i) {
    values += ", (-1, 'a', null)";
    in_list += ", " + std::to_string(i);
    or_chain += " or x = " + std::to_string(i);
    columns += ", t.a" + std::to_string(i);
  }
  in_list += ")";
  EXPECT_LT(levels(values), 10u);
  EXPECT_LT(levels(in_list), 10u);
  EXPECT_LT(levels(or_chain), 10u);
  EXPECT_LT(levels(columns + " from t"), 10u);
  // Statements are separate trees; comments are nothing.
  EXPECT_LT(levels(repeat("select 1 + 1; -- + + +\n", 1000)), 10u);
}

}  // namespace
}  // namespace floe::sql
