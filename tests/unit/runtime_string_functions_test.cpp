#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <set>
#include <string>

#include "runtime/function_registry.h"
#include "runtime/query_context.h"
#include "runtime/runtime_abi.h"
#include "runtime_test_strings.h"

namespace floe {
namespace {

using testing::halves;
using testing::text_of;

bool equal(std::string_view a, std::string_view b) {
  auto x = halves(a), y = halves(b);
  return floe_rt_string_equal(x.lo, x.hi, y.lo, y.hi);
}

int32_t compare(std::string_view a, std::string_view b) {
  auto x = halves(a), y = halves(b);
  return floe_rt_string_compare(x.lo, x.hi, y.lo, y.hi);
}

uint64_t hash(std::string_view text, uint64_t seed = 0) {
  auto h = halves(text);
  return floe_rt_hash_string(h.lo, h.hi, seed);
}

TEST(RuntimeStringTest, EqualityAndOrderAreBytewise) {
  std::string long_a = "a long string of more than twelve bytes";
  std::string long_b = "a long string of more than twelve bytez";
  std::string long_a_copy = long_a;
  EXPECT_TRUE(equal("", ""));
  EXPECT_TRUE(equal("abc", "abc"));
  EXPECT_FALSE(equal("abc", "abd"));
  EXPECT_FALSE(equal("abc", "abcd"));
  EXPECT_TRUE(equal(long_a, long_a_copy));
  EXPECT_FALSE(equal(long_a, long_b));
  EXPECT_EQ(compare("abc", "abc"), 0);
  EXPECT_EQ(compare("abc", "abd"), -1);
  EXPECT_EQ(compare("abd", "abc"), 1);
  EXPECT_EQ(compare("ab", "abc"), -1);
  EXPECT_EQ(compare("", "a"), -1);
  EXPECT_EQ(compare(long_a, long_b), -1);
  EXPECT_EQ(compare(long_b, long_a), 1);
  EXPECT_EQ(compare(long_a, long_a_copy), 0);
  EXPECT_EQ(compare("\xFF", "a"), 1);  // unsigned bytes
}

TEST(RuntimeStringTest, HashDependsOnBytesOnly) {
  std::string long_a = "a long string of more than twelve bytes";
  std::string long_a_copy = long_a;
  EXPECT_EQ(hash(long_a), hash(long_a_copy));
  EXPECT_NE(hash(long_a, 1), hash(long_a, 2));
  EXPECT_NE(hash(""), hash(std::string_view("\0", 1)));
  std::set<uint64_t> seen;
  for (int i = 0; i < 100000; ++i) seen.insert(hash("Customer#" + std::to_string(i)));
  EXPECT_EQ(seen.size(), 100000u);
}

TEST(RuntimeStringTest, ShortStringHashIgnoresBytesPastTheEnd) {
  for (size_t length = 0; length <= StringRef::kInlineLength; ++length) {
    std::string text = std::string("abcdefghijkl").substr(0, length);
    auto clean = halves(text);
    // The same string with garbage in the unused inline bytes of its reference.
    StringRef dirty = StringRef::from(text);
    std::memset(dirty.inline_bytes() + length, 0x5A, StringRef::kInlineLength - length);
    auto words = std::bit_cast<std::array<uint64_t, 2>>(dirty);
    EXPECT_EQ(floe_rt_hash_string(words[0], words[1], 7),
              floe_rt_hash_string(clean.lo, clean.hi, 7))
        << length;
    if (length > 0) {
      EXPECT_NE(hash(text), hash(text.substr(0, length - 1))) << length;
    }
  }
  std::set<uint64_t> seen;
  for (int i = 0; i < 100000; ++i) seen.insert(hash(std::to_string(i)));
  EXPECT_EQ(seen.size(), 100000u);
}

// The registry's substring and || thunks, called as generated code calls them.
class RuntimeStringFunctionTest : public ::testing::Test {
 protected:
  // Runs `name`(parameters) on `arguments` in this test's worker; false when it failed.
  bool call(const char* name, std::vector<TypeId> parameters, const std::vector<Value>& arguments,
            std::string* out) {
    const FunctionOverload* function = nullptr;
    for (const FunctionOverload& overload : function_registry().overloads(name))
      if (overload.parameters == parameters) function = &overload;
    EXPECT_NE(function, nullptr) << name;
    std::vector<FunctionSlot> slots(arguments.size());
    for (size_t i = 0; i < arguments.size(); ++i) write_function_slot(arguments[i], slots[i]);
    FunctionSlot result;
    if (!function->thunk(worker(), slots.data(), &result)) return false;
    StringRef ref;
    std::memcpy(&ref, result.bytes, sizeof ref);
    *out = std::string(ref.view());
    return true;
  }

  // SUBSTRING(text FROM start [FOR length]); nullopt length = to the end.
  std::string substring(std::string_view text, int64_t start, std::optional<int64_t> length) {
    std::vector<Value> arguments = {Value::string(std::string(text)), Value::big_int(start)};
    std::vector<TypeId> parameters = {TypeId::kText, TypeId::kInteger};
    if (length) {
      arguments.push_back(Value::big_int(*length));
      parameters.push_back(TypeId::kInteger);
    }
    std::string out;
    EXPECT_TRUE(call("substring", parameters, arguments, &out));
    return out;
  }

  std::string concat(std::string_view a, std::string_view b) {
    std::string out;
    EXPECT_TRUE(call("||", {TypeId::kText, TypeId::kText},
                     {Value::string(std::string(a)), Value::string(std::string(b))}, &out));
    return out;
  }

  WorkerContext* worker() { return &query_.worker(0); }

  QueryContext query_{1};
};

TEST_F(RuntimeStringFunctionTest, SubstringFollowsPostgres) {
  EXPECT_EQ(substring("hello", 2, 3), "ell");
  EXPECT_EQ(substring("hello", 1, 5), "hello");
  EXPECT_EQ(substring("hello", 1, 50), "hello");
  EXPECT_EQ(substring("hello", 0, 3), "he");  // start < 1 shortens the length
  EXPECT_EQ(substring("hello", -2, 3), "");
  EXPECT_EQ(substring("hello", -2, 5), "he");
  EXPECT_EQ(substring("hello", 3, std::nullopt), "llo");
  EXPECT_EQ(substring("hello", -7, std::nullopt), "hello");
  EXPECT_EQ(substring("hello", 6, std::nullopt), "");
  EXPECT_EQ(substring("hello", 9, 2), "");
  EXPECT_EQ(substring("hello", 2, 0), "");
  EXPECT_EQ(substring("", 1, 1), "");
  EXPECT_EQ(substring("hello", 2, std::numeric_limits<int64_t>::max()), "ello");
  EXPECT_EQ(substring("hello", std::numeric_limits<int64_t>::min(), 3), "");
}

TEST_F(RuntimeStringFunctionTest, SubstringCountsUtf8Characters) {
  // é is 2 bytes, € 3, 😀 4.
  EXPECT_EQ(substring("h\u00e9llo", 1, 2), "h\u00e9");
  EXPECT_EQ(substring("h\u00e9llo", 2, 1), "\u00e9");
  EXPECT_EQ(substring("h\u00e9llo", 3, std::nullopt), "llo");
  EXPECT_EQ(substring("\u20ac\U0001F600\u00e9x", 2, 2), "\U0001F600\u00e9");
  EXPECT_EQ(substring("\u20ac\U0001F600\u00e9x", 0, 2), "\u20ac");
  EXPECT_EQ(substring("\u20ac\U0001F600\u00e9x", 4, 10), "x");
  EXPECT_EQ(substring("\u20ac\U0001F600\u00e9x", 5, 10), "");
  // Long strings: the ASCII fast path skips 8 bytes at a time up to the first multi-byte one.
  std::string text = "0123456789abcdef\u00e9\u20acxyz";
  EXPECT_EQ(substring(text, 16, 3), "f\u00e9\u20ac");
  EXPECT_EQ(substring(text, 18, std::nullopt), "\u20acxyz");
  EXPECT_EQ(substring(text, 9, 10), "89abcdef\u00e9\u20ac");
}

TEST_F(RuntimeStringFunctionTest, LongSubstringsShareTheSourceBytes) {
  std::string text = "0123456789abcdefghijklmnopqrstuvwxyz";
  EXPECT_EQ(substring(text, 3, 20), "23456789abcdefghijkl");
  EXPECT_EQ(substring(text, 30, std::nullopt), "tuvwxyz");
  EXPECT_EQ(query_.string_heaps()->at(0)->bytes_allocated(), 0u);
}

TEST_F(RuntimeStringFunctionTest, NegativeSubstringLengthFails) {
  std::string out;
  EXPECT_FALSE(call("substring", {TypeId::kText, TypeId::kInteger, TypeId::kInteger},
                    {Value::string("hello"), Value::integer(1), Value::integer(-1)}, &out));
  EXPECT_TRUE(query_.failed());
  EXPECT_EQ(query_.error_message(), "negative substring length not allowed");
}

TEST_F(RuntimeStringFunctionTest, Concatenation) {
  EXPECT_EQ(concat("", ""), "");
  EXPECT_EQ(concat("ab", "cd"), "abcd");
  EXPECT_EQ(concat("hello ", "world!"), "hello world!");  // exactly 12: inline
  EXPECT_EQ(query_.string_heaps()->at(0)->bytes_allocated(), 0u);
  std::string long_text = "a string longer than twelve";
  EXPECT_EQ(concat(long_text, "!"), long_text + "!");
  EXPECT_EQ(concat("x", long_text), "x" + long_text);
  EXPECT_EQ(concat("hello ", "world!?"), "hello world!?");
  EXPECT_GT(query_.string_heaps()->at(0)->bytes_allocated(), 0u);
}

TEST_F(RuntimeStringFunctionTest, FailRecordsTheFirstMessage) {
  floe_rt_fail(worker(), "division by zero");
  floe_rt_fail(worker(), "integer out of range");
  EXPECT_TRUE(query_.failed());
  EXPECT_EQ(query_.error_message(), "division by zero");
}

}  // namespace
}  // namespace floe
