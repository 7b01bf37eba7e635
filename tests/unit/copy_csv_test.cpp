#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "engine/exec/csv_copy.h"
#include "storage/error.h"

namespace floe {
namespace {

class CopyCsvTest : public ::testing::Test {
 protected:
  void TearDown() override { std::remove(path_.c_str()); }

  const std::string& write(const std::string& content) {
    std::ofstream(path_, std::ios::binary) << content;
    return path_;
  }

  static Table make_table() {
    return Table("t",
                 {{"a", SqlType::integer(), false},
                  {"b", SqlType::text(), true},
                  {"c", SqlType::decimal(15, 2), true}},
                 {});
  }

  static std::string cell(const Table& table, uint64_t row, size_t column) {
    return table.value_at(row, column).to_string();
  }

  static std::string error_of(Table& table, const std::string& path, const CsvOptions& options) {
    try {
      copy_from_file(table, {0, 1, 2}, path, options);
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  }

  // One file per test: ctest runs the tests of this suite in parallel processes.
  std::string path_ = ::testing::TempDir() + "/floe_copy_csv_" +
                      ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".csv";
};

TEST_F(CopyCsvTest, ReadsQuotedFieldsAndNulls) {
  Table table = make_table();
  write("1,plain,1.5\n2,\"with, comma\",\n3,\"multi\nline \"\"quoted\"\"\",-2\n4,\"\",0.125\r\n");
  EXPECT_EQ(copy_from_file(table, {0, 1, 2}, path_, {}), 4u);
  ASSERT_EQ(table.row_count(), 4u);
  EXPECT_EQ(cell(table, 0, 1), "plain");
  EXPECT_EQ(cell(table, 0, 2), "1.50");
  EXPECT_EQ(cell(table, 1, 1), "with, comma");
  EXPECT_EQ(cell(table, 1, 2), "NULL");
  EXPECT_EQ(cell(table, 2, 1), "multi\nline \"quoted\"");
  EXPECT_EQ(cell(table, 3, 1), "");  // quoted empty string is not NULL
  EXPECT_EQ(cell(table, 3, 2), "0.13");
}

TEST_F(CopyCsvTest, HeaderDelimiterAndTrailingDelimiter) {
  Table table = make_table();
  CsvOptions options;
  options.delimiter = '|';
  options.header = true;
  write("a|b|c|\n7|x|1|\n8|y|2|\n");
  EXPECT_EQ(copy_from_file(table, {0, 1, 2}, path_, options), 2u);
  EXPECT_EQ(cell(table, 1, 0), "8");
  EXPECT_EQ(cell(table, 1, 2), "2.00");
}

TEST_F(CopyCsvTest, ColumnSubsetLeavesOthersNull) {
  Table table = make_table();
  write("5,abc\n");
  EXPECT_EQ(copy_from_file(table, {0, 1}, path_, {}), 1u);
  EXPECT_EQ(cell(table, 0, 2), "NULL");
}

TEST_F(CopyCsvTest, TextFormatEscapesAndNullString) {
  Table table = make_table();
  CsvOptions options;
  options.format = CopyFormat::kText;
  options.delimiter = '\t';
  options.null_string = "\\N";
  write("1\ta\\tb\\\\c\t\\N\n2\tline\\nbreak\t3\n");
  EXPECT_EQ(copy_from_file(table, {0, 1, 2}, path_, options), 2u);
  EXPECT_EQ(cell(table, 0, 1), "a\tb\\c");
  EXPECT_EQ(cell(table, 0, 2), "NULL");
  EXPECT_EQ(cell(table, 1, 1), "line\nbreak");
}

TEST_F(CopyCsvTest, BadValueNamesLineAndColumnAndLoadsNothing) {
  Table table = make_table();
  write("1,a,1\n2,b,2\nx,c,3\n");
  EXPECT_EQ(error_of(table, path_, {}),
            "COPY t, line 3, column a: invalid input syntax for type integer: \"x\"");
  EXPECT_EQ(table.row_count(), 0u);
  // The table still works after the failed load.
  write("9,z,1\n");
  EXPECT_EQ(copy_from_file(table, {0, 1, 2}, path_, {}), 1u);
  EXPECT_EQ(table.row_count(), 1u);
  EXPECT_EQ(cell(table, 0, 0), "9");
}

TEST_F(CopyCsvTest, ReportsShapeErrors) {
  Table table = make_table();
  write("1,a\n");
  EXPECT_EQ(error_of(table, path_, {}), "COPY t, line 1: missing data for column \"c\"");
  write("1,a,2,3\n");
  EXPECT_EQ(error_of(table, path_, {}), "COPY t, line 1: extra data after last expected column");
  write(",a,2\n");
  EXPECT_EQ(error_of(table, path_, {}),
            "COPY t, line 1: null value in column \"a\" of relation \"t\" violates not-null "
            "constraint");
  write("1,\"open\n");
  EXPECT_EQ(error_of(table, path_, {}), "COPY t, line 1: unterminated CSV quoted field");
  EXPECT_EQ(table.row_count(), 0u);
  std::remove(path_.c_str());
  EXPECT_NE(error_of(table, path_, {}).find("could not open file"), std::string::npos);
}

TEST_F(CopyCsvTest, LargeFileWithProgressAndRollback) {
  Table table = make_table();
  std::ostringstream content;
  const int kRows = 200'000;  // several chunks and several read blocks
  for (int i = 0; i < kRows; ++i)
    content << i << ",some text value number " << i << "," << i << ".25\n";
  write(content.str());
  CsvOptions options;
  uint64_t calls = 0;
  options.progress = [&](uint64_t) { ++calls; };
  EXPECT_EQ(copy_from_file(table, {0, 1, 2}, path_, options), static_cast<uint64_t>(kRows));
  EXPECT_EQ(cell(table, 123'456, 1), "some text value number 123456");
  EXPECT_EQ(cell(table, 199'999, 2), "199999.25");
  EXPECT_EQ(calls, 0u);  // fewer rows than kCopyProgressInterval
  content << "bad,row,1\n";
  write(content.str());
  EXPECT_NE(error_of(table, path_, options).find("line 200001"), std::string::npos);
  EXPECT_EQ(table.row_count(), static_cast<uint64_t>(kRows));
}

TEST_F(CopyCsvTest, WritesCsvWithQuotingAndHeader) {
  QueryOutput output;
  output.column_names = {"id", "name"};
  output.column_types = {SqlType::integer(), SqlType::text()};
  output.rows = {{Value::integer(1), Value::string("a,b")},
                 {Value::integer(2), Value::string("say \"hi\"")},
                 {Value::null(SqlType::integer()), Value::string("")}};
  CsvOptions options;
  options.header = true;
  EXPECT_EQ(copy_to_file(output, path_, options), 3u);
  std::ifstream in(path_);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "id,name\n1,\"a,b\"\n2,\"say \"\"hi\"\"\"\n,\"\"\n");

  Table table("u", {{"id", SqlType::integer(), true}, {"name", SqlType::text(), true}}, {});
  EXPECT_EQ(copy_from_file(table, {0, 1}, path_, options), 3u);
  EXPECT_EQ(cell(table, 1, 1), "say \"hi\"");
  EXPECT_EQ(cell(table, 2, 0), "NULL");
  EXPECT_EQ(cell(table, 2, 1), "");
}

TEST_F(CopyCsvTest, WritesTextFormat) {
  QueryOutput output;
  output.column_names = {"s"};
  output.column_types = {SqlType::text()};
  output.rows = {{Value::string("a|b\\c\nd")}, {Value::null(SqlType::text())}};
  CsvOptions options;
  options.format = CopyFormat::kText;
  options.delimiter = '|';
  options.null_string = "\\N";
  copy_to_file(output, path_, options);
  std::ifstream in(path_);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "a\\|b\\\\c\\nd\n\\N\n");
}

}  // namespace
}  // namespace floe
