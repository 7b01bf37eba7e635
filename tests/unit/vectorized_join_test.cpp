// The vectorized hash join (engine/vector/join_operators.h) through the Database API: every
// join kind on every join table (chaining, CHT, CAT), over a probe table of three chunks,
// with duplicate keys, NULL keys, and probe chunks whose matches fill several output chunks,
// on 2 workers and several vector sizes. Expected rows are computed here from the generated
// input; a random differential test then compares random joins with the compiled engine,
// under every join table and every chunk compaction (SET compaction).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine/api/database.h"
#include "storage/error.h"
#include "tests/unit/result_lines.h"

namespace floe::testing {
namespace {

// jp(id bigint, k integer, s text): three chunks (2^16 rows each, the last partly filled);
// k = id % 5000, NULL for every 11th id; s = 's' || (id % 5000) for even ids, NULL for odd.
constexpr int64_t kProbeRows = 150'000;
// jb(k integer, v integer): k = n % 4000 (each key 5 times: 20,000 rows), NULL for every
// 13th n, v = n; then 3,000 rows with k = 4999 (v = 100000 + n): a probe row of key 4999
// has 3,000 matches.
constexpr int64_t kBuildRows = 20'000;
constexpr int64_t kHotRows = 3'000;
constexpr int64_t kHotKey = 4'999;
constexpr uint32_t kVectorSizes[] = {100, 2048};
const char* const kJoinTables[] = {"chaining", "cht", "cat"};
const char* const kCompactions[] = {"none", "full", "binary", "learned", "logical", "smart"};

bool probe_null(int64_t id) {
  return id % 11 == 0;
}
int64_t probe_key(int64_t id) {
  return id % 5000;
}
bool build_null(int64_t n) {
  return n < kBuildRows && n % 13 == 0;
}
int64_t build_key(int64_t n) {
  return n < kBuildRows ? n % 4000 : kHotKey;
}
int64_t build_value(int64_t n) {
  return n < kBuildRows ? n : 100'000 + n;
}

using Lines = std::vector<std::string>;

// The v of the build rows of key `key` (NULL keys match nothing).
const std::vector<int64_t>& build_values(int64_t key) {
  static const std::map<int64_t, std::vector<int64_t>> by_key = [] {
    std::map<int64_t, std::vector<int64_t>> map;
    for (int64_t n = 0; n < kBuildRows + kHotRows; ++n)
      if (!build_null(n)) map[build_key(n)].push_back(build_value(n));
    return map;
  }();
  static const std::vector<int64_t> none;
  auto found = by_key.find(key);
  return found == by_key.end() ? none : found->second;
}

class VectorizedJoinTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    database_ = new Database();
    Connection connection(*database_);
    connection.query(
        "set freeze_policy = 'never';"
        "create table jp (id bigint not null, k integer, s text);"
        "insert into jp select n, case when n % 11 = 0 then null else n % 5000 end, "
        "case when n % 2 = 0 then 's' || cast(n % 5000 as text) end "
        "from generate_series(0, " +
        std::to_string(kProbeRows - 1) +
        ") as g(n);"
        "create table jb (k integer, v integer);"
        "insert into jb select case when n % 13 = 0 then null else n % 4000 end, n "
        "from generate_series(0, " +
        std::to_string(kBuildRows - 1) +
        ") as g(n);"
        "insert into jb select " +
        std::to_string(kHotKey) + ", 100000 + n from generate_series(" +
        std::to_string(kBuildRows) + ", " + std::to_string(kBuildRows + kHotRows - 1) +
        ") as g(n)");
  }
  static void TearDownTestSuite() {
    delete database_;
    database_ = nullptr;
  }

  // `sql` gives `expected` (any order) vectorized on 2 workers, under every join table and
  // vector size.
  static void expect_rows(const std::string& sql, Lines expected) {
    std::sort(expected.begin(), expected.end());
    for (const char* join_table : kJoinTables) {
      for (uint32_t vector_size : kVectorSizes) {
        Connection connection(*database_);
        connection.options().threads = 2;
        connection.options().oversubscribe = true;
        connection.query("set execution_mode = 'vectorized'; set join_table = '" +
                         std::string(join_table) + "'");
        connection.options().scan.vector_size = vector_size;
        Result result = connection.query(sql);
        EXPECT_EQ(result.workers(), 2u);
        ASSERT_EQ(sorted_lines(result), expected)
            << sql << " with join_table " << join_table << ", vector size " << vector_size;
      }
    }
  }

  static Database* database_;
};

Database* VectorizedJoinTest::database_ = nullptr;

// The probe rows of the tests: ids with id % 97 = 5 (about 1,550 rows of every chunk).
bool sampled(int64_t id) {
  return id % 97 == 5;
}

const std::vector<int64_t>& matches_of(int64_t id) {
  static const std::vector<int64_t> none;
  return probe_null(id) ? none : build_values(probe_key(id));
}

TEST_F(VectorizedJoinTest, InnerJoinPairsEveryMatchingRow) {
  Lines expected;
  for (int64_t id = 0; id < kProbeRows; ++id) {
    if (!sampled(id)) continue;
    for (int64_t v : matches_of(id))
      expected.push_back(std::to_string(id) + "|" + std::to_string(v));
  }
  ASSERT_GT(expected.size(), 5'000u);
  expect_rows("select jp.id, jb.v from jp join jb on jp.k = jb.k where jp.id % 97 = 5", expected);
}

TEST_F(VectorizedJoinTest, ManyMatchesOfOneProbeChunkFillSeveralOutputChunks) {
  // Every probe row of key 4999 has 3,000 matches: 30 probe rows, 90,000 pairs.
  Lines expected;
  for (int64_t id = 0; id < kProbeRows; ++id) {
    if (probe_null(id) || probe_key(id) != kHotKey) continue;
    for (int64_t v : matches_of(id))
      expected.push_back(std::to_string(id) + "|" + std::to_string(v));
  }
  ASSERT_EQ(expected.size(), 27u * kHotRows);  // 30 ids, 3 of them multiples of 11
  expect_rows("select jp.id, jb.v from jp join jb on jp.k = jb.k where jp.k = 4999", expected);
}

TEST_F(VectorizedJoinTest, LeftJoinKeepsUnmatchedAndNullKeyProbeRows) {
  Lines expected;
  for (int64_t id = 0; id < kProbeRows; ++id) {
    if (!sampled(id)) continue;
    const auto& matches = matches_of(id);
    if (matches.empty()) expected.push_back(std::to_string(id) + "|NULL");
    for (int64_t v : matches) expected.push_back(std::to_string(id) + "|" + std::to_string(v));
  }
  expect_rows("select jp.id, jb.v from jp left join jb on jp.k = jb.k where jp.id % 97 = 5",
              expected);
}

TEST_F(VectorizedJoinTest, RightAndFullJoinsAddUnmatchedBuildRows) {
  // Probe: the sampled ids (keys 5, 102, ...), build: all of jb, NULL keys included.
  std::map<int64_t, std::vector<int64_t>> probe_by_key;
  Lines matched, probe_only;
  for (int64_t id = 0; id < kProbeRows; ++id) {
    if (!sampled(id)) continue;
    if (!probe_null(id)) probe_by_key[probe_key(id)].push_back(id);
    if (matches_of(id).empty()) probe_only.push_back(std::to_string(id) + "|NULL");
  }
  Lines right;
  for (int64_t n = 0; n < kBuildRows + kHotRows; ++n) {
    const std::string v = std::to_string(build_value(n));
    auto found = build_null(n) ? probe_by_key.end() : probe_by_key.find(build_key(n));
    if (found == probe_by_key.end()) {
      right.push_back("NULL|" + v);
      continue;
    }
    for (int64_t id : found->second) right.push_back(std::to_string(id) + "|" + v);
  }
  const std::string probe = "(select * from jp where id % 97 = 5) p";
  expect_rows("select p.id, jb.v from " + probe + " right join jb on p.k = jb.k", right);
  Lines full = right;
  full.insert(full.end(), probe_only.begin(), probe_only.end());
  expect_rows("select p.id, jb.v from " + probe + " full join jb on p.k = jb.k", full);
}

TEST_F(VectorizedJoinTest, SemiAntiAndNotInJoins) {
  Lines semi, anti, not_in;
  for (int64_t id = 0; id < kProbeRows; ++id) {
    if (!sampled(id)) continue;
    const std::string line = std::to_string(id);
    (matches_of(id).empty() ? anti : semi).push_back(line);
    // NOT IN over the build keys without NULLs: a NULL probe key is unknown (dropped).
    if (!probe_null(id) && matches_of(id).empty()) not_in.push_back(line);
  }
  expect_rows("select id from jp where id % 97 = 5 and exists (select 1 from jb where jb.k = jp.k)",
              semi);
  expect_rows(
      "select id from jp where id % 97 = 5 and not exists (select 1 from jb where jb.k = jp.k)",
      anti);
  expect_rows(
      "select id from jp where id % 97 = 5 and k not in (select k from jb where k is not null)",
      not_in);
  // A NULL among the build keys makes every NOT IN unknown.
  expect_rows("select id from jp where id % 97 = 5 and k not in (select k from jb)", {});
}

TEST_F(VectorizedJoinTest, RightSemiAndAntiJoinsMarkBuildRows) {
  // The build side is the smaller one (the sampled probe rows), so the join keeps its rows.
  std::map<int64_t, bool> probe_keys;
  for (int64_t id = 0; id < kProbeRows; ++id)
    if (sampled(id) && !probe_null(id)) probe_keys[probe_key(id)] = true;
  Lines semi, anti;
  for (int64_t n = 0; n < kBuildRows + kHotRows; ++n) {
    bool found = !build_null(n) && probe_keys.count(build_key(n));
    (found ? semi : anti).push_back(std::to_string(build_value(n)));
  }
  const std::string probe = "(select k from jp where id % 97 = 5)";
  expect_rows("select v from jb where exists (select 1 from " + probe + " p where p.k = jb.k)",
              semi);
  expect_rows("select v from jb where not exists (select 1 from " + probe + " p where p.k = jb.k)",
              anti);
}

TEST_F(VectorizedJoinTest, MarkJoinsGiveThreeValuedResults) {
  // IN under OR: a mark join; its mark is NULL for a NULL probe key, or without a match when
  // the build side has a NULL.
  Lines expected;
  for (int64_t id = 0; id < kProbeRows; ++id) {
    if (!sampled(id)) continue;
    std::string mark = probe_null(id) ? "NULL" : !matches_of(id).empty() ? "t" : "NULL";
    expected.push_back(std::to_string(id) + "|" + mark);
  }
  expect_rows("select id, k in (select k from jb) from jp where id % 97 = 5", expected);
}

TEST_F(VectorizedJoinTest, ResidualConditionsFilterPairs) {
  Lines inner, left;
  for (int64_t id = 0; id < kProbeRows; ++id) {
    if (!sampled(id)) continue;
    bool any = false;
    for (int64_t v : matches_of(id)) {
      if (v % 7 >= id % 5) continue;
      any = true;
      inner.push_back(std::to_string(id) + "|" + std::to_string(v));
    }
    if (!any) left.push_back(std::to_string(id) + "|NULL");
  }
  left.insert(left.end(), inner.begin(), inner.end());
  const std::string on = " on jp.k = jb.k and jb.v % 7 < jp.id % 5 where jp.id % 97 = 5";
  expect_rows("select jp.id, jb.v from jp join jb" + on, inner);
  expect_rows("select jp.id, jb.v from jp left join jb" + on, left);
}

TEST_F(VectorizedJoinTest, StringKeysAndFrozenChunks) {
  // s = 's<k>' for even ids; joined with itself on s through a small build side.
  Lines expected;
  for (int64_t id = 0; id < kProbeRows; ++id) {
    if (id % 2 || id % 1000 != 10) continue;
    for (int64_t other = 0; other < 5000; other += 2)
      if (other % 1000 == 10 && probe_key(other) == probe_key(id))
        expected.push_back(std::to_string(id) + "|" + std::to_string(other));
  }
  const std::string sql =
      "select a.id, b.id from jp a join (select id, s from jp where id < 5000) b on a.s = b.s "
      "where a.id % 1000 = 10 and b.id % 1000 = 10";
  expect_rows(sql, expected);
  Connection connection(*database_);
  connection.query("vacuum freeze jp");
  expect_rows(sql, expected);
}

// ---- random differential test against the compiled engine ----------------------------------

class JoinGenerator {
 public:
  explicit JoinGenerator(uint32_t seed) : random_(seed) {}

  std::string query() {
    static const char* kJoins[] = {"join", "left join", "right join", "full join"};
    const std::string sample =
        " p.id % " + std::to_string(50 + pick(100)) + " = " + std::to_string(pick(50));
    const std::string build = "(select * from jb where v % " + std::to_string(2 + pick(5)) + " = " +
                              std::to_string(pick(2)) + ") b";
    const std::string key = pick(3) == 0 ? "p.k + 0 = b.k" : "p.k = b.k";
    std::string residual =
        pick(3) == 0 ? " and b.v % 5 < p.id % " + std::to_string(2 + pick(4)) : "";
    switch (pick(6)) {
      case 0:
      case 1: {
        std::string join = kJoins[pick(4)];
        return "select p.id, p.k, b.v from (select * from jp p where" + sample + ") p " + join +
               " " + build + " on " + key + residual;
      }
      case 2:
        return "select p.id from jp p where" + sample + (pick(2) ? " and not" : " and") +
               " exists (select 1 from " + build + " where " + key + residual + ")";
      case 3:
        return "select p.id from jp p where" + sample + " and p.k not in (select b.k from " +
               build + (pick(2) ? " where b.k is not null" : "") + ")";
      case 4:
        return "select p.id, p.k in (select b.k from " + build + " where b.v > p.id % 1000" +
               ") from jp p where" + sample;
      default:
        return "select b.v from jb b where b.v % 3 = " + std::to_string(pick(3)) +
               (pick(2) ? " and not" : " and") +
               " exists (select 1 from (select * from jp p where" + sample + ") p where " + key +
               ")";
    }
  }

 private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(random_); }
  std::mt19937 random_;
};

Lines run(Database& database, const std::string& sql, ExecutionMode mode,
          const std::string& join_table, const std::string& compaction) {
  Connection connection(database);
  connection.options().threads = 2;
  connection.options().oversubscribe = true;
  connection.query("set join_table = '" + join_table + "'; set compaction = '" + compaction +
                   "'");
  connection.options().execution_mode = mode;
  try {
    return sorted_lines(connection.query(sql));
  } catch (const Error& error) {
    return {std::string("error: ") + error.what()};
  }
}

// Every pair of join table and compaction (60 queries: q % 3 and q / 3 % 6 cover the 18 pairs
// every 18 queries).
TEST_F(VectorizedJoinTest, RandomJoinsMatchCompiledUnderEveryJoinTableAndCompaction) {
  JoinGenerator generator(20261124);
  size_t rows = 0;
  for (int q = 0; q < 60; ++q) {
    const std::string sql = generator.query();
    const std::string join_table = kJoinTables[q % 3];
    const std::string compaction = kCompactions[q / 3 % 6];
    Lines compiled = run(*database_, sql, ExecutionMode::kCompiled, join_table, compaction);
    Lines vectorized = run(*database_, sql, ExecutionMode::kVectorized, join_table, compaction);
    ASSERT_EQ(vectorized, compiled)
        << sql << " with join_table " << join_table << ", compaction " << compaction;
    rows += compiled.size();
  }
  EXPECT_GT(rows, 10'000u);
}

}  // namespace
}  // namespace floe::testing
