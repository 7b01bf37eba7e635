// Deep nesting fails with PostgreSQL's "stack depth limit exceeded" (or, for what PostgreSQL's
// grammar refuses, its syntax error) instead of overflowing the stack. The limit is the
// calling thread's own stack, so these tests also run statements on threads with small
// stacks, where it comes early, including for nesting that only binding sees (views, WITH).
#include <gtest/gtest.h>
#include <pthread.h>

#include <functional>
#include <string>

#include "engine/api/database.h"
#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe {
namespace {

constexpr const char* kTooDeep = "stack depth limit exceeded";

// Runs `work` on a new thread whose stack has `stack_bytes`.
void run_on_stack(size_t stack_bytes, const std::function<void()>& work) {
  pthread_attr_t attributes;
  ASSERT_EQ(pthread_attr_init(&attributes), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attributes, stack_bytes), 0);
  pthread_t thread;
  auto body = [](void* argument) -> void* {
    (*static_cast<const std::function<void()>*>(argument))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attributes, body, const_cast<std::function<void()>*>(&work)),
            0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attributes);
}

std::string repeat(const std::string& text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

// 1+1+...+1 with `terms` terms.
std::string sum_of_ones(int terms) {
  return "select 1" + repeat("+1", terms - 1);
}

std::string nested_subqueries(int depth) {
  return "select " + repeat("(select ", depth) + "1" + repeat(")", depth);
}

std::string nested_case(int depth) {
  return "select " + repeat("case when true then ", depth) + "1" + repeat(" end", depth);
}

std::string nested_parentheses(int depth) {
  return "select " + repeat("(", depth) + "1" + repeat(")", depth);
}

std::string with_chain(int length) {
  std::string sql = "with t0 as (select 1 as a)";
  for (int i = 1; i < length; ++i)
    sql += ", t" + std::to_string(i) + " as (select a from t" + std::to_string(i - 1) + ")";
  return sql + " select a from t" + std::to_string(length - 1);
}

class StackDepthTest : public ::testing::Test {
 protected:
  // The first value of the statement's result, or its error message.
  std::string outcome(const std::string& sql) {
    try {
      Result result = connection_.query(sql);
      return result.value(0, 0).to_string();
    } catch (const Error& error) {
      return error.what();
    }
  }

  // A chain of views v1 .. v<depth>, each selecting from the one before.
  void create_views(int depth) {
    connection_.query("create view v0 as select 1 as a");
    for (int i = 1; i <= depth; ++i)
      connection_.query("create view v" + std::to_string(i) + " as select a from v" +
                        std::to_string(i - 1));
  }

  Database database_;
  Connection connection_{database_};
};

TEST_F(StackDepthTest, DeepExpressionsFailInsteadOfCrashing) {
  EXPECT_EQ(outcome(sum_of_ones(1000)), "1000");
  // PostgreSQL 15 (max_stack_depth 2MB) succeeds at 4,000 terms and fails at 5,000.
  std::string five_thousand = outcome(sum_of_ones(5000));
  EXPECT_TRUE(five_thousand == "5000" || five_thousand == kTooDeep) << five_thousand;
  EXPECT_EQ(outcome(sum_of_ones(100000)), kTooDeep);
  EXPECT_EQ(outcome(nested_subqueries(3000)), kTooDeep);
  // Where PostgreSQL's grammar gives up first, its message comes first, as there.
  EXPECT_EQ(outcome(nested_subqueries(100000)), "memory exhausted at or near \"(\"");
  EXPECT_EQ(outcome(nested_case(5000)), "memory exhausted at or near \"when\"");
  EXPECT_EQ(outcome(nested_parentheses(100000)), "memory exhausted at or near \"(\"");
  // The session goes on.
  EXPECT_EQ(outcome("select 41 + 1"), "42");
}

// A thread stack with little room above the reserve the checks keep.
constexpr size_t kSmallStack = kStackReserve + (size_t{192} << 10);

TEST_F(StackDepthTest, SmallStacksAreProtectedToo) {
  run_on_stack(kSmallStack, [&] {
    EXPECT_EQ(outcome(sum_of_ones(20)), "20");
    EXPECT_EQ(outcome(sum_of_ones(1000)), kTooDeep);
    EXPECT_EQ(outcome(nested_subqueries(5)), "1");
    EXPECT_EQ(outcome(nested_subqueries(200)), kTooDeep);
    EXPECT_EQ(outcome(nested_case(5)), "1");
    EXPECT_EQ(outcome(nested_case(300)), kTooDeep);
    EXPECT_EQ(outcome(nested_parentheses(5)), "1");
    EXPECT_EQ(outcome(nested_parentheses(300)), kTooDeep);
    EXPECT_EQ(outcome("select 41 + 1"), "42");
  });
}

TEST_F(StackDepthTest, DeepViewsAndWithChainsFailInTheBinder) {
  // Each statement is short: only binding sees the nesting.
  create_views(300);
  EXPECT_EQ(outcome("select a from v300"), "1");
  run_on_stack(kSmallStack, [&] {
    EXPECT_EQ(outcome("select a from v5"), "1");
    EXPECT_EQ(outcome("select a from v300"), kTooDeep);
    EXPECT_EQ(outcome(with_chain(5)), "1");
    EXPECT_EQ(outcome(with_chain(600)), kTooDeep);
    EXPECT_EQ(outcome("select 41 + 1"), "42");
  });
}

}  // namespace
}  // namespace floe
