// Readers beside a writer (issue 10: "Analytical queries read a consistent snapshot while
// transactions commit beside them"). One writer changes a table of three chunks, the first
// frozen: updates in place (or moved, while readers run), updates of frozen rows and of the
// key, inserts, deletes, rollbacks of whole transactions and of failed statements. Meanwhile
// readers check the invariants of their snapshots through full scans (SQL, and the record
// path through the primary key) and index lookups: the balances always sum to the total and
// every account is found exactly once.
#include <gtest/gtest.h>

#include <atomic>
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

constexpr int64_t kAccounts = 150000;  // three chunks
constexpr int64_t kTotal = kAccounts * 10;
constexpr int64_t kMovedKey = 10000000;  // accounts whose key an update moved lie above

std::string text(int64_t value) { return std::to_string(value); }

// One writer transaction of several kinds; each keeps the sum of the balances and the
// accounts 1 .. kAccounts (possibly under a moved key).
void write_once(Connection& connection, std::mt19937_64& random, int step) {
  std::uniform_int_distribution<int64_t> account(1, kAccounts);
  const int64_t from = account(random), to = account(random), amount = random() % 5 + 1;
  const std::string move = "update c3_bank set balance = balance - " + text(amount) +
                           " where id = " + text(from) + "; update c3_bank set balance = " +
                           "balance + " + text(amount) + " where id = " + text(to) + ";";
  switch (step % 5) {
    case 0:  // a transfer
      connection.query("begin; " + move + " commit");
      break;
    case 1:  // a transfer rolled back
      connection.query("begin; " + move + " rollback");
      break;
    case 2:  // a failed statement: a duplicate key after rows of its own were appended
      connection.query("begin; " + move);
      try {
        connection.query("insert into c3_bank values (" + text(kAccounts + 1) + ", 0), (" +
                         text(from) + ", 0)");
        ADD_FAILURE() << "no unique violation";
      } catch (const Error&) {
      }
      connection.query("rollback");
      break;
    case 3:  // money parked in a new account, which is deleted again after a transfer
      connection.query("begin; update c3_bank set balance = balance - " + text(amount) +
                       " where id = " + text(from) + "; insert into c3_bank values (" +
                       text(kAccounts + 1 + step) + ", " + text(amount) + "); commit");
      connection.query("begin; update c3_bank set balance = balance + " + text(amount) +
                       " where id = " + text(to) + "; delete from c3_bank where id = " +
                       text(kAccounts + 1 + step) + "; commit");
      break;
    case 4:  // a key update moves the row (and back): the index keeps the old key for
             // older snapshots
      connection.query("update c3_bank set id = id + " + text(kMovedKey) +
                       " where id = " + text(from));
      connection.query("update c3_bank set id = id - " + text(kMovedKey) +
                       " where id = " + text(from + kMovedKey));
      break;
  }
}

TEST(TxnReadersBesideWriterTest, SnapshotsStayConsistentWhileOneWriterChangesEveryKindOfRow) {
  Database database;
  {
    Connection setup(database);
    setup.query("set freeze_policy = 'never'");
    setup.query("create table c3_bank (id bigint primary key, balance bigint not null)");
    setup.query("insert into c3_bank select g, 10 from generate_series(1, " + text(kAccounts) +
                ") g");
    setup.query("vacuum freeze c3_bank");  // every chunk frozen, the last one too
    setup.query("update c3_bank set balance = balance + 0 where id > " + text(2 * 65536));
  }
  std::atomic<bool> done{false};
  std::atomic<int> checks{0}, wrong{0};
  std::vector<std::thread> readers;
  readers.emplace_back([&] {  // SQL: full scans and index lookups
    Connection connection(database);
    PreparedStatement lookup = connection.prepare("select count(*) from c3_bank where id = $1");
    std::mt19937_64 random(1);
    while (!done.load()) {
      Result sums = connection.query("select sum(balance), sum(case when id <= " +
                                     text(kAccounts) + " or id > " + text(kMovedKey) +
                                     " then 1 else 0 end) from c3_bank");
      if (sums.value(0, 0).as_int64() != kTotal || sums.value(0, 1).as_int64() != kAccounts)
        ++wrong;
      const int64_t id = 1 + static_cast<int64_t>(random() % kAccounts);
      Result found = connection.query("select count(*) from c3_bank where id in (" + text(id) +
                                      ", " + text(id + kMovedKey) + ")");
      if (found.value(0, 0).as_int64() != 1) ++wrong;
      if (lookup.execute({Value::big_int(kAccounts + 1)}).value(0, 0).as_int64() > 1) ++wrong;
      ++checks;
    }
  });
  readers.emplace_back([&] {  // the record path: a scan of the primary key, and lookups
    Connection connection(database);
    std::mt19937_64 random(2);
    while (!done.load()) {
      TransactionScope scope = connection.begin();
      RecordTable table = scope.table("c3_bank");
      int64_t sum = 0, accounts = 0;
      scope.scan_range(table.primary_key(), std::nullopt, std::nullopt, [&](RowRef row) {
        sum += scope.read(row, 1).as_int64();
        const int64_t id = scope.read(row, 0).as_int64();
        if (id <= kAccounts || id > kMovedKey) ++accounts;
        return true;
      });
      if (sum != kTotal || accounts != kAccounts) ++wrong;
      for (int probe = 0; probe < 20; ++probe) {
        const int64_t id = 1 + static_cast<int64_t>(random() % kAccounts);
        const bool here = scope.lookup(table.primary_key(), {Value::big_int(id)}).has_value();
        const bool moved =
            scope.lookup(table.primary_key(), {Value::big_int(id + kMovedKey)}).has_value();
        if (here == moved) ++wrong;
      }
      scope.commit();
      ++checks;
    }
  });
  {
    Connection writer(database);
    std::mt19937_64 random(3);
    for (int step = 0; step < 100; ++step) write_once(writer, random, step);
  }
  done.store(true);
  for (std::thread& reader : readers) reader.join();
  EXPECT_GT(checks.load(), 0);
  EXPECT_EQ(wrong.load(), 0);
  Connection check(database);
  EXPECT_EQ(check.query("select sum(balance), count(*) from c3_bank").value(0, 0).as_int64(),
            kTotal);
  EXPECT_EQ(check.query("select count(*) from c3_bank").value(0, 0).as_int64(), kAccounts);
  EXPECT_EQ(database.transactions().uncollected(), 0u);
  EXPECT_EQ(epochs().retired_count(), 0u);  // nothing pinned: all freed
}

}  // namespace
}  // namespace floe
