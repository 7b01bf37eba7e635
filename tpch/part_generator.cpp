#include <array>
#include <numeric>
#include <string>

#include "tpch/column_streams.h"
#include "tpch/distributions.h"
#include "tpch/random_fields.h"
#include "tpch/table_generators.h"
#include "tpch/text_pool.h"

namespace floe::tpch {
namespace {

constexpr size_t kColorCount = 92;
constexpr size_t kNameWords = 5;

// Five distinct colors: the first steps of a Fisher-Yates shuffle of all 92 colors
// (dbgen's agg_str/permute); the row budget skips the draws of the remaining steps.
void random_part_name(RandomStream& stream, std::string& out) {
  std::array<size_t, kColorCount> order;
  std::iota(order.begin(), order.end(), 0);
  out.clear();
  for (size_t i = 0; i < kNameWords; ++i) {
    auto source = static_cast<size_t>(stream.uniform(i, kColorCount - 1));
    std::swap(order[i], order[source]);
    if (i > 0) out += ' ';
    out += dists::colors.entries[order[i]].text;
  }
}

void generate_part_rows(int64_t begin, int64_t end, const RowSink<PartRow>& sink) {
  RandomStream name_stream = column_stream(ColumnStream::kPartName, begin + 1);
  RandomStream mfgr_stream = column_stream(ColumnStream::kPartMfgr, begin + 1);
  RandomStream brand_stream = column_stream(ColumnStream::kPartBrand, begin + 1);
  RandomStream type_stream = column_stream(ColumnStream::kPartType, begin + 1);
  RandomStream size_stream = column_stream(ColumnStream::kPartSize, begin + 1);
  RandomStream container_stream = column_stream(ColumnStream::kPartContainer, begin + 1);
  RandomStream comment_stream = column_stream(ColumnStream::kPartComment, begin + 1);
  std::string name, mfgr, brand;
  for (int64_t row = begin; row < end; ++row) {
    int64_t key = row + 1;
    random_part_name(name_stream, name);
    int64_t manufacturer = mfgr_stream.uniform(1, 5);
    tagged_key("Manufacturer#", manufacturer, 1, mfgr);
    tagged_key("Brand#", manufacturer * 10 + brand_stream.uniform(1, 5), 2, brand);
    std::string_view type = pick(dists::p_types, type_stream);
    int64_t size = size_stream.uniform(1, 50);
    std::string_view container = pick(dists::p_cntr, container_stream);
    std::string_view comment = random_text(comment_stream, variable_length(14));
    sink({key, name, mfgr, brand, type, size, container, part_retail_price(key), comment});
    for (RandomStream* stream : {&name_stream, &mfgr_stream, &brand_stream, &type_stream,
                                 &size_stream, &container_stream, &comment_stream})
      stream->next_row();
  }
}

void generate_partsupp_rows(const Scale& scale, int64_t begin, int64_t end,
                            const RowSink<PartSuppRow>& sink) {
  RandomStream quantity_stream = column_stream(ColumnStream::kPartSuppQuantity, begin + 1);
  RandomStream cost_stream = column_stream(ColumnStream::kPartSuppCost, begin + 1);
  RandomStream comment_stream = column_stream(ColumnStream::kPartSuppComment, begin + 1);
  for (int64_t row = begin; row < end; ++row) {
    int64_t partkey = row + 1;
    for (int64_t index = 0; index < kSuppliersPerPart; ++index) {
      int64_t quantity = quantity_stream.uniform(1, 9999);
      int64_t cost = cost_stream.uniform(100, 100000);
      std::string_view comment = random_text(comment_stream, variable_length(124));
      sink({partkey, part_supplier(scale, partkey, index), quantity, cost, comment});
    }
    for (RandomStream* stream : {&quantity_stream, &cost_stream, &comment_stream})
      stream->next_row();
  }
}

}  // namespace

int64_t part_supplier(const Scale& scale, int64_t partkey, int64_t index) {
  int64_t suppliers = scale.suppliers;
  return (partkey + index * (suppliers / kSuppliersPerPart + (partkey - 1) / suppliers)) %
             suppliers +
         1;
}

int64_t part_retail_price(int64_t partkey) {
  return 90000 + (partkey / 10) % 20001 + (partkey % 1000) * 100;
}

void generate_parts(const Scale& scale, int64_t begin, int64_t end,
                    const RowSink<PartRow>& part_sink, const RowSink<PartSuppRow>& partsupp_sink) {
  // The two tables draw from disjoint streams, so each is generated on its own.
  if (part_sink) generate_part_rows(begin, end, part_sink);
  if (partsupp_sink) generate_partsupp_rows(scale, begin, end, partsupp_sink);
}

}  // namespace floe::tpch
