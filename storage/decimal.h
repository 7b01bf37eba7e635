// Exact decimal arithmetic helpers: values are integers scaled by 10^scale (DESIGN.md
// "Data model"). int128 carries wide results and sums.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace floe {

using int128_t = __int128;

// 10^exponent for 0 <= exponent <= 38.
int128_t power_of_ten(unsigned exponent);

// PostgreSQL's error for a value with more digits than its numeric type allows.
constexpr const char* kNumericOverflow = "numeric field overflow";

// Whether "-12.345", "1e3", ".5" ... is a well-formed number (of any size).
bool is_decimal_text(std::string_view text);

// Parses decimal text into an integer scaled by 10^scale, rounding half away from zero
// (PostgreSQL numeric rounding). Fails when the text is malformed or the value needs more
// than `precision` digits.
std::optional<int128_t> try_parse_decimal(std::string_view text, unsigned precision,
                                          unsigned scale);

// Number of digits left of the point plus scale needed to represent the literal exactly.
// Used to type untyped numeric literals such as 0.06 -> numeric(3,2).
bool decimal_literal_shape(std::string_view text, unsigned& precision, unsigned& scale);

std::string format_decimal(int128_t value, unsigned scale);

// The one definition of floe's exact decimal operations (DECIMAL(p,s) values are integers
// scaled by 10^s). Constant folding calls these; generated code calls them through
// runtime_abi.h or inlines the trivial ones (add, subtract, multiply: an overflow-checked
// machine operation and the precision check). A result needing more than `precision` digits
// is an overflow (nullopt): PostgreSQL's numeric(p,s) typmod check, "numeric field overflow".
// floe's numeric has no unbounded form, so every result is held to its type's precision.

// Whether a scaled value has at most `precision` digits: |value| <= 10^precision - 1.
bool fits_precision(int128_t value, unsigned precision);

// a + b, a - b with both operands at the result's scale.
std::optional<int128_t> add_decimals(int128_t a, int128_t b, unsigned precision);
std::optional<int128_t> subtract_decimals(int128_t a, int128_t b, unsigned precision);
// a * b: the product's scale is the sum of the operands' scales.
std::optional<int128_t> multiply_decimals(int128_t a, int128_t b, unsigned precision);

// A value of scale `from_scale` as numeric(to_precision, to_scale): multiplied by
// 10^(to - from), or divided with half-away-from-zero rounding when the scale shrinks.
std::optional<int128_t> rescale_decimal(int128_t value, unsigned from_scale, unsigned to_precision,
                                        unsigned to_scale);

// The value of one of the operations above; throws floe::Error(kNumericOverflow) for nullopt.
int128_t decimal_or_overflow(std::optional<int128_t> result);

std::string format_int128(int128_t value);

}  // namespace floe
