// Snapshot isolation between connections (engine/txn/): each Connection with an open
// transaction block reads the data committed before its transaction started and its own
// changes; a write-write conflict aborts the second writer with SQLSTATE 40001.
#include <gtest/gtest.h>

#include "engine/api/database.h"
#include "storage/error.h"

namespace floe {
namespace {

class TxnConnectionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    a_.query("create table accounts (id integer primary key, balance integer, note text)");
    a_.query(
        "insert into accounts values (1, 100, 'first account with a long note'), (2, 50, 'b')");
  }
  static int64_t balance(Connection& connection, int id) {
    Result result =
        connection.query("select balance from accounts where id = " + std::to_string(id));
    EXPECT_EQ(result.row_count(), 1u);
    return result.row_count() ? result.value(0, 0).as_int64() : -1;
  }
  static int64_t count(Connection& connection) {
    return connection.query("select count(*) from accounts").value(0, 0).as_int64();
  }

  Database database_;
  Connection a_{database_};
  Connection b_{database_};
};

TEST_F(TxnConnectionsTest, ReadersKeepTheirSnapshotUntilTheirTransactionEnds) {
  b_.query("begin");
  EXPECT_EQ(balance(b_, 1), 100);
  a_.query("begin");
  a_.query("update accounts set balance = balance + 5, note = 'changed' where id = 1");
  EXPECT_EQ(balance(a_, 1), 105);  // its own change
  EXPECT_EQ(balance(b_, 1), 100);  // no dirty read
  EXPECT_EQ(b_.query("select note from accounts where id = 1").value(0, 0).as_string(),
            "first account with a long note");
  a_.query("commit");
  EXPECT_EQ(balance(b_, 1), 100);  // B's snapshot is older than A's commit
  b_.query("commit");
  EXPECT_EQ(balance(b_, 1), 105);  // a new transaction sees it
  EXPECT_EQ(balance(a_, 1), 105);
}

TEST_F(TxnConnectionsTest, InsertsAndDeletesAreInvisibleUntilCommitted) {
  b_.query("begin");
  EXPECT_EQ(count(b_), 2);
  a_.query("begin; delete from accounts where id = 2; insert into accounts values (3, 7, 'c')");
  EXPECT_EQ(count(a_), 2);
  EXPECT_EQ(a_.query("select sum(id) from accounts").value(0, 0).as_int64(), 4);
  EXPECT_EQ(count(b_), 2);
  EXPECT_EQ(b_.query("select sum(id) from accounts").value(0, 0).as_int64(), 3);
  a_.query("commit");
  EXPECT_EQ(b_.query("select sum(id) from accounts").value(0, 0).as_int64(), 3);
  b_.query("rollback");
  EXPECT_EQ(b_.query("select sum(id) from accounts").value(0, 0).as_int64(), 4);
}

TEST_F(TxnConnectionsTest, ConflictingUpdateAbortsTheSecondWriter) {
  a_.query("begin");
  b_.query("begin");
  a_.query("update accounts set balance = 0 where id = 1");
  try {
    b_.query("update accounts set balance = 1 where id = 1");
    FAIL() << "no serialization failure";
  } catch (const SerializationFailure& failure) {
    EXPECT_STREQ(failure.what(), "could not serialize access due to concurrent update");
    EXPECT_STREQ(SerializationFailure::kSqlState, "40001");
  }
  // B's block is aborted now, A's goes on.
  EXPECT_THROW(b_.query("select 1"), Error);
  EXPECT_EQ(b_.query("commit").command_tag(), "ROLLBACK");
  a_.query("commit");
  EXPECT_EQ(balance(b_, 1), 0);
}

TEST_F(TxnConnectionsTest, UpdateAfterAConcurrentCommitConflicts) {
  b_.query("begin");
  EXPECT_EQ(balance(b_, 2), 50);
  a_.query("update accounts set balance = 60 where id = 2");  // commits at once
  // No lost update: B would overwrite a change its snapshot does not see.
  EXPECT_THROW(b_.query("update accounts set balance = balance + 1 where id = 2"),
               SerializationFailure);
  b_.query("rollback");
  b_.query("update accounts set balance = balance + 1 where id = 2");
  EXPECT_EQ(balance(a_, 2), 61);
}

TEST_F(TxnConnectionsTest, KeyOfADeletedRowIsFreeOnlyOnceTheDeleteCommitted) {
  a_.query("begin; delete from accounts where id = 1");
  // A's delete may still roll back: B cannot take the key.
  EXPECT_THROW(b_.query("insert into accounts values (1, 0, 'x')"), SerializationFailure);
  a_.query("commit");
  b_.query("insert into accounts values (1, 0, 'x')");
  EXPECT_EQ(balance(a_, 1), 0);
  EXPECT_EQ(count(a_), 2);
}

TEST_F(TxnConnectionsTest, ClosingAConnectionRollsItsBlockBack) {
  {
    Connection c(database_);
    c.query("begin; update accounts set balance = 999 where id = 1");
  }
  EXPECT_EQ(balance(a_, 1), 100);
  a_.query("update accounts set balance = 1 where id = 1");  // no conflict left behind
  EXPECT_EQ(balance(b_, 1), 1);
}

}  // namespace
}  // namespace floe
