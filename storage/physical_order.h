// The SQL order of physical values, as Data Blocks keep it in their dictionaries, SMAs and
// sorted freezes: integers signed, BOOLEAN false < true, DOUBLE by value with NaN equal to
// itself and above every other value (PostgreSQL), INTERVAL by span (compare_intervals),
// strings bytewise (StringRef::compare, the "C" collation).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "storage/decimal.h"
#include "storage/interval.h"
#include "storage/string_ref.h"
#include "storage/types.h"

namespace floe {

// <0, 0, >0.
template <typename T>
int sql_compare(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, Interval>) {
    return compare_intervals(a, b);
  } else if constexpr (std::is_same_v<T, StringRef>) {
    // The 4-byte prefixes as big-endian numbers decide most comparisons without a memcmp.
    if (a.length >= 4 && b.length >= 4) {
      uint32_t a_prefix, b_prefix;
      std::memcpy(&a_prefix, a.prefix, 4);
      std::memcpy(&b_prefix, b.prefix, 4);
      if (a_prefix != b_prefix)
        return __builtin_bswap32(a_prefix) < __builtin_bswap32(b_prefix) ? -1 : 1;
    }
    return StringRef::compare(a, b);
  } else {
    if constexpr (std::is_same_v<T, double>) {
      const bool a_nan = a != a, b_nan = b != b;
      if (a_nan || b_nan) return a_nan - b_nan;
    }
    return a < b ? -1 : (b < a ? 1 : 0);
  }
}

// Same representation: the same bits for fixed-size values, the same bytes for strings.
// Finer than SQL equality for DOUBLE (-0.0 and 0.0) and INTERVAL ('1 mon' and '30 days').
template <typename T>
bool identical(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, StringRef>) {
    return a == b;
  } else {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
  }
}

// A total order that refines sql_compare: values that are SQL-equal but not identical are
// ordered by their bytes, so a sort puts SQL-equal values next to each other, deterministically.
template <typename T>
bool total_less(const T& a, const T& b) {
  int c = sql_compare(a, b);
  if (c != 0 || std::is_integral_v<T> || std::is_same_v<T, int128_t> ||
      std::is_same_v<T, StringRef>)
    return c < 0;
  return std::memcmp(&a, &b, sizeof(T)) < 0;
}

// Calls f(T{}) with T the C++ type of a physical type's values (BOOLEAN: uint8_t 0 or 1).
template <typename F>
decltype(auto) visit_physical(PhysicalType type, F&& f) {
  switch (type) {
    case PhysicalType::kBool:
      return f(uint8_t{});
    case PhysicalType::kInt16:
      return f(int16_t{});
    case PhysicalType::kInt32:
      return f(int32_t{});
    case PhysicalType::kInt64:
      return f(int64_t{});
    case PhysicalType::kInt128:
      return f(int128_t{});
    case PhysicalType::kDouble:
      return f(double{});
    case PhysicalType::kInterval:
      return f(Interval{});
    case PhysicalType::kString:
      break;
  }
  return f(StringRef{});
}

// Integer-like physical types: truncation (value - min) and value-domain PSMAs apply.
template <typename T>
constexpr bool kIsIntegerLike = std::is_integral_v<T> || std::is_same_v<T, int128_t>;

template <typename T>
struct UnsignedOf {
  using type = std::make_unsigned_t<T>;
};
template <>
struct UnsignedOf<int128_t> {
  using type = unsigned __int128;
};

// value - min of integer-like values with value >= min, as an unsigned number of T's width.
template <typename T>
typename UnsignedOf<T>::type delta_of(T value, T min) {
  using U = typename UnsignedOf<T>::type;
  return static_cast<U>(static_cast<U>(value) - static_cast<U>(min));
}

}  // namespace floe
