// The vectorized expression executor (engine/vector/) on hand-built expression trees.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/vector/expression_executor.h"
#include "runtime/function_registry.h"
#include "storage/error.h"

namespace floe::vectorized {
namespace {

using plan::ExprKind;
using plan::ExprPtr;

ExprPtr node(ExprKind kind, SqlType type, std::vector<ExprPtr> children) {
  auto expr = std::make_unique<plan::Expr>();
  expr->kind = kind;
  expr->type = type;
  expr->children = std::move(children);
  return expr;
}

template <typename... E>
std::vector<ExprPtr> list(E... e) {
  std::vector<ExprPtr> out;
  (out.push_back(std::move(e)), ...);
  return out;
}

ExprPtr arithmetic(plan::ArithmeticOp op, ExprPtr a, ExprPtr b, SqlType type) {
  ExprPtr expr = node(ExprKind::kArithmetic, type, list(std::move(a), std::move(b)));
  expr->arithmetic_op = op;
  return expr;
}

ExprPtr compare(plan::CompareOp op, ExprPtr a, ExprPtr b) {
  ExprPtr expr = node(ExprKind::kCompare, SqlType::boolean(), list(std::move(a), std::move(b)));
  expr->compare_op = op;
  return expr;
}

ExprPtr integer(int32_t v) {
  return plan::make_constant(Value::integer(v));
}
ExprPtr column(plan::ColumnId id, SqlType type) {
  return plan::make_column(id, type, true);
}

std::string error_of(const plan::Expr& expr) {
  try {
    evaluate_scalar(expr);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

class VectorExecutorTest : public ::testing::Test {
 protected:
  // A chunk of `n` rows: column 0 = row number (NULL every 5th row), column 1 = text.
  DataChunk make_chunk(uint32_t n) {
    DataChunk chunk(n);
    Vector& numbers = chunk.add_column(SqlType::integer());
    Vector& strings = chunk.add_column(SqlType::text());
    for (uint32_t i = 0; i < n; ++i) {
      numbers.set(i, i % 5 == 4 ? Value::null(SqlType::integer()) : Value::integer(int32_t(i)),
                  chunk.heap());
      strings.set(i, Value::string(i % 2 ? "row " + std::to_string(i) + " with a long tail" : "r"),
                  chunk.heap());
    }
    chunk.set_count(n);
    return chunk;
  }

  QueryContext query_{1};
  ExpressionExecutor executor_{query_.worker(0)};
};

TEST_F(VectorExecutorTest, ArithmeticOverChunksOfEverySize) {
  executor_.bind_column(7, 0);
  for (uint32_t n : {1u, 2048u, 2049u}) {
    DataChunk chunk = make_chunk(n);
    ExprPtr expr = arithmetic(plan::ArithmeticOp::kMultiply, column(7, SqlType::integer()),
                              integer(3), SqlType::integer());
    Vector result = executor_.evaluate(*expr, chunk);
    for (uint32_t i = 0; i < n; ++i) {
      if (i % 5 == 4)
        EXPECT_TRUE(result.get(i).is_null());
      else
        EXPECT_EQ(result.get(i).as_int64(), 3 * int64_t(i));
    }
  }
}

TEST_F(VectorExecutorTest, OverflowOnTheLastRowRaisesThePostgresError) {
  executor_.bind_column(7, 0);
  DataChunk chunk = make_chunk(2049);
  chunk.column(0).set(2048, Value::integer(2147483647), chunk.heap());
  ExprPtr expr = arithmetic(plan::ArithmeticOp::kAdd, column(7, SqlType::integer()), integer(1),
                            SqlType::integer());
  EXPECT_THROW(
      {
        try {
          executor_.evaluate(*expr, chunk);
        } catch (const Error& e) {
          EXPECT_STREQ(e.what(), "integer out of range");
          throw;
        }
      },
      Error);
  // Without that row (a selection vector), no error.
  std::vector<uint32_t> selection(2048);
  for (uint32_t i = 0; i < 2048; ++i) selection[i] = i;
  chunk.set_selection(selection.data());
  chunk.set_count(2048);
  EXPECT_EQ(executor_.evaluate(*expr, chunk).get(2047).as_int64(), 2048);
}

TEST_F(VectorExecutorTest, FilterFormSelectsBranchFree) {
  executor_.bind_column(7, 0);
  executor_.bind_column(8, 1);
  DataChunk chunk = make_chunk(2049);
  std::vector<uint32_t> selection;
  ExprPtr even = compare(plan::CompareOp::kEqual,
                         arithmetic(plan::ArithmeticOp::kModulo, column(7, SqlType::integer()),
                                    integer(2), SqlType::integer()),
                         integer(0));
  uint32_t count = executor_.select(*even, chunk, selection);
  uint32_t expected = 0;
  for (uint32_t i = 0; i < 2049; ++i) expected += i % 2 == 0 && i % 5 != 4;
  EXPECT_EQ(count, expected);
  // Strings, over the previous selection: the odd rows are long ("row ..."), the even "r".
  chunk.set_selection(selection.data());
  chunk.set_count(count);
  ExprPtr is_short = compare(plan::CompareOp::kEqual, column(8, SqlType::text()),
                             plan::make_constant(Value::string("r")));
  std::vector<uint32_t> second;
  EXPECT_EQ(executor_.select(*is_short, chunk, second), count);
  ExprPtr long_one = compare(plan::CompareOp::kGreater, column(8, SqlType::text()),
                             plan::make_constant(Value::string("row 1")));
  EXPECT_EQ(executor_.select(*long_one, chunk, second), 0u);
}

TEST_F(VectorExecutorTest, CaseEvaluatesABranchOnlyWhereItIsTaken) {
  // CASE WHEN x <> 0 THEN 10 / x ELSE -1 END over x = 0, 2, 5.
  executor_.bind_column(1, 0);
  DataChunk chunk(3);
  Vector& x = chunk.add_column(SqlType::integer());
  for (int i : {0, 1, 2}) x.set(i, Value::integer(i == 0 ? 0 : i == 1 ? 2 : 5), chunk.heap());
  chunk.set_count(3);
  ExprPtr when = compare(plan::CompareOp::kNotEqual, column(1, SqlType::integer()), integer(0));
  ExprPtr then = arithmetic(plan::ArithmeticOp::kDivide, integer(10), column(1, SqlType::integer()),
                            SqlType::integer());
  ExprPtr expr = node(ExprKind::kCase, SqlType::integer(),
                      list(std::move(when), std::move(then), integer(-1)));
  Vector result = executor_.evaluate(*expr, chunk);
  EXPECT_EQ(result.get(0).as_int64(), -1);
  EXPECT_EQ(result.get(1).as_int64(), 5);
  EXPECT_EQ(result.get(2).as_int64(), 2);
}

TEST_F(VectorExecutorTest, AndIsThreeValuedAndStopsAtFalse) {
  auto null_bool = [] { return plan::make_constant(Value::null(SqlType::boolean())); };
  auto boolean = [](bool v) { return plan::make_constant(Value::boolean(v)); };
  auto junction = [](ExprKind kind, ExprPtr a, ExprPtr b) {
    return node(kind, SqlType::boolean(), list(std::move(a), std::move(b)));
  };
  EXPECT_TRUE(evaluate_scalar(*junction(ExprKind::kAnd, null_bool(), boolean(true))).is_null());
  EXPECT_FALSE(evaluate_scalar(*junction(ExprKind::kAnd, null_bool(), boolean(false))).as_bool());
  EXPECT_TRUE(evaluate_scalar(*junction(ExprKind::kOr, null_bool(), boolean(true))).as_bool());
  // FALSE AND 1/0 = 1: the division is never evaluated.
  ExprPtr failing =
      compare(plan::CompareOp::kEqual,
              arithmetic(plan::ArithmeticOp::kDivide, integer(1), integer(0), SqlType::integer()),
              integer(1));
  EXPECT_FALSE(
      evaluate_scalar(*junction(ExprKind::kAnd, boolean(false), failing->clone())).as_bool());
  // NULL does not decide AND, so the division runs and fails, as in generated code.
  EXPECT_EQ(error_of(*junction(ExprKind::kAnd, null_bool(), failing->clone())), "division by zero");
}

TEST_F(VectorExecutorTest, CoalesceGreatestInListAndIsNull) {
  auto null_int = [] { return plan::make_constant(Value::null(SqlType::integer())); };
  EXPECT_EQ(evaluate_scalar(*node(ExprKind::kCoalesce, SqlType::integer(),
                                  list(null_int(), integer(4), integer(5))))
                .as_int64(),
            4);
  EXPECT_EQ(evaluate_scalar(*node(ExprKind::kGreatest, SqlType::integer(),
                                  list(integer(3), null_int(), integer(9), integer(2))))
                .as_int64(),
            9);
  EXPECT_TRUE(
      evaluate_scalar(*node(ExprKind::kLeast, SqlType::integer(), list(null_int(), null_int())))
          .is_null());
  // 2 IN (1, NULL) is NULL; 1 IN (1, NULL) is TRUE; 2 NOT IN (1, 3) is TRUE.
  EXPECT_TRUE(evaluate_scalar(*node(ExprKind::kInList, SqlType::boolean(),
                                    list(integer(2), integer(1), null_int())))
                  .is_null());
  EXPECT_TRUE(evaluate_scalar(*node(ExprKind::kInList, SqlType::boolean(),
                                    list(integer(1), integer(1), null_int())))
                  .as_bool());
  ExprPtr not_in =
      node(ExprKind::kInList, SqlType::boolean(), list(integer(2), integer(1), integer(3)));
  not_in->negated = true;
  EXPECT_TRUE(evaluate_scalar(*not_in).as_bool());
  ExprPtr is_not_null = node(ExprKind::kIsNull, SqlType::boolean(), list(null_int()));
  is_not_null->negated = true;
  EXPECT_FALSE(evaluate_scalar(*is_not_null).as_bool());
}

TEST_F(VectorExecutorTest, DecimalsDatesAndCasts) {
  ExprPtr a = plan::make_constant(Value::decimal(150, 5, 2));  // 1.50
  ExprPtr b = plan::make_constant(Value::decimal(-25, 5, 1));  // -2.5
  ExprPtr product = arithmetic(plan::ArithmeticOp::kMultiply, std::move(a), std::move(b),
                               SqlType::decimal(10, 3));
  EXPECT_EQ(evaluate_scalar(*product).to_string(), "-3.750");
  ExprPtr big = arithmetic(plan::ArithmeticOp::kAdd, plan::make_constant(Value::decimal(999, 3, 0)),
                           plan::make_constant(Value::decimal(1, 3, 0)), SqlType::decimal(3, 0));
  EXPECT_EQ(error_of(*big), "numeric field overflow");
  ExprPtr day = arithmetic(plan::ArithmeticOp::kAdd, plan::make_constant(Value::date(0)),
                           integer(31), SqlType::date());
  EXPECT_EQ(evaluate_scalar(*day).to_string(), "1970-02-01");
  ExprPtr text = plan::make_cast(plan::make_constant(Value::string("abc")), SqlType::big_int());
  EXPECT_EQ(error_of(*text), "invalid input syntax for type bigint: \"abc\"");
  ExprPtr to_text = plan::make_cast(plan::make_constant(Value::decimal(-5, 5, 2)), SqlType::text());
  EXPECT_EQ(evaluate_scalar(*to_text).as_string(), "-0.05");
}

TEST_F(VectorExecutorTest, RegistryFunctionsAreStrict) {
  const FunctionOverload* abs = nullptr;
  for (const FunctionOverload& o : function_registry().overloads("abs"))
    if (o.parameters == std::vector<TypeId>{TypeId::kInteger}) abs = &o;
  ASSERT_NE(abs, nullptr);
  ExprPtr call = node(ExprKind::kFunction, SqlType::integer(), list(integer(-4)));
  call->function = abs;
  EXPECT_EQ(evaluate_scalar(*call).as_int64(), 4);
  ExprPtr minimum = node(ExprKind::kFunction, SqlType::integer(),
                         list(plan::make_constant(Value::integer(-2147483647 - 1))));
  minimum->function = abs;
  EXPECT_EQ(error_of(*minimum), "integer out of range");
  ExprPtr null_call = node(ExprKind::kFunction, SqlType::integer(),
                           list(plan::make_constant(Value::null(SqlType::integer()))));
  null_call->function = abs;
  EXPECT_TRUE(evaluate_scalar(*null_call).is_null());
}

TEST_F(VectorExecutorTest, ColumnsAndSubqueriesAreNotConstant) {
  ExprPtr col = column(3, SqlType::integer());
  EXPECT_THROW(evaluate_scalar(*col), NotSupported);
}

}  // namespace
}  // namespace floe::vectorized
