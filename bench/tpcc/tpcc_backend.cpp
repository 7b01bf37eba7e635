#include "bench/tpcc/tpcc_backend.h"

#include "bench/tpcc/floe_backend.h"
#include "bench/tpcc/sqlite_backend.h"

namespace floe::tpcc {

int64_t as_int(const Field& field) {
  if (const auto* real = std::get_if<double>(&field)) return static_cast<int64_t>(*real);
  return std::get<int64_t>(field);
}

double as_double(const Field& field) {
  if (const auto* integer = std::get_if<int64_t>(&field)) return static_cast<double>(*integer);
  return std::get<double>(field);
}

const std::string& as_string(const Field& field) {
  return std::get<std::string>(field);
}

const char* freeze_mode_name(FreezeMode mode) {
  switch (mode) {
    case FreezeMode::kAuto:
      return "auto";
    case FreezeMode::kNever:
      return "never";
    case FreezeMode::kCold:
      return "cold";
  }
  return "";
}

std::unique_ptr<Backend> make_backend(Engine engine, Api api) {
  if (engine == Engine::kSqlite) {
    if (api == Api::kRecord) throw DriverError("--api record: SQLite has no record-level API; use --api sql");
    return make_sqlite_backend();
  }
  return api == Api::kRecord ? make_floe_record_backend() : make_floe_sql_backend();
}

}  // namespace floe::tpcc
