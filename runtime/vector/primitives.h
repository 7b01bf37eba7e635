// Precompiled typed primitives of the vectorized engine (X100 thesis §4.2 and §5.2): one
// template per operation, instantiated per physical type, each a tight loop over the rows of
// a chunk (positions sel[0..n), or 0..n without a selection vector) that the compiler can
// auto-vectorize. No SQL or LLVM here: callers pick the instantiation.
//
// NULLs and failures are handled once per vector, not per value: a result's validity is the
// AND of its operands' validity words, computed word by word first (intersect_validity); the
// operation then runs on every row, NULL rows included, and ORs each row's failure flag
// (__builtin_*_overflow, a zero divisor) masked by the row's validity into one flag that the
// caller checks once after the loop. Only then, on failure, does it look for the failing row.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "runtime/vector/vector.h"
#include "storage/physical_order.h"

namespace floe::vectorized {

// Calls f(position) for each row.
template <typename F>
inline void for_each_row(const uint32_t* sel, uint32_t n, F&& f) {
  if (sel) {
    for (uint32_t i = 0; i < n; ++i) f(sel[i]);
  } else {
    for (uint32_t i = 0; i < n; ++i) f(i);
  }
}

// Validity words at offset 0 for positions [0, extent): `out` &= the bits of `words` read
// from `offset` on (null words: all present). Word-parallel, with a shift when the source
// offset is not a multiple of 64 (a scan batch's validity_offset).
inline void intersect_validity(uint64_t* out, const uint64_t* words, uint32_t offset,
                               uint32_t extent) {
  if (!words) return;
  size_t count = validity_words(extent);
  size_t first = offset / 64;
  unsigned shift = offset % 64;
  if (shift == 0) {
    for (size_t w = 0; w < count; ++w) out[w] &= words[first + w];
    return;
  }
  size_t last = (static_cast<size_t>(offset) + extent - 1) / 64;  // last source word needed
  for (size_t w = 0; w < count; ++w) {
    uint64_t low = words[first + w] >> shift;
    uint64_t high = first + w + 1 <= last ? words[first + w + 1] << (64 - shift) : 0;
    out[w] &= low | high;
  }
}

// Calls f(T{}) for the C++ type of an integer-like physical type (BOOLEAN: uint8_t); the
// other physical types never reach the callers.
template <typename F>
decltype(auto) visit_integral(PhysicalType type, F&& f) {
  using R = decltype(f(int32_t{}));
  return visit_physical(type, [&](auto t) -> R {
    if constexpr (kIsIntegerLike<decltype(t)>) {
      return f(t);
    } else {
      return R();
    }
  });
}

// How a selection primitive writes its output (X100 §5.2.2, Fig 5.6). kBranchFree, the
// engine's: a data dependency, every position written and the output advanced by the
// predicate's value, so the time does not depend on the selectivity. kBranching: a control
// dependency, `if (pred) out[k++] = p`, which mispredicts near 50 %; kept as the thesis'
// baseline for bench/x100/selection_bench.cpp.
enum class SelectionMode : uint8_t { kBranchFree, kBranching };

// The rows of sel[0..n) (0..n without a selection) where pred holds. `out` may be `sel`.
template <SelectionMode kMode = SelectionMode::kBranchFree, typename Pred>
inline uint32_t select_rows(const uint32_t* sel, uint32_t n, uint32_t* out, Pred&& pred) {
  uint32_t k = 0;
  if constexpr (kMode == SelectionMode::kBranching) {
    for_each_row(sel, n, [&](uint32_t p) {
      if (pred(p)) out[k++] = p;
    });
  } else {
    for_each_row(sel, n, [&](uint32_t p) {
      out[k] = p;
      k += static_cast<uint32_t>(static_cast<bool>(pred(p)));
    });
  }
  return k;
}

// The rows whose bit is set in `words` (offset 0; null: all rows).
inline uint32_t select_valid(const uint32_t* sel, uint32_t n, const uint64_t* words,
                             uint32_t* out) {
  return select_rows(sel, n, out, [&](uint32_t p) { return validity_bit(words, p); });
}

// ---- arithmetic ------------------------------------------------------------------------

struct AddOp {
  template <typename T>
  static bool apply(T a, T b, T& out) {
    return __builtin_add_overflow(a, b, &out);
  }
};
struct SubtractOp {
  template <typename T>
  static bool apply(T a, T b, T& out) {
    return __builtin_sub_overflow(a, b, &out);
  }
};
struct MultiplyOp {
  template <typename T>
  static bool apply(T a, T b, T& out) {
    return __builtin_mul_overflow(a, b, &out);
  }
};

// out = a op b for integers with the overflow check of Op; true when a present row
// overflowed (`valid`: the result's validity words, null when all present).
template <typename Op, typename T>
bool checked_arithmetic(const T* a, const T* b, T* out, const uint32_t* sel, uint32_t n,
                        const uint64_t* valid) {
  bool failed = false;
  if (!valid) {
    for_each_row(sel, n, [&](uint32_t p) { failed |= Op::apply(a[p], b[p], out[p]); });
  } else {
    for_each_row(sel, n, [&](uint32_t p) {
      failed |= Op::apply(a[p], b[p], out[p]) & validity_bit(valid, p);
    });
  }
  return failed;
}

// What can go wrong dividing integers, in the order generated code checks it per row.
enum class DivisionFailure : uint8_t { kNone, kDivisionByZero, kOverflow };

// Integer division or modulo truncating toward zero. A zero divisor and MIN / -1 are
// replaced by 1 so that every row can be computed; the flags say whether a present row had
// one. x % -1 is 0 (never an overflow).
template <typename T>
DivisionFailure divide_integers(const T* a, const T* b, T* out, const uint32_t* sel, uint32_t n,
                                const uint64_t* valid, bool modulo) {
  constexpr T kMin = std::numeric_limits<T>::min();
  bool zero = false, overflow = false;
  for_each_row(sel, n, [&](uint32_t p) {
    bool present = validity_bit(valid, p);
    bool is_zero = b[p] == 0;
    bool minus_one = b[p] == T(-1);
    bool is_overflow = !modulo && minus_one && a[p] == kMin;
    zero |= is_zero & present;
    overflow |= is_overflow & present;
    T dividend = is_overflow ? T(0) : a[p];
    T divisor = (is_zero | minus_one) ? T(1) : b[p];
    T quotient = modulo ? T(dividend % divisor) : T(dividend / divisor);
    out[p] = minus_one ? (modulo ? T(0) : T(-quotient)) : quotient;
  });
  if (!zero && !overflow) return DivisionFailure::kNone;
  // The first failing row decides the message, as in row-at-a-time execution.
  DivisionFailure first = DivisionFailure::kNone;
  for_each_row(sel, n, [&](uint32_t p) {
    if (first != DivisionFailure::kNone || !validity_bit(valid, p)) return;
    if (b[p] == 0)
      first = DivisionFailure::kDivisionByZero;
    else if (!modulo && b[p] == T(-1) && a[p] == kMin)
      first = DivisionFailure::kOverflow;
  });
  return first;
}

// Doubles: + - * never fail; / fails on a zero divisor (IEEE otherwise).
template <typename F>
void double_arithmetic(const double* a, const double* b, double* out, const uint32_t* sel,
                       uint32_t n, F&& op) {
  for_each_row(sel, n, [&](uint32_t p) { out[p] = op(a[p], b[p]); });
}

inline bool divide_doubles(const double* a, const double* b, double* out, const uint32_t* sel,
                           uint32_t n, const uint64_t* valid) {
  bool zero = false;
  for_each_row(sel, n, [&](uint32_t p) {
    zero |= (b[p] == 0.0) & validity_bit(valid, p);
    out[p] = a[p] / b[p];
  });
  return zero;
}

// Applies a function that fails with nullopt (storage/decimal.h's operations) to each row;
// true when a present row failed.
template <typename T, typename F>
bool apply_optional(const T* a, const T* b, T* out, const uint32_t* sel, uint32_t n,
                    const uint64_t* valid, F&& op) {
  bool failed = false;
  for_each_row(sel, n, [&](uint32_t p) {
    auto result = op(a[p], b[p]);
    failed |= !result.has_value() & validity_bit(valid, p);
    out[p] = static_cast<T>(result.value_or(0));
  });
  return failed;
}

// ---- comparison (storage/physical_order.h's sql_compare: NaN last, strings bytewise) ----

enum class Comparison : uint8_t { kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual };

inline bool holds(Comparison op, int order) {
  switch (op) {
    case Comparison::kEqual:
      return order == 0;
    case Comparison::kNotEqual:
      return order != 0;
    case Comparison::kLess:
      return order < 0;
    case Comparison::kLessEqual:
      return order <= 0;
    case Comparison::kGreater:
      return order > 0;
    case Comparison::kGreaterEqual:
      return order >= 0;
  }
  return false;
}

// One comparison per instantiation, so that the loop has no switch inside.
template <Comparison kOp, typename T>
inline bool compare_one(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, StringRef> &&
                (kOp == Comparison::kEqual || kOp == Comparison::kNotEqual)) {
    return (a == b) == (kOp == Comparison::kEqual);
  } else if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, double>) {
    switch (kOp) {
      case Comparison::kEqual:
        return a == b;
      case Comparison::kNotEqual:
        return a != b;
      case Comparison::kLess:
        return a < b;
      case Comparison::kLessEqual:
        return a <= b;
      case Comparison::kGreater:
        return a > b;
      case Comparison::kGreaterEqual:
        return a >= b;
    }
  } else {
    return holds(kOp, sql_compare(a, b));
  }
  return false;
}

template <typename F>
decltype(auto) with_comparison(Comparison op, F&& f) {
  switch (op) {
    case Comparison::kEqual:
      return f(std::integral_constant<Comparison, Comparison::kEqual>{});
    case Comparison::kNotEqual:
      return f(std::integral_constant<Comparison, Comparison::kNotEqual>{});
    case Comparison::kLess:
      return f(std::integral_constant<Comparison, Comparison::kLess>{});
    case Comparison::kLessEqual:
      return f(std::integral_constant<Comparison, Comparison::kLessEqual>{});
    case Comparison::kGreater:
      return f(std::integral_constant<Comparison, Comparison::kGreater>{});
    case Comparison::kGreaterEqual:
      break;
  }
  return f(std::integral_constant<Comparison, Comparison::kGreaterEqual>{});
}

// out[p] = a[p] op b[p] (booleans as bytes). Strings must only be compared on present rows:
// pass a selection of those.
template <typename T>
void compare(Comparison op, const T* a, const T* b, uint8_t* out, const uint32_t* sel, uint32_t n) {
  with_comparison(op, [&](auto kop) {
    for_each_row(sel, n,
                 [&](uint32_t p) { out[p] = compare_one<decltype(kop)::value>(a[p], b[p]); });
  });
}

// The rows where a[p] op b[p] and the row is present (branch-free unless kMode says).
template <SelectionMode kMode = SelectionMode::kBranchFree, typename T>
uint32_t select_compare(Comparison op, const T* a, const T* b, const uint32_t* sel, uint32_t n,
                        const uint64_t* valid, uint32_t* out) {
  return with_comparison(op, [&](auto kop) {
    if (!valid)
      return select_rows<kMode>(
          sel, n, out, [&](uint32_t p) { return compare_one<decltype(kop)::value>(a[p], b[p]); });
    return select_rows<kMode>(sel, n, out, [&](uint32_t p) {
      return compare_one<decltype(kop)::value>(a[p], b[p]) & validity_bit(valid, p);
    });
  });
}

// The rows whose boolean is present and true.
inline uint32_t select_true(const uint8_t* values, const uint64_t* words, uint32_t offset,
                            const uint32_t* sel, uint32_t n, uint32_t* out) {
  if (!words) return select_rows(sel, n, out, [&](uint32_t p) { return values[p] != 0; });
  return select_rows(sel, n, out, [&](uint32_t p) {
    return (values[p] != 0) & validity_bit(words, uint64_t{offset} + p);
  });
}

// Copies the values at the rows from `in` to `out` (same positions).
template <typename T>
void copy_rows(const T* in, T* out, const uint32_t* sel, uint32_t n) {
  for_each_row(sel, n, [&](uint32_t p) { out[p] = in[p]; });
}

}  // namespace floe::vectorized
