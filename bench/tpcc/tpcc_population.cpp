#include "bench/tpcc/tpcc_population.h"

#include <algorithm>
#include <ctime>
#include <numeric>

#include "bench/tpcc/tpcc_schema_sizes.h"

namespace floe::tpcc {

namespace {

constexpr uint64_t kFlushRows = 100000;

// A table's loader that flushes every `flush_rows` rows (0: only at the end) and reports
// progress.
class ProgressLoader {
 public:
  ProgressLoader(Backend& backend, const TableSchema& table, const LoadProgress& progress,
                 uint64_t flush_rows = kFlushRows)
      : loader_(backend.loader(table.name, table.column_count)),
        name_(table.name),
        progress_(progress),
        flush_rows_(flush_rows) {}
  void add(const Row& row) {
    loader_->add(row);
    ++rows_;
    if (flush_rows_ && rows_ % flush_rows_ == 0) flush();
  }
  void finish() {
    if (!flush_rows_ || rows_ % flush_rows_ != 0) flush();
  }

 private:
  void flush() {
    loader_->flush();
    if (progress_) progress_(name_, rows_);
  }
  std::unique_ptr<TableLoader> loader_;
  std::string name_;
  const LoadProgress& progress_;
  uint64_t flush_rows_;
  uint64_t rows_ = 0;
};

Field decimal(int64_t scaled, int scale) {
  double divisor = scale == 2 ? 100.0 : 10000.0;
  return static_cast<double>(scaled) / divisor;
}

// Street 1, street 2, city, state, zip (4.3.3.1).
void add_address(Random& random, Row& row) {
  row.emplace_back(random.a_string(10, 20));
  row.emplace_back(random.a_string(10, 20));
  row.emplace_back(random.a_string(10, 20));
  row.emplace_back(random.a_string(2, 2));
  row.emplace_back(random.zip());
}

const TableSchema& table(const char* name) {
  for (const TableSchema& schema : tables())
    if (std::string_view(schema.name) == name) return schema;
  throw std::logic_error("no TPC-C table");
}

void load_items(Backend& backend, const Scale& scale, Random& random,
                const LoadProgress& progress) {
  ProgressLoader loader(backend, table("item"), progress);
  for (int64_t i = 1; i <= scale.items; ++i) {
    loader.add({i, random.uniform(1, 10000), random.a_string(14, 24),
                decimal(random.uniform(100, 10000), 2), random.data_with_original()});
  }
  loader.finish();
}

void load_warehouses(Backend& backend, int warehouses, Random& random,
                     const LoadProgress& progress) {
  ProgressLoader loader(backend, table("warehouse"), progress);
  for (int64_t w = 1; w <= warehouses; ++w) {
    Row row{w, random.a_string(6, 10)};
    add_address(random, row);
    row.emplace_back(decimal(random.uniform(0, 2000), 4));
    row.emplace_back(300000.0);
    loader.add(row);
  }
  loader.finish();
}

void load_stock(Backend& backend, const Scale& scale, int warehouses, Random& random,
                const LoadProgress& progress) {
  ProgressLoader loader(backend, table("stock"), progress);
  for (int64_t w = 1; w <= warehouses; ++w) {
    for (int64_t i = 1; i <= scale.items; ++i) {
      Row row{i, w, random.uniform(10, 100)};
      for (int d = 0; d < kDistrictsPerWarehouse; ++d) row.emplace_back(random.a_string(24, 24));
      row.insert(row.end(), {int64_t{0}, int64_t{0}, int64_t{0}});
      row.emplace_back(random.data_with_original());
      loader.add(row);
    }
  }
  loader.finish();
}

void load_districts(Backend& backend, const Scale& scale, int warehouses, Random& random,
                    const LoadProgress& progress) {
  ProgressLoader loader(backend, table("district"), progress);
  for (int64_t w = 1; w <= warehouses; ++w) {
    for (int64_t d = 1; d <= kDistrictsPerWarehouse; ++d) {
      Row row{d, w, random.a_string(6, 10)};
      add_address(random, row);
      row.emplace_back(decimal(random.uniform(0, 2000), 4));
      row.emplace_back(30000.0);
      row.emplace_back(int64_t{scale.customers_per_district + 1});
      loader.add(row);
    }
  }
  loader.finish();
}

void load_customers(Backend& backend, const Scale& scale, int warehouses, Random& random,
                    const NurandConstants& load_c, const std::string& now,
                    const LoadProgress& progress) {
  ProgressLoader customers(backend, table("customer"), progress);
  ProgressLoader history(backend, table("history"), progress);
  for (int64_t w = 1; w <= warehouses; ++w) {
    for (int64_t d = 1; d <= kDistrictsPerWarehouse; ++d) {
      for (int64_t c = 1; c <= scale.customers_per_district; ++c) {
        // The first 1,000 customers get every last name once, the others NURand ones.
        int64_t name = c <= 1000 ? c - 1 : random.nurand(255, 0, 999, load_c);
        Row row{c, d, w, random.a_string(8, 16), std::string("OE"), last_name(name)};
        add_address(random, row);
        row.emplace_back(random.n_string(16, 16));
        row.emplace_back(now);
        row.emplace_back(std::string(random.uniform(1, 10) == 1 ? "BC" : "GC"));
        row.insert(row.end(), {50000.0, decimal(random.uniform(0, 5000), 4), -10.0, 10.0,
                               int64_t{1}, int64_t{0}});
        row.emplace_back(random.a_string(300, 500));
        customers.add(row);
        history.add({c, d, w, d, w, now, 10.0, random.a_string(12, 24)});
      }
    }
  }
  customers.finish();
  history.finish();
}

void load_orders(Backend& backend, const Scale& scale, int warehouses, Random& random,
                 const std::string& now, const LoadProgress& progress) {
  ProgressLoader orders(backend, table("\"order\""), progress);
  // The lines of delivered orders are loaded first, the undelivered ones after them all, as
  // in a database that has been running for a while: old, cold lines in chunks of their own
  // (which `--freeze cold` freezes), the lines that Delivery will change in the newest ones.
  ProgressLoader order_lines(backend, table("order_line"), progress);
  ProgressLoader undelivered_lines(backend, table("order_line"), progress, 0);
  ProgressLoader new_orders(backend, table("new_order"), progress);
  std::vector<int64_t> customer_ids(scale.customers_per_district);
  for (int64_t w = 1; w <= warehouses; ++w) {
    for (int64_t d = 1; d <= kDistrictsPerWarehouse; ++d) {
      // O_C_ID: a random permutation of [1, 3000].
      std::iota(customer_ids.begin(), customer_ids.end(), 1);
      for (size_t i = customer_ids.size() - 1; i > 0; --i)
        std::swap(customer_ids[i],
                  customer_ids[static_cast<size_t>(random.uniform(0, static_cast<int64_t>(i)))]);
      for (int64_t o = 1; o <= scale.customers_per_district; ++o) {
        bool delivered = o < scale.first_new_order();
        int64_t line_count = random.uniform(5, 15);
        orders.add({o, d, w, customer_ids[static_cast<size_t>(o - 1)], now,
                    delivered ? Field(random.uniform(1, 10)) : Field(), line_count, int64_t{1}});
        for (int64_t l = 1; l <= line_count; ++l) {
          (delivered ? order_lines : undelivered_lines)
              .add({o, d, w, l, random.uniform(1, scale.items), w, delivered ? Field(now) : Field(),
                    int64_t{5}, delivered ? 0.0 : decimal(random.uniform(1, 999999), 2),
                    random.a_string(24, 24)});
        }
        if (!delivered) new_orders.add({o, d, w});
      }
    }
  }
  orders.finish();
  order_lines.finish();
  undelivered_lines.finish();
  new_orders.finish();
}

}  // namespace

void populate(Backend& backend, const Scale& scale, int warehouses, uint64_t seed,
              const NurandConstants& load_c, const std::string& now, const LoadProgress& progress) {
  auto session = backend.connect();
  for (const TableSchema& schema : tables()) session->query(schema.create_table);
  Random random(seed);
  load_items(backend, scale, random, progress);
  load_warehouses(backend, warehouses, random, progress);
  load_stock(backend, scale, warehouses, random, progress);
  load_districts(backend, scale, warehouses, random, progress);
  load_customers(backend, scale, warehouses, random, load_c, now, progress);
  load_orders(backend, scale, warehouses, random, now, progress);
  for (const std::string& index : secondary_indexes()) session->query(index);
}

std::string current_timestamp() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S", &utc);
  return text;
}

}  // namespace floe::tpcc
