// generate_series as a set-returning function (runtime/table_function.h): one call per row of
// its input, for arguments that read other FROM items (LATERAL). Constant arguments run as a
// morsel-parallel leaf instead (codegen/series_translator.cpp); both take their semantics
// from runtime/series.h.
#include <optional>

#include "runtime/function_adapter.h"
#include "runtime/functions/function_families.h"
#include "runtime/series.h"
#include "runtime/table_function.h"

namespace floe {

namespace {

enum class SeriesKind { kInteger, kNumeric, kTimestamp };

// start, start + step, ... over integers, numerics (scaled integers of the arguments' common
// scale) or timestamps with an interval step: one without months as microseconds, one with
// months by calendar (CalendarSeries). Strict: a NULL argument gives no rows.
template <SeriesKind kKind>
class GenerateSeries final : public TableFunctionCursor {
 public:
  explicit GenerateSeries(std::span<const FunctionSlot> arguments) {
    if (any_null_argument(arguments)) return;
    start_ = read(arguments[0]);
    if constexpr (kKind == SeriesKind::kNumeric) {
      scale_ = function_adapter::read<Decimal>(arguments[0]).scale;
    }
    if constexpr (kKind == SeriesKind::kTimestamp) {
      const auto step = function_adapter::read<Interval>(arguments[2]);
      auto linear = linear_step(Value::interval(step));
      if (!linear) {
        calendar_.emplace(static_cast<int64_t>(start_), read(arguments[1]), step);
        return;
      }
      step_ = *linear;
    } else {
      step_ = read(arguments[2]);
    }
    remaining_ = series_length(start_, read(arguments[1]), step_);
  }

  bool next(StringHeap&, FunctionSlot& value) override {
    if (calendar_) {
      std::optional<int64_t> timestamp = calendar_->next();
      if (!timestamp) return false;
      start_ = *timestamp;
    } else if (remaining_ == 0) {
      return false;
    }
    value.bytes[kFunctionSlotNullOffset] = 0;
    if constexpr (kKind == SeriesKind::kNumeric)
      function_adapter::write(value, Decimal{start_, scale_});
    else
      function_adapter::write(value, static_cast<int64_t>(start_));
    // Not past the last value: a numeric's scaled integer could overflow there.
    if (!calendar_ && --remaining_ > 0) start_ += step_;
    return true;
  }

 private:
  static int128_t read(const FunctionSlot& slot) {
    if constexpr (kKind == SeriesKind::kNumeric) return function_adapter::read<Decimal>(slot).value;
    return function_adapter::read<int64_t>(slot);
  }

  int128_t start_ = 0, step_ = 0;
  uint64_t remaining_ = 0;
  int32_t scale_ = 0;
  std::optional<CalendarSeries> calendar_;
};

}  // namespace

void register_series_functions(TableFunctionRegistry& r) {
  // The result type is the binder's: the arguments' common type (generate_series over
  // numeric(p, s) gives numeric(p, s)).
  constexpr TypeId kTimestamp = TypeId::kTimestamp;
  for (TypeId type : {TypeId::kInteger, TypeId::kBigInt})
    r.add({"generate_series",
           {type, type, type},
           SqlType{type},
           open_cursor<GenerateSeries<SeriesKind::kInteger>>});
  r.add({"generate_series",
         {TypeId::kDecimal, TypeId::kDecimal, TypeId::kDecimal},
         SqlType{TypeId::kDecimal},
         open_cursor<GenerateSeries<SeriesKind::kNumeric>>});
  r.add({"generate_series",
         {kTimestamp, kTimestamp, TypeId::kInterval},
         SqlType::timestamp(),
         open_cursor<GenerateSeries<SeriesKind::kTimestamp>>});
}

}  // namespace floe
