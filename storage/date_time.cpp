#include "storage/date_time.h"

#include <cstdio>

#include "storage/error.h"

namespace floe {

// Howard Hinnant's civil-calendar algorithms (public domain description of the arithmetic).
int32_t days_from_civil(int32_t year, uint32_t month, uint32_t day) {
  year -= month <= 2;
  const int32_t era = (year >= 0 ? year : year - 399) / 400;
  const uint32_t year_of_era = static_cast<uint32_t>(year - era * 400);
  const uint32_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const uint32_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + static_cast<int32_t>(day_of_era) - 719468;
}

void civil_from_days(int32_t days, int32_t& year, uint32_t& month, uint32_t& day) {
  days += 719468;
  const int32_t era = (days >= 0 ? days : days - 146096) / 146097;
  const uint32_t day_of_era = static_cast<uint32_t>(days - era * 146097);
  const uint32_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const uint32_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const uint32_t mp = (5 * day_of_year + 2) / 153;
  day = day_of_year - (153 * mp + 2) / 5 + 1;
  month = mp < 10 ? mp + 3 : mp - 9;
  year = static_cast<int32_t>(year_of_era) + era * 400 + (month <= 2);
}

namespace {

bool is_leap(int32_t year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

uint32_t days_in_month(int32_t year, uint32_t month) {
  static constexpr uint32_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap(year) ? 29 : kDays[month - 1];
}

// Reads an unsigned decimal number of 1..max_digits digits at text[pos].
bool read_number(std::string_view text, size_t& pos, size_t max_digits, int64_t& out) {
  size_t start = pos;
  out = 0;
  while (pos < text.size() && pos - start < max_digits && text[pos] >= '0' && text[pos] <= '9') {
    out = out * 10 + (text[pos] - '0');
    ++pos;
  }
  return pos > start;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

DateParseResult parse_date_prefix(std::string_view text, size_t& pos, int32_t& days) {
  int64_t year, month, day;
  bool negative_year = false;
  if (pos < text.size() && text[pos] == '-') {
    negative_year = true;
    ++pos;
  }
  if (!read_number(text, pos, 6, year) || pos >= text.size() || text[pos++] != '-')
    return DateParseResult::kSyntax;
  if (!read_number(text, pos, 2, month) || pos >= text.size() || text[pos++] != '-')
    return DateParseResult::kSyntax;
  if (!read_number(text, pos, 2, day)) return DateParseResult::kSyntax;
  if (negative_year) year = -year;
  if (month < 1 || month > 12 || day < 1 ||
      day > days_in_month(static_cast<int32_t>(year), static_cast<uint32_t>(month)))
    return DateParseResult::kOutOfRange;
  days = days_from_civil(static_cast<int32_t>(year), static_cast<uint32_t>(month),
                         static_cast<uint32_t>(day));
  return DateParseResult::kOk;
}

}  // namespace

DateParseResult parse_date(std::string_view text, int32_t& days) {
  std::string_view trimmed = trim(text);
  size_t pos = 0;
  DateParseResult result = parse_date_prefix(trimmed, pos, days);
  if (result == DateParseResult::kOk && pos != trimmed.size()) return DateParseResult::kSyntax;
  return result;
}

std::optional<int32_t> try_parse_date(std::string_view text) {
  int32_t days;
  if (parse_date(text, days) != DateParseResult::kOk) return std::nullopt;
  return days;
}

int32_t parse_date(std::string_view text) {
  int32_t days;
  switch (parse_date(text, days)) {
    case DateParseResult::kOk: return days;
    case DateParseResult::kOutOfRange:
      throw Error("date/time field value out of range: \"" + std::string(text) + "\"");
    case DateParseResult::kSyntax: break;
  }
  throw Error("invalid input syntax for type date: \"" + std::string(text) + "\"");
}

std::string format_date(int32_t days) {
  int32_t year;
  uint32_t month, day;
  civil_from_days(days, year, month, day);
  char buffer[32];
  if (year > 0) {
    std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02u", year, month, day);
  } else {  // PostgreSQL prints years before 1 AD with a BC suffix
    std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02u BC", 1 - year, month, day);
  }
  return buffer;
}

std::optional<int64_t> try_parse_timestamp(std::string_view text) {
  text = trim(text);
  size_t pos = 0;
  int32_t days;
  if (parse_date_prefix(text, pos, days) != DateParseResult::kOk) return std::nullopt;
  int64_t micros = days * kMicrosPerDay;
  if (pos == text.size()) return micros;
  if (text[pos] != ' ' && text[pos] != 'T') return std::nullopt;
  ++pos;
  int64_t hour, minute, second = 0;
  if (!read_number(text, pos, 2, hour) || pos >= text.size() || text[pos++] != ':')
    return std::nullopt;
  if (!read_number(text, pos, 2, minute)) return std::nullopt;
  if (pos < text.size() && text[pos] == ':') {
    ++pos;
    if (!read_number(text, pos, 2, second)) return std::nullopt;
  }
  int64_t fraction = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    int64_t digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (digits < 6) fraction = fraction * 10 + (text[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0) return std::nullopt;
    for (; digits < 6; ++digits) fraction *= 10;
  }
  if (pos != text.size() || hour > 24 || minute > 59 || second > 60) return std::nullopt;
  return micros + ((hour * 60 + minute) * 60 + second) * kMicrosPerSecond + fraction;
}

int64_t parse_timestamp(std::string_view text) {
  auto micros = try_parse_timestamp(text);
  if (!micros)
    throw Error("invalid input syntax for type timestamp: \"" + std::string(text) + "\"");
  return *micros;
}

namespace {
int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }
}  // namespace

std::string format_timestamp(int64_t micros) {
  int64_t days = floor_div(micros, kMicrosPerDay);
  int64_t rest = micros - days * kMicrosPerDay;
  std::string out = format_date(static_cast<int32_t>(days));
  int64_t seconds = rest / kMicrosPerSecond;
  int64_t fraction = rest % kMicrosPerSecond;
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, " %02lld:%02lld:%02lld", static_cast<long long>(seconds / 3600),
                static_cast<long long>(seconds / 60 % 60), static_cast<long long>(seconds % 60));
  out += buffer;
  if (fraction) {
    std::snprintf(buffer, sizeof buffer, ".%06lld", static_cast<long long>(fraction));
    std::string digits = buffer;
    while (digits.back() == '0') digits.pop_back();
    out += digits;
  }
  return out;
}

int32_t add_interval_to_date(int32_t days, const Interval& interval) {
  if (interval.months != 0) {
    int32_t year;
    uint32_t month, day;
    civil_from_days(days, year, month, day);
    int64_t total = static_cast<int64_t>(year) * 12 + (month - 1) + interval.months;
    year = static_cast<int32_t>(floor_div(total, 12));
    month = static_cast<uint32_t>(total - static_cast<int64_t>(year) * 12 + 1);
    day = std::min(day, days_in_month(year, month));
    days = days_from_civil(year, month, day);
  }
  return days + interval.days;
}

int64_t add_interval_to_timestamp(int64_t micros, const Interval& interval) {
  int64_t days = floor_div(micros, kMicrosPerDay);
  int64_t time_of_day = micros - days * kMicrosPerDay;
  int32_t shifted = add_interval_to_date(static_cast<int32_t>(days), interval);
  return shifted * kMicrosPerDay + time_of_day + interval.micros;
}

std::optional<DatePart> parse_date_part(std::string_view name) {
  std::string lower;
  for (char c : name) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  if (lower == "year" || lower == "years") return DatePart::kYear;
  if (lower == "quarter") return DatePart::kQuarter;
  if (lower == "month" || lower == "months") return DatePart::kMonth;
  if (lower == "day" || lower == "days") return DatePart::kDay;
  if (lower == "dow") return DatePart::kDayOfWeek;
  if (lower == "doy") return DatePart::kDayOfYear;
  if (lower == "hour" || lower == "hours") return DatePart::kHour;
  if (lower == "minute" || lower == "minutes") return DatePart::kMinute;
  if (lower == "second" || lower == "seconds") return DatePart::kSecond;
  if (lower == "epoch") return DatePart::kEpoch;
  return std::nullopt;
}

int64_t extract_from_date(DatePart part, int32_t days) {
  return extract_from_timestamp(part, days * kMicrosPerDay);
}

int64_t extract_from_timestamp(DatePart part, int64_t micros) {
  int64_t days = floor_div(micros, kMicrosPerDay);
  int64_t time_of_day = micros - days * kMicrosPerDay;
  int32_t year;
  uint32_t month, day;
  civil_from_days(static_cast<int32_t>(days), year, month, day);
  switch (part) {
    case DatePart::kYear: return year;
    case DatePart::kQuarter: return (month - 1) / 3 + 1;
    case DatePart::kMonth: return month;
    case DatePart::kDay: return day;
    case DatePart::kDayOfWeek: return ((days % 7) + 7 + 4) % 7;  // 1970-01-01 was a Thursday
    case DatePart::kDayOfYear:
      return days - days_from_civil(year, 1, 1) + 1;
    case DatePart::kHour: return time_of_day / (3600 * kMicrosPerSecond);
    case DatePart::kMinute: return time_of_day / (60 * kMicrosPerSecond) % 60;
    case DatePart::kSecond: return time_of_day / kMicrosPerSecond % 60;
    case DatePart::kEpoch: return floor_div(micros, kMicrosPerSecond);
  }
  return 0;
}

}  // namespace floe
