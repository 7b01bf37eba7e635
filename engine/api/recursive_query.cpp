#include "engine/api/recursive_query.h"

#include <string>
#include <unordered_set>

#include "engine/api/query_runner.h"
#include "engine/plan/logical_walk.h"
#include "runtime/cancellation.h"

namespace floe {

namespace {

using Rows = std::vector<std::vector<Value>>;

Rows run_term(const plan::LogicalOp& root, const std::vector<plan::ColumnId>& columns,
              const plan::ColumnRegistry& registry, const ExecutionOptions& options,
              PhaseTimings& timings) {
  plan::LogicalPlan term;
  term.root = plan::clone_tree(root);
  term.registry = registry;
  for (plan::ColumnId id : columns) term.outputs.push_back({id, registry[id].name});
  PhaseTimings inner;
  QueryOutput output = run_plan(std::move(term), options, inner);
  timings.plan_ms += inner.plan_ms + inner.codegen_ms + inner.compile_ms + inner.execute_ms;
  return std::move(output.rows);
}

// A row's identity for UNION: each column has one type, so equal values print alike, and
// NULLs (which UNION does not tell apart) differ from every value.
std::string row_key(const std::vector<Value>& row) {
  std::string key;
  for (const Value& value : row) {
    if (value.is_null()) {
      key += '\0';
      continue;
    }
    std::string text = value.to_string();
    key += '\1' + std::to_string(text.size()) + ':' + text;
  }
  return key;
}

void append(Table& table, const Rows& rows) {
  TableAppender appender(table);
  for (const auto& row : rows) appender.append_row(row);
}

}  // namespace

void run_recursive_queries(const plan::LogicalPlan& logical, const ExecutionOptions& options,
                           PhaseTimings& timings) {
  for (const auto& query : logical.recursive_queries) {
    query->working->truncate(0);
    query->result->truncate(0);
    std::unordered_set<std::string> seen;
    auto new_rows = [&](Rows rows) {
      if (!query->distinct) return rows;
      Rows kept;
      for (auto& row : rows)
        if (seen.insert(row_key(row)).second) kept.push_back(std::move(row));
      return kept;
    };
    Rows rows = new_rows(
        run_term(*query->initial, query->initial_columns, logical.registry, options, timings));
    while (!rows.empty()) {
      throw_if_canceled(options.cancel);
      append(*query->result, rows);
      query->working->truncate(0);
      append(*query->working, rows);
      rows = new_rows(run_term(*query->recursive, query->recursive_columns, logical.registry,
                               options, timings));
    }
  }
}

}  // namespace floe
