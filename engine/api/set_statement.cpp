// SET name = value / SET name TO value / RESET, and SHOW name. The settings (docs/sql.md
// "Settings") are listed once, in kSettings; each parses, shows and resets itself.
#include <array>
#include <charconv>

#include "engine/api/statement_context.h"
#include "storage/error.h"

namespace floe {

namespace {

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
    if (constant.val_case == PG_QUERY__A__CONST__VAL_BOOLVAL)
      return constant.boolval->boolval ? "on" : "off";
  }
  throw Error("invalid value for a setting", sql::node_location(arg));
}

uint32_t parse_count(std::string_view name, std::string_view value, uint32_t min, uint32_t max) {
  uint32_t result = 0;
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), result);
  if (error != std::errc() || end != value.data() + value.size() || result < min || result > max)
    invalid_value(name, value);
  return result;
}

// PostgreSQL's boolean spellings.
bool parse_bool(std::string_view name, std::string_view value) {
  for (const char* yes : {"on", "true", "yes", "1"})
    if (value == yes) return true;
  for (const char* no : {"off", "false", "no", "0"})
    if (value == no) return false;
  invalid_value(name, value);
}

template <typename Enum, size_t N>
Enum parse_enum(std::string_view name, std::string_view value,
                const std::array<const char*, N>& names) {
  for (size_t i = 0; i < N; ++i)
    if (value == names[i]) return static_cast<Enum>(i);
  invalid_value(name, value);
}

const std::array<const char*, 3> kOptimizationNames = {"fast", "optimized", "auto"};
const std::array<const char*, 3> kExecutionModeNames = {"compiled", "vectorized", "adaptive"};
const std::array<const char*, 2> kScanModeNames = {"vectorized", "jit"};
const std::array<const char*, 3> kFreezePolicyNames = {"auto", "bulk", "never"};
// In plan::JoinTableKind's order.
const std::array<const char*, 4> kJoinTableNames = {"chaining", "cht", "cat", "auto"};
// In plan::CompactionStrategy's order.
const std::array<const char*, 6> kCompactionNames = {"none",    "full",    "binary",
                                                     "learned", "logical", "smart"};

struct Setting {
  const char* name;
  void (*set)(std::string_view name, std::string_view value, StatementContext& context);
  std::string (*show)(const StatementContext& context);
  void (*reset)(StatementContext& context);
};

const ExecutionOptions kDefaults;

// The engine, and with it the vector size unless SET vector_size chose one.
void set_execution_mode(StatementContext& context, ExecutionMode mode) {
  context.options.execution_mode = mode;
  if (!context.options.vector_size_set)
    context.options.scan.vector_size = default_vector_size(mode);
}

// SET TRANSACTION ISOLATION LEVEL / SET transaction_isolation: the open block's transaction,
// before its first query (PostgreSQL's rule). Outside a block the statement is a transaction
// of its own that ends with it: no effect.
void set_transaction_isolation(StatementContext& context, IsolationLevel level) {
  if (!context.block->open || level == context.transaction->isolation()) return;
  if (context.transaction->queried())
    throw Error("SET TRANSACTION ISOLATION LEVEL must be called before any query");
  context.transaction->set_isolation(level);
}

// Settings of the connection: fields of ExecutionOptions.
#define FLOE_OPTION_RESET(field) [](StatementContext& c) { c.options.field = kDefaults.field; }

const Setting kSettings[] = {
    {"optimization",
     [](std::string_view n, std::string_view v, StatementContext& c) {
       c.options.optimization = parse_enum<OptimizationLevel>(n, v, kOptimizationNames);
     },
     [](const StatementContext& c) -> std::string {
       return kOptimizationNames[static_cast<size_t>(c.options.optimization)];
     },
     FLOE_OPTION_RESET(optimization)},
    {"threads",
     [](std::string_view n, std::string_view v, StatementContext& c) {
       c.options.threads = parse_count(n, v, 1, 1024);
     },
     // The threads queries run on, not a larger request.
     [](const StatementContext& c) { return std::to_string(worker_count(c.options)); },
     FLOE_OPTION_RESET(threads)},
    {"execution_mode",
     [](std::string_view n, std::string_view v, StatementContext& c) {
       set_execution_mode(c, parse_enum<ExecutionMode>(n, v, kExecutionModeNames));
     },
     [](const StatementContext& c) -> std::string {
       return kExecutionModeNames[static_cast<size_t>(c.options.execution_mode)];
     },
     [](StatementContext& c) { set_execution_mode(c, kDefaults.execution_mode); }},
    {"scan_mode",
     [](std::string_view n, std::string_view v, StatementContext& c) {
       c.options.scan_mode = parse_enum<ScanMode>(n, v, kScanModeNames);
     },
     [](const StatementContext& c) -> std::string {
       return kScanModeNames[static_cast<size_t>(c.options.scan_mode)];
     },
     FLOE_OPTION_RESET(scan_mode)},
    {"sarg_pushdown",
     [](std::string_view n, std::string_view v, StatementContext& c) {
       c.options.sarg_pushdown = parse_bool(n, v);
     },
     [](const StatementContext& c) -> std::string {
       return c.options.sarg_pushdown ? "on" : "off";
     },
     FLOE_OPTION_RESET(sarg_pushdown)},
    {"sma_skipping",
     [](std::string_view n, std::string_view v, StatementContext& c) {
       c.options.scan.sma_skipping = parse_bool(n, v);
     },
     [](const StatementContext& c) -> std::string {
       return c.options.scan.sma_skipping ? "on" : "off";
     },
     FLOE_OPTION_RESET(scan.sma_skipping)},
    {"psma",
     [](std::string_view n, std::string_view v, StatementContext& c) {
       c.options.scan.psma = parse_bool(n, v);
     },
     [](const StatementContext& c) -> std::string { return c.options.scan.psma ? "on" : "off"; },
     FLOE_OPTION_RESET(scan.psma)},
    {"vector_size",
     [](std::string_view n, std::string_view v, StatementContext& c) {
       c.options.scan.vector_size = parse_count(n, v, 1, kChunkCapacity);
       c.options.vector_size_set = true;
     },
     [](const StatementContext& c) { return std::to_string(c.options.scan.vector_size); },
     [](StatementContext& c) {
       c.options.vector_size_set = false;
       c.options.scan.vector_size = default_vector_size(c.options.execution_mode);
     }},
    {"join_table",
     [](std::string_view n, std::string_view v, StatementContext& c) {
       c.options.join_table = parse_enum<plan::JoinTableKind>(n, v, kJoinTableNames);
     },
     [](const StatementContext& c) -> std::string {
       return kJoinTableNames[static_cast<size_t>(c.options.join_table)];
     },
     FLOE_OPTION_RESET(join_table)},
    {"enable_index_join",
     [](std::string_view n, std::string_view v, StatementContext& c) {
       c.options.index_join = parse_bool(n, v);
     },
     [](const StatementContext& c) -> std::string { return c.options.index_join ? "on" : "off"; },
     FLOE_OPTION_RESET(index_join)},
    {"compaction",
     [](std::string_view n, std::string_view v, StatementContext& c) {
       c.options.compaction = parse_enum<plan::CompactionStrategy>(n, v, kCompactionNames);
     },
     [](const StatementContext& c) -> std::string {
       return kCompactionNames[static_cast<size_t>(c.options.compaction)];
     },
     FLOE_OPTION_RESET(compaction)},
    // Settings of the transaction and the session's default for it (isolation_level.h).
    {"transaction_isolation",
     [](std::string_view n, std::string_view v, StatementContext& c) {
       set_transaction_isolation(c, parse_enum<IsolationLevel>(n, v, kIsolationLevelNames));
     },
     [](const StatementContext& c) -> std::string {
       return isolation_level_name(c.transaction->isolation());
     },
     [](StatementContext&) {}},  // RESET ALL leaves the running transaction as it is
    {"default_transaction_isolation",
     [](std::string_view n, std::string_view v, StatementContext& c) {
       c.block->default_isolation = parse_enum<IsolationLevel>(n, v, kIsolationLevelNames);
     },
     [](const StatementContext& c) -> std::string {
       return isolation_level_name(c.block->default_isolation);
     },
     [](StatementContext& c) { c.block->default_isolation = kDefaultIsolation; }},
    // Settings of the database, shared by its connections.
    {"freeze_policy",
     [](std::string_view n, std::string_view v, StatementContext& c) {
       c.database.freezer().set_policy(parse_enum<FreezePolicy>(n, v, kFreezePolicyNames));
     },
     [](const StatementContext& c) -> std::string {
       return kFreezePolicyNames[static_cast<size_t>(c.database.freezer().policy())];
     },
     [](StatementContext& c) { c.database.freezer().set_policy(ChunkFreezer::kDefaultPolicy); }},
    {"freeze_delay",
     [](std::string_view n, std::string_view v, StatementContext& c) {
       c.database.freezer().set_delay_seconds(parse_count(n, v, 0, 86400));
     },
     [](const StatementContext& c) { return std::to_string(c.database.freezer().delay_seconds()); },
     [](StatementContext& c) {
       c.database.freezer().set_delay_seconds(ChunkFreezer::kDefaultDelaySeconds);
     }},
};

#undef FLOE_OPTION_RESET

const Setting& find_setting(std::string_view name) {
  for (const Setting& setting : kSettings)
    if (name == setting.name) return setting;
  unknown_setting(name);
}

// SET TRANSACTION <modes> and SET SESSION CHARACTERISTICS AS TRANSACTION <modes>.
Result run_set_transaction(const PgQuery__VariableSetStmt& stmt, StatementContext& context) {
  const std::string_view name = stmt.name;
  if (name != "TRANSACTION" && name != "SESSION CHARACTERISTICS")
    throw NotSupported("SET " + std::string(name));
  Result result = Result::command("SET");
  if (name == "SESSION CHARACTERISTICS") {
    apply_transaction_modes(stmt.args, stmt.n_args, context.block->default_isolation);
  } else if (!context.block->open) {
    result.add_notice("SET TRANSACTION can only be used in transaction blocks");
  } else {
    IsolationLevel level = context.transaction->isolation();
    apply_transaction_modes(stmt.args, stmt.n_args, level);
    set_transaction_isolation(context, level);
  }
  return result;
}

}  // namespace

Result run_set(const PgQuery__VariableSetStmt& stmt, StatementContext& context) {
  switch (stmt.kind) {
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE: {
      if (stmt.n_args != 1)
        throw Error("SET " + std::string(stmt.name) + " takes only one argument");
      const Setting& setting = find_setting(stmt.name);
      setting.set(setting.name, setting_text(stmt.args[0]), context);
      break;
    }
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT:
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET:
      find_setting(stmt.name).reset(context);
      break;
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL:
      for (const Setting& setting : kSettings) setting.reset(context);
      break;
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_MULTI:
      return run_set_transaction(stmt, context);
    default:
      throw NotSupported("this form of SET");
  }
  bool is_reset = stmt.kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET ||
                  stmt.kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL;
  Result result = Result::command(is_reset ? "RESET" : "SET");
  uint32_t workers = worker_count(context.options);
  if (stmt.name && std::string_view(stmt.name) == "threads" && workers < context.options.threads) {
    result.add_notice("threads = " + std::to_string(context.options.threads) +
                      " is more than the " + std::to_string(workers) + " cores: queries run on " +
                      std::to_string(workers) + " threads");
  }
  return result;
}

Result run_show(const PgQuery__VariableShowStmt& stmt, StatementContext& context) {
  const Setting& setting = find_setting(stmt.name);
  QueryOutput output;
  output.column_names.push_back(setting.name);
  output.column_types.push_back(SqlType::text());
  output.rows.push_back({Value::string(setting.show(context))});
  return Result::query(std::move(output));
}

}  // namespace floe
