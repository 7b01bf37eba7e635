// A prepared statement of a single-pipeline plan keeps its run's context and state between
// executions and restarts them (engine/exec/query_run.h). These tests run such statements
// many times, with results checked against what the data holds at each run: other keys,
// misses, NULL parameters, LIMIT counters, computed strings, sequential scans over several
// chunks, after errors and rollbacks, each run in its own snapshot while other connections
// change the rows it reads (also from other threads at once).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "engine/api/record_transaction.h"
#include "tests/unit/sql_test_helpers.h"

namespace floe {
namespace {

using Rows = std::vector<std::string>;

constexpr int64_t kRows = 200000;  // four chunks of 2^16 rows

class PreparedRunReuseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    connection_.query(
        "create table reuse_kv (k bigint primary key, v bigint, s text);"
        "insert into reuse_kv select g, g * 2, 'value number ' || g from generate_series(1, " +
        std::to_string(kRows) + ") g");
  }
  static Rows rows(const Result& result) { return testing::result_lines(result); }
  static std::string row(int64_t k, int64_t v) {
    return std::to_string(v) + "|value number " + std::to_string(k);
  }

  Database database_;
  Connection connection_{database_};
};

// Keys in every chunk, misses and NULL, in one sequence of runs; every result stays valid
// after the later runs.
TEST_F(PreparedRunReuseTest, KeysMissesAndNulls) {
  PreparedStatement lookup = connection_.prepare("select v, s from reuse_kv where k = $1");
  std::vector<Result> results;
  std::vector<int64_t> keys;
  for (int64_t k = 1; k <= kRows + 3000; k += 2999) {
    keys.push_back(k);
    results.push_back(lookup.execute({Value::big_int(k)}));
    EXPECT_EQ(lookup.execute({Value()}).row_count(), 0u);
    EXPECT_EQ(lookup.execute({Value::big_int(-k)}).row_count(), 0u);
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] > kRows) {
      EXPECT_EQ(results[i].row_count(), 0u) << keys[i];
    } else {
      EXPECT_EQ(rows(results[i]), (Rows{row(keys[i], keys[i] * 2)})) << keys[i];
    }
  }
}

// LIMIT's counter, strings computed from a parameter, and a parameterized filter of a
// sequential scan (no index, every chunk) start afresh at every run.
TEST_F(PreparedRunReuseTest, CountersStringsAndSequentialScans) {
  PreparedStatement limited =
      connection_.prepare("select k from reuse_kv where k between $1 and $1 + 100 limit 3");
  PreparedStatement computed = connection_.prepare(
      "select s || $2 || ' and a tail long enough for the heap' from reuse_kv where k = $1");
  PreparedStatement scan = connection_.prepare("select k from reuse_kv where v = $1 or v = $2");
  for (int64_t k = 10; k < kRows; k += 37003) {
    EXPECT_EQ(rows(limited.execute({Value::big_int(k)})).size(), 3u) << k;
    const std::string suffix = " #" + std::to_string(k);
    EXPECT_EQ(rows(computed.execute({Value::big_int(k), Value::string(suffix)})),
              (Rows{"value number " + std::to_string(k) + suffix +
                    " and a tail long enough for the heap"}));
    Rows found = rows(scan.execute({Value::big_int(2 * k), Value::big_int(2 * (kRows - k))}));
    std::sort(found.begin(), found.end());
    Rows expected{std::to_string(k), std::to_string(kRows - k)};
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(found, expected) << k;
  }
  Rows last = rows(limited.execute({Value::big_int(kRows - 1)}));
  std::sort(last.begin(), last.end());
  EXPECT_EQ(last, (Rows{"199999", "200000"}));
  EXPECT_EQ(limited.execute({Value()}).row_count(), 0u);
}

// Runs after a runtime error, after a rolled-back change of the row, and after DDL (prepared
// again) see the data as it is.
TEST_F(PreparedRunReuseTest, AfterErrorsRollbacksAndDdl) {
  PreparedStatement lookup = connection_.prepare("select v / $2, s from reuse_kv where k = $1");
  EXPECT_EQ(rows(lookup.execute({Value::big_int(70000), Value::big_int(2)})),
            (Rows{row(70000, 70000)}));
  EXPECT_THROW(lookup.execute({Value::big_int(70001), Value::big_int(0)}), Error);
  EXPECT_EQ(rows(lookup.execute({Value::big_int(70001), Value::big_int(1)})),
            (Rows{row(70001, 140002)}));
  connection_.query("begin; update reuse_kv set v = 0, s = 'gone' where k = 70001");
  EXPECT_EQ(rows(lookup.execute({Value::big_int(70001), Value::big_int(1)})), (Rows{"0|gone"}));
  connection_.query("rollback");
  EXPECT_EQ(rows(lookup.execute({Value::big_int(70001), Value::big_int(1)})),
            (Rows{row(70001, 140002)}));
  connection_.query("delete from reuse_kv where k = 70001");
  EXPECT_EQ(lookup.execute({Value::big_int(70001), Value::big_int(1)}).row_count(), 0u);
  connection_.query("insert into reuse_kv values (70001, 5, 'back')");
  EXPECT_EQ(rows(lookup.execute({Value::big_int(70001), Value::big_int(1)})), (Rows{"5|back"}));
  connection_.query("alter table reuse_kv add column w int default 1");
  EXPECT_EQ(rows(lookup.execute({Value::big_int(3), Value::big_int(3)})), (Rows{row(3, 2)}));
}

// Each run reads its own statement's snapshot: another connection's committed updates of the
// looked-up rows show at the next run outside a block, and not inside a block that started
// before them (snapshot isolation), until it ends.
TEST_F(PreparedRunReuseTest, EachRunReadsItsSnapshot) {
  Connection other(database_);
  PreparedStatement lookup = connection_.prepare("select v, s from reuse_kv where k = $1");
  for (int64_t round = 1; round <= 5; ++round) {
    const int64_t k = round * 40000;
    other.query("update reuse_kv set v = " + std::to_string(-round) + " where k = " +
                std::to_string(k));
    EXPECT_EQ(rows(lookup.execute({Value::big_int(k)})), (Rows{row(k, -round)}));
  }
  connection_.query("begin");
  EXPECT_EQ(rows(lookup.execute({Value::big_int(40000)})), (Rows{row(40000, -1)}));
  other.query("update reuse_kv set v = 99 where k in (40000, 40001)");
  other.query("delete from reuse_kv where k = 40002");
  EXPECT_EQ(rows(lookup.execute({Value::big_int(40000)})), (Rows{row(40000, -1)}));
  EXPECT_EQ(rows(lookup.execute({Value::big_int(40001)})), (Rows{row(40001, 80002)}));
  EXPECT_EQ(rows(lookup.execute({Value::big_int(40002)})), (Rows{row(40002, 80004)}));
  connection_.query("commit");
  EXPECT_EQ(rows(lookup.execute({Value::big_int(40001)})), (Rows{row(40001, 99)}));
  EXPECT_EQ(lookup.execute({Value::big_int(40002)}).row_count(), 0u);
}

// Two connections' prepared lookups of the same text run at once (they share the statement
// lock) while a third connection moves value between two rows: every lookup pair in one
// block sees the sum unchanged, and every single lookup a row that exists.
TEST_F(PreparedRunReuseTest, ConcurrentConnectionsWithWriter) {
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  auto reader = [&](int64_t first, int64_t second) {
    Connection connection(database_);
    PreparedStatement lookup = connection.prepare("select v from reuse_kv where k = $1");
    for (int i = 0; i < 300; ++i) {
      TransactionScope block = connection.begin();
      Result a = lookup.execute({Value::big_int(first)});
      Result b = lookup.execute({Value::big_int(second)});
      block.commit();
      if (a.row_count() != 1 || b.row_count() != 1 ||
          a.value(0, 0).as_int64() + b.value(0, 0).as_int64() != 2 * (first + second))
        ++failures;
    }
  };
  std::thread writer([&] {
    Connection connection(database_);
    PreparedStatement move = connection.prepare("update reuse_kv set v = v + $2 where k = $1");
    for (int64_t i = 0; !stop.load(); ++i) {
      TransactionScope block = connection.begin();
      block.query("update reuse_kv set v = v - 1 where k = 1000");
      move.execute({Value::big_int(150000), Value::big_int(1)});
      block.commit();
    }
  });
  std::thread first(reader, 1000, 150000);
  std::thread second(reader, 150000, 1000);
  first.join();
  second.join();
  stop = true;
  writer.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(rows(connection_.query("select sum(v) from reuse_kv where k in (1000, 150000)")),
            (Rows{std::to_string(2 * 151000)}));
}

}  // namespace
}  // namespace floe
