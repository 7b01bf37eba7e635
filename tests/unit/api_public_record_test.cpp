// The record-level path of the public API (engine/api/floe.h), through that header alone:
// lookups by whole and partial keys, lean keys and values, range and prefix scans over several
// chunks in key order, changes that SQL of the same transaction sees, errors with their
// SQLSTATE, snapshots and write-write conflicts between connections.
#include <gtest/gtest.h>

#include <string>

#include "engine/api/floe.h"

namespace {

using namespace floe::api;

class ApiPublicRecordTest : public ::testing::Test {
 protected:
  void SetUp() override {
    connection_.query(
        "create table item (w integer, i integer, name varchar(20), price numeric(6,2), "
        "note text, primary key (w, i))");
    // Two warehouses of 70,000 items: more than two chunks of 2^16 rows.
    connection_.query(
        "insert into item select w, i, 'item ' || i, (i % 1000) * 0.25, "
        "case when i % 3 = 0 then null else 'note' end "
        "from generate_series(1, 2) as a(w), generate_series(1, 70000) as b(i)");
  }
  int64_t sql_int(const std::string& sql) { return connection_.query(sql).value(0, 0).as_int64(); }

  // The error a call throws.
  template <typename Call>
  static Error error_of(Call&& call) {
    try {
      call();
    } catch (const Error& error) {
      return error;
    }
    ADD_FAILURE() << "no error";
    return Error("", "");
  }

  Database database_;
  Connection connection_{database_};
};

TEST_F(ApiPublicRecordTest, LookupReadUpdateInsertErase) {
  Transaction tx = connection_.begin();
  RecordTable item = tx.table("item");
  RecordIndex key = item.primary_key();
  const size_t name = item.column("name"), price = item.column("price");
  std::optional<RowRef> row = tx.lookup(key, {Value::integer(2), Value::integer(123)});
  ASSERT_TRUE(row);
  EXPECT_EQ(tx.read(*row, name).as_string(), "item 123");
  EXPECT_EQ(tx.read(*row, price).to_string(), "30.75");
  tx.update(*row, {{price, Value::numeric("1.5")}, {name, Value::text("renamed")}});
  EXPECT_EQ(tx.query("select name, price from item where w = 2 and i = 123").value(0, 1)
                .to_string(),
            "1.50");
  RowRef added = tx.insert(item, {Value::integer(3), Value::integer(1), Value::text("new"),
                                  Value::numeric("2"), Value::null()});
  EXPECT_TRUE(tx.read(added, item.column("note")).is_null());
  tx.erase(*tx.lookup(key, {Value::integer(1), Value::integer(1)}));
  EXPECT_FALSE(tx.lookup(key, {Value::integer(1), Value::integer(1)}));
  EXPECT_FALSE(tx.lookup(key, {Value::integer(1), Value::null()}));  // NULL finds nothing
  tx.commit();
  EXPECT_EQ(sql_int("select count(*) from item"), 140000);
  EXPECT_EQ(connection_.query("select name from item where w = 2 and i = 123").value(0, 0)
                .as_string(),
            "renamed");
}

TEST_F(ApiPublicRecordTest, LeanKeysValuesAndScansInKeyOrder) {
  Transaction tx = connection_.begin();
  RecordTable item = tx.table("item");
  RecordKey key(item.primary_key());
  const std::vector<size_t> columns{item.column("i"), item.column("name"),
                                    item.column("price"), item.column("note")};
  std::vector<RecordValue> values;
  ASSERT_TRUE(tx.lookup(key.clear().add(int64_t{1}).add(int64_t{69999})));
  tx.read(*tx.lookup(key), columns, values);
  EXPECT_EQ(values[0].as_int64(), 69999);
  EXPECT_EQ(values[1].as_string(), "item 69999");
  EXPECT_EQ(values[2].as_int64(), 24975);  // 249.75, unscaled
  EXPECT_EQ(values[2].type().scale, 2);
  EXPECT_TRUE(values[3].is_null());
  EXPECT_EQ(values[3].type().id, TypeId::kText);
  EXPECT_EQ(tx.read_value(*tx.lookup(key), columns[1]).to_value().as_string(), "item 69999");
  // Every item of warehouse 2 in key order, then a range that ends exclusively.
  int64_t seen = 0, last = 0;
  bool ordered = true;
  tx.scan_prefix(key.clear().add(int64_t{2}), [&](RowRef row) {
    const int64_t i = tx.read_value(row, columns[0]).as_int64();
    ordered = ordered && i > last;
    last = i;
    ++seen;
    return true;
  });
  EXPECT_TRUE(ordered);
  EXPECT_EQ(seen, 70000);
  RecordKey low(item.primary_key()), high(item.primary_key());
  low.add(int64_t{1}).add(int64_t{65530});
  high.add(int64_t{1}).add(int64_t{65540});
  seen = 0;
  tx.scan_range(RecordBound{low}, RecordBound{high, false}, [&](RowRef) { return ++seen < 100; });
  EXPECT_EQ(seen, 10);
  seen = 0;
  tx.scan_range(std::nullopt, RecordBound{low, false}, [&](RowRef) { return ++seen < 5; });
  EXPECT_EQ(seen, 5);  // the callback stops the scan
  tx.commit();
}

TEST_F(ApiPublicRecordTest, ErrorsHaveTheirSqlState) {
  Transaction tx = connection_.begin();
  RecordTable item = tx.table("item");
  EXPECT_EQ(error_of([&] { item.column("nope"); }).sql_state(), "42703");
  EXPECT_EQ(error_of([&] { RecordKey(item.primary_key()).add("x"); }).sql_state(), "22P02");
  const Error duplicate = error_of([&] {
    tx.insert(item, {Value::integer(1), Value::integer(5), Value::text("dup"), Value::null(),
                     Value::null()});
  });
  EXPECT_EQ(duplicate.sql_state(), "23505");
  EXPECT_STREQ(duplicate.what(),
               "duplicate key value violates unique constraint \"item_pkey\"\n"
               "DETAIL:  Key (w, i)=(1, 5) already exists.");
  EXPECT_EQ(error_of([&] { tx.lookup(item.primary_key(), {Value::integer(1)}); }).sql_state(),
            "25P02");  // the block is aborted
  EXPECT_EQ(error_of([&] { tx.commit(); }).sql_state(), "25P02");
  EXPECT_EQ(sql_int("select count(*) from item where name = 'dup'"), 0);
  Transaction next = connection_.begin();
  EXPECT_EQ(error_of([&] { next.table("nope"); }).sql_state(), "42P01");
}

TEST_F(ApiPublicRecordTest, SnapshotsAndConflictsBetweenConnections) {
  Connection other(database_);
  Transaction reader = other.begin();
  RecordTable item = reader.table("item");
  RecordKey key(item.primary_key());
  const size_t name = item.column("name");
  ASSERT_TRUE(reader.lookup(key.clear().add(int64_t{1}).add(int64_t{7})));
  // Committed after the reader began: a key change and a value change.
  connection_.query("update item set i = -7 where w = 1 and i = 7");
  connection_.query("update item set name = 'changed' where w = 1 and i = 8");
  std::optional<RowRef> seven = reader.lookup(key.clear().add(int64_t{1}).add(int64_t{7}));
  ASSERT_TRUE(seven);
  EXPECT_EQ(reader.read(*seven, name).as_string(), "item 7");
  EXPECT_FALSE(reader.lookup(key.clear().add(int64_t{1}).add(int64_t{-7})));
  RowRef eight = *reader.lookup(key.clear().add(int64_t{1}).add(int64_t{8}));
  EXPECT_EQ(reader.read(eight, name).as_string(), "item 8");
  EXPECT_THROW(reader.update(eight, {{name, Value::text("mine")}}), SerializationFailure);
  reader.rollback();
  EXPECT_EQ(connection_.query("select name from item where w = 1 and i = 8").value(0, 0)
                .as_string(),
            "changed");
}

}  // namespace
