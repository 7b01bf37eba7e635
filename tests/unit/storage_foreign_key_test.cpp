// referential_actions (storage/foreign_key.h), the call that DELETE and UPDATE of referenced
// rows make: which referencing rows a change touches, per foreign key and action, and
// PostgreSQL's error for NO ACTION / RESTRICT.
#include <gtest/gtest.h>

#include "storage/catalog.h"
#include "storage/error.h"
#include "storage/foreign_key.h"

namespace floe {
namespace {

class ForeignKeyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    parent_ = &catalog_.create_table(
        "p", {{"id", SqlType::integer(), false}, {"w", SqlType::integer(), true}},
        {{"p_pkey", {0}, true}});
    TableAppender appender(*parent_);
    for (int32_t id : {1, 2, 3}) appender.append_row({Value::integer(id), Value::integer(id * 10)});
  }

  // A table c(x bigint, y integer) whose x references p(id) with the given actions.
  Table& child(const std::string& name, ForeignKeyAction on_delete, ForeignKeyAction on_update,
               const std::vector<std::optional<int64_t>>& keys) {
    Table& table = catalog_.create_table(
        name, {{"x", SqlType::big_int(), true}, {"y", SqlType::integer(), true}}, {});
    table.constraints().foreign_keys.push_back(
        {name + "_x_fkey", {0}, parent_, {0}, on_delete, on_update});
    TableAppender appender(table);
    int32_t y = 0;
    for (const auto& key : keys)
      appender.append_row(
          {key ? Value::big_int(*key) : Value::null(SqlType::big_int()), Value::integer(y++)});
    return table;
  }

  // Row id of the parent row with this id (rows are appended in order into chunk 0).
  static uint64_t parent_row(int32_t id) { return static_cast<uint64_t>(id - 1); }

  Catalog catalog_;
  Table* parent_ = nullptr;
};

TEST_F(ForeignKeyTest, NoActionRefusesADeleteOfAReferencedRow) {
  child("c", ForeignKeyAction::kNoAction, ForeignKeyAction::kNoAction, {2, std::nullopt});
  try {
    referential_actions(catalog_, *parent_, {parent_row(2)}, false);
    FAIL() << "expected a foreign key violation";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "update or delete on table \"p\" violates foreign key constraint \"c_x_fkey\" "
                 "on table \"c\"\nDETAIL:  Key (id)=(2) is still referenced from table \"c\".");
  }
  // Rows nobody references go freely.
  EXPECT_TRUE(
      referential_actions(catalog_, *parent_, {parent_row(1), parent_row(3)}, false).empty());
}

TEST_F(ForeignKeyTest, RestrictRefusesAnUpdate) {
  child("c", ForeignKeyAction::kCascade, ForeignKeyAction::kRestrict, {3});
  EXPECT_THROW(referential_actions(catalog_, *parent_, {parent_row(3)}, true), Error);
}

TEST_F(ForeignKeyTest, CascadeAndSetNullReturnTheReferencingRows) {
  Table& cascade = child("cascade", ForeignKeyAction::kCascade, ForeignKeyAction::kNoAction,
                         {1, 2, std::nullopt, 2, 3});
  Table& set_null =
      child("nulled", ForeignKeyAction::kSetNull, ForeignKeyAction::kSetDefault, {2, 1});
  auto deleted = referential_actions(catalog_, *parent_, {parent_row(2)}, false);
  ASSERT_EQ(deleted.size(), 2u);
  for (const ReferentialAction& action : deleted) {
    if (action.table == &cascade) {
      EXPECT_EQ(action.action, ForeignKeyAction::kCascade);
      EXPECT_EQ(action.rows, (std::vector<uint64_t>{1, 3}));
    } else {
      EXPECT_EQ(action.table, &set_null);
      EXPECT_EQ(action.action, ForeignKeyAction::kSetNull);
      EXPECT_EQ(action.rows, (std::vector<uint64_t>{0}));
    }
    EXPECT_EQ(action.key, &action.table->constraints().foreign_keys[0]);
  }
  // An update of the key: the cascade table's ON UPDATE is NO ACTION.
  EXPECT_THROW(referential_actions(catalog_, *parent_, {parent_row(1)}, true), Error);
}

TEST_F(ForeignKeyTest, SelfReferencesCount) {
  Table& tree = catalog_.create_table(
      "tree", {{"id", SqlType::integer(), false}, {"parent", SqlType::integer(), true}},
      {{"tree_pkey", {0}, true}});
  tree.constraints().foreign_keys.push_back({"tree_parent_fkey",
                                             {1},
                                             &tree,
                                             {0},
                                             ForeignKeyAction::kCascade,
                                             ForeignKeyAction::kNoAction});
  TableAppender appender(tree);
  appender.append_row({Value::integer(1), Value::null(SqlType::integer())});
  appender.append_row({Value::integer(2), Value::integer(1)});
  appender.append_row({Value::integer(3), Value::integer(2)});
  auto actions = referential_actions(catalog_, tree, {0}, false);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].rows, (std::vector<uint64_t>{1}));  // the caller cascades again from there
  EXPECT_EQ(referential_actions(catalog_, tree, actions[0].rows, false)[0].rows,
            (std::vector<uint64_t>{2}));
}

}  // namespace
}  // namespace floe
