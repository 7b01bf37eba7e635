// DataBlock::freeze: chooses each column's scheme and writes the block (paper §3.3).
#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <numeric>

#include "storage/data_block.h"
#include "storage/data_block_layout.h"
#include "storage/distinct_sketch.h"
#include "storage/error.h"
#include "storage/physical_order.h"

namespace floe {

namespace {

using block_format::ColumnHeader;

// What freezing minimizes: the bytes of the sections that depend on the scheme.
size_t scheme_bytes(const ColumnHeader& column, uint32_t rows) {
  return block_format::section_sizes(column, rows).scheme_bytes();
}

// Bytes of unsigned codes that hold numbers up to `largest`: 1, 2 or 4; 0 if none does.
template <typename U>
uint8_t width_for(U largest) {
  if (largest <= 0xff) return 1;
  if (largest <= 0xffff) return 2;
  if (largest <= 0xffffffffu) return 4;
  return 0;
}

// Finds the scheme of one column's rows and writes its sections. The rows are the chunk's
// rows [begin, begin + rows), or, with `order`, the rows begin + order[i].
class ColumnEncoder {
 public:
  virtual ~ColumnEncoder() = default;
  // The header without offsets.
  const ColumnHeader& layout() const { return layout_; }
  // Writes the sections into a zeroed block at the offsets of `header`.
  virtual void write(uint8_t* block, const ColumnHeader& header) const = 0;

 protected:
  ColumnHeader layout_{};
};

template <typename T>
class TypedEncoder final : public ColumnEncoder {
 public:
  TypedEncoder(const HotChunk& chunk, size_t column, const ColumnDef& def, uint32_t begin,
               uint32_t rows, const std::vector<uint32_t>* order)
      : rows_(rows) {
    const T* source = reinterpret_cast<const T*>(chunk.data(column)) + begin;
    values_ = source;
    if (order) {
      gathered_.resize(rows);
      for (uint32_t i = 0; i < rows; ++i) gathered_[i] = source[(*order)[i]];
      values_ = gathered_.data();
    }
    layout_.physical_type = static_cast<uint8_t>(def.type.physical());
    const uint32_t words = (rows + 63) / 64;
    if (chunk.validity(column)) {
      validity_.assign(words, 0);
      uint32_t present = 0;
      for (uint32_t i = 0; i < rows; ++i) {
        if (chunk.is_valid(column, begin + (order ? (*order)[i] : i))) {
          validity_[i >> 6] |= uint64_t{1} << (i & 63);
          ++present;
        }
      }
      if (present == rows) validity_.clear();
      present_ = present;
    } else {
      present_ = rows;
    }
    layout_.uncompressed_bytes = uint64_t{rows} * sizeof(T) + (def.nullable ? words * 8 : 0);
    if constexpr (std::is_same_v<T, StringRef>) {
      for (uint32_t row = 0; row < rows; ++row)
        if (present(row) && !values_[row].is_inline())
          layout_.uncompressed_bytes += values_[row].length;
    }
    choose_scheme();
  }

  void write(uint8_t* block, const ColumnHeader& header) const override;

 private:
  Scheme scheme() const { return static_cast<Scheme>(layout_.scheme); }
  bool present(uint32_t row) const {
    return validity_.empty() || (validity_[row >> 6] >> (row & 63) & 1);
  }
  void choose_scheme();
  bool build_dictionary(ColumnHeader& dictionary, size_t bytes_to_beat);
  // The unsigned code of a row (0 for NULL rows): dictionary code, or value - min.
  uint64_t delta(uint32_t row) const;
  void write_strings(uint8_t* block, const ColumnHeader& header) const;

  uint32_t rows_;
  uint32_t present_ = 0;
  const T* values_;
  std::vector<T> gathered_;
  std::vector<uint64_t> validity_;  // empty: no NULLs
  uint32_t min_row_ = 0;
  uint32_t max_row_ = 0;
  std::vector<uint32_t> codes_;       // dictionary scheme: code per row
  std::vector<uint32_t> entry_rows_;  // dictionary scheme: a row holding each entry
};

template <typename T>
void TypedEncoder<T>::choose_scheme() {
  constexpr bool kIsString = std::is_same_v<T, StringRef>;
  if (present_ < rows_) layout_.flags |= block_format::kHasNulls;
  if (present_ == 0) {
    layout_.flags |= block_format::kAllNull;
    return;  // single value
  }
  uint32_t first = 0;
  while (!present(first)) ++first;
  min_row_ = max_row_ = first;
  bool single = true;
  for (uint32_t row = first + 1; row < rows_; ++row) {
    if (!present(row)) continue;
    const T& value = values_[row];
    single = single && identical(value, values_[first]);
    if constexpr (!kIsString) {  // strings take their SMA from the dictionary
      if (total_less(value, values_[min_row_])) min_row_ = row;
      if (total_less(values_[max_row_], value)) max_row_ = row;
    }
  }
  if (single) {
    if constexpr (kIsString) layout_.strings_bytes = values_[first].length;
    return;
  }

  // Candidates in the order ties prefer them: the cheaper decode first.
  ColumnHeader best = layout_;
  size_t best_bytes = std::numeric_limits<size_t>::max();
  auto consider = [&](const ColumnHeader& candidate) {
    const size_t bytes = scheme_bytes(candidate, rows_);
    if (bytes < best_bytes) {
      best = candidate;
      best_bytes = bytes;
    }
  };
  if constexpr (!kIsString) {
    ColumnHeader raw = layout_;
    raw.scheme = static_cast<uint8_t>(Scheme::kUncompressed);
    raw.code_width = sizeof(T);
    if constexpr (kIsIntegerLike<T> && sizeof(T) <= 8) raw.psma_width = sizeof(T);
    consider(raw);
  }
  if constexpr (kIsIntegerLike<T>) {
    const uint8_t width = width_for(delta_of(values_[max_row_], values_[min_row_]));
    if (width) {
      ColumnHeader truncated = layout_;
      truncated.scheme = static_cast<uint8_t>(Scheme::kTruncation);
      truncated.code_width = truncated.psma_width = width;
      consider(truncated);
    }
  }
  // A dictionary has at least two entries here and at least 1-byte codes with their PSMA.
  ColumnHeader dictionary = layout_;
  dictionary.scheme = static_cast<uint8_t>(Scheme::kDictionary);
  if (build_dictionary(dictionary, best_bytes)) consider(dictionary);
  layout_ = best;
  if constexpr (kIsString) {
    min_row_ = entry_rows_.front();
    max_row_ = entry_rows_.back();
  }
  if (scheme() != Scheme::kDictionary) {
    codes_ = {};
    entry_rows_ = {};
  }
}

template <typename T>
uint64_t hash_value(const T& value) {
  if constexpr (std::is_same_v<T, StringRef>) {
    return hash_bytes(value.view());
  } else {
    uint64_t words[2] = {0, 0};
    std::memcpy(words, &value, sizeof(T));
    return hash_integer(words[0] ^ hash_integer(words[1]));
  }
}

// An order-preserving dictionary (paper §3.3): numbers the distinct values in first-seen
// order with a hash table, then sorts them (total_less) and renumbers the codes. Fills the
// scheme fields of `dictionary`. Numbers and doubles give up, returning false, as soon as the
// dictionary cannot take fewer than `bytes_to_beat` bytes; strings always get a dictionary.
template <typename T>
bool TypedEncoder<T>::build_dictionary(ColumnHeader& dictionary, size_t bytes_to_beat) {
  constexpr bool kIsString = std::is_same_v<T, StringRef>;
  // The distinct values, contiguous so that probing and sorting touch few cache lines.
  struct Entry {
    T value;
    uint32_t row;  // the first row holding it
    uint32_t id;   // first-seen number
  };
  std::vector<Entry> entries;
  const size_t mask = std::bit_ceil(size_t{present_} * 2) - 1;
  std::vector<uint64_t> slots(mask + 1, 0);  // high hash bits << 32 | (id + 1); 0 = free
  codes_.assign(rows_, 0);
  uint64_t string_bytes = 0;
  for (uint32_t row = 0; row < rows_; ++row) {
    if (!present(row)) continue;
    const T& value = values_[row];
    const uint64_t hash = hash_value(value);
    const uint64_t tag = hash & ~uint64_t{0xffffffff};
    size_t slot = hash & mask;
    while (slots[slot] && ((slots[slot] & ~uint64_t{0xffffffff}) != tag ||
                           !identical(entries[(slots[slot] & 0xffffffff) - 1].value, value)))
      slot = (slot + 1) & mask;
    if (!slots[slot]) {
      const auto id = static_cast<uint32_t>(entries.size());
      entries.push_back({value, row, id});
      slots[slot] = tag | (id + 1);
      if constexpr (kIsString) {
        string_bytes += value.length;
      } else {
        // Smallest possible: codes, PSMA and entries for the entries seen so far.
        dictionary.dictionary_size = id + 1;
        dictionary.code_width = dictionary.psma_width = width_for(id);
        if (scheme_bytes(dictionary, rows_) >= bytes_to_beat) return false;
      }
    }
    codes_[row] = static_cast<uint32_t>(slots[slot] & 0xffffffff) - 1;
  }
  if (string_bytes > std::numeric_limits<uint32_t>::max())
    throw Error("cannot freeze a block with more than 4 GiB of distinct string bytes");

  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return total_less(a.value, b.value); });
  std::vector<uint32_t> rank(entries.size());
  entry_rows_.resize(entries.size());
  for (uint32_t i = 0; i < entries.size(); ++i) {
    rank[entries[i].id] = i;
    entry_rows_[i] = entries[i].row;
  }
  for (uint32_t row = 0; row < rows_; ++row) codes_[row] = present(row) ? rank[codes_[row]] : 0;
  dictionary.dictionary_size = static_cast<uint32_t>(entries.size());
  dictionary.code_width = dictionary.psma_width = width_for(entries.size() - 1);
  dictionary.strings_bytes = string_bytes;
  return true;
}

template <typename T>
uint64_t TypedEncoder<T>::delta(uint32_t row) const {
  if (!present(row)) return 0;
  if (scheme() == Scheme::kDictionary) return codes_[row];
  if constexpr (kIsIntegerLike<T>) {
    return static_cast<uint64_t>(delta_of(values_[row], values_[min_row_]));
  }
  return 0;
}

template <typename T>
void TypedEncoder<T>::write_strings(uint8_t* block, const ColumnHeader& header) const {
  char* strings = reinterpret_cast<char*>(block + header.strings_offset);
  uint32_t* sma = reinterpret_cast<uint32_t*>(block + header.sma_offset);
  if (scheme() == Scheme::kSingleValue) {
    const StringRef& value = values_[min_row_];
    if (value.length) std::memcpy(strings, value.data(), value.length);
    sma[1] = sma[5] = value.length;  // slots {offset 0, length}
    return;
  }
  uint32_t* offsets = reinterpret_cast<uint32_t*>(block + header.dictionary_offset);
  uint32_t offset = 0;
  for (size_t i = 0; i < entry_rows_.size(); ++i) {
    const StringRef& value = values_[entry_rows_[i]];
    offsets[i] = offset;
    if (value.length) std::memcpy(strings + offset, value.data(), value.length);
    offset += value.length;
  }
  offsets[entry_rows_.size()] = offset;
  const size_t last = entry_rows_.size() - 1;
  sma[1] = offsets[1];  // min: entry 0 at offset 0
  sma[4] = offsets[last];
  sma[5] = offsets[last + 1] - offsets[last];
}

template <typename T>
void TypedEncoder<T>::write(uint8_t* block, const ColumnHeader& header) const {
  if (present_ == 0) return;  // all NULL: zero SMA, nothing else
  const T& min = values_[min_row_];
  if constexpr (std::is_same_v<T, StringRef>) {
    write_strings(block, header);
  } else {
    std::memcpy(block + header.sma_offset, &min, sizeof(T));
    std::memcpy(block + header.sma_offset + block_format::kSmaSlotBytes, &values_[max_row_],
                sizeof(T));
    if (scheme() == Scheme::kDictionary) {
      T* dictionary = reinterpret_cast<T*>(block + header.dictionary_offset);
      for (size_t i = 0; i < entry_rows_.size(); ++i) dictionary[i] = values_[entry_rows_[i]];
    }
  }

  uint8_t* codes = block + header.codes_offset;
  if (scheme() == Scheme::kDictionary || scheme() == Scheme::kTruncation) {
    block_format::with_code_type(layout_.code_width, [&](auto code_tag) {
      using C = decltype(code_tag);
      C* out = reinterpret_cast<C*>(codes);
      for (uint32_t row = 0; row < rows_; ++row) out[row] = static_cast<C>(delta(row));
    });
  } else if (scheme() == Scheme::kUncompressed) {
    if constexpr (!std::is_same_v<T, StringRef>) {
      T* out = reinterpret_cast<T*>(codes);
      for (uint32_t row = 0; row < rows_; ++row) out[row] = present(row) ? values_[row] : min;
    }
  }

  if (layout_.psma_width) {
    build_psma(
        rows_, validity_.empty() ? nullptr : validity_.data(),
        [this](uint32_t row) { return delta(row); },
        reinterpret_cast<RowRange*>(block + header.psma_offset),
        psma_slot_count(layout_.psma_width));
  }
  if (header.nulls_offset)
    std::memcpy(block + header.nulls_offset, validity_.data(), validity_.size() * 8);
}

}  // namespace

std::unique_ptr<DataBlock> DataBlock::freeze(const std::vector<ColumnDef>& columns,
                                             const HotChunk& chunk, uint32_t begin, uint32_t end,
                                             std::optional<size_t> sort_column) {
  if (begin >= end || end > chunk.size() || end - begin > block_format::kMaxTupleCount)
    throw Error("cannot freeze rows [" + std::to_string(begin) + ", " + std::to_string(end) +
                ") of a chunk of " + std::to_string(chunk.size()) + " rows");
  if (columns.size() > std::numeric_limits<uint16_t>::max())
    throw Error("cannot freeze a block of more than 65535 columns");
  if (sort_column && *sort_column >= columns.size())
    throw Error("sort column " + std::to_string(*sort_column) + " does not exist");
  const uint32_t rows = end - begin;

  // Block-wise sorting (paper §5.2, Fig. 11): a stable permutation, NULLs last.
  std::optional<std::vector<uint32_t>> order;
  if (sort_column) {
    order.emplace(rows);
    std::iota(order->begin(), order->end(), 0u);
    const size_t key = *sort_column;
    visit_physical(columns[key].type.physical(), [&](auto tag) {
      using T = decltype(tag);
      const T* values = reinterpret_cast<const T*>(chunk.data(key)) + begin;
      std::stable_sort(order->begin(), order->end(), [&](uint32_t a, uint32_t b) {
        const bool a_valid = chunk.is_valid(key, begin + a);
        const bool b_valid = chunk.is_valid(key, begin + b);
        if (!a_valid || !b_valid) return a_valid && !b_valid;
        return sql_compare(values[a], values[b]) < 0;
      });
    });
  }

  std::vector<std::unique_ptr<ColumnEncoder>> encoders;
  std::vector<ColumnHeader> headers;
  for (size_t c = 0; c < columns.size(); ++c) {
    visit_physical(columns[c].type.physical(), [&](auto tag) {
      using T = decltype(tag);
      encoders.push_back(std::make_unique<TypedEncoder<T>>(chunk, c, columns[c], begin, rows,
                                                           order ? &*order : nullptr));
    });
    headers.push_back(encoders.back()->layout());
  }
  const size_t size = block_format::assign_offsets(headers.data(), headers.size(), rows);

  auto block = std::unique_ptr<DataBlock>(new DataBlock(allocate(size), size));
  uint8_t* data = block->data_.get();
  std::memset(data, 0, size);
  block_format::BlockHeader block_header{};
  block_header.magic = block_format::kMagic;
  block_header.version = block_format::kVersion;
  block_header.column_count = static_cast<uint16_t>(columns.size());
  block_header.tuple_count = rows;
  block_header.byte_size = size;
  std::memcpy(data, &block_header, sizeof block_header);
  std::memcpy(data + sizeof block_header, headers.data(), headers.size() * sizeof(ColumnHeader));
  for (size_t c = 0; c < columns.size(); ++c) encoders[c]->write(data, headers[c]);
  return block;
}

}  // namespace floe
