#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "shell/shell.h"

namespace floe {
namespace {

class ShellSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    api::Connection(database_).query("create table items (id integer primary key, label text)");
  }

  api::Database database_;
  std::ostringstream out_, err_;
  Shell shell_{database_, out_, err_};
};

TEST_F(ShellSessionTest, ListsTablesAndSchema) {
  shell_.process_line(".tables");
  EXPECT_EQ(out_.str(), "items\n");
  out_.str("");
  shell_.process_line("  .schema items");
  EXPECT_EQ(
      out_.str(),
      "CREATE TABLE items (\n  id integer NOT NULL,\n  label text,\n  PRIMARY KEY (id)\n);\n");
  shell_.process_line(".schema nope");
  EXPECT_EQ(err_.str(), "Error: relation \"nope\" does not exist\n");
  EXPECT_EQ(shell_.error_count(), 1);
}

TEST_F(ShellSessionTest, RejectsUnknownCommandsAndModes) {
  shell_.process_line(".frobnicate");
  shell_.process_line(".mode html");
  shell_.process_line(".timer maybe");
  EXPECT_EQ(shell_.error_count(), 3);
  EXPECT_NE(err_.str().find("unknown command \".frobnicate\""), std::string::npos);
  EXPECT_NE(err_.str().find("unknown output mode \"html\""), std::string::npos);
  shell_.process_line(".mode");
  EXPECT_EQ(out_.str(), "current output mode: box\n");
  shell_.process_line(".mode csv");
  out_.str("");
  shell_.process_line(".mode");
  EXPECT_EQ(out_.str(), "current output mode: csv\n");
  EXPECT_FALSE(shell_.quit_requested());
  shell_.process_line(".quit");
  EXPECT_TRUE(shell_.quit_requested());
}

TEST_F(ShellSessionTest, ErrorShowsCaretAndShellGoesOn) {
  shell_.process_line("select");
  EXPECT_TRUE(shell_.continuing());
  shell_.process_line("  boom;");
  EXPECT_FALSE(shell_.continuing());
  EXPECT_EQ(err_.str(),
            "Error: column \"boom\" does not exist\n"
            "LINE 2:   boom;\n"
            "          ^\n");
  EXPECT_EQ(shell_.error_count(), 1);
  shell_.process_line(".tables");
  EXPECT_EQ(out_.str(), "items\n");
}

TEST_F(ShellSessionTest, ReadsFiles) {
  std::string path = ::testing::TempDir() + "/floe_shell_session_test.sql";
  std::ofstream(path) << "-- a script\n.tables\n.read " << path << "-missing\n";
  shell_.process_line(".read " + path);
  std::remove(path.c_str());
  EXPECT_EQ(out_.str(), "items\n");
  EXPECT_NE(err_.str().find("could not open file"), std::string::npos);
}

}  // namespace
}  // namespace floe
