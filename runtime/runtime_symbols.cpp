#include "runtime/runtime_symbols.h"

#include "runtime/runtime_abi.h"

namespace floe {

std::vector<std::pair<const char*, void*>> runtime_symbols() {
  // Taking each address makes the compiler check that the function is declared in the ABI.
#define FLOE_SYMBOL(name) std::pair<const char*, void*>(#name, reinterpret_cast<void*>(&name))
  return {
      FLOE_SYMBOL(floe_rt_fail),
      FLOE_SYMBOL(floe_rt_check_canceled),
      FLOE_SYMBOL(floe_rt_scan_open),
      FLOE_SYMBOL(floe_rt_scan_next),
      FLOE_SYMBOL(floe_rt_join_insert),
      FLOE_SYMBOL(floe_rt_join_lookup),
      FLOE_SYMBOL(floe_rt_join_next),
      FLOE_SYMBOL(floe_rt_join_payload),
      FLOE_SYMBOL(floe_rt_join_slot_chain),
      FLOE_SYMBOL(floe_rt_join_first),
      FLOE_SYMBOL(floe_rt_join_following),
      FLOE_SYMBOL(floe_rt_concise_insert),
      FLOE_SYMBOL(floe_rt_concise_lookup),
      FLOE_SYMBOL(floe_rt_concise_next),
      FLOE_SYMBOL(floe_rt_concise_may_contain),
      FLOE_SYMBOL(floe_rt_concise_row),
      FLOE_SYMBOL(floe_rt_agg_lookup),
      FLOE_SYMBOL(floe_rt_agg_next),
      FLOE_SYMBOL(floe_rt_agg_insert),
      FLOE_SYMBOL(floe_rt_agg_payload),
      FLOE_SYMBOL(floe_rt_agg_global_group),
      FLOE_SYMBOL(floe_rt_agg_row),
      FLOE_SYMBOL(floe_rt_rows_append),
      FLOE_SYMBOL(floe_rt_rows_at),
      FLOE_SYMBOL(floe_rt_hash_string),
      FLOE_SYMBOL(floe_rt_string_equal),
      FLOE_SYMBOL(floe_rt_string_compare),
      FLOE_SYMBOL(floe_rt_like),
      FLOE_SYMBOL(floe_rt_cast_string_to_int64),
      FLOE_SYMBOL(floe_rt_cast_string_to_double),
      FLOE_SYMBOL(floe_rt_cast_string_to_decimal),
      FLOE_SYMBOL(floe_rt_cast_string_to_date),
      FLOE_SYMBOL(floe_rt_cast_string_to_timestamp),
      FLOE_SYMBOL(floe_rt_cast_string_to_bool),
      FLOE_SYMBOL(floe_rt_cast_string_to_string),
      FLOE_SYMBOL(floe_rt_cast_int64_to_string),
      FLOE_SYMBOL(floe_rt_cast_double_to_string),
      FLOE_SYMBOL(floe_rt_cast_decimal_to_string),
      FLOE_SYMBOL(floe_rt_cast_date_to_string),
      FLOE_SYMBOL(floe_rt_cast_timestamp_to_string),
      FLOE_SYMBOL(floe_rt_cast_bool_to_string),
      FLOE_SYMBOL(floe_rt_cast_string_to_interval),
      FLOE_SYMBOL(floe_rt_cast_interval_to_string),
      FLOE_SYMBOL(floe_rt_decimal_rescale),
      FLOE_SYMBOL(floe_rt_variance_exact),
      FLOE_SYMBOL(floe_rt_variance_double),
      FLOE_SYMBOL(floe_rt_collect),
      FLOE_SYMBOL(floe_rt_collect_merge),
      FLOE_SYMBOL(floe_rt_string_agg),
      FLOE_SYMBOL(floe_rt_percentile_cont),
      FLOE_SYMBOL(floe_rt_percentile_disc),
      FLOE_SYMBOL(floe_rt_mode),
      FLOE_SYMBOL(floe_rt_extract_date),
      FLOE_SYMBOL(floe_rt_extract_timestamp),
      FLOE_SYMBOL(floe_rt_extract_interval),
      FLOE_SYMBOL(floe_rt_interval_multiply),
      FLOE_SYMBOL(floe_rt_interval_divide),
      FLOE_SYMBOL(floe_rt_date_add_months),
      FLOE_SYMBOL(floe_rt_timestamp_add_interval),
      FLOE_SYMBOL(floe_rt_table_function_open),
      FLOE_SYMBOL(floe_rt_table_function_next),
  };
#undef FLOE_SYMBOL
}

}  // namespace floe
