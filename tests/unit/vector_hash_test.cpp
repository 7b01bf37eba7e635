// Vectorized key hashing (runtime/vector/key_hash.h) against generated code: the hash of
// every key type, computed by ExpressionCompiler::hash in a JIT-compiled function, must be
// the primitive's bit for bit (both engines' morsels share one hash table).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "runtime/hash.h"
#include "runtime/vector/key_hash.h"
#include "tests/unit/codegen_expression_harness.h"

namespace floe::vectorized {
namespace {

// Keys of every physical type, with the values that need care: -0.0 and NaN, intervals
// that are equal by span, strings at the inline boundary (12 bytes) and long ones.
std::vector<Value> sample_keys() {
  std::vector<Value> keys = {
      Value::boolean(false),
      Value::boolean(true),
      Value::small_int(-7),
      Value::small_int(32767),
      Value::integer(-1),
      Value::integer(123456),
      Value::big_int(std::numeric_limits<int64_t>::min()),
      Value::big_int(42),
      Value::decimal(-12345, 10, 2),
      Value::decimal(int128_t{1} << 100, 38, 6),
      Value::decimal(-(int128_t{1} << 90), 38, 0),
      Value::double_value(0.0),
      Value::double_value(-0.0),
      Value::double_value(1.5),
      Value::double_value(std::numeric_limits<double>::quiet_NaN()),
      Value::double_value(-std::numeric_limits<double>::quiet_NaN()),
      Value::double_value(std::numeric_limits<double>::infinity()),
      Value::date(10957),
      Value::timestamp(-5),
      Value::interval({1, 0, 0}),
      Value::interval({0, 30, 0}),
      Value::interval({-2, 3, 400}),
  };
  for (size_t length : {0, 1, 3, 4, 5, 8, 11, 12, 13, 16, 40}) {
    std::string text;
    for (size_t i = 0; i < length; ++i) text += static_cast<char>('a' + i % 26);
    keys.push_back(Value::string(text));
  }
  return keys;
}

// One column of `keys` (each of its own type) as a vector: key i at position i.
Vector vector_of(const Value& key, uint32_t extent, StringHeap& heap) {
  Vector vector(key.type(), extent);
  for (uint32_t p = 0; p < extent; ++p) vector.set(p, key, heap);
  return vector;
}

TEST(VectorHashTest, EveryKeyTypeHashesAsGeneratedCode) {
  StringHeap heap;
  for (const Value& key : sample_keys()) {
    uint64_t compiled = codegen::testing::key_functions(key, key).hash_a;  // seed 42
    Vector column = vector_of(key, 3, heap);
    std::vector<uint64_t> hashes(3, 42);
    hash_key_column(column, nullptr, 3, hashes.data(), false);
    for (uint64_t hash : hashes) EXPECT_EQ(hash, compiled) << key.to_string();
    // The first key column starts the chain at 0.
    std::vector<uint64_t> first(3, 7), from_zero(3, 0);
    hash_key_column(column, nullptr, 3, first.data(), true);
    hash_key_column(column, nullptr, 3, from_zero.data(), false);
    EXPECT_EQ(first, from_zero) << key.to_string();
  }
}

TEST(VectorHashTest, SqlEqualValuesHashAlike) {
  auto hash_of = [](const Value& key) {
    StringHeap heap;
    Vector column = vector_of(key, 1, heap);
    uint64_t hash = 0;
    hash_key_column(column, nullptr, 1, &hash, true);
    return hash;
  };
  EXPECT_EQ(hash_of(Value::double_value(0.0)), hash_of(Value::double_value(-0.0)));
  EXPECT_EQ(hash_of(Value::double_value(std::nan("1"))),
            hash_of(Value::double_value(-std::numeric_limits<double>::quiet_NaN())));
  EXPECT_EQ(hash_of(Value::interval({1, 0, 0})), hash_of(Value::interval({0, 30, 0})));
  EXPECT_NE(hash_of(Value::integer(1)), hash_of(Value::integer(2)));
}

TEST(VectorHashTest, ChainsColumnsAndHashesNullsOnlyOnSelectedRows) {
  StringHeap heap;
  const uint32_t extent = 200;
  Vector ints(SqlType::integer(), extent);
  Vector texts(SqlType::text(), extent);
  for (uint32_t p = 0; p < extent; ++p) {
    ints.set(p, p % 7 == 0 ? Value::null(SqlType::integer()) : Value::integer(int32_t(p)), heap);
    texts.set(p,
              p % 5 == 0 ? Value::null(SqlType::text())
                         : Value::string("key number " + std::to_string(p) + " is long"),
              heap);
  }
  std::vector<uint32_t> sel;
  for (uint32_t p = 1; p < extent; p += 3) sel.push_back(p);
  const uint64_t kUntouched = 0xABCDEF;
  std::vector<uint64_t> hashes(extent, kUntouched);
  auto n = static_cast<uint32_t>(sel.size());
  hash_key_column(ints, sel.data(), n, hashes.data(), true);
  hash_key_column(texts, sel.data(), n, hashes.data(), false);
  for (uint32_t p = 0; p < extent; ++p) {
    if (p % 3 != 1) {
      EXPECT_EQ(hashes[p], kUntouched) << p;
      continue;
    }
    // As codegen/key_codegen.cpp's hash_keys: each column chained onto the previous ones,
    // a NULL flipping the chain.
    uint64_t expected = p % 7 == 0 ? hash_null_key(0) : hash_word(p, 0);
    expected =
        p % 5 == 0 ? hash_null_key(expected) : hash_string(texts.values<StringRef>()[p], expected);
    EXPECT_EQ(hashes[p], expected) << p;
  }
}

}  // namespace
}  // namespace floe::vectorized
