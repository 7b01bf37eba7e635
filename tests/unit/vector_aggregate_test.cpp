// Differential tests of the aggregate-state kernels (runtime/vector/aggregate_kernels.h):
// one aggregate over one input, once as a compiled GROUP BY query through the Database API
// and once through the kernels on group rows laid out by plan::describe_aggregate for the
// same bound AggregateOp. The kernels run as two workers would (each half of the input
// into its own group rows, then a merge), and must give the same values and errors.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "engine/api/database.h"
#include "engine/plan/aggregate_layout.h"
#include "engine/plan/optimizer.h"
#include "engine/sql/parser.h"
#include "engine/sql/select_binder.h"
#include "runtime/vector/aggregate_kernels.h"
#include "storage/error.h"

namespace floe::vectorized {
namespace {

constexpr int kGroups = 3;

struct Outcome {
  std::vector<std::string> values;  // per group, in group order
  std::string error;
  bool operator==(const Outcome&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Outcome& outcome) {
  for (const std::string& value : outcome.values) out << value << " | ";
  return out << "error: " << outcome.error;
}

const plan::AggregateOp* find_aggregate(const plan::LogicalOp& op) {
  if (op.kind == plan::LogicalKind::kAggregate) return static_cast<const plan::AggregateOp*>(&op);
  for (const auto& child : op.children) {
    if (const plan::AggregateOp* found = find_aggregate(*child)) return found;
  }
  return nullptr;
}

// A column of Values as an owned vector.
Vector vector_of(const SqlType& type, const std::vector<Value>& values, StringHeap& heap) {
  Vector vector(type, static_cast<uint32_t>(values.size()));
  for (uint32_t p = 0; p < values.size(); ++p) vector.set(p, values[p], heap);
  return vector;
}

class VectorAggregateTest : public ::testing::Test {
 protected:
  // va_rows(g, x): x = values[i] (SQL literals) in group i % kGroups.
  void load(const std::string& type, const std::vector<std::string>& values) {
    connection_.query("drop table if exists va_rows");
    connection_.query("create table va_rows (g integer, x " + type + ")");
    std::string insert = "insert into va_rows values ";
    for (size_t i = 0; i < values.size(); ++i) {
      insert += (i ? ", (" : "(") + std::to_string(i % kGroups) + ", " + values[i] + ")";
    }
    connection_.query(insert);
  }

  std::string query(const std::string& aggregate) {
    return "select g, " + aggregate + " from va_rows group by g";
  }

  Outcome compiled(const std::string& aggregate) {
    Outcome outcome;
    try {
      Result result = connection_.query(query(aggregate) + " order by g");
      for (size_t r = 0; r < result.row_count(); ++r)
        outcome.values.push_back(result.value(r, 1).to_string());
    } catch (const Error& error) {
      outcome.error = error.what();
    }
    return outcome;
  }

  // The input of `function` as SQL computes it: its argument (or an order key) cast to the
  // type the bound aggregate has, in scan order.
  Vector input(const std::string& column, const SqlType& type, StringHeap& heap) {
    Result result =
        connection_.query("select cast(" + column + " as " + type.to_string() + ") from va_rows");
    std::vector<Value> values;
    for (size_t r = 0; r < result.row_count(); ++r) values.push_back(result.value(r, 0));
    return vector_of(type, values, heap);
  }

  // One worker, or two: each half of the input into its own group rows, then a merge.
  Outcome kernels(const std::string& aggregate, int workers) {
    sql::ParseTree tree(query(aggregate));
    plan::LogicalPlan plan =
        sql::bind_select(*tree.statement(0).stmt->select_stmt, database_.catalog());
    plan::optimize(plan);
    const plan::AggregateOp* op = find_aggregate(*plan.root);
    EXPECT_NE(op, nullptr);
    const plan::AggregateOp::Aggregate& function = op->aggregates.at(0);
    plan::AggregateLayout layout = plan::describe_aggregate(*op, plan.registry);
    StateKernel kernel = plan::state_kernel(layout.states.at(0), layout.layout);

    StringHeap heap;
    Result keys = connection_.query("select g from va_rows");
    auto n = static_cast<uint32_t>(keys.row_count());
    std::optional<Vector> argument, delimiter, order;
    if (function.argument) argument = input("x", function.argument->type, heap);
    if (function.order) order = input("x", function.order->type, heap);
    if (function.function == plan::AggregateFunction::kStringAgg) {
      delimiter =
          vector_of(SqlType::text(), std::vector<Value>(n, function.parameter->constant), heap);
    }

    uint32_t size = layout.layout.size();
    std::vector<uint8_t> bytes(2 * kGroups * size, 0xEE);
    std::vector<uint8_t*> groups;
    for (int i = 0; i < 2 * kGroups; ++i) {
      groups.push_back(bytes.data() + i * size);
      init_state(kernel, groups.back());
    }
    std::vector<uint8_t*> rows(n);
    std::vector<uint32_t> second_half;
    uint32_t first_half = workers == 1 ? n : n / 2;
    for (uint32_t p = 0; p < n; ++p) {
      bool second = p >= first_half;
      rows[p] = groups[(second ? kGroups : 0) + keys.value(p, 0).as_int64()];
      if (second) second_half.push_back(p);
    }
    QueryContext query_context(1);
    WorkerContext& worker = query_context.worker(0);
    auto ptr = [](const std::optional<Vector>& v) { return v ? &*v : nullptr; };
    Outcome outcome;
    bool ok = update_states(kernel, worker, ptr(argument), nullptr, first_half, rows.data(),
                            ptr(delimiter), ptr(order)) &&
              update_states(kernel, worker, ptr(argument), second_half.data(),
                            static_cast<uint32_t>(second_half.size()), rows.data(), ptr(delimiter),
                            ptr(order)) &&
              combine_states(kernel, worker, groups.data(), groups.data() + kGroups, kGroups);
    Vector out(plan.registry[function.id].type, kGroups);
    ok = ok && finalize_states(kernel, worker, groups.data(), kGroups, out);
    if (!ok) {
      outcome.error = query_context.error_message();
      return outcome;
    }
    for (uint32_t i = 0; i < kGroups; ++i) outcome.values.push_back(out.get(i).to_string());
    return outcome;
  }

  // Merged states of doubles are rounded in another order than one worker's (as when the
  // compiled engine merges its workers' groups): `exact_merge` says whether the merge must
  // still give the same bits (exact numbers, or doubles whose sums are exact).
  void check(const std::string& type, const std::vector<std::string>& values,
             const std::vector<std::string>& aggregates, bool exact_merge = true) {
    load(type, values);
    for (const std::string& aggregate : aggregates) {
      Outcome expected = compiled(aggregate);
      EXPECT_EQ(kernels(aggregate, 1), expected) << aggregate << " of " << type;
      if (exact_merge) {
        EXPECT_EQ(kernels(aggregate, 2), expected) << aggregate << " of " << type << ", merged";
      }
    }
  }

  Database database_;
  Connection connection_{database_};
};

const std::vector<std::string> kArithmetic = {
    "count(*)",
    "count(x)",
    "sum(x)",
    "avg(x)",
    "min(x)",
    "max(x)",
    "var_samp(x)",
    "var_pop(x)",
    "stddev_samp(x)",
    "stddev_pop(x)",
    "variance(x)",
    "stddev(x)",
    "mode() within group (order by x)",
    "percentile_disc(0.4) within group (order by x)",
};

TEST_F(VectorAggregateTest, Integers) {
  std::vector<std::string> values = {"1", "5",    "null", "-7", "2147483647",  "2147483647",
                                     "3", "null", "0",    "12", "-2147483648", "4"};
  check("integer", values, kArithmetic);
  check("smallint", {"1", "-3", "null", "32767", "32767", "5", "9", "-1", "null"}, kArithmetic);
  check("bigint", {"9223372036854775807", "9223372036854775807", "1", "null", "-5", "7", "8", "2"},
        kArithmetic);
  check("integer", values, {"percentile_cont(0.25) within group (order by x)"});
}

TEST_F(VectorAggregateTest, Numerics) {
  check("numeric(12,2)",
        {"1.50", "-2.25", "null", "3.10", "99999.99", "0.01", "7.77", "7.77", "null", "-0.50"},
        kArithmetic);
  check("numeric(38,0)", {"1", "2", "3", "12345678901234567890123", "5", "6"}, kArithmetic);
}

TEST_F(VectorAggregateTest, Doubles) {
  check("double precision",
        {"1.5", "-0.0", "null", "1e300", "2.25", "'NaN'", "3", "0.1", "0.2", "0.3", "-4"},
        kArithmetic, false);
  check("double precision",
        {"1.5", "'Infinity'", "2", "3", "'-Infinity'", "4", "null", "1e-300", "5"}, kArithmetic,
        false);
  // Small integers and halves: every order of additions is exact, so merged sums are too
  // (the merge of variances divides, float8_combine, and is not).
  std::vector<std::string> exact = {"1", "2.5", "3", "-4", "5", "6", "null", "8", "9.5", "10"};
  check("double precision", exact, kArithmetic, false);
  check("double precision", exact,
        {"count(x)", "sum(x)", "avg(x)", "min(x)", "max(x)", "mode() within group (order by x)",
         "percentile_cont(0.5) within group (order by x)",
         "percentile_cont(0.9) within group (order by x desc)"});
}

TEST_F(VectorAggregateTest, NoInputInAGroupIsNull) {
  // Group 1 has only NULLs: its sums, extremes and variances are NULL, its counts 0.
  check("integer", {"1", "null", "3", "4", "null", "6", "7", "null", "9"}, kArithmetic);
}

TEST_F(VectorAggregateTest, StringsBooleansDates) {
  check("text",
        {"'b'", "'a'", "null", "'a long string of many bytes'", "''", "'c'", "'b'", "'zz'",
         "'a long string of many bytes!'"},
        {"count(x)", "min(x)", "max(x)", "string_agg(x, ',')", "string_agg(x, '-' order by x desc)",
         "string_agg(distinct x, ';')", "mode() within group (order by x)",
         "percentile_disc(0.5) within group (order by x)"});
  check("boolean", {"true", "false", "null", "true", "true", "true", "null", "false", "true"},
        {"bool_and(x)", "bool_or(x)", "every(x)", "count(x)"});
  check("date",
        {"'2020-01-01'", "'1999-12-31'", "null", "'2020-01-02'", "'1970-01-01'", "'2100-05-05'",
         "'2001-09-09'"},
        {"min(x)", "max(x)", "count(x)", "mode() within group (order by x)"});
  check("timestamp",
        {"'2020-01-01 10:00'", "null", "'1999-12-31 23:59:59.5'", "'2020-01-01 10:00'",
         "'1970-01-01'", "'2100-05-05 01:02'"},
        {"min(x)", "max(x)", "percentile_disc(0.5) within group (order by x)"});
}

TEST_F(VectorAggregateTest, ErrorsAreTheCompiledEnginesErrors) {
  // A numeric sum beyond 38 digits fails when it is finalized, one beyond 128 bits while it
  // is added; squares of large numerics overflow the variance's accumulators.
  check("numeric(38,0)",
        {"99999999999999999999999999999999999999", "99999999999999999999999999999999999999", "1",
         "99999999999999999999999999999999999999", "1", "1"},
        {"sum(x)", "avg(x)", "var_pop(x)"});
  check(
      "numeric(38,0)",
      {"60000000000000000000000000000000000000", "5", "5", "60000000000000000000000000000000000000",
       "5", "5", "60000000000000000000000000000000000000"},
      {"sum(x)", "var_samp(x)"});
  check("integer", {"1", "2", "3", "4"},
        {"percentile_cont(1.5) within group (order by x)",
         "percentile_disc(-0.5) within group (order by x)"});
}

}  // namespace
}  // namespace floe::vectorized
