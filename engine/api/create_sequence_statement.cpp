// CREATE SEQUENCE [IF NOT EXISTS] s [options] and the sequence options of identity columns.
#include <optional>

#include "engine/api/sequence_definition.h"
#include "engine/api/statement_context.h"
#include "engine/sql/type_name.h"
#include "storage/error.h"
#include "storage/numeric_casts.h"

namespace floe {

namespace {

int64_t option_integer(const PgQuery__DefElem& option) {
  const sql::Node* arg = option.arg;
  if (arg && arg->node_case == PG_QUERY__NODE__NODE_INTEGER) return arg->integer->ival;
  if (arg && arg->node_case == PG_QUERY__NODE__NODE_FLOAT) {
    try {
      size_t used = 0;
      int64_t value = std::stoll(arg->float_->fval, &used);
      if (used == std::string_view(arg->float_->fval).size()) return value;
    } catch (const std::exception&) {
    }
    throw Error("value \"" + std::string(arg->float_->fval) + "\" is out of range for type bigint",
                option.location);
  }
  throw Error(std::string(option.defname) + " requires a numeric value", option.location);
}

}  // namespace

SequenceOptions sequence_options(const sql::Node* const* options, size_t count, SqlType type) {
  std::optional<int64_t> increment, min_value, max_value, start;
  std::optional<bool> cycle;
  bool seen_as = false, seen_min = false, seen_max = false, seen_cache = false;
  auto once = [](bool& seen, const PgQuery__DefElem& option) {
    if (seen) throw Error("conflicting or redundant options", option.location);
    seen = true;
  };
  auto once_value = [](auto& value, const PgQuery__DefElem& option) {
    if (value) throw Error("conflicting or redundant options", option.location);
  };
  for (size_t i = 0; i < count; ++i) {
    const PgQuery__DefElem& option = *options[i]->def_elem;
    std::string_view name = option.defname;
    if (name == "as") {
      once(seen_as, option);
      type = sql::resolve_type_name(*option.arg->type_name);
      if (!type.is_integer())
        throw Error("sequence type must be smallint, integer, or bigint", option.location);
    } else if (name == "increment") {
      once_value(increment, option);
      increment = option_integer(option);
    } else if (name == "minvalue") {
      once(seen_min, option);
      if (option.arg) min_value = option_integer(option);
    } else if (name == "maxvalue") {
      once(seen_max, option);
      if (option.arg) max_value = option_integer(option);
    } else if (name == "start") {
      once_value(start, option);
      start = option_integer(option);
    } else if (name == "cache") {
      once(seen_cache, option);
      int64_t cache = option_integer(option);
      if (cache <= 0)
        throw Error("CACHE (" + std::to_string(cache) + ") must be greater than zero",
                    option.location);
    } else if (name == "cycle") {
      once_value(cycle, option);
      cycle = option.arg->boolean->boolval;
    } else {
      throw NotSupported("sequence option \"" + std::string(name) + "\"", option.location);
    }
  }
  SequenceOptions result;
  result.increment = increment.value_or(1);
  if (result.increment == 0) throw Error("INCREMENT must not be zero");
  const auto [type_min, type_max] = integer_range(type.id);
  result.max_value = max_value.value_or(result.increment > 0 ? type_max : -1);
  result.min_value = min_value.value_or(result.increment > 0 ? 1 : type_min);
  if (result.max_value < type_min || result.max_value > type_max)
    throw Error("MAXVALUE (" + std::to_string(result.max_value) +
                ") is out of range for sequence data type " + type.to_string());
  if (result.min_value < type_min || result.min_value > type_max)
    throw Error("MINVALUE (" + std::to_string(result.min_value) +
                ") is out of range for sequence data type " + type.to_string());
  if (result.min_value >= result.max_value)
    throw Error("MINVALUE (" + std::to_string(result.min_value) + ") must be less than MAXVALUE (" +
                std::to_string(result.max_value) + ")");
  result.start = start.value_or(result.increment > 0 ? result.min_value : result.max_value);
  if (result.start < result.min_value)
    throw Error("START value (" + std::to_string(result.start) +
                ") cannot be less than MINVALUE (" + std::to_string(result.min_value) + ")");
  if (result.start > result.max_value)
    throw Error("START value (" + std::to_string(result.start) +
                ") cannot be greater than MAXVALUE (" + std::to_string(result.max_value) + ")");
  result.cycle = cycle.value_or(false);
  return result;
}

Sequence& create_owned_sequence(Catalog& catalog, const std::string& table,
                                const std::string& column, const SequenceOptions& options) {
  const std::string base = table + "_" + column + "_seq";
  std::string name = base;
  for (int number = 1; catalog.relation_exists(name); ++number)
    name = base + std::to_string(number);
  return catalog.create_sequence(name, options);
}

Result run_create_sequence(const PgQuery__CreateSeqStmt& stmt, StatementContext& context) {
  const PgQuery__RangeVar& relation = *stmt.sequence;
  if (relation.schemaname && *relation.schemaname) throw NotSupported("schemas", relation.location);
  if (relation.relpersistence && std::string_view(relation.relpersistence) == "t")
    throw NotSupported("temporary sequences", relation.location);
  const std::string name = relation.relname;
  Catalog& catalog = context.catalog;
  const bool exists = catalog.relation_exists(name);
  if (exists && stmt.if_not_exists) {
    Result result = Result::command("CREATE SEQUENCE");
    result.add_notice("relation \"" + name + "\" already exists, skipping");
    return result;
  }
  if (exists) throw Error("relation \"" + name + "\" already exists", relation.location);
  catalog.create_sequence(name, sequence_options(stmt.options, stmt.n_options, SqlType::big_int()));
  return Result::command("CREATE SEQUENCE");
}

}  // namespace floe
