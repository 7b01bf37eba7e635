// Several connections on one database at once (issue 10; engine/api/statement_lock.h,
// storage/epoch_manager.h): read-only statements run beside each other and beside the writer,
// while writers, freezing and garbage collection take their turns, and every snapshot keeps
// its invariant.
// Also serializable validation of the record-level path's index reads (a write-skew).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <future>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine/api/database.h"
#include "engine/api/record_transaction.h"
#include "storage/epoch_manager.h"
#include "storage/error.h"

namespace floe {
namespace {

using namespace std::chrono_literals;

// Runs `statement` on a connection of its own in another thread.
std::future<void> run_async(Database& database, std::string statement) {
  return std::async(std::launch::async, [&database, statement] {
    Connection connection(database);
    connection.query(statement);
  });
}

TEST(TxnConcurrentTest, AWriterCommitsBesideALongReaderAndDdlWaits) {
  Database database;
  Connection connection(database);
  connection.query("create table c2_t (id integer primary key, v bigint)");
  connection.query("insert into c2_t select g, g from generate_series(1, 100) g");
  std::future<void> ddl;
  {
    TransactionScope scope = connection.begin();
    RecordTable table = scope.table("c2_t");
    const IndexBound one{{Value::integer(1)}, true};
    // The callback runs under the scan's statement lock, held shared: a reader that does not
    // end until the others below are done.
    scope.scan_range(table.primary_key(), one, one, [&](RowRef row) {
      // Another connection's query runs meanwhile.
      std::future<void> reader = run_async(database, "select sum(v) from c2_t");
      EXPECT_EQ(reader.wait_for(60s), std::future_status::ready);
      reader.get();
      // So does a writer, to its commit: the rows it updates move (their values must not
      // change under this reader).
      std::future<void> writer = run_async(database, "update c2_t set v = 0");
      EXPECT_EQ(writer.wait_for(60s), std::future_status::ready);
      writer.get();
      Connection other(database);
      EXPECT_EQ(other.query("select sum(v) from c2_t").value(0, 0).as_int64(), 0);
      // This reader's snapshot still sees the old row.
      EXPECT_EQ(scope.read(row, 1).as_int64(), 1);
      // DDL waits for the lock alone.
      ddl = run_async(database, "create index c2_t_v on c2_t (v)");
      EXPECT_EQ(ddl.wait_for(300ms), std::future_status::timeout);
      return false;
    });
    ddl.get();  // runs once the scan released the lock
    scope.commit();
  }
  EXPECT_EQ(connection.query("select sum(v), count(*) from c2_t where v = 0").value(0, 1).as_int64(),
            100);
}

// A write-skew through the record-level path: two transactions each read both rows through
// the index and clear a different one. Snapshot isolation commits both; serializable
// validation sees that the second one's index reads missed the first one's write.
bool both_commit_write_skew(const char* level) {
  Database database;
  Connection a(database), b(database);
  a.query("create table c2_oncall (doctor integer primary key, on_call boolean)");
  a.query("insert into c2_oncall values (1, true), (2, true)");
  for (Connection* connection : {&a, &b})
    connection->query(std::string("set default_transaction_isolation = '") + level + "'");
  TransactionScope first = a.begin();
  TransactionScope second = b.begin();
  auto on_call_count = [](TransactionScope& scope) {
    RecordTable table = scope.table("c2_oncall");
    int count = 0;
    scope.scan_range(table.primary_key(), std::nullopt, std::nullopt, [&](RowRef row) {
      count += scope.read(row, 1).as_bool() ? 1 : 0;
      return true;
    });
    return count;
  };
  auto leave = [](TransactionScope& scope, int doctor) {
    RecordTable table = scope.table("c2_oncall");
    std::optional<RowRef> row = scope.lookup(table.primary_key(), {Value::integer(doctor)});
    scope.update(*row, {{1, Value::boolean(false)}});
  };
  EXPECT_EQ(on_call_count(first), 2);
  EXPECT_EQ(on_call_count(second), 2);
  leave(first, 1);
  leave(second, 2);
  first.commit();
  try {
    second.commit();
  } catch (const SerializationFailure& failure) {
    EXPECT_STREQ(failure.what(), SerializationFailure::kReadWriteDependencies);
    return false;
  }
  return true;
}

TEST(TxnConcurrentTest, RecordPathWriteSkewCommitsUnderSnapshotIsolation) {
  EXPECT_TRUE(both_commit_write_skew("repeatable read"));
}

TEST(TxnConcurrentTest, RecordPathWriteSkewFailsUnderSerializable) {
  EXPECT_FALSE(both_commit_write_skew("serializable"));
}

// A point lookup logs its key: a write to another key does not fail validation.
TEST(TxnConcurrentTest, RecordPathLookupLogsOnlyItsKey) {
  Database database;
  Connection a(database), b(database);
  a.query("create table c2_kv (k integer primary key, v integer)");
  a.query("insert into c2_kv values (1, 1), (2, 2)");
  for (Connection* connection : {&a, &b})
    connection->query("set default_transaction_isolation = 'serializable'");
  TransactionScope reader = a.begin();
  RecordTable table = reader.table("c2_kv");
  std::optional<RowRef> one = reader.lookup(table.primary_key(), {Value::integer(1)});
  ASSERT_TRUE(one);
  reader.update(*one, {{1, Value::integer(10)}});
  b.query("update c2_kv set v = 20 where k = 2");  // a key the reader did not read
  EXPECT_NO_THROW(reader.commit());
}

// The stress test: 200,000 accounts over four chunks. Writers move money between accounts
// (SQL and the record path), insert and delete empty accounts, and a thread freezes the
// table, while readers sum every balance, each sum from one snapshot: it is always the total.
constexpr int64_t kAccounts = 200000;
constexpr int64_t kTotal = kAccounts * 10;

void transfer_sql(Connection& connection, std::mt19937& random) {
  std::uniform_int_distribution<int64_t> account(1, kAccounts);
  const int64_t from = account(random), to = account(random), amount = random() % 5 + 1;
  connection.query("begin");
  connection.query("update c2_bank set balance = balance - " + std::to_string(amount) +
                   " where id = " + std::to_string(from));
  connection.query("update c2_bank set balance = balance + " + std::to_string(amount) +
                   " where id = " + std::to_string(to));
  connection.query("commit");
}

void transfer_record(Connection& connection, std::mt19937& random) {
  std::uniform_int_distribution<int64_t> account(1, kAccounts);
  TransactionScope scope = connection.begin();
  RecordTable table = scope.table("c2_bank");
  const int64_t amount = random() % 5 + 1;
  for (int64_t sign : {-1, 1}) {
    std::optional<RowRef> row = scope.lookup(table.primary_key(), {Value::big_int(account(random))});
    const int64_t balance = scope.read(*row, 1).as_int64();
    scope.update(*row, {{1, Value::big_int(balance + sign * amount)}});
  }
  scope.commit();
}

void churn(Connection& connection, std::mt19937& random) {
  const int64_t id = kAccounts + 1 + static_cast<int64_t>(random() % 1000);
  connection.query("insert into c2_bank values (" + std::to_string(id) +
                   ", 0) on conflict (id) do nothing");
  connection.query("delete from c2_bank where id > " + std::to_string(kAccounts) +
                   " and id % 3 = " + std::to_string(random() % 3));
}

TEST(TxnConcurrentTest, SnapshotsKeepTheTotalWhileWritersAndFreezingRun) {
  Database database;
  {
    Connection setup(database);
    setup.query("set freeze_policy = 'never'");
    setup.query("create table c2_bank (id bigint primary key, balance bigint)");
    setup.query("insert into c2_bank select g, 10 from generate_series(1, " +
                std::to_string(kAccounts) + ") g");
  }
  std::atomic<bool> done{false};
  std::atomic<int> sums{0}, wrong{0}, committed{0}, retried{0};
  std::vector<std::thread> threads;
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      Connection connection(database);
      PreparedStatement total = connection.prepare("select sum(balance), count(*) from c2_bank");
      while (!done.load()) {
        Result result = r == 0 ? total.execute()
                               : connection.query("select sum(balance), count(*) from c2_bank");
        if (result.value(0, 0).as_int64() != kTotal || result.value(0, 1).as_int64() < kAccounts)
          ++wrong;
        ++sums;
      }
    });
  }
  auto writer = [&](unsigned seed, void (*transfer)(Connection&, std::mt19937&)) {
    return [&, seed, transfer] {
      Connection connection(database);
      std::mt19937 random(seed);
      for (int i = 0; i < 60; ++i) {
        try {
          transfer(connection, random);
          if (i % 4 == 0) churn(connection, random);
          ++committed;
        } catch (const SerializationFailure&) {
          if (connection.in_transaction_block()) connection.query("rollback");
          ++retried;
        }
      }
    };
  };
  std::vector<std::thread> writers;
  writers.emplace_back(writer(7, transfer_sql));
  writers.emplace_back(writer(11, transfer_record));
  writers.emplace_back([&] {
    Connection connection(database);
    for (int i = 0; i < 3; ++i) {
      std::this_thread::sleep_for(50ms);
      connection.query("vacuum freeze c2_bank");
    }
  });
  for (auto& thread : writers) thread.join();
  done.store(true);
  for (auto& thread : threads) thread.join();
  std::printf("%d sums read, %d transactions committed, %d retried after 40001\n", sums.load(),
              committed.load(), retried.load());
  EXPECT_GT(sums.load(), 0);
  EXPECT_EQ(wrong.load(), 0);
  Connection check(database);
  EXPECT_EQ(check.query("select sum(balance) from c2_bank").value(0, 0).as_int64(), kTotal);
  EXPECT_EQ(database.transactions().uncollected(), 0u);
  EXPECT_EQ(epochs().retired_count(), 0u);  // nothing pinned: all freed
}

}  // namespace
}  // namespace floe
