// Mathematical functions and the bitwise operators, with PostgreSQL's results and errors
// (its float.c, numeric.c and int.c): numeric rounds half away from zero, double precision
// rounds half to even (rint).
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "runtime/function_adapter.h"
#include "runtime/functions/function_families.h"
#include "storage/error.h"

namespace floe {

namespace {

// ---- integers ----------------------------------------------------------------------------

template <TypeId kType>
int64_t in_range(int128_t value) {
  return make_integer(value, SqlType{kType}).as_int64();  // "<type> out of range"
}

template <TypeId kType>
int64_t integer_abs(int64_t x) {
  return in_range<kType>(x < 0 ? -static_cast<int128_t>(x) : x);
}

// Bitwise operators. Shifts behave as PostgreSQL's C code does on x86-64: the count is taken
// modulo the width of the (promoted) left operand.
int64_t bit_and(int64_t a, int64_t b) {
  return a & b;
}
int64_t bit_or(int64_t a, int64_t b) {
  return a | b;
}
int64_t bit_xor(int64_t a, int64_t b) {
  return a ^ b;
}
int64_t bit_not(int64_t a) {
  return ~a;
}

template <TypeId kType>
int64_t shift_left(int64_t a, int64_t count) {
  if constexpr (kType == TypeId::kBigInt)
    return static_cast<int64_t>(static_cast<uint64_t>(a) << (count & 63));
  auto shifted = static_cast<int32_t>(static_cast<uint32_t>(a) << (count & 31));
  if constexpr (kType == TypeId::kSmallInt) return static_cast<int16_t>(shifted);
  return shifted;
}

template <TypeId kType>
int64_t shift_right(int64_t a, int64_t count) {
  if constexpr (kType == TypeId::kBigInt) return a >> (count & 63);
  auto shifted = static_cast<int32_t>(a) >> (count & 31);
  if constexpr (kType == TypeId::kSmallInt) return static_cast<int16_t>(shifted);
  return shifted;
}

// ---- double precision --------------------------------------------------------------------

// PostgreSQL's float8 checks: an infinite result from finite input overflowed, a zero result
// from non-zero input underflowed.
double checked(double result, bool inputs_finite, bool may_be_zero) {
  if (std::isinf(result) && inputs_finite) throw Error("value out of range: overflow");
  if (result == 0 && !may_be_zero) throw Error("value out of range: underflow");
  return result;
}

double double_abs(double x) {
  return std::fabs(x);
}
double double_round(double x) {
  return std::rint(x);
}
double double_trunc(double x) {
  return std::trunc(x);
}
double double_ceil(double x) {
  return std::ceil(x);
}
double double_floor(double x) {
  return std::floor(x);
}
double double_sign(double x) {
  return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0);
}
double pi() {
  return std::numbers::pi;
}
// Uniform in [0, 1), from a generator per thread (PostgreSQL's random() is also a 64-bit
// generator with 52-bit doubles; floe has no setseed(), since morsels run in no fixed order).
double random_fraction() {
  thread_local std::mt19937_64 generator{std::random_device{}()};
  return static_cast<double>(generator() >> 11) * 0x1.0p-53;
}

double double_sqrt(double x) {
  if (x < 0) throw Error("cannot take square root of a negative number");
  return std::sqrt(x);
}

double double_cbrt(double x) {
  return std::cbrt(x);
}

double double_exp(double x) {
  if (std::isnan(x)) return x;
  return checked(std::exp(x), std::isfinite(x), std::isinf(x));
}

void check_logarithm_argument(double x) {
  if (x == 0) throw Error("cannot take logarithm of zero");
  if (x < 0) throw Error("cannot take logarithm of a negative number");
}

double double_ln(double x) {
  check_logarithm_argument(x);
  return std::log(x);
}

double double_log10(double x) {
  check_logarithm_argument(x);
  return std::log10(x);
}

double double_power(double x, double y) {
  if (std::isnan(x)) return y == 0 ? 1 : x;
  if (std::isnan(y)) return x == 1 ? 1 : y;
  if (x == 0 && y < 0) throw Error("zero raised to a negative power is undefined");
  if (x < 0 && std::floor(y) != y && std::isfinite(y))
    throw Error("a negative number raised to a non-integer power yields a complex result");
  double result = std::pow(x, y);
  bool finite = std::isfinite(x) && std::isfinite(y);
  return checked(result, finite, x == 0 || !finite);
}

// ---- numeric -----------------------------------------------------------------------------

Decimal fitting(int128_t value, int32_t scale) {
  if (!fits_precision(value, kMaxDecimalPrecision)) throw Error(kNumericOverflow);
  return {value, scale};
}

Decimal decimal_abs(Decimal x) {
  return {x.value < 0 ? -x.value : x.value, x.scale};
}

Decimal decimal_sign(Decimal x) {
  return {(x.value > 0) - (x.value < 0), 0};
}

enum class Rounding { kHalfAwayFromZero, kTowardZero, kUp, kDown };

// x rounded to `digits` places after the point (before it when negative); the result has the
// scale max(digits, 0), as numeric_round and numeric_trunc report it.
Decimal round_decimal(Decimal x, int64_t digits, Rounding rounding) {
  if (digits > kMaxDecimalPrecision) throw Error(kNumericOverflow);
  auto scale = static_cast<int32_t>(std::max<int64_t>(digits, 0));
  if (digits >= x.scale) {
    auto value = multiply_decimals(x.value, power_of_ten(static_cast<unsigned>(digits - x.scale)),
                                   kMaxDecimalPrecision);
    return {decimal_or_overflow(value), scale};
  }
  // A value has at most 38 digits: dropping more leaves zero.
  int64_t dropped = x.scale - digits;
  if (dropped > kMaxDecimalPrecision) return {0, scale};
  int128_t unit = power_of_ten(static_cast<unsigned>(dropped));
  int128_t quotient = x.value / unit, remainder = x.value % unit;
  switch (rounding) {
    case Rounding::kHalfAwayFromZero: {
      int128_t magnitude = remainder < 0 ? -remainder : remainder;
      if (magnitude >= unit - magnitude) quotient += remainder < 0 ? -1 : 1;
      break;
    }
    case Rounding::kTowardZero:
      break;
    case Rounding::kUp:
      if (remainder > 0) ++quotient;
      break;
    case Rounding::kDown:
      if (remainder < 0) --quotient;
      break;
  }
  // Back up to the result's scale: for negative digits the quotient counts 10^-digits units.
  if (digits < 0) {
    auto value = multiply_decimals(quotient, power_of_ten(static_cast<unsigned>(-digits)),
                                   kMaxDecimalPrecision);
    return {decimal_or_overflow(value), 0};
  }
  return fitting(quotient, scale);
}

Decimal decimal_round(Decimal x) {
  return round_decimal(x, 0, Rounding::kHalfAwayFromZero);
}
Decimal decimal_round_to(Decimal x, int64_t digits) {
  return round_decimal(x, digits, Rounding::kHalfAwayFromZero);
}
Decimal decimal_trunc(Decimal x) {
  return round_decimal(x, 0, Rounding::kTowardZero);
}
Decimal decimal_trunc_to(Decimal x, int64_t digits) {
  return round_decimal(x, digits, Rounding::kTowardZero);
}
Decimal decimal_ceil(Decimal x) {
  return round_decimal(x, 0, Rounding::kUp);
}
Decimal decimal_floor(Decimal x) {
  return round_decimal(x, 0, Rounding::kDown);
}

// numeric(p,s) rounded to `scale` places: the integral digits stay, one more for a carry.
SqlType rounded_decimal(const SqlType& type, int64_t scale) {
  int integral = type.precision - type.scale + 1;
  int precision = std::min<int>(integral + static_cast<int>(scale), kMaxDecimalPrecision);
  return SqlType::decimal(static_cast<uint8_t>(std::max(precision, 1)),
                          static_cast<uint8_t>(scale));
}

ResultTypeRule rounded_to_scale_zero() {
  return [](std::span<const FunctionArgument> arguments) {
    return rounded_decimal(arguments[0].type, 0);
  };
}

// round(numeric, n) and trunc(numeric, n): the result's scale is n, so n must be known when
// the query is planned.
ResultTypeRule rounded_to_constant_digits(const char* name) {
  return [name](std::span<const FunctionArgument> arguments) {
    const Value* digits = arguments[1].constant;
    if (!digits) {
      throw NotSupported(std::string(name) +
                         "(numeric, integer) with a number of digits that is not a constant");
    }
    if (digits->is_null()) return rounded_decimal(arguments[0].type, 0);
    int64_t n = digits->as_int64();
    if (n > kMaxDecimalPrecision) throw NotSupported(std::string(name) + " to more than 38 digits");
    return rounded_decimal(arguments[0].type, std::max<int64_t>(n, 0));
  };
}

template <TypeId kType>
void register_integer_operators(FunctionRegistry& r) {
  ResultTypeRule same = returns(SqlType{kType});
  r.add("abs", {kType}, same, typed_function<integer_abs<kType>>);
  r.add("&", {kType, kType}, same, typed_function<bit_and>);
  r.add("|", {kType, kType}, same, typed_function<bit_or>);
  r.add("#", {kType, kType}, same, typed_function<bit_xor>);
  r.add("~", {kType}, same, typed_function<bit_not>);
  r.add("<<", {kType, TypeId::kInteger}, same, typed_function<shift_left<kType>>);
  r.add(">>", {kType, TypeId::kInteger}, same, typed_function<shift_right<kType>>);
}

}  // namespace

void register_math_functions(FunctionRegistry& r) {
  register_integer_operators<TypeId::kSmallInt>(r);
  register_integer_operators<TypeId::kInteger>(r);
  register_integer_operators<TypeId::kBigInt>(r);

  constexpr TypeId kDouble = TypeId::kDouble;
  constexpr TypeId kNumeric = TypeId::kDecimal;
  ResultTypeRule double_result = returns(SqlType::double_type());
  r.add("abs", {kDouble}, double_result, typed_function<double_abs>);
  r.add("round", {kDouble}, double_result, typed_function<double_round>);
  r.add("trunc", {kDouble}, double_result, typed_function<double_trunc>);
  r.add("ceil", {kDouble}, double_result, typed_function<double_ceil>);
  r.add("floor", {kDouble}, double_result, typed_function<double_floor>);
  r.add("sign", {kDouble}, double_result, typed_function<double_sign>);
  r.add("sqrt", {kDouble}, double_result, typed_function<double_sqrt>);
  r.add("cbrt", {kDouble}, double_result, typed_function<double_cbrt>);
  r.add("exp", {kDouble}, double_result, typed_function<double_exp>);
  r.add("ln", {kDouble}, double_result, typed_function<double_ln>);
  r.add("log", {kDouble}, double_result, typed_function<double_log10>);
  r.add("power", {kDouble, kDouble}, double_result, typed_function<double_power>);
  r.add("^", {kDouble, kDouble}, double_result, typed_function<double_power>);
  r.add("pi", {}, double_result, typed_function<pi>);
  r.add("random", {}, double_result, volatile_function<random_fraction>);

  r.add("abs", {kNumeric}, returns_first_argument_type(), typed_function<decimal_abs>);
  r.add(
      "sign", {kNumeric}, [](std::span<const FunctionArgument>) { return SqlType::decimal(1, 0); },
      typed_function<decimal_sign>);
  r.add("round", {kNumeric}, rounded_to_scale_zero(), typed_function<decimal_round>);
  r.add("round", {kNumeric, TypeId::kInteger}, rounded_to_constant_digits("round"),
        typed_function<decimal_round_to>);
  r.add("trunc", {kNumeric}, rounded_to_scale_zero(), typed_function<decimal_trunc>);
  r.add("trunc", {kNumeric, TypeId::kInteger}, rounded_to_constant_digits("trunc"),
        typed_function<decimal_trunc_to>);
  r.add("ceil", {kNumeric}, rounded_to_scale_zero(), typed_function<decimal_ceil>);
  r.add("floor", {kNumeric}, rounded_to_scale_zero(), typed_function<decimal_floor>);
  r.alias("ceiling", "ceil");
  r.alias("pow", "power");
}

}  // namespace floe
