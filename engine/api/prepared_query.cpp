#include "engine/api/prepared_query.h"

#include "engine/api/compiled_plan.h"
#include "engine/sql/expression_binder.h"
#include "engine/sql/parser.h"
#include "engine/sql/select_binder.h"
#include "engine/sql/statement_parameters.h"
#include "engine/sql/type_name.h"
#include "engine/sql/type_rules.h"
#include "engine/vector/expression_executor.h"
#include "storage/error.h"

namespace floe {

namespace {

// The statement a PREPARE text holds (or the text's own statement, Connection::prepare).
const PgQuery__Node& prepared_node(const sql::ParseTree& tree) {
  if (tree.statement_count() != 1)
    throw Error("cannot insert multiple commands into a prepared statement");
  const PgQuery__Node& node = *tree.statement(0).stmt;
  const PgQuery__Node& query =
      node.node_case == PG_QUERY__NODE__NODE_PREPARE_STMT ? *node.prepare_stmt->query : node;
  switch (query.node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT:
    case PG_QUERY__NODE__NODE_INSERT_STMT:
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
    case PG_QUERY__NODE__NODE_DELETE_STMT:
      return query;
    default:
      throw NotSupported("preparing this statement (only SELECT, INSERT, UPDATE and DELETE)");
  }
}

std::string quoted_name(const std::string& name) {
  return name.empty() ? std::string("unnamed prepared statement")
                      : "prepared statement \"" + name + "\"";
}

}  // namespace

PreparedQuery::PreparedQuery(std::string sql, std::vector<SqlType> declared,
                             StatementContext& context)
    : sql_(std::move(sql)), declared_(std::move(declared)) {
  prepare(context);
  if (compiled_) result_types_ = compiled_->result_types();
}

PreparedQuery::~PreparedQuery() = default;

void PreparedQuery::prepare(StatementContext& context) {
  compiled_.reset();
  statement_query_.reset();
  tree_ = std::make_unique<sql::ParseTree>(sql_);
  const PgQuery__Node& node = prepared_node(*tree_);
  access_ = statement_access(node, sql_);
  schema_version_ = context.database.schema_version();
  sql::StatementParameters parameters(declared_);
  if (node.node_case == PG_QUERY__NODE__NODE_SELECT_STMT && !node.select_stmt->into_clause) {
    sql::StatementParameters::Scope scope(parameters);
    plan::LogicalPlan logical = sql::bind_select(*node.select_stmt, context.catalog);
    types_ = parameters.final_types();
    if (!plans_with_data(logical))
      compiled_ = std::make_unique<CompiledPlan>(std::move(logical), context.options);
    return;
  }
  if (node.node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
    statement_query_ = std::make_unique<StatementQueryCache>();
  // Bound at each execution: the parameters it names, typed where declared.
  types_ = declared_;
  size_t count = sql::highest_parameter(sql_);
  if (types_.size() < count) types_.resize(count, SqlType::unknown());
}

void PreparedQuery::check_count(size_t given) const {
  if (given != types_.size())
    throw Error("wrong number of parameters for " + quoted_name(name) + "\nDETAIL:  Expected " +
                std::to_string(types_.size()) + " parameters but got " + std::to_string(given) +
                ".");
}

std::vector<Value> PreparedQuery::convert(const std::vector<Value>& arguments) const {
  check_count(arguments.size());
  std::vector<Value> values;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const Value& argument = arguments[i];
    const SqlType& type = types_[i];
    if (type.id == TypeId::kUnknown || argument.type() == type) {
      values.push_back(argument);
      continue;
    }
    if (argument.type().id != TypeId::kUnknown && !sql::can_cast(argument.type(), type))
      throw Error("parameter $" + std::to_string(i + 1) + " of type " +
                  sql::type_name(argument.type()) + " cannot be coerced to the expected type " +
                  sql::type_name(type));
    values.push_back(argument.is_null() ? Value::null(type) : cast_value(argument, type));
  }
  return values;
}

Result PreparedQuery::execute(const std::vector<Value>& arguments, StatementContext& context) {
  if (schema_version_ != context.database.schema_version()) {
    // DDL ran since: prepare again (PostgreSQL re-plans a cached plan likewise).
    prepare(context);
    if (compiled_ && compiled_->result_types() != result_types_)
      throw Error("cached plan must not change result type");
  }
  std::vector<Value> values = convert(arguments);
  if (compiled_) {
    QueryOutput output = compiled_->query->run_prepared(context.options, values);
    const double execute_ms = output.execute_ms;
    Result result = Result::query(std::move(output));
    result.mutable_timings().execute_ms = execute_ms;  // nothing else: no planning, no compiling
    return result;
  }
  sql::StatementParameters parameters(types_, std::move(values));
  sql::StatementParameters::Scope scope(parameters);
  PgQuery__RawStmt raw = tree_->statement(0);
  raw.stmt = const_cast<PgQuery__Node*>(&prepared_node(*tree_));
  StatementQueryCache* outer = context.query_cache;
  context.query_cache = statement_query_.get();
  try {
    Result result = run_statement(raw, sql_, context);
    context.query_cache = outer;
    return result;
  } catch (...) {
    context.query_cache = outer;
    throw;
  }
}

Result run_prepare(const PgQuery__PrepareStmt& stmt, std::string_view statement_text,
                   StatementContext& context) {
  std::string name = stmt.name;
  if (context.prepared->count(name))
    throw Error("prepared statement \"" + name + "\" already exists");
  std::vector<SqlType> declared;
  for (size_t i = 0; i < stmt.n_argtypes; ++i)
    declared.push_back(sql::resolve_type_name(*stmt.argtypes[i]->type_name));
  auto prepared =
      std::make_shared<PreparedQuery>(std::string(statement_text), std::move(declared), context);
  prepared->name = name;
  context.prepared->emplace(std::move(name), std::move(prepared));
  return Result::command("PREPARE");
}

Result run_execute(const PgQuery__ExecuteStmt& stmt, StatementContext& context) {
  auto found = context.prepared->find(stmt.name);
  if (found == context.prepared->end())
    throw Error("prepared statement \"" + std::string(stmt.name) + "\" does not exist");
  std::shared_ptr<PreparedQuery> prepared = found->second;  // DEALLOCATE may run inside
  prepared->check_count(stmt.n_params);
  const std::vector<SqlType>& types = prepared->parameter_types();
  // The arguments are expressions without columns, each converted to its parameter's type
  // as an assignment would.
  plan::ColumnRegistry registry;
  sql::BindContext bind_context{context.catalog, registry};
  sql::BindScope scope;
  std::vector<Value> arguments;
  for (size_t i = 0; i < stmt.n_params; ++i) {
    plan::ExprPtr expr = sql::ExpressionBinder(bind_context, scope, "EXECUTE parameter")
                             .bind(stmt.params[i]);
    if (types[i].id != TypeId::kUnknown && (sql::is_unknown_literal(*expr) ||
                                            sql::can_cast(expr->type, types[i])))
      expr = sql::coerce(std::move(expr), types[i]);
    arguments.push_back(vectorized::evaluate_scalar_at(*expr));
  }
  return prepared->execute(arguments, context);
}

Result run_deallocate(const PgQuery__DeallocateStmt& stmt, StatementContext& context) {
  if (!stmt.name || !*stmt.name) {
    context.prepared->clear();
    return Result::command("DEALLOCATE ALL");
  }
  if (!context.prepared->erase(stmt.name))
    throw Error("prepared statement \"" + std::string(stmt.name) + "\" does not exist");
  return Result::command("DEALLOCATE");
}

}  // namespace floe
