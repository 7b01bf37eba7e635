// Model-checked transactions (engine/txn/, storage/ indexes and constraints): random inserts,
// updates (also of the primary key), deletes, savepoints and rollbacks on a table with a
// primary key, a unique column and a CHECK constraint, against an in-test model. After each
// step the table must equal the model: as the writing connection sees it (its own changes),
// as another connection sees it (the last committed state), and through index lookups.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/api/database.h"
#include "storage/error.h"

namespace floe {
namespace {

// key -> (val, tag): tag is UNIQUE (NULL allowed, many times), val has CHECK (val >= 0).
struct Row {
  int64_t val;
  std::optional<int64_t> tag;
  bool operator==(const Row&) const = default;
};
using Model = std::map<int64_t, Row>;

std::string tag_sql(const std::optional<int64_t>& tag) {
  return tag ? std::to_string(*tag) : "null";
}

// Whether the rows would satisfy the constraints: unique tags, val >= 0.
bool valid(const Model& model) {
  std::set<int64_t> tags;
  for (const auto& [key, row] : model) {
    if (row.val < 0) return false;
    if (row.tag && !tags.insert(*row.tag).second) return false;
  }
  return true;
}

Model table_of(Connection& connection) {
  Model model;
  Result result = connection.query("select k, v, tag from model_t order by k");
  for (const auto& row : result.rows()) {
    std::optional<int64_t> tag;
    if (!row[2].is_null()) tag = row[2].as_int64();
    model[row[0].as_int64()] = Row{row[1].as_int64(), tag};
  }
  return model;
}

class TxnModelTest : public ::testing::TestWithParam<unsigned> {
 protected:
  void SetUp() override {
    writer_.query(
        "create table model_t (k bigint primary key, v bigint not null check (v >= 0), "
        "tag bigint unique)");
  }

  // Runs `sql`, a change whose effect on the model is `next`: the statement succeeds exactly
  // when it reuses no key and `next` satisfies the constraints (a violation leaves nothing
  // behind).
  void change(const std::string& sql, const Model& next, bool key_clash = false) {
    bool failed = false;
    try {
      writer_.query(sql);
    } catch (const Error&) {
      failed = true;
    }
    EXPECT_EQ(failed, key_clash || !valid(next)) << sql;
    if (!failed) current_ = next;
    // An aborted block goes back to the savepoint taken before every change.
    if (failed && in_block_) writer_.query("rollback to savepoint before_change");
  }

  void step(std::mt19937& random) {
    std::uniform_int_distribution<int> op(0, 9);
    std::uniform_int_distribution<int64_t> key(1, 40);
    std::uniform_int_distribution<int64_t> val(-3, 50);
    std::uniform_int_distribution<int64_t> tag(0, 30);
    auto random_tag = [&]() -> std::optional<int64_t> {
      const int64_t t = tag(random);
      if (t < 10) return std::nullopt;
      return t;
    };
    if (in_block_) writer_.query("savepoint before_change");
    Model next = current_;
    const int64_t k = key(random);
    switch (op(random)) {
      case 0:
      case 1: {  // insert one row, or two (the second may clash with the first)
        const Row row{val(random), random_tag()};
        std::string sql = "insert into model_t values (" + std::to_string(k) + ", " +
                          std::to_string(row.val) + ", " + tag_sql(row.tag) + ")";
        bool duplicate = next.count(k) > 0;
        next[k] = row;
        if (op(random) < 5) {
          const int64_t k2 = key(random);
          const Row row2{val(random), random_tag()};
          sql += ", (" + std::to_string(k2) + ", " + std::to_string(row2.val) + ", " +
                 tag_sql(row2.tag) + ")";
          duplicate = duplicate || next.count(k2) > 0;
          next[k2] = row2;
        }
        change(sql, next, duplicate);
        break;
      }
      case 2:
      case 3: {  // update values of a key range
        const int64_t delta = val(random) - 10;
        for (auto& [key_, row] : next)
          if (key_ >= k && key_ < k + 5) row.val += delta;
        change("update model_t set v = v + " + std::to_string(delta) +
                   " where k >= " + std::to_string(k) + " and k < " + std::to_string(k + 5),
               next);
        break;
      }
      case 4: {  // update a tag
        const std::optional<int64_t> t = random_tag();
        if (next.count(k)) next[k].tag = t;
        change("update model_t set tag = " + tag_sql(t) + " where k = " + std::to_string(k), next);
        break;
      }
      case 5: {  // move a row to another key (the primary key changes)
        const int64_t to = key(random);
        auto found = next.find(k);
        const bool clash = found != next.end() && to != k && next.count(to) > 0;
        if (found != next.end() && !clash) {
          const Row row = found->second;
          next.erase(found);
          next[to] = row;
        }
        change("update model_t set k = " + std::to_string(to) + " where k = " + std::to_string(k),
               next, clash);
        break;
      }
      case 6:
      case 7: {  // delete a key range
        for (auto it = next.begin(); it != next.end();)
          it = it->first >= k && it->first < k + 3 ? next.erase(it) : std::next(it);
        change("delete from model_t where k >= " + std::to_string(k) + " and k < " +
                   std::to_string(k + 3),
               next);
        break;
      }
      case 8: {  // begin, commit or rollback
        if (!in_block_) {
          writer_.query("begin");
          in_block_ = true;
          committed_ = current_;
        } else if (op(random) < 6) {
          writer_.query("commit");
          in_block_ = false;
          committed_ = current_;
        } else {
          writer_.query("rollback");
          in_block_ = false;
          current_ = committed_;
        }
        break;
      }
      case 9: {  // look rows up by key and by tag (index lookups)
        const Result by_key = writer_.query("select v from model_t where k = " + std::to_string(k));
        auto found = current_.find(k);
        ASSERT_EQ(by_key.row_count(), found == current_.end() ? 0u : 1u);
        if (found != current_.end()) {
          EXPECT_EQ(by_key.value(0, 0).as_int64(), found->second.val);
        }
        const int64_t t = tag(random);
        const Result by_tag =
            writer_.query("select k from model_t where tag = " + std::to_string(t));
        size_t expected = 0;
        for (const auto& [key_, row] : current_) expected += row.tag == t;
        EXPECT_EQ(by_tag.row_count(), expected);
        break;
      }
    }
    if (!in_block_) committed_ = current_;
  }

  Database database_;
  Connection writer_{database_};
  Connection reader_{database_};
  Model current_;    // as the writer sees it
  Model committed_;  // as every other connection sees it
  bool in_block_ = false;
};

TEST_P(TxnModelTest, TableFollowsTheModel) {
  std::mt19937 random(GetParam());
  for (int i = 0; i < 250; ++i) {
    SCOPED_TRACE("step " + std::to_string(i));
    step(random);
    ASSERT_EQ(table_of(writer_), current_);
    ASSERT_EQ(table_of(reader_), committed_);
  }
  if (in_block_) writer_.query("commit");
  EXPECT_EQ(table_of(reader_), current_);
}

INSTANTIATE_TEST_SUITE_P(Seeds, TxnModelTest, ::testing::Values(1u, 2u));

}  // namespace
}  // namespace floe
