// CALL dbgen(sf): the TPC-H tables, created as tpch/schema.sql declares them (primary keys
// included) and filled in parallel by the direct loader (tpch/direct_loader.h).
#include <charconv>
#include <string>
#include <vector>

#include "engine/api/procedures.h"
#include "engine/sql/parser.h"
#include "runtime/cancellation.h"
#include "storage/error.h"
#include "tpch/direct_loader.h"
#include "tpch/scale.h"
#include "tpch/schema_sql.h"

namespace floe {

namespace {

double scale_factor_argument(const PgQuery__FuncCall& call) {
  if (call.n_args != 1 || call.agg_star)
    throw Error("dbgen takes one argument, the scale factor, e.g. CALL dbgen(0.01)", call.location);
  const sql::Node* arg = call.args[0];
  int location = sql::node_location(arg);
  double scale_factor = 0;
  bool numeric = false;
  if (arg->node_case == PG_QUERY__NODE__NODE_A_CONST) {
    const PgQuery__AConst& constant = *arg->a_const;
    if (constant.val_case == PG_QUERY__A__CONST__VAL_IVAL) {
      scale_factor = constant.ival->ival;
      numeric = true;
    } else if (constant.val_case == PG_QUERY__A__CONST__VAL_FVAL) {
      std::string_view text = constant.fval->fval;
      auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), scale_factor);
      numeric = error == std::errc() && end == text.data() + text.size();
    }
  }
  if (!numeric) throw Error("scale factor of dbgen must be a numeric constant", location);
  if (!(scale_factor > 0)) throw Error("scale factor of dbgen must be positive", location);
  tpch::make_scale(scale_factor);  // rejects scale factors the generator does not support
  return scale_factor;
}

// Drops the tables it was told about unless dismissed: a failed CALL leaves nothing behind.
class CreatedTables {
 public:
  explicit CreatedTables(Catalog& catalog) : catalog_(catalog) {}
  ~CreatedTables() {
    for (const std::string& name : names_) catalog_.drop_table(name);
  }
  CreatedTables(const CreatedTables&) = delete;
  CreatedTables& operator=(const CreatedTables&) = delete;

  void add(std::string name) { names_.push_back(std::move(name)); }
  void keep() { names_.clear(); }

 private:
  Catalog& catalog_;
  std::vector<std::string> names_;
};

// After every loaded range: a cancel stops the load (the loader passes the error on), and
// the shell's progress bar moves.
tpch::LoadProgress load_progress(const ExecutionOptions& options) {
  return [&options](const tpch::LoadStatus& status) {
    throw_if_canceled(options.cancel);
    if (!options.load_progress) return;
    std::string tables;
    for (const Table* table : status.tables) tables += (tables.empty() ? "" : "+") + table->name();
    options.load_progress(tables, static_cast<uint64_t>(status.parents_done),
                          static_cast<uint64_t>(status.parents_total));
  };
}

}  // namespace

Result run_dbgen(const PgQuery__FuncCall& call, StatementContext& context) {
  double scale_factor = scale_factor_argument(call);
  sql::ParseTree schema(tpch::schema_sql());
  for (size_t i = 0; i < schema.statement_count(); ++i) {
    const char* name = schema.statement(i).stmt->create_stmt->relation->relname;
    if (context.catalog.find_table(name))
      throw Error("relation \"" + std::string(name) + "\" already exists", call.location);
  }
  CreatedTables created(context.catalog);
  for (size_t i = 0; i < schema.statement_count(); ++i) {
    const PgQuery__CreateStmt& create = *schema.statement(i).stmt->create_stmt;
    run_create_table(create, context);
    created.add(create.relation->relname);
  }
  uint32_t workers = worker_count(context.options);
  ThreadPoolCapacity pool(workers);
  const std::atomic<bool>* cancel = context.options.cancel;
  tpch::load_tables(context.catalog, scale_factor, static_cast<int>(workers),
                    load_progress(context.options), context.database.freezer().bulk_loads_freeze(),
                    [cancel] { throw_if_canceled(cancel); });
  created.keep();
  return Result::command("CALL");
}

}  // namespace floe
