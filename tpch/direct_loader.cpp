#include "tpch/direct_loader.h"

#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <optional>
#include <string>

#include "storage/error.h"
#include "tpch/row_batch.h"
#include "tpch/table_generators.h"
#include "tpch/text_pool.h"

namespace floe::tpch {
namespace {

constexpr int64_t kParentsPerRange = 4096;
constexpr unsigned kMoneyScale = 2;  // tpch_rows.h: money, discount and tax in hundredths

std::string_view one_char(const char& c) {
  return {&c, 1};
}

void add_row(RowBatch& batch, const RegionRow& row) {
  batch.add_number(row.regionkey);
  batch.add_string(row.name);
  batch.add_string(row.comment);
  batch.end_row();
}

void add_row(RowBatch& batch, const NationRow& row) {
  batch.add_number(row.nationkey);
  batch.add_string(row.name);
  batch.add_number(row.regionkey);
  batch.add_string(row.comment);
  batch.end_row();
}

void add_row(RowBatch& batch, const SupplierRow& row) {
  batch.add_number(row.suppkey);
  batch.add_string(row.name);
  batch.add_string(row.address);
  batch.add_number(row.nationkey);
  batch.add_string(row.phone);
  batch.add_number(row.acctbal, kMoneyScale);
  batch.add_string(row.comment);
  batch.end_row();
}

void add_row(RowBatch& batch, const CustomerRow& row) {
  batch.add_number(row.custkey);
  batch.add_string(row.name);
  batch.add_string(row.address);
  batch.add_number(row.nationkey);
  batch.add_string(row.phone);
  batch.add_number(row.acctbal, kMoneyScale);
  batch.add_string(row.mktsegment);
  batch.add_string(row.comment);
  batch.end_row();
}

void add_row(RowBatch& batch, const PartRow& row) {
  batch.add_number(row.partkey);
  batch.add_string(row.name);
  batch.add_string(row.mfgr);
  batch.add_string(row.brand);
  batch.add_string(row.type);
  batch.add_number(row.size);
  batch.add_string(row.container);
  batch.add_number(row.retailprice, kMoneyScale);
  batch.add_string(row.comment);
  batch.end_row();
}

void add_row(RowBatch& batch, const PartSuppRow& row) {
  batch.add_number(row.partkey);
  batch.add_number(row.suppkey);
  batch.add_number(row.availqty);
  batch.add_number(row.supplycost, kMoneyScale);
  batch.add_string(row.comment);
  batch.end_row();
}

void add_row(RowBatch& batch, const OrderRow& row) {
  batch.add_number(row.orderkey);
  batch.add_number(row.custkey);
  batch.add_string(one_char(row.orderstatus));
  batch.add_number(row.totalprice, kMoneyScale);
  batch.add_date(row.orderdate);
  batch.add_string(row.orderpriority);
  batch.add_string(row.clerk);
  batch.add_number(row.shippriority);
  batch.add_string(row.comment);
  batch.end_row();
}

void add_row(RowBatch& batch, const LineItemRow& row) {
  batch.add_number(row.orderkey);
  batch.add_number(row.partkey);
  batch.add_number(row.suppkey);
  batch.add_number(row.linenumber);
  batch.add_number(row.quantity);
  batch.add_number(row.extendedprice, kMoneyScale);
  batch.add_number(row.discount, kMoneyScale);
  batch.add_number(row.tax, kMoneyScale);
  batch.add_string(one_char(row.returnflag));
  batch.add_string(one_char(row.linestatus));
  batch.add_date(row.shipdate);
  batch.add_date(row.commitdate);
  batch.add_date(row.receiptdate);
  batch.add_string(row.shipinstruct);
  batch.add_string(row.shipmode);
  batch.add_string(row.comment);
  batch.end_row();
}

template <typename Row>
RowSink<Row> add_to(RowBatch& batch) {
  return [&batch](const Row& row) { add_row(batch, row); };
}

using Batches = std::vector<RowBatch>;
// Generates parent rows [begin, end) of a pass into one batch per table of the pass.
using RangeGenerator = std::function<void(int64_t begin, int64_t end, Batches& batches)>;

struct Pass {
  std::vector<Table*> tables;
  int64_t parents;
  RangeGenerator generate;
};

Table& existing_table(Catalog& catalog, const char* name) {
  Table* table = catalog.find_table(name);
  if (table == nullptr) throw Error(std::string("relation \"") + name + "\" does not exist");
  return *table;
}

std::vector<Pass> make_passes(Catalog& catalog, const Scale& scale) {
  auto table = [&](const char* name) { return &existing_table(catalog, name); };
  return {
      {{table("region")},
       kRegionCount,
       [](int64_t b, int64_t e, Batches& out) {
         generate_regions(b, e, add_to<RegionRow>(out[0]));
       }},
      {{table("nation")},
       kNationCount,
       [](int64_t b, int64_t e, Batches& out) {
         generate_nations(b, e, add_to<NationRow>(out[0]));
       }},
      {{table("supplier")},
       scale.suppliers,
       [](int64_t b, int64_t e, Batches& out) {
         generate_suppliers(b, e, add_to<SupplierRow>(out[0]));
       }},
      {{table("customer")},
       scale.customers,
       [](int64_t b, int64_t e, Batches& out) {
         generate_customers(b, e, add_to<CustomerRow>(out[0]));
       }},
      {{table("part"), table("partsupp")},
       scale.parts,
       [scale](int64_t b, int64_t e, Batches& out) {
         generate_parts(scale, b, e, add_to<PartRow>(out[0]), add_to<PartSuppRow>(out[1]));
       }},
      {{table("orders"), table("lineitem")},
       scale.orders,
       [scale](int64_t b, int64_t e, Batches& out) {
         generate_orders(scale, b, e, add_to<OrderRow>(out[0]), add_to<LineItemRow>(out[1]));
       }},
  };
}

// Freezes each table's chunks as they fill, as tasks beside the generation.
class ChunkFreezing {
 public:
  explicit ChunkFreezing(const std::vector<Table*>& tables)
      : tables_(tables), next_(tables.size()) {}
  ~ChunkFreezing() { group_.wait(); }

  // Schedules the chunks that have filled since the last call: all but each table's last.
  void schedule_full_chunks() {
    for (size_t t = 0; t < tables_.size(); ++t) {
      Table& table = *tables_[t];
      for (; next_[t] + 1 < table.chunk_count(); ++next_[t]) {
        TableChunk* chunk = &table.chunk(next_[t]);
        group_.run([chunk, &table] { chunk->freeze(table.columns()); });
      }
    }
  }
  // Waits for the scheduled chunks, then freezes the full last chunks.
  void finish() {
    group_.wait();
    for (Table* table : tables_) table->freeze_full_chunks();
  }

 private:
  std::vector<Table*> tables_;
  std::vector<size_t> next_;
  tbb::task_group group_;
};

// Generates the pass's ranges in parallel and appends them in range order.
void run_pass(const Pass& pass, size_t max_ranges_in_flight, const LoadProgress& progress,
              bool freeze) {
  std::optional<ChunkFreezing> freezing;
  if (freeze) freezing.emplace(pass.tables);
  std::vector<TableAppender> appenders;
  std::vector<Table*> deferred;
  LoadStatus status{{}, 0, pass.parents};
  for (Table* table : pass.tables) {
    // Into an empty table, the unique indexes are built in bulk after the load.
    const bool empty = table->row_count() == 0;
    if (empty) deferred.push_back(table);
    appenders.emplace_back(*table, empty ? IndexMaintenance::kDeferred : IndexMaintenance::kPerRow);
    status.tables.push_back(table);
  }
  int64_t next_begin = 0;
  auto next_range = [&](tbb::flow_control& control) -> int64_t {
    if (next_begin >= pass.parents) control.stop();
    int64_t begin = next_begin;
    next_begin += kParentsPerRange;
    return begin;
  };
  auto generate_range = [&](int64_t begin) {
    Batches batches;
    for (Table* table : pass.tables) batches.emplace_back(table->columns());
    pass.generate(begin, std::min(begin + kParentsPerRange, pass.parents), batches);
    return batches;
  };
  auto append_range = [&](const Batches& batches) {
    for (size_t i = 0; i < batches.size(); ++i) batches[i].append_to(appenders[i]);
    if (freezing) freezing->schedule_full_chunks();
    status.parents_done = std::min(status.parents_done + kParentsPerRange, pass.parents);
    if (progress) progress(status);
  };
  tbb::parallel_pipeline(
      max_ranges_in_flight,
      tbb::make_filter<void, int64_t>(tbb::filter_mode::serial_in_order, next_range) &
          tbb::make_filter<int64_t, Batches>(tbb::filter_mode::parallel, generate_range) &
          tbb::make_filter<Batches, void>(tbb::filter_mode::serial_in_order, append_range));
  if (freezing) freezing->finish();
  for (Table* table : deferred) table->build_indexes();
}

}  // namespace

void load_tables(Catalog& catalog, double scale_factor, int threads, const LoadProgress& progress,
                 bool freeze, const std::function<void()>& poll) {
  Scale scale = make_scale(scale_factor);
  std::vector<Pass> passes = make_passes(catalog, scale);
  int concurrency = threads > 0 ? threads : tbb::this_task_arena::max_concurrency();
  tbb::task_arena arena(concurrency);
  arena.execute([&] {
    text_pool(poll);  // built once up front rather than inside the first ranges
    for (const Pass& pass : passes)
      run_pass(pass, static_cast<size_t>(concurrency) * 2, progress, freeze);
    for (const Pass& pass : passes)
      for (Table* table : pass.tables) table->analyze();
  });
}

}  // namespace floe::tpch
