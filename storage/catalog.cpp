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
  auto it = tables_.find(name);
  if (it == tables_.end()) throw Error("table \"" + name + "\" does not exist");
  for (const ColumnDefault& column : it->second->constraints().defaults)
    if (!column.owned_sequence.empty()) sequences_.erase(column.owned_sequence);
  tables_.erase(it);
}

void Catalog::rename_table(const std::string& name, const std::string& new_name) {
  check_name_free(new_name);
  auto node = tables_.extract(name);
  if (node.empty()) throw Error("table \"" + name + "\" does not exist");
  node.key() = new_name;
  node.mapped()->rename(new_name);
  tables_.insert(std::move(node));
}

std::vector<std::pair<Table*, const ForeignKey*>> Catalog::references_to(const Table& table) const {
  std::vector<std::pair<Table*, const ForeignKey*>> references;
  for (const auto& [name, other] : tables_)
    for (const ForeignKey& key : other->constraints().foreign_keys)
      if (key.referenced == &table) references.emplace_back(other.get(), &key);
  return references;
}

Sequence* Catalog::find_sequence(const std::string& name) const {
  auto it = sequences_.find(name);
  return it == sequences_.end() ? nullptr : it->second.get();
}

Sequence* Catalog::find_sequence_by_id(uint64_t id) const {
  for (const auto& [name, sequence] : sequences_)
    if (sequence->id() == id) return sequence.get();
  return nullptr;
}

Sequence& Catalog::create_sequence(const std::string& name, SequenceOptions options) {
  check_name_free(name);
  auto sequence = std::make_unique<Sequence>(name, options);
  Sequence& ref = *sequence;
  sequences_.emplace(name, std::move(sequence));
  return ref;
}

void Catalog::drop_sequence(const std::string& name) {
  if (!sequences_.erase(name)) throw Error("sequence \"" + name + "\" does not exist");
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

bool Catalog::relation_exists(const std::string& name) const {
  return tables_.count(name) || views_.count(name) || sequences_.count(name) ||
         find_index_table(name);
}

void Catalog::check_name_free(const std::string& name) const {
  if (relation_exists(name)) throw Error("relation \"" + name + "\" already exists");
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
