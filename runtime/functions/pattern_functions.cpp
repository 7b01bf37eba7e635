// Regular expressions through RE2 (DESIGN.md "runtime/"): the operators ~ ~* !~ !~*,
// regexp_replace and substring(text FROM pattern). RE2 takes PostgreSQL's everyday syntax
// (classes, quantifiers, groups, anchors, \d \s \w); back references inside a pattern, which
// RE2 cannot match in linear time, are an "invalid regular expression" error.
#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>

#include "runtime/function_adapter.h"
#include "runtime/functions/function_families.h"
#include "runtime/functions/regex.h"
#include "storage/error.h"

namespace floe {

namespace {

// PostgreSQL's message for the common mistakes, RE2's for the rest.
std::string error_text(const RE2& regex) {
  switch (regex.error_code()) {
    case RE2::ErrorMissingParen:
    case RE2::ErrorUnexpectedParen:
      return "parentheses () not balanced";
    case RE2::ErrorMissingBracket:
      return "brackets [] not balanced";
    case RE2::ErrorBadCharRange:
      return "invalid character range";
    case RE2::ErrorRepeatArgument:
    case RE2::ErrorRepeatOp:
      return "quantifier operand invalid";
    case RE2::ErrorRepeatSize:
      return "invalid repetition count(s)";
    case RE2::ErrorBadEscape:
    case RE2::ErrorTrailingBackslash:
      return "invalid escape \\ sequence";
    default:
      return regex.error();
  }
}

re2::StringPiece as_piece(std::string_view text) {
  return {text.data(), text.size()};
}

bool matches(std::string_view text, std::string_view pattern) {
  return RE2::PartialMatch(as_piece(text), compiled_regex(pattern, false));
}
bool matches_insensitive(std::string_view text, std::string_view pattern) {
  return RE2::PartialMatch(as_piece(text), compiled_regex(pattern, true));
}
bool not_matches(std::string_view text, std::string_view pattern) {
  return !matches(text, pattern);
}
bool not_matches_insensitive(std::string_view text, std::string_view pattern) {
  return !matches_insensitive(text, pattern);
}

// PostgreSQL's replacement text (\1..\9 groups, \& the match, \\ a backslash) in RE2's
// rewrite syntax (\0..\9, \\).
std::string rewrite_of(std::string_view replacement) {
  std::string rewrite;
  for (size_t i = 0; i < replacement.size(); ++i) {
    char c = replacement[i];
    if (c != '\\' || i + 1 == replacement.size()) {
      rewrite += c == '\\' ? "\\\\" : std::string(1, c);
      continue;
    }
    char next = replacement[++i];
    if (next >= '1' && next <= '9') {
      rewrite += '\\';
      rewrite += next;
    } else if (next == '&') {
      rewrite += "\\0";
    } else if (next == '\\') {
      rewrite += "\\\\";
    } else {  // not an escape: both characters stay
      rewrite += "\\\\";
      rewrite += next;
    }
  }
  return rewrite;
}

StringRef replace_with_flags(StringHeap& heap, std::string_view text, std::string_view pattern,
                             std::string_view replacement, std::string_view flags) {
  const RegexFlags parsed = parse_regex_flags(flags);
  const RE2& regex = compiled_regex(pattern, parsed.case_insensitive);
  std::string rewrite = rewrite_of(replacement);
  std::string error;
  if (!regex.CheckRewriteString(rewrite, &error))
    throw Error("invalid regular expression: " + error);
  std::string out(text);
  if (parsed.global)
    RE2::GlobalReplace(&out, regex, rewrite);
  else
    RE2::Replace(&out, regex, rewrite);
  return heap.store(out);
}

StringRef regexp_replace(StringHeap& heap, std::string_view text, std::string_view pattern,
                         std::string_view replacement) {
  return replace_with_flags(heap, text, pattern, replacement, "");
}

// substring(text FROM pattern): the part matching the first parenthesized group when the
// pattern has one, else the whole match; NULL when nothing matches.
std::optional<StringRef> regexp_substring(std::string_view text, std::string_view pattern) {
  const RE2& regex = compiled_regex(pattern, false);
  int groups = std::min(regex.NumberOfCapturingGroups(), 1);
  re2::StringPiece found[2];
  if (!regex.Match(as_piece(text), 0, text.size(), RE2::UNANCHORED, found, groups + 1))
    return std::nullopt;
  const re2::StringPiece& part = found[groups];
  if (part.data() == nullptr) return std::nullopt;     // the group took no part in the match
  return StringRef::from({part.data(), part.size()});  // a piece of the argument
}

}  // namespace

// Patterns are nearly always constants: each thread keeps the few it used last compiled.
const RE2& compiled_regex(std::string_view pattern, bool case_insensitive) {
  struct Entry {
    std::string pattern;
    bool case_insensitive = false;
    std::unique_ptr<RE2> regex;
  };
  constexpr size_t kEntries = 8;
  thread_local std::array<Entry, kEntries> cache;
  thread_local size_t next = 0;
  for (Entry& entry : cache)
    if (entry.regex && entry.case_insensitive == case_insensitive && entry.pattern == pattern)
      return *entry.regex;
  RE2::Options options;
  options.set_encoding(RE2::Options::EncodingUTF8);
  options.set_case_sensitive(!case_insensitive);
  options.set_log_errors(false);
  auto regex = std::make_unique<RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!regex->ok()) throw Error("invalid regular expression: " + error_text(*regex));
  Entry& entry = cache[next];
  next = (next + 1) % kEntries;
  entry = Entry{std::string(pattern), case_insensitive, std::move(regex)};
  return *entry.regex;
}

RegexFlags parse_regex_flags(std::string_view flags) {
  RegexFlags parsed;
  for (char flag : flags) {
    if (flag == 'g')
      parsed.global = true;
    else if (flag == 'i')
      parsed.case_insensitive = true;
    else if (flag != 'c')
      throw Error("invalid regular expression option: \"" + std::string(1, flag) + "\"");
  }
  return parsed;
}

void register_pattern_functions(FunctionRegistry& r) {
  constexpr TypeId kText = TypeId::kText;
  ResultTypeRule boolean = returns(SqlType::boolean());
  ResultTypeRule text = returns(SqlType::text());
  r.add("~", {kText, kText}, boolean, typed_function<matches>);
  r.add("~*", {kText, kText}, boolean, typed_function<matches_insensitive>);
  r.add("!~", {kText, kText}, boolean, typed_function<not_matches>);
  r.add("!~*", {kText, kText}, boolean, typed_function<not_matches_insensitive>);
  r.add("regexp_replace", {kText, kText, kText}, text, typed_function<regexp_replace>);
  r.add("regexp_replace", {kText, kText, kText, kText}, text, typed_function<replace_with_flags>);
  r.add("substring", {kText, kText}, text, typed_function<regexp_substring>);
}

}  // namespace floe
