// floe-point-lookups: the Data Blocks paper's Table 3. Random point lookups
// `select * from customer where c_custkey = k` on TPC-H customer, ordered on c_custkey (as
// dbgen generates it) and shuffled, on hot chunks and on Data Blocks with and without PSMAs.
//
//   floe-point-lookups [--sf 1] [--copies 10] [--lookups 100000] [--queries 200]
//   (small: --sf 0.01 --copies 2 --lookups 1000 --queries 10)
//
// customer is generated at --sf and copied --copies times with shifted keys (SF 1 x 10 =
// 1.5M rows, the customer table of SF 10), so that a scan has many blocks to skip.
//  - "index": the key is looked up in the table's primary key index (an Adaptive Radix Tree,
//    storage/art.h, which loads the key of the row it finds from the table to verify it),
//    then the whole row is read by position (Table::value_at), --lookups times. Hot against
//    frozen measures what the paper's ratio does: finding and reading a row in Data Blocks
//    against hot chunks.
//  - "no index": the lookup runs as a query, --queries times with random keys, once with the
//    JIT scan and once with the vectorized scan; lookups per second are 1000 / the median
//    execution time (ms), compile time excluded, as a prepared statement would compile once.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "engine/api/database.h"
#include "storage/art_key.h"
#include "storage/error.h"

namespace floe {
namespace {

struct Options {
  double scale_factor = 1;
  int copies = 10;
  int lookups = 100000;
  int queries = 200;
};

constexpr const char* kUsage =
    "usage: floe-point-lookups [--sf 1] [--copies 10] [--lookups 100000] [--queries 200]\n"
    "  small settings: --sf 0.01 --copies 2 --lookups 1000 --queries 10\n";

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--help") {
      std::printf("%s", kUsage);
      std::exit(0);
    }
    if (i + 1 >= argc) throw Error("option " + flag + " needs a value\n" + kUsage);
    if (flag == "--sf") {
      options.scale_factor = std::stod(argv[i + 1]);
    } else if (flag == "--copies") {
      options.copies = std::stoi(argv[i + 1]);
    } else if (flag == "--lookups") {
      options.lookups = std::stoi(argv[i + 1]);
    } else if (flag == "--queries") {
      options.queries = std::stoi(argv[i + 1]);
    } else {
      throw Error("unknown option " + flag + "\n" + kUsage);
    }
  }
  return options;
}

// customer_ordered: --copies copies of dbgen's customer with keys shifted by the table size,
// in key order. customer_shuffled: the same rows in a pseudo-random order (multiplying the
// key by a prime modulo a larger prime permutes it).
int64_t build_tables(Connection& connection, const Options& options) {
  connection.query("set freeze_policy = 'never'");
  connection.query("call dbgen(" + std::to_string(options.scale_factor) + ")");
  int64_t base = connection.query("select count(*) from customer").value(0, 0).as_int64();
  for (const char* name : {"customer_ordered", "customer_shuffled"}) {
    connection.query(std::string("create table ") + name +
                     " (c_custkey integer primary key, c_name varchar(25) not null, "
                     "c_address varchar(40) not null, c_nationkey integer not null, "
                     "c_phone char(15) not null, c_acctbal decimal(15,2) not null, "
                     "c_mktsegment char(10) not null, c_comment varchar(117) not null)");
  }
  for (int copy = 0; copy < options.copies; ++copy) {
    connection.query(
        "insert into customer_ordered select c_custkey + " + std::to_string(copy * base) +
        ", c_name, c_address, c_nationkey, c_phone, c_acctbal, c_mktsegment, c_comment "
        "from customer order by c_custkey");
  }
  connection.query(
      "insert into customer_shuffled select * from customer_ordered "
      "order by (cast(c_custkey as bigint) * 7919) % 2147483647");
  return base * options.copies;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Lookups per second through the primary key index and Table::value_at of every column.
double index_lookups_per_second(const Table& table, const std::vector<int64_t>& keys) {
  const UniqueIndex& index = *table.primary_index();
  const SqlType key_type = table.columns()[index.constraint().columns[0]].type;
  size_t checksum = 0;
  std::string encoded;
  auto start = std::chrono::steady_clock::now();
  for (int64_t key : keys) {
    encoded.clear();
    auto custkey = static_cast<int32_t>(key);
    append_key_part(encoded, key_type, &custkey);
    std::optional<uint64_t> row = index.find(encoded);
    if (!row) throw Error("key " + std::to_string(key) + " not in the index");
    for (size_t column = 0; column < table.columns().size(); ++column)
      checksum += table.value_at(*row, column).is_null() ? 0 : 1;
  }
  double elapsed = seconds_since(start);
  if (checksum != keys.size() * table.columns().size()) throw Error("unexpected NULL in customer");
  return double(keys.size()) / elapsed;
}

// Lookups per second as queries: 1000 / the median execution time of `queries` lookups.
double scan_lookups_per_second(Connection& connection, const std::string& table,
                               const std::vector<int64_t>& keys, int queries) {
  std::vector<double> execute_ms;
  for (int i = 0; i < queries; ++i) {
    int64_t key = keys[static_cast<size_t>(i) % keys.size()];
    Result result =
        connection.query("select * from " + table + " where c_custkey = " + std::to_string(key));
    if (result.row_count() != 1 || result.value(0, 0).as_int64() != key)
      throw Error("lookup of " + std::to_string(key) + " in " + table + " failed");
    execute_ms.push_back(result.timings().execute_ms);
  }
  std::nth_element(execute_ms.begin(), execute_ms.begin() + execute_ms.size() / 2,
                   execute_ms.end());
  return 1000.0 / std::max(execute_ms[execute_ms.size() / 2], 1e-6);
}

struct Row {
  std::string storage;
  std::string access;
  double ordered;
  double shuffled;
};

void print(const std::vector<Row>& rows) {
  std::printf("| storage | access | ordered (lookups/s) | shuffled (lookups/s) |\n");
  std::printf("|---|---|---|---|\n");
  for (const Row& row : rows)
    std::printf("| %s | %s | %.0f | %.0f |\n", row.storage.c_str(), row.access.c_str(), row.ordered,
                row.shuffled);
}

int run(const Options& options) {
  Database database;
  Connection connection(database);
  int64_t rows = build_tables(connection, options);
  std::fprintf(stderr, "customer copies: %lld rows\n", static_cast<long long>(rows));
  std::mt19937_64 random(42);
  std::uniform_int_distribution<int64_t> key_distribution(1, rows);
  std::vector<int64_t> keys(static_cast<size_t>(options.lookups));
  for (int64_t& key : keys) key = key_distribution(random);

  const Table& ordered = *database.catalog().find_table("customer_ordered");
  const Table& shuffled = *database.catalog().find_table("customer_shuffled");
  auto scan_rates = [&](const std::string& setup) {
    connection.query(setup);
    return std::pair(
        scan_lookups_per_second(connection, "customer_ordered", keys, options.queries),
        scan_lookups_per_second(connection, "customer_shuffled", keys, options.queries));
  };
  std::vector<Row> table;
  table.push_back({"uncompressed", "index", index_lookups_per_second(ordered, keys),
                   index_lookups_per_second(shuffled, keys)});
  auto [jit_ordered, jit_shuffled] = scan_rates("set scan_mode = 'jit'");
  table.push_back({"uncompressed (JIT scan)", "no index", jit_ordered, jit_shuffled});
  auto [vec_ordered, vec_shuffled] = scan_rates("set scan_mode = 'vectorized'");
  table.push_back({"uncompressed (vectorized scan)", "no index", vec_ordered, vec_shuffled});

  connection.query("vacuum freeze");
  table.push_back({"Data Blocks", "index", index_lookups_per_second(ordered, keys),
                   index_lookups_per_second(shuffled, keys)});
  auto [block_ordered, block_shuffled] = scan_rates("set psma = off");
  table.push_back({"Data Blocks", "no index", block_ordered, block_shuffled});
  auto [psma_ordered, psma_shuffled] = scan_rates("set psma = on");
  table.push_back({"Data Blocks + PSMA", "no index", psma_ordered, psma_shuffled});
  print(table);
  std::printf("\nindex lookups, Data Blocks / hot: ordered %.2fx, shuffled %.2fx\n",
              table[3].ordered / table[0].ordered, table[3].shuffled / table[0].shuffled);
  return 0;
}

}  // namespace
}  // namespace floe

int main(int argc, char** argv) {
  try {
    return floe::run(floe::parse_options(argc, argv));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "floe-point-lookups: %s\n", error.what());
    return 1;
  }
}
