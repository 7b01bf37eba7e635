// CREATE [OR REPLACE] VIEW name [(column, ...)] AS SELECT ...: the query is bound once, to
// check it and to name the view's columns, and the statement is kept as text
// (storage/catalog.h, View).
#include <set>

#include "engine/api/statement_context.h"
#include "engine/sql/select_binder.h"
#include "storage/error.h"

namespace floe {

Result run_create_view(const PgQuery__ViewStmt& stmt, std::string_view statement_text,
                       StatementContext& context) {
  const PgQuery__RangeVar& target = *stmt.view;
  if (target.schemaname && *target.schemaname) throw NotSupported("schemas", target.location);
  if (target.relpersistence && std::string_view(target.relpersistence) == "t")
    throw NotSupported("temporary views", target.location);
  if (stmt.n_options) throw NotSupported("view options");
  if (stmt.with_check_option != PG_QUERY__VIEW_CHECK_OPTION__NO_CHECK_OPTION)
    throw NotSupported("WITH CHECK OPTION");
  if (stmt.query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
    throw NotSupported("views of statements other than SELECT");
  plan::LogicalPlan plan = sql::bind_select(*stmt.query->select_stmt, context.catalog);
  if (stmt.n_aliases > plan.outputs.size())
    throw Error("CREATE VIEW specifies more column names than columns");
  View view{std::string(statement_text), {}};
  std::set<std::string> seen;
  for (size_t i = 0; i < plan.outputs.size(); ++i) {
    std::string name =
        i < stmt.n_aliases ? std::string(sql::node_string(stmt.aliases[i])) : plan.outputs[i].name;
    if (!seen.insert(name).second) throw Error("column \"" + name + "\" specified more than once");
    view.column_names.push_back(std::move(name));
  }
  context.catalog.create_view(target.relname, std::move(view), stmt.replace);
  return Result::command("CREATE VIEW");
}

}  // namespace floe
