// Differential test of index nested-loop joins (engine/plan/index_join.cpp): random small
// outer tables (duplicate, NULL and missing keys) joined to a large table of two chunks through
// its primary key, a composite unique index and a non-unique index, in every join kind the
// rule takes, with restrictions on the inner table and residual conditions, after deletes and
// updates, on hot and frozen chunks: the same rows as the hash join (SET enable_index_join =
// off), in the compiled and the vectorized engine, at two threads.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "engine/api/database.h"
#include "tests/unit/result_lines.h"

namespace floe {
namespace {

class IndexJoinTest : public ::testing::TestWithParam<uint32_t> {};

std::string random_key(std::mt19937& random, int64_t range) {
  std::uniform_int_distribution<int> percent(0, 99);
  int roll = percent(random);
  if (roll < 8) return "null";
  if (roll < 20) return "42";  // duplicates
  std::uniform_int_distribution<int64_t> key(-10, range);  // some keys find nothing
  return std::to_string(key(random));
}

TEST_P(IndexJoinTest, IndexJoinGivesTheHashJoinRows) {
  std::mt19937 random(GetParam());
  Database database;
  Connection connection(database);
  connection.options().threads = 2;
  connection.options().oversubscribe = true;
  connection.query("set freeze_policy = never");
  connection.query(
      "create table ij_r (id bigint primary key, a integer, b integer, g integer, v integer, "
      "s text, unique (a, b))");
  connection.query("create index on ij_r (g)");
  connection.query(
      "insert into ij_r select x, x / 10, x % 10, x % 5000, (x * 7) % 1009, 's' || (x % 13) "
      "from generate_series(0, 139999) as t(x)");
  std::uniform_int_distribution<int> modulus(3, 40);
  connection.query("delete from ij_r where id % " + std::to_string(modulus(random)) + " = 1");
  connection.query("update ij_r set v = v + 500 where id % " + std::to_string(modulus(random)) +
                   " = 2");
  if (GetParam() % 2) connection.query("vacuum freeze ij_r");

  connection.query("create table ij_l (k bigint, a integer, b integer, lim integer)");
  std::uniform_int_distribution<int> rows(1, 60);
  std::uniform_int_distribution<int> digit(0, 11);
  std::uniform_int_distribution<int> limit(0, 1200);
  std::string values;
  for (int i = rows(random); i > 0; --i) {
    values += std::string(values.empty() ? "" : ", ") + "(" + random_key(random, 150000) + ", " +
              random_key(random, 14000) + ", " + std::to_string(digit(random)) + ", " +
              std::to_string(limit(random)) + ")";
  }
  connection.query("insert into ij_l values " + values);
  connection.query("analyze ij_l");

  const std::vector<std::string> queries = {
      "select l.k, r.id, r.v, r.s from ij_l l join ij_r r on r.id = l.k",
      "select l.k, r.id from ij_l l join ij_r r on r.id = l.k and r.v < l.lim where r.s <> 's3'",
      "select l.k from ij_l l where exists (select 1 from ij_r r where r.id = l.k and r.v > 300)",
      "select l.k from ij_l l where not exists (select 1 from ij_r r where r.id = l.k and r.v < "
      "l.lim)",
      "select l.k, r.v from ij_l l left join ij_r r on r.id = l.k and r.g < 2500",
      "select l.a, l.b, r.id from ij_l l join ij_r r on r.a = l.a and r.b = l.b",
      "select l.a, r.v from ij_l l left join ij_r r on r.b = l.b and r.a = l.a and r.v > l.lim",
      "select l.a, count(*) from ij_l l join ij_r r on r.g = l.a group by l.a",
  };
  for (ExecutionMode mode : {ExecutionMode::kCompiled, ExecutionMode::kVectorized}) {
    connection.options().execution_mode = mode;
    for (const std::string& sql : queries) {
      connection.query("set enable_index_join = off");
      auto expected = testing::sorted_lines(connection.query(sql));
      connection.query("set enable_index_join = on");
      std::string plan;
      for (const std::string& line : testing::result_lines(connection.query("explain " + sql)))
        plan += line + "\n";
      EXPECT_NE(plan.find("Index Nested Loop Join"), std::string::npos) << sql << "\n" << plan;
      EXPECT_EQ(testing::sorted_lines(connection.query(sql)), expected) << sql;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, IndexJoinTest, ::testing::Range(1u, 7u));

}  // namespace
}  // namespace floe
