#include "engine/plan/physical_plan.h"

#include <algorithm>

#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::plan {

namespace {

// Cuts the operator tree into pipelines the way produce/consume walks it (Neumann, VLDB
// 2011, Sec. 3): a breaker's input pipeline ends in the breaker (its sink) and is finished
// before the pipeline that reads the breaker's result. A right or full outer join also opens
// a follower of its probe pipeline: it scans the join table's unmatched entries, receives
// the operators above the join and the same sink, and runs right after the probe pipeline.
class PipelineSplitter {
 public:
  std::vector<Pipeline> split(const LogicalOp& root) {
    size_t last = build(root);
    finish(last, nullptr);
    return std::move(finished_);
  }

 private:
  // Returns the index of the open pipeline into which `op` pushes its tuples.
  size_t build(const LogicalOp& op) {
    check_stack_depth();
    switch (op.kind) {
      case LogicalKind::kScan:
      case LogicalKind::kValues:
      case LogicalKind::kSeries:
        return open(&op);
      case LogicalKind::kFilter:
      case LogicalKind::kMap:
      case LogicalKind::kLimit:
      case LogicalKind::kRepeat:
      case LogicalKind::kTableFunction: {
        size_t pipeline = build(*op.children[0]);
        append(pipeline, op);
        return pipeline;
      }
      case LogicalKind::kJoin: {
        finish(build(*op.children[1]), &op);  // build side first
        size_t probe = build(*op.children[0]);
        append(probe, op);
        if (join_preserves_build(static_cast<const JoinOp&>(op).type)) {
          size_t unmatched = open(&op);
          followers_[probe].push_back(unmatched);
        }
        return probe;
      }
      case LogicalKind::kAggregate:
      case LogicalKind::kSort:
      case LogicalKind::kWindow:
        finish(build(*op.children[0]), &op);
        return open(&op);
      case LogicalKind::kUnionAll: {
        // The first child's pipeline continues above the union; the others follow it into
        // the same operators and sink.
        size_t first = build(*op.children[0]);
        append(first, op);
        for (size_t i = 1; i < op.children.size(); ++i) {
          size_t other = build(*op.children[i]);
          append(other, op);
          followers_[first].push_back(other);
        }
        return first;
      }
    }
    throw Error("internal error: unknown operator in pipeline split");
  }

  size_t open(const LogicalOp* source) {
    Pipeline pipeline;
    pipeline.source = source;
    open_.push_back(std::move(pipeline));
    followers_.emplace_back();
    return open_.size() - 1;
  }

  void append(size_t index, const LogicalOp& op) {
    open_[index].operators.push_back(&op);
    for (size_t follower : followers_[index]) append(follower, op);
  }

  void finish(size_t index, const LogicalOp* sink) {
    Pipeline pipeline = open_[index];
    pipeline.sink = sink;
    pipeline.id = static_cast<int>(finished_.size());
    finished_.push_back(std::move(pipeline));
    for (size_t follower : followers_[index]) finish(follower, sink);
  }

  std::vector<Pipeline> open_;
  std::vector<std::vector<size_t>> followers_;  // per open pipeline
  std::vector<Pipeline> finished_;
};

// Whether the aggregation's result depends on the order of its input rows: the collected
// aggregates (string_agg) without an ORDER BY of their own concatenate in input order.
bool order_sensitive(const AggregateOp& aggregate) {
  return std::any_of(aggregate.aggregates.begin(), aggregate.aggregates.end(),
                     [](const AggregateOp::Aggregate& a) { return is_collected(a.function); });
}

// A sort's rows are read in order. A window's evaluated rows can be read by all workers
// at once when the rest of the pipeline does not see their order: no LIMIT (the first rows
// in window order), and a sink that does not keep it (an aggregation that is no
// concatenation, a join's build side). A sort or a window above, and the query result,
// keep the window's order as PostgreSQL shows it.
bool reads_in_order(const Pipeline& pipeline) {
  if (pipeline.source->kind == LogicalKind::kSort) return true;
  if (pipeline.source->kind != LogicalKind::kWindow) return false;
  for (const LogicalOp* op : pipeline.operators)
    if (op->kind == LogicalKind::kLimit) return true;
  if (!pipeline.sink) return true;
  switch (pipeline.sink->kind) {
    case LogicalKind::kAggregate:
      return order_sensitive(static_cast<const AggregateOp&>(*pipeline.sink));
    case LogicalKind::kJoin:
      return false;
    default:
      return true;
  }
}

std::string role(const LogicalOp& op, bool as_sink) {
  switch (op.kind) {
    case LogicalKind::kScan:
      return "Scan " + static_cast<const ScanOp&>(op).table->name();
    case LogicalKind::kValues:
      return "Values";
    case LogicalKind::kFilter:
      return "Filter";
    case LogicalKind::kMap:
      return "Map";
    case LogicalKind::kLimit:
      return "Limit";
    case LogicalKind::kUnionAll:
      return "UnionAll";
    case LogicalKind::kRepeat:
      return "Repeat";
    case LogicalKind::kSeries:
      return "Series";
    case LogicalKind::kTableFunction:
      return "TableFunction";
    case LogicalKind::kJoin:
      return as_sink ? "HashJoin build" : "HashJoin probe";
    case LogicalKind::kAggregate:
      return as_sink ? "Aggregate build" : "Aggregate scan";
    case LogicalKind::kSort:
      return as_sink ? "Sort build" : "Sort scan";
    case LogicalKind::kWindow:
      return as_sink ? "Window build" : "Window scan";
  }
  return "?";
}

// The join table of `join` under the requested one: a CAT needs integer keys (concatenated
// when several, VLDB 2015 section 2.4), and a mark join finds its NULL-mark rows by hash, so
// those fall back to CHT.
JoinTableKind join_table_for(const JoinOp& join, JoinTableKind requested) {
  if (requested != JoinTableKind::kCat && requested != JoinTableKind::kAuto) return requested;
  bool integer_keys = !join.keys.empty() && join.type != JoinType::kMark;
  for (const auto& key : join.keys) integer_keys = integer_keys && key.build->type.is_integer();
  return integer_keys ? requested : JoinTableKind::kCht;
}

// Records the choices of every hash join and chunk-reducing operator.
void choose(const LogicalOp& op, JoinTableKind join_table, CompactionStrategy compaction,
            std::unordered_map<const LogicalOp*, OperatorChoices>& choices) {
  check_stack_depth();
  if (op.kind == LogicalKind::kJoin || op.kind == LogicalKind::kFilter)
    choices[&op] = {.compaction = compaction};
  if (op.kind == LogicalKind::kJoin)
    choices[&op].join_table = join_table_for(static_cast<const JoinOp&>(op), join_table);
  for (const auto& child : op.children) choose(*child, join_table, compaction, choices);
}

}  // namespace

size_t union_child(const Pipeline& pipeline, size_t position) {
  const LogicalOp* below = position ? pipeline.operators[position - 1] : pipeline.source;
  const auto& children = pipeline.operators[position]->children;
  for (size_t i = 0; i < children.size(); ++i)
    if (children[i].get() == below) return i;
  throw Error("internal error: a union's input pipeline does not come from its child");
}

PhysicalPlan make_physical_plan(LogicalPlan logical, JoinTableKind join_table,
                                CompactionStrategy compaction) {
  PhysicalPlan plan;
  plan.logical = std::move(logical);
  if (!plan.logical.root) throw Error("internal error: empty plan");
  plan.pipelines = PipelineSplitter().split(*plan.logical.root);
  choose(*plan.logical.root, join_table, compaction, plan.choices);
  for (Pipeline& pipeline : plan.pipelines) pipeline.ordered = reads_in_order(pipeline);
  return plan;
}

std::string explain(const PhysicalPlan& plan, const OperatorAnnotation& annotate_operator,
                    const PipelineAnnotation& annotate_pipeline) {
  std::string out = to_string(plan.logical, annotate_operator);
  out += "Pipelines:\n";
  for (const Pipeline& pipeline : plan.pipelines) {
    const LogicalOp& source = *pipeline.source;
    out += "  P" + std::to_string(pipeline.id) + ": " +
           (source.kind == LogicalKind::kJoin ? "HashJoin unmatched" : role(source, false));
    for (const LogicalOp* op : pipeline.operators) out += " -> " + role(*op, false);
    out += " -> " + (pipeline.sink ? role(*pipeline.sink, true) : std::string("Result"));
    if (annotate_pipeline) out += annotate_pipeline(pipeline);
    out += "\n";
  }
  return out;
}

}  // namespace floe::plan
