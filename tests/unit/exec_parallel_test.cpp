// Morsel-driven execution: queries over several chunks give the right rows at 1, 2 and 4
// workers. The expected rows are computed here from the generated input, not taken from
// another run; the 4-worker runs oversubscribe the cores (ExecutionOptions::oversubscribe),
// so that more workers than cores really share every pipeline and merge.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/api/database.h"
#include "storage/error.h"

namespace floe::testing {
namespace {

// Over two chunks (2^16 rows each), so that several morsels and workers share each pipeline.
constexpr int kFactRows = 150'000;
constexpr int kKeys = 5'003;
constexpr uint32_t kThreadCounts[] = {1, 2, 4};

// facts(id bigint, k integer, v bigint, s varchar(40), d numeric(12,2)): row `id` holds
struct Fact {
  int64_t id;
  int64_t k;
  int64_t v;
  std::string s;  // longer than 12 bytes: out of line, in the string heap
  int64_t cents;  // d * 100
};

Fact fact(int64_t id) {
  return {id, id % kKeys, (id * 7) % 1000, "customer-name-" + std::to_string(id % 97),
          (id * 13) % 100'000 - 50'000};
}

// dims(k integer, label varchar(40)): every other key, so half the facts find no partner.
bool has_dim(int64_t k) {
  return k % 2 == 0;
}
std::string label_of(int64_t k) {
  return "label-" + std::to_string(k % 50);
}

std::string cents_text(int64_t cents) {
  std::string sign = cents < 0 ? "-" : "";
  int64_t magnitude = cents < 0 ? -cents : cents;
  std::string fraction = std::to_string(magnitude % 100);
  return sign + std::to_string(magnitude / 100) + "." + (fraction.size() < 2 ? "0" : "") + fraction;
}

// A result row as rows() spells it: "v1|v2|...".
std::string row(std::initializer_list<std::string> values) {
  std::string line;
  for (const std::string& value : values) line += (&value == values.begin() ? "" : "|") + value;
  return line;
}

std::string text(int64_t value) {
  return std::to_string(value);
}

using Rows = std::vector<std::string>;

class ExecParallelTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    database_ = new Database();
    Connection connection(*database_);
    connection.query(
        "create table facts (id bigint, k integer, v bigint, s varchar(40), d numeric(12,2));"
        "create table dims (k integer, label varchar(40))");
    // Per process: ctest runs the tests of this suite in parallel processes.
    std::string path =
        ::testing::TempDir() + "exec_parallel_facts_" + std::to_string(getpid()) + ".csv";
    {
      std::ofstream out(path);
      for (int64_t id = 0; id < kFactRows; ++id) {
        Fact f = fact(id);
        out << f.id << ',' << f.k << ',' << f.v << ',' << f.s << ',' << cents_text(f.cents) << '\n';
      }
    }
    connection.query("copy facts from '" + path + "' with (delimiter ',')");
    std::remove(path.c_str());
    std::string dims = "insert into dims values ";
    for (int64_t k = 0; k < kKeys; ++k)
      if (has_dim(k)) dims += (k ? ", (" : "(") + text(k) + ", '" + label_of(k) + "')";
    connection.query(dims);
  }
  static void TearDownTestSuite() {
    delete database_;
    database_ = nullptr;
  }

  // The rows of `sql` run on `threads` workers, as "v1|v2|..." lines; sorted unless
  // `ordered`. Checks that the query really ran on that many workers.
  static Rows rows(const std::string& sql, uint32_t threads, bool ordered) {
    Connection connection(*database_);
    connection.options().threads = threads;
    connection.options().oversubscribe = true;
    Result result = connection.query(sql);
    EXPECT_EQ(result.workers(), threads) << sql;
    Rows lines;
    for (size_t r = 0; r < result.row_count(); ++r) {
      std::string line;
      for (size_t c = 0; c < result.column_count(); ++c)
        line += (c ? "|" : "") + result.value(r, c).to_string();
      lines.push_back(line);
    }
    if (!ordered) std::sort(lines.begin(), lines.end());
    return lines;
  }

  // `sql` gives `expected` (in this order when `ordered`) at every thread count.
  static void expect_rows(const std::string& sql, Rows expected, bool ordered) {
    if (!ordered) std::sort(expected.begin(), expected.end());
    for (uint32_t threads : kThreadCounts)
      EXPECT_EQ(rows(sql, threads, ordered), expected) << sql << " at " << threads << " threads";
  }

  static std::string error_of(const std::string& sql, uint32_t threads) {
    Connection connection(*database_);
    connection.options().threads = threads;
    connection.options().oversubscribe = true;
    try {
      connection.query(sql);
    } catch (const Error& error) {
      return error.what();
    }
    return "no error";
  }

  static Database* database_;
};

Database* ExecParallelTest::database_ = nullptr;

TEST_F(ExecParallelTest, AggregatesManyGroups) {
  struct Group {
    int64_t count = 0, sum_v = 0, max_v = -1, sum_cents = 0;
    std::string min_s;
  };
  std::map<int64_t, Group> groups;
  for (int64_t id = 0; id < kFactRows; ++id) {
    Fact f = fact(id);
    Group& g = groups[f.k];
    if (g.count == 0 || f.s < g.min_s) g.min_s = f.s;
    ++g.count;
    g.sum_v += f.v;
    g.max_v = std::max(g.max_v, f.v);
    g.sum_cents += f.cents;
  }
  Rows expected;
  for (const auto& [k, g] : groups) {
    expected.push_back(row({text(k), text(g.count), text(g.sum_v), g.min_s, text(g.max_v),
                            g.min_s + "!", cents_text(g.sum_cents)}));
  }
  ASSERT_EQ(expected.size(), static_cast<size_t>(kKeys));
  expect_rows(
      "select k, count(*), sum(v), min(s), max(v), min(s || '!'), sum(d) from facts group by k",
      expected, false);
}

TEST_F(ExecParallelTest, JoinsAndAggregates) {
  struct Group {
    int64_t count = 0, sum_v = 0, max_id = -1;
  };
  std::map<std::string, Group> by_label;  // ordered like ORDER BY label (bytewise)
  Rows matches;
  for (int64_t id = 0; id < kFactRows; ++id) {
    Fact f = fact(id);
    if (!has_dim(f.k)) continue;
    Group& g = by_label[label_of(f.k)];
    ++g.count;
    g.sum_v += f.v;
    g.max_id = std::max(g.max_id, f.id);
    if (id % 1000 == 4) matches.push_back(row({text(id), label_of(f.k)}));
  }
  Rows expected;
  for (const auto& [label, g] : by_label)
    expected.push_back(row({label, text(g.count), text(g.sum_v), text(g.max_id)}));
  ASSERT_EQ(expected.size(), 25u);  // even keys only: even labels
  expect_rows(
      "select d.label, count(*), sum(f.v), max(f.id) from facts f join dims d on f.k = d.k"
      " group by d.label order by d.label",
      expected, true);
  ASSERT_FALSE(matches.empty());
  expect_rows("select f.id, d.label from facts f join dims d on f.k = d.k where f.id % 1000 = 4",
              matches, false);
}

TEST_F(ExecParallelTest, SortsWithLimit) {
  std::vector<Fact> facts;
  for (int64_t id = 0; id < kFactRows; ++id) facts.push_back(fact(id));
  std::sort(facts.begin(), facts.end(),
            [](const Fact& a, const Fact& b) { return a.v != b.v ? a.v > b.v : a.id < b.id; });
  Rows top;
  for (size_t i = 3; i < 28; ++i)
    top.push_back(row({text(facts[i].id), text(facts[i].v), facts[i].s}));
  expect_rows("select id, v, s from facts order by v desc, id limit 25 offset 3", top, true);
  // Large enough to be sorted in parallel runs and merged.
  std::sort(facts.begin(), facts.end(),
            [](const Fact& a, const Fact& b) { return a.s != b.s ? a.s < b.s : a.id < b.id; });
  Rows all;
  for (const Fact& f : facts) all.push_back(row({f.s, text(f.id)}));
  expect_rows("select s, id from facts order by s, id", all, true);
}

TEST_F(ExecParallelTest, GlobalAggregates) {
  int64_t sum_v = 0, min_v = 1000, sum_cents = 0;
  std::string max_s;
  std::set<int64_t> keys;
  for (int64_t id = 0; id < kFactRows; ++id) {
    Fact f = fact(id);
    sum_v += f.v;
    min_v = std::min(min_v, f.v);
    sum_cents += f.cents;
    max_s = std::max(max_s, f.s);
    keys.insert(f.k);
  }
  expect_rows(
      "select count(*), sum(v), min(id), max(s), min(v), count(distinct k), sum(d) from facts",
      {row({text(kFactRows), text(sum_v), text(0), max_s, text(min_v),
            text(static_cast<int64_t>(keys.size())), cents_text(sum_cents)})},
      true);
  // No row qualifies: still exactly one group.
  expect_rows("select count(*), max(v) from facts where v < 0", {"0|NULL"}, true);
}

TEST_F(ExecParallelTest, LimitWithoutOrderStopsEarly) {
  for (uint32_t threads : kThreadCounts) {
    Rows ids = rows("select id, v from facts where v > 10 limit 7", threads, false);
    EXPECT_EQ(ids.size(), 7u) << threads;
    for (const std::string& line : ids) {  // any 7 distinct qualifying rows
      int64_t id = std::stoll(line.substr(0, line.find('|')));
      EXPECT_EQ(line, row({text(id), text(fact(id).v)}));
      EXPECT_GT(fact(id).v, 10);
    }
    EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());
  }
}

TEST_F(ExecParallelTest, RuntimeErrorAtEveryThreadCount) {
  for (uint32_t threads : kThreadCounts) {
    EXPECT_EQ(error_of("select sum(100 / (v - 500)) from facts", threads), "division by zero");
    EXPECT_EQ(error_of("select id / (id - 140000) from facts", threads), "division by zero");
  }
}

}  // namespace
}  // namespace floe::testing
