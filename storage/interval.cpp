#include "storage/interval.h"

#include <cctype>
#include <cstdio>

#include "storage/date_time.h"
#include "storage/error.h"

namespace floe {

Interval interval_from_unit(int64_t quantity, std::string_view unit) {
  std::string lower;
  for (char c : unit) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!lower.empty() && lower.back() == 's') lower.pop_back();
  Interval result;
  if (lower == "year") {
    result.months = static_cast<int32_t>(quantity * 12);
  } else if (lower == "mon" || lower == "month") {
    result.months = static_cast<int32_t>(quantity);
  } else if (lower == "week") {
    result.days = static_cast<int32_t>(quantity * 7);
  } else if (lower == "day") {
    result.days = static_cast<int32_t>(quantity);
  } else if (lower == "hour") {
    result.micros = quantity * 3600 * kMicrosPerSecond;
  } else if (lower == "minute" || lower == "min") {
    result.micros = quantity * 60 * kMicrosPerSecond;
  } else if (lower == "second" || lower == "sec") {
    result.micros = quantity * kMicrosPerSecond;
  } else {
    throw Error("invalid interval unit: \"" + std::string(unit) + "\"");
  }
  return result;
}

Interval parse_interval(std::string_view text) {
  Interval result;
  size_t pos = 0;
  auto skip_spaces = [&] {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  };
  skip_spaces();
  if (pos == text.size()) throw Error("invalid input syntax for type interval: \"\"");
  while (pos < text.size()) {
    bool negative = false;
    if (text[pos] == '-' || text[pos] == '+') negative = text[pos++] == '-';
    size_t start = pos;
    int64_t quantity = 0;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])))
      quantity = quantity * 10 + (text[pos++] - '0');
    if (pos == start)
      throw Error("invalid input syntax for type interval: \"" + std::string(text) + "\"");
    if (negative) quantity = -quantity;
    skip_spaces();
    size_t unit_start = pos;
    while (pos < text.size() && std::isalpha(static_cast<unsigned char>(text[pos]))) ++pos;
    std::string_view unit = text.substr(unit_start, pos - unit_start);
    Interval part = interval_from_unit(quantity, unit.empty() ? "second" : unit);
    result.months += part.months;
    result.days += part.days;
    result.micros += part.micros;
    skip_spaces();
  }
  return result;
}

std::string format_interval(const Interval& interval) {
  std::string out;
  auto append = [&](int64_t value, const char* singular, const char* plural) {
    if (value == 0) return;
    if (!out.empty()) out += ' ';
    out += std::to_string(value) + ' ' + (value == 1 || value == -1 ? singular : plural);
  };
  append(interval.months / 12, "year", "years");
  append(interval.months % 12, "mon", "mons");
  append(interval.days, "day", "days");
  if (interval.micros != 0 || out.empty()) {
    int64_t micros = interval.micros;
    bool negative = micros < 0;
    if (negative) micros = -micros;
    int64_t seconds = micros / kMicrosPerSecond;
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%s%02lld:%02lld:%02lld", negative ? "-" : "",
                  static_cast<long long>(seconds / 3600), static_cast<long long>(seconds / 60 % 60),
                  static_cast<long long>(seconds % 60));
    if (!out.empty()) out += ' ';
    out += buffer;
    if (micros % kMicrosPerSecond) {
      std::snprintf(buffer, sizeof buffer, ".%06lld", static_cast<long long>(micros % kMicrosPerSecond));
      std::string digits = buffer;
      while (digits.back() == '0') digits.pop_back();
      out += digits;
    }
  }
  return out;
}

int compare_intervals(const Interval& a, const Interval& b) {
  auto span = [](const Interval& i) {
    return (static_cast<__int128>(i.months) * 30 + i.days) * kMicrosPerDay + i.micros;
  };
  __int128 x = span(a), y = span(b);
  return x < y ? -1 : (x > y ? 1 : 0);
}

}  // namespace floe
