// String functions over UTF-8 characters (storage/utf8.h), with PostgreSQL's results and
// errors (its varlena.c and oracle_compat.c). Results that are pieces of an argument point
// into it when they are long (a piece longer than 12 bytes comes from an argument whose bytes
// are out of line, which outlive the query); built strings go to the worker's string heap.
#include <locale.h>
#include <wctype.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <string>

#include "runtime/function_adapter.h"
#include "runtime/functions/function_families.h"
#include "runtime/functions/md5.h"
#include "storage/error.h"
#include "storage/utf8.h"

namespace floe {

namespace {

// ---- characters --------------------------------------------------------------------------

// Bytes of the UTF-8 character starting at text[at].
size_t char_bytes(std::string_view text, size_t at) {
  size_t end = at + 1;
  while (end < text.size() && is_utf8_continuation(text[end])) ++end;
  return end - at;
}

char32_t decode(std::string_view character) {
  auto byte = [&](size_t i) {
    return static_cast<char32_t>(static_cast<unsigned char>(character[i]));
  };
  switch (character.size()) {
    case 1:
      return byte(0);
    case 2:
      return ((byte(0) & 0x1F) << 6) | (byte(1) & 0x3F);
    case 3:
      return ((byte(0) & 0x0F) << 12) | ((byte(1) & 0x3F) << 6) | (byte(2) & 0x3F);
    default:
      return ((byte(0) & 0x07) << 18) | ((byte(1) & 0x3F) << 12) | ((byte(2) & 0x3F) << 6) |
             (byte(3) & 0x3F);
  }
}

void encode(char32_t c, std::string& out) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// Case mapping of the C.UTF-8 locale, which PostgreSQL uses for a UTF8 database with that
// ctype; ASCII takes a fast path.
locale_t utf8_locale() {
  static const locale_t locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", nullptr);
  return locale;
}

enum class Case { kUpper, kLower };

char32_t map_case(char32_t c, Case to) {
  if (c < 0x80) {
    if (to == Case::kUpper) return c >= 'a' && c <= 'z' ? c - 32 : c;
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
  }
  locale_t locale = utf8_locale();
  if (!locale) return c;
  auto wide = static_cast<wint_t>(c);
  return static_cast<char32_t>(to == Case::kUpper ? towupper_l(wide, locale)
                                                  : towlower_l(wide, locale));
}

bool is_alphanumeric(char32_t c) {
  if (c < 0x80) return std::isalnum(static_cast<int>(c)) != 0;
  locale_t locale = utf8_locale();
  return locale && iswalnum_l(static_cast<wint_t>(c), locale);
}

// `text` with each character mapped by `map(character, index of the character before)`.
template <typename Map>
StringRef map_characters(StringHeap& heap, std::string_view text, Map map) {
  std::string out;
  out.reserve(text.size());
  char32_t previous = 0;
  for (size_t at = 0; at < text.size();) {
    size_t bytes = char_bytes(text, at);
    char32_t c = decode(text.substr(at, bytes));
    encode(map(c, previous), out);
    previous = c;
    at += bytes;
  }
  return heap.store(out);
}

// A piece of an argument (see the file comment).
StringRef piece(std::string_view part) {
  return StringRef::from(part);
}

int64_t character_count(std::string_view text) {
  return static_cast<int64_t>(utf8_length(text));
}

// Bytes of the first `characters` characters (all when fewer; none for a negative count).
size_t prefix_bytes(std::string_view text, int64_t characters) {
  if (characters <= 0) return 0;
  return utf8_prefix_bytes(text, static_cast<size_t>(characters));
}

// PostgreSQL limits a value to 1 GB.
void check_result_length(size_t bytes) {
  if (bytes >= (size_t{1} << 30)) throw Error("requested length too large");
}

// ---- the functions -----------------------------------------------------------------------

// SUBSTRING(text FROM start [FOR length]): the characters at positions [start, start +
// length) of the 1-based string, so a start before 1 eats into the length.
StringRef substring_for(std::string_view text, int64_t start, int64_t length) {
  if (length < 0) throw Error("negative substring length not allowed");
  int64_t end;
  if (__builtin_add_overflow(start, length, &end)) end = std::numeric_limits<int64_t>::max();
  // A string has at most as many characters as bytes, so clamping to the byte count is safe.
  auto size = static_cast<int64_t>(text.size());
  auto first = static_cast<size_t>(std::clamp<int64_t>(start, 1, size + 1) - 1);
  auto last = static_cast<size_t>(std::clamp<int64_t>(end, 1, size + 1) - 1);
  if (last <= first) return StringRef();
  size_t from = utf8_prefix_bytes(text, first);
  return piece(text.substr(from, utf8_prefix_bytes(text.substr(from), last - first)));
}

StringRef substring_from(std::string_view text, int64_t start) {
  return substring_for(text, start, std::numeric_limits<int64_t>::max());
}

// a || b
StringRef concatenate(StringHeap& heap, std::string_view a, std::string_view b) {
  size_t length = a.size() + b.size();
  check_result_length(length);
  char inline_buffer[StringRef::kInlineLength];
  char* bytes = length <= StringRef::kInlineLength ? inline_buffer : heap.allocate(length);
  std::memcpy(bytes, a.data(), a.size());
  std::memcpy(bytes + a.size(), b.data(), b.size());
  return StringRef::from({bytes, length});
}

int64_t length(std::string_view text) {
  return character_count(text);
}

// upper / lower. ASCII text (the common case) maps byte by byte straight into the result,
// without decoding, encoding and an intermediate string; other text character by character.
StringRef map_text_case(StringHeap& heap, std::string_view text, Case to) {
  bool ascii = std::all_of(text.begin(), text.end(),
                           [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  if (!ascii)
    return map_characters(heap, text, [to](char32_t c, char32_t) { return map_case(c, to); });
  char inline_buffer[StringRef::kInlineLength];
  char* bytes =
      text.size() <= StringRef::kInlineLength ? inline_buffer : heap.allocate(text.size());
  for (size_t i = 0; i < text.size(); ++i)
    bytes[i] = static_cast<char>(map_case(static_cast<unsigned char>(text[i]), to));
  return StringRef::from({bytes, text.size()});
}

StringRef upper(StringHeap& heap, std::string_view text) {
  return map_text_case(heap, text, Case::kUpper);
}

StringRef lower(StringHeap& heap, std::string_view text) {
  return map_text_case(heap, text, Case::kLower);
}

// First letter of each word upper case, the rest lower case; words are runs of letters and
// digits.
StringRef initcap(StringHeap& heap, std::string_view text) {
  return map_characters(heap, text, [](char32_t c, char32_t previous) {
    bool word_start = previous == 0 || !is_alphanumeric(previous);
    return map_case(c, word_start ? Case::kUpper : Case::kLower);
  });
}

// 1-based character position of the first `needle` in `text`, 0 when there is none.
int64_t strpos(std::string_view text, std::string_view needle) {
  size_t found = text.find(needle);
  if (found == std::string_view::npos) return 0;
  return character_count(text.substr(0, found)) + 1;
}

StringRef replace(StringHeap& heap, std::string_view text, std::string_view from,
                  std::string_view to) {
  if (from.empty() || text.find(from) == std::string_view::npos) return heap.store(text);
  std::string out;
  size_t at = 0;
  for (size_t found; (found = text.find(from, at)) != std::string_view::npos;
       at = found + from.size()) {
    out.append(text.substr(at, found - at));
    out.append(to);
    check_result_length(out.size());
  }
  out.append(text.substr(at));
  return heap.store(out);
}

// Whether the character at text[at, at + bytes) is one of the characters of `set`.
bool in_set(std::string_view character, std::string_view set) {
  for (size_t at = 0; at < set.size();) {
    size_t bytes = char_bytes(set, at);
    if (set.substr(at, bytes) == character) return true;
    at += bytes;
  }
  return false;
}

size_t trim_front(std::string_view text, std::string_view set) {
  size_t at = 0;
  while (at < text.size()) {
    size_t bytes = char_bytes(text, at);
    if (!in_set(text.substr(at, bytes), set)) break;
    at += bytes;
  }
  return at;
}

size_t trim_back(std::string_view text, std::string_view set) {
  size_t end = text.size();
  while (end > 0) {
    size_t start = end - 1;
    while (start > 0 && is_utf8_continuation(text[start])) --start;
    if (!in_set(text.substr(start, end - start), set)) break;
    end = start;
  }
  return end;
}

StringRef btrim_set(std::string_view text, std::string_view set) {
  size_t begin = trim_front(text, set);
  size_t end = trim_back(text.substr(begin), set);
  return piece(text.substr(begin, end));
}
StringRef ltrim_set(std::string_view text, std::string_view set) {
  return piece(text.substr(trim_front(text, set)));
}
StringRef rtrim_set(std::string_view text, std::string_view set) {
  return piece(text.substr(0, trim_back(text, set)));
}
StringRef btrim(std::string_view text) {
  return btrim_set(text, " ");
}
StringRef ltrim(std::string_view text) {
  return ltrim_set(text, " ");
}
StringRef rtrim(std::string_view text) {
  return rtrim_set(text, " ");
}

// lpad/rpad: `text` filled with repetitions of `fill` to `length` characters, or cut to it.
StringRef pad(StringHeap& heap, std::string_view text, int64_t length, std::string_view fill,
              bool left) {
  if (length <= 0) return StringRef();
  int64_t have = character_count(text);
  if (have >= length || fill.empty()) return piece(text.substr(0, prefix_bytes(text, length)));
  int64_t missing = length - have;
  int64_t fill_characters = character_count(fill);
  std::string padding;
  for (int64_t whole = missing / fill_characters; whole > 0; --whole) {
    padding.append(fill);
    check_result_length(padding.size());
  }
  padding.append(fill.substr(0, prefix_bytes(fill, missing % fill_characters)));
  check_result_length(padding.size() + text.size());
  return heap.store(left ? padding.append(text) : std::string(text).append(padding));
}

StringRef lpad_with(StringHeap& heap, std::string_view text, int64_t length,
                    std::string_view fill) {
  return pad(heap, text, length, fill, true);
}
StringRef rpad_with(StringHeap& heap, std::string_view text, int64_t length,
                    std::string_view fill) {
  return pad(heap, text, length, fill, false);
}
StringRef lpad(StringHeap& heap, std::string_view text, int64_t length) {
  return pad(heap, text, length, " ", true);
}
StringRef rpad(StringHeap& heap, std::string_view text, int64_t length) {
  return pad(heap, text, length, " ", false);
}

// The field-th field of text split at `delimiter` (negative: counted from the end).
StringRef split_part(std::string_view text, std::string_view delimiter, int64_t field) {
  if (field == 0) throw Error("field position must not be zero");
  std::vector<std::string_view> fields;
  if (delimiter.empty()) {
    fields.push_back(text);
  } else {
    size_t at = 0;
    for (size_t found; (found = text.find(delimiter, at)) != std::string_view::npos;
         at = found + delimiter.size())
      fields.push_back(text.substr(at, found - at));
    fields.push_back(text.substr(at));
  }
  if (text.empty()) return StringRef();
  auto count = static_cast<int64_t>(fields.size());
  int64_t index = field > 0 ? field - 1 : count + field;
  if (index < 0 || index >= count) return StringRef();
  return piece(fields[static_cast<size_t>(index)]);
}

// left: the first n characters; for a negative n all but the last |n|.
StringRef left(std::string_view text, int64_t n) {
  if (n < 0) n = std::max<int64_t>(character_count(text) + n, 0);
  return piece(text.substr(0, prefix_bytes(text, n)));
}

// right: the last n characters; for a negative n all but the first |n|.
StringRef right(std::string_view text, int64_t n) {
  int64_t count = character_count(text);
  int64_t skip = n < 0 ? std::min(-n, count) : std::max<int64_t>(count - n, 0);
  return piece(text.substr(prefix_bytes(text, skip)));
}

StringRef reverse(StringHeap& heap, std::string_view text) {
  std::string out(text.size(), '\0');
  for (size_t at = 0; at < text.size();) {
    size_t bytes = char_bytes(text, at);
    text.copy(out.data() + (text.size() - at - bytes), bytes, at);
    at += bytes;
  }
  return heap.store(out);
}

StringRef repeat(StringHeap& heap, std::string_view text, int64_t count) {
  if (count <= 0 || text.empty()) return StringRef();
  if (static_cast<uint64_t>(count) > (uint64_t{1} << 30) / text.size())
    throw Error("requested length too large");
  std::string out;
  out.reserve(text.size() * static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) out.append(text);
  return heap.store(out);
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.starts_with(prefix);
}

StringRef md5(StringHeap& heap, std::string_view text) {
  return heap.store(md5_hex(text));
}

}  // namespace

void register_string_functions(FunctionRegistry& r) {
  constexpr TypeId kText = TypeId::kText;
  constexpr TypeId kInteger = TypeId::kInteger;
  ResultTypeRule text = returns(SqlType::text());
  ResultTypeRule integer = returns(SqlType::integer());
  for (const char* name : {"substring", "substr"}) {
    r.add(name, {kText, kInteger}, text, typed_function<substring_from>);
    r.add(name, {kText, kInteger, kInteger}, text, typed_function<substring_for>);
  }
  r.add("||", {kText, kText}, text, typed_function<concatenate>);
  r.add("length", {kText}, integer, typed_function<length>);
  r.add("upper", {kText}, text, typed_function<upper>);
  r.add("lower", {kText}, text, typed_function<lower>);
  r.add("initcap", {kText}, text, typed_function<initcap>);
  r.add("strpos", {kText, kText}, integer, typed_function<strpos>);
  r.add("replace", {kText, kText, kText}, text, typed_function<replace>);
  r.add("btrim", {kText}, text, typed_function<btrim>);
  r.add("btrim", {kText, kText}, text, typed_function<btrim_set>);
  r.add("ltrim", {kText}, text, typed_function<ltrim>);
  r.add("ltrim", {kText, kText}, text, typed_function<ltrim_set>);
  r.add("rtrim", {kText}, text, typed_function<rtrim>);
  r.add("rtrim", {kText, kText}, text, typed_function<rtrim_set>);
  r.add("lpad", {kText, kInteger}, text, typed_function<lpad>);
  r.add("lpad", {kText, kInteger, kText}, text, typed_function<lpad_with>);
  r.add("rpad", {kText, kInteger}, text, typed_function<rpad>);
  r.add("rpad", {kText, kInteger, kText}, text, typed_function<rpad_with>);
  r.add("split_part", {kText, kText, kInteger}, text, typed_function<split_part>);
  r.add("left", {kText, kInteger}, text, typed_function<left>);
  r.add("right", {kText, kInteger}, text, typed_function<right>);
  r.add("reverse", {kText}, text, typed_function<reverse>);
  r.add("repeat", {kText, kInteger}, text, typed_function<repeat>);
  r.add("starts_with", {kText, kText}, returns(SqlType::boolean()), typed_function<starts_with>);
  r.add("md5", {kText}, text, typed_function<md5>);
  r.alias("char_length", "length");
  r.alias("character_length", "length");
  r.alias("position", "strpos");
}

}  // namespace floe
