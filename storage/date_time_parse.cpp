// DATE and TIMESTAMP input (storage/date_time.h), after PostgreSQL's ParseDateTime and
// DecodeDateTime for the default DateStyle "ISO, MDY": the text is split into a date, an
// optional time and an optional era, and the date's fields are told apart by their form.
#include <array>
#include <cctype>
#include <string>

#include "storage/date_time.h"
#include "storage/error.h"

namespace floe {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_blank(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

std::string lower(std::string_view text) {
  std::string out;
  for (char c : text) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// 1..12 for an English month name or its abbreviation ("jan", "sept", "september"), else 0.
uint32_t month_from_name(std::string_view word) {
  static constexpr const char* kNames[] = {"january", "february", "march",     "april",
                                           "may",     "june",     "july",      "august",
                                           "september", "october", "november", "december"};
  std::string name = lower(word);
  if (name.size() < 3) return 0;
  for (uint32_t month = 0; month < 12; ++month) {
    std::string_view full = kNames[month];
    if (full.substr(0, name.size()) == name && (name.size() == 3 || name.size() == full.size() ||
                                                name == "sept"))
      return month + 1;
  }
  return 0;
}

struct Field {
  std::string_view text;
  bool numeric = false;
  int64_t value = 0;
};

// PostgreSQL's two-digit years: 70..99 are 19xx, 00..69 are 20xx.
int64_t full_year(const Field& field) {
  if (field.text.size() > 2) return field.value;
  return field.value + (field.value < 70 ? 2000 : 1900);
}

// The date part: "2024-05-07" (or / .), "20240507", "05/07/2024", "May 7, 2024",
// "7 May 2024", "2024-May-07".
DateParseResult parse_date_fields(std::string_view text, bool before_christ, int32_t& days) {
  std::array<Field, 3> fields;
  size_t count = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    char c = text[pos];
    if (c == '-' || c == '/' || c == '.' || c == ',' || is_blank(c)) {
      ++pos;
      continue;
    }
    size_t start = pos;
    bool numeric = is_digit(c);
    while (pos < text.size() && (numeric ? is_digit(text[pos]) : is_alpha(text[pos]))) ++pos;
    if (pos == start) return DateParseResult::kSyntax;
    if (count == fields.size()) return DateParseResult::kSyntax;
    Field& field = fields[count++];
    field = {text.substr(start, pos - start), numeric};
    if (numeric) {
      if (field.text.size() > 9) return DateParseResult::kSyntax;
      for (char d : field.text) field.value = field.value * 10 + (d - '0');
    }
  }
  int64_t year, month, day;
  if (count == 1 && fields[0].numeric && fields[0].text.size() == 8) {
    year = fields[0].value / 10000;  // compact YYYYMMDD
    month = fields[0].value / 100 % 100;
    day = fields[0].value % 100;
  } else if (count == 3) {
    int named = -1;
    for (int i = 0; i < 3; ++i)
      if (!fields[i].numeric) {
        if (named >= 0 || !month_from_name(fields[i].text)) return DateParseResult::kSyntax;
        named = i;
      }
    if (named >= 0) {
      const Field& a = fields[named == 0 ? 1 : 0];
      const Field& b = fields[named == 2 ? 1 : 2];
      month = month_from_name(fields[named].text);
      bool year_first = a.text.size() > 2;
      year = full_year(year_first ? a : b);
      day = (year_first ? b : a).value;
    } else if (fields[0].text.size() > 2) {  // year-month-day
      year = fields[0].value;
      month = fields[1].value;
      day = fields[2].value;
    } else {  // month/day/year
      month = fields[0].value;
      day = fields[1].value;
      year = full_year(fields[2]);
    }
  } else {
    return DateParseResult::kSyntax;
  }
  if (year < 1 || year > 5874897 || month < 1 || month > 12 || day < 1) {
    return DateParseResult::kOutOfRange;
  }
  if (before_christ) year = 1 - year;
  if (day > days_in_month(static_cast<int32_t>(year), static_cast<uint32_t>(month)))
    return DateParseResult::kOutOfRange;
  days = days_from_civil(static_cast<int32_t>(year), static_cast<uint32_t>(month),
                         static_cast<uint32_t>(day));
  return DateParseResult::kOk;
}

// Reads 1..2 digits at text[pos].
bool read_two_digits(std::string_view text, size_t& pos, int64_t& out) {
  size_t start = pos;
  out = 0;
  while (pos < text.size() && pos - start < 2 && is_digit(text[pos]))
    out = out * 10 + (text[pos++] - '0');
  return pos > start;
}

// "HH:MM[:SS[.ffffff]]"; the fraction is rounded to microseconds.
DateParseResult parse_time(std::string_view text, int64_t& micros) {
  size_t pos = 0;
  int64_t hour, minute, second = 0, fraction = 0;
  if (!read_two_digits(text, pos, hour) || pos >= text.size() || text[pos++] != ':' ||
      !read_two_digits(text, pos, minute))
    return DateParseResult::kSyntax;
  if (pos < text.size() && text[pos] == ':') {
    ++pos;
    if (!read_two_digits(text, pos, second)) return DateParseResult::kSyntax;
    if (pos < text.size() && text[pos] == '.') {
      size_t digits = 0;
      for (++pos; pos < text.size() && is_digit(text[pos]); ++pos, ++digits) {
        if (digits < 6) fraction = fraction * 10 + (text[pos] - '0');
        if (digits == 6 && text[pos] >= '5') ++fraction;
      }
      for (; digits < 6; ++digits) fraction *= 10;
    }
  }
  if (pos != text.size()) return DateParseResult::kSyntax;
  if (hour > 24 || minute > 59 || second > 60 ||
      (hour == 24 && (minute != 0 || second != 0 || fraction != 0)))
    return DateParseResult::kOutOfRange;
  micros = hour * kMicrosPerHour + minute * kMicrosPerMinute + second * kMicrosPerSecond +
           fraction;
  return DateParseResult::kOk;
}

// Case-insensitive equality with a lowercase word.
bool equals_word(std::string_view text, std::string_view word) {
  if (text.size() != word.size()) return false;
  for (size_t i = 0; i < text.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[i])) != word[i]) return false;
  return true;
}

DateParseResult parse_date_time(std::string_view text, int32_t& days, int64_t& time_of_day) {
  text = trim(text);
  time_of_day = 0;
  if (equals_word(text, "epoch")) {
    days = 0;
    return DateParseResult::kOk;
  }
  bool before_christ = false;
  if (text.size() > 3 && is_blank(text[text.size() - 3])) {
    std::string_view era = text.substr(text.size() - 2);
    if (equals_word(era, "bc") || equals_word(era, "ad")) {
      before_christ = equals_word(era, "bc");
      text = trim(text.substr(0, text.size() - 2));
    }
  }
  std::string_view date_text = text, time_text;
  size_t colon = text.find(':');
  if (colon != std::string_view::npos) {
    size_t start = colon;
    while (start > 0 && is_digit(text[start - 1])) --start;
    if (start == 0) return DateParseResult::kSyntax;
    char separator = text[start - 1];
    if (!is_blank(separator) && separator != 'T' && separator != 't')
      return DateParseResult::kSyntax;
    date_text = trim(text.substr(0, start - 1));
    time_text = text.substr(start);
  }
  DateParseResult result = parse_date_fields(date_text, before_christ, days);
  if (result != DateParseResult::kOk || time_text.empty()) return result;
  return parse_time(time_text, time_of_day);
}

[[noreturn]] void throw_parse_error(DateParseResult result, const char* type,
                                    std::string_view text) {
  if (result == DateParseResult::kOutOfRange)
    throw Error("date/time field value out of range: \"" + std::string(text) + "\"");
  throw Error("invalid input syntax for type " + std::string(type) + ": \"" + std::string(text) +
              "\"");
}

}  // namespace

DateParseResult parse_date(std::string_view text, int32_t& days) {
  int64_t time_of_day;
  return parse_date_time(text, days, time_of_day);
}

DateParseResult parse_timestamp(std::string_view text, int64_t& micros) {
  int32_t days;
  int64_t time_of_day;
  DateParseResult result = parse_date_time(text, days, time_of_day);
  if (result != DateParseResult::kOk) return result;
  // PostgreSQL's timestamps run from 4714-11-24 BC (Julian day 0) to 294276 AD.
  static const int32_t kFirst = days_from_civil(-4713, 11, 24);
  static const int32_t kEnd = days_from_civil(294277, 1, 1);
  if (days < kFirst || days >= kEnd) return DateParseResult::kOutOfRange;
  micros = days * kMicrosPerDay + time_of_day;
  return DateParseResult::kOk;
}

std::optional<int32_t> try_parse_date(std::string_view text) {
  int32_t days;
  if (parse_date(text, days) != DateParseResult::kOk) return std::nullopt;
  return days;
}

std::optional<int64_t> try_parse_timestamp(std::string_view text) {
  int64_t micros;
  if (parse_timestamp(text, micros) != DateParseResult::kOk) return std::nullopt;
  return micros;
}

int32_t parse_date(std::string_view text) {
  int32_t days;
  DateParseResult result = parse_date(text, days);
  if (result != DateParseResult::kOk) throw_parse_error(result, "date", text);
  return days;
}

int64_t parse_timestamp(std::string_view text) {
  int64_t micros;
  DateParseResult result = parse_timestamp(text, micros);
  if (result != DateParseResult::kOk) throw_parse_error(result, "timestamp", text);
  return micros;
}

}  // namespace floe
