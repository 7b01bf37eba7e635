// RETURNING and ON CONFLICT through the API: the rows come with the statement's own command
// tag (sqllogictest files check only the rows).
#include "tests/unit/sql_test_helpers.h"

namespace floe::testing {
namespace {

using ApiReturningTest = SqlFixture;

TEST_F(ApiReturningTest, ReturningKeepsTheCommandTag) {
  connection_.query("create table r (id integer primary key, v text)");
  Result inserted = connection_.query("insert into r values (1, 'a'), (2, 'b') returning id, v");
  EXPECT_EQ(inserted.command_tag(), "INSERT 0 2");
  ASSERT_TRUE(inserted.has_rows());
  EXPECT_EQ(inserted.row_count(), 2u);
  EXPECT_EQ(inserted.column_name(1), "v");
  EXPECT_EQ(inserted.affected_rows(), 2u);

  Result updated = connection_.query("update r set v = v || '!' where id = 2 returning v");
  EXPECT_EQ(updated.command_tag(), "UPDATE 1");
  ASSERT_EQ(updated.row_count(), 1u);
  EXPECT_EQ(updated.value(0, 0).to_string(), "b!");

  Result deleted = connection_.query("delete from r where id = 3 returning *");
  EXPECT_EQ(deleted.command_tag(), "DELETE 0");
  EXPECT_TRUE(deleted.has_rows());
  EXPECT_EQ(deleted.row_count(), 0u);
  EXPECT_EQ(deleted.column_count(), 2u);
}

TEST_F(ApiReturningTest, OnConflictCountsInsertedAndUpdatedRows) {
  connection_.query("create table r (id integer primary key, v integer)");
  connection_.query("insert into r values (1, 1)");
  EXPECT_EQ(
      connection_.query("insert into r values (1, 5), (2, 2) on conflict do nothing").command_tag(),
      "INSERT 0 1");
  Result upsert = connection_.query(
      "insert into r values (1, 5), (3, 3) on conflict (id) do update set v = r.v + excluded.v");
  EXPECT_EQ(upsert.command_tag(), "INSERT 0 2");
  EXPECT_FALSE(upsert.has_rows());
  EXPECT_EQ(connection_.query("select v from r where id = 1").value(0, 0).to_string(), "6");
}

}  // namespace
}  // namespace floe::testing
