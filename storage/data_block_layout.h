// Where a Data Block's sections go (data_block_format.h): their sizes follow from the column
// headers' scheme fields alone, so the writer lays a block out with the same function the
// reader validates it with.
#pragma once

#include <cstddef>
#include <cstdint>

#include "storage/data_block_format.h"

namespace floe::block_format {

constexpr size_t round_up(size_t n, size_t alignment) {
  return (n + alignment - 1) / alignment * alignment;
}

// Unpadded bytes of one column's sections.
struct SectionSizes {
  size_t codes = 0;
  size_t nulls = 0;
  size_t sma = 0;
  size_t psma = 0;
  size_t dictionary = 0;
  size_t strings = 0;

  // Bytes the sections take with their alignment padding; a column's sections are laid out
  // in the order above, codes first at a kCodeAlignment boundary, and the column's span is
  // padded to kCodeAlignment, so this is exact.
  size_t span() const;
  // The part that depends on the scheme: what freezing minimizes.
  size_t scheme_bytes() const;
};

SectionSizes section_sizes(const ColumnHeader& column, uint32_t tuple_count);

// Bytes before the first column's sections: the block header and the column headers.
size_t header_area_bytes(size_t column_count);

// Calls f(C{}) with C the unsigned code type of `width` bytes (1, 2 or 4).
template <typename F>
void with_code_type(unsigned width, F&& f) {
  if (width == 1) {
    f(uint8_t{});
  } else if (width == 2) {
    f(uint16_t{});
  } else {
    f(uint32_t{});
  }
}

// Sets every column's section offsets (0 for empty sections); returns the block size.
size_t assign_offsets(ColumnHeader* columns, size_t column_count, uint32_t tuple_count);

}  // namespace floe::block_format
