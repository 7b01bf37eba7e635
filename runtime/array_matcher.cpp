#include "runtime/array_matcher.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "runtime/simd_match.h"
#include "storage/error.h"
#include "storage/string_ref.h"

namespace floe {

namespace {

// Inclusive range over a type the SIMD kernels take.
template <typename T>
class SimdRangeMatcher : public ArrayMatcher {
 public:
  SimdRangeMatcher(T low, T high) : low_(low), high_(high) {}
  uint32_t find(const void* values, uint32_t begin, uint32_t end, uint32_t* out) const override {
    return simd::find_matches(static_cast<const T*>(values), begin, end, low_, high_, out);
  }
  uint32_t reduce(const void* values, const uint32_t* positions, uint32_t count,
                  uint32_t* out) const override {
    return simd::reduce_matches(static_cast<const T*>(values), positions, count, low_, high_, out);
  }

 private:
  T low_, high_;
};

// Scalar matchers: a predicate over one value, applied branch-free (write, then advance).
template <typename Derived, typename T>
class ScalarMatcher : public ArrayMatcher {
 public:
  uint32_t find(const void* values, uint32_t begin, uint32_t end, uint32_t* out) const override {
    const T* typed = static_cast<const T*>(values);
    uint32_t count = 0;
    for (uint32_t p = begin; p < end; ++p) {
      out[count] = p;
      count += self().passes(typed[p]);
    }
    return count;
  }
  uint32_t reduce(const void* values, const uint32_t* positions, uint32_t count,
                  uint32_t* out) const override {
    const T* typed = static_cast<const T*>(values);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t p = positions[i];
      out[kept] = p;
      kept += self().passes(typed[p]);
    }
    return kept;
  }

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

int compare(const StringRef& a, const StringRef& b) {
  return StringRef::compare(a, b);
}
int compare(int128_t a, int128_t b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

// Range with inclusive/exclusive bounds over strings or 128-bit decimals. `owned` keeps the
// bound Values alive (StringRefs point into them).
template <typename T>
class ScalarRangeMatcher : public ScalarMatcher<ScalarRangeMatcher<T>, T> {
 public:
  explicit ScalarRangeMatcher(const ScanRestriction& restriction) : restriction_(restriction) {
    if (restriction_.low) restriction_.low->value.write_physical(&low_);
    if (restriction_.high) restriction_.high->value.write_physical(&high_);
  }
  bool passes(const T& value) const {
    if (restriction_.low) {
      int c = compare(value, low_);
      if (c < 0 || (c == 0 && !restriction_.low->inclusive)) return false;
    }
    if (restriction_.high) {
      int c = compare(value, high_);
      if (c > 0 || (c == 0 && !restriction_.high->inclusive)) return false;
    }
    return true;
  }

 private:
  ScanRestriction restriction_;
  T low_{}, high_{};
};

template <typename T>
struct Less {
  bool operator()(const T& a, const T& b) const {
    if constexpr (std::is_same_v<T, StringRef>)
      return StringRef::compare(a, b) < 0;
    else
      return a < b;
  }
};

// Membership in a sorted set (IN lists; dictionary codes of an IN list).
template <typename T>
class SetMatcher : public ScalarMatcher<SetMatcher<T>, T> {
 public:
  SetMatcher(std::vector<T> members, std::vector<Value> owned)
      : members_(std::move(members)), owned_(std::move(owned)) {
    std::sort(members_.begin(), members_.end(), Less<T>());
  }
  bool passes(const T& value) const {
    return std::binary_search(members_.begin(), members_.end(), value, Less<T>());
  }

 private:
  std::vector<T> members_;
  std::vector<Value> owned_;
};

template <typename T>
T physical_of(const Value& value) {
  T out;
  value.write_physical(&out);
  return out;
}

template <typename T>
std::unique_ptr<ArrayMatcher> integer_range(const ScanRestriction& restriction) {
  T low = std::numeric_limits<T>::lowest();
  T high = std::numeric_limits<T>::max();
  if (restriction.low) {
    low = physical_of<T>(restriction.low->value);
    if (!restriction.low->inclusive) {
      if (low == std::numeric_limits<T>::max()) return nullptr;
      ++low;
    }
  }
  if (restriction.high) {
    high = physical_of<T>(restriction.high->value);
    if (!restriction.high->inclusive) {
      if (high == std::numeric_limits<T>::lowest()) return nullptr;
      --high;
    }
  }
  if (low > high) return nullptr;
  return std::make_unique<SimdRangeMatcher<T>>(low, high);
}

std::unique_ptr<ArrayMatcher> double_range(const ScanRestriction& restriction) {
  double low = -std::numeric_limits<double>::infinity();
  double high = std::numeric_limits<double>::infinity();
  if (restriction.low) {
    low = restriction.low->value.as_double();
    if (!restriction.low->inclusive) low = std::nextafter(low, high);
  }
  if (restriction.high) {
    high = restriction.high->value.as_double();
    if (!restriction.high->inclusive) high = std::nextafter(high, low);
  }
  if (low > high) return nullptr;
  return std::make_unique<SimdRangeMatcher<double>>(low, high);
}

template <typename T>
std::unique_ptr<ArrayMatcher> value_set(const ScanRestriction& restriction) {
  std::vector<T> members;
  for (const Value& value : restriction.values) members.push_back(physical_of<T>(value));
  return std::make_unique<SetMatcher<T>>(std::move(members), restriction.values);
}

template <typename T>
std::unique_ptr<ArrayMatcher> value_matcher(const ScanRestriction& restriction) {
  if (restriction.kind == ScanRestriction::Kind::kIn) return value_set<T>(restriction);
  if constexpr (std::is_same_v<T, double>)
    return double_range(restriction);
  else if constexpr (std::is_same_v<T, StringRef> || std::is_same_v<T, int128_t>)
    return std::make_unique<ScalarRangeMatcher<T>>(restriction);
  else
    return integer_range<T>(restriction);
}

}  // namespace

std::unique_ptr<ArrayMatcher> make_value_matcher(PhysicalType type,
                                                 const ScanRestriction& restriction) {
  switch (type) {
    case PhysicalType::kBool:
      return value_matcher<uint8_t>(restriction);
    case PhysicalType::kInt16:
      return value_matcher<int16_t>(restriction);
    case PhysicalType::kInt32:
      return value_matcher<int32_t>(restriction);
    case PhysicalType::kInt64:
      return value_matcher<int64_t>(restriction);
    case PhysicalType::kInt128:
      return value_matcher<int128_t>(restriction);
    case PhysicalType::kDouble:
      return value_matcher<double>(restriction);
    case PhysicalType::kString:
      return value_matcher<StringRef>(restriction);
    case PhysicalType::kInterval:
      break;
  }
  throw Error("internal error: no scan restriction on interval columns");
}

std::unique_ptr<ArrayMatcher> make_code_range_matcher(unsigned width, uint32_t low,
                                                      uint32_t high) {
  switch (width) {
    case 1:
      return std::make_unique<SimdRangeMatcher<uint8_t>>(static_cast<uint8_t>(low),
                                                         static_cast<uint8_t>(high));
    case 2:
      return std::make_unique<SimdRangeMatcher<uint16_t>>(static_cast<uint16_t>(low),
                                                          static_cast<uint16_t>(high));
    case 4:
      return std::make_unique<SimdRangeMatcher<uint32_t>>(low, high);
  }
  throw Error("internal error: code width " + std::to_string(width));
}

std::unique_ptr<ArrayMatcher> make_code_set_matcher(unsigned width, std::vector<uint32_t> codes) {
  auto narrowed = [&]<typename T>(T) -> std::unique_ptr<ArrayMatcher> {
    std::vector<T> members(codes.begin(), codes.end());
    return std::make_unique<SetMatcher<T>>(std::move(members), std::vector<Value>());
  };
  switch (width) {
    case 1:
      return narrowed(uint8_t{});
    case 2:
      return narrowed(uint16_t{});
    case 4:
      return narrowed(uint32_t{});
  }
  throw Error("internal error: code width " + std::to_string(width));
}

bool value_passes(const ScanRestriction& restriction, const ArrayMatcher* matcher,
                  const Value& value) {
  switch (restriction.kind) {
    case ScanRestriction::Kind::kIsNull:
      return value.is_null();
    case ScanRestriction::Kind::kIsNotNull:
      return !value.is_null();
    case ScanRestriction::Kind::kRange:
    case ScanRestriction::Kind::kIn: {
      if (value.is_null() || !matcher) return false;
      alignas(16) uint8_t physical[16];
      value.write_physical(physical);
      uint32_t out[1 + kMatchPadding];
      return matcher->find(physical, 0, 1, out) == 1;
    }
  }
  return false;
}

}  // namespace floe
