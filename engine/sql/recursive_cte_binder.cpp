#include "engine/sql/recursive_cte_binder.h"

#include "engine/plan/expression_utils.h"
#include "engine/sql/from_binder.h"
#include "engine/sql/type_rules.h"
#include "storage/error.h"

namespace floe::sql {

namespace {

// Makes `working` nameable while it lives.
class WorkingTableScope {
 public:
  WorkingTableScope(BindContext& context, WorkingTable& working) : context_(context) {
    context.working_tables.push_back(&working);
  }
  ~WorkingTableScope() { context_.working_tables.pop_back(); }
  WorkingTableScope(const WorkingTableScope&) = delete;
  WorkingTableScope& operator=(const WorkingTableScope&) = delete;

 private:
  BindContext& context_;
};

std::string quoted(const std::string& name) {
  return "\"" + name + "\"";
}

// The recursive term's columns in the working table's types: PostgreSQL fixes the types
// with the non-recursive term and rejects a recursive term that would widen them.
std::vector<plan::ColumnId> conform(BoundQuery& recursive, const Table& table,
                                    const std::string& name, BindContext& context) {
  if (recursive.outputs.size() != table.columns().size())
    throw Error("each UNION query must have the same number of columns");
  auto map = std::make_unique<plan::MapOp>();
  std::vector<plan::ColumnId> columns;
  for (size_t c = 0; c < recursive.outputs.size(); ++c) {
    plan::ColumnId id = recursive.outputs[c].id;
    const plan::ColumnInfo info = context.registry[id];
    const SqlType& type = table.columns()[c].type;
    auto common = common_type(type, info.type);
    if (!common)
      throw Error("UNION types " + type_name(type) + " and " + type_name(info.type) +
                  " cannot be matched");
    if (!(*common == type))
      throw Error("recursive query " + quoted(name) + " column " + std::to_string(c + 1) +
                  " has type " + type_name(type) + " in non-recursive term but type " +
                  type_name(*common) + " overall");
    if (!(info.type == type)) {
      plan::ColumnId cast = context.registry.add({type, info.nullable, info.name});
      map->computed.push_back(
          {cast, coerce(plan::make_column(id, info.type, info.nullable), type)});
      id = cast;
    }
    columns.push_back(id);
  }
  if (!map->computed.empty()) {
    map->children.push_back(std::move(recursive.root));
    recursive.root = std::move(map);
  }
  return columns;
}

}  // namespace

WorkingTable* find_working_table(const BindContext& context, std::string_view name) {
  for (size_t i = context.working_tables.size(); i > 0; --i)
    if (context.working_tables[i - 1]->name == name) return context.working_tables[i - 1];
  return nullptr;
}

plan::LogicalOpPtr bind_working_table(WorkingTable& working, const std::string& alias,
                                      BindContext& context, BindScope& scope, int location) {
  if (!working.table) throw Error(working.misplaced, location);
  if (++working.references > 1)
    throw Error(
        "recursive reference to query " + quoted(working.name) + " must not appear more than once",
        location);
  return bind_scan(*working.table, alias, context, scope, location);
}

plan::LogicalOpPtr bind_recursive_cte(const PgQuery__CommonTableExpr& cte, BindContext& context,
                                      const std::string& alias, int location, BindScope& scope) {
  const PgQuery__SelectStmt& stmt = *cte.ctequery->select_stmt;
  std::string name = cte.ctename;
  WorkingTable working;
  working.name = name;
  WorkingTableScope visible(context, working);
  if (stmt.op != PG_QUERY__SET_OPERATION__SETOP_UNION || stmt.n_sort_clause || stmt.limit_count ||
      stmt.limit_offset || stmt.with_clause) {
    // Not of the recursive form: an error if it names itself, else an ordinary WITH query.
    working.misplaced = "recursive query " + quoted(name) +
                        " does not have the form non-recursive-term UNION [ALL] recursive-term";
    bind_query(stmt, context, nullptr);
    return nullptr;
  }
  working.misplaced = "recursive reference to query " + quoted(name) +
                      " must not appear within its non-recursive term";
  BoundQuery initial = bind_query(*stmt.larg, context, nullptr);
  std::vector<std::string> names = string_list(cte.aliascolnames, cte.n_aliascolnames);
  if (names.size() > initial.outputs.size())
    throw Error("WITH query " + quoted(name) + " has " + std::to_string(initial.outputs.size()) +
                    " columns available but " + std::to_string(names.size()) + " columns specified",
                cte.location);
  std::vector<ColumnDef> columns;
  for (size_t c = 0; c < initial.outputs.size(); ++c)
    columns.push_back({c < names.size() ? names[c] : initial.outputs[c].name,
                       context.registry[initial.outputs[c].id].type, true});
  auto query = std::make_shared<plan::RecursiveQuery>();
  query->working = std::make_shared<Table>(name, columns);
  query->result = std::make_shared<Table>(name, columns);
  working.table = query->working.get();
  BoundQuery recursive = bind_query(*stmt.rarg, context, nullptr);
  if (working.references == 0) return nullptr;  // a plain UNION

  query->recursive_columns = conform(recursive, *query->working, name, context);
  query->recursive = std::move(recursive.root);
  for (const auto& output : initial.outputs) query->initial_columns.push_back(output.id);
  query->initial = std::move(initial.root);
  query->distinct = !stmt.all;
  context.recursive_queries.push_back(query);
  return bind_scan(*query->result, alias, context, scope, location);
}

}  // namespace floe::sql
