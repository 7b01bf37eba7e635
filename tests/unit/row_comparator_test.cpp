// The C++ row comparator (runtime/vector/row_order.h) against generated code: rows of a
// table sorted through RowOrder and runtime/parallel_sort.h must come out in the order the
// compiled engine's ORDER BY gives, for every type, ASC/DESC and NULLS FIRST/LAST.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/api/database.h"
#include "engine/plan/row_layout.h"
#include "runtime/parallel_sort.h"
#include "runtime/vector/row_order.h"

namespace floe::vectorized {
namespace {

const char* const kColumns[] = {"id", "i", "t", "d", "n", "iv", "b"};

class RowComparatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // 10,000 rows (several parallel sort runs) with duplicates, NULLs, NaN, -0.0, equal
    // intervals of different representation and strings around the inline length.
    connection_.query(
        "create table rc_rows as select g as id,"
        " case when g % 7 = 0 then null else (g * 37) % 101 - 50 end as i,"
        " case when g % 11 = 0 then null else repeat('x', g % 15) || ((g * 13) % 29) end as t,"
        " case when g % 13 = 0 then null when g % 17 = 0 then cast('NaN' as double precision)"
        "  when g % 19 = 0 then cast('-0' as double precision)"
        "  else ((g * 7) % 23) / 4.0 - 2 end as d,"
        " case when g % 5 = 0 then null else cast(((g * 31) % 97) / 8.0 as numeric(12,2)) end as n,"
        " case when g % 9 = 0 then null when g % 4 = 0 then interval '1 month'"
        "  else (g % 40) * interval '1 day' end as iv,"
        " case when g % 3 = 0 then null else g % 2 = 0 end as b"
        " from generate_series(1, 10000) as s(g)");
    Result result = connection_.query("select id, i, t, d, n, iv, b from rc_rows");
    std::vector<plan::RowField> fields;
    for (size_t c = 0; c < result.column_count(); ++c)
      fields.push_back({result.column_type(c), true});
    layout_ = plan::RowLayout(fields);
    values_ = result.rows();  // the rows' long strings point into these Values
    bytes_.assign(layout_.size() * values_.size(), 0);
    for (size_t r = 0; r < values_.size(); ++r) {
      uint8_t* row = bytes_.data() + r * layout_.size();
      for (size_t c = 0; c < result.column_count(); ++c) {
        const Value& value = values_[r][c];
        row[layout_.null_offset(c)] = value.is_null();
        if (!value.is_null()) value.write_physical(row + layout_.offset(c));
      }
      rows_.push_back(row);
    }
  }

  struct Key {
    size_t column;
    bool descending;
    bool nulls_first;
  };

  // The ids in the compiled engine's ORDER BY `keys`, id.
  std::vector<int64_t> compiled(const std::vector<Key>& keys) {
    std::string sql = "select id from rc_rows order by ";
    for (const Key& key : keys) {
      sql += std::string(kColumns[key.column]) + (key.descending ? " desc" : " asc") +
             (key.nulls_first ? " nulls first, " : " nulls last, ");
    }
    Result result = connection_.query(sql + "id");
    std::vector<int64_t> ids;
    for (size_t r = 0; r < result.row_count(); ++r) ids.push_back(result.value(r, 0).as_int64());
    return ids;
  }

  // The ids sorted by RowOrder over the same keys, id.
  std::vector<int64_t> sorted(const std::vector<Key>& keys) {
    std::vector<SortKeySlot> slots;
    for (const Key& key : keys) {
      RowSlot slot = plan::row_slot(layout_, key.column);
      slots.push_back({slot, slot, key.descending, key.nulls_first});
    }
    RowSlot id = plan::row_slot(layout_, 0);
    slots.push_back({id, id, false, false});
    RowOrder order(std::move(slots));
    RowComparator comparator = order.comparator();
    std::vector<const uint8_t*> rows = rows_;
    parallel_stable_sort(
        rows, [&](const uint8_t* a, const uint8_t* b) { return comparator(a, b) < 0; }, 4, nullptr);
    std::vector<int64_t> ids;
    for (const uint8_t* row : rows) ids.push_back(id.load<int32_t>(row));
    return ids;
  }

  Database database_;
  Connection connection_{database_};
  std::vector<std::vector<Value>> values_;
  plan::RowLayout layout_;
  std::vector<uint8_t> bytes_;
  std::vector<const uint8_t*> rows_;
};

TEST_F(RowComparatorTest, EveryTypeInEveryDirectionSortsAsCompiledCode) {
  for (size_t column = 1; column < std::size(kColumns); ++column) {
    for (bool descending : {false, true}) {
      for (bool nulls_first : {false, true}) {
        std::vector<Key> keys = {{column, descending, nulls_first}};
        EXPECT_EQ(sorted(keys), compiled(keys))
            << kColumns[column] << (descending ? " desc" : "") << (nulls_first ? " nf" : "");
      }
    }
  }
}

TEST_F(RowComparatorTest, LaterKeysBreakTies) {
  std::vector<std::vector<Key>> orders = {
      {{6, false, true}, {2, true, false}},
      {{4, true, false}, {3, false, true}, {1, true, true}},
      {{5, false, false}, {6, true, true}},
  };
  for (const auto& keys : orders) EXPECT_EQ(sorted(keys), compiled(keys));
}

// A window's RANGE bound compares one field of the first row with another of the second.
TEST_F(RowComparatorTest, ComparesAnotherFieldOfTheSecondRow) {
  plan::RowLayout layout({{SqlType::integer(), true}, {SqlType::integer(), true}});
  std::vector<uint8_t> a(layout.size()), b(layout.size());
  RowSlot first = plan::row_slot(layout, 0), second = plan::row_slot(layout, 1);
  first.store(a.data(), int32_t{5});
  second.store(b.data(), int32_t{7});
  first.store(b.data(), int32_t{1});
  RowOrder order({{first, second, false, false}});
  EXPECT_EQ(order.compare(a.data(), b.data()), -1);
  RowOrder descending({{first, second, true, false}});
  EXPECT_EQ(descending.compare(a.data(), b.data()), 1);
  b[layout.null_offset(1)] = 1;
  EXPECT_EQ(order.compare(a.data(), b.data()), -1);  // NULLS LAST: the value comes first
}

}  // namespace
}  // namespace floe::vectorized
