// COPY t [(columns)] FROM 'file' and COPY t | (SELECT ...) TO 'file', with the options of
// PostgreSQL's new (WITH (FORMAT csv, ...)) and old (DELIMITER '|' CSV HEADER) syntax.
#include "engine/api/query_runner.h"
#include "engine/api/row_constraints.h"
#include "engine/api/statement_context.h"
#include "engine/exec/csv_copy.h"
#include "engine/sql/select_binder.h"
#include "engine/txn/transaction.h"
#include "storage/error.h"

namespace floe {

namespace {

std::string option_string(const PgQuery__DefElem& option) {
  const sql::Node* arg = option.arg;
  if (!arg) return "";
  if (arg->node_case == PG_QUERY__NODE__NODE_STRING) return arg->string->sval;
  if (arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN)
    return arg->boolean->boolval ? "true" : "false";
  if (arg->node_case == PG_QUERY__NODE__NODE_INTEGER) return std::to_string(arg->integer->ival);
  throw Error("invalid value for COPY option \"" + std::string(option.defname) + "\"",
              option.location);
}

bool option_bool(const PgQuery__DefElem& option) {
  if (!option.arg) return true;
  std::string value = option_string(option);
  if (value == "true" || value == "on" || value == "1") return true;
  if (value == "false" || value == "off" || value == "0") return false;
  throw Error(std::string(option.defname) + " requires a Boolean value", option.location);
}

char single_character(const PgQuery__DefElem& option) {
  std::string value = option_string(option);
  if (value.size() != 1)
    throw Error("COPY " + std::string(option.defname) + " must be a single one-byte character",
                option.location);
  return value[0];
}

CsvOptions copy_options(const PgQuery__CopyStmt& stmt) {
  bool csv = false;
  std::optional<char> delimiter, quote;
  std::optional<std::string> null_string;
  bool header = false;
  for (size_t i = 0; i < stmt.n_options; ++i) {
    const PgQuery__DefElem& option = *stmt.options[i]->def_elem;
    std::string_view name = option.defname;
    if (name == "format") {
      std::string format = option_string(option);
      if (format != "csv" && format != "text")
        throw NotSupported("COPY format \"" + format + "\"", option.location);
      csv = format == "csv";
    } else if (name == "header") {
      header = option_bool(option);
    } else if (name == "delimiter") {
      delimiter = single_character(option);
    } else if (name == "null") {
      null_string = option_string(option);
    } else if (name == "quote") {
      quote = single_character(option);
    } else {
      throw NotSupported("COPY option \"" + std::string(name) + "\"", option.location);
    }
  }
  CsvOptions options;
  options.format = csv ? CopyFormat::kCsv : CopyFormat::kText;
  options.delimiter = delimiter.value_or(csv ? ',' : '\t');
  options.header = header;
  options.null_string = null_string.value_or(csv ? "" : "\\N");
  // The text format has no quoting; NUL never occurs in text input.
  options.quote = csv ? quote.value_or('"') : '\0';
  return options;
}

std::vector<size_t> copy_columns(const PgQuery__CopyStmt& stmt, const Table& table) {
  std::vector<size_t> columns;
  for (size_t i = 0; i < stmt.n_attlist; ++i) {
    std::string_view name = sql::node_string(stmt.attlist[i]);
    auto index = table.find_column(name);
    if (!index)
      throw Error("column \"" + std::string(name) + "\" of relation \"" + table.name() +
                  "\" does not exist");
    columns.push_back(*index);
  }
  if (columns.empty())
    for (size_t i = 0; i < table.columns().size(); ++i) columns.push_back(i);
  return columns;
}

// SELECT columns FROM table, as a plan.
plan::LogicalPlan table_plan(const Table& table, const std::vector<size_t>& columns) {
  plan::LogicalPlan logical;
  auto scan = std::make_unique<plan::ScanOp>();
  scan->table = &table;
  scan->alias = table.name();
  scan->estimated_rows = static_cast<double>(table.row_count());
  for (size_t index : columns) {
    const ColumnDef& column = table.columns()[index];
    plan::ColumnId id = logical.registry.add({column.type, column.nullable, column.name});
    scan->columns.push_back({index, id});
    logical.outputs.push_back({id, column.name});
  }
  logical.root = std::move(scan);
  return logical;
}

Table& find_table(const PgQuery__RangeVar& relation, Catalog& catalog) {
  Table* table = catalog.find_table(relation.relname);
  if (!table)
    throw Error("relation \"" + std::string(relation.relname) + "\" does not exist",
                relation.location);
  return *table;
}

}  // namespace

Result run_copy(const PgQuery__CopyStmt& stmt, StatementContext& context) {
  if (stmt.is_program) throw NotSupported("COPY ... PROGRAM");
  if (!stmt.filename || !*stmt.filename) throw NotSupported("COPY FROM STDIN / TO STDOUT");
  if (stmt.where_clause) throw NotSupported("COPY ... WHERE");
  CsvOptions options = copy_options(stmt);
  options.progress = context.options.copy_progress;
  options.cancel = context.options.cancel;
  PhaseTimings timings;
  auto start = std::chrono::steady_clock::now();
  uint64_t rows = 0;
  if (stmt.is_from) {
    Table& table = find_table(*stmt.relation, context.catalog);
    const std::vector<size_t> columns = copy_columns(stmt, table);
    const RowConstraints constraints(table, context.catalog);
    std::vector<bool> loaded(table.columns().size(), false);
    for (size_t column : columns) loaded[column] = true;
    options.complete_row = [&](std::vector<Value>& row) {
      for (size_t c = 0; c < row.size(); ++c)
        if (!loaded[c]) row[c] = constraints.default_value(c);
      constraints.check_row(row);
      constraints.check_foreign_keys(row);
    };
    const bool freeze = context.database.freezer().bulk_loads_freeze();
    if (Transaction* transaction = context.transaction) {
      Transaction::Append recorded(*transaction, table);  // a failure: the rollback takes back
      options.take_back_on_error = false;
      rows = copy_from_file(table, columns, stmt.filename, options);
      // Freezing replaces chunks that readers beside may be reading: only when none runs.
      if (freeze) transaction->try_without_readers([&] { table.freeze_full_chunks(); });
    } else {
      rows = copy_from_file(table, columns, stmt.filename, options);
      if (freeze) table.freeze_full_chunks();
    }
    table.analyze();
  } else {
    plan::LogicalPlan logical;
    if (stmt.query) {
      if (stmt.query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
        throw NotSupported("COPY of this statement");
      logical = sql::bind_select(*stmt.query->select_stmt, context.catalog);
    } else {
      const Table& table = find_table(*stmt.relation, context.catalog);
      logical = table_plan(table, copy_columns(stmt, table));
    }
    QueryOutput output = run_plan(std::move(logical), context.options, timings);
    rows = copy_to_file(output, stmt.filename, options);
  }
  Result result = Result::command("COPY " + std::to_string(rows), rows);
  timings.execute_ms += elapsed_ms(start) - timings.plan_ms - timings.codegen_ms -
                        timings.compile_ms - timings.execute_ms;
  result.mutable_timings() = timings;
  return result;
}

}  // namespace floe
