#include "engine/sql/system_tables.h"

#include <string_view>

#include "storage/storage_report.h"

namespace floe::sql {

namespace {

struct SystemColumn {
  const char* name;
  SqlType type;
};

const SystemColumn kStorageColumns[] = {
    {"table_name", SqlType::text()},         {"column_name", SqlType::text()},
    {"hot_chunks", SqlType::big_int()},      {"frozen_chunks", SqlType::big_int()},
    {"single_value", SqlType::big_int()},    {"dictionary", SqlType::big_int()},
    {"truncation", SqlType::big_int()},      {"uncompressed", SqlType::big_int()},
    {"uncompressed_bytes", SqlType::big_int()}, {"stored_bytes", SqlType::big_int()},
};

std::vector<std::vector<Value>> storage_rows(const Catalog& catalog) {
  std::vector<std::vector<Value>> rows;
  auto count = [](uint64_t n) { return Value::big_int(static_cast<int64_t>(n)); };
  for (const std::string& name : catalog.table_names()) {
    for (const ColumnStorage& column : storage_report(*catalog.find_table(name))) {
      rows.push_back({Value::string(name), Value::string(column.column),
                      count(column.hot_chunks), count(column.frozen_chunks)});
      for (uint64_t blocks : column.schemes) rows.back().push_back(count(blocks));
      rows.back().push_back(count(column.uncompressed_bytes));
      rows.back().push_back(count(column.stored_bytes));
    }
  }
  return rows;
}

}  // namespace

plan::LogicalOpPtr bind_system_table(const PgQuery__RangeVar& range, BindContext& context,
                                     BindScope& scope) {
  if (std::string_view(range.relname) != "floe_storage") return nullptr;
  auto values = std::make_unique<plan::ValuesOp>();
  ScopeTable table{range.alias ? range.alias->aliasname : range.relname, {}};
  for (const SystemColumn& column : kStorageColumns) {
    plan::ColumnId id = context.registry.add({column.type, false, column.name});
    values->columns.push_back(id);
    table.columns.push_back({column.name, id, column.type, false});
  }
  for (std::vector<Value>& row : storage_rows(context.catalog)) {
    values->rows.emplace_back();
    for (Value& value : row) values->rows.back().push_back(plan::make_constant(std::move(value)));
  }
  values->estimated_rows = static_cast<double>(values->rows.size());
  scope.add_table(std::move(table), range.location);
  return values;
}

}  // namespace floe::sql
