// Secondary indexes (CREATE INDEX) and index scans: non-unique and composite keys with NULLs,
// point and range lookups on key prefixes with inclusive and exclusive bounds, the "could not
// create unique index" error, and the TableScanner reading a sorted row-id list from hot
// chunks and Data Blocks — each checked against a brute-force pass over the rows.
#include <gtest/gtest.h>

#include <algorithm>

#include "runtime/index_lookup.h"
#include "runtime/table_scanner.h"
#include "storage/error.h"
#include "storage/table.h"
#include "tests/unit/scanner_values.h"

namespace floe {
namespace {

constexpr int64_t kRows = 150000;  // three chunks

// a = i % 100 (NULL when i % 7 == 0), b = 'v' || i % 13, c = i.
std::unique_ptr<Table> make_table() {
  auto table =
      std::make_unique<Table>("t", std::vector<ColumnDef>{{"a", SqlType::integer(), true},
                                                          {"b", SqlType::varchar(10), true},
                                                          {"c", SqlType::big_int(), false}});
  TableAppender appender(*table);
  for (int64_t i = 0; i < kRows; ++i) {
    appender.append_row({i % 7 == 0 ? Value::null(SqlType::integer())
                                    : Value::integer(static_cast<int32_t>(i % 100)),
                         Value::string("v" + std::to_string(i % 13)), Value::big_int(i)});
  }
  return table;
}

KeyConstraint index_on(std::string name, std::vector<size_t> columns, bool unique = false) {
  KeyConstraint index;
  index.name = std::move(name);
  index.columns = std::move(columns);
  index.unique = unique;
  index.standalone = true;
  return index;
}

std::vector<uint64_t> scan(const UniqueIndex& index, std::optional<IndexBound> low,
                           std::optional<IndexBound> high) {
  std::vector<uint64_t> rows = index_row_ids({&index, {{std::move(low), std::move(high)}}});
  return rows;
}

// The row ids whose column values pass `keep`, in row id order.
template <typename Keep>
std::vector<uint64_t> brute_force(const Table& table, Keep keep) {
  std::vector<uint64_t> rows;
  for (size_t c = 0; c < table.chunk_count(); ++c) {
    for (uint32_t r = 0; r < table.chunk(c).size(); ++r) {
      uint64_t id = uint64_t{c} << kChunkShift | r;
      if (keep(table.value_at(id, 0), table.value_at(id, 1))) rows.push_back(id);
    }
  }
  return rows;
}

void check_lookups(const Table& table, const UniqueIndex& single, const UniqueIndex& composite) {
  auto a = [](int32_t v) { return Value::integer(v); };
  auto b = [](const std::string& v) { return Value::string(v, SqlType::varchar(10)); };
  // Point lookup of a non-unique key: every duplicate, none with a NULL.
  EXPECT_EQ(scan(single, IndexBound{{a(42)}}, IndexBound{{a(42)}}),
            brute_force(table, [](const Value& x, const Value&) {
              return !x.is_null() && x.as_int64() == 42;
            }));
  // Ranges with either kind of bound, and open-ended ones (NULLs sort last: never included).
  EXPECT_EQ(scan(single, IndexBound{{a(10)}, false}, IndexBound{{a(20)}, true}),
            brute_force(table, [](const Value& x, const Value&) {
              return !x.is_null() && x.as_int64() > 10 && x.as_int64() <= 20;
            }));
  EXPECT_EQ(scan(single, IndexBound{{a(95)}, true}, std::nullopt),
            brute_force(table, [](const Value& x, const Value&) {
              return x.is_null() || x.as_int64() >= 95;  // NULLs sort after every value
            }));
  EXPECT_EQ(scan(single, std::nullopt, IndexBound{{a(3)}, false}),
            brute_force(table, [](const Value& x, const Value&) {
              return !x.is_null() && x.as_int64() < 3;
            }));
  // A prefix of the composite key finds rows whatever their later key column.
  EXPECT_EQ(scan(composite, IndexBound{{b("v5")}}, IndexBound{{b("v5")}}),
            brute_force(table, [](const Value&, const Value& y) { return y.as_string() == "v5"; }));
  // The whole composite key, and a range on its second column.
  EXPECT_EQ(scan(composite, IndexBound{{b("v5"), a(44)}}, IndexBound{{b("v5"), a(44)}}),
            brute_force(table, [](const Value& x, const Value& y) {
              return y.as_string() == "v5" && !x.is_null() && x.as_int64() == 44;
            }));
  EXPECT_EQ(scan(composite, IndexBound{{b("v5"), a(40)}, false}, IndexBound{{b("v5")}, true}),
            brute_force(table, [](const Value& x, const Value& y) {
              return y.as_string() == "v5" && (x.is_null() || x.as_int64() > 40);
            }));
  EXPECT_TRUE(scan(single, IndexBound{{a(500)}}, IndexBound{{a(500)}}).empty());
  EXPECT_EQ(single.lookup({a(42)}).size(), brute_force(table, [](const Value& x, const Value&) {
                                             return !x.is_null() && x.as_int64() == 42;
                                           }).size());
}

TEST(IndexScanTest, NonUniqueAndCompositeLookupsOnHotAndFrozenChunks) {
  auto table = make_table();
  const UniqueIndex& single = table->add_index(index_on("t_a_idx", {0}));
  const UniqueIndex& composite = table->add_index(index_on("t_b_a_idx", {1, 0}));
  EXPECT_EQ(single.size(), static_cast<size_t>(kRows));
  check_lookups(*table, single, composite);
  // Rows appended later are indexed one by one, across a new chunk.
  TableAppender appender(*table);
  appender.append_row({Value::integer(42), Value::string("v5"), Value::big_int(-1)});
  check_lookups(*table, single, composite);
  // Frozen into Data Blocks (row order kept), then frozen sorted on b (rows move: rebuilt).
  table->freeze_all();
  check_lookups(*table, single, composite);
  table->freeze_all(1);
  check_lookups(*table, single, composite);
}

TEST(IndexScanTest, UniqueIndexOnDuplicatesIsNotCreated) {
  auto table = make_table();
  try {
    table->add_index(index_on("t_b_key", {1}, true));
    FAIL() << "created";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "could not create unique index \"t_b_key\"\nDETAIL:  Key (b)=(v0) is duplicated.");
  }
  EXPECT_EQ(table->find_index("t_b_key"), nullptr);
  // c is unique: the index is made and then enforced on insert.
  table->add_index(index_on("t_c_key", {2}, true));
  try {
    TableAppender(*table).append_row({Value::integer(1), Value::string("x"), Value::big_int(7)});
    FAIL() << "duplicate accepted";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "duplicate key value violates unique constraint \"t_c_key\"\n"
                 "DETAIL:  Key (c)=(7) already exists.");
  }
  EXPECT_EQ(table->row_count(), static_cast<uint64_t>(kRows));
  EXPECT_TRUE(table->drop_index("t_c_key"));
  EXPECT_FALSE(table->drop_index("t_c_key"));
  TableAppender(*table).append_row({Value::integer(1), Value::string("x"), Value::big_int(7)});
}

// The scanner visits only the listed rows, applying its restrictions to them.
std::vector<int64_t> scan_listed(const Table& table, const std::vector<uint64_t>& ids,
                                 std::vector<ScanRestriction> restrictions, uint64_t begin,
                                 uint64_t end) {
  ScanSettings settings;
  settings.vector_size = 1000;
  TableScanner scanner(table, {2}, std::move(restrictions), settings, &ids);
  scanner.open(begin, end);
  return test::drain_bigint_column(scanner);
}

TEST(IndexScanTest, ScannerReadsARowIdList) {
  auto table = make_table();
  std::vector<uint64_t> ids;
  std::vector<int64_t> expected, restricted, second_chunk;
  for (int64_t i = 3; i < kRows; i += 37) {
    ids.push_back(uint64_t(i / kChunkCapacity) << kChunkShift | uint64_t(i % kChunkCapacity));
    expected.push_back(i);
    if (i % 2 == 0) restricted.push_back(i);
    if (i >= kChunkCapacity && i < 2 * kChunkCapacity) second_chunk.push_back(i);
  }
  ScanRestriction even;  // c IN (even numbers among the listed ones)
  even.column = 2;
  even.kind = ScanRestriction::Kind::kIn;
  for (int64_t value : restricted) even.values.push_back(Value::big_int(value));
  for (bool frozen : {false, true}) {
    if (frozen) table->freeze_all();
    EXPECT_EQ(scan_listed(*table, ids, {}, 0, ~uint64_t{0}), expected);
    EXPECT_EQ(scan_listed(*table, ids, {even}, 0, ~uint64_t{0}), restricted);
    // A morsel: only the listed rows inside [begin, end).
    EXPECT_EQ(scan_listed(*table, ids, {}, uint64_t{1} << kChunkShift, uint64_t{2} << kChunkShift),
              second_chunk);
  }
}

}  // namespace
}  // namespace floe
