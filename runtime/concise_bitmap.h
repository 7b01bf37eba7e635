// The bitmap of a concise hash table (CHT) or concise array table (CAT) (Barber et al.,
// "Memory-Efficient Hash Joins", VLDB 2015, section 2): one bit per bucket of a virtual, very
// sparse table, stored in 64-bit words of 32 bitmap bits (low half) plus the 32-bit count of
// set bits in all words before (high half). The set bits are the occupied buckets; the
// array of rows holds them densely in bitmap order, so a bucket's row is at
// rank(bucket) = prefix count + popcount of the bits before it in its word, found in the one
// word already loaded for the bit test.
#pragma once

#include <bit>
#include <cstdint>
#include <memory>

namespace floe {

// The high 64 bits of a * b: maps a uniform `a` onto [0, b) (Lemire's multiply-shift range
// reduction), monotonically, so that ranges of `a` map onto ranges of buckets.
inline uint64_t multiply_high(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
}

class ConciseBitmap {
 public:
  static constexpr uint64_t kBitsPerWord = 32;

  ConciseBitmap() = default;
  // Zeroed: no bucket occupied.
  explicit ConciseBitmap(uint64_t word_count);

  uint64_t word_count() const { return word_count_; }
  uint64_t bucket_count() const { return word_count_ * kBitsPerWord; }
  uint64_t memory_bytes() const { return word_count_ * sizeof(uint64_t); }

  // Starts loading `bucket`'s word into the cache (a batched probe's first pass).
  void prefetch(uint64_t bucket) const { __builtin_prefetch(&words_[bucket / kBitsPerWord]); }
  bool test(uint64_t bucket) const {
    return (words_[bucket / kBitsPerWord] >> (bucket % kBitsPerWord)) & 1;
  }
  // The position of `bucket`'s row among the occupied buckets, valid after finish_counts()
  // for the bucket's word.
  uint64_t rank(uint64_t bucket) const { return rank_in(words_[bucket / kBitsPerWord], bucket); }
  // rank() from an already loaded word (the probe's bit test loaded it).
  static uint64_t rank_in(uint64_t word, uint64_t bucket) {
    uint64_t below = word & ((uint64_t{1} << (bucket % kBitsPerWord)) - 1);
    return (word >> kBitsPerWord) + static_cast<uint64_t>(std::popcount(below));
  }
  uint64_t word(uint64_t index) const { return words_[index]; }

  // Build: not synchronized. In a partitioned build each partition owns whole words.
  void set(uint64_t bucket) {
    words_[bucket / kBitsPerWord] |= uint64_t{1} << (bucket % kBitsPerWord);
  }
  // Writes the prefix counts of words [first, last), counting from `base` set bits before
  // `first`; returns the set bits in those words.
  uint64_t finish_counts(uint64_t first, uint64_t last, uint64_t base);

 private:
  std::unique_ptr<uint64_t[]> words_;
  uint64_t word_count_ = 0;
};

}  // namespace floe
