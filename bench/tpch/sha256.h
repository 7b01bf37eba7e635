// SHA-256 (FIPS 180-4), to check generated files against dbgen's published checksums.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace floe::tpch {

class Sha256 {
 public:
  Sha256();
  void update(std::string_view data);
  // The digest as 64 lowercase hex digits; the object must not be updated afterwards.
  std::string hex_digest();

 private:
  void compress(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_;
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

std::string sha256_hex(std::string_view data);

}  // namespace floe::tpch
