// BlockColumn: decoding, domain translation and PSMA lookups on one column of a Data Block.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "storage/data_block.h"
#include "storage/data_block_layout.h"
#include "storage/physical_order.h"

namespace floe {

using block_format::ColumnHeader;

namespace {

// The null bitmap of all-NULL columns, which store none.
alignas(64) constexpr uint64_t kNoneValid[block_format::kMaxTupleCount / 64] = {};

template <typename T>
T load(const void* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

}  // namespace

BlockColumn::BlockColumn(const uint8_t* block, const ColumnHeader* header, uint32_t tuple_count)
    : block_(block), header_(header), tuple_count_(tuple_count), min_{}, max_{} {
  if (physical_type() == PhysicalType::kString) {
    if (all_null()) return;
    const StringRef min = sma_string(0), max = sma_string(1);
    std::memcpy(min_, &min, sizeof min);
    std::memcpy(max_, &max, sizeof max);
  } else {
    const size_t size = physical_size(physical_type());
    std::memcpy(min_, block + header->sma_offset, size);
    std::memcpy(max_, block + header->sma_offset + block_format::kSmaSlotBytes, size);
  }
}

StringRef BlockColumn::sma_string(int slot) const {
  const auto* fields = reinterpret_cast<const uint32_t*>(block_ + header_->sma_offset +
                                                         slot * block_format::kSmaSlotBytes);
  const char* strings = reinterpret_cast<const char*>(block_ + header_->strings_offset);
  return StringRef::from({strings + fields[0], fields[1]});
}

CodeType BlockColumn::code_type() const {
  switch (scheme()) {
    case Scheme::kSingleValue:
      return CodeType::kNone;
    case Scheme::kDictionary:
    case Scheme::kTruncation:
      return code_width() == 1 ? CodeType::kUInt8
                               : (code_width() == 2 ? CodeType::kUInt16 : CodeType::kUInt32);
    case Scheme::kUncompressed:
      break;
  }
  switch (physical_type()) {
    case PhysicalType::kBool:
      return CodeType::kUInt8;
    case PhysicalType::kInt16:
      return CodeType::kInt16;
    case PhysicalType::kInt32:
      return CodeType::kInt32;
    case PhysicalType::kInt64:
      return CodeType::kInt64;
    case PhysicalType::kInt128:
      return CodeType::kInt128;
    case PhysicalType::kDouble:
      return CodeType::kDouble;
    case PhysicalType::kInterval:
    case PhysicalType::kString:
      break;
  }
  return CodeType::kNone;
}

const void* BlockColumn::codes() const {
  return header_->codes_offset ? block_ + header_->codes_offset : nullptr;
}

const uint64_t* BlockColumn::null_bitmap() const {
  if (all_null()) return kNoneValid;
  if (!header_->nulls_offset) return nullptr;
  return reinterpret_cast<const uint64_t*>(block_ + header_->nulls_offset);
}

size_t BlockColumn::compressed_bytes() const {
  return sizeof(ColumnHeader) + block_format::section_sizes(*header_, tuple_count_).span();
}

// Dictionary entry `code`.
template <typename T>
T BlockColumn::entry(uint32_t code) const {
  if constexpr (std::is_same_v<T, StringRef>) {
    const auto* offsets = reinterpret_cast<const uint32_t*>(block_ + header_->dictionary_offset);
    const char* strings = reinterpret_cast<const char*>(block_ + header_->strings_offset);
    return StringRef::from({strings + offsets[code], offsets[code + 1] - offsets[code]});
  } else {
    return reinterpret_cast<const T*>(block_ + header_->dictionary_offset)[code];
  }
}

namespace {

// Largest string dictionary decode_rows decodes up front (16 bytes per entry, on the stack).
constexpr uint32_t kDecodedDictionaryLimit = 256;

// Decodes rows row_of(0..count-1) of a column into `out`, with the scheme switch outside the
// loops.
template <typename T, typename RowOf, typename Entry>
void decode_rows(const BlockColumn& column, RowOf row_of, uint32_t count, T* out, Entry entry) {
  const void* codes = column.codes();
  switch (column.scheme()) {
    case Scheme::kSingleValue: {
      const T value = column.min_as<T>();
      std::fill(out, out + count, value);
      return;
    }
    case Scheme::kDictionary:
      block_format::with_code_type(column.code_width(), [&](auto tag) {
        const auto* typed = static_cast<const decltype(tag)*>(codes);
        if constexpr (std::is_same_v<T, StringRef>) {
          // Building a StringRef copies a variable number of bytes; for a small dictionary
          // (flags, modes, segments) build each entry once and copy 16-byte values.
          if (column.dictionary_size() <= kDecodedDictionaryLimit &&
              column.dictionary_size() <= count) {
            std::array<StringRef, kDecodedDictionaryLimit> decoded;
            for (uint32_t code = 0; code < column.dictionary_size(); ++code)
              decoded[code] = entry(code);
            for (uint32_t i = 0; i < count; ++i) out[i] = decoded[typed[row_of(i)]];
            return;
          }
        }
        for (uint32_t i = 0; i < count; ++i) out[i] = entry(typed[row_of(i)]);
      });
      return;
    case Scheme::kTruncation:
      if constexpr (kIsIntegerLike<T>) {
        using U = typename UnsignedOf<T>::type;
        const U min = static_cast<U>(column.min_as<T>());
        block_format::with_code_type(column.code_width(), [&](auto tag) {
          const auto* typed = static_cast<const decltype(tag)*>(codes);
          for (uint32_t i = 0; i < count; ++i)
            out[i] = static_cast<T>(static_cast<U>(min + typed[row_of(i)]));
        });
      }
      return;
    case Scheme::kUncompressed: {
      const T* typed = static_cast<const T*>(codes);
      for (uint32_t i = 0; i < count; ++i) out[i] = typed[row_of(i)];
      return;
    }
  }
}

}  // namespace

void BlockColumn::unpack(const uint32_t* positions, uint32_t count, void* out) const {
  visit_physical(physical_type(), [&](auto tag) {
    using T = decltype(tag);
    decode_rows<T>(
        *this, [positions](uint32_t i) { return positions[i]; }, count, static_cast<T*>(out),
        [this](uint32_t code) { return entry<T>(code); });
  });
}

void BlockColumn::unpack_range(uint32_t begin, uint32_t count, void* out) const {
  visit_physical(physical_type(), [&](auto tag) {
    using T = decltype(tag);
    if (scheme() == Scheme::kUncompressed) {
      std::memcpy(out, static_cast<const T*>(codes()) + begin, size_t{count} * sizeof(T));
      return;
    }
    decode_rows<T>(
        *this, [begin](uint32_t i) { return begin + i; }, count, static_cast<T*>(out),
        [this](uint32_t code) { return entry<T>(code); });
  });
}

void BlockColumn::unpack_dictionary(void* out) const {
  visit_physical(physical_type(), [&](auto tag) {
    using T = decltype(tag);
    T* typed = static_cast<T*>(out);
    for (uint32_t code = 0; code < dictionary_size(); ++code) typed[code] = entry<T>(code);
  });
}

namespace {

template <typename RowOf>
void gather_validity(const uint64_t* bits, RowOf row_of, uint32_t count, uint64_t* out) {
  const uint32_t words = (count + 63) / 64;
  if (!bits) {
    std::fill(out, out + words, ~uint64_t{0});
    if (count % 64) out[words - 1] = (uint64_t{1} << (count % 64)) - 1;
    return;
  }
  std::fill(out, out + words, 0);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t row = row_of(i);
    out[i >> 6] |= (bits[row >> 6] >> (row & 63) & 1) << (i & 63);
  }
}

}  // namespace

void BlockColumn::unpack_validity(const uint32_t* positions, uint32_t count, uint64_t* out) const {
  gather_validity(
      null_bitmap(), [positions](uint32_t i) { return positions[i]; }, count, out);
}

void BlockColumn::unpack_validity_range(uint32_t begin, uint32_t count, uint64_t* out) const {
  gather_validity(
      null_bitmap(), [begin](uint32_t i) { return begin + i; }, count, out);
}

// Domain translation (paper §3.4): first the SMA decides whether no row or every row can
// match; otherwise the bounds move into the code domain.
template <typename T>
CodeRange BlockColumn::translate_typed(std::optional<ValueBound> low,
                                       std::optional<ValueBound> high) const {
  CodeRange result;
  if (all_null()) return result;
  const T min = min_as<T>();
  const T max = max_as<T>();
  const T low_value = low ? load<T>(low->value) : T{};
  const T high_value = high ? load<T>(high->value) : T{};
  const int low_vs_min = low ? sql_compare(low_value, min) : -1;
  const int high_vs_max = high ? sql_compare(high_value, max) : 1;
  if (low) {
    const int c = sql_compare(low_value, max);
    if (c > 0 || (c == 0 && !low->inclusive)) return result;
  }
  if (high) {
    const int c = sql_compare(high_value, min);
    if (c < 0 || (c == 0 && !high->inclusive)) return result;
  }
  // Whether a bound excludes some value in [min, max].
  const bool low_cuts = low_vs_min > 0 || (low_vs_min == 0 && !low->inclusive);
  const bool high_cuts = high_vs_max < 0 || (high_vs_max == 0 && !high->inclusive);
  if (!low_cuts && !high_cuts) {
    result.kind = CodeRange::Kind::kAll;
    return result;
  }

  if (scheme() == Scheme::kDictionary) {
    // First entry not below the low bound, last entry not above the high bound.
    const uint32_t entries = dictionary_size();
    auto first_where = [&](auto predicate) {  // predicate: false ... false true ... true
      uint32_t lo = 0, hi = entries;
      while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (predicate(entry<T>(mid))) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      return lo;
    };
    const int64_t first = !low_cuts ? 0 : first_where([&](const T& v) {
      const int c = sql_compare(v, low_value);
      return low->inclusive ? c >= 0 : c > 0;
    });
    const int64_t last = !high_cuts ? int64_t{entries} - 1
                                    : int64_t{first_where([&](const T& v) {
                                        const int c = sql_compare(v, high_value);
                                        return high->inclusive ? c > 0 : c >= 0;
                                      })} -
                                          1;
    if (first > last) return result;
    result.kind = CodeRange::Kind::kCodes;
    result.lo.u = static_cast<uint32_t>(first);
    result.hi.u = static_cast<uint32_t>(last);
    return result;
  }

  if constexpr (kIsIntegerLike<T>) {
    // The bounds are inside (min, max) where they cut, so +1 and -1 cannot overflow.
    const T first = !low_cuts ? min : (low->inclusive ? low_value : static_cast<T>(low_value + 1));
    const T last =
        !high_cuts ? max : (high->inclusive ? high_value : static_cast<T>(high_value - 1));
    if (last < first) return result;
    result.kind = CodeRange::Kind::kCodes;
    if (scheme() == Scheme::kTruncation || std::is_unsigned_v<T>) {
      const T base = scheme() == Scheme::kTruncation ? min : T{0};
      result.lo.u = static_cast<uint32_t>(delta_of(first, base));
      result.hi.u = static_cast<uint32_t>(delta_of(last, base));
    } else if constexpr (sizeof(T) == 16) {
      result.lo.i128 = first;
      result.hi.i128 = last;
    } else {
      result.lo.i = first;
      result.hi.i = last;
    }
    return result;
  } else if constexpr (std::is_same_v<T, double>) {
    // IEEE comparisons on the raw doubles treat NaN unlike SQL (NaN = NaN, above all): where
    // that matters, leave the restriction to the values.
    if (std::isnan(low_value) || (high && std::isnan(high_value)) ||
        (std::isnan(max) && !high_cuts)) {
      result.kind = CodeRange::Kind::kValues;
      return result;
    }
    constexpr double kInfinity = std::numeric_limits<double>::infinity();
    const double first =
        !low_cuts ? min : (low->inclusive ? low_value : std::nextafter(low_value, kInfinity));
    const double last =
        !high_cuts ? max : (high->inclusive ? high_value : std::nextafter(high_value, -kInfinity));
    if (last < first) return result;
    result.kind = CodeRange::Kind::kCodes;
    result.lo.d = first;
    result.hi.d = last;
    return result;
  } else {
    result.kind = CodeRange::Kind::kValues;  // uncompressed INTERVAL
    return result;
  }
}

CodeRange BlockColumn::translate(std::optional<ValueBound> low,
                                 std::optional<ValueBound> high) const {
  return visit_physical(physical_type(),
                        [&](auto tag) { return translate_typed<decltype(tag)>(low, high); });
}

CodeRange BlockColumn::translate_equal(const void* value) const {
  return translate(ValueBound{value, true}, ValueBound{value, true});
}

RowRange BlockColumn::psma_deltas(uint64_t low, uint64_t high) const {
  if (!has_psma()) return {0, tuple_count_};
  return psma_lookup(reinterpret_cast<const RowRange*>(block_ + header_->psma_offset),
                     psma_slot_count(header_->psma_width), low, high);
}

RowRange BlockColumn::psma_range(uint32_t low, uint32_t high) const {
  return psma_deltas(low, high);
}

RowRange BlockColumn::psma_range(const CodeRange& codes) const {
  if (codes.kind == CodeRange::Kind::kNone) return {};
  if (codes.kind != CodeRange::Kind::kCodes || !has_psma()) return {0, tuple_count_};
  if (scheme() != Scheme::kUncompressed) return psma_deltas(codes.lo.u, codes.hi.u);
  // Uncompressed integers: the PSMA indexes value - min.
  return visit_physical(physical_type(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (kIsIntegerLike<T> && sizeof(T) <= 8) {
      const T min = min_as<T>();
      return psma_deltas(delta_of(codes.low<T>(), min), delta_of(codes.high<T>(), min));
    }
    return RowRange{0, tuple_count_};
  });
}

}  // namespace floe
