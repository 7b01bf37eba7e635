// Differential test of the vectorized expression executor against the compiled engine:
// random expression trees over random data (NULLs, extremes, NaN, long strings) are run as
// `select id, expr from vx` through the Database API (generated code) and by the executor
// over a chunk of the same rows; results and errors must agree.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/api/database.h"
#include "engine/plan/logical_plan.h"
#include "engine/sql/parser.h"
#include "engine/sql/select_binder.h"
#include "engine/vector/expression_executor.h"
#include "storage/error.h"

namespace floe::vectorized {
namespace {

enum class T { kInt, kNum, kDbl, kBool, kText, kDate, kTimestamp };

class Generator {
 public:
  explicit Generator(uint32_t seed) : random_(seed) {}

  std::string expression(T type, int depth) {
    if (depth <= 0 || pick(4) == 0) return leaf(type);
    --depth;
    switch (type) {
      case T::kInt: {
        switch (pick(12)) {
          case 0:
            return binary(T::kInt, {"+", "-", "*", "/", "%"}, depth);
          case 1:
            return "(-" + expression(T::kInt, depth) + ")";
          case 2:
            return "abs(" + expression(T::kInt, depth) + ")";
          case 3:
            return case_of(T::kInt, depth);
          case 4:
            return "coalesce(" + expression(T::kInt, depth) + ", " + expression(T::kInt, depth) +
                   ")";
          case 5:
            return (pick(2) ? "greatest(" : "least(") + expression(T::kInt, depth) + ", " +
                   expression(T::kInt, depth) + ", " + expression(T::kInt, depth) + ")";
          case 6:
            return "cast(" + expression(T::kNum, depth) + " as integer)";
          case 7:
            return "cast(" + expression(T::kDbl, depth) + " as bigint)";
          case 8:
            return "length(" + expression(T::kText, depth) + ")";
          case 9:
            return "(" + expression(T::kDate, depth) + " - date '2000-01-01')";
          case 10:
            return "cast(" + expression(T::kText, depth) + " as smallint)";
          default:
            return "cast(extract(day from " + expression(T::kDate, depth) + ") as integer)";
        }
      }
      case T::kNum:
        switch (pick(6)) {
          case 0:
            return binary(T::kNum, {"+", "-", "*"}, depth);
          case 1:
            return "cast(" + expression(T::kInt, depth) + " as numeric(12,2))";
          case 2:
            return "abs(" + expression(T::kNum, depth) + ")";
          case 3:
            return "(" + expression(T::kNum, depth) + " % " + expression(T::kNum, depth) + ")";
          case 4:
            return "cast(" + expression(T::kDbl, depth) + " as numeric(14,3))";
          default:
            return case_of(T::kNum, depth);
        }
      case T::kDbl:
        switch (pick(4)) {
          case 0:
            return binary(T::kDbl, {"+", "-", "*", "/"}, depth);
          case 1:
            return "cast(" + expression(T::kInt, depth) + " as double precision)";
          case 2:
            return "cast(" + expression(T::kNum, depth) + " as double precision)";
          default:
            return "coalesce(" + expression(T::kDbl, depth) + ", 0.5::float8)";
        }
      case T::kBool:
        switch (pick(9)) {
          case 0:
          case 1: {
            static const T kinds[] = {T::kInt, T::kNum, T::kDbl, T::kText, T::kDate};
            T kind = kinds[pick(5)];
            return binary(kind, {"=", "<>", "<", "<=", ">", ">="}, depth, kind);
          }
          case 2:
            return "(" + expression(T::kBool, depth) + " and " + expression(T::kBool, depth) + ")";
          case 3:
            return "(" + expression(T::kBool, depth) + " or " + expression(T::kBool, depth) + ")";
          case 4:
            return "(not " + expression(T::kBool, depth) + ")";
          case 5:
            return "(" + expression(T::kInt, depth) + (pick(2) ? " is null)" : " is not null)");
          case 6:
            return "(" + expression(T::kInt, depth) + (pick(2) ? " in (" : " not in (") +
                   expression(T::kInt, depth) + ", " + leaf(T::kInt) + ", " + leaf(T::kInt) + "))";
          case 7: {
            static const char* patterns[] = {"'a%'", "'%b%'", "'_%c'", "'abc'", "'%'"};
            return "(" + expression(T::kText, depth) + (pick(2) ? " like " : " not like ") +
                   patterns[pick(5)] + ")";
          }
          default:
            return case_of(T::kBool, depth);
        }
      case T::kText:
        switch (pick(7)) {
          case 0:
            return "upper(" + expression(T::kText, depth) + ")";
          case 1:
            return "(" + expression(T::kText, depth) + " || " + expression(T::kText, depth) + ")";
          case 2:
            return "cast(" + expression(T::kInt, depth) + " as text)";
          case 3:
            return "cast(" + expression(T::kNum, depth) + " as varchar(5))";
          case 4:
            return "cast(" + expression(T::kDbl, depth) + " as text)";
          case 5:
            return "substr(" + expression(T::kText, depth) + ", 2, 4)";
          default:
            return "coalesce(" + expression(T::kText, depth) + ", 'none')";
        }
      case T::kDate:
        switch (pick(3)) {
          case 0:
            return "(" + expression(T::kDate, depth) + " + " + leaf(T::kInt) + ")";
          case 1:
            return "cast(" + expression(T::kTimestamp, depth) + " as date)";
          default:
            return case_of(T::kDate, depth);
        }
      case T::kTimestamp:
        switch (pick(3)) {
          case 0:
            return "(" + expression(T::kDate, depth) + " + interval '1 day 3 hours')";
          case 1:
            return "(" + expression(T::kTimestamp, depth) + " - interval '2 months')";
          default:
            return "cast(" + expression(T::kDate, depth) + " as timestamp)";
        }
    }
    return leaf(type);
  }

 private:
  uint32_t pick(uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n - 1)(random_); }

  std::string leaf(T type) {
    switch (type) {
      case T::kInt: {
        static const char* leaves[] = {"i", "j", "k", "0", "3", "-7", "2147483647", "j", "i"};
        return leaves[pick(9)];
      }
      case T::kNum: {
        static const char* leaves[] = {"n", "m", "1.25", "0.00", "-99999999.99", "n"};
        return leaves[pick(6)];
      }
      case T::kDbl: {
        static const char* leaves[] = {"x", "x", "0.0::float8", "'NaN'::float8", "1e300::float8"};
        return leaves[pick(5)];
      }
      case T::kBool: {
        static const char* leaves[] = {"b", "true", "false", "cast(null as boolean)"};
        return leaves[pick(4)];
      }
      case T::kText: {
        static const char* leaves[] = {"s",  "s",   "'abc'", "'a longer literal string'",
                                       "''", "'12'"};
        return leaves[pick(6)];
      }
      case T::kDate: {
        static const char* leaves[] = {"d", "d", "date '2024-02-29'"};
        return leaves[pick(3)];
      }
      case T::kTimestamp: {
        static const char* leaves[] = {"ts", "timestamp '1969-12-31 23:00:00'"};
        return leaves[pick(2)];
      }
    }
    return "null";
  }

  std::string binary(T operands, std::vector<std::string> ops, int depth, T = T::kInt) {
    std::string op = ops[pick(static_cast<uint32_t>(ops.size()))];
    return "(" + expression(operands, depth) + " " + op + " " + expression(operands, depth) + ")";
  }

  std::string case_of(T type, int depth) {
    return "case when " + expression(T::kBool, depth) + " then " + expression(type, depth) +
           " else " + expression(type, depth) + " end";
  }

  std::mt19937 random_;
};

std::string random_row(std::mt19937& random, int id) {
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(random); };
  auto maybe_null = [&](std::string value) { return pick(7) == 0 ? std::string("null") : value; };
  auto number = [&](int64_t low, int64_t high) {
    return std::to_string(std::uniform_int_distribution<int64_t>(low, high)(random));
  };
  static const char* strings[] = {"'abc'", "'a%b'", "'xbx c'", "'Crow with a long tail, c'",
                                  "'12'",  "'ab'",  "''",      "'Zz'"};
  static const char* doubles[] = {"'NaN'", "0", "-0", "1.5", "-2.25", "1e-3", "'Infinity'", "7"};
  std::string row = "(" + std::to_string(id);
  row += ", " + maybe_null(pick(20) == 0 ? "32767" : number(-300, 300));
  row += ", " + maybe_null(pick(20) == 0 ? "-2147483648" : number(-100000, 100000));
  row += ", " + maybe_null(pick(20) == 0 ? "9223372036854775807" : number(-1000000000, 1000000000));
  row += ", " + maybe_null(number(-9999999, 9999999) + "." + number(10, 99));
  row += ", " + maybe_null(number(-999999999, 999999999) + ".0005");
  row += ", " + maybe_null(doubles[pick(8)]);
  row += ", " + maybe_null("date '2000-01-01' + " + number(-5000, 5000));
  row += ", " + maybe_null("timestamp '2000-01-01 12:00:00' + interval '1 hour' * " +
                           number(-50000, 50000));
  row += ", " + maybe_null(strings[pick(8)]);
  row += ", " + maybe_null(pick(2) ? "true" : "false");
  return row + ")";
}

class VectorDifferentialTest : public ::testing::Test {
 protected:
  static constexpr int kRows = 300;

  void SetUp() override {
    connection_.query(
        "create table vx (id integer, i smallint, j integer, k bigint, n numeric(10,2), "
        "m numeric(30,4), x double precision, d date, ts timestamp, s varchar(30), b boolean)");
    std::mt19937 random(42);
    std::string insert = "insert into vx values ";
    for (int id = 0; id < kRows; ++id) insert += (id ? ", " : "") + random_row(random, id);
    connection_.query(insert);
    // The rows, in id order, as a chunk of the table's columns.
    plan::LogicalPlan all = bind("select * from vx");
    Result rows = connection_.query("select * from vx order by id");
    chunk_ = std::make_unique<DataChunk>(kRows);
    for (size_t c = 0; c < all.outputs.size(); ++c) {
      Vector& column = chunk_->add_column(all.registry[all.outputs[c].id].type);
      for (size_t r = 0; r < rows.row_count(); ++r)
        column.set(static_cast<uint32_t>(r), rows.value(r, c), chunk_->heap());
    }
    chunk_->set_count(kRows);
  }

  plan::LogicalPlan bind(const std::string& sql) {
    sql::ParseTree tree(sql);
    return sql::bind_select(*tree.statement(0).stmt->select_stmt, database_.catalog());
  }

  using Bindings = std::vector<std::pair<plan::ColumnId, size_t>>;

  // The bound expression computing the query's only output, with the scan's columns and
  // their table columns (the chunk's columns) in `bindings`; null when the output is a plain
  // column.
  const plan::Expr* find_expression(const plan::LogicalOp& op, plan::ColumnId output,
                                    Bindings& bindings) {
    if (op.kind == plan::LogicalKind::kScan) {
      for (const auto& column : static_cast<const plan::ScanOp&>(op).columns)
        bindings.emplace_back(column.id, column.table_column);
    }
    const plan::Expr* found = nullptr;
    if (op.kind == plan::LogicalKind::kMap) {
      for (const auto& computed : static_cast<const plan::MapOp&>(op).computed)
        if (computed.id == output) found = computed.expr.get();
    }
    for (const auto& child : op.children)
      if (const plan::Expr* e = find_expression(*child, output, bindings)) found = e;
    return found;
  }

  // One evaluation by the executor, with a query context of its own (its first recorded
  // error is the evaluation's), over the chunk's current rows.
  struct Run {
    std::unique_ptr<QueryContext> query = std::make_unique<QueryContext>(1);
    Vector result;
    std::string error;
  };
  Run run(const plan::Expr& expr, const Bindings& bindings) {
    Run run;
    ExpressionExecutor executor(run.query->worker(0));
    for (const auto& [column, chunk_column] : bindings) executor.bind_column(column, chunk_column);
    try {
      run.result = executor.evaluate(expr, *chunk_);
    } catch (const Error& e) {
      run.error = e.what();
    }
    return run;
  }

  // Runs over the rows `rows` only (a selection vector), then restores the whole chunk.
  Run run_on(const plan::Expr& expr, const Bindings& bindings, std::vector<uint32_t> rows) {
    chunk_->set_selection(rows.data());
    chunk_->set_count(static_cast<uint32_t>(rows.size()));
    Run result = run(expr, bindings);
    chunk_->set_selection(nullptr);
    chunk_->set_count(kRows);
    return result;
  }

  Database database_;
  Connection connection_{database_};
  std::unique_ptr<DataChunk> chunk_;
};

TEST_F(VectorDifferentialTest, RandomExpressionsAgreeWithGeneratedCode) {
  Generator generator(7);
  int compared = 0, errors = 0;
  static const T kTypes[] = {T::kInt,  T::kNum,  T::kDbl,      T::kBool,
                             T::kText, T::kDate, T::kTimestamp};
  for (int round = 0; round < 700; ++round) {
    std::string expression = generator.expression(kTypes[round % 7], 3);
    SCOPED_TRACE(expression);
    plan::LogicalPlan plan;
    try {
      plan = bind("select " + expression + " from vx");
    } catch (const Error&) {
      continue;  // not a valid expression (types the binder rejects)
    }
    Bindings bindings;
    const plan::Expr* expr = find_expression(*plan.root, plan.outputs.at(0).id, bindings);
    if (!expr) continue;
    std::string compiled_error;
    Result compiled;
    try {
      compiled = connection_.query("select id, " + expression + " from vx order by id");
    } catch (const NotSupported&) {
      continue;
    } catch (const Error& e) {
      compiled_error = e.what();
    }
    Run vectorized = run(*expr, bindings);
    ++compared;
    if (!compiled_error.empty()) {
      ++errors;
      ASSERT_NE(vectorized.error, "") << "compiled: " << compiled_error;
      // Rows fail in a different order in the two engines (and across threads): the compiled
      // error must be the error of one of the rows.
      std::set<std::string> messages;
      for (uint32_t r = 0; r < kRows; ++r) messages.insert(run_on(*expr, bindings, {r}).error);
      EXPECT_TRUE(messages.count(compiled_error)) << "compiled: " << compiled_error;
      continue;
    }
    ASSERT_EQ(vectorized.error, "");
    ASSERT_EQ(compiled.row_count(), static_cast<size_t>(kRows));
    for (uint32_t r = 0; r < kRows; ++r)
      ASSERT_EQ(vectorized.result.get(r).to_string(), compiled.value(r, 1).to_string())
          << "row " << r;
    // The odd rows alone, through a selection vector.
    std::vector<uint32_t> odd;
    for (uint32_t r = 1; r < kRows; r += 2) odd.push_back(r);
    Run selected = run_on(*expr, bindings, odd);
    ASSERT_EQ(selected.error, "");
    for (uint32_t r : odd)
      ASSERT_EQ(selected.result.get(r).to_string(), compiled.value(r, 1).to_string())
          << "row " << r;
  }
  EXPECT_GT(compared, 450);
  EXPECT_GT(errors, 5);
  EXPECT_LT(errors, compared / 2);
}

}  // namespace
}  // namespace floe::vectorized
