#include "runtime/concise_bitmap.h"

namespace floe {

ConciseBitmap::ConciseBitmap(uint64_t word_count)
    : words_(new uint64_t[word_count]()), word_count_(word_count) {}

uint64_t ConciseBitmap::finish_counts(uint64_t first, uint64_t last, uint64_t base) {
  constexpr uint64_t kBitsMask = (uint64_t{1} << kBitsPerWord) - 1;
  uint64_t count = base;
  for (uint64_t i = first; i < last; ++i) {
    uint64_t bits = words_[i] & kBitsMask;
    words_[i] = (count << kBitsPerWord) | bits;
    count += static_cast<uint64_t>(std::popcount(bits));
  }
  return count - base;
}

}  // namespace floe
