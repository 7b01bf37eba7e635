// EXPLAIN SELECT ... (operator tree and pipelines), EXPLAIN (IR) SELECT ... (the LLVM IR) and
// EXPLAIN ANALYZE SELECT ... (runs the query, discards its rows, and shows the rows each
// operator produced, each pipeline's time and the phase times).
// Scalar subqueries are executed while planning, as for the query itself.
#include <cstdio>

#include "engine/api/query_runner.h"
#include "engine/api/statement_context.h"
#include "engine/sql/select_binder.h"
#include "storage/error.h"

namespace floe {

namespace {

Result text_lines(const std::string& text) {
  QueryOutput output;
  output.column_names.push_back("QUERY PLAN");
  output.column_types.push_back(SqlType::text());
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    output.rows.push_back({Value::string(text.substr(begin, end - begin))});
    begin = end + 1;
  }
  return Result::query(std::move(output));
}

// PostgreSQL's boolean option values: none (true), true/false, on/off, 1/0.
bool option_enabled(const PgQuery__DefElem& option) {
  const sql::Node* value = option.arg;
  if (!value) return true;
  if (value->node_case == PG_QUERY__NODE__NODE_BOOLEAN) return value->boolean->boolval;
  if (value->node_case == PG_QUERY__NODE__NODE_INTEGER && value->integer->ival <= 1)
    return value->integer->ival == 1;
  std::string_view text = sql::node_string(value);
  if (text == "true" || text == "on") return true;
  if (text == "false" || text == "off") return false;
  throw Error(std::string(option.defname) + " requires a Boolean value", option.location);
}

std::string milliseconds(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f ms", ms);
  return text;
}

// Vectorized engine: " (chunks in 3 of 1024.0 rows, out 40 of 12.5 rows)", the chunks an
// operator received and passed on (after its compaction) and their average size; a source
// has only chunks out.
std::string chunk_counts(const vectorized::ChunkCounts& counts) {
  auto part = [](const char* name, uint64_t chunks, uint64_t rows) {
    char text[64];
    std::snprintf(text, sizeof text, "%s %llu of %.1f rows", name,
                  static_cast<unsigned long long>(chunks),
                  chunks ? static_cast<double>(rows) / static_cast<double>(chunks) : 0.0);
    return std::string(text);
  };
  std::string text = " (chunks ";
  if (counts.chunks_in) text += part("in", counts.chunks_in, counts.rows_in) + ", ";
  return text + part("out", counts.chunks_out, counts.rows_out) + ")";
}

// Learned compaction: " (learned thresholds 0: 72, 128: 950)", how often the operator's
// learner picked each threshold (rows), Fig 12 of the paper.
std::string learned_thresholds(const std::map<uint32_t, uint64_t>& thresholds) {
  std::string text = " (learned thresholds";
  const char* separator = " ";
  for (auto [threshold, selections] : thresholds) {
    text += separator + std::to_string(threshold) + ": " + std::to_string(selections);
    separator = ", ";
  }
  return text + ")";
}

// Runs the query with row counting; fills the codegen, compile and execute times.
std::string explain_analyze(const plan::PhysicalPlan& physical, const ExecutionOptions& options,
                            PhaseTimings& timings) {
  QueryProfile profile;
  QueryOutput output = execute_plan(physical, options, &profile);
  timings.codegen_ms = output.codegen_ms;
  timings.compile_ms = output.compile_ms;
  timings.execute_ms = output.execute_ms;
  std::string text = plan::explain(
      physical,
      [&](const plan::LogicalOp& op) {
        auto rows = profile.operator_rows.find(&op);
        // Before the rows: tests match "(actual rows N)" at the end or before other parts.
        auto chunks = profile.operator_chunks.find(&op);
        std::string text = chunks == profile.operator_chunks.end() ? "" : chunk_counts(chunks->second);
        auto thresholds = profile.learned_thresholds.find(&op);
        if (thresholds != profile.learned_thresholds.end())
          text += learned_thresholds(thresholds->second);
        text += " (actual rows " +
                           std::to_string(rows == profile.operator_rows.end() ? 0 : rows->second) +
                           ")";
        auto join_table = profile.join_tables.find(&op);
        if (join_table != profile.join_tables.end())
          text += " (join table " + join_table->second + ")";
        auto scan = profile.scans.find(&op);
        if (scan != profile.scans.end() && op.kind == plan::LogicalKind::kScan &&
            !static_cast<const plan::ScanOp&>(op).restrictions.empty()) {
          text += " (blocks skipped " + std::to_string(scan->second.blocks_skipped) +
                  ", PSMA removed " + std::to_string(scan->second.psma_rows_removed) +
                  " rows, matched " + std::to_string(scan->second.rows_matched) + ")";
        }
        return text;
      },
      [&](const plan::Pipeline& pipeline) {
        std::string text = " (" + milliseconds(profile.pipeline_ms[pipeline.id]) + ")";
        if (options.execution_mode == ExecutionMode::kAdaptive) {
          const auto& morsels = profile.pipeline_morsels[pipeline.id];
          text += " (morsels: " + std::to_string(morsels.vectorized) + " vectorized, " +
                  std::to_string(morsels.compiled) + " compiled)";
        }
        return text;
      });
  text += "Planning: " + milliseconds(timings.plan_ms) + "\n";
  if (options.execution_mode == ExecutionMode::kAdaptive) {
    // The code was generated and compiled on the compile thread while the query ran.
    text += "Compile (background";
    text += profile.background_compile_ms < 0
                ? "): unfinished\n"
                : std::string(", ") + (profile.optimized ? "optimized" : "fast") +
                      "): " + milliseconds(profile.background_compile_ms) + "\n";
    text += "Execution (adaptive): " + milliseconds(timings.execute_ms) + "\n";
    return text;
  }
  if (options.execution_mode == ExecutionMode::kVectorized) {
    // Nothing is generated or compiled.
    text += "Execution (vectorized): " + milliseconds(timings.execute_ms) + "\n";
    return text;
  }
  text += "Codegen: " + milliseconds(timings.codegen_ms) + "\n";
  text += std::string("Compile (") + (profile.optimized ? "optimized" : "fast") +
          "): " + milliseconds(timings.compile_ms) + "\n";
  text += "Execution: " + milliseconds(timings.execute_ms) + "\n";
  return text;
}

}  // namespace

Result run_explain(const PgQuery__ExplainStmt& stmt, StatementContext& context) {
  bool ir = false;
  bool analyze = false;
  for (size_t i = 0; i < stmt.n_options; ++i) {
    const PgQuery__DefElem& option = *stmt.options[i]->def_elem;
    std::string_view name = option.defname;
    if (name != "ir" && name != "analyze")
      throw NotSupported("EXPLAIN option " + std::string(name), option.location);
    (name == "ir" ? ir : analyze) = option_enabled(option);
  }
  if (stmt.query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
    throw NotSupported("EXPLAIN of this statement");
  if (ir && analyze) throw NotSupported("EXPLAIN with both IR and ANALYZE");
  PhaseTimings timings;
  auto start = std::chrono::steady_clock::now();
  plan::LogicalPlan logical = sql::bind_select(*stmt.query->select_stmt, context.catalog);
  timings.plan_ms = elapsed_ms(start);
  plan::PhysicalPlan physical = prepare_plan(std::move(logical), context.options, timings);
  std::string text = analyze ? explain_analyze(physical, context.options, timings)
                     : ir    ? generate_ir(physical, context.options)
                             : plan::explain(physical);
  Result result = text_lines(text);
  result.mutable_timings() = timings;
  return result;
}

}  // namespace floe
