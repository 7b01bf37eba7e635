#include "storage/date_time.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

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

bool is_leap_year(int32_t year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

uint32_t days_in_month(int32_t year, uint32_t month) {
  static constexpr uint32_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap_year(year) ? 29 : kDays[month - 1];
}

namespace {

// "YYYY-MM-DD" and whether the year is before 1 AD, which PostgreSQL marks with a BC suffix
// after the whole value.
bool format_day(int32_t days, std::string& out) {
  int32_t year;
  uint32_t month, day;
  civil_from_days(days, year, month, day);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02u", year > 0 ? year : 1 - year, month, day);
  out += buffer;
  return year <= 0;
}

}  // namespace

std::string format_date(int32_t days) {
  std::string out;
  if (format_day(days, out)) out += " BC";
  return out;
}

std::string format_timestamp(int64_t micros) {
  int64_t days = floor_div(micros, kMicrosPerDay);
  int64_t rest = micros - days * kMicrosPerDay;
  std::string out;
  bool before_christ = format_day(static_cast<int32_t>(days), out);
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
  if (before_christ) out += " BC";
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

int64_t current_timestamp_micros() {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration_cast<std::chrono::microseconds>(now).count();
}

}  // namespace floe
