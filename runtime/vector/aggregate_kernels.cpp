#include "runtime/vector/aggregate_kernels.h"

#include <bit>
#include <cstring>
#include <type_traits>
#include <vector>

#include "runtime/aggregate_math.h"
#include "runtime/runtime_abi.h"
#include "runtime/vector/primitives.h"
#include "storage/decimal.h"
#include "storage/error.h"
#include "storage/physical_order.h"

namespace floe::vectorized {
namespace {

// The rows of sel[0..n) whose argument is present: the NULL check, once per vector.
// Returns the selection to loop over (`sel` itself when every value is present).
const uint32_t* present_rows(const Vector* argument, const uint32_t* sel, uint32_t& n,
                             std::vector<uint32_t>& buffer) {
  if (!argument || argument->all_valid()) return sel;
  buffer.resize(n);
  n = select_rows(sel, n, buffer.data(), [&](uint32_t p) { return argument->is_valid(p); });
  return buffer.data();
}

bool fail(WorkerContext& worker, const char* message) {
  worker.query->fail(message);
  return false;
}

// Calls f(S{}) for the C++ type of a sum (or avg sum, or variance accumulator).
template <typename F>
decltype(auto) visit_sum(PhysicalType type, F&& f) {
  switch (type) {
    case PhysicalType::kInt64:
      return f(int64_t{});
    case PhysicalType::kInt128:
      return f(int128_t{});
    case PhysicalType::kDouble:
      break;
    default:
      throw Error("internal error: aggregate state of an unexpected type");
  }
  return f(double{});
}

// Whether values of A are added into sums of S (integers into integers, doubles into
// doubles): the other combinations are never instantiated.
template <typename A, typename S>
constexpr bool kAddable =
    std::is_same_v<A, double> == std::is_same_v<S, double> && !std::is_same_v<A, Interval> &&
    !std::is_same_v<A, StringRef> && sizeof(A) <= sizeof(S);

// sum += value for integers with the overflow flag, for doubles without.
template <typename S>
bool add_checked(S& sum, S value) {
  if constexpr (std::is_same_v<S, double>) {
    sum += value;
    return false;
  } else {
    return __builtin_add_overflow(sum, value, &sum);
  }
}

// Adds the argument of each row to its row's sum (and counts it: avg, or flags it: sum);
// true when an exact sum overflowed.
bool add_to_sums(const StateKernel& kernel, const Vector& argument, const uint32_t* sel, uint32_t n,
                 uint8_t* const* rows) {
  return visit_physical(argument.physical(), [&](auto a) {
    using A = decltype(a);
    return visit_sum(kernel.value.type, [&](auto s) {
      using S = decltype(s);
      if constexpr (kAddable<A, S>) {
        const A* values = argument.values<A>();
        bool overflow = false;
        bool avg = kernel.kind == StateKind::kAvg;
        for_each_row(sel, n, [&](uint32_t p) {
          uint8_t* row = rows[p];
          S sum = kernel.value.load<S>(row);
          overflow |= add_checked(sum, static_cast<S>(values[p]));
          kernel.value.store(row, sum);
          if (avg) {
            kernel.extra.store(row, kernel.extra.load<int64_t>(row) + 1);
          } else {
            row[kernel.extra.offset] = 1;
          }
        });
        return overflow;
      } else {
        throw Error("internal error: sum of an unexpected type");
        return false;
      }
    });
  });
}

// Replaces each row's extreme by its argument when that is smaller (min) / larger (max).
// Strings are not copied: they must live as long as the query's strings (a table's, or the
// worker's heap), as in generated code.
void take_extremes(const StateKernel& kernel, const Vector& argument, const uint32_t* sel,
                   uint32_t n, uint8_t* const* rows) {
  bool smaller = kernel.kind == StateKind::kMin;
  visit_physical(argument.physical(), [&](auto t) {
    using T = decltype(t);
    const T* values = argument.values<T>();
    for_each_row(sel, n, [&](uint32_t p) {
      uint8_t* row = rows[p];
      bool has = row[kernel.extra.offset] != 0;
      // The stored value is zeroed while `has` is false, so comparing it is safe.
      int order = sql_compare(values[p], kernel.value.load<T>(row));
      if (!has || (smaller ? order < 0 : order > 0)) kernel.value.store(row, values[p]);
      row[kernel.extra.offset] = 1;
    });
  });
}

template <typename State, typename Number>
State load_variance(const StateKernel& kernel, const uint8_t* row) {
  return State{kernel.value.load<int64_t>(row), kernel.extra.load<Number>(row),
               kernel.squares.load<Number>(row)};
}

template <typename State>
void store_variance(const StateKernel& kernel, uint8_t* row, const State& state) {
  kernel.value.store(row, state.count);
  kernel.extra.store(row, state.sum);
  kernel.squares.store(row, state.squares);
}

// runtime/aggregate_math.h's accumulators; true when an exact one overflowed.
bool add_to_variances(const StateKernel& kernel, const Vector& argument, const uint32_t* sel,
                      uint32_t n, uint8_t* const* rows) {
  return visit_physical(argument.physical(), [&](auto t) {
    using T = decltype(t);
    const T* values = argument.values<T>();
    bool overflow = false;
    if constexpr (std::is_same_v<T, double>) {
      for_each_row(sel, n, [&](uint32_t p) {
        auto state = load_variance<DoubleVariance, double>(kernel, rows[p]);
        variance_add(state, values[p]);
        store_variance(kernel, rows[p], state);
      });
    } else if constexpr (kIsIntegerLike<T>) {
      for_each_row(sel, n, [&](uint32_t p) {
        auto state = load_variance<ExactVariance, int128_t>(kernel, rows[p]);
        overflow |= variance_add(state, static_cast<int128_t>(values[p]));
        store_variance(kernel, rows[p], state);
      });
    } else {
      throw Error("internal error: variance of an unexpected type");
    }
    return overflow;
  });
}

// A 16-byte slot holding the physical value at position p of `vector` (zero when NULL).
struct ValueSlot {
  alignas(16) uint8_t bytes[16] = {};
};

ValueSlot slot_of(const Vector& vector, uint32_t p) {
  ValueSlot slot;
  if (!vector.is_valid(p)) return slot;
  visit_physical(vector.physical(), [&](auto t) {
    using T = decltype(t);
    std::memcpy(slot.bytes, &vector.values<T>()[p], sizeof(T));
  });
  return slot;
}

void collect_values(const StateKernel& kernel, WorkerContext& worker, const Vector& argument,
                    const uint32_t* sel, uint32_t n, uint8_t* const* rows, const Vector* delimiter,
                    const Vector* order_key) {
  for_each_row(sel, n, [&](uint32_t p) {
    uint8_t* list = rows[p] + kernel.value.offset;
    if (kernel.kind != StateKind::kStringAgg) {
      ValueSlot key = slot_of(argument, p);
      floe_rt_collect(&worker, list, key.bytes, false, nullptr, nullptr, kernel.order);
      return;
    }
    // A NULL delimiter adds nothing: the empty string.
    ValueSlot value = slot_of(argument, p);
    ValueSlot separator = slot_of(*delimiter, p);
    ValueSlot key;
    bool key_null = false;
    if (order_key) {
      key = slot_of(*order_key, p);
      key_null = !order_key->is_valid(p);
    }
    floe_rt_collect(&worker, list, order_key ? key.bytes : nullptr, key_null, value.bytes,
                    separator.bytes, kernel.order);
  });
}

}  // namespace

void init_state(const StateKernel& kernel, uint8_t* row) {
  auto zero = [&](const RowSlot& slot) {
    std::memset(row + slot.offset, 0, physical_size(slot.type));
  };
  zero(kernel.value);
  if (kernel.kind == StateKind::kCountStar || kernel.kind == StateKind::kCount) return;
  zero(kernel.extra);  // collected: the list's tail
  if (kernel.kind == StateKind::kVariance) zero(kernel.squares);
}

bool update_states(const StateKernel& kernel, WorkerContext& worker, const Vector* argument,
                   const uint32_t* sel, uint32_t n, uint8_t* const* rows, const Vector* delimiter,
                   const Vector* order_key) {
  if (kernel.kind == StateKind::kCountStar) {
    for_each_row(sel, n, [&](uint32_t p) {
      kernel.value.store(rows[p], kernel.value.load<int64_t>(rows[p]) + 1);
    });
    return true;
  }
  if (kernel.kind == StateKind::kCount && argument->all_valid()) {
    for_each_row(sel, n, [&](uint32_t p) {
      kernel.value.store(rows[p], kernel.value.load<int64_t>(rows[p]) + 1);
    });
    return true;
  }
  if (kernel.kind == StateKind::kCount) {
    for_each_row(sel, n, [&](uint32_t p) {
      int64_t present = argument->is_valid(p);
      kernel.value.store(rows[p], kernel.value.load<int64_t>(rows[p]) + present);
    });
    return true;
  }
  std::vector<uint32_t> buffer;
  const uint32_t* present = present_rows(argument, sel, n, buffer);
  switch (kernel.kind) {
    case StateKind::kSum:
    case StateKind::kAvg:
      if (add_to_sums(kernel, *argument, present, n, rows)) return fail(worker, kernel.overflow);
      return true;
    case StateKind::kMin:
    case StateKind::kMax:
      take_extremes(kernel, *argument, present, n, rows);
      return true;
    case StateKind::kVariance:
      if (add_to_variances(kernel, *argument, present, n, rows))
        return fail(worker, kNumericOverflow);
      return true;
    default:
      collect_values(kernel, worker, *argument, present, n, rows, delimiter, order_key);
      return true;
  }
}

bool combine_states(const StateKernel& kernel, WorkerContext& worker, uint8_t* const* into,
                    uint8_t* const* from, uint32_t n) {
  bool overflow = false;
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t* row = into[i];
    uint8_t* other = from[i];
    switch (kernel.kind) {
      case StateKind::kCountStar:
      case StateKind::kCount:
        kernel.value.store(row,
                           kernel.value.load<int64_t>(row) + kernel.value.load<int64_t>(other));
        break;
      case StateKind::kSum:
      case StateKind::kAvg: {
        bool avg = kernel.kind == StateKind::kAvg;
        if (!avg && other[kernel.extra.offset] == 0) break;
        visit_sum(kernel.value.type, [&](auto s) {
          using S = decltype(s);
          S sum = kernel.value.load<S>(row);
          overflow |= add_checked(sum, kernel.value.load<S>(other));
          kernel.value.store(row, sum);
        });
        if (avg) {
          kernel.extra.store(row,
                             kernel.extra.load<int64_t>(row) + kernel.extra.load<int64_t>(other));
        } else {
          row[kernel.extra.offset] = 1;
        }
        break;
      }
      case StateKind::kMin:
      case StateKind::kMax: {
        if (other[kernel.extra.offset] == 0) break;
        bool smaller = kernel.kind == StateKind::kMin;
        bool has = row[kernel.extra.offset] != 0;
        visit_physical(kernel.value.type, [&](auto t) {
          using T = decltype(t);
          T value = kernel.value.load<T>(other);
          int order = sql_compare(value, kernel.value.load<T>(row));
          if (!has || (smaller ? order < 0 : order > 0)) kernel.value.store(row, value);
        });
        row[kernel.extra.offset] = 1;
        break;
      }
      case StateKind::kVariance:
        if (kernel.extra.type == PhysicalType::kDouble) {
          auto state = load_variance<DoubleVariance, double>(kernel, row);
          variance_combine(state, load_variance<DoubleVariance, double>(kernel, other));
          store_variance(kernel, row, state);
        } else {
          auto state = load_variance<ExactVariance, int128_t>(kernel, row);
          overflow |=
              variance_combine(state, load_variance<ExactVariance, int128_t>(kernel, other));
          store_variance(kernel, row, state);
        }
        break;
      default:
        floe_rt_collect_merge(row + kernel.value.offset, other + kernel.value.offset);
        break;
    }
  }
  if (!overflow) return true;
  return fail(worker, kernel.kind == StateKind::kVariance ? kNumericOverflow : kernel.overflow);
}

bool finalize_states(const StateKernel& kernel, WorkerContext& worker, const uint8_t* const* rows,
                     uint32_t n, Vector& out) {
  uint8_t* results = out.mutable_values<uint8_t>();
  const size_t width = physical_size(kernel.result);
  auto store = [&](uint32_t i, const auto& value) {
    std::memcpy(results + i * width, &value, sizeof(value));
  };
  for (uint32_t i = 0; i < n; ++i) {
    const uint8_t* row = rows[i];
    switch (kernel.kind) {
      case StateKind::kCountStar:
      case StateKind::kCount:
        store(i, kernel.value.load<int64_t>(row));
        break;
      case StateKind::kSum:
      case StateKind::kMin:
      case StateKind::kMax: {
        if (row[kernel.extra.offset] == 0) {
          out.set_valid(i, false);
          break;
        }
        std::memcpy(results + i * width, row + kernel.value.offset, width);
        if (kernel.precision > 0) {
          int128_t limit = power_of_ten(kernel.precision) - 1;
          int128_t sum = kernel.value.load<int128_t>(row);
          if (sum > limit || sum < -limit) return fail(worker, kNumericOverflow);
        }
        break;
      }
      case StateKind::kAvg: {
        int64_t count = kernel.extra.load<int64_t>(row);
        if (count == 0) {
          out.set_valid(i, false);
          break;
        }
        store(i, kernel.value.type == PhysicalType::kDouble
                     ? kernel.value.load<double>(row) / static_cast<double>(count)
                     : exact_average(kernel.value.load<int128_t>(row), count, kernel.scale));
        break;
      }
      case StateKind::kVariance: {
        int64_t count = kernel.value.load<int64_t>(row);
        // NULL without input, and for the sample forms with a single value.
        if (count <= ((kernel.variance_kind & kFloeVarianceSample) ? 1 : 0)) {
          out.set_valid(i, false);
          break;
        }
        store(i, kernel.extra.type == PhysicalType::kDouble
                     ? floe_rt_variance_double(count, kernel.squares.load<double>(row),
                                               kernel.variance_kind)
                     : floe_rt_variance_exact(count, kernel.extra.load<int128_t>(row),
                                              kernel.squares.load<int128_t>(row), kernel.scale,
                                              kernel.variance_kind));
        break;
      }
      default: {
        const uint8_t* list = row + kernel.value.offset;
        bool percentile =
            kernel.kind == StateKind::kPercentileCont || kernel.kind == StateKind::kPercentileDisc;
        // No (non-NULL) input, or a NULL fraction: NULL.
        if (kernel.value.load<uint64_t>(row) == 0 || (percentile && !kernel.fraction)) {
          out.set_valid(i, false);
          break;
        }
        double fraction = kernel.fraction.value_or(0.0);
        ValueSlot slot;
        if (kernel.kind == StateKind::kStringAgg) {
          store(i, std::bit_cast<StringRef>(floe_rt_string_agg(&worker, list, kernel.order)));
        } else if (kernel.kind == StateKind::kPercentileCont) {
          double value;
          if (!floe_rt_percentile_cont(&worker, list, fraction, kernel.order, &value)) return false;
          store(i, value);
        } else if (kernel.kind == StateKind::kPercentileDisc) {
          if (!floe_rt_percentile_disc(&worker, list, fraction, kernel.order, slot.bytes))
            return false;
          std::memcpy(results + i * width, slot.bytes, width);
        } else {
          floe_rt_mode(list, kernel.order, slot.bytes);
          std::memcpy(results + i * width, slot.bytes, width);
        }
        break;
      }
    }
  }
  return true;
}

}  // namespace floe::vectorized
