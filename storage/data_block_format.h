// The byte layout of a Data Block (paper §3.1, DESIGN.md "Hot chunks and Data Blocks").
//
// A block is one flat byte buffer without pointers; every reference inside it is a byte
// offset from the block's first byte, so the bytes can be copied, written to a file and
// mapped back as they are. All integers are little-endian (the host order of every machine
// floe runs on). Layout:
//
//   BlockHeader                      32 bytes
//   ColumnHeader x column_count      80 bytes each, padded to kCodeAlignment
//   per column, in column order, the sections its header points at:
//     codes       tuple_count codes of code_width bytes (absent for single value), aligned to
//                 and padded with zero bytes to kCodeAlignment, so SIMD loads of whole
//                 kCodeAlignment-byte vectors from the start of the array stay inside it
//     nulls       validity bitmap, ceil(tuple_count / 64) uint64 words, bit set = present,
//                 bits at and after tuple_count 0; only when the column holds NULLs and not
//                 only NULLs
//     SMA         min and max, one 16-byte slot each (see below)
//     PSMA        psma_slot_count(psma_width) RowRanges (psma.h), if psma_width > 0
//     dictionary  dictionary_size values of the physical type, sorted (total_less); for
//                 strings dictionary_size + 1 uint32 offsets into the string area instead:
//                 entry i is the bytes [offset[i], offset[i + 1])
//     strings     the string area: the distinct strings' bytes, concatenated in dictionary order
//   then zero padding to kCodeAlignment.
//
// Sections other than codes start at multiples of kSectionAlignment; a block buffer must be
// kCodeAlignment aligned. An offset of 0 means the section is absent (offset 0 is the
// BlockHeader). data_block_layout.h computes the offsets from the other header fields.
//
// SMA slots hold the physical value in their first bytes (rest zero); for strings a slot is
// {uint32 offset into the string area, uint32 length, 8 zero bytes}. An all-NULL column has
// zero slots.
#pragma once

#include <cstddef>
#include <cstdint>

namespace floe::block_format {

constexpr uint32_t kMagic = 0x42444c46;  // "FLDB" in memory order
constexpr uint16_t kVersion = 1;
constexpr uint32_t kMaxTupleCount = 1u << 16;
constexpr size_t kSectionAlignment = 16;
constexpr size_t kCodeAlignment = 64;
constexpr size_t kSmaSlotBytes = 16;

// Compression scheme of one column in one block (paper §3.3).
enum class Scheme : uint8_t {
  kSingleValue = 0,   // every non-NULL row holds the SMA min; no code array
  kDictionary = 1,    // codes index an ordered dictionary
  kTruncation = 2,    // codes are value - SMA min (integer-like types only)
  kUncompressed = 3,  // codes are the raw physical values
};
constexpr size_t kSchemeCount = 4;

// ColumnHeader::flags.
constexpr uint8_t kHasNulls = 1;  // some or all rows are NULL
constexpr uint8_t kAllNull = 2;   // every row is NULL (scheme is single value, no bitmap)
constexpr uint8_t kKnownFlags = kHasNulls | kAllNull;

struct BlockHeader {
  uint32_t magic;
  uint16_t version;
  uint16_t column_count;
  uint32_t tuple_count;
  uint32_t reserved0;
  uint64_t byte_size;  // of the whole block
  uint64_t reserved1;
};
static_assert(sizeof(BlockHeader) == 32);

struct ColumnHeader {
  uint8_t scheme;         // Scheme
  uint8_t code_width;     // bytes per code: 1/2/4, physical size (uncompressed), 0 (single)
  uint8_t physical_type;  // PhysicalType
  uint8_t flags;
  uint8_t psma_width;  // bytes of the deltas the PSMA indexes; 0 without PSMA
  uint8_t reserved0[3];
  uint32_t dictionary_size;  // entries; 0 unless dictionary
  uint32_t reserved1;
  uint64_t sma_offset;
  uint64_t psma_offset;
  uint64_t dictionary_offset;
  uint64_t strings_offset;
  uint64_t strings_bytes;
  uint64_t codes_offset;
  uint64_t nulls_offset;
  // What the rows take in a hot chunk: physical size x rows, the string heap bytes of strings
  // longer than StringRef::kInlineLength, and the validity bitmap of a nullable column.
  uint64_t uncompressed_bytes;
};
static_assert(sizeof(ColumnHeader) == 80);

}  // namespace floe::block_format
