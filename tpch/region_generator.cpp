#include "tpch/column_streams.h"
#include "tpch/distributions.h"
#include "tpch/table_generators.h"
#include "tpch/text_pool.h"

namespace floe::tpch {

void generate_regions(int64_t begin, int64_t end, const RowSink<RegionRow>& sink) {
  RandomStream comment = column_stream(ColumnStream::kRegionComment, begin + 1);
  for (int64_t row = begin; row < end; ++row) {
    sink({row, dists::regions.entries[row].text, random_text(comment, variable_length(72))});
    comment.next_row();
  }
}

}  // namespace floe::tpch
