// Data Blocks: frozen, compressed, immutable column chunks of up to 2^16 rows (Data Blocks
// paper §3, DESIGN.md "Hot chunks and Data Blocks"). The byte layout is in
// data_block_format.h; this is the API that freezes hot chunks and that scans and point
// lookups read through.
//
// Per column a block stores one of four schemes, whichever takes fewest bytes (ties go to the
// cheaper decode: single value, uncompressed, truncation, dictionary):
//   single value  every non-NULL row holds one value (also: every row NULL);
//   dictionary    ordered dictionary, 1-, 2- or 4-byte codes; strings always use it (or
//                 single value);
//   truncation    value - min in 1, 2 or 4 bytes; BOOLEAN and integer types (SMALLINT,
//                 INTEGER, BIGINT, DECIMAL, DATE, TIMESTAMP), not DOUBLE, INTERVAL, strings;
//   uncompressed  the raw physical values.
// Codes are byte-addressable, so one row decodes in O(1). NULL rows hold the code of the SMA
// min (dictionary and truncation: 0; uncompressed: the min itself) and so decode to the min;
// code predicates match them too, and the scanner must drop them with the null bitmap.
//
// How the scanner compares codes (BlockColumn::code_type()):
//   dictionary, truncation    unsigned integers of code_width bytes (kUInt8/16/32); codes
//                             keep the SQL order of the values they stand for;
//   uncompressed BOOLEAN      kUInt8 (0, 1);
//   uncompressed integers     signed, the column's physical type (kInt16/32/64/128);
//   uncompressed DOUBLE       kDouble (IEEE comparison; translate() returns kValues where
//                             that differs from SQL's NaN order);
//   uncompressed INTERVAL     kNone: not comparable as codes (translate() returns kValues);
//   single value              kNone: no code array (translate() returns kNone or kAll).
//
// Blocks are immutable: any number of threads may read one at the same time.
//
// PSMA (psma.h): dictionary and truncation columns index their codes (delta = code);
// uncompressed BOOLEAN and SMALLINT/INTEGER/BIGINT-like columns index value - min; DOUBLE,
// INTERVAL and 128-bit integers stored uncompressed, and single-value columns, have none.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "storage/data_block_format.h"
#include "storage/decimal.h"
#include "storage/hot_chunk.h"
#include "storage/psma.h"
#include "storage/string_ref.h"
#include "storage/types.h"

namespace floe {

using block_format::Scheme;

// Element type of a column's code array, for the scanner's comparison kernels.
enum class CodeType : uint8_t {
  kNone,
  kUInt8,
  kUInt16,
  kUInt32,
  kInt16,
  kInt32,
  kInt64,
  kInt128,
  kDouble,
};

// One bound of a value-domain restriction, e.g. `x >= 5` is {&five, true} as low bound.
struct ValueBound {
  const void* value;  // a value of the column's PhysicalType (strings: a StringRef)
  bool inclusive;
};

// A value-domain restriction in a column's compressed domain (BlockColumn::translate).
struct CodeRange {
  enum class Kind : uint8_t {
    kNone,    // no row of the block can match
    kAll,     // every non-NULL row matches
    kCodes,   // exactly the non-NULL rows whose code c has low <= c <= high match
    kValues,  // codes cannot express it: evaluate the restriction on unpacked values
  };
  Kind kind = Kind::kNone;
  // Inclusive bounds for kCodes, in the member that belongs to the column's code type:
  // kUInt8/16/32 in `u`, kInt16/32/64 in `i` (within the type's range), kInt128 in `i128`,
  // kDouble in `d`. low<T>() and high<T>() read them as T.
  union Code {
    uint32_t u;
    int64_t i;
    int128_t i128;
    double d;
  };
  Code lo{.i128 = 0};
  Code hi{.i128 = 0};

  template <typename T>
  T low() const {
    return read<T>(lo);
  }
  template <typename T>
  T high() const {
    return read<T>(hi);
  }

 private:
  template <typename T>
  static T read(const Code& code) {
    if constexpr (std::is_same_v<T, double>) {
      return code.d;
    } else if constexpr (std::is_same_v<T, int128_t>) {
      return code.i128;
    } else if constexpr (std::is_unsigned_v<T>) {
      return static_cast<T>(code.u);
    } else {
      return static_cast<T>(code.i);
    }
  }
};

// Read access to one column of a block; a small value object that borrows the block.
class BlockColumn {
 public:
  Scheme scheme() const { return static_cast<Scheme>(header_->scheme); }
  PhysicalType physical_type() const { return static_cast<PhysicalType>(header_->physical_type); }
  // Bytes per code: 1, 2 or 4 (dictionary, truncation), physical size (uncompressed), 0
  // (single value).
  uint32_t code_width() const { return header_->code_width; }
  CodeType code_type() const;
  uint32_t tuple_count() const { return tuple_count_; }

  // tuple_count codes of code_type(), kCodeAlignment aligned and padded (data_block_format.h);
  // nullptr for single value.
  const void* codes() const;

  bool has_nulls() const { return header_->flags & block_format::kHasNulls; }
  bool all_null() const { return header_->flags & block_format::kAllNull; }
  // Validity bitmap (bit set = present): nullptr when the column holds no NULLs; for an
  // all-NULL column a shared bitmap of zeros.
  const uint64_t* null_bitmap() const;
  bool is_valid(uint32_t row) const {
    const uint64_t* bits = null_bitmap();
    return !bits || (bits[row >> 6] >> (row & 63) & 1);
  }

  // SMA: smallest and largest non-NULL value in SQL order, as a physical value of the column's
  // type (strings: a StringRef into the block). Zero bytes (empty string) when all_null().
  const void* min() const { return min_; }
  const void* max() const { return max_; }
  template <typename T>
  T min_as() const {
    T value;
    std::memcpy(&value, min_, sizeof(T));
    return value;
  }
  template <typename T>
  T max_as() const {
    T value;
    std::memcpy(&value, max_, sizeof(T));
    return value;
  }

  // Dictionary entries in code order (ascending SQL order); 0 unless dictionary scheme.
  uint32_t dictionary_size() const { return header_->dictionary_size; }
  void unpack_dictionary(void* out) const;

  // Decoding to arrays of the physical type. StringRefs point into the block (valid while it
  // lives). NULL rows decode to the SMA min. One row: unpack(&row, 1, &value), O(1).
  void unpack(const uint32_t* positions, uint32_t count, void* out) const;
  void unpack_range(uint32_t begin, uint32_t count, void* out) const;
  // Validity of the rows as a bitmap: bit i of `out` is set when row positions[i] (resp.
  // begin + i) is not NULL. Writes ceil(count / 64) words; bits at and after count are 0.
  void unpack_validity(const uint32_t* positions, uint32_t count, uint64_t* out) const;
  void unpack_validity_range(uint32_t begin, uint32_t count, uint64_t* out) const;

  // Translates the restriction low <op> x <op> high (either bound optional) into the
  // compressed domain: dictionary by binary search, truncation by subtraction with clamping,
  // uncompressed as the clamped raw range. The SMA decides kNone and kAll first.
  CodeRange translate(std::optional<ValueBound> low, std::optional<ValueBound> high) const;
  // x = value: for equality and IN lists. For strings and integer-like types a kCodes result
  // is a single code (low == high); DOUBLE and INTERVAL dictionaries can hold several codes
  // of SQL-equal values (-0.0 and 0.0, '1 mon' and '30 days').
  CodeRange translate_equal(const void* value) const;

  // PSMA: the rows [begin, end) that may hold a code in the range (kNone: empty; kAll,
  // kValues, no PSMA: every row). NULL rows may fall inside.
  bool has_psma() const { return header_->psma_width != 0; }
  RowRange psma_range(const CodeRange& codes) const;
  // For unsigned codes (dictionary, truncation): rows that may hold a code in [low, high].
  RowRange psma_range(uint32_t low, uint32_t high) const;

  // Bytes of this column in the block: its header and sections, with alignment padding.
  size_t compressed_bytes() const;
  // Bytes of the same rows in a hot chunk (ColumnHeader::uncompressed_bytes).
  size_t uncompressed_bytes() const { return header_->uncompressed_bytes; }

 private:
  friend class DataBlock;
  BlockColumn(const uint8_t* block, const block_format::ColumnHeader* header, uint32_t tuple_count);
  StringRef sma_string(int slot) const;
  template <typename T>
  T entry(uint32_t code) const;
  template <typename T>
  CodeRange translate_typed(std::optional<ValueBound> low, std::optional<ValueBound> high) const;
  RowRange psma_deltas(uint64_t low, uint64_t high) const;

  const uint8_t* block_;
  const block_format::ColumnHeader* header_;
  uint32_t tuple_count_;
  alignas(16) uint8_t min_[16];
  alignas(16) uint8_t max_[16];
};

class DataBlock {
 public:
  // Freezes rows [begin, end) of `chunk` (1 to 2^16 rows) into a block. With `sort_column`,
  // the rows are first reordered by that column (SQL order, NULLs last, ties in row order;
  // paper Fig. 11 "block-wise sorted"); all columns follow the same permutation. Strings are
  // copied into the block. Throws floe::Error on a bad range or a string area over 4 GiB.
  static std::unique_ptr<DataBlock> freeze(const std::vector<ColumnDef>& columns,
                                           const HotChunk& chunk, uint32_t begin, uint32_t end,
                                           std::optional<size_t> sort_column = {});
  // A block from bytes() of another (copied into an aligned buffer). Checks the header and
  // every offset, code and PSMA entry, so that no access can leave the block; throws
  // floe::Error on corrupt input.
  static std::unique_ptr<DataBlock> from_bytes(std::span<const uint8_t> bytes);

  std::span<const uint8_t> bytes() const { return {data_.get(), size_}; }
  size_t byte_size() const { return size_; }
  uint32_t tuple_count() const { return header().tuple_count; }
  size_t column_count() const { return header().column_count; }
  BlockColumn column(size_t index) const;

  // Sum of the columns' uncompressed_bytes().
  size_t uncompressed_bytes() const;
  // How many columns use each scheme, indexed by Scheme.
  std::array<uint32_t, block_format::kSchemeCount> scheme_counts() const;

 private:
  struct AlignedDelete {
    void operator()(uint8_t* p) const;
  };
  using Buffer = std::unique_ptr<uint8_t[], AlignedDelete>;
  static Buffer allocate(size_t size);

  DataBlock(Buffer data, size_t size) : data_(std::move(data)), size_(size) {}
  const block_format::BlockHeader& header() const {
    return *reinterpret_cast<const block_format::BlockHeader*>(data_.get());
  }
  const block_format::ColumnHeader& column_header(size_t index) const;
  void validate() const;

  Buffer data_;
  size_t size_;
};

}  // namespace floe
