#include "runtime/bitmap_filter.h"

#include <algorithm>

#include "runtime/concise_array_table.h"
#include "runtime/concise_hash_table.h"

namespace floe {

uint32_t filter_by_bitmaps(std::span<const BitmapFilterJoin> joins, const uint32_t* sel,
                           uint32_t count, uint32_t* out_sel) {
  const uint32_t* in = sel;
  for (const BitmapFilterJoin& join : joins) {
    if (join.cht) {
      count = concise_select_rows(in, count, out_sel, [&join](uint32_t row) {
        return join.cht->may_contain(join.hashes[row]);
      });
    } else {
      const size_t columns = join.cat->layout().columns();
      count = concise_select_rows(in, count, out_sel, [&join, columns](uint32_t row) {
        return join.cat->may_contain(gather_key_row(join.key_columns, columns, row).data());
      });
    }
    in = out_sel;
  }
  if (in != out_sel) std::copy(sel, sel + count, out_sel);
  return count;
}

}  // namespace floe
