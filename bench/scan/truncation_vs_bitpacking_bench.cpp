// Byte-addressable truncation (Data Blocks) against horizontal bit-packing, after Figure 12 of
// the Data Blocks paper (Lang et al., SIGMOD 2016, section 5). Three columns of 2^16 rows
// whose domains exceed a byte width by a few bits, the worst case for truncation:
//   A in [0, 2^9)   16-bit codes,  9 bits packed  (the restricted column)
//   B in [0, 2^11)  16-bit codes, 11 bits packed
//   C in [0, 2^17)  32-bit codes, 17 bits packed
// Values are code + a frame of reference (the block minimum) in both formats.
//
//   sarg/<format>/<s>          l <= A <= r selecting s percent, producing match positions per
//                              8192-row vector; items = rows.
//   unpack/<strategy>/<s>      the matching tuples' A, B, C into 32-bit output vectors, given
//                              the positions; items = matching tuples (Figure 12(b)).
// Formats: truncation (find_matches on the 16-bit codes) and bitpacking (SIMD decode, compare,
// the position table of appendix C). Unpack strategies: truncation (load by position),
// bitpacking_positional (extract each match's bits), bitpacking_unpack_all (SIMD-decode the
// whole vector, then pick the matches). Everything at the AVX2 level, as in the paper.
#include <benchmark/benchmark.h>
#include <immintrin.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "runtime/simd_match.h"
#include "runtime/simd_match_table.h"

namespace floe::simd {
namespace {

constexpr uint32_t kRows = 1 << 16;
constexpr uint32_t kVector = 8192;  // HyPer's vector size (section 4.1)
constexpr uint32_t kFrame = 1000;   // the block minimum added back on unpacking
const int kSelectivities[] = {0, 1, 5, 10, 20, 50, 100};

// Horizontal bit-packing: value i occupies bits [i * width, (i + 1) * width) of a
// little-endian byte stream. 32 bytes of padding keep the 8- and 16-byte loads inside.
struct BitPackedColumn {
  uint32_t width;
  std::vector<uint8_t> bytes;

  BitPackedColumn(const std::vector<uint32_t>& codes, uint32_t bits)
      : width(bits), bytes((uint64_t{codes.size()} * bits + 7) / 8 + 32) {
    for (uint32_t i = 0; i < codes.size(); ++i) {
      uint64_t bit = uint64_t{i} * width;
      uint64_t word;
      std::memcpy(&word, &bytes[bit >> 3], sizeof word);
      word |= uint64_t{codes[i]} << (bit & 7);
      std::memcpy(&bytes[bit >> 3], &word, sizeof word);
    }
  }

  // Positional access: one unaligned 8-byte load, shift and mask.
  uint32_t extract(uint32_t i) const {
    uint64_t bit = uint64_t{i} * width;
    uint64_t word;
    std::memcpy(&word, &bytes[bit >> 3], sizeof word);
    return static_cast<uint32_t>(word >> (bit & 7)) & ((1u << width) - 1);
  }
  // The 8 values from i (a multiple of 8) start at a byte boundary.
  const uint8_t* group(uint32_t i) const { return &bytes[uint64_t{i} / 8 * width]; }
};

// Decodes 8 packed values (width <= 25) into 32-bit lanes: each 128-bit half loads the bytes
// of its 4 values, a byte shuffle moves the 4 bytes holding value k into lane k, a variable
// shift and a mask finish it.
struct Avx2Unpacker {
  __m256i shuffle, shifts, mask;
  uint32_t high_half;  // byte offset of the upper 4 values' bytes in a group

  __attribute__((target("avx2"))) explicit Avx2Unpacker(uint32_t width) : high_half(4 * width / 8) {
    alignas(32) uint8_t control[32];
    alignas(32) uint32_t shift[8];
    for (uint32_t k = 0; k < 8; ++k) {
      uint32_t first_byte = k * width / 8 - (k < 4 ? 0 : high_half);
      for (uint32_t b = 0; b < 4; ++b) control[4 * k + b] = static_cast<uint8_t>(first_byte + b);
      shift[k] = k * width % 8;
    }
    shuffle = _mm256_load_si256(reinterpret_cast<const __m256i*>(control));
    shifts = _mm256_load_si256(reinterpret_cast<const __m256i*>(shift));
    mask = _mm256_set1_epi32(static_cast<int>((1u << width) - 1));
  }

  __attribute__((target("avx2"))) __m256i decode8(const uint8_t* group) const {
    __m256i bytes = _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(group))),
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(group + high_half)), 1);
    __m256i values = _mm256_srlv_epi32(_mm256_shuffle_epi8(bytes, shuffle), shifts);
    return _mm256_and_si256(values, mask);
  }
};

// The bit-packed SARG: decode 8 values, compare, and store their positions with the position
// table (section 5: the table made bit-packing robust to the selectivity as well).
__attribute__((target("avx2"))) uint32_t sarg_bitpacked(const BitPackedColumn& column,
                                                        uint32_t begin, uint32_t end, uint32_t lo,
                                                        uint32_t hi, uint32_t* out) {
  const Avx2Unpacker unpacker(column.width);
  const __m256i low = _mm256_set1_epi32(static_cast<int>(lo));
  const __m256i range = _mm256_set1_epi32(static_cast<int>(hi - lo));
  uint32_t* cursor = out;
  for (uint32_t p = begin; p < end; p += 8) {
    __m256i delta = _mm256_sub_epi32(unpacker.decode8(column.group(p)), low);
    __m256i hits = _mm256_cmpeq_epi32(_mm256_min_epu32(delta, range), delta);
    int mask = _mm256_movemask_ps(_mm256_castsi256_ps(hits));
    const detail::MatchTableEntry& entry = detail::kMatchTable[mask];
    __m256i cells = _mm256_load_si256(reinterpret_cast<const __m256i*>(entry.cells));
    __m256i positions = _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(p)),
                                         _mm256_srli_epi32(cells, detail::kMatchTableCountBits));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(cursor), positions);
    cursor += entry.count();
  }
  return static_cast<uint32_t>(cursor - out);
}

// "Unpack all and filter": SIMD-decode rows [begin, end) into scratch, then pick the matches.
__attribute__((target("avx2"))) void unpack_all_and_filter(const BitPackedColumn& column,
                                                           uint32_t begin, uint32_t end,
                                                           const uint32_t* positions,
                                                           uint32_t count, uint32_t* scratch,
                                                           uint32_t* out) {
  const Avx2Unpacker unpacker(column.width);
  const __m256i frame = _mm256_set1_epi32(kFrame);
  for (uint32_t p = begin; p < end; p += 8) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(scratch + (p - begin)),
                        _mm256_add_epi32(unpacker.decode8(column.group(p)), frame));
  }
  for (uint32_t i = 0; i < count; ++i) out[i] = scratch[positions[i] - begin];
}

struct Columns {
  std::vector<uint16_t> a, b;
  std::vector<uint32_t> c;
  BitPackedColumn packed_a, packed_b, packed_c;
};

std::vector<uint32_t> random_codes(uint32_t bits, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> codes(kRows);
  for (uint32_t& code : codes) code = static_cast<uint32_t>(rng() & ((1u << bits) - 1));
  return codes;
}

const Columns& columns() {
  static const Columns kColumns = [] {
    std::vector<uint32_t> a = random_codes(9, 1), b = random_codes(11, 2), c = random_codes(17, 3);
    return Columns{std::vector<uint16_t>(a.begin(), a.end()),
                   std::vector<uint16_t>(b.begin(), b.end()),
                   c,
                   BitPackedColumn(a, 9),
                   BitPackedColumn(b, 11),
                   BitPackedColumn(c, 17)};
  }();
  return kColumns;
}

// Codes of A are uniform in [0, 512): [0, 512 * s / 100 - 1] selects s percent; [600, 700]
// nothing.
std::pair<uint32_t, uint32_t> bounds_for(int percent) {
  if (percent == 0) return {600, 700};
  return {0, 512 * static_cast<uint32_t>(percent) / 100 - 1};
}

// The positions matching the restriction, per vector.
std::vector<std::vector<uint32_t>> match_vectors(int percent) {
  auto [lo, hi] = bounds_for(percent);
  std::vector<std::vector<uint32_t>> vectors;
  for (uint32_t begin = 0; begin < kRows; begin += kVector) {
    std::vector<uint32_t>& matches = vectors.emplace_back(kVector);
    matches.resize(find_matches<uint16_t>(columns().a.data(), begin, begin + kVector,
                                          static_cast<uint16_t>(lo), static_cast<uint16_t>(hi),
                                          matches.data()));
  }
  return vectors;
}

void set_counters(benchmark::State& state, int percent, double items) {
  state.SetItemsProcessed(static_cast<int64_t>(items) * state.iterations());
  state.counters["selectivity"] = percent;
  state.counters["ns_per_tuple"] = benchmark::Counter(
      items * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void sarg_truncation(benchmark::State& state, int percent) {
  set_isa(Isa::kAvx2);
  auto [lo, hi] = bounds_for(percent);
  std::vector<uint32_t> matches(kVector);
  for (auto _ : state) {
    uint32_t found = 0;
    for (uint32_t begin = 0; begin < kRows; begin += kVector) {
      found += find_matches<uint16_t>(columns().a.data(), begin, begin + kVector,
                                      static_cast<uint16_t>(lo), static_cast<uint16_t>(hi),
                                      matches.data());
      benchmark::ClobberMemory();
    }
    benchmark::DoNotOptimize(found);
  }
  set_counters(state, percent, kRows);
}

void sarg_bitpacking(benchmark::State& state, int percent) {
  auto [lo, hi] = bounds_for(percent);
  std::vector<uint32_t> matches(kVector);
  for (auto _ : state) {
    uint32_t found = 0;
    for (uint32_t begin = 0; begin < kRows; begin += kVector) {
      found += sarg_bitpacked(columns().packed_a, begin, begin + kVector, lo, hi, matches.data());
      benchmark::ClobberMemory();
    }
    benchmark::DoNotOptimize(found);
  }
  set_counters(state, percent, kRows);
}

// Runs unpack(vector begin, its positions, count, outputs A, B, C) over all vectors.
template <typename Unpack>
void bench_unpack(benchmark::State& state, int percent, Unpack unpack) {
  const std::vector<std::vector<uint32_t>> vectors = match_vectors(percent);
  double matches = 0;
  for (const auto& positions : vectors) matches += static_cast<double>(positions.size());
  std::vector<uint32_t> out_a(kVector), out_b(kVector), out_c(kVector);
  for (auto _ : state) {
    for (uint32_t v = 0; v < vectors.size(); ++v) {
      unpack(v * kVector, vectors[v].data(), static_cast<uint32_t>(vectors[v].size()), out_a.data(),
             out_b.data(), out_c.data());
      benchmark::ClobberMemory();
    }
  }
  set_counters(state, percent, matches);
}

// Positional access: out[i] = frame + the column's code at positions[i], for A, B and C.
template <typename GetA, typename GetB, typename GetC>
void unpack_by_position(benchmark::State& state, int percent, GetA a, GetB b, GetC c) {
  bench_unpack(state, percent,
               [&](uint32_t, const uint32_t* positions, uint32_t count, uint32_t* out_a,
                   uint32_t* out_b, uint32_t* out_c) {
                 for (uint32_t i = 0; i < count; ++i) {
                   uint32_t p = positions[i];
                   out_a[i] = kFrame + a(p);
                   out_b[i] = kFrame + b(p);
                   out_c[i] = kFrame + c(p);
                 }
               });
}

void unpack_truncation(benchmark::State& state, int percent) {
  const Columns& data = columns();
  unpack_by_position(
      state, percent, [&](uint32_t p) -> uint32_t { return data.a[p]; },
      [&](uint32_t p) -> uint32_t { return data.b[p]; }, [&](uint32_t p) { return data.c[p]; });
}

void unpack_bitpacking_positional(benchmark::State& state, int percent) {
  const Columns& data = columns();
  unpack_by_position(
      state, percent, [&](uint32_t p) { return data.packed_a.extract(p); },
      [&](uint32_t p) { return data.packed_b.extract(p); },
      [&](uint32_t p) { return data.packed_c.extract(p); });
}

void unpack_bitpacking_unpack_all(benchmark::State& state, int percent) {
  const Columns& data = columns();
  std::vector<uint32_t> scratch(kVector);
  bench_unpack(
      state, percent,
      [&](uint32_t begin, const uint32_t* positions, uint32_t count, uint32_t* a, uint32_t* b,
          uint32_t* c) {
        uint32_t end = begin + kVector;
        unpack_all_and_filter(data.packed_a, begin, end, positions, count, scratch.data(), a);
        unpack_all_and_filter(data.packed_b, begin, end, positions, count, scratch.data(), b);
        unpack_all_and_filter(data.packed_c, begin, end, positions, count, scratch.data(), c);
      });
}

// Both formats must find the same matches and unpack the same values.
bool formats_agree() {
  const Columns& data = columns();
  for (int percent : kSelectivities) {
    auto [lo, hi] = bounds_for(percent);
    std::vector<uint32_t> truncated(kRows), packed(kRows);
    truncated.resize(find_matches<uint16_t>(data.a.data(), 0, kRows, static_cast<uint16_t>(lo),
                                            static_cast<uint16_t>(hi), truncated.data()));
    packed.resize(sarg_bitpacked(data.packed_a, 0, kRows, lo, hi, packed.data()));
    if (truncated != packed) return false;
  }
  for (uint32_t p = 0; p < kRows; ++p) {
    if (data.packed_a.extract(p) != data.a[p] || data.packed_b.extract(p) != data.b[p] ||
        data.packed_c.extract(p) != data.c[p]) {
      return false;
    }
  }
  return true;
}

void register_all() {
  const std::pair<const char*, void (*)(benchmark::State&, int)> benches[] = {
      {"sarg/truncation", sarg_truncation},
      {"sarg/bitpacking", sarg_bitpacking},
      {"unpack/truncation", unpack_truncation},
      {"unpack/bitpacking_positional", unpack_bitpacking_positional},
      {"unpack/bitpacking_unpack_all", unpack_bitpacking_unpack_all}};
  for (auto [name, bench] : benches) {
    for (int percent : kSelectivities) {
      // Unpacking costs are per matching tuple: none at 0%.
      if (percent == 0 && std::string(name).starts_with("unpack")) continue;
      benchmark::RegisterBenchmark((std::string(name) + "/" + std::to_string(percent)).c_str(),
                                   bench, percent);
    }
  }
}

}  // namespace
}  // namespace floe::simd

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (floe::simd::best_isa() < floe::simd::Isa::kAvx2) {
    std::fprintf(stderr, "this benchmark needs AVX2\n");
    return 1;
  }
  if (!floe::simd::formats_agree()) {
    std::fprintf(stderr, "truncation and bit-packing disagree\n");
    return 1;
  }
  floe::simd::register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
