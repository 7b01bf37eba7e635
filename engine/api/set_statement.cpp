// SET name = value / SET name TO value / RESET, and SHOW name, for the connection settings
// `optimization` ('fast' | 'optimized' | 'auto') and `threads` (integer >= 1; more than the
// cores are capped at the cores, which SET says in a notice and SHOW shows).
#include "engine/api/statement_context.h"
#include "storage/error.h"

namespace floe {

namespace {

const char* const kOptimizationNames[] = {"fast", "optimized", "auto"};

[[noreturn]] void unknown_setting(std::string_view name) {
  throw Error("unrecognized configuration parameter \"" + std::string(name) + "\"");
}

[[noreturn]] void invalid_value(std::string_view name, std::string_view value) {
  throw Error("invalid value for parameter \"" + std::string(name) + "\": \"" + std::string(value) +
              "\"");
}

std::string setting_text(const sql::Node* arg) {
  if (arg->node_case == PG_QUERY__NODE__NODE_A_CONST) {
    const PgQuery__AConst& constant = *arg->a_const;
    if (constant.val_case == PG_QUERY__A__CONST__VAL_SVAL) return constant.sval->sval;
    if (constant.val_case == PG_QUERY__A__CONST__VAL_IVAL)
      return std::to_string(constant.ival->ival);
    if (constant.val_case == PG_QUERY__A__CONST__VAL_FVAL) return constant.fval->fval;
  }
  throw Error("invalid value for a setting", sql::node_location(arg));
}

void apply(std::string_view name, const std::string& value, ExecutionOptions& options) {
  if (name == "optimization") {
    for (size_t i = 0; i < 3; ++i)
      if (value == kOptimizationNames[i]) {
        options.optimization = static_cast<OptimizationLevel>(i);
        return;
      }
    invalid_value(name, value);
  }
  if (name == "threads") {
    size_t used = 0;
    long threads = 0;
    try {
      threads = std::stol(value, &used);
    } catch (const std::exception&) {
      invalid_value(name, value);
    }
    if (used != value.size() || threads < 1 || threads > 1024) invalid_value(name, value);
    options.threads = static_cast<uint32_t>(threads);
    return;
  }
  unknown_setting(name);
}

void reset(std::string_view name, ExecutionOptions& options) {
  ExecutionOptions defaults;
  if (name == "optimization")
    options.optimization = defaults.optimization;
  else if (name == "threads")
    options.threads = defaults.threads;
  else
    unknown_setting(name);
}

}  // namespace

Result run_set(const PgQuery__VariableSetStmt& stmt, StatementContext& context) {
  switch (stmt.kind) {
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE:
      if (stmt.n_args != 1)
        throw Error("SET " + std::string(stmt.name) + " takes only one argument");
      apply(stmt.name, setting_text(stmt.args[0]), context.options);
      break;
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT:
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET:
      reset(stmt.name, context.options);
      break;
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL:
      context.options = ExecutionOptions();
      break;
    default:
      throw NotSupported("this form of SET");
  }
  bool is_reset = stmt.kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET ||
                  stmt.kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL;
  Result result = Result::command(is_reset ? "RESET" : "SET");
  uint32_t workers = worker_count(context.options);
  if (workers < context.options.threads) {
    result.add_notice("threads = " + std::to_string(context.options.threads) +
                      " is more than the " + std::to_string(workers) + " cores: queries run on " +
                      std::to_string(workers) + " threads");
  }
  return result;
}

Result run_show(const PgQuery__VariableShowStmt& stmt, StatementContext& context) {
  std::string_view name = stmt.name;
  std::string value;
  if (name == "optimization")
    value = kOptimizationNames[static_cast<size_t>(context.options.optimization)];
  else if (name == "threads")  // the threads queries run on, not a larger request
    value = std::to_string(worker_count(context.options));
  else
    unknown_setting(name);
  QueryOutput output;
  output.column_names.push_back(std::string(name));
  output.column_types.push_back(SqlType::text());
  output.rows.push_back({Value::string(value)});
  return Result::query(std::move(output));
}

}  // namespace floe
