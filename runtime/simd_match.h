// Match finding for the vectorized scan (DESIGN.md "Scans", step 3; Lang et al., "Data
// Blocks", SIGMOD 2016, section 4.2 and appendix C). A restriction lo <= value <= hi turns a
// column range into a match vector: the ascending positions of the qualifying rows. The first
// restriction finds the initial matches, each further one reduces the match vector.
//
// Kernels exist for scalar code, SSE4.2, AVX2 and AVX-512 and are chosen at run time from the
// CPU (best_isa()). The SIMD kernels compare a register of values, turn the comparison into a
// bit mask and look every 8 bits of the mask up in a 256-entry table of precomputed position
// vectors (appendix C): one table entry holds up to 8 positions, the base position is added
// and all 8 are stored, and the write cursor advances by the number of matches. Reducing
// gathers the values at the match positions (AVX2/AVX-512) and uses the same table as a
// permutation of the position vector (Figure 7(b)). The scalar kernels are branch-free: they
// always write the position and advance the cursor by the predicate.
//
// All functions are thread-safe and may run in parallel. The element types are the column
// representations of the scan: uint8_t/uint16_t/uint32_t codes (dictionary, truncation),
// int16_t/int32_t/int64_t/uint64_t integers (hot chunks, dates, decimals) and double.
// Callers express =, <, <=, >, >=, BETWEEN as [lo, hi] in the element type (an empty range,
// lo > hi, matches nothing). For doubles the comparisons are ordered: NaN never matches, and a
// NaN bound matches nothing.
#pragma once

#include <concepts>
#include <cstdint>

namespace floe::simd {

enum class Isa : uint8_t { kScalar, kSse42, kAvx2, kAvx512 };

// "scalar", "sse4.2", "avx2", "avx512".
const char* isa_name(Isa isa);
// The widest level this CPU (and OS) supports: AVX-512 needs avx512f, avx512bw, avx512vl;
// AVX2 needs avx2; SSE4.2 needs sse4.2. Always kScalar on non-x86 machines.
Isa best_isa();
// The level the kernels below use; best_isa() unless set_isa() chose another one.
Isa active_isa();
// Forces a level for all threads (tests, benchmarks). Throws floe::Error if the CPU cannot
// run it. Not meant to be called while scans run.
void set_isa(Isa isa);

template <typename T>
concept MatchElement = std::same_as<T, uint8_t> || std::same_as<T, uint16_t> ||
    std::same_as<T, uint32_t> || std::same_as<T, uint64_t> || std::same_as<T, int16_t> ||
    std::same_as<T, int32_t> || std::same_as<T, int64_t> || std::same_as<T, double>;

// Writes every position p in [begin, end) with lo <= values[p] <= hi to out, ascending, and
// returns their number. out needs room for end - begin positions (no padding: the 8-wide
// stores never pass out + (end - begin)). Only values[begin, end) is read.
template <MatchElement T>
uint32_t find_matches(const T* values, uint32_t begin, uint32_t end, T lo, T hi, uint32_t* out);

// Keeps the positions[0, count) whose value is in [lo, hi], in order, writes them to out and
// returns their number. out needs room for count positions and may be positions itself.
// Positions must be below 2^31 (the gathers take signed 32-bit indexes). For 8- and 16-bit T
// the SIMD kernels gather the aligned 4-byte word that holds each value: it never crosses a
// page, but may reach up to 3 bytes before or after the array.
template <MatchElement T>
uint32_t reduce_matches(const T* values, const uint32_t* positions, uint32_t count, T lo, T hi,
                        uint32_t* out);

// Validity bitmaps as in storage/hot_chunk.h: bit (row + bitmap_offset) of the bitmap, counted
// from bit 0 of word 0, is set when the row's value is present (not NULL).

// Keeps the positions[0, count) whose row is valid (IS NOT NULL); out may be positions.
uint32_t select_valid(const uint64_t* validity_bitmap, uint32_t bitmap_offset,
                      const uint32_t* positions, uint32_t count, uint32_t* out);
// Writes the rows p in [begin, end) that are valid (IS NOT NULL) / NULL (IS NULL) to out,
// ascending; out needs room for end - begin positions. Reads only the bitmap words that hold
// bits of [begin, end).
uint32_t find_valid(const uint64_t* validity_bitmap, uint32_t bitmap_offset, uint32_t begin,
                    uint32_t end, uint32_t* out);
uint32_t find_null(const uint64_t* validity_bitmap, uint32_t bitmap_offset, uint32_t begin,
                   uint32_t end, uint32_t* out);

}  // namespace floe::simd
