// The physical plan: the optimized logical tree cut into pipelines at pipeline breakers
// (hash-join build, aggregation, sort, window).
// Both the compiled and the vectorized executor run exactly these pipelines.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/plan/logical_plan.h"

namespace floe::plan {

struct Pipeline {
  int id = 0;
  // kScan, kValues or kSeries (leaves), or kAggregate / kSort / kWindow, whose materialized
  // rows are read, or kJoin (right/full outer): its build rows that found no match, after its
  // probe pipeline, into the same operators and sink as the probe pipeline's part above the join.
  const LogicalOp* source = nullptr;
  // Streaming operators in push order: kFilter, kMap, kJoin (probe), kLimit, kRepeat,
  // kTableFunction,
  // kUnionAll (each child's pipeline passes it, then goes on into the same operators and
  // sink as the first child's pipeline, right after which it runs).
  std::vector<const LogicalOp*> operators;
  // kJoin (build side), kAggregate, kSort, kWindow; nullptr means the query result.
  const LogicalOp* sink = nullptr;
  // The source's rows must pass the operators into the sink in their order, so one worker
  // reads them front to back: a sort's rows, and a window's unless nothing above it depends
  // on their order (then its evaluated rows are read in parallel morsels).
  bool ordered = false;
};

// The table a hash join builds (`SET join_table`, issue 9): chaining (JoinHashTable), CHT or
// CAT (memory-efficient hash joins, VLDB 2015, sections 2-3; runtime/concise_join_table.h),
// or `auto`. A join's recorded choice is kChaining, kCht, or kCat / kAuto where a CAT is
// possible (integer keys, no mark join); kCat and kAuto decide at build finalize, when the
// key range is known: CAT when it is dense enough, else CHT.
enum class JoinTableKind : uint8_t { kChaining, kCht, kCat, kAuto };

// How a chunk-reducing operator (a filter or a join) of the vectorized engine compacts the
// chunks it emits (`SET compaction`; chunk compaction, SIGMOD 2024, sections 3-5;
// engine/vector/compaction.h). The compiled engine has no chunks.
enum class CompactionStrategy : uint8_t { kNone, kFull, kBinary, kLearned, kLogical, kSmart };

// Per-operator choices that both engines follow.
struct OperatorChoices {
  JoinTableKind join_table = JoinTableKind::kChaining;        // hash joins
  CompactionStrategy compaction = CompactionStrategy::kNone;  // filters and joins
};

struct PhysicalPlan {
  LogicalPlan logical;              // owns the tree the pipelines point into
  std::vector<Pipeline> pipelines;  // in execution order: every sink runs before its source
  // One entry per hash join and per chunk-reducing operator (filters, joins).
  std::unordered_map<const LogicalOp*, OperatorChoices> choices;
};

// `join_table`: the requested `SET join_table`, recorded per join (see JoinTableKind);
// `compaction`: the requested `SET compaction`, recorded per filter and join.
PhysicalPlan make_physical_plan(LogicalPlan logical,
                                JoinTableKind join_table = JoinTableKind::kChaining,
                                CompactionStrategy compaction = CompactionStrategy::kNone);

// The index of the UNION ALL at `pipeline.operators[position]`'s child that pushes into it in
// this pipeline (the operator before it, or the source).
size_t union_child(const Pipeline& pipeline, size_t position);

// Text an EXPLAIN variant appends to a pipeline's line (EXPLAIN ANALYZE: its time).
using PipelineAnnotation = std::function<std::string(const Pipeline&)>;

// EXPLAIN text: the operator tree, then the pipelines; the annotations, when set, extend
// their lines.
std::string explain(const PhysicalPlan& plan, const OperatorAnnotation& annotate_operator = {},
                    const PipelineAnnotation& annotate_pipeline = {});

}  // namespace floe::plan
