// The vectorized engine's sort, window and repeat operators (engine/vector/materialized_rows.h,
// repeat_operator.h): ORDER BY and windows over a table of three chunks (hot, then frozen
// into Data Blocks), by 1 and 2 workers (oversubscribed, so that both really share the
// morsels) and several vector sizes, against rows computed here from the generated input;
// the copies of INTERSECT ALL / EXCEPT ALL on hand-made chunks; and a differential test of
// random ORDER BY and window queries against the compiled engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/api/database.h"
#include "engine/plan/expression.h"
#include "engine/vector/repeat_operator.h"
#include "runtime/query_context.h"
#include "storage/string_heap.h"
#include "tests/unit/result_lines.h"

namespace floe::testing {
namespace {

using Lines = std::vector<std::string>;

// Three chunks (2^16 rows each, the last one partly filled).
constexpr int64_t kRows = 150'000;
constexpr uint32_t kThreadCounts[] = {1, 2};
constexpr uint32_t kVectorSizes[] = {7, 2048};

// vs(id bigint not null, k integer, s varchar(40)): k = id % 1000, NULL for every 7th id; s
// is 'row-<id % 300>-with-a-long-tail' (out of line) for odd ids, NULL for even ones.
bool k_null(int64_t id) {
  return id % 7 == 0;
}
std::string s_of(int64_t id) {
  return id % 2 ? "row-" + std::to_string(id % 300) + "-with-a-long-tail" : "NULL";
}

// The rows of `sql` (in their order) or its error, in `mode`.
Lines run(Database& database, const std::string& sql, ExecutionMode mode, uint32_t threads = 2,
          uint32_t vector_size = 0) {
  Connection connection(database);
  connection.options().execution_mode = mode;
  connection.options().threads = threads;
  connection.options().oversubscribe = true;
  if (vector_size) connection.options().scan.vector_size = vector_size;
  return query_lines(connection, sql);
}

class VectorizedSortTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    database_ = std::make_unique<Database>();
    Connection connection(*database_);
    connection.query(
        "set freeze_policy = 'never';"
        "create table vs (id bigint not null, k integer, s varchar(40));"
        "insert into vs select n, case when n % 7 = 0 then null else n % 1000 end, "
        "case when n % 2 = 1 then 'row-' || cast(n % 300 as text) || '-with-a-long-tail' end "
        "from generate_series(0, " +
        std::to_string(kRows - 1) + ") as g(n)");
  }
  static void TearDownTestSuite() { database_.reset(); }

  // `sql` gives `expected` (in order) in every worker count and vector size, on hot chunks and
  // on Data Blocks.
  static void expect_everywhere(const std::string& sql, const Lines& expected) {
    for (bool frozen : {false, true}) {
      if (frozen) Connection(*database_).query("vacuum freeze vs");
      for (uint32_t threads : kThreadCounts) {
        for (uint32_t vector_size : kVectorSizes) {
          EXPECT_EQ(run(*database_, sql, ExecutionMode::kVectorized, threads, vector_size),
                    expected)
              << sql << " (threads " << threads << ", vector size " << vector_size
              << (frozen ? ", frozen)" : ")");
        }
      }
    }
  }

  static inline std::unique_ptr<Database> database_;
};

TEST_F(VectorizedSortTest, OrderByWithLimitAndOffsetOverSeveralKeysAndNulls) {
  // k descending (NULLs first, as PostgreSQL orders DESC), then id: the NULL k rows first.
  struct Row {
    int64_t id;
    bool null;
    int64_t k;
  };
  std::vector<Row> rows;
  for (int64_t id = 0; id < kRows; ++id) rows.push_back({id, k_null(id), id % 1000});
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    if (a.null != b.null) return a.null;
    if (a.null) return a.id < b.id;
    return a.k != b.k ? a.k > b.k : a.id < b.id;
  });
  Lines expected;
  for (size_t r = 3; r < 3 + 10; ++r) expected.push_back(std::to_string(rows[r].id));
  expect_everywhere("select id from vs order by k desc, id limit 10 offset 3", expected);

  // NULLS LAST descending: the last rows of the order are the NULLs, ids descending.
  expected = {"21|NULL", "14|NULL", "7|NULL", "0|NULL"};
  expect_everywhere("select id, k from vs order by k desc nulls last, id desc offset " +
                        std::to_string(kRows - 4),
                    expected);
}

TEST_F(VectorizedSortTest, OrderByStringsAndComputedKeys) {
  // Strings from the table, out of line: bytewise order; the computed key id % 300 ties them.
  std::vector<std::pair<std::string, int64_t>> rows;
  for (int64_t id = 1; id < kRows; id += 2) rows.push_back({s_of(id), id});
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  Lines expected;
  for (size_t r = 0; r < 5; ++r)
    expected.push_back(std::to_string(rows[r].second) + "|" + rows[r].first);
  expect_everywhere("select id, s from vs where s is not null order by s desc, id limit 5",
                    expected);
  // A computed key (no stored column) and a computed string.
  expected = {"299|ROW-299-WITH-A-LONG-TAIL", "599|ROW-299-WITH-A-LONG-TAIL"};
  expect_everywhere(
      "select id, upper(s) from vs where s is not null order by id % 300 desc, id limit 2",
      expected);
}

TEST_F(VectorizedSortTest, WindowsOverSeveralPartitions) {
  // row_number per k ordered by id, and the partition's count: every partition spans all
  // chunks, so its rows come from both workers.
  std::map<int64_t, int64_t> numbers;  // id -> row_number
  std::map<int64_t, int64_t> counts;   // k -> rows
  for (int64_t id = 0; id < kRows; ++id) {
    if (k_null(id)) continue;
    numbers[id] = ++counts[id % 1000];
  }
  Lines expected;
  for (int64_t id = 1; id < kRows; id += 9973) {
    if (k_null(id)) continue;
    expected.push_back(std::to_string(id) + "|" + std::to_string(numbers[id]) + "|" +
                       std::to_string(counts[id % 1000]));
  }
  expect_everywhere(
      "select id, rn, c from (select id, row_number() over (partition by k order by id) as rn, "
      "count(*) over (partition by k) as c from vs where k is not null) q "
      "where id % 9973 = 1 order by id",
      expected);
  // lag over a string and a running count in one unpartitioned window (the one partition is
  // evaluated in parallel ranges).
  expected.clear();
  for (int64_t id : {int64_t{1}, int64_t{2}, int64_t{77777}, kRows - 1}) {
    expected.push_back(std::to_string(id) + "|" + s_of(id - 1) + "|" + std::to_string(id + 1));
  }
  expect_everywhere(
      "select id, l, c from (select id, lag(s) over (order by id) as l, count(*) over (order by "
      "id) as c from vs) q where id in (1, 2, 77777, " +
          std::to_string(kRows - 1) + ") order by id",
      expected);
}

// The copies of INTERSECT ALL / EXCEPT ALL on hand-made chunks: each row as often as its
// count says, none for NULL, zero or negative counts, in chunks of at most the vector size.
class CollectingConsumer : public vectorized::ChunkConsumer {
 public:
  bool consume(vectorized::DataChunk& chunk) override {
    EXPECT_LE(chunk.count(), 4u);
    for (uint32_t i = 0; i < chunk.count(); ++i) {
      const uint32_t p = chunk.selection() ? chunk.selection()[i] : i;
      values.push_back(chunk.column(0).get(p).to_string());
    }
    ++chunks;
    return true;
  }
  Lines values;
  int chunks = 0;
};

TEST(VectorizedRepeatTest, PassesEachRowCountTimes) {
  plan::LogicalPlan logical;
  plan::PhysicalDescription physical;
  plan::PipelineDescription description;
  QueryContext query(1);
  vectorized::PipelineContext context{logical, physical, description, query.worker(0), nullptr, 4};
  plan::RepeatOp repeat;
  repeat.count = plan::make_column(2, SqlType::big_int(), true);
  auto op = vectorized::make_repeat(context, repeat, {{1, 0}, {2, 1}});
  CollectingConsumer collected;
  op->set_next(collected);

  vectorized::DataChunk chunk(8);
  StringHeap heap;
  const std::vector<std::pair<std::string, std::optional<int64_t>>> rows = {
      {"a", 2}, {"b", 0}, {"c", std::nullopt}, {"d", -3}, {"e", 7}, {"f", 1}};
  vectorized::Vector& names = chunk.add_column(SqlType::text());
  vectorized::Vector& counts = chunk.add_column(SqlType::big_int());
  for (uint32_t r = 0; r < rows.size(); ++r) {
    names.set(r, Value::string(rows[r].first), heap);
    counts.set(r,
               rows[r].second ? Value::big_int(*rows[r].second) : Value::null(SqlType::big_int()),
               heap);
  }
  // Rows 1..5 selected: "a" is not.
  const std::vector<uint32_t> selection = {1, 2, 3, 4, 5};
  chunk.set_selection(selection.data());
  chunk.set_count(static_cast<uint32_t>(selection.size()));
  EXPECT_TRUE(op->consume(chunk));
  EXPECT_EQ(collected.values, Lines({"e", "e", "e", "e", "e", "e", "e", "f"}));
  EXPECT_EQ(collected.chunks, 2);
}

// Random ORDER BY and window queries: the vectorized engine's rows are the compiled engine's,
// in the same order (every ORDER BY ends with the unique id), or both fail alike.
class SortQueryGenerator {
 public:
  explicit SortQueryGenerator(uint32_t seed) : random_(seed) {}

  std::string query() {
    std::string inner = "select id, k, s";
    if (pick(3) > 0) inner += ", " + window_function() + " over (" + window() + ") as w";
    inner += " from vs where id % " + std::to_string(50 + pick(400)) + " < " +
             std::to_string(1 + pick(20));
    std::string sql = "select * from (" + inner + ") q order by " + sort_keys() + "id";
    if (pick(3) == 0) sql += " limit " + std::to_string(pick(200));
    if (pick(4) == 0) sql += " offset " + std::to_string(pick(300));
    return sql;
  }

 private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(random_); }

  std::string key() {
    static const char* kKeys[] = {"k", "s", "id % 17", "k / 3", "length(s)", "upper(s)", "-id"};
    return kKeys[pick(7)];
  }

  std::string direction() {
    static const char* kDirections[] = {"", " desc", " nulls first", " desc nulls last"};
    return kDirections[pick(4)];
  }

  std::string sort_keys() {
    std::string keys;
    for (int i = 0, n = pick(3); i < n; ++i) keys += key() + direction() + ", ";
    return keys;
  }

  std::string window() {
    std::string spec;
    if (pick(2)) spec += "partition by " + std::string(pick(2) ? "k % 5" : "s") + " ";
    spec += "order by " + sort_keys() + "id" + direction();
    return spec + frame();
  }

  std::string frame() {
    switch (pick(5)) {
      case 0:
        return " rows between " + std::to_string(pick(5)) + " preceding and " +
               std::to_string(pick(5)) + " following";
      case 1:
        return " groups between 1 preceding and current row exclude ties";
      case 2:
        return " rows between unbounded preceding and current row exclude current row";
      default:
        return "";
    }
  }

  std::string window_function() {
    switch (pick(12)) {
      case 0:
        return "row_number()";
      case 1:
        return "rank()";
      case 2:
        return "dense_rank()";
      case 3:
        return "ntile(" + std::to_string(1 + pick(6)) + ")";
      case 4:
        return "lag(k, " + std::to_string(pick(4)) + ", -1)";
      case 5:
        return "lead(s)";
      case 6:
        return "first_value(s)";
      case 7:
        return "nth_value(k, 2)";
      case 8:
        return "sum(k)";
      case 9:
        return "max(s)";
      case 10:
        return "string_agg(s, ',')";
      default:
        return "count(k)";
    }
  }

  std::mt19937 random_;
};

TEST(VectorizedSortDifferentialTest, RandomSortAndWindowQueriesMatchCompiled) {
  constexpr int kQueries = 40;
  Database database;
  Connection setup(database);
  setup.query(
      "set freeze_policy = 'never';"
      "create table vs (id bigint not null, k integer, s varchar(40));"
      "insert into vs select n, case when n % 9 = 0 then null else n % 100 end, "
      "case when n % 13 = 0 then null when n % 2 = 0 then 'r' || cast(n % 50 as text) "
      "else 'row-' || cast(n % 30 as text) || '-tail-of-the-string' end "
      "from generate_series(0, 99999) as g(n)");
  SortQueryGenerator generator(20261124);
  int with_rows = 0;
  for (int q = 0; q < kQueries; ++q) {
    // The second half runs over Data Blocks.
    if (q == kQueries / 2) setup.query("vacuum freeze vs");
    std::string sql = generator.query();
    Lines compiled = run(database, sql, ExecutionMode::kCompiled);
    ASSERT_EQ(run(database, sql, ExecutionMode::kVectorized), compiled) << sql;
    with_rows += !compiled.empty() && compiled[0].rfind("error: ", 0) != 0;
  }
  EXPECT_GT(with_rows, kQueries / 2);
}

}  // namespace
}  // namespace floe::testing
