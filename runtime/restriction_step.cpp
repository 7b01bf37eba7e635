#include "runtime/restriction_step.h"

#include <algorithm>

#include "runtime/simd_match.h"
#include "storage/data_block.h"

namespace floe {

namespace {

uint32_t select_null(const uint64_t* validity, const uint32_t* positions, uint32_t count,
                     uint32_t* out) {
  uint32_t kept = 0;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t p = positions[i];
    out[kept] = p;
    kept += !(validity[p >> 6] >> (p & 63) & 1);
  }
  return kept;
}

}  // namespace

uint32_t RestrictionStep::find(uint32_t begin, uint32_t end, uint32_t* out) const {
  switch (kind) {
    case Kind::kMatch: {
      uint32_t count = matcher->find(values, begin, end, out);
      return validity ? simd::select_valid(validity, 0, out, count, out) : count;
    }
    case Kind::kValid:
      return simd::find_valid(validity, 0, begin, end, out);
    case Kind::kNull:
      return simd::find_null(validity, 0, begin, end, out);
  }
  return 0;
}

uint32_t RestrictionStep::reduce(const uint32_t* positions, uint32_t count, uint32_t* out) const {
  switch (kind) {
    case Kind::kMatch:
      count = matcher->reduce(values, positions, count, out);
      return validity ? simd::select_valid(validity, 0, out, count, out) : count;
    case Kind::kValid:
      return simd::select_valid(validity, 0, positions, count, out);
    case Kind::kNull:
      return select_null(validity, positions, count, out);
  }
  return 0;
}

bool plan_hot_restriction(const HotChunk& chunk, const ScanRestriction& restriction,
                          const ArrayMatcher* value_matcher, std::vector<RestrictionStep>& steps) {
  const uint64_t* validity = chunk.validity(restriction.column);
  RestrictionStep step;
  step.validity = validity;
  switch (restriction.kind) {
    case ScanRestriction::Kind::kRange:
    case ScanRestriction::Kind::kIn:
      if (!value_matcher) return false;
      step.values = chunk.data(restriction.column);
      step.matcher = value_matcher;
      break;
    case ScanRestriction::Kind::kIsNull:
      if (!validity) return false;  // a NOT NULL column
      step.kind = RestrictionStep::Kind::kNull;
      break;
    case ScanRestriction::Kind::kIsNotNull:
      if (!validity) return true;
      step.kind = RestrictionStep::Kind::kValid;
      break;
  }
  steps.push_back(std::move(step));
  return true;
}

}  // namespace floe

namespace floe {

namespace {

// The restriction over the block column's values decoded into the step (codes cannot
// express it, e.g. NaN ordering of doubles).
void match_decoded_values(const BlockColumn& column, const ArrayMatcher* value_matcher,
                          RestrictionStep& step) {
  step.decoded.resize(physical_size(column.physical_type()) * column.tuple_count());
  column.unpack_range(0, column.tuple_count(), step.decoded.data());
  step.values = step.decoded.data();
  step.matcher = value_matcher;
}

// The restriction over the code array when the block stores plain values; otherwise over
// the codes in [low, high].
void match_codes(const BlockColumn& column, const ArrayMatcher* value_matcher, uint32_t low,
                 uint32_t high, RestrictionStep& step) {
  step.values = column.codes();
  if (column.scheme() == Scheme::kUncompressed) {
    step.matcher = value_matcher;
    return;
  }
  step.owned_matcher = make_code_range_matcher(column.code_width(), low, high);
  step.matcher = step.owned_matcher.get();
}

// Every code of a compressed column (what scanning without the SMA's verdict compares).
uint32_t max_code(const BlockColumn& column) {
  return column.code_width() >= 4 ? UINT32_MAX : (uint32_t{1} << (8 * column.code_width())) - 1;
}

std::optional<ValueBound> bound_of(const std::optional<ScanRestriction::Bound>& bound,
                                   uint8_t (&buffer)[16]) {
  if (!bound) return std::nullopt;
  bound->value.write_physical(buffer);
  return ValueBound{buffer, bound->inclusive};
}

// IN list over dictionary or truncation codes: the codes of the listed values. False when
// none is in the block.
bool plan_code_set(const BlockColumn& column, const ScanRestriction& restriction,
                   const ArrayMatcher* value_matcher, const ScanSettings& settings,
                   RestrictionStep& step, RowRange& range) {
  std::vector<uint32_t> codes;
  RowRange covered{UINT32_MAX, 0};
  for (const Value& value : restriction.values) {
    alignas(16) uint8_t buffer[16];
    value.write_physical(buffer);
    CodeRange equal = column.translate_equal(buffer);
    if (equal.kind == CodeRange::Kind::kNone) continue;
    if (equal.kind != CodeRange::Kind::kCodes) {
      match_decoded_values(column, value_matcher, step);
      return true;
    }
    for (uint64_t code = equal.lo.u; code <= equal.hi.u; ++code)
      codes.push_back(static_cast<uint32_t>(code));
    RowRange rows = column.psma_range(equal);
    covered = {std::min(covered.begin, rows.begin), std::max(covered.end, rows.end)};
  }
  if (codes.empty()) {
    if (settings.sma_skipping) return false;
    match_codes(column, value_matcher, 1, 0, step);  // scans, and finds nothing
    return true;
  }
  std::sort(codes.begin(), codes.end());
  codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
  step.values = column.codes();
  step.owned_matcher = make_code_set_matcher(column.code_width(), std::move(codes));
  step.matcher = step.owned_matcher.get();
  if (settings.psma)
    range = {std::max(range.begin, covered.begin), std::min(range.end, covered.end)};
  return true;
}

}  // namespace

bool plan_block_restriction(const DataBlock& block, const ScanRestriction& restriction,
                            const ArrayMatcher* value_matcher, const ScanSettings& settings,
                            std::vector<RestrictionStep>& steps, RowRange& range) {
  BlockColumn column = block.column(restriction.column);
  RestrictionStep step;
  step.validity = column.has_nulls() ? column.null_bitmap() : nullptr;
  switch (restriction.kind) {
    case ScanRestriction::Kind::kIsNull:
      if (!column.has_nulls()) return false;
      step.kind = RestrictionStep::Kind::kNull;
      steps.push_back(std::move(step));
      return true;
    case ScanRestriction::Kind::kIsNotNull:
      if (column.all_null()) return false;
      if (column.has_nulls()) {
        step.kind = RestrictionStep::Kind::kValid;
        steps.push_back(std::move(step));
      }
      return true;
    case ScanRestriction::Kind::kRange:
    case ScanRestriction::Kind::kIn:
      break;
  }
  if (column.all_null() || !value_matcher) return false;
  bool single_value = column.scheme() == Scheme::kSingleValue;
  if (restriction.kind == ScanRestriction::Kind::kIn && !single_value &&
      column.scheme() != Scheme::kUncompressed) {
    if (!plan_code_set(column, restriction, value_matcher, settings, step, range)) return false;
    steps.push_back(std::move(step));
    return true;
  }

  CodeRange codes;
  if (restriction.kind == ScanRestriction::Kind::kIn) {
    codes.kind = CodeRange::Kind::kValues;
  } else {
    alignas(16) uint8_t low[16], high[16];
    codes = column.translate(bound_of(restriction.low, low), bound_of(restriction.high, high));
  }
  if (single_value) {
    // No array to scan: the one value passes or not (NULL rows never do).
    alignas(16) uint8_t value[16];
    uint32_t first = 0;
    column.unpack(&first, 1, value);
    if (value_matcher->reduce(value, &first, 1, &first) == 0) return false;
    if (column.has_nulls()) {
      step.kind = RestrictionStep::Kind::kValid;
      steps.push_back(std::move(step));
    }
    return true;
  }
  switch (codes.kind) {
    case CodeRange::Kind::kNone:
      if (settings.sma_skipping) return false;
      match_codes(column, value_matcher, 1, 0, step);  // scans, and finds nothing
      break;
    case CodeRange::Kind::kAll:
      if (settings.sma_skipping) {
        if (!column.has_nulls()) return true;
        step.kind = RestrictionStep::Kind::kValid;
        break;
      }
      match_codes(column, value_matcher, 0, max_code(column), step);
      break;
    case CodeRange::Kind::kCodes:
      match_codes(column, value_matcher, codes.lo.u, codes.hi.u, step);
      if (settings.psma) {
        RowRange rows = column.psma_range(codes);
        range = {std::max(range.begin, rows.begin), std::min(range.end, rows.end)};
      }
      break;
    case CodeRange::Kind::kValues:
      if (column.scheme() == Scheme::kUncompressed)
        match_codes(column, value_matcher, 0, 0, step);
      else
        match_decoded_values(column, value_matcher, step);
      break;
  }
  steps.push_back(std::move(step));
  return true;
}

}  // namespace floe
