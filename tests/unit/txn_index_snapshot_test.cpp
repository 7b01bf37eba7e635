// Older snapshots read through a unique index after other transactions changed the rows it
// indexes (storage/unique_index.h): an update of a frozen row, an update of a key and a
// delete followed by an insert of the same key all leave the newest row in the index, and the
// row an older snapshot still sees must stay reachable, by an index scan, an index
// nested-loop join and the record path, in both engines, over several chunks, hot and frozen.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "engine/api/database.h"
#include "engine/api/record_transaction.h"
#include "tests/unit/result_lines.h"

namespace floe {
namespace {

constexpr int kRows = 140000;  // three chunks of 2^16 rows

class TxnIndexSnapshotTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    // Hot: no chunk freezes, not even the full ones of the bulk insert (SET freeze_policy).
    if (!frozen()) writer_.query("set freeze_policy = 'never'");
    writer_.query("create table snap_t (id integer primary key, v integer)");
    writer_.query("insert into snap_t select n, n * 10 from generate_series(1, " +
                  std::to_string(kRows) + ") as s(n)");
    writer_.query("create table probe_keys (id integer)");
    if (frozen()) writer_.query("vacuum freeze snap_t");
    EXPECT_EQ(count(writer_, "select max(frozen_chunks) from floe_storage where table_name = "
                             "'snap_t'"),
              frozen() ? 3 : 0);
    snapshot_.emplace(reader_);  // repeatable read, floe's default
    EXPECT_EQ(count(reader_, "select count(*) from snap_t"), kRows);  // takes the snapshot
  }
  bool frozen() const { return GetParam(); }

  static int64_t count(Connection& connection, const std::string& sql) {
    return connection.query(sql).value(0, 0).as_int64();
  }
  // The v of the row with key `id` as `connection` sees it through the primary key, the same
  // in every engine; -1 when there is none.
  static int64_t v_of(Connection& connection, int id) {
    const std::string where = " where id = " + std::to_string(id);
    std::string plan;
    for (const std::string& line : testing::result_lines(
             connection.query("explain select v from snap_t" + where)))
      plan += line + "\n";
    EXPECT_NE(plan.find("Index Scan using snap_t_pkey"), std::string::npos) << plan;
    int64_t v = -2;
    for (const char* mode : {"compiled", "vectorized"}) {
      connection.query(std::string("set execution_mode = '") + mode + "'");
      Result result = connection.query("select v from snap_t" + where);
      EXPECT_LE(result.row_count(), 1u) << mode;
      const int64_t found = result.row_count() ? result.value(0, 0).as_int64() : -1;
      if (v != -2) {
        EXPECT_EQ(found, v) << mode;
      }
      v = found;
    }
    connection.query("set execution_mode = 'compiled'");
    return v;
  }
  // The same through the record path.
  static int64_t record_v_of(TransactionScope& tx, int id) {
    RecordTable table = tx.table("snap_t");
    std::optional<RowRef> row = tx.lookup(table.primary_key(), {Value::integer(id)});
    return row ? tx.read(*row, table.column("v")).as_int64() : -1;
  }
  // The sum of v over the keys joined through the index (an index nested-loop join).
  static int64_t joined_sum(Connection& connection, const std::string& keys) {
    connection.query("delete from probe_keys");
    connection.query("insert into probe_keys values " + keys);
    return count(connection,
                 "select coalesce(sum(t.v), -1) from probe_keys k join snap_t t on t.id = k.id");
  }

  // Ends the reader's transaction: its next statements see everything committed.
  void end_snapshot() {
    snapshot_->commit();
    snapshot_.reset();
  }

  Database database_;
  Connection writer_{database_};
  Connection reader_{database_};
  std::optional<TransactionScope> snapshot_;  // the reader's, begun before the changes
};

TEST_P(TxnIndexSnapshotTest, UpdateOfAnotherColumn) {
  writer_.query("update snap_t set v = 11 where id = 1");
  EXPECT_EQ(v_of(reader_, 1), 10);
  EXPECT_EQ(v_of(writer_, 1), 11);
  EXPECT_EQ(count(reader_, "select count(*) from snap_t where id between 1 and 3"), 3);
  end_snapshot();
  EXPECT_EQ(v_of(reader_, 1), 11);
}

TEST_P(TxnIndexSnapshotTest, UpdateOfTheKey) {
  writer_.query("update snap_t set id = -2 where id = 2");
  EXPECT_EQ(v_of(reader_, 2), 20);
  EXPECT_EQ(v_of(reader_, -2), -1);
  EXPECT_EQ(v_of(writer_, 2), -1);
  EXPECT_EQ(v_of(writer_, -2), 20);
  EXPECT_EQ(count(reader_, "select count(*) from snap_t where id <= 2"), 2);
  EXPECT_EQ(count(writer_, "select count(*) from snap_t where id <= 2"), 2);
  // The old key is free again: a new row takes it over from the moved row's old version.
  writer_.query("insert into snap_t values (2, 7)");
  EXPECT_EQ(v_of(reader_, 2), 20);
  EXPECT_EQ(v_of(writer_, 2), 7);
  end_snapshot();
  EXPECT_EQ(v_of(reader_, 2), 7);
  EXPECT_EQ(v_of(reader_, -2), 20);
}

TEST_P(TxnIndexSnapshotTest, DeleteThenInsertOfTheSameKey) {
  writer_.query("delete from snap_t where id = 3");
  writer_.query("insert into snap_t values (3, 33)");
  writer_.query("update snap_t set v = 333 where id = 3");  // a chain of two successors
  writer_.query("delete from snap_t where id = 3");
  writer_.query("insert into snap_t values (3, 3333)");
  EXPECT_EQ(v_of(reader_, 3), 30);
  EXPECT_EQ(record_v_of(*snapshot_, 3), 30);
  EXPECT_EQ(v_of(writer_, 3), 3333);
  EXPECT_EQ(joined_sum(reader_, "(1), (3), (" + std::to_string(kRows + 1) + ")"), 10 + 30);
  EXPECT_EQ(joined_sum(writer_, "(1), (3)"), 10 + 3333);
  end_snapshot();
  EXPECT_EQ(v_of(reader_, 3), 3333);
}

TEST_P(TxnIndexSnapshotTest, RecordPathUpdate) {
  writer_.query("update snap_t set v = 44 where id = 4");
  EXPECT_EQ(record_v_of(*snapshot_, 4), 40);
  TransactionScope writer = writer_.begin();
  EXPECT_EQ(record_v_of(writer, 4), 44);
  writer.commit();
}

TEST_P(TxnIndexSnapshotTest, RolledBackInsertGivesTheKeyBack) {
  // Another transaction's delete committed after the reader's snapshot; an insert of the key
  // takes it over and rolls back: the deleted row holds the key again, for the reader only.
  writer_.query("delete from snap_t where id = 5");
  Connection other(database_);
  other.query("begin");
  other.query("insert into snap_t values (5, 55)");
  other.query("rollback");
  EXPECT_EQ(v_of(reader_, 5), 50);
  EXPECT_EQ(v_of(writer_, 5), -1);
  // A rolled-back delete and insert of one transaction leave everything as it was.
  other.query("begin");
  other.query("delete from snap_t where id = 6");
  other.query("insert into snap_t values (6, 66)");
  other.query("rollback");
  EXPECT_EQ(v_of(reader_, 6), 60);
  EXPECT_EQ(v_of(writer_, 6), 60);
  writer_.query("insert into snap_t values (5, 555)");
  EXPECT_EQ(v_of(reader_, 5), 50);
  EXPECT_EQ(v_of(writer_, 5), 555);
}

TEST_P(TxnIndexSnapshotTest, ManyUpdatesWhileASnapshotIsOpenThenGarbageCollected) {
  // More successors than the index keeps before it first prunes, each update its own
  // transaction: all stay while the reader's snapshot needs them.
  for (int round = 1; round <= 3; ++round)
    for (int id = 100; id < 200; ++id)
      writer_.query("update snap_t set id = id, v = v + 1 where id = " + std::to_string(id));
  EXPECT_EQ(count(reader_, "select sum(v) from snap_t where id >= 100 and id < 200"),
            (100 + 199) * 100 / 2 * 10);
  EXPECT_EQ(count(writer_, "select sum(v) from snap_t where id >= 100 and id < 200"),
            (100 + 199) * 100 / 2 * 10 + 300);
  end_snapshot();
  // Garbage collected now; more changes prune the index's predecessors, reads stay right.
  for (int id = 100; id < 200; ++id)
    writer_.query("update snap_t set id = id, v = v + 1 where id = " + std::to_string(id));
  EXPECT_EQ(count(reader_, "select sum(v) from snap_t where id >= 100 and id < 200"),
            (100 + 199) * 100 / 2 * 10 + 400);
  EXPECT_EQ(v_of(reader_, 150), 1504);
}

TEST_P(TxnIndexSnapshotTest, DeletedRowsLeaveTheIndexOnceEverySnapshotSeesTheDelete) {
  const UniqueIndex& index = *database_.catalog().find_table("snap_t")->primary_index();
  const auto rows = static_cast<size_t>(kRows);
  writer_.query("delete from snap_t where id <= 1000");
  writer_.query("delete from snap_t where id = 1001");  // the next delete: the reader needs them
  EXPECT_EQ(index.size(), rows);
  EXPECT_EQ(count(reader_, "select count(*) from snap_t where id <= 1001"), 1001);
  EXPECT_EQ(record_v_of(*snapshot_, 500), 5000);
  end_snapshot();  // garbage collection: every snapshot sees the deletes now
  writer_.query("delete from snap_t where id = 1002");  // takes the dead rows' entries out
  EXPECT_EQ(index.size(), rows - 1001);
  EXPECT_EQ(count(writer_, "select count(*) from snap_t where id <= 2000"), 998);
  EXPECT_EQ(v_of(writer_, 500), -1);
  EXPECT_EQ(v_of(writer_, 1003), 10030);
  writer_.query("insert into snap_t values (500, 1)");
  EXPECT_EQ(v_of(writer_, 500), 1);
  EXPECT_EQ(index.size(), rows - 1000);
}

TEST_P(TxnIndexSnapshotTest, ADeadPredecessorDoesNotGetItsKeyBack) {
  const UniqueIndex& index = *database_.catalog().find_table("snap_t")->primary_index();
  writer_.query("delete from snap_t where id = 7");
  writer_.query("insert into snap_t values (7, 77)");  // takes the key; the reader sees 70
  EXPECT_EQ(v_of(reader_, 7), 70);
  end_snapshot();
  writer_.query("delete from snap_t where id = 7");
  writer_.query("delete from snap_t where id = 8");  // the entry of 7 goes, its predecessor's too
  EXPECT_EQ(index.size(), static_cast<size_t>(kRows) - 1);
  EXPECT_EQ(v_of(writer_, 7), -1);
  writer_.query("insert into snap_t values (7, 777)");
  EXPECT_EQ(v_of(writer_, 7), 777);
}

INSTANTIATE_TEST_SUITE_P(HotAndFrozen, TxnIndexSnapshotTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Frozen" : "Hot"; });

}  // namespace
}  // namespace floe
