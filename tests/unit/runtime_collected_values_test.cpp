#include "runtime/collected_values.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/runtime_abi.h"
#include "storage/error.h"

namespace floe {
namespace {

template <typename T>
std::array<uint8_t, 16> slot(T value) {
  std::array<uint8_t, 16> bytes{};
  std::memcpy(bytes.data(), &value, sizeof(T));
  return bytes;
}

CollectedOrder by(PhysicalType type, bool descending = false) {
  CollectedOrder order;
  order.has_key = true;
  order.key_type = type;
  order.descending = descending;
  return order;
}

// Two workers' lists linked by the merge, as the aggregation's merge does.
CollectedList doubles(StringHeap& heap, const std::vector<double>& first,
                      const std::vector<double>& second) {
  CollectedList a, b;
  for (double value : first)
    collect(heap, a, PhysicalType::kDouble, slot(value).data(), nullptr, nullptr);
  for (double value : second)
    collect(heap, b, PhysicalType::kDouble, slot(value).data(), nullptr, nullptr);
  append(a, b);
  EXPECT_EQ(b.head, nullptr);
  return a;
}

TEST(CollectedValuesTest, PercentileContInterpolatesInOrder) {
  StringHeap heap;
  CollectedList list = doubles(heap, {4, 1}, {3, 2});
  EXPECT_DOUBLE_EQ(percentile_cont(list, by(PhysicalType::kDouble), 0.5), 2.5);
  EXPECT_DOUBLE_EQ(percentile_cont(list, by(PhysicalType::kDouble), 0), 1);
  EXPECT_DOUBLE_EQ(percentile_cont(list, by(PhysicalType::kDouble), 1), 4);
  EXPECT_DOUBLE_EQ(percentile_cont(list, by(PhysicalType::kDouble, true), 0.25), 3.25);
}

TEST(CollectedValuesTest, PercentileDiscTakesTheFirstValueReachingTheFraction) {
  StringHeap heap;
  CollectedList list = doubles(heap, {10, 40}, {30, 20});
  std::array<uint8_t, 16> out{};
  auto disc = [&](double fraction, bool descending = false) {
    percentile_disc(list, by(PhysicalType::kDouble, descending), fraction, out.data());
    double value;
    std::memcpy(&value, out.data(), sizeof value);
    return value;
  };
  EXPECT_EQ(disc(0), 10);
  EXPECT_EQ(disc(0.25), 10);
  EXPECT_EQ(disc(0.26), 20);
  EXPECT_EQ(disc(1), 40);
  EXPECT_EQ(disc(0.25, true), 40);
}

TEST(CollectedValuesTest, ModePrefersTheFirstOfEquallyFrequentValues) {
  StringHeap heap;
  CollectedList list;
  for (int32_t value : {5, 3, 5, 3, 9})
    collect(heap, list, PhysicalType::kInt32, slot(value).data(), nullptr, nullptr);
  std::array<uint8_t, 16> out{};
  mode(list, by(PhysicalType::kInt32), out.data());
  EXPECT_EQ(out[0], 3);
  mode(list, by(PhysicalType::kInt32, true), out.data());
  EXPECT_EQ(out[0], 5);
}

TEST(CollectedValuesTest, StringAggOrdersDeduplicatesAndCopiesStrings) {
  StringHeap heap;
  CollectedList list;
  std::vector<std::string> values = {"pear", "apple", "a much longer fig", "apple"};
  StringRef comma = StringRef::from(",");
  for (const std::string& text : values) {
    std::string scratch = text;  // overwritten below: collect must have copied it
    StringRef value = StringRef::from(scratch);
    collect(heap, list, PhysicalType::kString, &value, &value, &comma);
    scratch.assign(scratch.size(), '#');
  }
  CollectedOrder order = by(PhysicalType::kString);
  EXPECT_EQ(string_agg(list, order, heap).view(), "a much longer fig,apple,apple,pear");
  order.distinct = true;
  EXPECT_EQ(string_agg(list, order, heap).view(), "a much longer fig,apple,pear");
  EXPECT_EQ(string_agg(list, CollectedOrder{}, heap).view(), "pear,apple,a much longer fig,apple");
}

TEST(CollectedValuesTest, NullKeysSortFirstOrLast) {
  StringHeap heap;
  CollectedList list;
  StringRef none = StringRef::from("");
  for (int64_t key : {2, 1}) {
    StringRef value = StringRef::from(std::to_string(key));
    collect(heap, list, PhysicalType::kInt64, slot(key).data(), &value, &none);
  }
  StringRef null_value = StringRef::from("n");
  collect(heap, list, PhysicalType::kInt64, nullptr, &null_value, &none);
  CollectedOrder order = by(PhysicalType::kInt64);
  EXPECT_EQ(string_agg(list, order, heap).view(), "12n");
  order.nulls_first = true;
  EXPECT_EQ(string_agg(list, order, heap).view(), "n12");
}

TEST(CollectedValuesTest, FractionsOutsideZeroToOneFail) {
  EXPECT_NO_THROW(check_fraction(0));
  EXPECT_NO_THROW(check_fraction(1));
  EXPECT_THROW(check_fraction(1.5), Error);
  EXPECT_THROW(check_fraction(-0.0001), Error);
}

TEST(VarianceTest, ExactStatesGivePostgresValues) {
  // 1, 2, 3, 4: sum 10, sum of squares 30.
  EXPECT_DOUBLE_EQ(floe_rt_variance_exact(4, 10, 30, 0, kFloeVarianceSample), 5.0 / 3);
  EXPECT_DOUBLE_EQ(floe_rt_variance_exact(4, 10, 30, 0, 0), 1.25);
  EXPECT_DOUBLE_EQ(floe_rt_variance_exact(4, 10, 30, 0, kFloeVarianceRoot), std::sqrt(1.25));
  // 0.5, 1.5 as numeric(.,1): sum 20, sum of squares 250 (scale 2).
  EXPECT_DOUBLE_EQ(floe_rt_variance_exact(2, 20, 250, 1, kFloeVarianceSample), 0.5);
  // Equal values: exactly 0.
  EXPECT_EQ(floe_rt_variance_exact(3, 21, 147, 0, kFloeVarianceSample), 0);
  // n·Σx² beyond 128 bits still gives the variance (of 10^19 and 0).
  __int128 big = static_cast<__int128>(1000000000000000000);
  EXPECT_DOUBLE_EQ(floe_rt_variance_exact(2, 10 * big, 100 * big * big, 0, 0), 2.5e37);
}

}  // namespace
}  // namespace floe
