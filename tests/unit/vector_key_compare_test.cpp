// The check step of the vectorized hash join and aggregation (runtime/vector/key_match.h):
// probe vectors against candidate rows laid out by plan::RowLayout, with generated code's
// key equality (ExpressionCompiler::equal) as the reference.
#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <limits>
#include <string>
#include <vector>

#include "engine/plan/row_layout.h"
#include "runtime/vector/key_match.h"
#include "tests/unit/codegen_expression_harness.h"

namespace floe::vectorized {
namespace {

// Candidate rows of one layout, one per probe position.
class Rows {
 public:
  Rows(plan::RowLayout layout, size_t count)
      : layout_(std::move(layout)), bytes_(layout_.size() * count), pointers_(count) {
    for (size_t i = 0; i < count; ++i) pointers_[i] = bytes_.data() + i * layout_.size();
  }
  void set(size_t row, size_t field, Value value) {
    RowSlot slot = plan::row_slot(layout_, field);
    uint8_t* bytes = pointers_[row];
    // A long string's row field points into its Value, which stays here.
    const Value& kept = values_.emplace_back(std::move(value));
    if (slot.null_offset >= 0) bytes[slot.null_offset] = kept.is_null();
    if (!kept.is_null()) kept.write_physical(bytes + slot.offset);
  }
  RowSlot slot(size_t field) const { return plan::row_slot(layout_, field); }
  const uint8_t* const* pointers() const { return pointers_.data(); }

 private:
  plan::RowLayout layout_;
  std::vector<uint8_t> bytes_;
  std::vector<uint8_t*> pointers_;
  std::deque<Value> values_;
};

// Pairs of values of one type; the probe side holds .first, the row .second.
struct Pair {
  Value probe;
  Value row;
};

std::vector<Pair> pairs_of_every_type() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::string long_a(40, 'a'), long_b = long_a;
  long_b.back() = 'b';
  return {
      {Value::integer(5), Value::integer(5)},
      {Value::integer(5), Value::integer(-5)},
      {Value::small_int(3), Value::small_int(3)},
      {Value::big_int(1LL << 40), Value::big_int((1LL << 40) + 1)},
      {Value::boolean(true), Value::boolean(true)},
      {Value::boolean(true), Value::boolean(false)},
      {Value::decimal(150, 10, 2), Value::decimal(150, 10, 2)},
      {Value::decimal(int128_t{1} << 100, 38, 2), Value::decimal(int128_t{1} << 100, 38, 2)},
      {Value::decimal(int128_t{1} << 100, 38, 2), Value::decimal(int128_t{1} << 99, 38, 2)},
      {Value::double_value(0.0), Value::double_value(-0.0)},
      {Value::double_value(nan), Value::double_value(nan)},
      {Value::double_value(nan), Value::double_value(1.0)},
      {Value::double_value(2.5), Value::double_value(2.5)},
      {Value::interval({1, 0, 0}), Value::interval({0, 30, 0})},
      {Value::interval({1, 0, 0}), Value::interval({0, 31, 0})},
      {Value::string("abc"), Value::string("abc")},
      {Value::string("abc"), Value::string("abd")},
      {Value::string("abc"), Value::string("abc ")},
      {Value::string(long_a), Value::string(long_a)},
      {Value::string(long_a), Value::string(long_b)},
      {Value::string(""), Value::string("")},
  };
}

// Runs match_key_column over one probe row and one candidate row.
bool matches(const Value& probe, const Value& row, bool nulls_equal) {
  StringHeap heap;
  Vector vector(probe.type(), 1);
  vector.set(0, probe, heap);
  Rows rows(plan::RowLayout({{row.type(), true}}), 1);
  rows.set(0, 0, row);
  uint32_t out[1];
  return match_key_column(vector, nullptr, 1, rows.pointers(), rows.slot(0), nulls_equal, out) == 1;
}

TEST(VectorKeyCompareTest, EqualityIsGeneratedCodes) {
  for (const Pair& pair : pairs_of_every_type()) {
    bool compiled = codegen::testing::key_functions(pair.probe, pair.row).equal;
    EXPECT_EQ(matches(pair.probe, pair.row, false), compiled)
        << pair.probe.to_string() << " = " << pair.row.to_string();
    EXPECT_EQ(matches(pair.probe, pair.row, true), compiled);
  }
}

TEST(VectorKeyCompareTest, NullsMatchOnlyEachOtherAndOnlyWhenAsked) {
  for (const Pair& pair : pairs_of_every_type()) {
    Value null = Value::null(pair.probe.type());
    for (bool nulls_equal : {false, true}) {
      EXPECT_FALSE(matches(null, pair.row, nulls_equal)) << pair.row.to_string();
      EXPECT_FALSE(matches(pair.probe, null, nulls_equal)) << pair.probe.to_string();
      EXPECT_EQ(matches(null, null, nulls_equal), nulls_equal) << pair.probe.to_string();
    }
  }
}

// Several key columns narrow one selection, column after column (X100's check), over a
// chunk with a selection vector and rows shared between probe positions.
TEST(VectorKeyCompareTest, NarrowsTheSelectionKeyByKey) {
  const uint32_t extent = 3000;
  StringHeap heap;
  Vector ids(SqlType::integer(), extent);
  Vector names(SqlType::text(), extent);
  Rows rows(plan::RowLayout({{SqlType::integer(), false}, {SqlType::text(), true}}), extent);
  std::vector<const uint8_t*> candidates(extent);
  auto name = [](uint32_t i) { return "name number " + std::to_string(i % 11); };
  for (uint32_t p = 0; p < extent; ++p) {
    ids.set(p, Value::integer(int32_t(p % 13)), heap);
    names.set(p, p % 17 == 0 ? Value::null(SqlType::text()) : Value::string(name(p)), heap);
    // Candidate row r holds id r % 13 and name(r), or NULL for r % 19 == 0.
    rows.set(p, 0, Value::integer(int32_t(p % 13)));
    rows.set(p, 1, p % 19 == 0 ? Value::null(SqlType::text()) : Value::string(name(p)));
  }
  // Probe position p meets the candidate row (p * 7) % extent.
  for (uint32_t p = 0; p < extent; ++p) candidates[p] = rows.pointers()[(p * 7) % extent];
  std::vector<uint32_t> sel;
  for (uint32_t p = 0; p < extent; p += 2) sel.push_back(p);
  auto n = static_cast<uint32_t>(sel.size());
  n = match_key_column(ids, sel.data(), n, candidates.data(), rows.slot(0), false, sel.data());
  n = match_key_column(names, sel.data(), n, candidates.data(), rows.slot(1), false, sel.data());
  std::vector<uint32_t> expected;
  for (uint32_t p = 0; p < extent; p += 2) {
    uint32_t r = (p * 7) % extent;
    if (p % 13 == r % 13 && p % 17 != 0 && r % 19 != 0 && p % 11 == r % 11) expected.push_back(p);
  }
  sel.resize(n);
  EXPECT_EQ(sel, expected);
  EXPECT_FALSE(expected.empty());
}

}  // namespace
}  // namespace floe::vectorized
