// Property test of the vectorized scan: random data of every restrictable type, with NULLs,
// laid out so that Data Blocks pick every compression scheme, and random conjunctions of
// restrictions. The rows a TableScanner returns must be exactly those a brute-force
// evaluation over the table's values selects: on hot, frozen and mixed tables, with SMA and
// PSMA skipping on and off, for several vector sizes and every SIMD level the CPU runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "runtime/runtime_abi.h"
#include "runtime/simd_match.h"
#include "runtime/table_scanner.h"
#include "storage/data_block.h"

namespace floe {
namespace {

constexpr uint64_t kRows = 4 * kChunkCapacity + 1234;

// Column 0 is a unique id; the others are the restricted columns.
std::vector<ColumnDef> columns() {
  return {{"id", SqlType::big_int(), false},         {"small", SqlType::small_int(), true},
          {"number", SqlType::integer(), false},     {"big", SqlType::big_int(), true},
          {"money", SqlType::decimal(12, 2), true},  {"wide", SqlType::decimal(30, 2), true},
          {"ratio", SqlType::double_type(), true},   {"day", SqlType::date(), false},
          {"name", SqlType::varchar(20), true},      {"flag", SqlType::boolean(), true}};
}

// Each chunk draws its values from another distribution, so that blocks use every scheme:
// 0 narrow ranges (truncation), 1 few distinct values (dictionary), 2 one value (single
// value, or all NULL), 3 wide ranges (uncompressed), 4 a mix.
int64_t draw(std::mt19937_64& random, uint64_t row, int64_t wide_range) {
  switch ((row >> kChunkShift) % 5) {
    case 0:
      return static_cast<int64_t>(random() % 200) - 50;
    case 1:
      return static_cast<int64_t>(random() % 7) * 1000 - 3000;
    case 2:
      return 42;
    case 3:
      return static_cast<int64_t>(random() % static_cast<uint64_t>(2 * wide_range)) - wide_range;
    default:
      return static_cast<int64_t>(random() % 100000);
  }
}

Value value_of(const ColumnDef& column, int64_t x) {
  switch (column.type.id) {
    case TypeId::kSmallInt:
      return Value::small_int(static_cast<int16_t>(x % 30000));
    case TypeId::kInteger:
      return Value::integer(static_cast<int32_t>(x));
    case TypeId::kBigInt:
      return Value::big_int(x * 1000003);
    case TypeId::kDecimal:
      return Value::decimal(int128_t{x} * (column.type.precision > 18 ? 1000000007 : 7),
                            column.type.precision, column.type.scale);
    case TypeId::kDouble:
      return Value::double_value(static_cast<double>(x) / 8);
    case TypeId::kDate:
      return Value::date(static_cast<int32_t>(x % 20000));
    case TypeId::kVarchar:
      return Value::string("s" + std::to_string(std::abs(x) % 5000), column.type);
    case TypeId::kBoolean:
      return Value::boolean(x % 2 != 0);
    default:
      return Value::null(column.type);
  }
}

// -1, 0, 1 like a three-way comparison of two non-NULL values of one type.
int compare(const Value& a, const Value& b) {
  switch (a.type().physical()) {
    case PhysicalType::kDouble:
      return a.as_double() < b.as_double() ? -1 : (a.as_double() > b.as_double() ? 1 : 0);
    case PhysicalType::kString:
      return a.as_string() < b.as_string() ? -1 : (a.as_string() > b.as_string() ? 1 : 0);
    default:
      return a.as_int128() < b.as_int128() ? -1 : (a.as_int128() > b.as_int128() ? 1 : 0);
  }
}

bool passes(const ScanRestriction& restriction, const Value& value) {
  switch (restriction.kind) {
    case ScanRestriction::Kind::kIsNull:
      return value.is_null();
    case ScanRestriction::Kind::kIsNotNull:
      return !value.is_null();
    case ScanRestriction::Kind::kIn:
      if (value.is_null()) return false;
      for (const Value& member : restriction.values)
        if (compare(value, member) == 0) return true;
      return false;
    case ScanRestriction::Kind::kRange:
      if (value.is_null()) return false;
      if (restriction.low) {
        int c = compare(value, restriction.low->value);
        if (c < 0 || (c == 0 && !restriction.low->inclusive)) return false;
      }
      if (restriction.high) {
        int c = compare(value, restriction.high->value);
        if (c > 0 || (c == 0 && !restriction.high->inclusive)) return false;
      }
      return true;
  }
  return false;
}

class ScanPropertyTest : public ::testing::Test {
 protected:
  ScanPropertyTest() : table_("t", columns(), {{"t_pkey", {0}, true}}) {
    std::mt19937_64 random(20261123);
    TableAppender appender(table_);
    const auto& defs = table_.columns();
    for (uint64_t row = 0; row < kRows; ++row) {
      std::vector<Value> values{Value::big_int(static_cast<int64_t>(row))};
      for (size_t c = 1; c < defs.size(); ++c) {
        bool all_null_chunk = (row >> kChunkShift) % 5 == 2 && c % 3 == 0;
        if (defs[c].nullable && (all_null_chunk || random() % 11 == 0))
          values.push_back(Value::null(defs[c].type));
        else
          values.push_back(value_of(defs[c], draw(random, row, 1'000'000'000)));
      }
      appender.append_row(values);
      samples_.push_back(values);
    }
  }

  // A random restriction on a random column, its constants drawn from the data.
  ScanRestriction random_restriction(std::mt19937_64& random) {
    ScanRestriction restriction;
    restriction.column = 1 + random() % (table_.columns().size() - 1);
    auto sample = [&] {
      for (;;) {
        const Value& value = samples_[random() % samples_.size()][restriction.column];
        if (!value.is_null()) return value;
      }
    };
    switch (random() % 8) {
      case 0:
        restriction.kind = ScanRestriction::Kind::kIsNull;
        break;
      case 1:
        restriction.kind = ScanRestriction::Kind::kIsNotNull;
        break;
      case 2:
        restriction.kind = ScanRestriction::Kind::kIn;
        for (int i = 0; i < 1 + static_cast<int>(random() % 4); ++i) {
          Value member = sample();
          bool seen = false;
          for (const Value& existing : restriction.values) seen = seen || compare(existing, member) == 0;
          if (!seen) restriction.values.push_back(member);
        }
        break;
      default: {
        Value a = sample(), b = sample();
        if (compare(a, b) > 0) std::swap(a, b);
        int shape = static_cast<int>(random() % 4);
        if (shape != 1) restriction.low = ScanRestriction::Bound{a, random() % 2 == 0};
        if (shape != 2) restriction.high = ScanRestriction::Bound{shape == 3 ? a : b, random() % 2 == 0};
        if (shape == 3) restriction.low->inclusive = restriction.high->inclusive = true;  // =
        if (table_.columns()[restriction.column].type.id == TypeId::kDouble && !restriction.high)
          restriction.high = ScanRestriction::Bound{b, true};  // as the planner requires
      }
    }
    return restriction;
  }

  std::set<int64_t> expected(const std::vector<ScanRestriction>& restrictions) const {
    std::set<int64_t> ids;
    for (uint64_t row = 0; row < kRows; ++row) {
      bool all = true;
      for (const auto& restriction : restrictions)
        all = all && passes(restriction, samples_[row][restriction.column]);
      if (all) ids.insert(static_cast<int64_t>(row));
    }
    return ids;
  }

  // Scans morsel by morsel, as the executor does; also checks that every returned value of
  // a restricted column equals the table's value of that row.
  std::set<int64_t> scanned(const std::vector<ScanRestriction>& restrictions,
                            const ScanSettings& settings) const {
    std::vector<size_t> wanted{0, 3, 8};
    TableScanner scanner(table_, wanted, restrictions, settings);
    std::set<int64_t> ids;
    FloeScanBatch batch;
    for (size_t c = 0; c < table_.chunk_count(); ++c) {
      uint64_t base = uint64_t{c} << kChunkShift;
      for (uint64_t begin = 0; begin < table_.chunk(c).size(); begin += 16384) {
        EXPECT_TRUE(floe_rt_scan_open(&scanner, base + begin, base + begin + 16384));
        while (uint32_t count = floe_rt_scan_next(&scanner, &batch)) {
          EXPECT_LE(count, settings.vector_size);
          const auto* id = static_cast<const int64_t*>(batch.columns[0]);
          const auto* names = static_cast<const StringRef*>(batch.columns[2]);
          for (uint32_t i = 0; i < count; ++i) {
            uint32_t row = batch.selection ? batch.selection[i] : i;
            EXPECT_TRUE(ids.insert(id[row]).second) << "row " << id[row] << " twice";
            uint32_t bit = batch.validity_offset + row;
            bool present = batch.validity[2][bit >> 6] >> (bit & 63) & 1;
            const Value& name = samples_[static_cast<size_t>(id[row])][8];
            EXPECT_EQ(present, !name.is_null()) << "row " << id[row];
            if (present && !name.is_null()) {
              EXPECT_EQ(names[row].view(), name.as_string());
            }
          }
        }
      }
    }
    return ids;
  }

  void check_random_conjunctions(int rounds, uint64_t seed) {
    std::mt19937_64 random(seed);
    const uint32_t vector_sizes[] = {8192, 1000, 1, 65536};
    for (int round = 0; round < rounds; ++round) {
      std::vector<ScanRestriction> restrictions;
      for (int i = 0; i < 1 + static_cast<int>(random() % 3); ++i)
        restrictions.push_back(random_restriction(random));
      ScanSettings settings;
      settings.vector_size = vector_sizes[round % 4 == 2 ? 1 : round % 4];
      if (settings.vector_size == 1) settings.vector_size = 7;
      settings.sma_skipping = round % 3 != 1;
      settings.psma = round % 2 == 0;
      ASSERT_EQ(scanned(restrictions, settings), expected(restrictions)) << "round " << round;
    }
  }

  Table table_;
  std::vector<std::vector<Value>> samples_;
};

TEST_F(ScanPropertyTest, HotChunks) {
  check_random_conjunctions(14, 1);
}

TEST_F(ScanPropertyTest, FrozenBlocksUseEverySchemeAndScanAlike) {
  table_.freeze_all();
  std::array<uint32_t, block_format::kSchemeCount> schemes{};
  for (size_t c = 0; c < table_.chunk_count(); ++c) {
    ASSERT_TRUE(table_.chunk(c).frozen());
    auto counts = table_.chunk(c).block()->scheme_counts();
    for (size_t s = 0; s < schemes.size(); ++s) schemes[s] += counts[s];
  }
  for (size_t s = 0; s < schemes.size(); ++s) EXPECT_GT(schemes[s], 0u) << "scheme " << s;
  check_random_conjunctions(24, 2);
}

TEST_F(ScanPropertyTest, MixedHotAndFrozenEverySimdLevel) {
  table_.freeze_chunks({0, 2, 3});
  for (int level = 0; level <= static_cast<int>(simd::best_isa()); ++level) {
    simd::set_isa(static_cast<simd::Isa>(level));
    check_random_conjunctions(5, 3 + level);
  }
  simd::set_isa(simd::best_isa());
}

TEST_F(ScanPropertyTest, SortedFreezeKeepsTheRows) {
  table_.freeze_all(size_t{2});
  check_random_conjunctions(8, 7);
}

TEST_F(ScanPropertyTest, SmaSkipsBlocksAndPsmaNarrows) {
  table_.freeze_all();
  // `number` in chunk 1 holds only multiples of 1000; 1 <= number <= 5 is in no such block.
  ScanRestriction restriction;
  restriction.column = 2;
  restriction.low = ScanRestriction::Bound{Value::integer(-20), true};
  restriction.high = ScanRestriction::Bound{Value::integer(-10), true};
  TableScanner scanner(table_, {0}, {restriction});
  FloeScanBatch batch;
  ASSERT_TRUE(scanner.open(0, uint64_t{5} << kChunkShift));
  uint64_t rows = 0;
  while (uint32_t count = scanner.next(batch)) rows += count;
  EXPECT_EQ(rows, expected({restriction}).size());
  EXPECT_GT(scanner.statistics().blocks_skipped, 0u);
  EXPECT_EQ(scanner.statistics().rows_matched, rows);
}

}  // namespace
}  // namespace floe

namespace floe {
namespace {

TEST(ScanPsmaTest, NarrowedRowsAreCountedOnce) {
  Table table("p", {{"v", SqlType::integer(), false}}, {});
  TableAppender appender(table);
  for (int32_t v = 0; v < static_cast<int32_t>(kChunkCapacity); ++v)
    appender.append_row({Value::integer(v)});
  table.freeze_all();
  ScanRestriction restriction;
  restriction.column = 0;
  restriction.low = restriction.high = ScanRestriction::Bound{Value::integer(100), true};
  TableScanner scanner(table, {0}, {restriction});
  FloeScanBatch batch;
  ASSERT_TRUE(scanner.open(0, kChunkCapacity));
  ASSERT_EQ(scanner.next(batch), 1u);
  EXPECT_EQ(static_cast<const int32_t*>(batch.columns[0])[0], 100);
  EXPECT_EQ(scanner.next(batch), 0u);
  // Delta 100 has one significant byte: its PSMA slot holds exactly row 100 (Appendix B).
  EXPECT_EQ(scanner.statistics().psma_rows_removed, kChunkCapacity - 1);
  EXPECT_EQ(scanner.statistics().rows_matched, 1u);
}

}  // namespace
}  // namespace floe
