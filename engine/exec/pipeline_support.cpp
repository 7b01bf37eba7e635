#include "engine/exec/pipeline_support.h"

#include <algorithm>

namespace floe {

using plan::PipelineDescription;

std::vector<Morsel> morsels_of(const PipelineDescription& pipeline, QueryState& state) {
  switch (pipeline.source) {
    case PipelineDescription::Source::kTable:
      if (const std::vector<uint64_t>* rows = state.index_rows(pipeline.source_slot))
        return row_id_morsels(*rows);
      return table_morsels(*pipeline.table);
    case PipelineDescription::Source::kValues:
      return index_morsels(pipeline.value_rows);
    case PipelineDescription::Source::kAggregation:
      return index_morsels(state.aggregation_table(pipeline.source_slot).group_count());
    case PipelineDescription::Source::kRows:
      return index_morsels(state.rows(pipeline.source_slot).size());
    case PipelineDescription::Source::kJoinUnmatched:
      return index_morsels(state.join_scan_units(pipeline.source_slot));
  }
  return {};
}

bool limit_reached(const PipelineDescription& pipeline, const QueryState& state) {
  return std::any_of(pipeline.limits.begin(), pipeline.limits.end(), [&](const auto& limit) {
    return state.counter(limit.counter_slot) >= limit.end;
  });
}

bool pipeline_stopped(const PipelineDescription& pipeline, const QueryState& state,
                      QueryContext& query) {
  return query.failed() || query.check_canceled() || limit_reached(pipeline, state);
}

bool reader_needs_order(const plan::PhysicalDescription& physical, uint32_t slot) {
  return std::any_of(physical.pipelines.begin(), physical.pipelines.end(), [&](const auto& reader) {
    return reader.source == PipelineDescription::Source::kRows && reader.source_slot == slot &&
           reader.ordered;
  });
}

void read_result(const plan::PhysicalDescription& physical, QueryState& state,
                 QueryOutput& output) {
  auto& rows = state.rows(physical.result_slot);
  const auto& layout = physical.result_layout;
  auto& result = output.rows;
  result.reserve(rows.size());
  for (uint64_t r = 0; r < rows.size(); ++r) {
    const uint8_t* row = rows.row(r);
    std::vector<Value> values;
    for (size_t c = 0; c < layout.field_count(); ++c) {
      const SqlType& type = physical.result_columns[c].type;
      values.push_back(row[layout.null_offset(c)]
                           ? Value::null(type)
                           : Value::read_physical(row + layout.offset(c), type));
    }
    result.push_back(std::move(values));
  }
  for (const auto& column : physical.result_columns) {
    output.column_names.push_back(column.name);
    output.column_types.push_back(column.type);
  }
}

void add_scan_statistics(const std::vector<plan::StateSlot>& slots, const QueryState& state,
                         uint32_t workers, QueryProfile& profile) {
  for (uint32_t slot = 0; slot < slots.size(); ++slot)
    if (slots[slot].kind == plan::StateSlot::Kind::kScanCursors)
      profile.scans[slots[slot].scan] += state.scan_statistics(slot, workers);
}

void add_join_tables(const plan::PhysicalDescription& physical, QueryState& state,
                     QueryProfile& profile) {
  for (const auto& [op, rows] : physical.materializations) {
    if (rows.join_table == plan::JoinTableKind::kChaining || op->kind != plan::LogicalKind::kJoin)
      continue;
    const ConciseJoinTable& table = state.concise_join_table(rows.slot);
    profile.join_tables[op] = std::string(table.kind() == JoinTableKind::kCat ? "CAT" : "CHT") +
                              ", " + std::to_string(table.memory_bytes()) + " bytes";
  }
}

std::shared_ptr<const plan::PhysicalDescription> describe(const plan::PhysicalPlan& plan,
                                                          const ExecutionOptions& options) {
  plan::DescribeOptions describe;
  describe.push_restrictions = options.scan_mode == ScanMode::kVectorized && options.sarg_pushdown;
  return std::make_shared<const plan::PhysicalDescription>(plan::describe_physical(plan, describe));
}

}  // namespace floe
