// runtime_abi.h: casts. Their semantics are storage's (parse_value, format_* and
// numeric_casts.h); this file only adapts them to the ABI and turns their errors into
// recorded query failures.
#include <charconv>

#include "runtime/abi_support.h"
#include "storage/date_time.h"
#include "storage/decimal.h"
#include "storage/numeric_casts.h"
#include "storage/value.h"

using floe::SqlType;
using floe::string_from_halves;
using floe::StringRef;
using floe::to_floe_string;
using floe::Value;
using floe::WorkerContext;

namespace {

// Parses the text as `type`; false (with the error recorded) when it is not valid input.
bool parse(WorkerContext* worker, uint64_t lo, uint64_t hi, SqlType type, Value& out) {
  return floe::record_failure(
      worker, [&] { out = floe::parse_value(string_from_halves(lo, hi).view(), type); });
}

// Records a numeric_casts.h failure; true when there is none.
bool succeeded(WorkerContext* worker, const char* failure) {
  if (failure) worker->query->fail(failure);
  return failure == nullptr;
}

floe::TypeId type_id(uint32_t id) { return static_cast<floe::TypeId>(id); }

FloeString store(WorkerContext* worker, std::string_view text) {
  return to_floe_string(worker->strings->store(text));
}

}  // namespace

extern "C" {

bool floe_rt_cast_string_to_integer(WorkerContext* worker, uint64_t lo, uint64_t hi,
                                    uint32_t to, int64_t* out) {
  Value value;
  if (!parse(worker, lo, hi, SqlType{type_id(to)}, value)) return false;
  *out = value.as_int64();
  return true;
}

bool floe_rt_cast_string_to_double(WorkerContext* worker, uint64_t lo, uint64_t hi, double* out) {
  Value value;
  if (!parse(worker, lo, hi, SqlType::double_type(), value)) return false;
  *out = value.as_double();
  return true;
}

bool floe_rt_cast_string_to_decimal(WorkerContext* worker, uint64_t lo, uint64_t hi,
                                    uint32_t precision, uint32_t scale, __int128* out) {
  Value value;
  SqlType type = SqlType::decimal(static_cast<uint8_t>(precision), static_cast<uint8_t>(scale));
  if (!parse(worker, lo, hi, type, value)) return false;
  *out = value.as_int128();
  return true;
}

bool floe_rt_cast_string_to_date(WorkerContext* worker, uint64_t lo, uint64_t hi, int32_t* out) {
  Value value;
  if (!parse(worker, lo, hi, SqlType::date(), value)) return false;
  *out = static_cast<int32_t>(value.as_int64());
  return true;
}

bool floe_rt_cast_string_to_timestamp(WorkerContext* worker, uint64_t lo, uint64_t hi,
                                      int64_t* out) {
  Value value;
  if (!parse(worker, lo, hi, SqlType::timestamp(), value)) return false;
  *out = value.as_int64();
  return true;
}

bool floe_rt_cast_string_to_bool(WorkerContext* worker, uint64_t lo, uint64_t hi, bool* out) {
  Value value;
  if (!parse(worker, lo, hi, SqlType::boolean(), value)) return false;
  *out = value.as_bool();
  return true;
}

FloeString floe_rt_cast_string_to_string(uint64_t lo, uint64_t hi, uint32_t max_length,
                                         bool is_char) {
  StringRef s = string_from_halves(lo, hi);
  SqlType type = is_char ? SqlType::char_type(max_length) : SqlType::varchar(max_length);
  // The result is a prefix of the input, so it shares the input's bytes (a result of more
  // than 12 bytes comes from a long input, whose bytes are out of line).
  size_t bytes = floe::fitted_string_bytes(s.view(), type, floe::CastKind::kExplicit);
  return to_floe_string(bytes == s.length ? s : StringRef::from(s.view().substr(0, bytes)));
}

FloeString floe_rt_cast_int64_to_string(WorkerContext* worker, int64_t value) {
  char buffer[24];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return store(worker, std::string_view(buffer, result.ptr - buffer));
}

FloeString floe_rt_cast_double_to_string(WorkerContext* worker, double value) {
  return store(worker, floe::format_double(value));
}

FloeString floe_rt_cast_decimal_to_string(WorkerContext* worker, __int128 value, uint32_t scale) {
  return store(worker, floe::format_decimal(value, scale));
}

FloeString floe_rt_cast_date_to_string(WorkerContext* worker, int32_t days) {
  return store(worker, floe::format_date(days));
}

FloeString floe_rt_cast_timestamp_to_string(WorkerContext* worker, int64_t micros) {
  return store(worker, floe::format_timestamp(micros));
}

// PostgreSQL's boolean-to-text cast spells the words out ('true'), unlike boolout's 't'.
FloeString floe_rt_cast_bool_to_string(WorkerContext* worker, bool value) {
  return store(worker, value ? "true" : "false");
}

bool floe_rt_cast_string_to_interval(WorkerContext* worker, uint64_t lo, uint64_t hi,
                                     floe::Interval* out) {
  Value value;
  if (!parse(worker, lo, hi, SqlType::interval(), value)) return false;
  *out = value.as_interval();
  return true;
}

FloeString floe_rt_cast_interval_to_string(WorkerContext* worker, int32_t months, int32_t days,
                                           int64_t micros) {
  return store(worker, floe::format_interval(floe::Interval{months, days, micros}));
}

bool floe_rt_cast_double_to_integer(WorkerContext* worker, double value, uint32_t to,
                                    int64_t* out) {
  return succeeded(worker, floe::double_to_integer(value, type_id(to), *out));
}

bool floe_rt_cast_decimal_to_integer(WorkerContext* worker, __int128 value, uint32_t scale,
                                     uint32_t to, int64_t* out) {
  return succeeded(worker, floe::decimal_to_integer(value, scale, type_id(to), *out));
}

double floe_rt_cast_decimal_to_double(__int128 value, uint32_t scale) {
  return floe::decimal_to_double(value, scale);
}

bool floe_rt_cast_double_to_decimal(WorkerContext* worker, double value, uint32_t precision,
                                    uint32_t scale, __int128* out) {
  return succeeded(worker, floe::double_to_decimal(value, precision, scale, *out));
}

bool floe_rt_cast_date_to_timestamp(WorkerContext* worker, int32_t days, int64_t* out) {
  return succeeded(worker, floe::date_to_timestamp(days, *out));
}

int32_t floe_rt_cast_timestamp_to_date(int64_t micros) { return floe::timestamp_to_date(micros); }

}  // extern "C"
