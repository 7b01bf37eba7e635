#include "tpch/random_fields.h"

#include <cstdio>

namespace floe::tpch {

void random_alphanumeric(RandomStream& stream, LengthRange length, std::string& out) {
  static constexpr char kAlphabet[] =
      "0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,";
  int64_t size = stream.uniform(length.min, length.max);
  out.resize(size);
  int64_t bits = 0;
  for (int64_t i = 0; i < size; ++i) {
    // One draw supplies five characters of six bits each.
    if (i % 5 == 0) bits = stream.uniform(0, RandomStream::kMaxLong);
    out[i] = kAlphabet[bits & 63];
    bits >>= 6;
  }
}

void random_phone(RandomStream& stream, int64_t nation_key, std::string& out) {
  int64_t area = stream.uniform(100, 999);
  int64_t exchange = stream.uniform(100, 999);
  int64_t number = stream.uniform(1000, 9999);
  char buffer[32];
  int size = std::snprintf(buffer, sizeof(buffer), "%02d-%03d-%03d-%04d",
                           static_cast<int>(10 + nation_key % 90), static_cast<int>(area),
                           static_cast<int>(exchange), static_cast<int>(number));
  out.assign(buffer, size);
}

void tagged_key(std::string_view tag, int64_t key, int digits, std::string& out) {
  char buffer[32];
  int size = std::snprintf(buffer, sizeof(buffer), "%0*lld", digits, static_cast<long long>(key));
  out.assign(tag);
  out.append(buffer, size);
}

}  // namespace floe::tpch
