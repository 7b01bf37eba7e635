// One scan restriction, ready to run over one array of values (Data Blocks paper §4.2): the
// plain values of a hot chunk or of an uncompressed block column, or the codes of a
// dictionary-compressed or truncated block column once the restriction's constants are
// translated into the block's compressed domain. `find` produces the initial match
// positions of a row range, `reduce` keeps the positions of an earlier match vector that
// also pass. Integer, code and double ranges use the SIMD kernels of simd_match.h; strings,
// 128-bit decimals and IN lists are compared by scalar code. NULLs are not looked at here:
// the scanner removes NULL rows with the column's validity bitmap.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "runtime/scan_restriction.h"
#include "storage/types.h"

namespace floe {

class ArrayMatcher {
 public:
  virtual ~ArrayMatcher() = default;
  // Writes the positions p in [begin, end) whose value passes, ascending, to `out` (room for
  // end - begin + kMatchPadding entries); returns their count.
  virtual uint32_t find(const void* values, uint32_t begin, uint32_t end, uint32_t* out) const = 0;
  // Keeps the positions among `positions[0, count)` whose value passes, in order; `out` may
  // be `positions`. Returns the new count.
  virtual uint32_t reduce(const void* values, const uint32_t* positions, uint32_t count,
                          uint32_t* out) const = 0;
};

// Extra room a match vector needs past its last possible entry (SIMD stores whole registers).
constexpr uint32_t kMatchPadding = 64;

// A range or IN restriction over plain values of `type`; null when nothing can pass (for
// example x < -32768 on a smallint).
std::unique_ptr<ArrayMatcher> make_value_matcher(PhysicalType type,
                                                 const ScanRestriction& restriction);

// Whether one value passes `restriction` (NULL passes only IS NULL); `matcher` is the
// restriction's make_value_matcher (null for IS [NOT] NULL and when nothing can pass).
bool value_passes(const ScanRestriction& restriction, const ArrayMatcher* matcher,
                  const Value& value);

// Codes of `width` bytes (1, 2 or 4, unsigned) in the inclusive range [low, high].
std::unique_ptr<ArrayMatcher> make_code_range_matcher(unsigned width, uint32_t low, uint32_t high);
// Codes of `width` bytes equal to one of `codes` (sorted, distinct).
std::unique_ptr<ArrayMatcher> make_code_set_matcher(unsigned width, std::vector<uint32_t> codes);

}  // namespace floe
