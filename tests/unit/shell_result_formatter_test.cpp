#include <gtest/gtest.h>

#include "engine/api/error_text.h"
#include "engine/api/result_text.h"
#include "engine/api/schema_text.h"

namespace floe {
namespace {

class ShellResultFormatterTest : public ::testing::Test {
 protected:
  ResultTable table() const {
    return {{"id", "name"}, {SqlType::integer(), SqlType::varchar(10)}, rows_};
  }
  std::vector<std::vector<Value>> rows_ = {
      {Value::integer(7), Value::string("a,b", SqlType::varchar(10))},
      {Value::integer(-12345), Value::null(SqlType::varchar(10))},
  };
};

TEST_F(ShellResultFormatterTest, BoxAlignsNumbersRightAndShowsTypes) {
  EXPECT_EQ(format_result(table(), OutputMode::kBox),
            "┌─────────┬───────────────────────┐\n"
            "│   id    │         name          │\n"
            "│ integer │ character varying(10) │\n"
            "├─────────┼───────────────────────┤\n"
            "│       7 │ a,b                   │\n"
            "│  -12345 │ NULL                  │\n"
            "└─────────┴───────────────────────┘\n"
            "(2 rows)\n");
}

TEST_F(ShellResultFormatterTest, EmptyResultAndOneRowFooter) {
  rows_.clear();
  EXPECT_NE(format_result(table(), OutputMode::kBox).find("└────"), std::string::npos);
  EXPECT_NE(format_result(table(), OutputMode::kBox).find("(0 rows)"), std::string::npos);
  rows_ = {{Value::integer(1), Value::string("é")}};
  EXPECT_NE(format_result(table(), OutputMode::kBox).find("│ é                     │"),
            std::string::npos);
  EXPECT_NE(format_result(table(), OutputMode::kBox).find("(1 row)"), std::string::npos);
}

TEST_F(ShellResultFormatterTest, CsvMarkdownLineList) {
  EXPECT_EQ(format_result(table(), OutputMode::kCsv), "id,name\n7,\"a,b\"\n-12345,\n");
  EXPECT_EQ(format_result(table(), OutputMode::kMarkdown),
            "| id     | name |\n"
            "|-------:|------|\n"
            "|      7 | a,b  |\n"
            "| -12345 | NULL |\n");
  EXPECT_EQ(format_result(table(), OutputMode::kLine),
            "  id = 7\nname = a,b\n\n  id = -12345\nname = NULL\n");
  EXPECT_EQ(format_result(table(), OutputMode::kList), "id|name\n7|a,b\n-12345|NULL\n");
}

// SELECT FROM t: psql prints "--" and the row count (aligned) or the empty header (CSV).
TEST_F(ShellResultFormatterTest, ResultWithoutColumns) {
  std::vector<std::vector<Value>> rows(3);
  ResultTable empty{{}, {}, rows};
  EXPECT_EQ(format_result(empty, OutputMode::kBox), "--\n(3 rows)\n");
  EXPECT_EQ(format_result(empty, OutputMode::kCsv), "\n");
  for (OutputMode mode : {OutputMode::kMarkdown, OutputMode::kLine, OutputMode::kList})
    EXPECT_EQ(format_result(empty, mode), "(3 rows)\n");
  rows.resize(1);
  EXPECT_EQ(format_result({{}, {}, rows}, OutputMode::kBox), "--\n(1 row)\n");
}

TEST_F(ShellResultFormatterTest, ParsesModesAndFormatsTimings) {
  EXPECT_EQ(parse_output_mode("markdown"), OutputMode::kMarkdown);
  EXPECT_FALSE(parse_output_mode("html").has_value());
  PhaseTimings timings{0.5, 1, 2, 3, 4};
  EXPECT_EQ(timings.to_string(),
            "Time: parse 0.500 ms, plan 1.000 ms, codegen 2.000 ms, compile 3.000 ms, execute "
            "4.000 ms, total 10.500 ms\n");
}

TEST(ShellErrorDisplayTest, PointsAtThePosition) {
  EXPECT_EQ(format_error("column \"x\" does not exist", 7, "select x from t;"),
            "Error: column \"x\" does not exist\n"
            "LINE 1: select x from t;\n"
            "               ^\n");
  EXPECT_EQ(format_error("syntax error at or near \"frm\"", 15, "select a,\n  b  frm t;"),
            "Error: syntax error at or near \"frm\"\n"
            "LINE 2:   b  frm t;\n"
            "             ^\n");
  EXPECT_EQ(format_error("boom", -1, "select 1;"), "Error: boom\n");
}

TEST(ShellSchemaTextTest, WritesCreateTable) {
  Table table("orders",
              {{"o_orderkey", SqlType::integer(), false},
               {"o_total", SqlType::decimal(15, 2), true},
               {"Mixed Case", SqlType::char_type(1), true}},
              {{"orders_pkey", {0}, true}});
  EXPECT_EQ(create_table_text(table),
            "CREATE TABLE orders (\n"
            "  o_orderkey integer NOT NULL,\n"
            "  o_total numeric(15,2),\n"
            "  \"Mixed Case\" character(1),\n"
            "  PRIMARY KEY (o_orderkey)\n"
            ");\n");
}

}  // namespace
}  // namespace floe
