// The record-level path (engine/api/record_transaction.h): the same changes as SQL, rollback,
// snapshots and write-write conflicts, constraint errors with PostgreSQL 15's messages, and
// index range scans over several chunks, hot and frozen.
#include <gtest/gtest.h>

#include <string>

#include "engine/api/database.h"
#include "engine/api/record_transaction.h"
#include "storage/error.h"

namespace floe {
namespace {

std::string table_text(Connection& connection, const std::string& table) {
  Result result = connection.query("select * from " + table + " order by 1");
  std::string text;
  for (const auto& row : result.rows()) {
    for (const Value& value : row) text += value.to_string() + "|";
    text += "\n";
  }
  return text;
}

std::string error_of(const std::function<void()>& run) {
  try {
    run();
  } catch (const Error& error) {
    return error.what();
  }
  return "no error";
}

class ApiRecordTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"r", "s"}) {
      a_.query(std::string("create table ") + name +
               " (k integer primary key, v integer not null, note varchar(10), "
               "amount numeric(8,2) check (amount >= 0))");
      a_.query(std::string("insert into ") + name +
               " values (1, 10, 'one', 1.50), (2, 20, 'two', 2.50), (3, 30, null, 0)");
    }
  }
  // The value of column v of row k of r as `connection` sees it through SQL.
  static int64_t sql_v(Connection& connection, int k) {
    Result result = connection.query("select v from r where k = " + std::to_string(k));
    return result.row_count() ? result.value(0, 0).as_int64() : -1;
  }

  Database database_;
  Connection a_{database_};
  Connection b_{database_};
};

TEST_F(ApiRecordTest, ChangesMatchTheSameTransactionInSql) {
  {
    TransactionScope tx = a_.begin();
    RecordTable r = tx.table("r");
    RecordIndex key = r.primary_key();
    const size_t v = r.column("v"), note = r.column("note"), amount = r.column("amount");
    std::optional<RowRef> one = tx.lookup(key, {Value::integer(1)});
    ASSERT_TRUE(one);
    EXPECT_EQ(tx.read(*one, v).as_int64(), 10);
    tx.update(*one, {{v, Value::big_int(tx.read(*one, v).as_int64() + 5)},
                     {note, Value::string("changed")},
                     {amount, Value::double_value(3.25)}});
    tx.erase(*tx.lookup(key, {Value::big_int(2)}));
    tx.insert(r, {Value::integer(7), Value::integer(70), Value::string("seven"),
                  Value::string("7.10")});
    EXPECT_FALSE(tx.lookup(key, {Value::integer(2)}));  // its own delete
    std::optional<RowRef> seven = tx.lookup(key, {Value::integer(7)});  // its own insert
    ASSERT_TRUE(seven);
    EXPECT_EQ(tx.read(*seven, note).as_string(), "seven");
    tx.commit();
  }
  a_.query("begin");
  a_.query("update s set v = v + 5, note = 'changed', amount = 3.25 where k = 1");
  a_.query("delete from s where k = 2");
  a_.query("insert into s values (7, 70, 'seven', '7.10')");
  a_.query("commit");
  EXPECT_EQ(table_text(a_, "r"), table_text(a_, "s"));
  EXPECT_EQ(table_text(a_, "r"), "1|15|changed|3.25|\n3|30|NULL|0.00|\n7|70|seven|7.10|\n");
}

TEST_F(ApiRecordTest, RollbackAndDestructorUndoRecordChanges) {
  const std::string before = table_text(a_, "r");
  {
    TransactionScope tx = a_.begin();
    RecordTable r = tx.table("r");
    tx.update(*tx.lookup(r.primary_key(), {Value::integer(1)}), {{1, Value::integer(99)}});
    tx.erase(*tx.lookup(r.primary_key(), {Value::integer(3)}));
    tx.insert(r, {Value::integer(4), Value::integer(40), Value(), Value()});
    tx.rollback();
    EXPECT_FALSE(tx.active());
    EXPECT_EQ(error_of([&] { tx.commit(); }), "the transaction has already ended");
  }
  EXPECT_EQ(table_text(a_, "r"), before);
  {
    TransactionScope tx = a_.begin();
    RecordTable r = tx.table("r");
    tx.insert(r, {Value::integer(4), Value::integer(40), Value(), Value()});
    EXPECT_TRUE(a_.in_transaction_block());
  }  // destroyed while open: rolled back
  EXPECT_FALSE(a_.in_transaction_block());
  EXPECT_EQ(table_text(a_, "r"), before);
  // The key of the rolled-back insert is free again.
  a_.query("insert into r values (4, 40, null, null)");
}

TEST_F(ApiRecordTest, SqlAndRecordsShareTheTransaction) {
  TransactionScope tx = a_.begin();
  EXPECT_EQ(error_of([&] { a_.begin(); }), "there is already a transaction in progress");
  tx.query("update r set v = 11 where k = 1");
  RecordTable r = tx.table("r");
  RowRef one = *tx.lookup(r.primary_key(), {Value::integer(1)});
  EXPECT_EQ(tx.read(one, 1).as_int64(), 11);
  tx.update(one, {{1, Value::integer(12)}});
  EXPECT_EQ(sql_v(a_, 1), 12);
  EXPECT_EQ(sql_v(b_, 1), 10);  // not committed
  tx.commit();
  EXPECT_EQ(sql_v(b_, 1), 12);
}

TEST_F(ApiRecordTest, SnapshotsAndWriteWriteConflicts) {
  TransactionScope reader = b_.begin();
  RecordTable r = reader.table("r");
  {
    TransactionScope writer = a_.begin();
    RowRef one = *writer.lookup(r.primary_key(), {Value::integer(1)});
    writer.update(one, {{1, Value::integer(111)}});
    // A concurrent writer of the same row fails; the reader still sees the old value.
    EXPECT_EQ(reader.read(*reader.lookup(r.primary_key(), {Value::integer(1)}), 1).as_int64(),
              10);
    writer.insert(r, {Value::integer(5), Value::integer(50), Value(), Value()});
    EXPECT_FALSE(reader.lookup(r.primary_key(), {Value::integer(5)}));  // no dirty read
    writer.commit();
  }
  // Committed after the reader's snapshot: still invisible, and a write is a conflict.
  RowRef one = *reader.lookup(r.primary_key(), {Value::integer(1)});
  EXPECT_EQ(reader.read(one, 1).as_int64(), 10);
  EXPECT_FALSE(reader.lookup(r.primary_key(), {Value::integer(5)}));
  EXPECT_THROW(reader.update(one, {{1, Value::integer(7)}}), SerializationFailure);
  // The block is aborted (PostgreSQL's rules) and commit rolls it back.
  EXPECT_EQ(error_of([&] { reader.read(one, 1); }),
            "current transaction is aborted, commands ignored until end of transaction block");
  EXPECT_EQ(error_of([&] { reader.commit(); }),
            "the transaction was rolled back: an earlier error aborted it");
  EXPECT_EQ(sql_v(b_, 1), 111);

  // Two open writers of one row: the second fails at once.
  TransactionScope first = a_.begin();
  TransactionScope second = b_.begin();
  first.erase(*first.lookup(r.primary_key(), {Value::integer(2)}));
  RowRef two = *second.lookup(r.primary_key(), {Value::integer(2)});
  EXPECT_THROW(second.erase(two), SerializationFailure);
  second.rollback();
  first.commit();
  EXPECT_EQ(sql_v(b_, 2), -1);
}

TEST_F(ApiRecordTest, ConstraintErrorsAreTheSqlOnesAndLeaveNothingBehind) {
  a_.query("create table p (k integer primary key, name text unique)");
  a_.query("create table c (id integer primary key, p integer references p (k), "
           "v integer not null, q integer check (q > 0))");
  a_.query("insert into p values (1, 'a')");
  a_.query("insert into c values (1, 1, 1, 1)");
  auto attempt = [&](const std::function<void(TransactionScope&)>& change) {
    TransactionScope tx = a_.begin();
    std::string error = error_of([&] { change(tx); });
    tx.rollback();
    return error;
  };
  auto row = [](int a, int b, std::optional<int> c, int d) {
    return std::vector<Value>{Value::integer(a), Value::integer(b),
                              c ? Value::integer(*c) : Value::null(SqlType::integer()),
                              Value::integer(d)};
  };
  EXPECT_EQ(attempt([](TransactionScope& tx) {
              tx.insert(tx.table("p"), {Value::integer(1), Value::string("b")});
            }),
            "duplicate key value violates unique constraint \"p_pkey\"\nDETAIL:  Key (k)=(1) "
            "already exists.");
  EXPECT_EQ(attempt([](TransactionScope& tx) {
              tx.insert(tx.table("p"), {Value::integer(2), Value::string("a")});
            }),
            "duplicate key value violates unique constraint \"p_name_key\"\nDETAIL:  Key "
            "(name)=(a) already exists.");
  EXPECT_EQ(attempt([&](TransactionScope& tx) { tx.insert(tx.table("c"), row(2, 9, 1, 1)); }),
            "insert or update on table \"c\" violates foreign key constraint \"c_p_fkey\"\n"
            "DETAIL:  Key (p)=(9) is not present in table \"p\".");
  EXPECT_EQ(
      attempt([&](TransactionScope& tx) { tx.insert(tx.table("c"), row(2, 1, std::nullopt, 1)); }),
      "null value in column \"v\" of relation \"c\" violates not-null constraint\nDETAIL:  "
      "Failing row contains (2, 1, null, 1).");
  EXPECT_EQ(attempt([&](TransactionScope& tx) { tx.insert(tx.table("c"), row(2, 1, 1, 0)); }),
            "new row for relation \"c\" violates check constraint \"c_q_check\"\nDETAIL:  "
            "Failing row contains (2, 1, 1, 0).");
  EXPECT_EQ(attempt([](TransactionScope& tx) {
              RecordTable c = tx.table("c");
              tx.update(*tx.lookup(c.primary_key(), {Value::integer(1)}), {{3, Value::integer(-1)}});
            }),
            "new row for relation \"c\" violates check constraint \"c_q_check\"\nDETAIL:  "
            "Failing row contains (1, 1, 1, -1).");
  EXPECT_EQ(attempt([](TransactionScope& tx) {
              RecordTable p = tx.table("p");
              tx.erase(*tx.lookup(p.primary_key(), {Value::integer(1)}));
            }),
            "update or delete on table \"p\" violates foreign key constraint \"c_p_fkey\" on "
            "table \"c\"\nDETAIL:  Key (k)=(1) is still referenced from table \"c\".");
  EXPECT_EQ(attempt([](TransactionScope& tx) { tx.table("nope"); }),
            "relation \"nope\" does not exist");
  EXPECT_EQ(attempt([](TransactionScope& tx) { tx.table("p").column("nope"); }),
            "column \"nope\" of relation \"p\" does not exist");
  // A failed operation inside a transaction takes back only itself; the block is aborted.
  {
    TransactionScope tx = a_.begin();
    RecordTable p = tx.table("p");
    tx.insert(p, {Value::integer(2), Value::string("b")});
    EXPECT_THROW(tx.insert(p, {Value::integer(3), Value::string("b")}), Error);
    EXPECT_THROW(tx.insert(p, {Value::integer(4), Value::string("d")}), Error);
    tx.rollback();
  }
  EXPECT_EQ(table_text(a_, "p"), "1|a|\n");
  EXPECT_EQ(table_text(a_, "c"), "1|1|1|1|\n");
}

// 200,000 rows (four chunks) with an index on g: range scans on hot, frozen and mixed data,
// after updates that move frozen rows into a hot chunk, against SQL's answers.
TEST_F(ApiRecordTest, RangeScansOverSeveralChunksHotAndFrozen) {
  a_.query("set freeze_policy = 'never'");
  a_.query("create table digits (x integer)");
  a_.query("insert into digits values (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)");
  a_.query("create table big (id integer primary key, g integer, payload text)");
  a_.query(
      "insert into big select n, n % 1000, 'p' || cast(n as text) from (select a.x * 100000 + "
      "b.x * 10000 + c.x * 1000 + d.x * 100 + e.x * 10 + f.x as n from digits a, digits b, "
      "digits c, digits d, digits e, digits f where a.x < 2) as numbers");
  a_.query("create index big_g on big (g, id)");
  auto record_scan = [&](int low, int high) {
    TransactionScope tx = a_.begin();
    RecordTable big = tx.table("big");
    int64_t count = 0, sum = 0;
    tx.scan_range(big.index("big_g"), IndexBound{{Value::integer(low)}, true},
                  IndexBound{{Value::integer(high)}, false}, [&](RowRef row) {
                    ++count;
                    sum += tx.read(row, 0).as_int64();
                    return true;
                  });
    tx.commit();
    return std::to_string(count) + " " + std::to_string(sum);
  };
  auto sql_scan = [&](int low, int high) {
    Result result = a_.query("select count(*), sum(id) from big where g >= " +
                             std::to_string(low) + " and g < " + std::to_string(high));
    return result.value(0, 0).to_string() + " " + result.value(0, 1).to_string();
  };
  EXPECT_EQ(record_scan(10, 13), sql_scan(10, 13));
  EXPECT_EQ(record_scan(10, 13), "600 59706600");  // rows in all four chunks (PostgreSQL)
  a_.query("vacuum freeze big");
  EXPECT_EQ(record_scan(10, 13), "600 59706600");
  // Updates of frozen rows (a delete and an insert into a hot chunk) and deletes of the rows
  // with g = 11, rolled back, then committed.
  auto change_group = [&](bool commit) {
    TransactionScope tx = a_.begin();
    RecordTable big = tx.table("big");
    std::vector<RowRef> rows;
    tx.scan_range(big.index("big_g"), IndexBound{{Value::integer(11)}, true},
                  IndexBound{{Value::integer(11)}, true}, [&](RowRef row) {
                    rows.push_back(row);
                    return true;
                  });
    EXPECT_EQ(rows.size(), 200u);
    for (size_t i = 0; i < rows.size(); ++i) {
      if (i % 2)
        tx.erase(rows[i]);
      else
        tx.update(rows[i], {{1, Value::integer(500)}});
    }
    if (commit) {
      tx.commit();
      return;
    }
    // Rows cannot change inside a scan's callback; the error aborts the block.
    EXPECT_THROW(tx.scan_range(big.index("big_g"), std::nullopt, std::nullopt,
                               [&](RowRef row) {
                                 tx.erase(row);
                                 return false;
                               }),
                 Error);
    tx.rollback();
  };
  change_group(false);
  EXPECT_EQ(record_scan(10, 13), "600 59706600");
  change_group(true);
  EXPECT_EQ(record_scan(10, 13), sql_scan(10, 13));
  EXPECT_EQ(record_scan(500, 501), sql_scan(500, 501));
  EXPECT_EQ(record_scan(0, 1000), sql_scan(0, 1000));
}

// A scan's callback holds the statement lock: it may read, but not change rows, run SQL, end
// the transaction or begin another.
TEST_F(ApiRecordTest, ScanCallbacksOnlyRead) {
  const std::vector<std::function<void(TransactionScope&, RowRef)>> forbidden = {
      [](TransactionScope& tx, RowRef row) { tx.erase(row); },
      [](TransactionScope& tx, RowRef row) { tx.update(row, {{1, Value::integer(0)}}); },
      [](TransactionScope& tx, RowRef) { tx.query("select 1"); },
      [](TransactionScope& tx, RowRef) { tx.commit(); },
  };
  for (const auto& action : forbidden) {
    TransactionScope tx = a_.begin();
    RecordTable r = tx.table("r");
    int64_t read = 0;
    EXPECT_EQ(error_of([&] {
                tx.scan_range(r.primary_key(), std::nullopt, std::nullopt, [&](RowRef row) {
                  read += tx.read(row, 1).as_int64();
                  action(tx, row);
                  return true;
                });
              }),
              "inside scan_range's callback the transaction can only read rows");
    EXPECT_EQ(read, 10);
    EXPECT_TRUE(tx.active());
  }  // rolled back
  TransactionScope tx = a_.begin();
  RecordTable r = tx.table("r");
  EXPECT_EQ(error_of([&] {
              tx.scan_range(r.primary_key(), std::nullopt, std::nullopt, [&](RowRef) {
                a_.begin();
                return true;
              });
            }),
            "there is already a transaction in progress");
  tx.rollback();
  EXPECT_EQ(table_text(a_, "r"), "1|10|one|1.50|\n2|20|two|2.50|\n3|30|NULL|0.00|\n");
}

// A reader whose snapshot predates a key change never finds the row under the new key (its
// visible key is the old one); the index holds only the newest key, so the old key finds
// nothing either.
TEST_F(ApiRecordTest, IndexScansCheckTheSnapshotsKeys) {
  TransactionScope reader = b_.begin();
  RecordTable r = reader.table("r");
  a_.query("update r set k = 100 where k = 1");
  EXPECT_FALSE(reader.lookup(r.primary_key(), {Value::integer(100)}));
  EXPECT_FALSE(reader.lookup(r.primary_key(), {Value::integer(1)}));
  std::optional<RowRef> two = reader.lookup(r.primary_key(), {Value::integer(2)});
  ASSERT_TRUE(two);
  EXPECT_EQ(reader.read(*two, 1).as_int64(), 20);
  reader.commit();
}

}  // namespace
}  // namespace floe
