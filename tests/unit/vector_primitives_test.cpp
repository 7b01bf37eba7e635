// The vectorized engine's vector format and typed primitives (runtime/vector/).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "runtime/query_context.h"
#include "runtime/vector/cast.h"
#include "runtime/vector/function_call.h"
#include "runtime/vector/primitives.h"
#include "runtime/vector/vector.h"

namespace floe::vectorized {
namespace {

// Chunk sizes at the interesting edges: one row, exactly one default chunk, one more.
const uint32_t kSizes[] = {1, 2048, 2049};

TEST(VectorPrimitivesTest, AddOverflowOnTheLastRowIsFound) {
  for (uint32_t n : kSizes) {
    std::vector<int32_t> a(n, 1), b(n, 2), out(n);
    EXPECT_FALSE(checked_arithmetic<AddOp>(a.data(), b.data(), out.data(), nullptr, n, nullptr));
    EXPECT_EQ(out[n - 1], 3);
    a[n - 1] = std::numeric_limits<int32_t>::max();
    EXPECT_TRUE(checked_arithmetic<AddOp>(a.data(), b.data(), out.data(), nullptr, n, nullptr))
        << n;
  }
}

TEST(VectorPrimitivesTest, OverflowOfANullRowIsIgnored) {
  for (uint32_t n : kSizes) {
    std::vector<int64_t> a(n, 7), b(n, 3), out(n);
    a[n - 1] = std::numeric_limits<int64_t>::max();
    std::vector<uint64_t> valid(validity_words(n), ~uint64_t{0});
    valid[(n - 1) / 64] &= ~(uint64_t{1} << ((n - 1) % 64));
    EXPECT_FALSE(
        checked_arithmetic<MultiplyOp>(a.data(), b.data(), out.data(), nullptr, n, valid.data()));
    if (n > 1) {
      EXPECT_EQ(out[0], 21);
    }
  }
}

TEST(VectorPrimitivesTest, EveryIntegerWidthChecksItsOwnRange) {
  int16_t a16[] = {30000}, b16[] = {30000}, o16[1];
  EXPECT_TRUE(checked_arithmetic<AddOp>(a16, b16, o16, nullptr, 1, nullptr));
  int128_t a128[] = {int128_t{1} << 100}, b128[] = {int128_t{1} << 30}, o128[1];
  EXPECT_TRUE(checked_arithmetic<MultiplyOp>(a128, b128, o128, nullptr, 1, nullptr));
  EXPECT_FALSE(checked_arithmetic<SubtractOp>(a128, b128, o128, nullptr, 1, nullptr));
  EXPECT_EQ(o128[0], (int128_t{1} << 100) - (int128_t{1} << 30));
}

TEST(VectorPrimitivesTest, SelectionVectorLimitsTheRowsComputed) {
  std::vector<int32_t> a = {1, std::numeric_limits<int32_t>::max(), 3, 4};
  std::vector<int32_t> b = {10, 10, 10, 10}, out(4, -1);
  uint32_t sel[] = {0, 2, 3};
  EXPECT_FALSE(checked_arithmetic<AddOp>(a.data(), b.data(), out.data(), sel, 3, nullptr));
  EXPECT_EQ(out, (std::vector<int32_t>{11, -1, 13, 14}));
  uint32_t overflowing[] = {1};
  EXPECT_TRUE(checked_arithmetic<AddOp>(a.data(), b.data(), out.data(), overflowing, 1, nullptr));
}

TEST(VectorPrimitivesTest, EmptyVectorsDoNothing) {
  int32_t a[1] = {0}, b[1] = {0}, out[1] = {5};
  EXPECT_FALSE(checked_arithmetic<AddOp>(a, b, out, nullptr, 0, nullptr));
  EXPECT_EQ(divide_integers(a, b, out, nullptr, 0, nullptr, false), DivisionFailure::kNone);
  uint32_t sel[1];
  EXPECT_EQ(select_compare(Comparison::kEqual, a, b, nullptr, 0, nullptr, sel), 0u);
  EXPECT_EQ(out[0], 5);
}

TEST(VectorPrimitivesTest, DivisionReportsTheFirstFailingRow) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  std::vector<int64_t> a = {10, kMin, 5, 7}, b = {3, -1, 0, -1}, out(4);
  EXPECT_EQ(divide_integers(a.data(), b.data(), out.data(), nullptr, 4, nullptr, false),
            DivisionFailure::kOverflow);
  uint32_t later[] = {2, 3};
  EXPECT_EQ(divide_integers(a.data(), b.data(), out.data(), later, 2, nullptr, false),
            DivisionFailure::kDivisionByZero);
  // Modulo by -1 is 0 even for MIN; truncation toward zero.
  uint32_t rows[] = {0, 1, 3};
  EXPECT_EQ(divide_integers(a.data(), b.data(), out.data(), rows, 3, nullptr, true),
            DivisionFailure::kNone);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], 0);
  EXPECT_EQ(out[3], 0);
  std::vector<int64_t> c = {-7}, d = {2}, q(1);
  divide_integers(c.data(), d.data(), q.data(), nullptr, 1, nullptr, false);
  EXPECT_EQ(q[0], -3);
}

TEST(VectorPrimitivesTest, DoubleDivisionByZeroOnlyOnPresentRows) {
  double a[] = {1, 2}, b[] = {2, 0}, out[2];
  EXPECT_TRUE(divide_doubles(a, b, out, nullptr, 2, nullptr));
  uint64_t first_only = 1;
  EXPECT_FALSE(divide_doubles(a, b, out, nullptr, 2, &first_only));
  EXPECT_EQ(out[0], 0.5);
}

TEST(VectorPrimitivesTest, ComparisonsSortNanLast) {
  double nan = std::nan("");
  double a[] = {nan, 1, nan, -0.0}, b[] = {nan, nan, 2, 0.0};
  uint8_t out[4];
  compare(Comparison::kEqual, a, b, out, nullptr, 4);
  EXPECT_EQ(std::vector<uint8_t>(out, out + 4), (std::vector<uint8_t>{1, 0, 0, 1}));
  compare(Comparison::kLess, a, b, out, nullptr, 4);
  EXPECT_EQ(std::vector<uint8_t>(out, out + 4), (std::vector<uint8_t>{0, 1, 0, 0}));
  compare(Comparison::kGreater, a, b, out, nullptr, 4);
  EXPECT_EQ(std::vector<uint8_t>(out, out + 4), (std::vector<uint8_t>{0, 0, 1, 0}));
}

TEST(VectorPrimitivesTest, StringsCompareInlineAndOutOfLine) {
  std::string long_a = "a string longer than twelve bytes";
  std::string long_b = "a string longer than twelve bytez";
  std::string long_copy = long_a;  // equal bytes elsewhere
  StringRef a[] = {StringRef::from("abc"), StringRef::from(long_a), StringRef::from("abcd"),
                   StringRef::from(long_a)};
  StringRef b[] = {StringRef::from("abc"), StringRef::from(long_b), StringRef::from("abc"),
                   StringRef::from(long_copy)};
  uint8_t out[4];
  compare(Comparison::kEqual, a, b, out, nullptr, 4);
  EXPECT_EQ(std::vector<uint8_t>(out, out + 4), (std::vector<uint8_t>{1, 0, 0, 1}));
  compare(Comparison::kLess, a, b, out, nullptr, 4);
  EXPECT_EQ(std::vector<uint8_t>(out, out + 4), (std::vector<uint8_t>{0, 1, 0, 0}));
  uint32_t sel[4];
  EXPECT_EQ(select_compare(Comparison::kGreaterEqual, a, b, nullptr, 4, nullptr, sel), 3u);
  EXPECT_EQ(std::vector<uint32_t>(sel, sel + 3), (std::vector<uint32_t>{0, 2, 3}));
}

TEST(VectorPrimitivesTest, BranchFreeSelectionHonoursNullsAndSelection) {
  for (uint32_t n : kSizes) {
    std::vector<int32_t> a(n), b(n, 0);
    for (uint32_t i = 0; i < n; ++i) a[i] = static_cast<int32_t>(i % 3);
    std::vector<uint64_t> valid(validity_words(n), ~uint64_t{0});
    valid[0] &= ~uint64_t{2};  // row 1 is NULL
    std::vector<uint32_t> out(n);
    uint32_t count = select_compare(Comparison::kNotEqual, a.data(), b.data(), nullptr, n,
                                    valid.data(), out.data());
    uint32_t expected = 0;
    for (uint32_t i = 0; i < n; ++i) expected += (i % 3 != 0) && i != 1;
    EXPECT_EQ(count, expected);
    // In place over its own selection: the rows with a == 2.
    count = select_compare(Comparison::kGreater, a.data(), std::vector<int32_t>(n, 1).data(),
                           out.data(), count, nullptr, out.data());
    for (uint32_t i = 0; i < count; ++i) EXPECT_EQ(a[out[i]], 2);
  }
}

// The branching selection (bench/x100's baseline) selects exactly the rows the engine's
// branch-free one does: random values at selectivities 0..100 %, every comparison, about a
// quarter of the rows NULL or none, with and without an input selection.
TEST(VectorPrimitivesTest, BranchingSelectionEqualsBranchFree) {
  const Comparison kOps[] = {Comparison::kEqual,   Comparison::kNotEqual,
                             Comparison::kLess,    Comparison::kLessEqual,
                             Comparison::kGreater, Comparison::kGreaterEqual};
  std::mt19937_64 rng(42);
  for (uint32_t n : kSizes) {
    std::vector<int64_t> a(n);
    for (int64_t& value : a) value = static_cast<int64_t>(rng() % 100);
    std::vector<uint64_t> valid(validity_words(n), 0);
    for (uint32_t p = 0; p < n; ++p)
      if (rng() % 4 != 0) valid[p / 64] |= uint64_t{1} << (p % 64);
    std::vector<uint32_t> input;  // every other row
    for (uint32_t p = 0; p < n; p += 2) input.push_back(p);
    for (int64_t threshold : {0, 1, 10, 50, 90, 100}) {
      const std::vector<int64_t> b(n, threshold);
      for (Comparison op : kOps) {
        const uint64_t* const validities[] = {nullptr, valid.data()};
        for (const uint64_t* validity : validities) {
          for (bool selected : {false, true}) {
            const uint32_t* sel = selected ? input.data() : nullptr;
            const uint32_t count = selected ? static_cast<uint32_t>(input.size()) : n;
            std::vector<uint32_t> free(n), branching(n);
            uint32_t k_free =
                select_compare(op, a.data(), b.data(), sel, count, validity, free.data());
            uint32_t k_branching = select_compare<SelectionMode::kBranching>(
                op, a.data(), b.data(), sel, count, validity, branching.data());
            ASSERT_EQ(k_free, k_branching) << n << " " << threshold;
            free.resize(k_free);
            branching.resize(k_branching);
            EXPECT_EQ(free, branching) << n << " " << threshold;
            uint32_t expected = 0;  // the present rows where a op threshold holds
            for (uint32_t i = 0; i < count; ++i) {
              uint32_t p = sel ? sel[i] : i;
              expected += (!validity || validity_bit(validity, p)) &&
                          (op == Comparison::kEqual ? a[p] == threshold
                           : op == Comparison::kNotEqual ? a[p] != threshold
                           : op == Comparison::kLess ? a[p] < threshold
                           : op == Comparison::kLessEqual ? a[p] <= threshold
                           : op == Comparison::kGreater ? a[p] > threshold
                                                        : a[p] >= threshold);
            }
            EXPECT_EQ(k_free, expected);
          }
        }
      }
    }
  }
}

TEST(VectorPrimitivesTest, ValidityIntersectionWithAnUnalignedOffset) {
  // Source bits from offset 70: every third row NULL.
  std::vector<uint64_t> source(5, 0);
  for (uint32_t row = 0; row < 200; ++row)
    if (row % 3 != 0) source[(70 + row) / 64] |= uint64_t{1} << ((70 + row) % 64);
  std::vector<uint64_t> out(validity_words(200), ~uint64_t{0});
  intersect_validity(out.data(), source.data(), 70, 200);
  for (uint32_t row = 0; row < 200; ++row) EXPECT_EQ(validity_bit(out.data(), row), row % 3 != 0);
}

TEST(VectorFormatTest, WrapsAScanBatchWithoutCopying) {
  std::vector<int32_t> values(100);
  for (int i = 0; i < 100; ++i) values[i] = i * 10;
  uint64_t validity[2] = {~uint64_t{0}, ~uint64_t{0}};
  validity[0] &= ~(uint64_t{1} << 5);  // row 5 - offset 3 = position 2 is NULL
  const void* columns[] = {values.data() + 3};
  const uint64_t* validities[] = {validity};
  uint32_t selection[] = {1, 2, 40};
  FloeScanBatch batch{3, 3, columns, validities, selection};
  DataChunk chunk = DataChunk::wrap(batch, {SqlType::integer()});
  EXPECT_EQ(chunk.count(), 3u);
  EXPECT_EQ(chunk.extent(), 41u);
  EXPECT_EQ(chunk.column(0).values<int32_t>(), values.data() + 3);
  EXPECT_EQ(chunk.column(0).get(1).to_string(), "40");
  EXPECT_TRUE(chunk.column(0).get(2).is_null());
  EXPECT_EQ(chunk.column(0).get(40).to_string(), "430");
}

TEST(VectorFormatTest, StoresStringsInTheChunkHeap) {
  DataChunk chunk(2);
  Vector& column = chunk.add_column(SqlType::text());
  column.set(0, Value::string("short"), chunk.heap());
  column.set(1, Value::string("a much longer string than twelve"), chunk.heap());
  EXPECT_EQ(column.get(0).as_string(), "short");
  EXPECT_EQ(column.get(1).as_string(), "a much longer string than twelve");
  column.set(1, Value::null(SqlType::text()), chunk.heap());
  EXPECT_TRUE(column.get(1).is_null());
  EXPECT_FALSE(column.get(0).is_null());
}

TEST(VectorCastTest, CastsLikeGeneratedCode) {
  QueryContext query(1);
  WorkerContext& worker = query.worker(0);
  Vector in(SqlType::double_type(), 3);
  in.mutable_values<double>()[0] = 2.5;
  in.mutable_values<double>()[1] = -3.5;
  in.mutable_values<double>()[2] = 1e10;
  Vector out(SqlType::integer(), 3);
  ASSERT_TRUE(cast_vector(in, out, nullptr, 2, worker));
  EXPECT_EQ(out.values<int32_t>()[0], 2);  // half to even
  EXPECT_EQ(out.values<int32_t>()[1], -4);
  EXPECT_FALSE(cast_vector(in, out, nullptr, 3, worker));
  EXPECT_EQ(query.error_message(), "integer out of range");

  QueryContext text_query(1);
  Vector text(SqlType::text(), 2);
  text.set(0, Value::string("12.345"), *text_query.worker(0).strings);
  text.set(1, Value::string("x"), *text_query.worker(0).strings);
  Vector decimal(SqlType::decimal(5, 2), 2);
  ASSERT_TRUE(cast_vector(text, decimal, nullptr, 1, text_query.worker(0)));
  EXPECT_EQ(decimal.get(0).to_string(), "12.35");
  EXPECT_FALSE(cast_vector(text, decimal, nullptr, 2, text_query.worker(0)));
  EXPECT_EQ(text_query.error_message(), "invalid input syntax for type numeric: \"x\"");
}

TEST(VectorFunctionTest, CallsTheRegistryThunkPerRow) {
  QueryContext query(1);
  const FunctionOverload& upper = function_registry().overloads("upper").at(0);
  Vector text(SqlType::text(), 3);
  text.set(0, Value::string("abc"), *query.worker(0).strings);
  text.set(2, Value::string("a longer string, out of line"), *query.worker(0).strings);
  Vector out(SqlType::text(), 3);
  const Vector* arguments[] = {&text};
  uint32_t present[] = {0, 2};
  ASSERT_TRUE(call_function(upper, query.worker(0), arguments, out, present, 2));
  EXPECT_EQ(out.get(0).as_string(), "ABC");
  EXPECT_EQ(out.get(2).as_string(), "A LONGER STRING, OUT OF LINE");
}

}  // namespace
}  // namespace floe::vectorized
