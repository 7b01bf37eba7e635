#include "bench/tpcc/tpcc_consistency.h"

namespace floe::tpcc {

namespace {

// Each query counts the warehouses or districts that break the condition. Sums are compared
// rounded to cents: SQLite keeps numeric columns as doubles.
constexpr std::array<const char*, 4> kConditions = {
    // 1: W_YTD = sum(D_YTD).
    "SELECT count(*) FROM warehouse, (SELECT d_w_id, sum(d_ytd) AS d_ytd_sum FROM district "
    "GROUP BY d_w_id) d WHERE d_w_id = w_id AND round(w_ytd - d_ytd_sum, 2) <> 0",
    // 2: D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID).
    "SELECT count(*) FROM district, (SELECT o_w_id, o_d_id, max(o_id) AS o_max FROM \"order\" "
    "GROUP BY o_w_id, o_d_id) o, (SELECT no_w_id, no_d_id, max(no_o_id) AS no_max FROM "
    "new_order GROUP BY no_w_id, no_d_id) n WHERE o_w_id = d_w_id AND o_d_id = d_id AND "
    "no_w_id = d_w_id AND no_d_id = d_id AND (d_next_o_id - 1 <> o_max OR o_max <> no_max)",
    // 3: max(NO_O_ID) - min(NO_O_ID) + 1 = the number of NEW-ORDER rows.
    "SELECT count(*) FROM (SELECT max(no_o_id) - min(no_o_id) + 1 AS span, count(*) AS n FROM "
    "new_order GROUP BY no_w_id, no_d_id) x WHERE span <> n",
    // 4: sum(O_OL_CNT) = the number of ORDER-LINE rows.
    "SELECT count(*) FROM (SELECT o_w_id, o_d_id, sum(o_ol_cnt) AS ol_cnt_sum FROM \"order\" "
    "GROUP BY o_w_id, o_d_id) o, (SELECT ol_w_id, ol_d_id, count(*) AS n FROM order_line GROUP "
    "BY ol_w_id, ol_d_id) l WHERE ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_cnt_sum <> n",
};

}  // namespace

ConsistencyResult check_consistency(Session& session) {
  ConsistencyResult result;
  for (size_t i = 0; i < kConditions.size(); ++i)
    result.violations[i] = as_int(session.query(kConditions[i]).at(0).at(0));
  return result;
}

}  // namespace floe::tpcc
