#include "engine/sql/system_tables.h"

#include <span>
#include <string_view>

#include "storage/identifier.h"
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

const SystemColumn kIndexColumns[] = {
    {"schemaname", SqlType::text()}, {"tablename", SqlType::text()}, {"indexname", SqlType::text()},
    {"tablespace", SqlType::text()}, {"indexdef", SqlType::text()},
};

// PostgreSQL's pg_indexes: every index, those of PRIMARY KEY and UNIQUE constraints included,
// with the statement that would make it (the ART serves what PostgreSQL's btree does).
std::vector<std::vector<Value>> index_rows(const Catalog& catalog) {
  std::vector<std::vector<Value>> rows;
  for (const std::string& name : catalog.table_names()) {
    const Table& table = *catalog.find_table(name);
    for (const auto& index : table.unique_indexes()) {
      const KeyConstraint& key = index->constraint();
      std::string definition = std::string(key.unique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ") +
                               quote_identifier(key.name) + " ON public." + quote_identifier(name) +
                               " USING btree (";
      for (size_t i = 0; i < key.columns.size(); ++i)
        definition += (i ? ", " : "") + quote_identifier(table.columns()[key.columns[i]].name);
      rows.push_back({Value::string("public"), Value::string(name), Value::string(key.name),
                      Value::null(SqlType::text()), Value::string(definition + ")")});
    }
  }
  return rows;
}

}  // namespace

plan::LogicalOpPtr bind_system_table(const PgQuery__RangeVar& range, BindContext& context,
                                     BindScope& scope) {
  const std::string_view name = range.relname;
  if (name != "floe_storage" && name != "pg_indexes") return nullptr;
  const bool indexes = name == "pg_indexes";
  auto values = std::make_unique<plan::ValuesOp>();
  ScopeTable table{range.alias ? range.alias->aliasname : range.relname, {}};
  for (const SystemColumn& column : indexes ? std::span<const SystemColumn>(kIndexColumns)
                                            : std::span<const SystemColumn>(kStorageColumns)) {
    const bool nullable = indexes;  // pg_indexes.tablespace is NULL
    plan::ColumnId id = context.registry.add({column.type, nullable, column.name});
    values->columns.push_back(id);
    table.columns.push_back({column.name, id, column.type, nullable});
  }
  for (std::vector<Value>& row :
       indexes ? index_rows(context.catalog) : storage_rows(context.catalog)) {
    values->rows.emplace_back();
    for (Value& value : row) values->rows.back().push_back(plan::make_constant(std::move(value)));
  }
  values->estimated_rows = static_cast<double>(values->rows.size());
  scope.add_table(std::move(table), range.location);
  return values;
}

}  // namespace floe::sql
