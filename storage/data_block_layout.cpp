#include "storage/data_block_layout.h"

#include "storage/psma.h"
#include "storage/types.h"

namespace floe::block_format {

size_t SectionSizes::span() const {
  size_t bytes = codes;  // a multiple of kCodeAlignment already
  for (size_t section : {nulls, sma, psma, dictionary, strings})
    bytes += round_up(section, kSectionAlignment);
  return round_up(bytes, kCodeAlignment);
}

size_t SectionSizes::scheme_bytes() const {
  return codes + round_up(psma, kSectionAlignment) + round_up(dictionary, kSectionAlignment) +
         round_up(strings, kSectionAlignment);
}

SectionSizes section_sizes(const ColumnHeader& column, uint32_t tuple_count) {
  SectionSizes sizes;
  sizes.codes = round_up(size_t{tuple_count} * column.code_width, kCodeAlignment);
  if ((column.flags & kHasNulls) && !(column.flags & kAllNull))
    sizes.nulls = (size_t{tuple_count} + 63) / 64 * sizeof(uint64_t);
  sizes.sma = 2 * kSmaSlotBytes;
  sizes.psma = psma_slot_count(column.psma_width) * sizeof(RowRange);
  if (static_cast<Scheme>(column.scheme) == Scheme::kDictionary) {
    const auto type = static_cast<PhysicalType>(column.physical_type);
    sizes.dictionary = type == PhysicalType::kString
                           ? (size_t{column.dictionary_size} + 1) * sizeof(uint32_t)
                           : size_t{column.dictionary_size} * physical_size(type);
  }
  sizes.strings = column.strings_bytes;
  return sizes;
}

size_t header_area_bytes(size_t column_count) {
  return round_up(sizeof(BlockHeader) + column_count * sizeof(ColumnHeader), kCodeAlignment);
}

size_t assign_offsets(ColumnHeader* columns, size_t column_count, uint32_t tuple_count) {
  size_t offset = header_area_bytes(column_count);
  for (size_t c = 0; c < column_count; ++c) {
    ColumnHeader& column = columns[c];
    const SectionSizes sizes = section_sizes(column, tuple_count);
    const size_t start = offset;
    auto place = [&offset](size_t size, uint64_t& field) {
      field = size ? offset : 0;
      offset += round_up(size, kSectionAlignment);
    };
    place(sizes.codes, column.codes_offset);
    place(sizes.nulls, column.nulls_offset);
    place(sizes.sma, column.sma_offset);
    place(sizes.psma, column.psma_offset);
    place(sizes.dictionary, column.dictionary_offset);
    place(sizes.strings, column.strings_offset);
    offset = start + sizes.span();
  }
  return offset;
}

}  // namespace floe::block_format
