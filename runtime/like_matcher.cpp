#include "runtime/like_matcher.h"

#include <re2/re2.h>

#include <cstdio>
#include <cstring>

#include "storage/error.h"

namespace floe {

namespace {

constexpr char kEscape = '\\';

// A literal byte of the pattern as RE2 syntax. The bytes of a multi-byte character stay as
// they are (UTF-8 mode reads them as that character); ASCII punctuation is spelled \x{HH}.
void append_regex_literal(std::string& regex, char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
      static_cast<unsigned char>(c) >= 0x80) {
    regex += c;
    return;
  }
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "\\x{%02x}", static_cast<unsigned char>(c));
  regex += buffer;
}

}  // namespace

LikeMatcher::LikeMatcher(std::string_view pattern) {
  // One pass collects both views of the pattern: the literal pieces between '%'s and the
  // equivalent regular expression.
  std::vector<std::string> pieces(1);
  std::string regex;
  bool has_underscore = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == kEscape) {
      if (++i == pattern.size()) throw Error("LIKE pattern must not end with escape character");
      pieces.back() += pattern[i];
      append_regex_literal(regex, pattern[i]);
    } else if (c == '%') {
      pieces.emplace_back();
      regex += ".*";
    } else if (c == '_') {
      has_underscore = true;
      regex += '.';
    } else {
      pieces.back() += c;
      append_regex_literal(regex, c);
    }
  }

  if (has_underscore) {
    kind_ = Kind::kRegex;
    RE2::Options options;
    options.set_encoding(RE2::Options::EncodingUTF8);
    options.set_dot_nl(true);
    options.set_log_errors(false);
    regex_ = std::make_unique<RE2>(regex, options);
    if (!regex_->ok()) throw Error("invalid LIKE pattern: " + regex_->error());
    return;
  }

  prefix_ = std::move(pieces.front());
  if (pieces.size() == 1) {
    kind_ = Kind::kEquals;
    return;
  }
  suffix_ = std::move(pieces.back());
  for (size_t i = 1; i + 1 < pieces.size(); ++i)
    if (!pieces[i].empty()) middles_.push_back(std::move(pieces[i]));

  bool open_start = prefix_.empty(), open_end = suffix_.empty();
  if (middles_.empty() && open_end && !open_start) {
    kind_ = Kind::kPrefix;
  } else if (middles_.empty() && open_start && !open_end) {
    kind_ = Kind::kSuffix;
  } else if (middles_.size() <= 1 && open_start && open_end) {
    kind_ = Kind::kContains;  // '%' alone: contains the empty string
    if (middles_.empty()) middles_.emplace_back();
  } else {
    kind_ = Kind::kOrderedContains;
  }
}

LikeMatcher::~LikeMatcher() = default;

bool LikeMatcher::matches(std::string_view text) const {
  switch (kind_) {
    case Kind::kEquals:
      return text == prefix_;
    case Kind::kPrefix:
      return text.starts_with(prefix_);
    case Kind::kSuffix:
      return text.ends_with(suffix_);
    case Kind::kContains: {
      const std::string& needle = middles_[0];
      if (needle.empty()) return true;
      // glibc's memmem (two-way search) beats a naive scan; both pointers are non-null here.
      return text.size() >= needle.size() &&
             memmem(text.data(), text.size(), needle.data(), needle.size()) != nullptr;
    }
    case Kind::kOrderedContains:
      return matches_ordered(text);
    case Kind::kRegex:
      return RE2::FullMatch(re2::StringPiece(text.data(), text.size()), *regex_);
  }
  return false;
}

bool LikeMatcher::matches_ordered(std::string_view text) const {
  if (text.size() < prefix_.size() + suffix_.size() || !text.starts_with(prefix_) ||
      !text.ends_with(suffix_))
    return false;
  // The middle pieces must appear in order, greedily leftmost, between prefix and suffix.
  std::string_view rest =
      text.substr(prefix_.size(), text.size() - prefix_.size() - suffix_.size());
  for (const std::string& piece : middles_) {
    size_t at = rest.find(piece);
    if (at == std::string_view::npos) return false;
    rest.remove_prefix(at + piece.size());
  }
  return true;
}

}  // namespace floe
