#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "storage/data_block.h"
#include "storage/data_block_layout.h"
#include "storage/error.h"
#include "storage/physical_order.h"
#include "storage/string_heap.h"

namespace floe {
namespace {

// A hot chunk with rows set value by value, and the heap its long strings live in.
class TestChunk {
 public:
  explicit TestChunk(std::vector<ColumnDef> columns)
      : columns_(std::move(columns)), chunk_(std::make_unique<HotChunk>(columns_)) {}
  TestChunk(SqlType type, bool nullable) : TestChunk({{"c", type, nullable}}) {}

  const std::vector<ColumnDef>& columns() const { return columns_; }
  const HotChunk& chunk() const { return *chunk_; }

  void append_rows(uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) chunk_->append_slot();
  }
  template <typename T>
  void set(size_t column, uint32_t row, const T& value) {
    std::memcpy(chunk_->data(column) + size_t{row} * sizeof(T), &value, sizeof(T));
  }
  void set_string(size_t column, uint32_t row, std::string_view value) {
    set(column, row, heap_->store(value));
  }
  void set_null(size_t column, uint32_t row) {
    chunk_->validity(column)[row >> 6] &= ~(uint64_t{1} << (row & 63));
  }
  template <typename T>
  T get(size_t column, uint32_t row) const {
    T value;
    std::memcpy(&value, chunk_->data(column) + size_t{row} * sizeof(T), sizeof(T));
    return value;
  }

  std::unique_ptr<DataBlock> freeze(std::optional<size_t> sort_column = {}) const {
    return DataBlock::freeze(columns_, *chunk_, 0, chunk_->size(), sort_column);
  }

 private:
  std::vector<ColumnDef> columns_;
  // Behind pointers, so that the test chunk moves (a HotChunk does not: readers beside a
  // writer hold its address).
  std::unique_ptr<HotChunk> chunk_;
  std::unique_ptr<StringHeap> heap_ = std::make_unique<StringHeap>();
};

// One column of `rows` rows from a generator.
template <typename T, typename Generate>
TestChunk one_column(SqlType type, uint32_t rows, Generate generate, bool nullable = false) {
  TestChunk chunk(type, nullable);
  chunk.append_rows(rows);
  for (uint32_t row = 0; row < rows; ++row) chunk.set<T>(0, row, generate(row));
  return chunk;
}

std::string random_string(std::mt19937_64& rng, size_t max_length) {
  std::string s(rng() % (max_length + 1), ' ');
  for (char& c : s) c = static_cast<char>('a' + rng() % 4);  // shared prefixes are common
  if (rng() % 8 == 0 && !s.empty()) s.back() = static_cast<char>(0xe9);  // a byte above 0x7f
  return s;
}

// ---- schemes ------------------------------------------------------------------------------

void expect_scheme(const DataBlock& block, Scheme scheme, uint32_t code_width, const char* name) {
  BlockColumn column = block.column(0);
  EXPECT_EQ(column.scheme(), scheme) << name;
  EXPECT_EQ(column.code_width(), code_width) << name;
}

TEST(DataBlockTest, ChoosesSingleValueForEveryType) {
  constexpr uint32_t kRows = 1000;
  expect_scheme(
      *one_column<uint8_t>(SqlType::boolean(), kRows, [](uint32_t) { return 1; }).freeze(),
      Scheme::kSingleValue, 0, "bool");
  expect_scheme(
      *one_column<int16_t>(SqlType::small_int(), kRows, [](uint32_t) { return -7; }).freeze(),
      Scheme::kSingleValue, 0, "int16");
  expect_scheme(
      *one_column<int32_t>(SqlType::date(), kRows, [](uint32_t) { return 9000; }).freeze(),
      Scheme::kSingleValue, 0, "date");
  expect_scheme(
      *one_column<int64_t>(SqlType::big_int(), kRows, [](uint32_t) { return int64_t{1} << 60; })
           .freeze(),
      Scheme::kSingleValue, 0, "int64");
  expect_scheme(*one_column<int128_t>(SqlType::decimal(38, 2), kRows,
                                      [](uint32_t) { return int128_t{1} << 100; })
                     .freeze(),
                Scheme::kSingleValue, 0, "int128");
  expect_scheme(
      *one_column<double>(SqlType::double_type(), kRows, [](uint32_t) { return 2.5; }).freeze(),
      Scheme::kSingleValue, 0, "double");
  expect_scheme(*one_column<Interval>(SqlType::interval(), kRows,
                                      [](uint32_t) {
                                        return Interval{1, 2, 3};
                                      })
                     .freeze(),
                Scheme::kSingleValue, 0, "interval");
  TestChunk strings(SqlType::text(), false);
  strings.append_rows(kRows);
  for (uint32_t row = 0; row < kRows; ++row)
    strings.set_string(0, row, "the same string, longer than twelve bytes");
  auto block = strings.freeze();
  expect_scheme(*block, Scheme::kSingleValue, 0, "string");
  StringRef value;
  uint32_t row = 999;
  block->column(0).unpack(&row, 1, &value);
  EXPECT_EQ(value.view(), "the same string, longer than twelve bytes");
}

TEST(DataBlockTest, SingleValueKeepsSignOfZero) {
  // -0.0 and 0.0 are SQL-equal but not the same value: no single value, both come back.
  auto block = one_column<double>(SqlType::double_type(), 100, [](uint32_t row) {
                 return row % 2 ? -0.0 : 0.0;
               }).freeze();
  BlockColumn column = block->column(0);
  EXPECT_NE(column.scheme(), Scheme::kSingleValue);
  double values[2];
  column.unpack_range(0, 2, values);
  EXPECT_FALSE(std::signbit(values[0]));
  EXPECT_TRUE(std::signbit(values[1]));
}

TEST(DataBlockTest, ChoosesTruncationByDeltaWidth) {
  constexpr uint32_t kRows = 1u << 16;
  std::mt19937_64 rng(1);
  // Deltas below 2^8, 2^16, 2^32 with (nearly) all values distinct within the width.
  auto block = one_column<int64_t>(SqlType::big_int(), kRows, [&](uint32_t row) {
                 return int64_t{1000000} + row % 256;
               }).freeze();
  expect_scheme(*block, Scheme::kTruncation, 1, "int64 1 byte");
  block = one_column<int32_t>(SqlType::integer(), kRows, [&](uint32_t row) {
            return -30000 + static_cast<int32_t>(row);
          }).freeze();
  expect_scheme(*block, Scheme::kTruncation, 2, "int32 2 bytes");
  block = one_column<int64_t>(SqlType::big_int(), kRows, [&](uint32_t) {
            return int64_t{-5000000000} + static_cast<int64_t>(rng() % 4000000000u);
          }).freeze();
  expect_scheme(*block, Scheme::kTruncation, 4, "int64 4 bytes");
  block = one_column<int128_t>(SqlType::decimal(38, 0), kRows, [&](uint32_t row) {
            return (int128_t{1} << 90) + row * 3;
          }).freeze();
  expect_scheme(*block, Scheme::kTruncation, 4, "int128 4 bytes");
  block = one_column<int32_t>(SqlType::date(), kRows, [&](uint32_t) {
            return 8000 + static_cast<int32_t>(rng() % 2500);
          }).freeze();
  // 2500 distinct values: 2-byte codes either way, truncation has no dictionary to store.
  expect_scheme(*block, Scheme::kTruncation, 2, "date");
}

TEST(DataBlockTest, ChoosesDictionaryForFewDistinctValues) {
  constexpr uint32_t kRows = 1u << 16;
  std::mt19937_64 rng(2);
  auto block = one_column<int64_t>(SqlType::big_int(), kRows, [&](uint32_t) {
                 return static_cast<int64_t>(rng() % 50) * 1000000007;
               }).freeze();
  expect_scheme(*block, Scheme::kDictionary, 1, "int64");
  EXPECT_EQ(block->column(0).dictionary_size(), 50u);
  block = one_column<double>(SqlType::double_type(), kRows, [&](uint32_t) {
            return static_cast<double>(rng() % 1000) / 7;
          }).freeze();
  expect_scheme(*block, Scheme::kDictionary, 2, "double");
  block = one_column<Interval>(SqlType::interval(), kRows, [&](uint32_t) {
            return Interval{static_cast<int32_t>(rng() % 3), 0, 0};
          }).freeze();
  expect_scheme(*block, Scheme::kDictionary, 1, "interval");
  block = one_column<int128_t>(SqlType::decimal(38, 0), kRows, [&](uint32_t) {
            return static_cast<int128_t>(rng() % 10) << 100;
          }).freeze();
  expect_scheme(*block, Scheme::kDictionary, 1, "int128");
  block = one_column<int16_t>(SqlType::small_int(), kRows, [&](uint32_t) {
            return static_cast<int16_t>(rng() % 200 * 100);
          }).freeze();
  expect_scheme(*block, Scheme::kDictionary, 1, "int16");
}

TEST(DataBlockTest, ChoosesUncompressedWhenNothingIsSmaller) {
  constexpr uint32_t kRows = 1u << 16;
  std::mt19937_64 rng(3);
  auto block = one_column<int64_t>(SqlType::big_int(), kRows, [&](uint32_t) {
                 return static_cast<int64_t>(rng());
               }).freeze();
  expect_scheme(*block, Scheme::kUncompressed, 8, "int64");
  EXPECT_EQ(block->column(0).code_type(), CodeType::kInt64);
  EXPECT_TRUE(block->column(0).has_psma());
  // 2-byte truncation ties with 2-byte raw values: the cheaper decode wins.
  block = one_column<int16_t>(SqlType::small_int(), kRows, [&](uint32_t row) {
            return static_cast<int16_t>(row);
          }).freeze();
  expect_scheme(*block, Scheme::kUncompressed, 2, "int16");
  block = one_column<uint8_t>(SqlType::boolean(), kRows, [&](uint32_t) {
            return static_cast<uint8_t>(rng() % 2);
          }).freeze();
  expect_scheme(*block, Scheme::kUncompressed, 1, "bool");
  EXPECT_EQ(block->column(0).code_type(), CodeType::kUInt8);
  block = one_column<double>(SqlType::double_type(), kRows, [&](uint32_t) {
            return static_cast<double>(rng()) / 3;
          }).freeze();
  expect_scheme(*block, Scheme::kUncompressed, 8, "double");
  EXPECT_FALSE(block->column(0).has_psma());
  block = one_column<int128_t>(SqlType::decimal(38, 0), kRows, [&](uint32_t) {
            return static_cast<int128_t>(rng()) << 40;
          }).freeze();
  expect_scheme(*block, Scheme::kUncompressed, 16, "int128");
  EXPECT_FALSE(block->column(0).has_psma());
  block = one_column<Interval>(SqlType::interval(), kRows, [&](uint32_t row) {
            return Interval{0, static_cast<int32_t>(row), static_cast<int64_t>(rng())};
          }).freeze();
  expect_scheme(*block, Scheme::kUncompressed, 16, "interval");
  EXPECT_EQ(block->column(0).code_type(), CodeType::kNone);
}

TEST(DataBlockTest, StringsAlwaysUseADictionary) {
  // All distinct and long: a dictionary is larger than the raw StringRefs would be, but
  // strings are always dictionary-coded (paper §3.4: the scan compares integers only).
  constexpr uint32_t kRows = 1u << 16;
  TestChunk strings(SqlType::varchar(100), false);
  strings.append_rows(kRows);
  for (uint32_t row = 0; row < kRows; ++row)
    strings.set_string(0, row, "distinct string number " + std::to_string(row * 7919 % kRows));
  auto block = strings.freeze();
  expect_scheme(*block, Scheme::kDictionary, 2, "distinct strings");
  BlockColumn column = block->column(0);
  EXPECT_EQ(column.dictionary_size(), kRows);
  EXPECT_EQ(column.min_as<StringRef>().view(), "distinct string number 0");
  EXPECT_EQ(column.max_as<StringRef>().view(), "distinct string number 9999");
  std::vector<StringRef> dictionary(column.dictionary_size());
  column.unpack_dictionary(dictionary.data());
  for (size_t i = 1; i < dictionary.size(); ++i)
    ASSERT_LT(StringRef::compare(dictionary[i - 1], dictionary[i]), 0);

  TestChunk few(SqlType::char_type(10), false);
  few.append_rows(300);
  for (uint32_t row = 0; row < 300; ++row) few.set_string(0, row, row % 3 ? "AIR" : "RAIL");
  expect_scheme(*few.freeze(), Scheme::kDictionary, 1, "few strings");
}

// ---- NULLs ------------------------------------------------------------------------------

TEST(DataBlockTest, NullBitmapOnlyWhenTheBlockHoldsNulls) {
  constexpr uint32_t kRows = 5000;
  auto none = one_column<int32_t>(
                  SqlType::integer(), kRows, [](uint32_t row) { return int32_t(row); }, true)
                  .freeze();
  EXPECT_FALSE(none->column(0).has_nulls());
  EXPECT_EQ(none->column(0).null_bitmap(), nullptr);

  TestChunk some = one_column<int32_t>(
      SqlType::integer(), kRows, [](uint32_t row) { return int32_t(row); }, true);
  for (uint32_t row = 0; row < kRows; row += 3) some.set_null(0, row);
  auto block = some.freeze();
  BlockColumn column = block->column(0);
  EXPECT_TRUE(column.has_nulls());
  EXPECT_FALSE(column.all_null());
  ASSERT_NE(column.null_bitmap(), nullptr);
  for (uint32_t row = 0; row < kRows; ++row) ASSERT_EQ(column.is_valid(row), row % 3 != 0);
  EXPECT_EQ(column.min_as<int32_t>(), 1);  // over the non-NULL values
  EXPECT_EQ(column.max_as<int32_t>(), int32_t(kRows - 1));
  // The bitmap costs its bytes (plus alignment), and the no-NULL block is that much smaller.
  EXPECT_GE(block->byte_size() - none->byte_size(), (kRows + 63) / 64 * 8);
  EXPECT_LE(block->byte_size() - none->byte_size(), (kRows + 63) / 64 * 8 + 64);

  TestChunk all(SqlType::text(), true);
  all.append_rows(kRows);
  for (uint32_t row = 0; row < kRows; ++row) all.set_null(0, row);
  block = all.freeze();
  column = block->column(0);
  EXPECT_EQ(column.scheme(), Scheme::kSingleValue);
  EXPECT_TRUE(column.all_null());
  EXPECT_TRUE(column.has_nulls());
  ASSERT_NE(column.null_bitmap(), nullptr);
  for (uint32_t row = 0; row < kRows; ++row) ASSERT_FALSE(column.is_valid(row));
  EXPECT_EQ(column.translate({}, {}).kind, CodeRange::Kind::kNone);
  EXPECT_EQ(column.compressed_bytes(), sizeof(block_format::ColumnHeader) + 64);  // SMA only
}

TEST(DataBlockTest, SingleValueWithNulls) {
  TestChunk chunk = one_column<int64_t>(
      SqlType::big_int(), 1000, [](uint32_t) { return int64_t{42}; }, true);
  chunk.set_null(0, 10);
  auto block = chunk.freeze();
  BlockColumn column = block->column(0);
  EXPECT_EQ(column.scheme(), Scheme::kSingleValue);
  EXPECT_TRUE(column.has_nulls());
  EXPECT_FALSE(column.is_valid(10));
  EXPECT_TRUE(column.is_valid(11));
  int64_t value = 0;
  uint32_t row = 11;
  column.unpack(&row, 1, &value);
  EXPECT_EQ(value, 42);
}

// ---- round trips --------------------------------------------------------------------------

// How the random values of a column are spread.
enum class Shape { kConstant, kFew, kNarrow, kWide };

const std::vector<ColumnDef>& all_types() {
  static const std::vector<ColumnDef> types = {
      {"b", SqlType::boolean(), true},      {"s", SqlType::small_int(), true},
      {"i", SqlType::integer(), true},      {"d", SqlType::date(), true},
      {"l", SqlType::big_int(), true},      {"m", SqlType::decimal(15, 2), true},
      {"h", SqlType::decimal(38, 2), true}, {"f", SqlType::double_type(), true},
      {"v", SqlType::interval(), true},     {"t", SqlType::varchar(50), true},
  };
  return types;
}

template <typename T>
T random_value(std::mt19937_64& rng, Shape shape) {
  const uint64_t r = shape == Shape::kConstant ? 17 : (shape == Shape::kFew ? rng() % 20 : rng());
  if constexpr (std::is_same_v<T, uint8_t>) {
    return static_cast<uint8_t>(r % 2);
  } else if constexpr (std::is_same_v<T, double>) {
    if (shape == Shape::kWide) {
      switch (r % 16) {
        case 0:
          return std::numeric_limits<double>::quiet_NaN();
        case 1:
          return -0.0;
        case 2:
          return 0.0;
        case 3:
          return std::numeric_limits<double>::infinity();
        default:
          return (static_cast<double>(rng() % 2000000) - 1000000) / 8;
      }
    }
    return shape == Shape::kNarrow ? static_cast<double>(rng() % 100) : r * 0.5 - 3;
  } else if constexpr (std::is_same_v<T, Interval>) {
    if (shape == Shape::kWide)
      return Interval{static_cast<int32_t>(r % 24), static_cast<int32_t>(rng() % 60),
                      static_cast<int64_t>(rng() % 1000000)};
    return Interval{static_cast<int32_t>(r % 3), static_cast<int32_t>(r % 90), 0};
  } else {
    // Integers: narrow = within 200 of an offset; wide = the type's range.
    const T offset = static_cast<T>(-(static_cast<int64_t>(rng() % 4) * 1000) + 123);
    if (shape == Shape::kNarrow) return static_cast<T>(offset + static_cast<T>(rng() % 200));
    if (shape == Shape::kWide) {
      if constexpr (sizeof(T) == 16) return static_cast<T>((int128_t(rng()) << 64) | rng());
      return static_cast<T>(rng());
    }
    return static_cast<T>(static_cast<int64_t>(r) * 1000 - 7);
  }
}

std::string random_string_value(std::mt19937_64& rng, Shape shape) {
  if (shape == Shape::kConstant) return "constant value!";
  if (shape == Shape::kFew) return "few " + std::to_string(rng() % 20);
  return random_string(rng, shape == Shape::kNarrow ? 8 : 40);
}

// A chunk of all physical types with values of `shape`; `null_every` > 0 makes about one row
// in null_every NULL in each column.
TestChunk random_chunk(uint32_t rows, Shape shape, uint32_t null_every, uint64_t seed) {
  std::mt19937_64 rng(seed);
  TestChunk chunk(all_types());
  chunk.append_rows(rows);
  for (size_t c = 0; c < all_types().size(); ++c) {
    visit_physical(all_types()[c].type.physical(), [&](auto tag) {
      using T = decltype(tag);
      for (uint32_t row = 0; row < rows; ++row) {
        if constexpr (std::is_same_v<T, StringRef>) {
          chunk.set_string(c, row, random_string_value(rng, shape));
        } else {
          chunk.set<T>(c, row, random_value<T>(rng, shape));
        }
        if (null_every && rng() % null_every == 0) chunk.set_null(c, row);
      }
    });
  }
  return chunk;
}

// Every row of `block` decodes to the chunk's row source_rows[i], by range, by positions and
// one at a time; NULL rows decode to the SMA min.
void expect_rows(const TestChunk& source, const DataBlock& block,
                 const std::vector<uint32_t>& source_rows, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t rows = block.tuple_count();
  ASSERT_EQ(rows, source_rows.size());
  for (size_t c = 0; c < block.column_count(); ++c) {
    visit_physical(source.columns()[c].type.physical(), [&](auto tag) {
      using T = decltype(tag);
      BlockColumn column = block.column(c);
      std::vector<T> values(rows);
      column.unpack_range(0, rows, values.data());
      std::vector<uint64_t> validity((rows + 63) / 64, 0xdeadbeef);
      column.unpack_validity_range(0, rows, validity.data());
      bool any = false;
      T min{}, max{};
      for (uint32_t row = 0; row < rows; ++row) {
        const bool valid = source.chunk().is_valid(c, source_rows[row]);
        ASSERT_EQ(static_cast<bool>(validity[row / 64] >> (row % 64) & 1), valid) << c << row;
        ASSERT_EQ(column.is_valid(row), valid);
        const T expected = valid ? source.get<T>(c, source_rows[row]) : column.min_as<T>();
        ASSERT_TRUE(identical(values[row], expected)) << "column " << c << " row " << row;
        if (valid) {
          if (!any || total_less(expected, min)) min = expected;
          if (!any || total_less(max, expected)) max = expected;
          any = true;
        }
      }
      if (rows % 64) {
        ASSERT_EQ(validity.back() >> (rows % 64), 0u);
      }
      EXPECT_EQ(column.all_null(), !any);
      if (any) {
        EXPECT_TRUE(identical(column.min_as<T>(), min)) << c;
        EXPECT_TRUE(identical(column.max_as<T>(), max)) << c;
      }
      // Random positions, repeats and unsorted allowed.
      std::vector<uint32_t> positions(777);
      for (uint32_t& position : positions) position = static_cast<uint32_t>(rng() % rows);
      std::vector<T> gathered(positions.size());
      column.unpack(positions.data(), static_cast<uint32_t>(positions.size()), gathered.data());
      std::vector<uint64_t> gathered_validity((positions.size() + 63) / 64);
      column.unpack_validity(positions.data(), static_cast<uint32_t>(positions.size()),
                             gathered_validity.data());
      for (size_t i = 0; i < positions.size(); ++i) {
        ASSERT_TRUE(identical(gathered[i], values[positions[i]])) << c;
        ASSERT_EQ(static_cast<bool>(gathered_validity[i / 64] >> (i % 64) & 1),
                  column.is_valid(positions[i]));
      }
      // A sub-range that starts and ends inside words.
      if (rows > 100) {
        std::vector<T> middle(rows - 70);
        column.unpack_range(37, rows - 70, middle.data());
        for (uint32_t i = 0; i < rows - 70; ++i)
          ASSERT_TRUE(identical(middle[i], values[37 + i])) << c;
      }
    });
  }
}

std::vector<uint32_t> identity(uint32_t begin, uint32_t end) {
  std::vector<uint32_t> rows(end - begin);
  std::iota(rows.begin(), rows.end(), begin);
  return rows;
}

TEST(DataBlockTest, RoundTripsEveryTypeAndShape) {
  for (Shape shape : {Shape::kConstant, Shape::kFew, Shape::kNarrow, Shape::kWide}) {
    for (uint32_t null_every : {0u, 7u, 1u}) {
      SCOPED_TRACE(testing::Message() << "shape " << int(shape) << " null_every " << null_every);
      const uint64_t seed = 100 + int(shape) * 10 + null_every;
      TestChunk chunk = random_chunk(9000, shape, null_every, seed);
      auto block = chunk.freeze();
      expect_rows(chunk, *block, identity(0, 9000), seed);
      // Part of a chunk, not at word boundaries.
      auto part = DataBlock::freeze(chunk.columns(), chunk.chunk(), 101, 5003);
      expect_rows(chunk, *part, identity(101, 5003), seed);
    }
  }
}

TEST(DataBlockTest, RoundTripsAFullChunk) {
  TestChunk chunk = random_chunk(kChunkCapacity, Shape::kWide, 5, 7);
  auto block = chunk.freeze();
  EXPECT_EQ(block->tuple_count(), kChunkCapacity);
  expect_rows(chunk, *block, identity(0, kChunkCapacity), 7);
}

TEST(DataBlockTest, SortedFreezeReordersAllColumnsByTheKey) {
  TestChunk chunk = random_chunk(5000, Shape::kFew, 9, 11);
  for (size_t key : {size_t{2}, size_t{9}}) {  // INTEGER and VARCHAR
    auto block = chunk.freeze(key);
    // The expected permutation: NULLs last, SQL order, ties in row order.
    std::vector<uint32_t> order = identity(0, 5000);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      const bool a_valid = chunk.chunk().is_valid(key, a);
      const bool b_valid = chunk.chunk().is_valid(key, b);
      if (a_valid != b_valid) return a_valid;
      if (!a_valid) return false;
      if (key == 2) return chunk.get<int32_t>(key, a) < chunk.get<int32_t>(key, b);
      return chunk.get<StringRef>(key, a).view() < chunk.get<StringRef>(key, b).view();
    });
    expect_rows(chunk, *block, order, 11);
  }
}

// ---- bytes ----------------------------------------------------------------------------------

TEST(DataBlockTest, BytesRoundTripThroughAFile) {
  TestChunk chunk = random_chunk(3000, Shape::kFew, 4, 21);
  auto block = chunk.freeze();
  const std::string path = testing::TempDir() + "floe_data_block_test.bin";
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(block->bytes().data()),
              static_cast<std::streamsize>(block->byte_size()));
  }
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  std::remove(path.c_str());
  auto copy = DataBlock::from_bytes(bytes);
  ASSERT_EQ(copy->byte_size(), block->byte_size());
  EXPECT_EQ(std::memcmp(copy->bytes().data(), block->bytes().data(), block->byte_size()), 0);
  bytes.assign(bytes.size(), 0);  // the copy owns its bytes
  expect_rows(chunk, *copy, identity(0, 3000), 21);
  // Strings point into the new block.
  StringRef first;
  uint32_t row = 0;
  copy->column(9).unpack(&row, 1, &first);
  if (!first.is_inline()) {
    EXPECT_GE(reinterpret_cast<const uint8_t*>(first.data()), copy->bytes().data());
    EXPECT_LT(reinterpret_cast<const uint8_t*>(first.data()),
              copy->bytes().data() + copy->byte_size());
  }
}

TEST(DataBlockTest, FreezingIsDeterministic) {
  TestChunk chunk = random_chunk(2000, Shape::kWide, 3, 22);
  auto a = chunk.freeze(4);
  auto b = chunk.freeze(4);
  ASSERT_EQ(a->byte_size(), b->byte_size());
  EXPECT_EQ(std::memcmp(a->bytes().data(), b->bytes().data(), a->byte_size()), 0);
}

// Throws floe::Error when `corrupt` is applied to the bytes of a good block.
template <typename Corrupt>
void expect_rejected(const DataBlock& block, Corrupt corrupt, const char* what) {
  std::vector<uint8_t> bytes(block.bytes().begin(), block.bytes().end());
  corrupt(bytes);
  EXPECT_THROW(DataBlock::from_bytes(bytes), Error) << what;
}

TEST(DataBlockTest, RejectsCorruptBytes) {
  // Column 0: a 1-byte dictionary of strings; column 1: 2-byte truncation with NULLs.
  TestChunk chunk({{"s", SqlType::text(), false}, {"i", SqlType::integer(), true}});
  chunk.append_rows(1000);
  for (uint32_t row = 0; row < 1000; ++row) {
    chunk.set_string(0, row, row % 3 ? "one long string value" : "short");
    chunk.set<int32_t>(1, row, static_cast<int32_t>(row * 13));
    if (row % 10 == 0) chunk.set_null(1, row);
  }
  auto block = chunk.freeze();
  ASSERT_EQ(block->column(0).scheme(), Scheme::kDictionary);
  ASSERT_EQ(block->column(1).scheme(), Scheme::kTruncation);
  EXPECT_NO_THROW(DataBlock::from_bytes(block->bytes()));

  using block_format::BlockHeader;
  using block_format::ColumnHeader;
  auto column = [](std::vector<uint8_t>& bytes, size_t index) {
    return reinterpret_cast<ColumnHeader*>(bytes.data() + sizeof(BlockHeader)) + index;
  };
  auto header = [](std::vector<uint8_t>& bytes) {
    return reinterpret_cast<BlockHeader*>(bytes.data());
  };
  EXPECT_THROW(DataBlock::from_bytes(std::span<const uint8_t>(block->bytes().data(), 20)), Error);
  expect_rejected(
      *block, [&](auto& b) { header(b)->magic ^= 1; }, "magic");
  expect_rejected(
      *block, [&](auto& b) { header(b)->version = 99; }, "version");
  expect_rejected(
      *block, [&](auto& b) { b.pop_back(); }, "short");
  expect_rejected(
      *block, [&](auto& b) { b.resize(b.size() + 64); }, "long");
  expect_rejected(
      *block, [&](auto& b) { header(b)->tuple_count = 2000; }, "tuple count");
  expect_rejected(
      *block, [&](auto& b) { header(b)->column_count = 60000; }, "column count");
  expect_rejected(
      *block, [&](auto& b) { column(b, 1)->scheme = 9; }, "scheme");
  expect_rejected(
      *block, [&](auto& b) { column(b, 1)->code_width = 3; }, "code width");
  expect_rejected(
      *block, [&](auto& b) { column(b, 1)->code_width = 4; }, "layout");
  expect_rejected(
      *block, [&](auto& b) { column(b, 1)->codes_offset += 64; }, "offset");
  expect_rejected(
      *block, [&](auto& b) { column(b, 0)->physical_type = 99; }, "type");
  expect_rejected(
      *block, [&](auto& b) { column(b, 0)->scheme = uint8_t(Scheme::kTruncation); },
      "truncated strings");
  expect_rejected(
      *block, [&](auto& b) { b[column(b, 0)->codes_offset + 5] = 7; }, "code out of range");
  expect_rejected(
      *block,
      [&](auto& b) {
        reinterpret_cast<uint32_t*>(b.data() + column(b, 0)->dictionary_offset)[1] = 1000;
      },
      "string offset");
  expect_rejected(
      *block,
      [&](auto& b) {
        reinterpret_cast<RowRange*>(b.data() + column(b, 1)->psma_offset)->end = 5000;
      },
      "PSMA");
}

// ---- domain translation and PSMA ----------------------------------------------------------

// The code of a row compared against the inclusive bounds of `range` in the code type.
bool code_in_range(const BlockColumn& column, uint32_t row, const CodeRange& range) {
  auto check = [&](auto tag) {
    using C = decltype(tag);
    const C code = static_cast<const C*>(column.codes())[row];
    return range.low<C>() <= code && code <= range.high<C>();
  };
  switch (column.code_type()) {
    case CodeType::kUInt8:
      return check(uint8_t{});
    case CodeType::kUInt16:
      return check(uint16_t{});
    case CodeType::kUInt32:
      return check(uint32_t{});
    case CodeType::kInt16:
      return check(int16_t{});
    case CodeType::kInt32:
      return check(int32_t{});
    case CodeType::kInt64:
      return check(int64_t{});
    case CodeType::kInt128:
      return check(int128_t{});
    case CodeType::kDouble:
      return check(double{});
    case CodeType::kNone:
      break;
  }
  ADD_FAILURE() << "kCodes on a column without comparable codes";
  return false;
}

// Checks translate() and psma_range() for one restriction against every row.
template <typename T>
void check_restriction(const BlockColumn& column, const std::vector<T>& values,
                       std::optional<T> low, bool low_inclusive, std::optional<T> high,
                       bool high_inclusive) {
  std::optional<ValueBound> low_bound, high_bound;
  if (low) low_bound = ValueBound{&*low, low_inclusive};
  if (high) high_bound = ValueBound{&*high, high_inclusive};
  const CodeRange range = column.translate(low_bound, high_bound);
  const RowRange rows = column.psma_range(range);
  if (range.kind == CodeRange::Kind::kValues) {
    const bool may =
        column.scheme() == Scheme::kUncompressed &&
        (column.code_type() == CodeType::kDouble || column.code_type() == CodeType::kNone);
    ASSERT_TRUE(may) << "kValues for code type " << int(column.code_type());
  }
  if (range.kind == CodeRange::Kind::kCodes && column.code_type() == CodeType::kNone)
    FAIL() << "codes for a column without codes";
  for (uint32_t row = 0; row < values.size(); ++row) {
    if (!column.is_valid(row)) continue;
    const T& v = values[row];
    bool matches = true;
    if (low) {
      const int c = sql_compare(v, *low);
      matches = matches && (c > 0 || (c == 0 && low_inclusive));
    }
    if (high) {
      const int c = sql_compare(v, *high);
      matches = matches && (c < 0 || (c == 0 && high_inclusive));
    }
    switch (range.kind) {
      case CodeRange::Kind::kNone:
        ASSERT_FALSE(matches) << row;
        break;
      case CodeRange::Kind::kAll:
        ASSERT_TRUE(matches) << row;
        break;
      case CodeRange::Kind::kCodes:
        ASSERT_EQ(code_in_range(column, row, range), matches) << "row " << row;
        break;
      case CodeRange::Kind::kValues:
        break;
    }
    if (matches) {
      ASSERT_GE(row, rows.begin);
      ASSERT_LT(row, rows.end);
    }
  }
}

// A bound near the data: a value of the block, a neighbour of one, or a fresh random value.
template <typename T>
T random_bound(std::mt19937_64& rng, const std::vector<T>& values, Shape shape) {
  const T& some = values[rng() % values.size()];
  switch (rng() % 4) {
    case 0:
    case 1:
      return some;
    case 2:
      if constexpr (kIsIntegerLike<T> && !std::is_same_v<T, uint8_t>) {
        return static_cast<T>(some + (rng() % 2 ? 1 : -1));
      } else if constexpr (std::is_same_v<T, double>) {
        return std::nextafter(some, rng() % 2 ? 1e300 : -1e300);
      }
      return some;
    default:
      if constexpr (std::is_same_v<T, StringRef>) {
        return some;  // the test adds other strings itself
      } else {
        return random_value<T>(rng, shape);
      }
  }
}

TEST(DataBlockTest, TranslationMatchesBruteForce) {
  std::deque<std::string> string_bounds;  // keeps the bytes of string bounds in place
  for (Shape shape : {Shape::kConstant, Shape::kFew, Shape::kNarrow, Shape::kWide}) {
    for (bool sorted : {false, true}) {
      const uint64_t seed = 300 + int(shape) * 2 + sorted;
      TestChunk chunk = random_chunk(4000, shape, shape == Shape::kFew ? 0 : 13, seed);
      auto block = sorted ? chunk.freeze(2) : chunk.freeze();
      std::mt19937_64 rng(seed);
      for (size_t c = 0; c < block->column_count(); ++c) {
        SCOPED_TRACE(testing::Message()
                     << "shape " << int(shape) << " sorted " << sorted << " column " << c);
        visit_physical(chunk.columns()[c].type.physical(), [&](auto tag) {
          using T = decltype(tag);
          BlockColumn column = block->column(c);
          std::vector<T> values(block->tuple_count());
          column.unpack_range(0, block->tuple_count(), values.data());
          for (int query = 0; query < 60; ++query) {
            std::optional<T> low, high;
            if (query % 3 != 1) low = random_bound(rng, values, shape);
            if (query % 3 != 2) high = random_bound(rng, values, shape);
            if constexpr (std::is_same_v<T, StringRef>) {
              // Also bounds that are prefixes of values and strings not in the block.
              if (low && rng() % 2) {
                string_bounds.push_back(std::string(low->view().substr(0, rng() % 4)));
                low = StringRef::from(string_bounds.back());
              }
              if (high && rng() % 3 == 0) {
                string_bounds.push_back(random_string(rng, 20));
                high = StringRef::from(string_bounds.back());
              }
            }
            if (low && high && query % 2 && sql_compare(*high, *low) < 0) std::swap(low, high);
            check_restriction(column, values, low, rng() % 2 == 0, high, rng() % 2 == 0);
          }
          // Equality with each of some values of the block.
          for (int query = 0; query < 20; ++query) {
            const T value = values[rng() % values.size()];
            check_restriction<T>(column, values, value, true, value, true);
            if constexpr (!std::is_same_v<T, double> && !std::is_same_v<T, Interval>) {
              const CodeRange range = column.translate_equal(&value);
              if (range.kind == CodeRange::Kind::kCodes &&
                  column.code_type() <= CodeType::kUInt32) {
                EXPECT_EQ(range.lo.u, range.hi.u);
              }
            }
          }
        });
      }
    }
  }
}

TEST(DataBlockTest, TranslationOfDictionaryBounds) {
  // Dictionary 10 20 30 ... 90 (codes 0..8).
  auto block = one_column<int64_t>(SqlType::big_int(), 900, [](uint32_t row) {
                 return int64_t{(row % 9 + 1) * 10} * 1000000000;
               }).freeze();
  BlockColumn column = block->column(0);
  ASSERT_EQ(column.scheme(), Scheme::kDictionary);
  auto translate = [&](std::optional<int64_t> low, bool low_inclusive, std::optional<int64_t> high,
                       bool high_inclusive) {
    std::optional<int64_t> l = low ? std::optional(*low * 1000000000) : std::nullopt;
    std::optional<int64_t> h = high ? std::optional(*high * 1000000000) : std::nullopt;
    return column.translate(l ? std::optional(ValueBound{&*l, low_inclusive}) : std::nullopt,
                            h ? std::optional(ValueBound{&*h, high_inclusive}) : std::nullopt);
  };
  auto codes = [](const CodeRange& range) {
    return range.kind == CodeRange::Kind::kCodes ? std::pair(range.lo.u, range.hi.u)
                                                 : std::pair(~0u, ~0u);
  };
  EXPECT_EQ(codes(translate(20, true, 40, true)), std::pair(1u, 3u));
  EXPECT_EQ(codes(translate(20, false, 40, false)), std::pair(2u, 2u));
  EXPECT_EQ(codes(translate(15, true, 45, false)), std::pair(1u, 3u));
  EXPECT_EQ(codes(translate(std::nullopt, true, 35, true)), std::pair(0u, 2u));
  EXPECT_EQ(codes(translate(85, true, std::nullopt, true)), std::pair(8u, 8u));
  EXPECT_EQ(translate(21, true, 29, true).kind, CodeRange::Kind::kNone);  // between entries
  EXPECT_EQ(translate(95, true, std::nullopt, true).kind, CodeRange::Kind::kNone);
  EXPECT_EQ(translate(90, false, std::nullopt, true).kind, CodeRange::Kind::kNone);
  EXPECT_EQ(translate(10, true, 90, true).kind, CodeRange::Kind::kAll);
  EXPECT_EQ(translate(5, false, std::nullopt, true).kind, CodeRange::Kind::kAll);
  EXPECT_EQ(translate(std::nullopt, true, std::nullopt, true).kind, CodeRange::Kind::kAll);
  const int64_t thirty = 30000000000;
  EXPECT_EQ(codes(column.translate_equal(&thirty)), std::pair(2u, 2u));
  const int64_t thirty_one = 31000000000;
  EXPECT_EQ(column.translate_equal(&thirty_one).kind, CodeRange::Kind::kNone);
}

TEST(DataBlockTest, TranslationOfTruncatedAndRawBounds) {
  // Truncation: values 1000..1199, codes value - 1000.
  auto block = one_column<int32_t>(SqlType::integer(), 2000, [](uint32_t row) {
                 return 1000 + int32_t(row % 200);
               }).freeze();
  BlockColumn column = block->column(0);
  ASSERT_EQ(column.scheme(), Scheme::kTruncation);
  const int32_t low = 1010, high = 1500;
  CodeRange range = column.translate(ValueBound{&low, false}, ValueBound{&high, true});
  ASSERT_EQ(range.kind, CodeRange::Kind::kCodes);
  EXPECT_EQ(range.low<uint8_t>(), 11);
  EXPECT_EQ(range.high<uint8_t>(), 199);

  // Uncompressed BIGINT: the raw range, clamped to the SMA.
  std::mt19937_64 rng(5);
  block = one_column<int64_t>(SqlType::big_int(), 1u << 16, [&](uint32_t row) {
            return row == 0 ? int64_t{-100} : int64_t(rng() >> 1);
          }).freeze();
  column = block->column(0);
  ASSERT_EQ(column.scheme(), Scheme::kUncompressed);
  const int64_t from = -1000, to = 5;
  range = column.translate(ValueBound{&from, true}, ValueBound{&to, false});
  ASSERT_EQ(range.kind, CodeRange::Kind::kCodes);
  EXPECT_EQ(range.low<int64_t>(), -100);
  EXPECT_EQ(range.high<int64_t>(), 4);
}

TEST(DataBlockTest, PsmaNarrowsSortedBlocks) {
  // Dates of 7 years in random order. Sorted by date, 101 days near the minimum (deltas below
  // 256, one PSMA slot each) are about 101/2557 of the rows; unsorted, they are everywhere.
  constexpr uint32_t kRows = 1u << 16;
  std::mt19937_64 rng(8);
  TestChunk chunk = one_column<int32_t>(SqlType::date(), kRows,
                                        [&](uint32_t) { return 8000 + int32_t(rng() % 2557); });
  const int32_t low = 8100, high = 8200;
  for (bool sorted : {false, true}) {
    auto block = sorted ? chunk.freeze(0) : chunk.freeze();
    BlockColumn column = block->column(0);
    ASSERT_TRUE(column.has_psma());
    RowRange rows =
        column.psma_range(column.translate(ValueBound{&low, true}, ValueBound{&high, true}));
    if (sorted) {
      EXPECT_LT(rows.size(), kRows / 20);
    } else {
      EXPECT_GT(rows.size(), kRows * 9 / 10);
    }
  }
}

// ---- accounting -----------------------------------------------------------------------------

TEST(DataBlockTest, AccountsBytesAndSchemes) {
  TestChunk chunk({{"k", SqlType::big_int(), false},
                   {"s", SqlType::varchar(40), true},
                   {"c", SqlType::integer(), false}});
  chunk.append_rows(1000);
  size_t long_bytes = 0;
  for (uint32_t row = 0; row < 1000; ++row) {
    chunk.set<int64_t>(0, row, row);
    std::string s = row % 2 ? "short" : "a string longer than twelve " + std::to_string(row);
    if (s.size() > StringRef::kInlineLength) long_bytes += s.size();
    chunk.set_string(1, row, s);
    chunk.set<int32_t>(2, row, 5);
  }
  auto block = chunk.freeze();
  EXPECT_EQ(block->column(0).uncompressed_bytes(), 8000u);
  EXPECT_EQ(block->column(1).uncompressed_bytes(), 16000u + long_bytes + 16 * 8);
  EXPECT_EQ(block->column(2).uncompressed_bytes(), 4000u);
  EXPECT_EQ(block->uncompressed_bytes(), 12000u + 16000u + long_bytes + 128);
  size_t total = block_format::header_area_bytes(3) - 3 * sizeof(block_format::ColumnHeader);
  for (size_t c = 0; c < 3; ++c) total += block->column(c).compressed_bytes();
  EXPECT_EQ(total, block->byte_size());
  auto counts = block->scheme_counts();
  EXPECT_EQ(counts[size_t(Scheme::kSingleValue)], 1u);
  EXPECT_EQ(counts[size_t(Scheme::kDictionary)], 1u);
  EXPECT_EQ(counts[size_t(Scheme::kUncompressed)] + counts[size_t(Scheme::kTruncation)], 1u);
}

TEST(DataBlockTest, RejectsBadFreezeArguments) {
  TestChunk chunk = random_chunk(100, Shape::kFew, 0, 1);
  EXPECT_THROW(DataBlock::freeze(chunk.columns(), chunk.chunk(), 50, 50), Error);
  EXPECT_THROW(DataBlock::freeze(chunk.columns(), chunk.chunk(), 0, 101), Error);
  EXPECT_THROW(DataBlock::freeze(chunk.columns(), chunk.chunk(), 0, 100, 99), Error);
}

}  // namespace
}  // namespace floe
