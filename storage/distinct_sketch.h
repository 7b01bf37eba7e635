// HyperLogLog distinct-count sketch (Flajolet, Fusy, Gandouet, Meunier 2007, "HyperLogLog:
// the analysis of a near-optimal cardinality estimation algorithm"): 2^11 registers of 64-bit
// hashes, about 2.3% standard error, with the paper's small-range (linear counting)
// correction. No large-range correction is needed with 64-bit hashes.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace floe {

class DistinctSketch {
 public:
  static constexpr unsigned kPrecision = 11;
  static constexpr size_t kRegisterCount = size_t{1} << kPrecision;

  // `hash` must be well mixed (see hash_integer and hash_bytes).
  void add_hash(uint64_t hash);
  double estimate() const;

 private:
  std::array<uint8_t, kRegisterCount> registers_{};
};

// 64-bit hashes with good bit mixing, for feeding a DistinctSketch.
uint64_t hash_integer(uint64_t value);
uint64_t hash_bytes(std::string_view bytes);

}  // namespace floe
