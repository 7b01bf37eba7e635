#include "tpch/tbl_text.h"

#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <string>
#include <vector>

#include "tpch/table_generators.h"
#include "tpch/tbl_format.h"
#include "tpch/text_pool.h"

namespace floe::tpch {
namespace {

constexpr int64_t kRowsPerChunk = 4096;

// Appends the lines of parent rows [begin, end) to one buffer per table of the pass.
using ChunkGenerator =
    std::function<void(int64_t begin, int64_t end, std::vector<std::string>& outputs)>;

// One generation pass: `rows` parent rows feeding one or two tables.
struct Pass {
  std::vector<std::string_view> tables;
  int64_t rows;
  ChunkGenerator generate;
};

template <typename Row>
RowSink<Row> append_to(std::string& out) {
  return [&out](const Row& row) { append_tbl_line(out, row); };
}

std::vector<Pass> make_passes(const Scale& scale) {
  using Outputs = std::vector<std::string>;
  return {
      {{"region"},
       kRegionCount,
       [](int64_t b, int64_t e, Outputs& out) {
         generate_regions(b, e, append_to<RegionRow>(out[0]));
       }},
      {{"nation"},
       kNationCount,
       [](int64_t b, int64_t e, Outputs& out) {
         generate_nations(b, e, append_to<NationRow>(out[0]));
       }},
      {{"supplier"},
       scale.suppliers,
       [](int64_t b, int64_t e, Outputs& out) {
         generate_suppliers(b, e, append_to<SupplierRow>(out[0]));
       }},
      {{"customer"},
       scale.customers,
       [](int64_t b, int64_t e, Outputs& out) {
         generate_customers(b, e, append_to<CustomerRow>(out[0]));
       }},
      {{"part", "partsupp"},
       scale.parts,
       [scale](int64_t b, int64_t e, Outputs& out) {
         generate_parts(scale, b, e, append_to<PartRow>(out[0]), append_to<PartSuppRow>(out[1]));
       }},
      {{"orders", "lineitem"},
       scale.orders,
       [scale](int64_t b, int64_t e, Outputs& out) {
         generate_orders(scale, b, e, append_to<OrderRow>(out[0]), append_to<LineItemRow>(out[1]));
       }},
  };
}

// Generates the pass's chunks in parallel and hands them on in chunk order.
void run_pass(const Pass& pass, size_t max_chunks_in_flight, const TblConsumer& consume) {
  int64_t next_begin = 0;
  auto next_chunk = [&](tbb::flow_control& control) -> int64_t {
    if (next_begin >= pass.rows) control.stop();
    int64_t begin = next_begin;
    next_begin += kRowsPerChunk;
    return begin;
  };
  auto generate_chunk = [&](int64_t begin) {
    std::vector<std::string> outputs(pass.tables.size());
    pass.generate(begin, std::min(begin + kRowsPerChunk, pass.rows), outputs);
    return outputs;
  };
  auto deliver_chunk = [&](const std::vector<std::string>& outputs) {
    for (size_t i = 0; i < outputs.size(); ++i) consume(pass.tables[i], outputs[i]);
  };
  tbb::parallel_pipeline(
      max_chunks_in_flight,
      tbb::make_filter<void, int64_t>(tbb::filter_mode::serial_in_order, next_chunk) &
          tbb::make_filter<int64_t, std::vector<std::string>>(tbb::filter_mode::parallel,
                                                              generate_chunk) &
          tbb::make_filter<std::vector<std::string>, void>(tbb::filter_mode::serial_in_order,
                                                           deliver_chunk));
}

}  // namespace

void generate_tbl_text(double scale_factor, int threads, const TblConsumer& consume) {
  Scale scale = make_scale(scale_factor);
  int concurrency = threads > 0 ? threads : tbb::this_task_arena::max_concurrency();
  tbb::task_arena arena(concurrency);
  arena.execute([&] {
    text_pool();  // built once up front rather than inside the first chunks
    for (const Pass& pass : make_passes(scale))
      run_pass(pass, static_cast<size_t>(concurrency) * 2, consume);
  });
}

}  // namespace floe::tpch
