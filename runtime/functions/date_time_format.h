// to_char, to_date and to_timestamp with PostgreSQL's template patterns (formatting.c):
// YYYY YYY YY Y Y,YYY IYYY IYY IY, MM, Month MONTH month, Mon MON mon, DD, DDD, D, ID,
// Day DAY day, Dy DY dy, HH HH12 HH24, MI, SS, SSSS, MS, US, AM PM A.M. P.M. (either case),
// BC AD, Q, WW, IW, W, CC, J; the FM prefix (no padding), the TH/th suffix (ordinals),
// "quoted text" and backslash escapes. One template parser serves both directions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace floe {

// to_char(timestamp, template); a date is a timestamp at midnight.
std::string to_char(int64_t micros, std::string_view format);

// to_date(text, template) and to_timestamp(text, template) (PostgreSQL's timestamptz, here
// a timestamp). Throws floe::Error with PostgreSQL's messages: invalid value "x" for "MM",
// date/time field value out of range: "...".
int32_t to_date(std::string_view text, std::string_view format);
int64_t to_timestamp(std::string_view text, std::string_view format);

}  // namespace floe
