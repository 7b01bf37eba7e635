// Property test of the join tables (SET join_table; runtime/concise_join_table.h): random
// tables (duplicate, NULL, skewed, sparse and negative integer keys, also as two-column and
// string keys) joined in random ways of every join kind give the same rows under CHT, CAT and
// auto as under chaining, at two threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "engine/api/database.h"
#include "tests/unit/result_lines.h"

namespace floe {
namespace {

class JoinTablePropertyTest : public ::testing::TestWithParam<uint32_t> {};

// A key of the seed's distribution: a dense or a sparse range, with duplicates, NULLs and
// one heavy hitter.
std::string random_key(std::mt19937& random, int shape) {
  std::uniform_int_distribution<int> percent(0, 99);
  int roll = percent(random);
  if (roll < 5) return "null";
  if (roll < 15) return "42";  // skew
  std::uniform_int_distribution<int64_t> dense(-50, 400);
  int64_t key = dense(random);
  switch (shape) {
    case 0:
      return std::to_string(key);
    case 1:
      return std::to_string(key * 1000003);  // sparse: CAT falls back to CHT
    default:
      return roll < 20 ? "9000000000" : std::to_string(key);  // an outlier for the overflow
  }
}

void fill(Connection& connection, const std::string& table, int rows, int shape,
          std::mt19937& random) {
  connection.query("create table " + table + " (id integer, k bigint, k2 integer, v integer)");
  std::string values;
  std::uniform_int_distribution<int> small(0, 3);
  for (int i = 0; i < rows; ++i) {
    if (!values.empty()) values += ", ";
    values += "(" + std::to_string(i) + ", " + random_key(random, shape) + ", " +
              (small(random) == 0 ? std::string("null") : std::to_string(small(random))) + ", " +
              std::to_string(i * 7 % 101) + ")";
  }
  connection.query("insert into " + table + " values " + values);
}

TEST_P(JoinTablePropertyTest, EveryJoinTableGivesTheChainingResult) {
  std::mt19937 random(GetParam());
  Database database;
  Connection connection(database);
  connection.options().threads = 2;
  connection.options().oversubscribe = true;
  std::uniform_int_distribution<int> shape(0, 2);
  fill(connection, "l", 3000, shape(random), random);
  fill(connection, "r", 800, shape(random), random);

  const std::vector<std::string> conditions = {
      "l.k = r.k", "l.k = r.k and l.k2 = r.k2", "l.k = r.k and l.v < r.v",
      "cast(l.k as text) = cast(r.k as text)", "l.k2 = r.k2 and l.k = r.k"};
  const std::vector<std::string> joins = {"join", "left join", "right join", "full join"};
  std::uniform_int_distribution<size_t> pick_condition(0, conditions.size() - 1);
  std::vector<std::string> queries;
  for (int q = 0; q < 3; ++q) {
    const std::string& on = conditions[pick_condition(random)];
    for (const auto& join : joins)
      queries.push_back("select l.id, r.id, l.v + r.v from l " + join + " r on " + on);
    queries.push_back("select id from l where exists (select 1 from r where " + on + ")");
    queries.push_back("select id from l where not exists (select 1 from r where " + on + ")");
    queries.push_back("select id from r where exists (select 1 from l where " + on + ")");
    queries.push_back("select id, k in (select k from r where r.v < l.v) from l");
  }
  queries.push_back("select id from l where k not in (select k from r where k is not null)");
  queries.push_back("select id from l where k not in (select k from r)");
  queries.push_back(
      "select l.id, r.id, x.id from l join r on l.k = r.k join l x on x.k2 = r.k2 and x.k = l.k");

  for (const std::string& query : queries) {
    connection.query("set join_table = 'chaining'");
    const std::vector<std::string> expected = testing::sorted_lines(connection.query(query));
    for (const char* kind : {"cht", "cat", "auto"}) {
      connection.query(std::string("set join_table = '") + kind + "'");
      EXPECT_EQ(testing::sorted_lines(connection.query(query)), expected) << query << " under " << kind;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, JoinTablePropertyTest, ::testing::Range(uint32_t{1}, uint32_t{5}));

}  // namespace
}  // namespace floe
