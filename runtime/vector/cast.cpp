#include "runtime/vector/cast.h"

#include <cmath>
#include <string>

#include "runtime/abi_support.h"
#include "runtime/runtime_abi.h"
#include "runtime/vector/primitives.h"
#include "storage/date_time.h"
#include "storage/decimal.h"
#include "storage/error.h"
#include "storage/numeric_casts.h"

namespace floe::vectorized {
namespace {

// A failure already recorded with the worker (by a runtime_abi.h function).
constexpr const char* kRecorded = "";

struct Context {
  WorkerContext& worker;
  const uint32_t* sel;
  uint32_t n;
};

// For each row: `convert(in, out)` returns null, or the failure's message (kRecorded when the
// runtime recorded it). Stops at the first failing row, which is the first in row order.
template <typename In, typename Out, typename F>
bool convert_rows(const Context& c, const Vector& in, Vector& out, F&& convert) {
  const In* values = in.values<In>();
  Out* results = out.mutable_values<Out>();
  for (uint32_t i = 0; i < c.n; ++i) {
    uint32_t p = c.sel ? c.sel[i] : i;
    if (const char* failure = convert(values[p], results[p])) {
      if (failure != kRecorded) c.worker.query->fail(failure);
      return false;
    }
  }
  return true;
}

// Integer-like (boolean, integer, decimal) to integer-like through int128 with
// `f(value, out) -> failure`, a numeric_casts.h cast.
template <typename Wide, typename F>
bool integral_to_integral(const Context& c, const Vector& in, Vector& out, F&& f) {
  return visit_integral(in.physical(), [&](auto source) {
    return visit_integral(out.physical(), [&](auto target) {
      using In = decltype(source);
      using Out = decltype(target);
      return convert_rows<In, Out>(c, in, out, [&](In value, Out& result) -> const char* {
        Wide converted{};
        if (const char* failure = f(int128_t{value}, converted)) return failure;
        result = static_cast<Out>(converted);
        return nullptr;
      });
    });
  });
}

bool to_integer(const Context& c, const Vector& in, Vector& out) {
  TypeId to = out.type().id;
  switch (cast_family(in.type())) {
    case CastFamily::kBool:
    case CastFamily::kInteger:
      return integral_to_integral<int64_t>(c, in, out, [&](int128_t v, int64_t& r) {
        return integer_to_integer(v, to, r);
      });
    case CastFamily::kDecimal: {
      unsigned scale = in.type().scale;
      return integral_to_integral<int64_t>(c, in, out, [&](int128_t v, int64_t& r) {
        return decimal_to_integer(v, scale, to, r);
      });
    }
    case CastFamily::kDouble:
      return visit_integral(out.physical(), [&](auto target) {
        using Out = decltype(target);
        return convert_rows<double, Out>(c, in, out, [&](double v, Out& result) -> const char* {
          int64_t converted = 0;
          if (const char* failure = double_to_integer(v, to, converted)) return failure;
          result = static_cast<Out>(converted);
          return nullptr;
        });
      });
    default:
      return false;
  }
}

bool to_decimal(const Context& c, const Vector& in, Vector& out) {
  const SqlType& to = out.type();
  if (in.type().id == TypeId::kDouble) {
    return visit_integral(out.physical(), [&](auto target) {
      using Out = decltype(target);
      return convert_rows<double, Out>(c, in, out, [&](double v, Out& result) -> const char* {
        int128_t converted = 0;
        if (const char* failure = double_to_decimal(v, to.precision, to.scale, converted))
          return failure;
        result = static_cast<Out>(converted);
        return nullptr;
      });
    });
  }
  unsigned scale = in.type().id == TypeId::kDecimal ? in.type().scale : 0;
  return integral_to_integral<int128_t>(c, in, out, [&](int128_t v, int128_t& r) {
    return decimal_to_decimal(v, scale, to.precision, to.scale, r);
  });
}

// Text output of one present value, in PostgreSQL's format (runtime_abi.h).
template <typename T>
FloeString text_of(WorkerContext* worker, const SqlType& type, const T& value) {
  if constexpr (std::is_same_v<T, double>) {
    return floe_rt_cast_double_to_string(worker, value);
  } else if constexpr (std::is_same_v<T, Interval>) {
    return floe_rt_cast_interval_to_string(worker, value.months, value.days, value.micros);
  } else if constexpr (std::is_same_v<T, StringRef>) {
    return to_floe_string(value);
  } else {
    switch (cast_family(type)) {
      case CastFamily::kBool:
        return floe_rt_cast_bool_to_string(worker, value != 0);
      case CastFamily::kDecimal:
        return floe_rt_cast_decimal_to_string(worker, static_cast<int128_t>(value), type.scale);
      case CastFamily::kDate:
        return floe_rt_cast_date_to_string(worker, static_cast<int32_t>(value));
      case CastFamily::kTimestamp:
        return floe_rt_cast_timestamp_to_string(worker, static_cast<int64_t>(value));
      default:
        return floe_rt_cast_int64_to_string(worker, static_cast<int64_t>(value));
    }
  }
}

// An explicit cast's CHAR(n)/VARCHAR(n) rule (codegen's string_to_string).
FloeString fit_text(FloeString text, const SqlType& from, const SqlType& to) {
  bool unbounded = to.length == 0 && (to.id == TypeId::kVarchar || to.id == from.id);
  if (to.id == TypeId::kText || unbounded) return text;
  return floe_rt_cast_string_to_string(text.lo, text.hi, to.length, to.id == TypeId::kChar);
}

bool to_text(const Context& c, const Vector& in, Vector& out) {
  const SqlType& from = in.type();
  const SqlType& to = out.type();
  SqlType text_type = cast_family(from) == CastFamily::kString ? from : SqlType::text();
  return visit_physical(in.physical(), [&](auto source) {
    using In = decltype(source);
    return convert_rows<In, StringRef>(c, in, out, [&](const In& value, StringRef& result) {
      FloeString text = text_of(&c.worker, from, value);
      result = std::bit_cast<StringRef>(fit_text(text, text_type, to));
      return static_cast<const char*>(nullptr);
    });
  });
}

bool from_text(const Context& c, const Vector& in, Vector& out) {
  const SqlType& to = out.type();
  WorkerContext* w = &c.worker;
  auto parse = [&](auto target, auto&& parse_one) {
    using Out = decltype(target);
    return convert_rows<StringRef, Out>(c, in, out, [&](const StringRef& s, Out& result) {
      FloeString text = to_floe_string(s);
      return parse_one(text.lo, text.hi, result) ? nullptr : kRecorded;
    });
  };
  switch (cast_family(to)) {
    case CastFamily::kBool:
      return parse(uint8_t{}, [&](uint64_t lo, uint64_t hi, uint8_t& r) {
        bool b;
        if (!floe_rt_cast_string_to_bool(w, lo, hi, &b)) return false;
        r = b;
        return true;
      });
    case CastFamily::kInteger:
      return visit_integral(out.physical(), [&](auto target) {
        using Out = decltype(target);
        return parse(target, [&](uint64_t lo, uint64_t hi, Out& r) {
          int64_t v;
          if (!floe_rt_cast_string_to_integer(w, lo, hi, static_cast<uint32_t>(to.id), &v))
            return false;
          r = static_cast<Out>(v);
          return true;
        });
      });
    case CastFamily::kDecimal:
      return visit_integral(out.physical(), [&](auto target) {
        using Out = decltype(target);
        return parse(target, [&](uint64_t lo, uint64_t hi, Out& r) {
          int128_t v;
          if (!floe_rt_cast_string_to_decimal(w, lo, hi, to.precision, to.scale, &v)) return false;
          r = static_cast<Out>(v);
          return true;
        });
      });
    case CastFamily::kDouble:
      return parse(double{}, [&](uint64_t lo, uint64_t hi, double& r) {
        return floe_rt_cast_string_to_double(w, lo, hi, &r);
      });
    case CastFamily::kDate:
      return parse(int32_t{}, [&](uint64_t lo, uint64_t hi, int32_t& r) {
        return floe_rt_cast_string_to_date(w, lo, hi, &r);
      });
    case CastFamily::kTimestamp:
      return parse(int64_t{}, [&](uint64_t lo, uint64_t hi, int64_t& r) {
        return floe_rt_cast_string_to_timestamp(w, lo, hi, &r);
      });
    case CastFamily::kInterval:
      return parse(Interval{}, [&](uint64_t lo, uint64_t hi, Interval& r) {
        return floe_rt_cast_string_to_interval(w, lo, hi, &r);
      });
    case CastFamily::kString:
      return parse(StringRef{}, [&](uint64_t lo, uint64_t hi, StringRef& r) {
        r = std::bit_cast<StringRef>(fit_text(FloeString{lo, hi}, in.type(), to));
        return true;
      });
  }
  return false;
}

}  // namespace

bool can_cast(const SqlType& from, const SqlType& to) {
  if (from == to) return true;
  CastFamily source = cast_family(from), target = cast_family(to);
  if (source == CastFamily::kString || target == CastFamily::kString) return true;
  switch (source) {
    case CastFamily::kBool:
      return target == CastFamily::kInteger;
    case CastFamily::kInteger:
      return target == CastFamily::kBool || target == CastFamily::kInteger || target == CastFamily::kDecimal ||
             target == CastFamily::kDouble;
    case CastFamily::kDecimal:
    case CastFamily::kDouble:
      return target == CastFamily::kInteger || target == CastFamily::kDecimal || target == CastFamily::kDouble;
    case CastFamily::kDate:
      return target == CastFamily::kTimestamp;
    case CastFamily::kTimestamp:
      return target == CastFamily::kDate;
    default:
      return false;
  }
}

bool cast_vector(const Vector& in, Vector& out, const uint32_t* sel, uint32_t n,
                 WorkerContext& worker) {
  const SqlType& from = in.type();
  const SqlType& to = out.type();
  if (!can_cast(from, to))
    throw NotSupported("cast from " + from.to_string() + " to " + to.to_string());
  Context c{worker, sel, n};
  if (from == to) {
    visit_physical(from.physical(), [&](auto t) {
      using T = decltype(t);
      copy_rows(in.values<T>(), out.mutable_values<T>(), sel, n);
    });
    return true;
  }
  CastFamily source = cast_family(from), target = cast_family(to);
  if (source == CastFamily::kString) return from_text(c, in, out);
  if (target == CastFamily::kString) return to_text(c, in, out);
  switch (target) {
    case CastFamily::kBool:  // from an integer
      return integral_to_integral<bool>(c, in, out, [](int128_t v, bool& r) -> const char* {
        r = integer_to_bool(v);
        return nullptr;
      });
    case CastFamily::kInteger:
      return to_integer(c, in, out);
    case CastFamily::kDecimal:
      return to_decimal(c, in, out);
    case CastFamily::kDouble: {
      unsigned scale = source == CastFamily::kDecimal ? from.scale : 0;
      return visit_integral(in.physical(), [&](auto source_value) {
        using In = decltype(source_value);
        return convert_rows<In, double>(c, in, out, [&](In v, double& r) -> const char* {
          r = source == CastFamily::kDecimal ? decimal_to_double(v, scale) : static_cast<double>(v);
          return nullptr;
        });
      });
    }
    case CastFamily::kTimestamp:  // from a date
      return convert_rows<int32_t, int64_t>(c, in, out, [](int32_t days, int64_t& r) {
        return date_to_timestamp(days, r);
      });
    case CastFamily::kDate:  // from a timestamp
      return convert_rows<int64_t, int32_t>(c, in, out, [](int64_t micros, int32_t& r) {
        r = timestamp_to_date(micros);
        return static_cast<const char*>(nullptr);
      });
    default:
      break;
  }
  throw NotSupported("cast from " + from.to_string() + " to " + to.to_string());
}

}  // namespace floe::vectorized
