#include "storage/interval.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

#include "storage/date_time.h"
#include "storage/decimal.h"
#include "storage/error.h"

namespace floe {
namespace {

constexpr double kDaysPerMonth = 30;
constexpr double kSecondsPerDay = 86400;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

[[noreturn]] void syntax_error(std::string_view text) {
  throw Error("invalid input syntax for type interval: \"" + std::string(text) + "\"");
}

// The fields while parsing, wide enough that no sum of in-range quantities overflows.
struct WideInterval {
  int128_t months = 0;
  int128_t days = 0;
  int128_t micros = 0;
};

// PostgreSQL's AdjustFractSeconds: `fraction` of a unit of `scale` seconds.
void add_fraction_seconds(WideInterval& fields, double fraction, double scale) {
  double seconds = fraction * scale;
  auto whole = static_cast<int64_t>(seconds);
  fields.micros += static_cast<int128_t>(whole) * kMicrosPerSecond +
                   static_cast<int64_t>(std::rint((seconds - static_cast<double>(whole)) * 1e6));
}

// PostgreSQL's AdjustFractDays: `fraction` of a unit of `scale` days.
void add_fraction_days(WideInterval& fields, double fraction, double scale) {
  double days = fraction * scale;
  auto whole = static_cast<int64_t>(days);
  fields.days += whole;
  add_fraction_seconds(fields, days - static_cast<double>(whole), kSecondsPerDay);
}

// whole + fraction (both carrying the quantity's sign) of `unit`, as DecodeInterval does.
bool add_quantity(WideInterval& fields, int128_t whole, double fraction, DatePart unit) {
  auto months_of = [&](int64_t per_unit) {
    fields.months += whole * per_unit +
                     static_cast<int64_t>(std::rint(fraction * static_cast<double>(per_unit)));
  };
  switch (unit) {
    case DatePart::kMicroseconds:
      fields.micros += whole + static_cast<int64_t>(std::rint(fraction));
      return true;
    case DatePart::kMilliseconds:
      fields.micros += whole * 1000 + static_cast<int64_t>(std::rint(fraction * 1000));
      return true;
    case DatePart::kSecond:
      fields.micros += whole * kMicrosPerSecond + static_cast<int64_t>(std::rint(fraction * 1e6));
      return true;
    case DatePart::kMinute:
      fields.micros += whole * kMicrosPerMinute;
      add_fraction_seconds(fields, fraction, 60);
      return true;
    case DatePart::kHour:
      fields.micros += whole * kMicrosPerHour;
      add_fraction_seconds(fields, fraction, 3600);
      return true;
    case DatePart::kDay:
      fields.days += whole;
      add_fraction_seconds(fields, fraction, kSecondsPerDay);
      return true;
    case DatePart::kWeek:
      fields.days += whole * 7;
      add_fraction_days(fields, fraction, 7);
      return true;
    case DatePart::kMonth:
      fields.months += whole;
      add_fraction_days(fields, fraction, kDaysPerMonth);
      return true;
    case DatePart::kYear:
      months_of(12);
      return true;
    case DatePart::kDecade:
      months_of(120);
      return true;
    case DatePart::kCentury:
      months_of(1200);
      return true;
    case DatePart::kMillennium:
      months_of(12000);
      return true;
    default:
      return false;
  }
}

// A signed decimal number at word[pos]: its whole part and its fraction, both signed.
bool read_number(std::string_view word, size_t& pos, int128_t& whole, double& fraction,
                 bool& has_fraction) {
  bool negative = false;
  if (pos < word.size() && (word[pos] == '-' || word[pos] == '+')) negative = word[pos++] == '-';
  size_t start = pos;
  whole = 0;
  while (pos < word.size() && is_digit(word[pos])) {
    if (pos - start >= 18) return false;
    whole = whole * 10 + (word[pos++] - '0');
  }
  size_t digits = pos - start;
  fraction = 0;
  has_fraction = pos < word.size() && word[pos] == '.';
  if (has_fraction) {
    size_t fraction_start = ++pos;
    while (pos < word.size() && is_digit(word[pos])) ++pos;
    digits += pos - fraction_start;
    if (pos > fraction_start)
      fraction = std::strtod(std::string(word.substr(fraction_start - 1, pos - fraction_start + 1))
                                 .c_str(),
                             nullptr);
  }
  if (negative) whole = -whole, fraction = -fraction;
  return digits > 0;
}

// "[-]H:M[:S[.f]]": the sign applies to every part.
bool add_time(WideInterval& fields, std::string_view word) {
  size_t pos = 0;
  bool negative = false;
  if (word[pos] == '-' || word[pos] == '+') negative = word[pos++] == '-';
  int128_t parts[3] = {0, 0, 0};
  int count = 0;
  double fraction = 0;
  while (true) {
    size_t start = pos;
    while (pos < word.size() && is_digit(word[pos]) && pos - start < 18)
      parts[count] = parts[count] * 10 + (word[pos++] - '0');
    if (pos == start) return false;
    ++count;
    if (pos < word.size() && word[pos] == ':' && count < 3) {
      ++pos;
      continue;
    }
    break;
  }
  if (count == 3 && pos < word.size() && word[pos] == '.') {
    size_t start = pos++;
    while (pos < word.size() && is_digit(word[pos])) ++pos;
    fraction = std::strtod(std::string(word.substr(start, pos - start)).c_str(), nullptr);
  }
  if (count < 2 || pos != word.size() || parts[1] > 59 || parts[2] > 60) return false;
  int128_t micros = parts[0] * kMicrosPerHour + parts[1] * kMicrosPerMinute +
                    parts[2] * kMicrosPerSecond + static_cast<int64_t>(std::rint(fraction * 1e6));
  fields.micros += negative ? -micros : micros;
  return true;
}

std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    size_t start = pos;
    while (pos < text.size() && !std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos > start) words.push_back(text.substr(start, pos - start));
  }
  return words;
}

bool is_word(std::string_view word) {
  return std::isalpha(static_cast<unsigned char>(word.front())) != 0;
}

bool equals_lower(std::string_view word, std::string_view lower) {
  if (word.size() != lower.size()) return false;
  for (size_t i = 0; i < word.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(word[i])) != lower[i]) return false;
  return true;
}

}  // namespace

Interval interval_from_unit(int64_t quantity, std::string_view unit) {
  WideInterval fields;
  auto part = parse_date_part(unit);
  if (!part || !add_quantity(fields, quantity, 0, *part))
    throw Error("invalid interval unit: \"" + std::string(unit) + "\"");
  return {static_cast<int32_t>(fields.months), static_cast<int32_t>(fields.days),
          static_cast<int64_t>(fields.micros)};
}

Interval parse_interval(std::string_view text) {
  std::vector<std::string_view> words = split_words(text);
  if (!words.empty() && words.front().front() == '@') {
    words.front().remove_prefix(1);
    if (words.front().empty()) words.erase(words.begin());
  }
  bool ago = !words.empty() && equals_lower(words.back(), "ago");
  if (ago) words.pop_back();
  if (words.empty()) syntax_error(text);
  WideInterval fields;
  // A number without a unit: days when a time follows, otherwise seconds.
  bool pending = false;
  int128_t pending_whole = 0;
  double pending_fraction = 0;
  for (size_t i = 0; i < words.size(); ++i) {
    std::string_view word = words[i];
    if (word.find(':') != std::string_view::npos) {
      if (!add_time(fields, word)) syntax_error(text);
      if (pending) {
        if (pending_fraction != 0) syntax_error(text);
        fields.days += pending_whole;
        pending = false;
      }
      continue;
    }
    if (is_word(word) || pending) syntax_error(text);
    size_t pos = 0;
    int128_t whole;
    double fraction;
    bool has_fraction;
    if (!read_number(word, pos, whole, fraction, has_fraction)) syntax_error(text);
    if (!has_fraction && pos + 1 < word.size() && word[pos] == '-' && is_digit(word[pos + 1])) {
      // SQL-standard year-month "Y-M"; the year's sign applies to both.
      int128_t month = 0;
      for (++pos; pos < word.size() && is_digit(word[pos]) && month < 1000000;)
        month = month * 10 + (word[pos++] - '0');
      if (pos != word.size() || month > 11) syntax_error(text);
      bool negative = word.front() == '-';
      fields.months += whole * 12 + (negative ? -month : month);
      continue;
    }
    std::string_view unit = word.substr(pos);
    if (unit.empty() && i + 1 < words.size() && is_word(words[i + 1])) unit = words[++i];
    if (unit.empty()) {
      pending = true;
      pending_whole = whole;
      pending_fraction = fraction;
      continue;
    }
    auto part = parse_date_part(unit);
    if (!part || !add_quantity(fields, whole, fraction, *part)) syntax_error(text);
  }
  if (pending) add_quantity(fields, pending_whole, pending_fraction, DatePart::kSecond);
  if (ago) fields = {-fields.months, -fields.days, -fields.micros};
  auto fits = [](int128_t value, auto limit) {
    return value >= std::numeric_limits<decltype(limit)>::min() &&
           value <= std::numeric_limits<decltype(limit)>::max();
  };
  if (!fits(fields.months, int32_t()) || !fits(fields.days, int32_t()) ||
      !fits(fields.micros, int64_t()))
    throw Error("interval field value out of range: \"" + std::string(text) + "\"");
  return {static_cast<int32_t>(fields.months), static_cast<int32_t>(fields.days),
          static_cast<int64_t>(fields.micros)};
}

// EncodeInterval with IntervalStyle "postgres": each nonzero field with its own sign; a
// positive field after a negative one gets a "+".
std::string format_interval(const Interval& interval) {
  std::string out;
  bool before_negative = false;
  auto append = [&](int64_t value, const char* unit) {
    if (value == 0) return;
    if (!out.empty()) out += ' ';
    if (before_negative && value > 0) out += '+';
    out += std::to_string(value) + ' ' + unit + (value == 1 ? "" : "s");
    before_negative = value < 0;
  };
  append(interval.months / 12, "year");
  append(interval.months % 12, "mon");
  append(interval.days, "day");
  if (interval.micros == 0 && !out.empty()) return out;
  bool negative = interval.micros < 0;
  // |micros| as unsigned so that INT64_MIN has a magnitude.
  uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(interval.micros)
                                : static_cast<uint64_t>(interval.micros);
  uint64_t seconds = magnitude / kMicrosPerSecond;
  uint64_t fraction = magnitude % kMicrosPerSecond;
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%s%s%02llu:%02llu:%02llu", out.empty() ? "" : " ",
                negative ? "-" : (before_negative ? "+" : ""),
                static_cast<unsigned long long>(seconds / 3600),
                static_cast<unsigned long long>(seconds / 60 % 60),
                static_cast<unsigned long long>(seconds % 60));
  out += buffer;
  if (fraction) {
    std::snprintf(buffer, sizeof buffer, ".%06llu", static_cast<unsigned long long>(fraction));
    std::string digits = buffer;
    while (digits.back() == '0') digits.pop_back();
    out += digits;
  }
  return out;
}

int compare_intervals(const Interval& a, const Interval& b) {
  __int128 x = interval_span(a), y = interval_span(b);
  return x < y ? -1 : (x > y ? 1 : 0);
}

Interval add_intervals(const Interval& a, const Interval& b, bool subtract) {
  Interval result;
  auto field = [subtract](auto x, auto y, auto& out) {
    bool overflow = subtract ? __builtin_sub_overflow(x, y, &out) : __builtin_add_overflow(x, y, &out);
    if (overflow) throw Error("interval out of range");
  };
  field(a.months, b.months, result.months);
  field(a.days, b.days, result.days);
  field(a.micros, b.micros, result.micros);
  return result;
}

Interval subtract_timestamps(int64_t a, int64_t b) {
  int64_t micros;
  if (__builtin_sub_overflow(a, b, &micros)) throw Error("interval out of range");
  return {0, static_cast<int32_t>(micros / kMicrosPerDay), micros % kMicrosPerDay};
}

namespace {

// interval_mul / interval_div of PostgreSQL 15: `scale` is x * factor or x / divisor.
template <typename Scale>
Interval scale_interval(const Interval& interval, Scale scale) {
  auto round_micro = [](double value) { return std::rint(value * 1e6) / 1e6; };  // TSROUND
  auto check = [](double value, double min, double max) {
    if (std::isnan(value) || value < min || value > max) throw Error("interval out of range");
  };
  double months = scale(static_cast<double>(interval.months));
  double days = scale(static_cast<double>(interval.days));
  check(months, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
  check(days, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
  Interval result;
  result.months = static_cast<int32_t>(months);
  result.days = static_cast<int32_t>(days);
  double month_remainder_days = round_micro((months - result.months) * kDaysPerMonth);
  double second_remainder = round_micro(
      (days - result.days + month_remainder_days - static_cast<int32_t>(month_remainder_days)) *
      kSecondsPerDay);
  if (std::fabs(second_remainder) >= kSecondsPerDay) {
    auto whole_days = static_cast<int32_t>(second_remainder / kSecondsPerDay);
    result.days += whole_days;
    second_remainder -= whole_days * kSecondsPerDay;
  }
  result.days += static_cast<int32_t>(month_remainder_days);
  double micros = std::rint(scale(static_cast<double>(interval.micros)) + second_remainder * 1e6);
  check(micros, -9223372036854775808.0, 9223372036854774784.0);
  result.micros = static_cast<int64_t>(micros);
  return result;
}

}  // namespace

Interval multiply_interval(const Interval& interval, double factor) {
  return scale_interval(interval, [factor](double x) { return x * factor; });
}

Interval divide_interval(const Interval& interval, double divisor) {
  if (divisor == 0) throw Error("division by zero");
  return scale_interval(interval, [divisor](double x) { return x / divisor; });
}

}  // namespace floe
