#include "storage/data_block.h"

#include <cstring>
#include <new>
#include <string>

#include "storage/data_block_layout.h"
#include "storage/error.h"
#include "storage/physical_order.h"

namespace floe {

using block_format::BlockHeader;
using block_format::ColumnHeader;

void DataBlock::AlignedDelete::operator()(uint8_t* p) const {
  ::operator delete[](p, std::align_val_t{block_format::kCodeAlignment});
}

DataBlock::Buffer DataBlock::allocate(size_t size) {
  return Buffer(static_cast<uint8_t*>(
      ::operator new[](size, std::align_val_t{block_format::kCodeAlignment})));
}

const ColumnHeader& DataBlock::column_header(size_t index) const {
  return reinterpret_cast<const ColumnHeader*>(data_.get() + sizeof(BlockHeader))[index];
}

BlockColumn DataBlock::column(size_t index) const {
  return BlockColumn(data_.get(), &column_header(index), tuple_count());
}

size_t DataBlock::uncompressed_bytes() const {
  size_t bytes = 0;
  for (size_t c = 0; c < column_count(); ++c) bytes += column_header(c).uncompressed_bytes;
  return bytes;
}

std::array<uint32_t, block_format::kSchemeCount> DataBlock::scheme_counts() const {
  std::array<uint32_t, block_format::kSchemeCount> counts{};
  for (size_t c = 0; c < column_count(); ++c) ++counts[column_header(c).scheme];
  return counts;
}

std::unique_ptr<DataBlock> DataBlock::from_bytes(std::span<const uint8_t> bytes) {
  if (bytes.size() < sizeof(BlockHeader)) throw Error("corrupt data block: too short");
  auto block = std::unique_ptr<DataBlock>(new DataBlock(allocate(bytes.size()), bytes.size()));
  std::memcpy(block->data_.get(), bytes.data(), bytes.size());
  block->validate();
  return block;
}

namespace {

[[noreturn]] void corrupt(size_t column, const std::string& what) {
  throw Error("corrupt data block: column " + std::to_string(column) + ": " + what);
}

bool valid_scheme_fields(const ColumnHeader& column, uint32_t tuple_count) {
  if (column.scheme >= block_format::kSchemeCount) return false;
  if (column.physical_type > static_cast<uint8_t>(PhysicalType::kString)) return false;
  if (column.flags & ~block_format::kKnownFlags) return false;
  const auto scheme = static_cast<Scheme>(column.scheme);
  const auto type = static_cast<PhysicalType>(column.physical_type);
  const bool is_string = type == PhysicalType::kString;
  const bool integer_like =
      type != PhysicalType::kDouble && type != PhysicalType::kInterval && !is_string;
  const bool all_null = column.flags & block_format::kAllNull;
  if (all_null && (!(column.flags & block_format::kHasNulls) || scheme != Scheme::kSingleValue))
    return false;
  if (!is_string && column.strings_bytes) return false;
  if (scheme != Scheme::kDictionary && column.dictionary_size) return false;
  const unsigned width = column.code_width;
  switch (scheme) {
    case Scheme::kSingleValue:
      return width == 0 && column.psma_width == 0 && (!all_null || !column.strings_bytes);
    case Scheme::kDictionary:
      return (width == 1 || width == 2 || width == 4) && column.psma_width == width &&
             column.dictionary_size >= 1 && column.dictionary_size <= tuple_count &&
             (width == 4 || column.dictionary_size <= (1u << (8 * width)));
    case Scheme::kTruncation:
      return integer_like && (width == 1 || width == 2 || width == 4) && column.psma_width == width;
    case Scheme::kUncompressed: {
      const size_t size = physical_size(type);
      return !is_string && width == size &&
             column.psma_width == (integer_like && size <= 8 ? size : 0);
    }
  }
  return false;
}

// The checks that need the sections: everything a read could otherwise follow out of the
// block (codes, string offsets, PSMA ranges) and the dictionary order translation relies on.
template <typename T>
void validate_sections(const uint8_t* block, const ColumnHeader& column, uint32_t tuple_count,
                       size_t index) {
  const auto scheme = static_cast<Scheme>(column.scheme);
  const uint32_t entries = column.dictionary_size;
  if (scheme == Scheme::kDictionary) {
    const uint8_t* codes = block + column.codes_offset;
    for (uint32_t row = 0; row < tuple_count; ++row) {
      uint32_t code = 0;
      std::memcpy(&code, codes + size_t{row} * column.code_width, column.code_width);
      if (code >= entries) corrupt(index, "code out of range");
    }
  }
  if constexpr (std::is_same_v<T, StringRef>) {
    const auto* sma = reinterpret_cast<const uint32_t*>(block + column.sma_offset);
    for (int slot = 0; slot < 2; ++slot)
      if (uint64_t{sma[4 * slot]} + sma[4 * slot + 1] > column.strings_bytes)
        corrupt(index, "SMA outside the string area");
    if (scheme == Scheme::kDictionary) {
      const auto* offsets = reinterpret_cast<const uint32_t*>(block + column.dictionary_offset);
      const char* strings = reinterpret_cast<const char*>(block + column.strings_offset);
      if (offsets[0] != 0 || offsets[entries] != column.strings_bytes)
        corrupt(index, "string offsets do not cover the string area");
      for (uint32_t i = 0; i < entries; ++i) {
        if (offsets[i + 1] < offsets[i]) corrupt(index, "string offsets out of order");
        if (i == 0) continue;
        std::string_view previous(strings + offsets[i - 1], offsets[i] - offsets[i - 1]);
        std::string_view current(strings + offsets[i], offsets[i + 1] - offsets[i]);
        if (!(previous < current)) corrupt(index, "dictionary not sorted");
      }
    }
  } else if (scheme == Scheme::kDictionary) {
    const T* dictionary = reinterpret_cast<const T*>(block + column.dictionary_offset);
    for (uint32_t i = 1; i < entries; ++i)
      if (!total_less(dictionary[i - 1], dictionary[i])) corrupt(index, "dictionary not sorted");
  }
  if (column.psma_width) {
    const auto* psma = reinterpret_cast<const RowRange*>(block + column.psma_offset);
    for (size_t i = 0; i < psma_slot_count(column.psma_width); ++i)
      if (psma[i].begin > psma[i].end || psma[i].end > tuple_count)
        corrupt(index, "PSMA range out of the block");
  }
}

}  // namespace

void DataBlock::validate() const {
  const BlockHeader& block = header();
  if (block.magic != block_format::kMagic) throw Error("corrupt data block: bad magic number");
  if (block.version != block_format::kVersion)
    throw Error("corrupt data block: unknown version " + std::to_string(block.version));
  if (block.byte_size != size_)
    throw Error("corrupt data block: size " + std::to_string(block.byte_size) + " but " +
                std::to_string(size_) + " bytes given");
  if (block.tuple_count == 0 || block.tuple_count > block_format::kMaxTupleCount)
    throw Error("corrupt data block: tuple count " + std::to_string(block.tuple_count));
  if (block_format::header_area_bytes(block.column_count) > size_)
    throw Error("corrupt data block: column headers beyond its end");
  std::vector<ColumnHeader> expected(block.column_count);
  for (size_t c = 0; c < block.column_count; ++c) {
    expected[c] = column_header(c);
    if (!valid_scheme_fields(expected[c], block.tuple_count)) corrupt(c, "bad scheme fields");
  }
  // The layout is a function of the scheme fields: every offset must be where it would be.
  if (block_format::assign_offsets(expected.data(), expected.size(), block.tuple_count) != size_)
    throw Error("corrupt data block: sections do not add up to its size");
  for (size_t c = 0; c < block.column_count; ++c) {
    if (std::memcmp(&expected[c], &column_header(c), sizeof(ColumnHeader)) != 0)
      corrupt(c, "section offsets out of place");
    visit_physical(static_cast<PhysicalType>(expected[c].physical_type), [&](auto tag) {
      validate_sections<decltype(tag)>(data_.get(), expected[c], block.tuple_count, c);
    });
  }
}

}  // namespace floe
