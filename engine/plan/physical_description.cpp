#include "engine/plan/physical_description.h"

#include <limits>

#include "engine/plan/index_join.h"
#include "runtime/series.h"
#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::plan {
namespace {

using Slot = StateSlot::Kind;
using Source = PipelineDescription::Source;
using Sink = PipelineDescription::Sink;

void collect_columns(const Expr& expr, std::unordered_set<ColumnId>& used) {
  check_stack_depth();
  if (is_subquery(expr.kind))
    throw Error("internal error: a subquery reached the code generator", expr.position);
  if (expr.kind == ExprKind::kColumn) used.insert(expr.column);
  for (const auto& child : expr.children) collect_columns(*child, used);
}

// A scan's restrictions read their columns only when the pipeline evaluates them.
void collect_columns(const LogicalOp& op, bool push_restrictions,
                     std::unordered_set<ColumnId>& used) {
  check_stack_depth();
  auto add = [&](const ExprPtr& expr) {
    if (expr) collect_columns(*expr, used);
  };
  switch (op.kind) {
    case LogicalKind::kScan: {
      const auto& scan = static_cast<const ScanOp&>(op);
      for (const auto& filter : scan.filters) add(filter);
      if (!push_restrictions)
        for (const auto& restriction : scan.restrictions) add(restriction.predicate);
      break;
    }
    case LogicalKind::kFilter:
      add(static_cast<const FilterOp&>(op).predicate);
      break;
    case LogicalKind::kMap:
      for (const auto& computed : static_cast<const MapOp&>(op).computed) add(computed.expr);
      break;
    case LogicalKind::kJoin: {
      const auto& join = static_cast<const JoinOp&>(op);
      for (const auto& key : join.keys) {
        add(key.probe);
        add(key.build);
      }
      add(join.residual);
      add(join.mark_condition);
      break;
    }
    case LogicalKind::kAggregate: {
      const auto& aggregate = static_cast<const AggregateOp&>(op);
      for (const auto& group : aggregate.groups) add(group.expr);
      for (const auto& function : aggregate.aggregates) {
        add(function.argument);
        add(function.parameter);
        add(function.order);
      }
      break;
    }
    case LogicalKind::kSort:
      for (const auto& key : static_cast<const SortOp&>(op).keys) add(key.expr);
      break;
    case LogicalKind::kValues:
      for (const auto& row : static_cast<const ValuesOp&>(op).rows) {
        for (const auto& expr : row) add(expr);
      }
      break;
    case LogicalKind::kUnionAll:
      for (const auto& input : static_cast<const UnionAllOp&>(op).inputs)
        for (const auto& value : input) add(value);
      break;
    case LogicalKind::kRepeat:
      add(static_cast<const RepeatOp&>(op).count);
      break;
    case LogicalKind::kSeries: {
      const auto& series = static_cast<const SeriesOp&>(op);
      add(series.start);
      add(series.stop);
      add(series.step);
      break;
    }
    case LogicalKind::kTableFunction:
      for (const auto& argument : static_cast<const TableFunctionOp&>(op).arguments) add(argument);
      break;
    case LogicalKind::kLimit:
      break;
    case LogicalKind::kWindow: {
      const auto& window = static_cast<const WindowOp&>(op);
      for (const auto& partition : window.partitions) add(partition);
      for (const auto& key : window.order) add(key.expr);
      for (const auto& function : window.functions) {
        for (const auto& argument : function.arguments) add(argument);
        if (function.range_key) add(function.range_key);
      }
      break;
    }
  }
  for (const auto& child : op.children) collect_columns(*child, push_restrictions, used);
}

uint64_t series_rows(const SeriesOp& series) {
  const Value& start = series_argument(*series.start);
  const Value& stop = series_argument(*series.stop);
  const Value& step = series_argument(*series.step);
  if (start.is_null() || stop.is_null() || step.is_null()) return 0;  // strict: no rows
  if (auto linear = linear_step(step))
    return series_length(start.as_int128(), stop.as_int128(), *linear);
  return calendar_series(start.as_int64(), stop.as_int64(), step.as_interval()).size();
}

// Walks the pipelines in PhysicalPlan order the way the code generator produces them: for
// each, its sink, its streaming operators from the top down, then its source.
class Describer {
 public:
  Describer(const LogicalPlan& plan,
            const std::unordered_map<const LogicalOp*, OperatorChoices>& choices,
            PhysicalDescription& out)
      : plan_(plan), choices_(choices), out_(out) {}

  void describe(const Pipeline& pipeline) {
    // The operators this pipeline describes itself: up to a union whose part above an
    // earlier pipeline described, or all (none for a join's unmatched rows).
    size_t own = pipeline.operators.size();
    bool continued = false;
    if (pipeline.source->kind == LogicalKind::kJoin) {
      continue_from(continuations_.at(pipeline.source));
      own = 0;
      continued = true;
    } else {
      for (size_t k = 0; k < pipeline.operators.size() && !continued; ++k) {
        auto found = continuations_.find(pipeline.operators[k]);
        if (found == continuations_.end()) continue;
        continue_from(found->second);
        own = k + 1;
        continued = true;
      }
    }
    if (!continued) {
      out_.pipelines.emplace_back();
      describe_sink(pipeline.sink);
    }
    out_.pipelines.back().id = pipeline.id;
    out_.pipelines.back().ordered = pipeline.ordered;
    for (size_t k = own; k-- > 0;) describe_operator(*pipeline.operators[k]);
    describe_source(*pipeline.source);
  }

 private:
  // Where a later pipeline joins this one: the pipeline and how many of its LIMIT checks
  // are above the shared part.
  struct Continuation {
    size_t pipeline = 0;
    size_t limits_above = 0;
  };

  PipelineDescription& current() { return out_.pipelines.back(); }

  uint32_t add_slot(StateSlot slot) {
    out_.slots.push_back(std::move(slot));
    return static_cast<uint32_t>(out_.slots.size() - 1);
  }

  const ColumnInfo& column(ColumnId id) const { return plan_.registry[id]; }

  // A pipeline that feeds the sink of an earlier one (the unmatched rows of a right/full
  // outer join after its probe pipeline, a UNION ALL's further children after the first)
  // starts as a copy of that pipeline, with only the LIMIT checks above the shared part; the
  // sink is finalized after it: the pipelines feeding one sink run one after another.
  void continue_from(const Continuation& from) {
    PipelineDescription follower = out_.pipelines[from.pipeline];
    follower.limits.resize(from.limits_above);
    follower.global_aggregation = false;  // its one group exists already
    follower.initial_groups = false;
    follower.sink_continues = false;
    current().sink_continues = true;
    out_.pipelines.push_back(std::move(follower));
  }

  void set_sink(Sink sink, const LogicalOp* op, uint32_t slot) {
    current().sink = sink;
    current().sink_op = op;
    current().sink_slot = slot;
  }

  void describe_sink(const LogicalOp* sink) {
    if (!sink) return describe_result();
    switch (sink->kind) {
      case LogicalKind::kJoin:
        return describe_join_build(static_cast<const JoinOp&>(*sink));
      case LogicalKind::kAggregate:
        return describe_aggregation(static_cast<const AggregateOp&>(*sink));
      case LogicalKind::kSort:
        return describe_sort(static_cast<const SortOp&>(*sink));
      case LogicalKind::kWindow:
        return describe_window(static_cast<const WindowOp&>(*sink));
      default:
        throw Error("internal error: operator cannot be a pipeline sink");
    }
  }

  // One field per output column, all nullable: read by C++ only, no need to trust the plan.
  void describe_result() {
    std::vector<RowField> fields;
    for (const auto& output : plan_.outputs) {
      const auto& info = column(output.id);
      fields.push_back({info.type, true});
      out_.result_columns.push_back({output.name, info.type});
    }
    out_.result_layout = RowLayout(std::move(fields));
    out_.result_slot = add_slot(StateSlot::sized(Slot::kRowBuffer, out_.result_layout.size()));
    set_sink(Sink::kResult, nullptr, out_.result_slot);
  }

  // Payload: the keys first, then the other build columns used above the join. A key that is
  // a plain column also gives that column back. Keys are NULL only in the joins that keep
  // build rows with NULL keys (right/full outer, right semi/anti), whose payload ends with
  // the matched byte, and in the mark keys of mark joins.
  void describe_join_build(const JoinOp& join) {
    if (join.type == JoinType::kNullAwareAnti && (join.keys.size() != 1 || join.residual))
      throw NotSupported("null-aware anti join with several keys or a residual");
    const bool keep_null_keys = join_preserves_build(join.type);
    std::vector<RowField> fields;
    const size_t strict = join.keys.size() - join.mark_keys;  // mark keys may be NULL
    for (const auto& key : join.keys)
      fields.push_back({key.build->type, keep_null_keys || fields.size() >= strict});
    Materialization rows;
    for (auto id : output_columns(*join.children[1])) {
      if (!out_.is_used(id)) continue;
      size_t field = fields.size();
      for (size_t k = 0; k < join.keys.size(); ++k) {
        const auto& key = *join.keys[k].build;
        if (key.kind == ExprKind::kColumn && key.column == id) field = k;
      }
      if (field == fields.size()) fields.push_back({column(id).type, column(id).nullable});
      rows.columns.push_back({id, field});
    }
    if (keep_null_keys) fields.push_back({SqlType::boolean(), false});  // matched byte
    rows.layout = RowLayout(std::move(fields));
    auto choice = choices_.find(&join);
    rows.join_table =
        choice == choices_.end() ? JoinTableKind::kChaining : choice->second.join_table;
    if (rows.join_table == JoinTableKind::kChaining) {
      rows.slot = add_slot(StateSlot::sized(Slot::kJoinTable, rows.layout.size()));
    } else {
      StateSlot slot = StateSlot::sized(Slot::kConciseJoinTable, rows.layout.size());
      if (rows.join_table != JoinTableKind::kCht)
        slot.cat_key_columns = static_cast<uint32_t>(join.keys.size());
      rows.slot = add_slot(std::move(slot));
    }
    if (join.type == JoinType::kNullAwareAnti) {
      rows.build_rows_slot = add_slot(StateSlot::sized(Slot::kCounter, 0));
      rows.build_null_key_slot = add_slot(StateSlot::sized(Slot::kCounter, 0));
    }
    set_sink(Sink::kJoinBuild, &join, rows.slot);
    out_.materializations[&join] = std::move(rows);
  }

  void describe_aggregation(const AggregateOp& aggregate) {
    Materialization groups;
    groups.aggregate = describe_aggregate(aggregate, plan_.registry);
    groups.layout = groups.aggregate->layout;
    groups.slot = add_slot(StateSlot::sized(Slot::kAggregationTable, groups.layout.size()));
    set_sink(Sink::kAggregation, &aggregate, groups.slot);
    current().global_aggregation = aggregate.groups.empty();
    current().initial_groups = !aggregate.initial_groups.empty();
    out_.materializations[&aggregate] = std::move(groups);
  }

  // The used columns, then the sort keys that are no stored column.
  void describe_sort(const SortOp& sort) {
    std::vector<RowField> fields;
    Materialization rows;
    for (auto id : output_columns(sort)) {
      if (!out_.is_used(id)) continue;
      rows.columns.push_back({id, fields.size()});
      fields.push_back({column(id).type, column(id).nullable});
    }
    for (const auto& key : sort.keys) {
      size_t field = fields.size();
      if (key.expr->kind == ExprKind::kColumn) {
        for (const auto& stored : rows.columns) {
          if (stored.id == key.expr->column) field = stored.field;
        }
      }
      if (field == fields.size()) {
        fields.push_back({key.expr->type, key.expr->nullable});
        rows.computed_keys.push_back(key.expr.get());
      }
      rows.key_fields.push_back(field);
    }
    rows.layout = RowLayout(std::move(fields));
    rows.slot = add_slot(StateSlot::sized(Slot::kRowBuffer, rows.layout.size()));
    set_sink(Sink::kSort, &sort, rows.slot);
    current().offset = sort.offset;
    current().limit = sort.limit;
    out_.materializations[&sort] = std::move(rows);
  }

  void describe_window(const WindowOp& window) {
    WindowRows described = describe_window_rows(window, plan_.registry, out_.used_columns);
    Materialization rows;
    for (const auto& [id, field] : described.columns) rows.columns.push_back({id, field});
    rows.layout = std::move(described.layout);
    rows.window = std::move(described.window);
    rows.slot = add_slot(StateSlot::sized(Slot::kRowBuffer, rows.layout.size()));
    set_sink(Sink::kWindow, &window, rows.slot);
    out_.materializations[&window] = std::move(rows);
  }

  void describe_operator(const LogicalOp& op) {
    size_t index = out_.pipelines.size() - 1;
    switch (op.kind) {
      case LogicalKind::kUnionAll:
        // The first child's pipeline describes the part above; the others continue there.
        continuations_.try_emplace(&op, Continuation{index, current().limits.size()});
        break;
      case LogicalKind::kLimit: {
        const auto& limit = static_cast<const LimitOp&>(op);
        uint32_t slot = add_slot(StateSlot::sized(Slot::kCounter, 0));
        out_.operator_slots[&op] = slot;
        uint64_t end = std::numeric_limits<uint64_t>::max();
        if (limit.limit && *limit.limit < end - limit.offset) end = limit.offset + *limit.limit;
        current().limits.push_back({slot, end});
        break;
      }
      case LogicalKind::kJoin:
        // The pipeline of the unmatched build rows continues above the probe.
        if (join_preserves_build(static_cast<const JoinOp&>(op).type))
          continuations_[&op] = Continuation{index, current().limits.size()};
        break;
      default:
        break;
    }
  }

  void set_source(Source source, uint32_t slot = 0) {
    current().source = source;
    current().source_slot = slot;
    current().table = nullptr;
    current().value_rows = 0;
  }

  void describe_source(const LogicalOp& source) {
    switch (source.kind) {
      case LogicalKind::kScan:
        return describe_scan(static_cast<const ScanOp&>(source));
      case LogicalKind::kValues:
        set_source(Source::kValues);
        current().value_rows = static_cast<const ValuesOp&>(source).rows.size();
        return;
      case LogicalKind::kSeries:
        set_source(Source::kValues);
        current().value_rows = series_rows(static_cast<const SeriesOp&>(source));
        return;
      case LogicalKind::kAggregate:
        return set_source(Source::kAggregation, out_.materialization(source).slot);
      case LogicalKind::kSort:
      case LogicalKind::kWindow:
        return set_source(Source::kRows, out_.materialization(source).slot);
      case LogicalKind::kJoin:
        return set_source(Source::kJoinUnmatched, out_.materialization(source).slot);
      default:
        throw Error("internal error: operator cannot be a pipeline source");
    }
  }

  // The scanner reads the used columns (an index scan: only the index's rows) and, when
  // pushed, applies the restrictions.
  void describe_scan(const ScanOp& scan) {
    StateSlot slot;
    slot.kind = Slot::kScanCursors;
    slot.table = scan.table;
    slot.scan = &scan;
    if (scan.index) slot.index = scan.index->lookup;
    for (const auto& column : scan.columns)
      if (out_.is_used(column.id)) slot.columns.push_back(column.table_column);
    if (out_.push_restrictions)
      for (const auto& restriction : scan.restrictions)
        slot.restrictions.push_back(restriction.restriction);
    uint32_t index = add_slot(std::move(slot));
    out_.operator_slots[&scan] = index;
    set_source(Source::kTable, index);
    current().table = scan.table;
    out_.scanned_rows += scan.table->row_count();
  }

  const LogicalPlan& plan_;
  const std::unordered_map<const LogicalOp*, OperatorChoices>& choices_;
  PhysicalDescription& out_;
  std::unordered_map<const LogicalOp*, Continuation> continuations_;
};

}  // namespace

const Value& series_argument(const Expr& expr) {
  if (expr.kind != ExprKind::kConstant)
    throw NotSupported("generate_series arguments that are not constant", expr.position);
  return expr.constant;
}

PhysicalDescription describe_physical(const PhysicalPlan& plan, const DescribeOptions& options) {
  PhysicalDescription out;
  out.push_restrictions = options.push_restrictions;
  const LogicalPlan& logical = plan.logical;
  if (logical.root) collect_columns(*logical.root, options.push_restrictions, out.used_columns);
  for (const auto& output : logical.outputs) out.used_columns.insert(output.id);
  Describer describer(logical, plan.choices, out);
  for (const auto& pipeline : plan.pipelines) describer.describe(pipeline);
  if (logical.root) describe_index_joins(*logical.root, out);
  return out;
}

}  // namespace floe::plan
