// SQL LIKE over UTF-8 text (DESIGN.md "runtime/": LIKE via RE2, plus fast paths). Patterns
// made only of literals and '%' are matched with plain byte searches, which UTF-8 makes
// exact; a pattern with '_' (one character) goes to an anchored RE2 in UTF-8 mode.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace floe {

class LikeMatcher {
 public:
  enum class Kind {
    kEquals,           // 'abc'
    kPrefix,           // 'abc%'
    kSuffix,           // '%abc'
    kContains,         // '%abc%' (and '%', which matches everything)
    kOrderedContains,  // 'a%b%c', '%a%b%': anchored ends plus ordered middle pieces
    kRegex,            // anything with '_'
  };

  // `pattern` uses '%' and '_', with backslash as the escape character (PostgreSQL's
  // default). Throws floe::Error when the pattern ends with the escape character.
  explicit LikeMatcher(std::string_view pattern);
  ~LikeMatcher();

  bool matches(std::string_view text) const;
  Kind kind() const { return kind_; }

 private:
  bool matches_ordered(std::string_view text) const;

  Kind kind_;
  // Every kind but kRegex reads the pattern as prefix%middle%...%suffix (prefix and suffix
  // possibly empty; kEquals keeps the whole pattern as prefix).
  std::string prefix_;
  std::vector<std::string> middles_;
  std::string suffix_;
  std::unique_ptr<re2::RE2> regex_;
};

}  // namespace floe
