// The set-returning functions that split a string (runtime/table_function.h), with
// PostgreSQL's semantics (src/backend/utils/adt/varlena.c split_text, regexp.c
// regexp_split_to_table).
#include <string>

#include "runtime/function_adapter.h"
#include "runtime/functions/function_families.h"
#include "runtime/functions/regex.h"
#include "runtime/table_function.h"
#include "storage/error.h"
#include "storage/utf8.h"

namespace floe {

namespace {

std::string_view text_argument(const FunctionSlot& slot) {
  return function_adapter::read<std::string_view>(slot);
}

void write_text(FunctionSlot& value, std::string_view text) {
  function_adapter::write(value, std::optional<StringRef>(StringRef::from(text)));
}

// The bytes of the UTF-8 character that starts `text` (at least one).
size_t first_character_bytes(std::string_view text) {
  size_t bytes = 1;
  while (bytes < text.size() && is_utf8_continuation(text[bytes])) ++bytes;
  return bytes;
}

// string_to_table(string, delimiter [, null_string]): the parts of `string` between the
// delimiters; nothing for a NULL or empty string; each character for a NULL delimiter, the
// whole string for an empty one. Parts equal to null_string are NULL.
class StringToTable final : public TableFunctionCursor {
 public:
  explicit StringToTable(std::span<const FunctionSlot> arguments) {
    if (is_null_argument(arguments[0])) return;
    rest_ = text_argument(arguments[0]);
    done_ = rest_.empty();
    by_character_ = is_null_argument(arguments[1]);
    if (!by_character_) delimiter_ = text_argument(arguments[1]);
    has_null_string_ = arguments.size() > 2 && !is_null_argument(arguments[2]);
    if (has_null_string_) null_string_ = text_argument(arguments[2]);
  }

  bool next(StringHeap&, FunctionSlot& value) override {
    if (done_) return false;
    std::string_view part;
    if (by_character_) {
      part = rest_.substr(0, first_character_bytes(rest_));
      rest_.remove_prefix(part.size());
      done_ = rest_.empty();
    } else {
      size_t at = delimiter_.empty() ? std::string_view::npos : rest_.find(delimiter_);
      part = rest_.substr(0, at);
      if (at == std::string_view::npos)
        done_ = true;  // the part after the last delimiter, possibly empty
      else
        rest_.remove_prefix(at + delimiter_.size());
    }
    if (has_null_string_ && part == null_string_)
      value.bytes[kFunctionSlotNullOffset] = 1;
    else
      write_text(value, part);
    return true;
  }

 private:
  std::string_view rest_, delimiter_, null_string_;
  bool done_ = true;
  bool by_character_ = false;
  bool has_null_string_ = false;
};

// regexp_split_to_table(string, pattern [, flags]): the parts of `string` between the
// pattern's matches. As in PostgreSQL, an empty match at the start or end of the string or
// right after another match separates nothing. Strict: a NULL argument gives no rows.
class RegexpSplitToTable final : public TableFunctionCursor {
 public:
  explicit RegexpSplitToTable(std::span<const FunctionSlot> arguments) {
    if (any_null_argument(arguments)) return;
    text_ = text_argument(arguments[0]);
    pattern_ = text_argument(arguments[1]);
    RegexFlags flags = parse_regex_flags(arguments.size() > 2 ? text_argument(arguments[2]) : "");
    if (flags.global) throw Error("regexp_split_to_table() does not support the \"global\" option");
    case_insensitive_ = flags.case_insensitive;
    compiled_regex(pattern_, case_insensitive_);  // an invalid pattern fails the call
    done_ = false;
  }

  bool next(StringHeap&, FunctionSlot& value) override {
    if (done_) return false;
    // Looked up again: the consumers of the previous part may have compiled other patterns.
    const RE2& regex = compiled_regex(pattern_, case_insensitive_);
    const re2::StringPiece text(text_.data(), text_.size());
    re2::StringPiece match;
    while (search_ <= text_.size() &&
           regex.Match(text, search_, text_.size(), RE2::UNANCHORED, &match, 1)) {
      size_t begin = static_cast<size_t>(match.data() - text_.data());
      size_t end = begin + match.size();
      bool separates = begin < text_.size() && end > previous_end_;
      previous_end_ = end;
      search_ = end;
      if (begin == end)
        search_ += search_ < text_.size() ? first_character_bytes(text_.substr(search_)) : 1;
      if (separates) {
        write_text(value, text_.substr(part_begin_, begin - part_begin_));
        part_begin_ = end;
        return true;
      }
    }
    write_text(value, text_.substr(part_begin_));
    done_ = true;
    return true;
  }

 private:
  std::string_view text_, pattern_;
  size_t part_begin_ = 0;    // where the next part starts: after the last separating match
  size_t search_ = 0;        // where the next match may start
  size_t previous_end_ = 0;  // the end of the last match, separating or not
  bool case_insensitive_ = false;
  bool done_ = true;
};

}  // namespace

void register_split_functions(TableFunctionRegistry& r) {
  constexpr TypeId kText = TypeId::kText;
  for (std::vector<TypeId> parameters :
       {std::vector<TypeId>{kText, kText}, std::vector<TypeId>{kText, kText, kText}}) {
    r.add({"string_to_table", parameters, SqlType::text(), open_cursor<StringToTable>});
    r.add({"regexp_split_to_table", parameters, SqlType::text(), open_cursor<RegexpSplitToTable>});
  }
}

}  // namespace floe
