#include "runtime/table_function.h"

#include "runtime/functions/function_families.h"

namespace floe {

void TableFunctionRegistry::add(TableFunction function) {
  std::string name = function.name;
  by_name_[name].push_back(std::move(function));
}

const std::vector<TableFunction>& TableFunctionRegistry::overloads(std::string_view name) const {
  static const std::vector<TableFunction> kNone;
  auto found = by_name_.find(std::string(name));
  return found == by_name_.end() ? kNone : found->second;
}

const TableFunctionRegistry& table_functions() {
  static const TableFunctionRegistry registry = [] {
    TableFunctionRegistry r;
    register_split_functions(r);
    register_series_functions(r);
    return r;
  }();
  return registry;
}

}  // namespace floe
