// Binary-comparable key encodings: byte order equals SQL order, equal values give equal keys.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "storage/art_key.h"
#include "storage/decimal.h"
#include "storage/interval.h"
#include "storage/string_ref.h"
#include "storage/value.h"

namespace floe {
namespace {

template <typename T>
std::string key_of(const SqlType& type, T value) {
  std::string key;
  append_key_part(key, type, &value);
  return key;
}

std::string text_key(std::string_view text) {
  return key_of(SqlType::text(), StringRef::from(text));
}

// Each key is strictly smaller than the next.
void expect_increasing(const std::vector<std::string>& keys) {
  for (size_t i = 1; i < keys.size(); ++i) EXPECT_LT(keys[i - 1], keys[i]) << "at " << i;
}

TEST(ArtKeyTest, IntegersOrderAcrossTheSign) {
  expect_increasing(
      {key_of<int16_t>(SqlType::small_int(), -32768), key_of<int16_t>(SqlType::small_int(), -1),
       key_of<int16_t>(SqlType::small_int(), 0), key_of<int16_t>(SqlType::small_int(), 255),
       key_of<int16_t>(SqlType::small_int(), 256), key_of<int16_t>(SqlType::small_int(), 32767)});
  expect_increasing({key_of<int32_t>(SqlType::integer(), std::numeric_limits<int32_t>::min()),
                     key_of<int32_t>(SqlType::integer(), -65536),
                     key_of<int32_t>(SqlType::integer(), -1),
                     key_of<int32_t>(SqlType::integer(), 0), key_of<int32_t>(SqlType::integer(), 1),
                     key_of<int32_t>(SqlType::integer(), std::numeric_limits<int32_t>::max())});
  expect_increasing({key_of<int64_t>(SqlType::big_int(), std::numeric_limits<int64_t>::min()),
                     key_of<int64_t>(SqlType::big_int(), -1),
                     key_of<int64_t>(SqlType::big_int(), 0),
                     key_of<int64_t>(SqlType::big_int(), int64_t{1} << 40)});
  EXPECT_EQ(key_of<int32_t>(SqlType::integer(), 7).size(), 4u);
  EXPECT_EQ(key_of<int32_t>(SqlType::date(), -3), key_of<int32_t>(SqlType::integer(), -3));
}

TEST(ArtKeyTest, WideDecimals) {
  SqlType type = SqlType::decimal(38, 2);
  int128_t big = power_of_ten(30);
  expect_increasing({key_of<int128_t>(type, -big), key_of<int128_t>(type, -1),
                     key_of<int128_t>(type, 0), key_of<int128_t>(type, 1),
                     key_of<int128_t>(type, big)});
  EXPECT_EQ(key_of<int128_t>(type, 5).size(), 16u);
}

TEST(ArtKeyTest, DoublesInPostgresOrder) {
  const double inf = std::numeric_limits<double>::infinity();
  SqlType type = SqlType::double_type();
  expect_increasing({key_of(type, -inf), key_of(type, -1e300), key_of(type, -1.5),
                     key_of(type, -std::numeric_limits<double>::denorm_min()), key_of(type, 0.0),
                     key_of(type, std::numeric_limits<double>::denorm_min()), key_of(type, 2.0),
                     key_of(type, inf), key_of(type, std::nan(""))});
  EXPECT_EQ(key_of(type, -0.0), key_of(type, 0.0));
  EXPECT_EQ(key_of(type, -std::nan("")), key_of(type, std::nan("1")));
}

TEST(ArtKeyTest, StringsKeepPrefixesOrdered) {
  expect_increasing({text_key(""), text_key(std::string_view("\0", 1)), text_key("a"),
                     text_key(std::string_view("a\0", 2)), text_key(std::string_view("a\0b", 3)),
                     text_key("a\x01"), text_key("ab"), text_key("abc"), text_key("b"),
                     text_key("\xc3\xa9")});
  // Prefix-free: no key is a prefix of another, also with zero bytes inside.
  std::string a = text_key("ab"), b = text_key(std::string_view("ab\0", 3));
  EXPECT_NE(b.compare(0, a.size(), a), 0);
}

TEST(ArtKeyTest, CompositeKeysOrderByTheFirstPartFirst) {
  auto key = [](int32_t a, std::string_view b) {
    std::string k;
    append_key_part(k, SqlType::integer(), &a);
    StringRef ref = StringRef::from(b);
    append_key_part(k, SqlType::varchar(10), &ref);
    return k;
  };
  expect_increasing({key(-1, "zzz"), key(0, ""), key(0, "a"), key(0, "ab"), key(1, "")});
}

TEST(ArtKeyTest, BooleansAndIntervals) {
  expect_increasing(
      {key_of<uint8_t>(SqlType::boolean(), 0), key_of<uint8_t>(SqlType::boolean(), 1)});
  SqlType type = SqlType::interval();
  // PostgreSQL: interval '1 month' = interval '30 days', '1 day' = '24 hours'.
  EXPECT_EQ(key_of(type, Interval{1, 0, 0}), key_of(type, Interval{0, 30, 0}));
  EXPECT_EQ(key_of(type, Interval{0, 1, 0}), key_of(type, Interval{0, 0, 86400000000}));
  expect_increasing({key_of(type, Interval{-1, 0, 0}), key_of(type, Interval{0, 0, -1}),
                     key_of(type, Interval{0, 0, 0}), key_of(type, Interval{0, 29, 0}),
                     key_of(type, Interval{1, 0, 1})});
}

TEST(ArtKeyTest, ValuesEncodeLikeTheirPhysicalForm) {
  std::string from_value, from_physical;
  append_key_part(from_value, SqlType::text(), Value::string("hello world, a long one"));
  StringRef ref = StringRef::from("hello world, a long one");
  append_key_part(from_physical, SqlType::text(), &ref);
  EXPECT_EQ(from_value, from_physical);
  from_value.clear();
  append_key_part(from_value, SqlType::decimal(15, 2), Value::decimal(-1234, 15, 2));
  EXPECT_EQ(from_value, key_of<int64_t>(SqlType::decimal(15, 2), -1234));
}

}  // namespace
}  // namespace floe
