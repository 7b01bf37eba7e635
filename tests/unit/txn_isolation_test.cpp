// Isolation anomalies between connections (engine/txn/): snapshot isolation (floe's default,
// PostgreSQL's repeatable read) prevents dirty reads, lost updates and unstable snapshots but
// allows write skew; serializable (validated at commit with precision locking, Neumann,
// Mühlbauer & Kemper, SIGMOD 2015, §3) fails the second of two write-skewed transactions
// with SQLSTATE 40001, and only when what it read was really changed.
#include <gtest/gtest.h>

#include <string>

#include "engine/api/database.h"
#include "error_message.h"
#include "storage/error.h"

namespace floe {
namespace {

using testing::error_of;

constexpr const char* kReadWrite =
    "could not serialize access due to read/write dependencies among transactions";

class TxnIsolationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    a_.query("create table doctors (id integer primary key, ward integer, on_call boolean)");
    a_.query("insert into doctors values (1, 1, true), (2, 1, true), (3, 2, true), (4, 2, true)");
  }
  static int64_t scalar(Connection& connection, const std::string& sql) {
    return connection.query(sql).value(0, 0).as_int64();
  }
  // A and B begin with `begin`, each counts the doctors on call in a ward (two) and takes
  // one doctor off call; then A commits.
  void read_then_write(const std::string& begin, int ward_a, int ward_b, int id_a, int id_b) {
    a_.query(begin);
    b_.query(begin);
    EXPECT_EQ(scalar(a_, on_call(ward_a)), 2);
    EXPECT_EQ(scalar(b_, on_call(ward_b)), 2);
    a_.query("update doctors set on_call = false where id = " + std::to_string(id_a));
    b_.query("update doctors set on_call = false where id = " + std::to_string(id_b));
    a_.query("commit");
  }
  static std::string on_call(int ward) {
    return "select count(*) from doctors where ward = " + std::to_string(ward) + " and on_call";
  }
  // The classic write skew: both commits keep the invariant "one on call" on their own
  // snapshot of the ward.
  void skew(const std::string& level, int ward) {
    read_then_write("begin isolation level " + level, ward, ward, 2 * ward - 1, 2 * ward);
  }

  Database database_;
  Connection a_{database_};
  Connection b_{database_};
};

TEST_F(TxnIsolationTest, NoDirtyRead) {
  for (const char* level : {"read committed", "repeatable read", "serializable"}) {
    SCOPED_TRACE(level);
    a_.query(std::string("begin isolation level ") + level);
    a_.query("update doctors set ward = 9 where id = 1; insert into doctors values (5, 9, true)");
    EXPECT_EQ(scalar(b_, "select count(*) from doctors where ward = 9"), 0);
    a_.query("rollback");
    EXPECT_EQ(scalar(b_, "select count(*) from doctors where ward = 9"), 0);
  }
}

TEST_F(TxnIsolationTest, NoLostUpdate) {
  for (const char* level : {"repeatable read", "serializable"}) {
    SCOPED_TRACE(level);
    a_.query(std::string("begin isolation level ") + level);
    b_.query(std::string("begin isolation level ") + level);
    const int64_t ward = scalar(b_, "select ward from doctors where id = 3");
    a_.query("update doctors set ward = ward + 10 where id = 3");
    a_.query("commit");
    // B's update would overwrite A's without having seen it: B fails, A's change stays.
    EXPECT_EQ(error_of([&] { b_.query("update doctors set ward = ward + 100 where id = 3"); }),
              "could not serialize access due to concurrent update");
    b_.query("rollback");
    EXPECT_EQ(scalar(b_, "select ward from doctors where id = 3"), ward + 10);
    a_.query("update doctors set ward = 2 where id = 3");
  }
}

TEST_F(TxnIsolationTest, SnapshotStability) {
  for (const char* level : {"read committed", "repeatable read", "serializable"}) {
    SCOPED_TRACE(level);
    b_.query(std::string("begin isolation level ") + level);
    const std::string sum = "select sum(id * ward) from doctors";
    const int64_t before = scalar(b_, sum);
    a_.query("update doctors set ward = ward + 1 where id = 4");
    a_.query("insert into doctors values (10, 1, false)");
    a_.query("delete from doctors where id = 10");
    a_.query("update doctors set ward = ward - 1 where id = 4");
    a_.query("insert into doctors values (11, 3, false)");
    EXPECT_EQ(scalar(b_, sum), before);  // read committed maps to snapshot isolation
    EXPECT_EQ(b_.query("commit").command_tag(), "COMMIT");
    EXPECT_EQ(scalar(b_, sum), before + 33);
    a_.query("delete from doctors where id = 11");
  }
}

TEST_F(TxnIsolationTest, WriteSkewCommitsUnderSnapshotIsolation) {
  skew("repeatable read", 1);
  EXPECT_EQ(b_.query("commit").command_tag(), "COMMIT");
  EXPECT_EQ(scalar(a_, "select count(*) from doctors where ward = 1 and on_call"), 0);
}

TEST_F(TxnIsolationTest, WriteSkewFailsUnderSerializable) {
  skew("serializable", 1);
  try {
    b_.query("commit");
    FAIL() << "B committed";
  } catch (const SerializationFailure& failure) {
    EXPECT_STREQ(failure.what(), kReadWrite);
  }
  EXPECT_FALSE(b_.in_transaction_block());  // rolled back
  EXPECT_EQ(scalar(a_, "select count(*) from doctors where ward = 1 and on_call"), 1);
  EXPECT_EQ(scalar(a_, "select count(*) from doctors where id = 2 and on_call"), 1);
}

TEST_F(TxnIsolationTest, SerializableCommitsWhenTheReadPredicateWasNotTouched) {
  // B reads ward 2 only; A changes ward 1: precision locking lets both commit.
  read_then_write("begin isolation level serializable", 1, 2, 1, 3);
  EXPECT_EQ(b_.query("commit").command_tag(), "COMMIT");
  EXPECT_EQ(scalar(a_, "select count(*) from doctors where on_call"), 2);
}

TEST_F(TxnIsolationTest, SerializableSeesInsertsIntoItsPredicateAsConflicts) {
  // A phantom: A inserts a row into the range B read; B's commit fails.
  a_.query("begin isolation level serializable");
  b_.query("begin isolation level serializable");
  EXPECT_EQ(scalar(b_, "select count(*) from doctors where id between 5 and 8"), 0);
  a_.query("insert into doctors values (6, 3, true)");
  b_.query("insert into doctors values (20, 3, false)");
  a_.query("commit");
  EXPECT_EQ(error_of([&] { b_.query("commit"); }), kReadWrite);
  // An insert outside the range B read does not conflict.
  b_.query("begin isolation level serializable");
  EXPECT_EQ(scalar(b_, "select count(*) from doctors where id between 5 and 8"), 1);
  a_.query("insert into doctors values (30, 3, true)");
  b_.query("insert into doctors values (20, 3, false)");
  EXPECT_EQ(b_.query("commit").command_tag(), "COMMIT");
}

TEST_F(TxnIsolationTest, SerializableSeesDeletesOutOfItsPredicateAsConflicts) {
  a_.query("begin isolation level serializable");
  b_.query("begin isolation level serializable");
  EXPECT_EQ(scalar(b_, "select count(*) from doctors where ward = 2"), 2);
  a_.query("delete from doctors where id = 4");  // its before-image was in B's predicate
  b_.query("insert into doctors values (7, 2, false)");
  a_.query("commit");
  EXPECT_EQ(error_of([&] { b_.query("commit"); }), kReadWrite);
}

TEST_F(TxnIsolationTest, DefaultIsolationSerializableAppliesToEveryTransaction) {
  // A statement of its own is validated too; nothing committed while it ran (statements take
  // turns), so it commits.
  b_.query("set default_transaction_isolation = 'serializable'");
  EXPECT_EQ(b_.query("show transaction_isolation").value(0, 0).as_string(), "serializable");
  b_.query("update doctors set on_call = false where id = (select min(id) from doctors)");
  EXPECT_EQ(scalar(a_, "select count(*) from doctors where on_call"), 3);
  // Its blocks are serializable: the write skew fails.
  read_then_write("begin", 2, 2, 3, 4);
  EXPECT_EQ(error_of([&] { b_.query("commit"); }), kReadWrite);
}

TEST_F(TxnIsolationTest, ReadOnlySerializableTransactionsNeedNoValidation) {
  b_.query("begin isolation level serializable");
  EXPECT_EQ(scalar(b_, "select count(*) from doctors"), 4);
  a_.query("update doctors set ward = 3");
  EXPECT_EQ(scalar(b_, "select count(*) from doctors where ward = 3"), 0);
  EXPECT_EQ(b_.query("commit").command_tag(), "COMMIT");
}

TEST_F(TxnIsolationTest, PreparedStatementsLogTheirReads) {
  // A prepared lookup's restriction takes the parameter's value of each run.
  PreparedStatement lookup = b_.prepare("select count(*) from doctors where ward = $1 and on_call");
  b_.query("begin isolation level serializable");
  a_.query("begin isolation level serializable");
  EXPECT_EQ(lookup.execute({Value::integer(1)}).value(0, 0).as_int64(), 2);
  EXPECT_EQ(scalar(a_, "select count(*) from doctors where ward = 1 and on_call"), 2);
  a_.query("update doctors set on_call = false where id = 1");
  b_.query("update doctors set on_call = false where id = 2");
  a_.query("commit");
  EXPECT_EQ(error_of([&] { b_.query("commit"); }), kReadWrite);
}

}  // namespace
}  // namespace floe
