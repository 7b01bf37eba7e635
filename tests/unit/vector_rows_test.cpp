// Row scatter and gather between DataChunk columns and materialized rows
// (runtime/vector/row_scatter.h, row_gather.h): every physical type, NULL flags, strings,
// selection vectors, and a NULL meeting a NOT NULL field.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/vector/row_gather.h"
#include "runtime/vector/row_scatter.h"
#include "storage/string_heap.h"

namespace floe::vectorized {
namespace {

// Rows of 48 bytes: the value at offset 8 (aligned like a row layout's fields), the null
// flag at 40.
constexpr uint32_t kRowSize = 48;
constexpr RowFieldOffsets kNullable{8, 40};
constexpr RowFieldOffsets kNotNull{8, std::nullopt};

struct Rows {
  explicit Rows(uint32_t n) : bytes(n * kRowSize, 0xAB) {
    for (uint32_t i = 0; i < n; ++i) pointers.push_back(bytes.data() + i * kRowSize);
  }
  std::vector<uint8_t> bytes;
  std::vector<uint8_t*> pointers;
};

// A vector of `type` with `values` at positions 0..n (NULL Values clear validity).
Vector vector_of(const SqlType& type, const std::vector<Value>& values, StringHeap& heap) {
  Vector vector(type, static_cast<uint32_t>(values.size()));
  for (uint32_t p = 0; p < values.size(); ++p) vector.set(p, values[p], heap);
  return vector;
}

TEST(VectorRowsTest, EveryTypeRoundTripsThroughRowsWithNulls) {
  StringHeap heap;
  const std::vector<std::pair<SqlType, std::vector<Value>>> cases = {
      {SqlType::boolean(),
       {Value::boolean(true), Value::null(SqlType::boolean()), Value::boolean(false)}},
      {SqlType::small_int(),
       {Value::small_int(-7), Value::small_int(32767), Value::null(SqlType::small_int())}},
      {SqlType::integer(),
       {Value::null(SqlType::integer()), Value::integer(-2147483647 - 1), Value::integer(42)}},
      {SqlType::big_int(),
       {Value::big_int(INT64_MAX), Value::big_int(-1), Value::null(SqlType::big_int())}},
      {SqlType::decimal(30, 4),
       {Value::decimal(int128_t{1} << 90, 30, 4), Value::null(SqlType::decimal(30, 4)),
        Value::decimal(-5, 30, 4)}},
      {SqlType::double_type(),
       {Value::double_value(-0.5), Value::null(SqlType::double_type()),
        Value::double_value(1e300)}},
      {SqlType::date(), {Value::date(-3), Value::date(20000), Value::null(SqlType::date())}},
      {SqlType::interval(),
       {Value::interval({1, 2, 3}), Value::null(SqlType::interval()), Value::interval({-1, 0, 5})}},
      {SqlType::text(),
       {Value::string("short"), Value::null(SqlType::text()),
        Value::string("a string longer than twelve bytes")}},
  };
  for (const auto& [type, values] : cases) {
    Vector column = vector_of(type, values, heap);
    Rows rows(3);
    ASSERT_TRUE(scatter_column(column, nullptr, 3, rows.pointers.data(), kNullable));
    for (uint32_t i = 0; i < 3; ++i)
      EXPECT_EQ(rows.pointers[i][40], values[i].is_null() ? 1 : 0) << type.to_string();
    Vector back(type, 3);
    gather_column(rows.pointers.data(), 3, kNullable, back);
    for (uint32_t i = 0; i < 3; ++i) {
      EXPECT_EQ(back.is_valid(i), !values[i].is_null()) << type.to_string() << " row " << i;
      if (!values[i].is_null()) {
        EXPECT_EQ(back.get(i).to_string(), values[i].to_string()) << type.to_string();
      }
    }
  }
}

TEST(VectorRowsTest, NullIsStoredAsZero) {
  StringHeap heap;
  Vector column = vector_of(SqlType::big_int(), {Value::null(SqlType::big_int())}, heap);
  Rows rows(1);
  ASSERT_TRUE(scatter_column(column, nullptr, 1, rows.pointers.data(), kNullable));
  int64_t stored;
  std::memcpy(&stored, rows.pointers[0] + 8, sizeof stored);
  EXPECT_EQ(stored, 0);
}

TEST(VectorRowsTest, SelectionPicksTheRowsInOrder) {
  StringHeap heap;
  std::vector<Value> values;
  for (int32_t v = 0; v < 10; ++v) values.push_back(Value::integer(v * 10));
  Vector column = vector_of(SqlType::integer(), values, heap);
  const uint32_t sel[] = {1, 4, 9};
  Rows rows(3);
  ASSERT_TRUE(scatter_column(column, sel, 3, rows.pointers.data(), kNotNull));
  Vector back(SqlType::integer(), 3);
  gather_column(rows.pointers.data(), 3, kNotNull, back);
  EXPECT_TRUE(back.all_valid());
  EXPECT_EQ(back.values<int32_t>()[0], 10);
  EXPECT_EQ(back.values<int32_t>()[1], 40);
  EXPECT_EQ(back.values<int32_t>()[2], 90);
}

TEST(VectorRowsTest, NullIntoNotNullFieldFails) {
  StringHeap heap;
  Vector column =
      vector_of(SqlType::integer(), {Value::integer(1), Value::null(SqlType::integer())}, heap);
  Rows rows(2);
  EXPECT_FALSE(scatter_column(column, nullptr, 2, rows.pointers.data(), kNotNull));
}

TEST(VectorRowsTest, TakeGathersPositionsWithValidity) {
  StringHeap heap;
  Vector from = vector_of(SqlType::text(),
                          {Value::string("zero"), Value::null(SqlType::text()),
                           Value::string("two, which is out of line")},
                          heap);
  const uint32_t positions[] = {2, 2, 1, 0};
  Vector out(SqlType::text(), 4);
  take_values(from, positions, 4, out);
  EXPECT_EQ(out.get(0).to_string(), "two, which is out of line");
  EXPECT_EQ(out.get(1).to_string(), "two, which is out of line");
  EXPECT_FALSE(out.is_valid(2));
  EXPECT_EQ(out.get(3).to_string(), "zero");
}

}  // namespace
}  // namespace floe::vectorized
