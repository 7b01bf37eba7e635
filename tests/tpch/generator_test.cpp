// floe's TPC-H generator against dbgen 2.14: sha256, size and row count of every table
// (bench/tpch/dbgen-checksums.txt), and independence of generated row ranges.
// SF 1 and SF 10 are DISABLED_ here; with -DFLOE_SLOW_TESTS=ON they are the ctest tests
// labeled "slow": ctest -L slow.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "bench/tpch/sha256.h"
#include "tpch/table_generators.h"
#include "tpch/tbl_format.h"
#include "tpch/tbl_text.h"

namespace floe::tpch {
namespace {

struct TableDigest {
  std::string sha256;
  int64_t bytes = 0;
  int64_t rows = 0;

  bool operator==(const TableDigest&) const = default;
};

std::ostream& operator<<(std::ostream& out, const TableDigest& digest) {
  return out << digest.sha256 << " " << digest.bytes << " bytes " << digest.rows << " rows";
}

// The published digests of one scale factor ("0.01", "1", ...), by table.
std::map<std::string, TableDigest> expected_digests(const std::string& scale_factor) {
  std::ifstream in(std::string(FLOE_SOURCE_DIR) + "/bench/tpch/dbgen-checksums.txt");
  std::map<std::string, TableDigest> digests;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    TableDigest digest;
    std::string path;
    fields >> digest.sha256 >> digest.bytes >> digest.rows >> path;
    std::string prefix = "sf" + scale_factor + "/";
    if (path.starts_with(prefix))
      digests[path.substr(prefix.size(), path.size() - prefix.size() - 4)] = digest;
  }
  return digests;
}

std::map<std::string, TableDigest> generated_digests(double scale_factor) {
  std::map<std::string, Sha256> hashes;
  std::map<std::string, TableDigest> digests;
  generate_tbl_text(scale_factor, 0, [&](std::string_view table, std::string_view text) {
    std::string name(table);
    hashes[name].update(text);
    digests[name].bytes += static_cast<int64_t>(text.size());
    digests[name].rows += std::count(text.begin(), text.end(), '\n');
  });
  for (auto& [name, hash] : hashes) digests[name].sha256 = hash.hex_digest();
  return digests;
}

void expect_dbgen_output(const std::string& scale_factor) {
  std::map<std::string, TableDigest> expected = expected_digests(scale_factor);
  ASSERT_EQ(expected.size(), 8u) << "checksums of SF " << scale_factor;
  std::map<std::string, TableDigest> generated = generated_digests(std::stod(scale_factor));
  for (const auto& [table, digest] : expected) EXPECT_EQ(generated[table], digest) << table;
  EXPECT_EQ(generated.size(), 8u);
}

TEST(TpchGeneratorTest, MatchesDbgenAtScaleFactor0_01) {
  expect_dbgen_output("0.01");
}

TEST(TpchGeneratorTest, MatchesDbgenAtScaleFactor0_1) {
  expect_dbgen_output("0.1");
}

TEST(TpchGeneratorSlowTest, DISABLED_MatchesDbgenAtScaleFactor1) {
  expect_dbgen_output("1");
}

TEST(TpchGeneratorSlowTest, DISABLED_MatchesDbgenAtScaleFactor10) {
  expect_dbgen_output("10");
}

// Generating [0, n) in one piece or in arbitrary pieces gives the same lines.
template <typename Row, typename Generate>
void expect_ranges_independent(int64_t rows, int64_t split, Generate generate) {
  std::string whole, pieces;
  auto sink_into = [](std::string& out) {
    return RowSink<Row>([&out](const Row& row) { append_tbl_line(out, row); });
  };
  generate(0, rows, sink_into(whole));
  generate(0, split, sink_into(pieces));
  generate(split, split + 1, sink_into(pieces));
  generate(split + 1, rows, sink_into(pieces));
  EXPECT_FALSE(whole.empty());
  EXPECT_EQ(whole, pieces);
}

TEST(TpchGeneratorTest, RowRangesAreIndependent) {
  Scale scale = make_scale(0.01);
  expect_ranges_independent<RegionRow>(kRegionCount, 2, generate_regions);
  expect_ranges_independent<NationRow>(kNationCount, 11, generate_nations);
  expect_ranges_independent<SupplierRow>(scale.suppliers, 37, generate_suppliers);
  expect_ranges_independent<CustomerRow>(scale.customers, 701, generate_customers);
  expect_ranges_independent<PartRow>(300, 123, [&](int64_t b, int64_t e, const auto& sink) {
    generate_parts(scale, b, e, sink, {});
  });
  expect_ranges_independent<PartSuppRow>(300, 77, [&](int64_t b, int64_t e, const auto& sink) {
    generate_parts(scale, b, e, {}, sink);
  });
  expect_ranges_independent<OrderRow>(900, 450, [&](int64_t b, int64_t e, const auto& sink) {
    generate_orders(scale, b, e, sink, {});
  });
  expect_ranges_independent<LineItemRow>(900, 333, [&](int64_t b, int64_t e, const auto& sink) {
    generate_orders(scale, b, e, {}, sink);
  });
}

TEST(TpchGeneratorTest, FirstRowsMatchDbgen) {
  std::string lines;
  generate_customers(0, 1, [&](const CustomerRow& row) { append_tbl_line(lines, row); });
  generate_orders(make_scale(0.01), 0, 1, {},
                  [&](const LineItemRow& row) { append_tbl_line(lines, row); });
  EXPECT_EQ(lines.substr(0, lines.find('\n', lines.find('\n') + 1) + 1),
            "1|Customer#000000001|IVhzIApeRb ot,c,E|15|25-989-741-2988|711.56|BUILDING|to the "
            "even, regular platelets. regular, ironic epitaphs nag e|\n"
            "1|1552|93|1|17|24710.35|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN "
            "PERSON|TRUCK|egular courts above the|\n");
}

}  // namespace
}  // namespace floe::tpch
