#include "storage/art_key.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "storage/decimal.h"
#include "storage/interval.h"
#include "storage/string_ref.h"
#include "storage/value.h"

namespace floe {

namespace {

// Big endian with the sign bit flipped: two's complement order becomes unsigned byte order.
template <typename Unsigned>
void append_big_endian(std::string& key, Unsigned bits) {
  char bytes[sizeof(Unsigned)];
  for (size_t i = 0; i < sizeof(Unsigned); ++i)
    bytes[i] = static_cast<char>(bits >> (8 * (sizeof(Unsigned) - 1 - i)));
  key.append(bytes, sizeof bytes);
}

template <typename Unsigned>
void append_signed(std::string& key, const void* physical) {
  Unsigned bits;
  std::memcpy(&bits, physical, sizeof bits);
  append_big_endian(key, static_cast<Unsigned>(bits ^ (Unsigned{1} << (sizeof(Unsigned) * 8 - 1))));
}

void append_double(std::string& key, double value) {
  if (value == 0) value = 0;  // -0 equals 0
  if (std::isnan(value)) value = std::numeric_limits<double>::quiet_NaN();
  uint64_t bits = std::bit_cast<uint64_t>(value);
  // Negative numbers: all bits flipped (larger magnitude sorts first); positive ones and the
  // positive quiet NaN: the sign bit set, so NaN (exponent all ones, mantissa non-zero)
  // lands after +Infinity.
  bits = bits >> 63 ? ~bits : bits | uint64_t{1} << 63;
  append_big_endian(key, bits);
}

void append_interval(std::string& key, const Interval& value) {
  constexpr int128_t kMicrosPerDay = int128_t{86400} * 1000000;
  int128_t span = int128_t{value.months} * 30 * kMicrosPerDay +
                  int128_t{value.days} * kMicrosPerDay + value.micros;
  append_signed<unsigned __int128>(key, &span);
}

void append_string(std::string& key, std::string_view text) {
  for (char c : text) {
    key.push_back(c);
    if (c == '\0') key.push_back('\xff');
  }
  key.append(2, '\0');
}

}  // namespace

void append_key_part(std::string& key, const SqlType& type, const void* physical) {
  switch (type.physical()) {
    case PhysicalType::kBool:
      key.push_back(*static_cast<const uint8_t*>(physical) ? 1 : 0);
      return;
    case PhysicalType::kInt16:
      return append_signed<uint16_t>(key, physical);
    case PhysicalType::kInt32:
      return append_signed<uint32_t>(key, physical);
    case PhysicalType::kInt64:
      return append_signed<uint64_t>(key, physical);
    case PhysicalType::kInt128:
      return append_signed<unsigned __int128>(key, physical);
    case PhysicalType::kDouble: {
      double value;
      std::memcpy(&value, physical, sizeof value);
      return append_double(key, value);
    }
    case PhysicalType::kInterval: {
      Interval value;
      std::memcpy(&value, physical, sizeof value);
      return append_interval(key, value);
    }
    case PhysicalType::kString:
      return append_string(key, static_cast<const StringRef*>(physical)->view());
  }
}

void append_key_part(std::string& key, const SqlType& type, const Value& value) {
  alignas(16) uint8_t physical[16];
  value.write_physical(physical);
  append_key_part(key, type, physical);
}

}  // namespace floe
