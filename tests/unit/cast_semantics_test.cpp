// The three paths a cast takes agree, and give PostgreSQL 15's answers and errors: generated
// code (a compiled query over a column), the vectorized executor (evaluate_scalar, which
// constant folding and INSERT ... VALUES use) and cast_value (Values: assignment casts, COPY,
// binder constants). All three call storage/numeric_casts.h (or parse_value for text).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "engine/api/database.h"
#include "engine/plan/expression.h"
#include "engine/vector/expression_executor.h"
#include "storage/error.h"
#include "storage/value.h"

namespace floe {
namespace {

struct Case {
  Value input;
  SqlType target;
  std::string expected;  // the result as text, or "ERROR: " and PostgreSQL's message
};

std::string outcome(const std::function<Value()>& cast) {
  try {
    return cast().to_string();
  } catch (const Error& e) {
    return std::string("ERROR: ") + e.what();
  }
}

Value text(const char* s) {
  return Value::string(s, SqlType::text());
}
Value numeric(int128_t scaled, uint8_t scale) {
  return Value::decimal(scaled, 30, scale);
}

const std::vector<Case>& cases() {
  const double kTwo63 = 9223372036854775808.0;
  const double kInf = std::numeric_limits<double>::infinity();
  const double kNaN = std::numeric_limits<double>::quiet_NaN();
  static const std::vector<Case> all = {
      // double -> integer: rint (half to even), the bounds (2^63 excluded, -2^63 included)
      {Value::double_value(2.5), SqlType::integer(), "2"},
      {Value::double_value(3.5), SqlType::small_int(), "4"},
      {Value::double_value(-0.5), SqlType::integer(), "0"},
      {Value::double_value(32767.5), SqlType::small_int(), "ERROR: smallint out of range"},
      {Value::double_value(-32768.5), SqlType::small_int(), "-32768"},
      {Value::double_value(2147483647.5), SqlType::integer(), "ERROR: integer out of range"},
      {Value::double_value(-2147483648.5), SqlType::integer(), "-2147483648"},
      {Value::double_value(kTwo63), SqlType::big_int(), "ERROR: bigint out of range"},
      {Value::double_value(-kTwo63), SqlType::big_int(), "-9223372036854775808"},
      {Value::double_value(9223372036854774784.0), SqlType::big_int(), "9223372036854774784"},
      {Value::double_value(kNaN), SqlType::integer(), "ERROR: integer out of range"},
      {Value::double_value(kNaN), SqlType::big_int(), "ERROR: bigint out of range"},
      {Value::double_value(kInf), SqlType::big_int(), "ERROR: bigint out of range"},
      {Value::double_value(-kInf), SqlType::small_int(), "ERROR: smallint out of range"},
      // double -> numeric: through the shortest text, rounding half away from zero
      {Value::double_value(0.125), SqlType::decimal(10, 2), "0.13"},
      {Value::double_value(-0.125), SqlType::decimal(10, 2), "-0.13"},
      {Value::double_value(1e300), SqlType::decimal(10, 2), "ERROR: numeric field overflow"},
      {Value::double_value(kInf), SqlType::decimal(10, 2), "ERROR: numeric field overflow"},
      {Value::double_value(-kInf), SqlType::decimal(10, 2), "ERROR: numeric field overflow"},
      // PostgreSQL returns NaN; floe's numeric has none (docs/sql.md)
      {Value::double_value(kNaN), SqlType::decimal(10, 2), "ERROR: cannot convert NaN to numeric"},
      // numeric -> integer: half away from zero, then the range
      {numeric(327675, 1), SqlType::small_int(), "ERROR: smallint out of range"},
      {numeric(327665, 1), SqlType::small_int(), "32767"},
      {numeric(-25, 1), SqlType::integer(), "-3"},
      {numeric(-327684999, 4), SqlType::small_int(), "-32768"},
      {numeric(int128_t{100000000000} * 1000000000, 0), SqlType::big_int(),
       "ERROR: bigint out of range"},
      // numeric -> numeric, numeric -> double
      {numeric(1234567, 4), SqlType::decimal(5, 2), "123.46"},
      {numeric(123456789, 4), SqlType::decimal(5, 2), "ERROR: numeric field overflow"},
      {numeric(50, 4), SqlType::decimal(3, 2), "0.01"},
      {numeric(1234567, 4), SqlType::double_type(), "123.4567"},
      // integer -> integer, numeric, double, boolean; boolean -> integer
      {Value::big_int(40000), SqlType::small_int(), "ERROR: smallint out of range"},
      {Value::big_int(-32769), SqlType::small_int(), "ERROR: smallint out of range"},
      {Value::big_int(3000000000), SqlType::integer(), "ERROR: integer out of range"},
      {Value::big_int(-2147483648), SqlType::integer(), "-2147483648"},
      {Value::big_int(12345), SqlType::decimal(4, 0), "ERROR: numeric field overflow"},
      {Value::big_int(std::numeric_limits<int64_t>::max()), SqlType::decimal(19, 0),
       "9223372036854775807"},
      {Value::big_int(std::numeric_limits<int64_t>::max()), SqlType::double_type(),
       "9.223372036854776e+18"},
      {Value::integer(5), SqlType::boolean(), "t"},
      {Value::integer(0), SqlType::boolean(), "f"},
      {Value::boolean(true), SqlType::integer(), "1"},
      // date <-> timestamp (floor division before 1970)
      {Value::date(-1), SqlType::timestamp(), "1969-12-31 00:00:00"},
      {Value::timestamp(-1), SqlType::date(), "1969-12-31"},
      {Value::timestamp(0), SqlType::date(), "1970-01-01"},
      // text -> numbers: parsed as the target type
      {text("x"), SqlType::integer(), "ERROR: invalid input syntax for type integer: \"x\""},
      {text("x"), SqlType::small_int(), "ERROR: invalid input syntax for type smallint: \"x\""},
      {text("1.5"), SqlType::integer(), "ERROR: invalid input syntax for type integer: \"1.5\""},
      {text("3000000000"), SqlType::integer(),
       "ERROR: value \"3000000000\" is out of range for type integer"},
      {text("99999"), SqlType::small_int(),
       "ERROR: value \"99999\" is out of range for type smallint"},
      {text(" +12 "), SqlType::integer(), "12"},
      {text("1e400"), SqlType::double_type(),
       "ERROR: \"1e400\" is out of range for type double precision"},
      {text("1e-400"), SqlType::double_type(),
       "ERROR: \"1e-400\" is out of range for type double precision"},
      {text("abc"), SqlType::decimal(10, 2),
       "ERROR: invalid input syntax for type numeric: \"abc\""},
      {text("1e5"), SqlType::decimal(4, 0), "ERROR: numeric field overflow"},
      {text("5"), SqlType::boolean(), "ERROR: invalid input syntax for type boolean: \"5\""},
  };
  return all;
}

class CastSemanticsTest : public ::testing::Test {
 protected:
  // Generated code: the cast of a column holding the input (so nothing is folded).
  std::string compiled(const Case& c, size_t index) {
    std::string table = "cast_input_" + std::to_string(index);
    connection_.query("create table " + table + " (x " + c.input.type().to_string() + ")");
    connection_.query("insert into " + table + " values ('" + c.input.to_string() + "')");
    return outcome([&] {
      Result result =
          connection_.query("select cast(x as " + c.target.to_string() + ") from " + table);
      return result.value(0, 0);
    });
  }

  Database database_;
  Connection connection_{database_};
};

TEST_F(CastSemanticsTest, GeneratedCodeExecutorAndValuesAgreeWithPostgres) {
  for (size_t i = 0; i < cases().size(); ++i) {
    const Case& c = cases()[i];
    SCOPED_TRACE(c.input.type().to_string() + " " + c.input.to_string() + " -> " +
                 c.target.to_string());
    EXPECT_EQ(outcome([&] { return cast_value(c.input, c.target, CastKind::kExplicit); }),
              c.expected)
        << "cast_value";
    EXPECT_EQ(outcome([&] {
                return vectorized::evaluate_scalar(
                    *plan::make_cast(plan::make_constant(c.input), c.target));
              }),
              c.expected)
        << "vectorized";
    EXPECT_EQ(compiled(c, i), c.expected) << "generated code";
  }
}

// A NULL stays NULL on every path, without running the cast.
TEST_F(CastSemanticsTest, NullStaysNull) {
  Value null = Value::null(SqlType::double_type());
  EXPECT_TRUE(cast_value(null, SqlType::small_int()).is_null());
  EXPECT_TRUE(
      vectorized::evaluate_scalar(*plan::make_cast(plan::make_constant(null), SqlType::small_int()))
          .is_null());
  connection_.query("create table cast_nulls (x double precision)");
  connection_.query("insert into cast_nulls values (null), ('NaN')");
  Result result = connection_.query("select cast(x as smallint) from cast_nulls where x is null");
  ASSERT_EQ(result.row_count(), 1u);
  EXPECT_TRUE(result.value(0, 0).is_null());
}

}  // namespace
}  // namespace floe
