#include "storage/distinct_sketch.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace floe {

void DistinctSketch::add_hash(uint64_t hash) {
  size_t index = hash >> (64 - kPrecision);
  // Rank of the first 1-bit in the remaining bits; a sentinel bit bounds it.
  uint64_t rest = (hash << kPrecision) | (uint64_t{1} << (kPrecision - 1));
  auto rank = static_cast<uint8_t>(std::countl_zero(rest) + 1);
  if (rank > registers_[index]) registers_[index] = rank;
}

double DistinctSketch::estimate() const {
  constexpr double kM = static_cast<double>(kRegisterCount);
  constexpr double kAlpha = 0.7213 / (1.0 + 1.079 / kM);
  double sum = 0;
  size_t zero_registers = 0;
  for (uint8_t rank : registers_) {
    sum += std::ldexp(1.0, -rank);
    zero_registers += rank == 0;
  }
  double raw = kAlpha * kM * kM / sum;
  // Small-range correction (paper, Fig. 3): linear counting while registers are still empty.
  if (raw <= 2.5 * kM && zero_registers > 0)
    return kM * std::log(kM / static_cast<double>(zero_registers));
  return raw;
}

uint64_t hash_integer(uint64_t value) {
  // MurmurHash3's 64-bit finalizer.
  value ^= value >> 33;
  value *= 0xff51afd7ed558ccdULL;
  value ^= value >> 33;
  value *= 0xc4ceb9fe1a85ec53ULL;
  value ^= value >> 33;
  return value;
}

uint64_t hash_bytes(std::string_view bytes) {
  uint64_t hash = bytes.size() * 0x9e3779b97f4a7c15ULL;
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, bytes.data() + i, 8);
    hash = std::rotl(hash ^ hash_integer(word), 27) * 0x9e3779b97f4a7c15ULL;
  }
  uint64_t tail = 0;
  if (i < bytes.size()) std::memcpy(&tail, bytes.data() + i, bytes.size() - i);
  return hash_integer(hash ^ tail);
}

}  // namespace floe
