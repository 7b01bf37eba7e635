#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "storage/error.h"
#include "runtime/functions/md5.h"
#include "tests/sqllogictest/slt_parser.h"
#include "tests/sqllogictest/slt_runner.h"

namespace floe {
namespace {

TEST(SqllogictestMd5Test, MatchesKnownDigests) {
  EXPECT_EQ(md5_hex(""), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(md5_hex("The quick brown fox jumps over the lazy dog"),
            "9e107d9d372bb6826bd81d3542a419d6");
  EXPECT_EQ(md5_hex("1\n2\n3\n"), "c0710d6b4f15dfa88f600b0e6b624077");
  EXPECT_EQ(md5_hex(std::string(1000, 'a')), "cabe45dcc9ae5b66ba86600cca6b8ba8");
}

TEST(SqllogictestParserTest, ParsesRecords) {
  auto records = parse_slt(
      "# comment\n"
      "statement ok\n"
      "create table t (a int)\n"
      "\n"
      "statement error\n"
      "select x\n"
      "----\n"
      "does not exist\n"
      "\n"
      "skipif floe\n"
      "statement ok\n"
      "select 1\n"
      "\n"
      "onlyif floe\n"
      "query IT rowsort label-1\n"
      "select a,\n"
      "  'x'\n"
      "----\n"
      "1\tx\n"
      "2\tNULL\n"
      "\n"
      "hash-threshold 8\n"
      "\n"
      "halt\n",
      "f.test");
  ASSERT_EQ(records.size(), 5u);
  EXPECT_EQ(records[0].kind, RecordKind::kStatementOk);
  EXPECT_EQ(records[0].line, 2);
  EXPECT_EQ(records[1].kind, RecordKind::kStatementError);
  EXPECT_EQ(records[1].expected_error, "does not exist");
  EXPECT_EQ(records[2].kind, RecordKind::kQuery);
  EXPECT_EQ(records[2].types, "IT");
  EXPECT_EQ(records[2].sort, SortMode::kRowSort);
  EXPECT_EQ(records[2].label, "label-1");
  EXPECT_EQ(records[2].sql, "select a,\n  'x'");
  EXPECT_EQ(flatten_expected(records[2].expected_lines),
            (std::vector<std::string>{"1", "x", "2", "NULL"}));
  EXPECT_EQ(records[3].kind, RecordKind::kHashThreshold);
  EXPECT_EQ(records[3].hash_threshold, 8u);
  EXPECT_EQ(records[4].kind, RecordKind::kHalt);
}

TEST(SqllogictestParserTest, RejectsMalformedRecords) {
  EXPECT_THROW(parse_slt("query IX\nselect 1\n", "f.test"), Error);
  EXPECT_THROW(parse_slt("frobnicate\n", "f.test"), Error);
  EXPECT_THROW(parse_slt("statement ok\n\n", "f.test"), Error);
}

// A bare "query" has no columns; its one expected line is psql's row count.
TEST(SqllogictestParserTest, QueryWithoutColumns) {
  auto records = parse_slt("query\nselect from t\n----\n(3 rows)\n", "f.test");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].kind, RecordKind::kQuery);
  EXPECT_EQ(records[0].types, "");
  EXPECT_EQ(records[0].expected_lines, (std::vector<std::string>{"(3 rows)"}));
  EXPECT_THROW(parse_slt("query\nselect from t\n", "f.test"), Error);
  EXPECT_THROW(parse_slt("query\nselect from t\n----\n(1 row)\nx\n", "f.test"), Error);
}

// The runner compares a query without columns by its row count.
TEST(SqllogictestRunnerTest, ChecksTheRowCountOfQueriesWithoutColumns) {
  std::string path = ::testing::TempDir() + "no_columns_" + std::to_string(::getpid()) + ".test";
  {
    std::ofstream out(path);
    out << "statement ok\ncreate table t (a integer)\n\n"
           "statement ok\ninsert into t values (1), (2), (3)\n\n"
           "query\nselect from t\n----\n(3 rows)\n\n"
           "query\nselect from t where a = 2\n----\n(1 row)\n\n"
           "query\nselect from t\n----\n(2 rows)\n\n"
           "query\nselect a from t where a = 1\n----\n(1 row)\n";
  }
  std::ostringstream report;
  SltSummary summary = SltRunner(report, "").run_file(path);
  std::remove(path.c_str());
  EXPECT_EQ(summary.records, 6);
  EXPECT_EQ(summary.failures, 2) << report.str();
  EXPECT_NE(report.str().find("expected:\n  (2 rows)\nactual:\n  (3 rows)"), std::string::npos)
      << report.str();
  EXPECT_NE(report.str().find("query returned 1 columns"), std::string::npos) << report.str();
}

TEST(SqllogictestParserTest, FormatsValues) {
  EXPECT_EQ(slt_value_text(Value::null(SqlType::integer())), "NULL");
  EXPECT_EQ(slt_value_text(Value::string("")), "(empty)");
  EXPECT_EQ(slt_value_text(Value::decimal(150, 15, 2)), "1.50");
}

}  // namespace
}  // namespace floe
