// MD5 (RFC 1321): SQL's md5(text), and sqllogictest's "N values hashing to <md5>" digests.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace floe {

class Md5 {
 public:
  Md5();
  void update(std::string_view bytes);
  // Lower-case hex digest; the object must not be updated afterwards.
  std::string hex_digest();

 private:
  void process_block(const uint8_t* block);

  uint32_t state_[4];
  uint64_t length_ = 0;  // bytes hashed so far
  uint8_t buffer_[64];
  size_t buffered_ = 0;
};

std::string md5_hex(std::string_view bytes);

}  // namespace floe
