#include "storage/decimal.h"

#include <algorithm>
#include <array>

#include "storage/error.h"

namespace floe {

int128_t power_of_ten(unsigned exponent) {
  static const auto kTable = [] {
    std::array<int128_t, 39> table{};
    table[0] = 1;
    for (size_t i = 1; i < table.size(); ++i) table[i] = table[i - 1] * 10;
    return table;
  }();
  return kTable[exponent];
}

namespace {

// Splits "[-+]digits[.digits][e[-+]digits]" into sign, digit string and decimal exponent.
bool split_decimal(std::string_view text, bool& negative, std::string& digits, int& exponent) {
  size_t pos = 0;
  while (pos < text.size() && text[pos] == ' ') ++pos;
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  negative = false;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) negative = text[pos++] == '-';
  digits.clear();
  exponent = 0;
  bool seen_point = false, seen_digit = false;
  for (; pos < text.size(); ++pos) {
    char c = text[pos];
    if (c >= '0' && c <= '9') {
      seen_digit = true;
      if (!(digits.empty() && c == '0')) digits += c;
      if (seen_point) --exponent;
      if (digits.empty() && seen_point) continue;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (!seen_digit) return false;
  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    ++pos;
    bool exp_negative = false;
    if (pos < text.size() && (text[pos] == '-' || text[pos] == '+'))
      exp_negative = text[pos++] == '-';
    if (pos == text.size()) return false;
    int value = 0;
    for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos) {
      value = value * 10 + (text[pos] - '0');
      if (value > 1000) return false;
    }
    exponent += exp_negative ? -value : value;
  }
  return pos == text.size();
}

}  // namespace

bool is_decimal_text(std::string_view text) {
  bool negative;
  std::string digits;
  int exponent;
  return split_decimal(text, negative, digits, exponent);
}

std::optional<int128_t> try_parse_decimal(std::string_view text, unsigned precision,
                                          unsigned scale) {
  bool negative;
  std::string digits;
  int exponent;
  if (!split_decimal(text, negative, digits, exponent)) return std::nullopt;
  // value = digits * 10^exponent; we want round(value * 10^scale).
  int shift = exponent + static_cast<int>(scale);
  int128_t result = 0;
  bool round_up = false;
  size_t keep = digits.size();
  if (shift < 0) {
    size_t dropped = std::min<size_t>(digits.size(), static_cast<size_t>(-shift));
    keep = digits.size() - dropped;
    round_up = static_cast<size_t>(-shift) <= digits.size() && digits[keep] >= '5';
    shift = 0;
  }
  if (keep + static_cast<size_t>(shift) > precision) {
    // Too many integral digits unless everything kept is zero.
    if (keep > 0) return std::nullopt;
  }
  for (size_t i = 0; i < keep; ++i) result = result * 10 + (digits[i] - '0');
  result *= power_of_ten(static_cast<unsigned>(shift));
  if (round_up) ++result;
  if (result >= power_of_ten(precision)) return std::nullopt;
  return negative ? -result : result;
}

bool decimal_literal_shape(std::string_view text, unsigned& precision, unsigned& scale) {
  bool negative;
  std::string digits;
  int exponent;
  if (!split_decimal(text, negative, digits, exponent)) return false;
  scale = exponent < 0 ? static_cast<unsigned>(-exponent) : 0;
  int integral = static_cast<int>(digits.size()) + exponent;
  precision = static_cast<unsigned>(std::max(integral, 1)) + scale;
  if (digits.size() > scale + static_cast<unsigned>(std::max(integral, 0)))
    precision = static_cast<unsigned>(digits.size());
  return precision <= 38;
}

std::string format_int128(int128_t value) {
  if (value == 0) return "0";
  bool negative = value < 0;
  unsigned __int128 magnitude =
      negative ? static_cast<unsigned __int128>(-(value + 1)) + 1 : static_cast<unsigned __int128>(value);
  std::string out;
  while (magnitude) {
    out += static_cast<char>('0' + static_cast<int>(magnitude % 10));
    magnitude /= 10;
  }
  if (negative) out += '-';
  std::reverse(out.begin(), out.end());
  return out;
}

std::string format_decimal(int128_t value, unsigned scale) {
  bool negative = value < 0;
  std::string digits = format_int128(negative ? -value : value);
  if (scale == 0) return (negative ? "-" : "") + digits;
  if (digits.size() <= scale) digits.insert(0, scale + 1 - digits.size(), '0');
  digits.insert(digits.size() - scale, ".");
  return (negative ? "-" : "") + digits;
}

bool fits_precision(int128_t value, unsigned precision) {
  int128_t limit = power_of_ten(precision);
  return value < limit && value > -limit;
}

namespace {

std::optional<int128_t> if_fits(int128_t value, unsigned precision) {
  if (!fits_precision(value, precision)) return std::nullopt;
  return value;
}

}  // namespace

std::optional<int128_t> add_decimals(int128_t a, int128_t b, unsigned precision) {
  int128_t result;
  if (__builtin_add_overflow(a, b, &result)) return std::nullopt;
  return if_fits(result, precision);
}

std::optional<int128_t> subtract_decimals(int128_t a, int128_t b, unsigned precision) {
  int128_t result;
  if (__builtin_sub_overflow(a, b, &result)) return std::nullopt;
  return if_fits(result, precision);
}

std::optional<int128_t> multiply_decimals(int128_t a, int128_t b, unsigned precision) {
  int128_t result;
  if (__builtin_mul_overflow(a, b, &result)) return std::nullopt;
  return if_fits(result, precision);
}

std::optional<int128_t> rescale_decimal(int128_t value, unsigned from_scale, unsigned to_precision,
                                        unsigned to_scale) {
  if (to_scale >= from_scale) {
    return multiply_decimals(value, power_of_ten(to_scale - from_scale), to_precision);
  }
  int128_t divisor = power_of_ten(from_scale - to_scale);
  int128_t quotient = value / divisor;
  int128_t remainder = value % divisor;
  // Half away from zero: |remainder| >= divisor / 2, written so that nothing overflows.
  int128_t magnitude = remainder < 0 ? -remainder : remainder;
  if (magnitude >= divisor - magnitude) quotient += remainder < 0 ? -1 : 1;
  return if_fits(quotient, to_precision);
}

int128_t decimal_or_overflow(std::optional<int128_t> result) {
  if (!result) throw Error(kNumericOverflow);
  return *result;
}

}  // namespace floe
