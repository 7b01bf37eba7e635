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

// Parses "-12.345", "1e3", ".5" into an integer scaled by 10^scale, rounding half away from
// zero (PostgreSQL numeric rounding). Fails when the text is malformed or the value needs
// more than `precision` digits.
std::optional<int128_t> try_parse_decimal(std::string_view text, unsigned precision,
                                          unsigned scale);

// Number of digits left of the point plus scale needed to represent the literal exactly.
// Used to type untyped numeric literals such as 0.06 -> numeric(3,2).
bool decimal_literal_shape(std::string_view text, unsigned& precision, unsigned& scale);

std::string format_decimal(int128_t value, unsigned scale);

// value * 10^(to - from) with half-away-from-zero rounding when scaling down.
int128_t rescale_decimal(int128_t value, unsigned from_scale, unsigned to_scale);

std::string format_int128(int128_t value);

}  // namespace floe
