#include "runtime/functions/date_time_format.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <vector>

#include "storage/date_time.h"
#include "storage/error.h"

namespace floe {
namespace {

enum class Pattern : uint8_t {
  kYearComma, kYear4, kYear3, kYear2, kYear1, kIsoYear4, kIsoYear3, kIsoYear2,
  kMonthName, kMonthAbbreviation, kMonth, kDayName, kDayAbbreviation, kDayOfYear, kDay,
  kDayOfWeek, kIsoDayOfWeek, kHour24, kHour12, kMinute, kSecondOfDay, kSecond, kMillisecond,
  kMicrosecond, kMeridiem, kMeridiemDots, kEra, kEraDots, kQuarter, kWeekOfYear, kIsoWeek,
  kWeekOfMonth, kCentury, kJulian,
};

// How a text pattern spells its words: "MONTH", "Month" or "month".
enum class Case : uint8_t { kUpper, kCapitalized, kLower };

struct Keyword {
  const char* name;
  Pattern pattern;
  Case letter_case;
  int width;  // digits a numeric field reads when another field follows directly
};

// Longest first where one name is a prefix of another.
constexpr Keyword kKeywords[] = {
    {"Y,YYY", Pattern::kYearComma, Case::kUpper, 5},
    {"YYYY", Pattern::kYear4, Case::kUpper, 4},       {"yyyy", Pattern::kYear4, Case::kLower, 4},
    {"YYY", Pattern::kYear3, Case::kUpper, 3},        {"yyy", Pattern::kYear3, Case::kLower, 3},
    {"YY", Pattern::kYear2, Case::kUpper, 2},         {"yy", Pattern::kYear2, Case::kLower, 2},
    {"Y", Pattern::kYear1, Case::kUpper, 1},          {"y", Pattern::kYear1, Case::kLower, 1},
    {"IYYY", Pattern::kIsoYear4, Case::kUpper, 4},    {"iyyy", Pattern::kIsoYear4, Case::kLower, 4},
    {"IYY", Pattern::kIsoYear3, Case::kUpper, 3},     {"iyy", Pattern::kIsoYear3, Case::kLower, 3},
    {"IY", Pattern::kIsoYear2, Case::kUpper, 2},      {"iy", Pattern::kIsoYear2, Case::kLower, 2},
    {"IW", Pattern::kIsoWeek, Case::kUpper, 2},       {"iw", Pattern::kIsoWeek, Case::kLower, 2},
    {"ID", Pattern::kIsoDayOfWeek, Case::kUpper, 1},  {"id", Pattern::kIsoDayOfWeek, Case::kLower, 1},
    {"MONTH", Pattern::kMonthName, Case::kUpper, 0},  {"Month", Pattern::kMonthName, Case::kCapitalized, 0},
    {"month", Pattern::kMonthName, Case::kLower, 0},  {"MON", Pattern::kMonthAbbreviation, Case::kUpper, 0},
    {"Mon", Pattern::kMonthAbbreviation, Case::kCapitalized, 0},
    {"mon", Pattern::kMonthAbbreviation, Case::kLower, 0},
    {"MM", Pattern::kMonth, Case::kUpper, 2},         {"mm", Pattern::kMonth, Case::kLower, 2},
    {"MS", Pattern::kMillisecond, Case::kUpper, 3},   {"ms", Pattern::kMillisecond, Case::kLower, 3},
    {"MI", Pattern::kMinute, Case::kUpper, 2},        {"mi", Pattern::kMinute, Case::kLower, 2},
    {"DAY", Pattern::kDayName, Case::kUpper, 0},      {"Day", Pattern::kDayName, Case::kCapitalized, 0},
    {"day", Pattern::kDayName, Case::kLower, 0},      {"DY", Pattern::kDayAbbreviation, Case::kUpper, 0},
    {"Dy", Pattern::kDayAbbreviation, Case::kCapitalized, 0},
    {"dy", Pattern::kDayAbbreviation, Case::kLower, 0},
    {"DDD", Pattern::kDayOfYear, Case::kUpper, 3},    {"ddd", Pattern::kDayOfYear, Case::kLower, 3},
    {"DD", Pattern::kDay, Case::kUpper, 2},           {"dd", Pattern::kDay, Case::kLower, 2},
    {"D", Pattern::kDayOfWeek, Case::kUpper, 1},      {"d", Pattern::kDayOfWeek, Case::kLower, 1},
    {"HH24", Pattern::kHour24, Case::kUpper, 2},      {"hh24", Pattern::kHour24, Case::kLower, 2},
    {"HH12", Pattern::kHour12, Case::kUpper, 2},      {"hh12", Pattern::kHour12, Case::kLower, 2},
    {"HH", Pattern::kHour12, Case::kUpper, 2},        {"hh", Pattern::kHour12, Case::kLower, 2},
    {"SSSSS", Pattern::kSecondOfDay, Case::kUpper, 5}, {"sssss", Pattern::kSecondOfDay, Case::kLower, 5},
    {"SSSS", Pattern::kSecondOfDay, Case::kUpper, 5}, {"ssss", Pattern::kSecondOfDay, Case::kLower, 5},
    {"SS", Pattern::kSecond, Case::kUpper, 2},        {"ss", Pattern::kSecond, Case::kLower, 2},
    {"US", Pattern::kMicrosecond, Case::kUpper, 6},   {"us", Pattern::kMicrosecond, Case::kLower, 6},
    {"A.M.", Pattern::kMeridiemDots, Case::kUpper, 0}, {"a.m.", Pattern::kMeridiemDots, Case::kLower, 0},
    {"P.M.", Pattern::kMeridiemDots, Case::kUpper, 0}, {"p.m.", Pattern::kMeridiemDots, Case::kLower, 0},
    {"AM", Pattern::kMeridiem, Case::kUpper, 0},      {"am", Pattern::kMeridiem, Case::kLower, 0},
    {"PM", Pattern::kMeridiem, Case::kUpper, 0},      {"pm", Pattern::kMeridiem, Case::kLower, 0},
    {"B.C.", Pattern::kEraDots, Case::kUpper, 0},     {"b.c.", Pattern::kEraDots, Case::kLower, 0},
    {"A.D.", Pattern::kEraDots, Case::kUpper, 0},     {"a.d.", Pattern::kEraDots, Case::kLower, 0},
    {"BC", Pattern::kEra, Case::kUpper, 0},           {"bc", Pattern::kEra, Case::kLower, 0},
    {"AD", Pattern::kEra, Case::kUpper, 0},           {"ad", Pattern::kEra, Case::kLower, 0},
    {"Q", Pattern::kQuarter, Case::kUpper, 1},        {"q", Pattern::kQuarter, Case::kLower, 1},
    {"WW", Pattern::kWeekOfYear, Case::kUpper, 2},    {"ww", Pattern::kWeekOfYear, Case::kLower, 2},
    {"W", Pattern::kWeekOfMonth, Case::kUpper, 1},    {"w", Pattern::kWeekOfMonth, Case::kLower, 1},
    {"CC", Pattern::kCentury, Case::kUpper, 2},       {"cc", Pattern::kCentury, Case::kLower, 2},
    {"J", Pattern::kJulian, Case::kUpper, 0},         {"j", Pattern::kJulian, Case::kLower, 0},
};

constexpr const char* kMonthNames[] = {"January", "February", "March",     "April",
                                       "May",     "June",     "July",      "August",
                                       "September", "October", "November", "December"};
constexpr const char* kDayNames[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                     "Thursday", "Friday", "Saturday"};

// One element of a template: a pattern (with FM and TH modifiers) or literal text.
struct Node {
  const Keyword* keyword = nullptr;
  bool fill_mode = false;        // FM: no padding
  std::optional<Case> ordinal;   // TH or th suffix
  std::string literal;
};

bool starts_with(std::string_view text, size_t pos, std::string_view prefix) {
  return text.substr(pos, prefix.size()) == prefix;
}

std::vector<Node> parse_template(std::string_view format) {
  std::vector<Node> nodes;
  size_t pos = 0;
  auto literal = [&](char c) {
    if (nodes.empty() || nodes.back().keyword) nodes.emplace_back();
    nodes.back().literal += c;
  };
  while (pos < format.size()) {
    bool fill_mode = false;
    if (starts_with(format, pos, "FM") || starts_with(format, pos, "fm")) {
      fill_mode = true;
      pos += 2;
    }
    const Keyword* match = nullptr;
    for (const Keyword& keyword : kKeywords)
      if (starts_with(format, pos, keyword.name)) {
        match = &keyword;
        break;
      }
    if (match) {
      Node node;
      node.keyword = match;
      node.fill_mode = fill_mode;
      pos += std::string_view(match->name).size();
      if (starts_with(format, pos, "TH") || starts_with(format, pos, "th")) {
        node.ordinal = format[pos] == 'T' ? Case::kUpper : Case::kLower;
        pos += 2;
      }
      nodes.push_back(node);
      continue;
    }
    if (fill_mode) continue;  // FM before something that is not a pattern: ignored
    char c = format[pos++];
    if (c == '"') {  // quoted literal text, with \" inside
      while (pos < format.size() && format[pos] != '"') {
        if (format[pos] == '\\' && pos + 1 < format.size()) ++pos;
        literal(format[pos++]);
      }
      ++pos;
    } else if (c == '\\' && pos < format.size()) {
      literal(format[pos++]);
    } else {
      literal(c);
    }
  }
  return nodes;
}

// ---- to_char -------------------------------------------------------------------------

std::string cased(std::string_view word, Case letter_case) {
  std::string out(word);
  for (size_t i = 0; i < out.size(); ++i) {
    auto c = static_cast<unsigned char>(out[i]);
    bool upper = letter_case == Case::kUpper || (letter_case == Case::kCapitalized && i == 0);
    out[i] = static_cast<char>(upper ? std::toupper(c) : std::tolower(c));
  }
  return out;
}

std::string ordinal_suffix(int64_t value, Case letter_case) {
  int64_t last_two = value % 100, last = value % 10;
  const char* suffix = (last_two >= 11 && last_two <= 13) ? "th"
                       : last == 1                        ? "st"
                       : last == 2                        ? "nd"
                       : last == 3                        ? "rd"
                                                          : "th";
  return cased(suffix, letter_case);
}

std::string number(int64_t value, int digits, bool fill_mode) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%0*lld", fill_mode ? 0 : digits,
                static_cast<long long>(value));
  return buffer;
}

// The calendar facts of one timestamp that the patterns print.
struct Moment {
  int64_t year;  // as shown: 1 BC is 1 (with BC)
  int64_t astronomical_year, month, day, hour, minute, second, micros, days;
  int64_t day_of_year, day_of_week, iso_year, iso_week, iso_day_of_week;
};

Moment moment_of(int64_t micros) {
  Moment m{};
  m.days = floor_div(micros, kMicrosPerDay);
  int64_t time = micros - m.days * kMicrosPerDay;
  auto days = static_cast<int32_t>(m.days);
  int32_t year;
  uint32_t month, day;
  civil_from_days(days, year, month, day);
  m.astronomical_year = year, m.month = month, m.day = day;
  m.year = year > 0 ? year : 1 - year;
  m.hour = time / kMicrosPerHour;
  m.minute = time / kMicrosPerMinute % 60;
  m.second = time / kMicrosPerSecond % 60;
  m.micros = time % kMicrosPerSecond;
  m.day_of_year = extract_from_date(DatePart::kDayOfYear, days);
  m.day_of_week = extract_from_date(DatePart::kDayOfWeek, days);
  m.iso_year = extract_from_date(DatePart::kIsoYear, days);
  if (m.iso_year < 0) m.iso_year = -m.iso_year;
  m.iso_week = extract_from_date(DatePart::kWeek, days);
  m.iso_day_of_week = extract_from_date(DatePart::kIsoDayOfWeek, days);
  return m;
}

// A padded name (to 9 characters, the longest), unless FM.
std::string name(std::string_view word, const Node& node, bool abbreviate) {
  std::string out = cased(abbreviate ? word.substr(0, 3) : word, node.keyword->letter_case);
  if (!abbreviate && !node.fill_mode) out.resize(9, ' ');
  return out;
}

std::string format_node(const Node& node, const Moment& m) {
  bool fm = node.fill_mode;
  int64_t value = 0;
  int digits = 0;
  switch (node.keyword->pattern) {
    case Pattern::kYearComma:
      return std::to_string(m.year / 1000) + "," + number(m.year % 1000, 3, false);
    case Pattern::kYear4: value = m.year, digits = 4; break;
    case Pattern::kYear3: value = m.year % 1000, digits = 3; break;
    case Pattern::kYear2: value = m.year % 100, digits = 2; break;
    case Pattern::kYear1: value = m.year % 10, digits = 1; break;
    case Pattern::kIsoYear4: value = m.iso_year, digits = 4; break;
    case Pattern::kIsoYear3: value = m.iso_year % 1000, digits = 3; break;
    case Pattern::kIsoYear2: value = m.iso_year % 100, digits = 2; break;
    case Pattern::kMonthName: return name(kMonthNames[m.month - 1], node, false);
    case Pattern::kMonthAbbreviation: return name(kMonthNames[m.month - 1], node, true);
    case Pattern::kMonth: value = m.month, digits = 2; break;
    case Pattern::kDayName: return name(kDayNames[m.day_of_week], node, false);
    case Pattern::kDayAbbreviation: return name(kDayNames[m.day_of_week], node, true);
    case Pattern::kDayOfYear: value = m.day_of_year, digits = 3; break;
    case Pattern::kDay: value = m.day, digits = 2; break;
    case Pattern::kDayOfWeek: value = m.day_of_week + 1, digits = 1; break;
    case Pattern::kIsoDayOfWeek: value = m.iso_day_of_week, digits = 1; break;
    case Pattern::kHour24: value = m.hour, digits = 2; break;
    case Pattern::kHour12: value = m.hour % 12 == 0 ? 12 : m.hour % 12, digits = 2; break;
    case Pattern::kMinute: value = m.minute, digits = 2; break;
    case Pattern::kSecondOfDay: value = (m.hour * 60 + m.minute) * 60 + m.second; break;
    case Pattern::kSecond: value = m.second, digits = 2; break;
    case Pattern::kMillisecond: value = m.micros / 1000, digits = 3; break;
    case Pattern::kMicrosecond: value = m.micros, digits = 6; break;
    case Pattern::kMeridiem: return cased(m.hour >= 12 ? "pm" : "am", node.keyword->letter_case);
    case Pattern::kMeridiemDots:
      return cased(m.hour >= 12 ? "p.m." : "a.m.", node.keyword->letter_case);
    case Pattern::kEra: return cased(m.astronomical_year > 0 ? "ad" : "bc", node.keyword->letter_case);
    case Pattern::kEraDots:
      return cased(m.astronomical_year > 0 ? "a.d." : "b.c.", node.keyword->letter_case);
    case Pattern::kQuarter: value = (m.month - 1) / 3 + 1, digits = 1; break;
    case Pattern::kWeekOfYear: value = (m.day_of_year - 1) / 7 + 1, digits = 2; break;
    case Pattern::kIsoWeek: value = m.iso_week, digits = 2; break;
    case Pattern::kWeekOfMonth: value = (m.day - 1) / 7 + 1, digits = 1; break;
    case Pattern::kCentury:
      value = m.astronomical_year > 0 ? (m.astronomical_year + 99) / 100
                                      : -((99 - (m.astronomical_year - 1)) / 100);
      digits = 2;
      break;
    case Pattern::kJulian: value = m.days + 2440588; break;
  }
  std::string out = number(value, digits, fm);
  if (node.ordinal) out += ordinal_suffix(value, *node.ordinal);
  return out;
}

// ---- to_date / to_timestamp -------------------------------------------------------------

// The fields a template read from the input; unset ones take PostgreSQL's defaults.
struct Parsed {
  int64_t year = -1, year_digits = 0, month = -1, day = -1, day_of_year = -1, century = -1;
  int64_t hour = 0, minute = 0, second = 0, micros = 0;
  int meridiem = -1;  // 0 am, 1 pm
  bool before_christ = false, twelve_hour = false;
};

bool is_numeric(Pattern pattern) {
  switch (pattern) {
    case Pattern::kMonthName: case Pattern::kMonthAbbreviation: case Pattern::kDayName:
    case Pattern::kDayAbbreviation: case Pattern::kMeridiem: case Pattern::kMeridiemDots:
    case Pattern::kEra: case Pattern::kEraDots:
      return false;
    default:
      return true;
  }
}

class TemplateReader {
 public:
  explicit TemplateReader(std::string_view text) : text_(text) {}

  Parsed read(const std::vector<Node>& nodes) {
    for (size_t i = 0; i < nodes.size() && pos_ < text_.size(); ++i) {
      const Node& node = nodes[i];
      if (!node.keyword) {
        skip_literal(node.literal);
        continue;
      }
      bool adjacent = i + 1 < nodes.size() && nodes[i + 1].keyword &&
                      is_numeric(nodes[i + 1].keyword->pattern);
      read_field(node, adjacent);
      if (node.ordinal) skip_letters(2);
    }
    return parsed_;
  }

 private:
  // A separator in the template matches one separator of the input, or nothing; any other
  // template character skips one input character.
  void skip_literal(std::string_view literal) {
    for (char c : literal) {
      if (pos_ >= text_.size()) return;
      bool separator = !std::isalnum(static_cast<unsigned char>(c));
      if (!separator || !std::isalnum(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
  }

  void skip_letters(size_t count) {
    for (size_t i = 0; i < count && pos_ < text_.size() && std::isalpha(
             static_cast<unsigned char>(text_[pos_])); ++i)
      ++pos_;
  }

  [[noreturn]] void invalid(const Node& node, size_t length) const {
    std::string value(text_.substr(pos_, length));
    throw Error("invalid value \"" + value + "\" for \"" + node.keyword->name + "\"");
  }

  int64_t read_number(const Node& node, bool adjacent) {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    size_t start = pos_;
    bool negative = pos_ < text_.size() && text_[pos_] == '-';
    if (negative) ++pos_;
    size_t limit = adjacent && node.keyword->width > 0 ? node.keyword->width : 18;
    int64_t value = 0;
    size_t digits_start = pos_;
    while (pos_ < text_.size() && pos_ - digits_start < limit &&
           std::isdigit(static_cast<unsigned char>(text_[pos_])))
      value = value * 10 + (text_[pos_++] - '0');
    if (pos_ == digits_start) {
      pos_ = start;
      invalid(node, std::max<size_t>(node.keyword->width, 1));
    }
    digits_ = pos_ - digits_start;
    return negative ? -value : value;
  }

  // Matches one of `names` (full, or its first three letters) case-insensitively.
  int64_t read_name(const Node& node, const char* const* names, size_t count, bool abbreviated) {
    for (size_t i = 0; i < count; ++i) {
      std::string_view full = names[i];
      std::string_view word = abbreviated ? full.substr(0, 3) : full;
      if (pos_ + word.size() > text_.size()) continue;
      bool equal = true;
      for (size_t j = 0; j < word.size() && equal; ++j)
        equal = std::tolower(static_cast<unsigned char>(text_[pos_ + j])) ==
                std::tolower(static_cast<unsigned char>(word[j]));
      if (equal) {
        pos_ += word.size();
        return static_cast<int64_t>(i);
      }
    }
    throw Error("invalid value \"" + std::string(text_.substr(pos_, abbreviated ? 3 : 9)) +
                "\" for \"" + node.keyword->name + "\"");
  }

  // "am"/"pm" (or with dots, "bc"/"ad"): which of the two it is.
  bool read_pair(const Node& node, std::string_view first, std::string_view second) {
    std::string word;
    for (size_t i = 0; i < first.size() && pos_ + i < text_.size(); ++i)
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(text_[pos_ + i])));
    if (word != first && word != second) invalid(node, first.size());
    pos_ += first.size();
    return word == second;
  }

  void read_field(const Node& node, bool adjacent) {
    Parsed& p = parsed_;
    switch (node.keyword->pattern) {
      case Pattern::kYearComma: {
        int64_t thousands = read_number(node, false);
        if (pos_ < text_.size() && text_[pos_] == ',') ++pos_;
        p.year = thousands * 1000 + read_number(node, false);
        p.year_digits = 4;
        return;
      }
      case Pattern::kYear4: case Pattern::kYear3: case Pattern::kYear2: case Pattern::kYear1:
      case Pattern::kIsoYear4: case Pattern::kIsoYear3: case Pattern::kIsoYear2:
        p.year = read_number(node, adjacent);
        p.year_digits = static_cast<int64_t>(digits_);
        return;
      case Pattern::kMonthName:
      case Pattern::kMonthAbbreviation:
        p.month = read_name(node, kMonthNames, 12,
                            node.keyword->pattern == Pattern::kMonthAbbreviation) + 1;
        return;
      case Pattern::kDayName:
      case Pattern::kDayAbbreviation:
        read_name(node, kDayNames, 7, node.keyword->pattern == Pattern::kDayAbbreviation);
        return;
      case Pattern::kMonth: p.month = read_number(node, adjacent); return;
      case Pattern::kDay: p.day = read_number(node, adjacent); return;
      case Pattern::kDayOfYear: p.day_of_year = read_number(node, adjacent); return;
      case Pattern::kHour24: p.hour = read_number(node, adjacent); return;
      case Pattern::kHour12:
        p.hour = read_number(node, adjacent);
        p.twelve_hour = true;
        return;
      case Pattern::kMinute: p.minute = read_number(node, adjacent); return;
      case Pattern::kSecond: p.second = read_number(node, adjacent); return;
      case Pattern::kSecondOfDay: {
        int64_t seconds = read_number(node, adjacent);
        p.hour = seconds / 3600, p.minute = seconds / 60 % 60, p.second = seconds % 60;
        return;
      }
      case Pattern::kMillisecond: {  // "5" after a point means 500 ms, as in PostgreSQL
        int64_t value = read_number(node, adjacent);
        for (size_t d = digits_; d < 3; ++d) value *= 10;
        p.micros = value * 1000;
        return;
      }
      case Pattern::kMicrosecond: {
        int64_t value = read_number(node, adjacent);
        for (size_t d = digits_; d < 6; ++d) value *= 10;
        p.micros = value;
        return;
      }
      case Pattern::kMeridiem: p.meridiem = read_pair(node, "am", "pm"); return;
      case Pattern::kMeridiemDots: p.meridiem = read_pair(node, "a.m.", "p.m."); return;
      case Pattern::kEra: p.before_christ = read_pair(node, "ad", "bc"); return;
      case Pattern::kEraDots: p.before_christ = read_pair(node, "a.d.", "b.c."); return;
      case Pattern::kCentury: p.century = read_number(node, adjacent); return;
      case Pattern::kJulian: {
        int64_t julian = read_number(node, adjacent);
        int32_t year;
        uint32_t month, day;
        civil_from_days(static_cast<int32_t>(julian - 2440588), year, month, day);
        p.year = year, p.year_digits = 4, p.month = month, p.day = day;
        return;
      }
      default:  // D, ID, Q, WW, IW, W: read and ignored, as PostgreSQL does for most
        read_number(node, adjacent);
        return;
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
  size_t digits_ = 0;
  Parsed parsed_;
};

// PostgreSQL's adjust_partial_year_to_2020: a year written with fewer than four digits is
// the one nearest to 2020.
int64_t full_year(int64_t year, int64_t digits) {
  if (digits == 1) return year + 2000;
  if (digits == 2) return year + (year < 70 ? 2000 : 1900);
  if (digits == 3) return year + (year < 520 ? 2000 : 1000);
  return year;
}

int64_t parse_with_template(std::string_view text, std::string_view format) {
  Parsed p = TemplateReader(text).read(parse_template(format));
  auto out_of_range = [&] {
    throw Error("date/time field value out of range: \"" + std::string(text) + "\"");
  };
  int64_t year = p.year >= 0 ? full_year(p.year, p.year_digits)
                 : p.century > 0 ? (p.century - 1) * 100 + 1
                                 : 1;
  if (year == 0 || year > 294276) out_of_range();
  if (p.before_christ) year = 1 - year;
  if (p.twelve_hour || p.meridiem >= 0) {
    if (p.hour < 1 || p.hour > 12)
      throw Error("hour \"" + std::to_string(p.hour) + "\" is invalid for the 12-hour clock");
    if (p.meridiem == 1 && p.hour < 12) p.hour += 12;
    if (p.meridiem == 0 && p.hour == 12) p.hour = 0;
  }
  int64_t days;
  if (p.day_of_year > 0 && p.month < 0 && p.day < 0) {
    if (p.day_of_year > (is_leap_year(static_cast<int32_t>(year)) ? 366 : 365)) out_of_range();
    days = days_from_civil(static_cast<int32_t>(year), 1, 1) + p.day_of_year - 1;
  } else {
    int64_t month = p.month < 0 ? 1 : p.month, day = p.day < 0 ? 1 : p.day;
    if (month < 1 || month > 12 || day < 1 ||
        day > days_in_month(static_cast<int32_t>(year), static_cast<uint32_t>(month)))
      out_of_range();
    days = days_from_civil(static_cast<int32_t>(year), static_cast<uint32_t>(month),
                           static_cast<uint32_t>(day));
  }
  if (p.hour < 0 || p.hour > 24 || p.minute < 0 || p.minute > 59 || p.second < 0 ||
      p.second > 60)
    out_of_range();
  return days * kMicrosPerDay + p.hour * kMicrosPerHour + p.minute * kMicrosPerMinute +
         p.second * kMicrosPerSecond + p.micros;
}

}  // namespace

std::string to_char(int64_t micros, std::string_view format) {
  Moment moment = moment_of(micros);
  std::string out;
  for (const Node& node : parse_template(format))
    out += node.keyword ? format_node(node, moment) : node.literal;
  return out;
}

int32_t to_date(std::string_view text, std::string_view format) {
  return static_cast<int32_t>(floor_div(parse_with_template(text, format), kMicrosPerDay));
}

int64_t to_timestamp(std::string_view text, std::string_view format) {
  return parse_with_template(text, format);
}

}  // namespace floe
