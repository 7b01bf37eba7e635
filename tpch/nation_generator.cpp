#include "tpch/column_streams.h"
#include "tpch/distributions.h"
#include "tpch/table_generators.h"
#include "tpch/text_pool.h"

namespace floe::tpch {

void generate_nations(int64_t begin, int64_t end, const RowSink<NationRow>& sink) {
  RandomStream comment = column_stream(ColumnStream::kNationComment, begin + 1);
  for (int64_t row = begin; row < end; ++row) {
    // The nations distribution's cumulative weights are the region keys (dists.dss).
    const DistributionEntry& nation = dists::nations.entries[row];
    sink({row, nation.text, nation.cumulative_weight, random_text(comment, variable_length(72))});
    comment.next_row();
  }
}

}  // namespace floe::tpch
