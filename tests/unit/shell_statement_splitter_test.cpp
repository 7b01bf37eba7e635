#include <gtest/gtest.h>

#include "shell/statement_splitter.h"

namespace floe {
namespace {

std::vector<std::string> split(std::initializer_list<std::string_view> lines) {
  StatementSplitter splitter;
  std::vector<std::string> all;
  for (std::string_view line : lines) {
    splitter.add_line(line);
    for (std::string& statement : splitter.take_statements()) all.push_back(std::move(statement));
  }
  std::string rest = splitter.take_rest();
  if (!rest.empty()) all.push_back("<rest>" + rest);
  return all;
}

TEST(ShellStatementSplitterTest, SplitsOnSemicolons) {
  EXPECT_EQ(split({"select 1; select 2;"}), (std::vector<std::string>{"select 1;", "select 2;"}));
  EXPECT_EQ(split({"select", "  1", ";"}), (std::vector<std::string>{"select\n  1\n;"}));
  EXPECT_EQ(split({";;", "  ;"}), std::vector<std::string>{});
}

TEST(ShellStatementSplitterTest, IgnoresSemicolonsInQuotesAndComments) {
  EXPECT_EQ(split({"select 'a;b', \"x;y\" from t;"}),
            (std::vector<std::string>{"select 'a;b', \"x;y\" from t;"}));
  EXPECT_EQ(split({"select 'it''s;' ;"}), (std::vector<std::string>{"select 'it''s;' ;"}));
  EXPECT_EQ(split({"select E'a\\';b';"}), (std::vector<std::string>{"select E'a\\';b';"}));
  EXPECT_EQ(split({"select 1 -- comment; not the end", ";"}),
            (std::vector<std::string>{"select 1 -- comment; not the end\n;"}));
  EXPECT_EQ(split({"select /* a; /* nested; */ b; */ 1;"}),
            (std::vector<std::string>{"select /* a; /* nested; */ b; */ 1;"}));
  EXPECT_EQ(split({"select $$a;b$$, $tag$x;$$;y$tag$;"}),
            (std::vector<std::string>{"select $$a;b$$, $tag$x;$$;y$tag$;"}));
}

TEST(ShellStatementSplitterTest, QuotesSpanLines) {
  EXPECT_EQ(split({"select 'line one;", "line two';"}),
            (std::vector<std::string>{"select 'line one;\nline two';"}));
}

TEST(ShellStatementSplitterTest, TracksPendingInput) {
  StatementSplitter splitter;
  EXPECT_FALSE(splitter.pending());
  splitter.add_line("-- just a comment");
  EXPECT_FALSE(splitter.pending());
  splitter.add_line("select");
  EXPECT_TRUE(splitter.pending());
  splitter.add_line("1;");
  EXPECT_FALSE(splitter.pending());
  EXPECT_EQ(splitter.take_statements(), std::vector<std::string>{"select\n1;"});
  splitter.add_line("select 'open");
  EXPECT_TRUE(splitter.pending());
}

TEST(ShellStatementSplitterTest, ReturnsUnterminatedRest) {
  EXPECT_EQ(split({"select 1; select 2"}),
            (std::vector<std::string>{"select 1;", "<rest>select 2"}));
  EXPECT_EQ(split({"select 1; -- trailing comment"}), std::vector<std::string>{"select 1;"});
}

}  // namespace
}  // namespace floe
