#include "engine/plan/window_layout.h"

namespace floe::plan {
namespace {

class WindowRowBuilder {
 public:
  explicit WindowRowBuilder(WindowRows& rows) : rows_(rows) {}

  size_t add_field(RowField field) {
    fields_.push_back(field);
    return fields_.size() - 1;
  }

  void add_passed(ColumnId id, RowField field) {
    rows_.columns.push_back({id, add_field(field)});
    ++rows_.window.passed_columns;
  }

  // The field holding `expr`'s value: a stored column's own, or a new computed one (an
  // expression used twice, by pointer, has one field).
  size_t field_for(const Expr& expr) {
    if (expr.kind == ExprKind::kColumn) {
      for (size_t c = 0; c < rows_.window.passed_columns; ++c)
        if (rows_.columns[c].first == expr.column) return rows_.columns[c].second;
    }
    for (const auto& [computed, field] : rows_.window.computed)
      if (computed == &expr) return field;
    size_t field = add_field({expr.type, expr.nullable});
    rows_.window.computed.push_back({&expr, field});
    return field;
  }

  RowLayout finish() { return RowLayout(std::move(fields_)); }

 private:
  WindowRows& rows_;
  std::vector<RowField> fields_;
};

}  // namespace

WindowRows describe_window_rows(const WindowOp& window, const ColumnRegistry& registry,
                                const std::unordered_set<ColumnId>& used) {
  WindowRows rows;
  WindowRowBuilder builder(rows);
  for (auto id : output_columns(*window.children[0])) {
    if (used.count(id)) builder.add_passed(id, {registry[id].type, registry[id].nullable});
  }
  WindowLayout& layout = rows.window;
  for (const auto& partition : window.partitions)
    layout.partition_fields.push_back(builder.field_for(*partition));
  for (const auto& key : window.order) layout.order_fields.push_back(builder.field_for(*key.expr));
  if (!window.partitions.empty())
    layout.hash_field = builder.add_field({SqlType::big_int(), false});
  for (const auto& function : window.functions) {
    WindowLayout::Function& fields = layout.functions.emplace_back();
    for (const auto& argument : function.arguments)
      fields.argument_fields.push_back(builder.field_for(*argument));
    const ExprPtr* bounds[] = {&function.start_bound, &function.end_bound};
    for (size_t i = 0; i < 2; ++i) {
      if (!*bounds[i]) continue;
      fields.range_key_field = builder.field_for(*function.range_key);
      fields.bound_fields[i] = builder.field_for(**bounds[i]);
    }
    const ColumnInfo& result = registry[function.id];
    fields.result_field = builder.add_field({result.type, result.nullable});
    rows.columns.push_back({function.id, fields.result_field});
  }
  rows.layout = builder.finish();
  return rows;
}

}  // namespace floe::plan
