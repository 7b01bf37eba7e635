// SQL text is UTF-8: invalid input is rejected with PostgreSQL's error, and positions stay
// byte offsets although libpg_query reports syntax errors in characters.
#include "tests/unit/sql_test_helpers.h"

namespace floe::testing {
namespace {

using ApiUtf8Test = SqlFixture;

TEST_F(ApiUtf8Test, InvalidSqlTextIsRejected) {
  EXPECT_EQ(error_of("select 'h\xe9llo'"),
            "invalid byte sequence for encoding \"UTF8\": 0xe9 0x6c 0x6c@-1");
  EXPECT_EQ(error_of("select 1; -- \xff"), "invalid byte sequence for encoding \"UTF8\": 0xff@-1");
  // A NUL byte would otherwise end the statement early.
  EXPECT_EQ(error_of(std::string("select 1;\0 drop table t", 23)),
            "invalid byte sequence for encoding \"UTF8\": 0x00@-1");
  EXPECT_NE(database_.catalog().find_table("t"), nullptr);
  EXPECT_EQ(connection_.query("select 'h\u00e9llo'").value(0, 0).to_string(), "h\u00e9llo");
}

TEST_F(ApiUtf8Test, SyntaxErrorPositionsAreBytes) {
  // 'ééé' is 5 characters but 8 bytes: x is at byte 22.
  EXPECT_EQ(error_of("select '\u00e9\u00e9\u00e9' fromm x"), "syntax error at or near \"x\"@22");
  EXPECT_EQ(error_of("select '\U0001F600' fromm x"), "syntax error at or near \"x\"@20");
}

}  // namespace
}  // namespace floe::testing
