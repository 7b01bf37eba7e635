// The bank-transfer invariant under concurrency (engine/txn/): several threads, each with its
// own Connection, move money between random accounts in transactions (retrying
// SerializationFailure, SQLSTATE 40001), under snapshot isolation and serializable, while
// another thread sums the balances: every sum it reads, each from one snapshot, is the total.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine/api/database.h"
#include "storage/error.h"

namespace floe {
namespace {

constexpr int kAccounts = 20;
constexpr int64_t kInitialBalance = 1000;
constexpr int kWriters = 3;
constexpr int kTransfersPerWriter = 100;

struct Counters {
  std::atomic<int> committed{0};
  std::atomic<int> retried{0};
};

// A writer's connection and its statements, prepared once (planned and compiled once).
struct Teller {
  explicit Teller(Database& database)
      : connection(database),
        balance(connection.prepare("select balance from bank where id = $1")),
        withdraw(connection.prepare("update bank set balance = balance - $2 where id = $1")),
        deposit(connection.prepare("update bank set balance = balance + $2 where id = $1")) {}

  // One transfer of `amount` from `from` to `to` if `from` has it; false on a serialization
  // failure (the transaction is rolled back then).
  bool try_transfer(const std::string& begin, int from, int to, int amount) {
    try {
      connection.query(begin);
      if (balance.execute({Value::integer(from)}).value(0, 0).as_int64() >= amount) {
        withdraw.execute({Value::integer(from), Value::integer(amount)});
        deposit.execute({Value::integer(to), Value::integer(amount)});
      }
      connection.query("commit");
      return true;
    } catch (const SerializationFailure&) {
      if (connection.in_transaction_block()) connection.query("rollback");
      return false;
    }
  }

  Connection connection;
  PreparedStatement balance, withdraw, deposit;
};

void run_writer(Database& database, const char* level, unsigned seed, Counters& counters) {
  Teller teller(database);
  const std::string begin = std::string("begin isolation level ") + level;
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> account(1, kAccounts);
  std::uniform_int_distribution<int> amount(1, 300);
  for (int t = 0; t < kTransfersPerWriter; ++t) {
    const int from = account(random);
    int to = account(random);
    if (to == from) to = from % kAccounts + 1;
    const int money = amount(random);
    while (!teller.try_transfer(begin, from, to, money)) ++counters.retried;
    ++counters.committed;
  }
}

void check_invariant_under(const char* level) {
  Database database;
  {
    Connection setup(database);
    setup.query("create table bank (id integer primary key, balance bigint check (balance >= 0))");
    setup.query("insert into bank select g, " + std::to_string(kInitialBalance) +
                " from generate_series(1, " + std::to_string(kAccounts) + ") g");
  }
  Counters counters;
  std::atomic<bool> done{false};
  std::atomic<int> sums{0};
  std::atomic<int> wrong_sums{0};
  std::thread auditor([&] {
    Connection connection(database);
    PreparedStatement total = connection.prepare("select sum(balance) from bank");
    PreparedStatement part = connection.prepare("select sum(balance) from bank where id > $1");
    while (!done.load()) {
      // Two reads in one transaction: both see its snapshot.
      connection.query("begin");
      const int64_t sum = total.execute().value(0, 0).as_int64();
      const int64_t again = part.execute({Value::integer(0)}).value(0, 0).as_int64();
      connection.query("commit");
      if (sum != kAccounts * kInitialBalance || again != sum) ++wrong_sums;
      ++sums;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));  // let the writers in
    }
  });
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w)
    writers.emplace_back(run_writer, std::ref(database), level, 17u + w, std::ref(counters));
  for (auto& writer : writers) writer.join();
  done.store(true);
  auditor.join();

  EXPECT_EQ(counters.committed.load(), kWriters * kTransfersPerWriter);
  std::printf("%s: %d transfers committed, %d retried after 40001, %d sums read\n", level,
              counters.committed.load(), counters.retried.load(), sums.load());
  EXPECT_GT(sums.load(), 0);
  EXPECT_EQ(wrong_sums.load(), 0);
  Connection check(database);
  Result result = check.query("select sum(balance), min(balance), count(*) from bank");
  EXPECT_EQ(result.value(0, 0).as_int64(), kAccounts * kInitialBalance);
  EXPECT_GE(result.value(0, 1).as_int64(), 0);
  EXPECT_EQ(result.value(0, 2).as_int64(), kAccounts);
  // Nothing is left for a running transaction: every undo buffer was collected.
  EXPECT_EQ(database.transactions().uncollected(), 0u);
}

TEST(TxnBankTransferTest, SumNeverChangesUnderSnapshotIsolation) {
  check_invariant_under("repeatable read");
}

TEST(TxnBankTransferTest, SumNeverChangesUnderSerializable) {
  check_invariant_under("serializable");
}

}  // namespace
}  // namespace floe
