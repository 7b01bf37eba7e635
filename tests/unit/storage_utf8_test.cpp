#include "storage/utf8.h"

#include <gtest/gtest.h>

#include <string>

#include "storage/error.h"

namespace floe {
namespace {

// The message check_utf8 throws, or "" when the text is valid.
std::string check_message(std::string_view text) {
  try {
    check_utf8(text);
    return "";
  } catch (const Error& error) {
    return error.what();
  }
}

TEST(Utf8Test, LengthCountsCharacters) {
  EXPECT_EQ(utf8_length(""), 0u);
  EXPECT_EQ(utf8_length("hello"), 5u);
  EXPECT_EQ(utf8_length("h\u00e9llo"), 5u);                         // 2-byte é
  EXPECT_EQ(utf8_length("\u20ac\u20ac"), 2u);                       // 3-byte €
  EXPECT_EQ(utf8_length("\U0001F600!"), 2u);                        // 4-byte 😀
  EXPECT_EQ(utf8_length("abcdefgh\u00e9ijklmnop\U0001F600"), 18u);  // word-at-a-time part
  std::string long_text;
  for (int i = 0; i < 100; ++i) long_text += "a\u00e9\u20ac\U0001F600";
  EXPECT_EQ(utf8_length(long_text), 400u);
}

TEST(Utf8Test, PrefixBytesOfCharacters) {
  EXPECT_EQ(utf8_prefix_bytes("hello", 0), 0u);
  EXPECT_EQ(utf8_prefix_bytes("hello", 3), 3u);
  EXPECT_EQ(utf8_prefix_bytes("hello", 9), 5u);
  EXPECT_EQ(utf8_prefix_bytes("h\u00e9llo", 2), 3u);
  EXPECT_EQ(utf8_prefix_bytes("\u20ac\U0001F600x", 2), 7u);
  EXPECT_EQ(utf8_prefix_bytes("\u20ac\U0001F600x", 3), 8u);
  EXPECT_EQ(utf8_prefix_bytes("\u20ac\U0001F600x", 4), 8u);
  // After 8 ASCII bytes at a time, the walk continues character by character.
  EXPECT_EQ(utf8_prefix_bytes("0123456789\u00e9\u00e9\u00e9", 12), 14u);
  EXPECT_EQ(utf8_prefix_bytes("01234567\u00e9\u00e9", 9), 10u);
  EXPECT_EQ(utf8_prefix_bytes("0123456789abcdefgh", 16), 16u);
}

TEST(Utf8Test, ValidTextPasses) {
  EXPECT_EQ(find_invalid_utf8(""), std::string_view::npos);
  EXPECT_EQ(find_invalid_utf8("plain ASCII text, longer than eight bytes"), std::string_view::npos);
  EXPECT_EQ(find_invalid_utf8("\u00e9\u07ff\u0800\ud7ff\ue000\uffff\U00010000\U0010FFFF"),
            std::string_view::npos);
}

TEST(Utf8Test, InvalidSequencesAreFound) {
  EXPECT_EQ(find_invalid_utf8("h\xe9llo"), 1u);
  EXPECT_EQ(find_invalid_utf8("abcdefghij\xff"), 10u);
  EXPECT_EQ(find_invalid_utf8(std::string_view("abcdefgh\0ijk", 12)), 8u);  // NUL
  EXPECT_EQ(find_invalid_utf8("\xc0\xaf"), 0u);                             // overlong '/'
  EXPECT_EQ(find_invalid_utf8("\xe0\x80\xaf"), 0u);                         // overlong
  EXPECT_EQ(find_invalid_utf8("\xf0\x80\x80\xaf"), 0u);                     // overlong
  EXPECT_EQ(find_invalid_utf8("x\xed\xa0\x80"), 1u);                        // surrogate
  EXPECT_EQ(find_invalid_utf8("\xf4\x90\x80\x80"), 0u);                     // > U+10FFFF
  EXPECT_EQ(find_invalid_utf8("\xf5\x80\x80\x80"), 0u);
  EXPECT_EQ(find_invalid_utf8("\xe2\x82"), 0u);  // cut short
  EXPECT_EQ(find_invalid_utf8("\x80"), 0u);      // lone continuation
}

TEST(Utf8Test, ErrorNamesTheSequenceLikePostgres) {
  EXPECT_EQ(check_message("h\u00e9llo"), "");
  EXPECT_EQ(check_message("h\xe9llo"),
            "invalid byte sequence for encoding \"UTF8\": 0xe9 0x6c 0x6c");
  EXPECT_EQ(check_message("\xc3"), "invalid byte sequence for encoding \"UTF8\": 0xc3");
  EXPECT_EQ(check_message(std::string_view("a\0", 2)),
            "invalid byte sequence for encoding \"UTF8\": 0x00");
  EXPECT_EQ(check_message("\xed\xa0\x80"),
            "invalid byte sequence for encoding \"UTF8\": 0xed 0xa0 0x80");
  EXPECT_EQ(check_message("\xf0\x9f\x98\n"),
            "invalid byte sequence for encoding \"UTF8\": 0xf0 0x9f 0x98 0x0a");
  EXPECT_EQ(check_message("\xff"), "invalid byte sequence for encoding \"UTF8\": 0xff");
}

}  // namespace
}  // namespace floe
