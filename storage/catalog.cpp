#include "storage/catalog.h"

#include "storage/error.h"

namespace floe {

Table* Catalog::find_table(const std::string& name) const {
  auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : it->second.get();
}

Table& Catalog::create_table(const std::string& name, std::vector<ColumnDef> columns,
                             std::vector<KeyConstraint> keys) {
  check_name_free(name);
  auto table = std::make_unique<Table>(name, std::move(columns), std::move(keys));
  Table& ref = *table;
  tables_.emplace(name, std::move(table));
  return ref;
}

void Catalog::drop_table(const std::string& name) {
  if (!tables_.erase(name)) throw Error("table \"" + name + "\" does not exist");
}

std::vector<std::string> Catalog::table_names() const {
  std::vector<std::string> names;
  for (const auto& [name, table] : tables_) names.push_back(name);
  return names;
}

Table* Catalog::find_index_table(const std::string& name) const {
  for (const auto& [table_name, table] : tables_)
    if (table->find_index(name)) return table.get();
  return nullptr;
}

const UniqueIndex& Catalog::create_index(Table& table, KeyConstraint index) {
  check_name_free(index.name);
  return table.add_index(std::move(index));
}

void Catalog::check_name_free(const std::string& name) const {
  if (tables_.count(name) || views_.count(name) || find_index_table(name))
    throw Error("relation \"" + name + "\" already exists");
}

const View* Catalog::find_view(const std::string& name) const {
  auto it = views_.find(name);
  return it == views_.end() ? nullptr : &it->second;
}

void Catalog::create_view(const std::string& name, View view, bool replace) {
  if (!(replace && views_.count(name))) check_name_free(name);
  views_[name] = std::move(view);
}

void Catalog::drop_view(const std::string& name) {
  if (!views_.erase(name)) throw Error("view \"" + name + "\" does not exist");
}

std::vector<std::string> Catalog::view_names() const {
  std::vector<std::string> names;
  for (const auto& [name, view] : views_) names.push_back(name);
  return names;
}

}  // namespace floe
