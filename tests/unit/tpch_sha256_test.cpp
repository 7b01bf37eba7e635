#include <gtest/gtest.h>

#include <string>

#include "bench/tpch/sha256.h"

namespace floe::tpch {
namespace {

// Test vectors of FIPS 180-4 / NIST.
TEST(TpchSha256Test, KnownDigests) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(TpchSha256Test, PiecewiseUpdatesEqualOneUpdate) {
  std::string data;
  for (int i = 0; i < 1000; ++i) data += static_cast<char>(i * 7);
  for (size_t piece : {1u, 3u, 63u, 64u, 65u, 200u}) {
    Sha256 hash;
    for (size_t at = 0; at < data.size(); at += piece)
      hash.update(std::string_view(data).substr(at, piece));
    EXPECT_EQ(hash.hex_digest(), sha256_hex(data)) << piece;
  }
}

}  // namespace
}  // namespace floe::tpch
