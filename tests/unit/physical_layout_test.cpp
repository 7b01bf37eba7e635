// The physical layer (engine/plan/physical_description.h): slots, row layouts and pipeline
// descriptions computed from a plan by the plan layer alone. This binary links floe_plan
// only, no code generator and no LLVM.
#include <gtest/gtest.h>

#include <memory>

#include "engine/plan/physical_description.h"

namespace floe::plan {
namespace {

using Slot = StateSlot::Kind;
using Source = PipelineDescription::Source;
using Sink = PipelineDescription::Sink;

// orders(o_id bigint NOT NULL, o_total double), lineitem(l_order bigint NOT NULL,
// l_quantity integer, l_flag text), and a plan over them being built.
class PhysicalLayoutTest : public ::testing::Test {
 protected:
  PhysicalLayoutTest()
      : orders_("orders",
                {{"o_id", SqlType::big_int(), false}, {"o_total", SqlType::double_type()}}),
        lineitem_("lineitem", {{"l_order", SqlType::big_int(), false},
                               {"l_quantity", SqlType::integer()},
                               {"l_flag", SqlType::text()}}) {}

  ColumnId add_column(SqlType type, bool nullable, const std::string& name) {
    return plan_.registry.add({type, nullable, name});
  }

  ExprPtr column(ColumnId id) {
    const ColumnInfo& info = plan_.registry[id];
    return make_column(id, info.type, info.nullable);
  }

  // Scans all columns of `table`; their ids are appended to `ids`.
  LogicalOpPtr scan(const Table& table, std::vector<ColumnId>& ids) {
    auto scan = std::make_unique<ScanOp>();
    scan->table = &table;
    for (size_t c = 0; c < table.columns().size(); ++c) {
      const auto& def = table.columns()[c];
      ids.push_back(add_column(def.type, def.nullable, def.name));
      scan->columns.push_back({c, ids.back()});
    }
    return scan;
  }

  LogicalOpPtr join(JoinType type, LogicalOpPtr probe, LogicalOpPtr build, ColumnId probe_key,
                    ColumnId build_key) {
    auto join = std::make_unique<JoinOp>();
    join->type = type;
    join->keys.push_back({column(probe_key), column(build_key)});
    join->children.push_back(std::move(probe));
    join->children.push_back(std::move(build));
    return join;
  }

  Table orders_;
  Table lineitem_;
  LogicalPlan plan_;
};

// SELECT o_total, sum(l_quantity), count(*) FROM lineitem JOIN orders ON l_order = o_id
// GROUP BY o_total
TEST_F(PhysicalLayoutTest, JoinAndAggregation) {
  std::vector<ColumnId> l, o;
  auto probe = scan(lineitem_, l);
  auto build = scan(orders_, o);
  auto joined = join(JoinType::kInner, std::move(probe), std::move(build), l[0], o[0]);
  auto aggregate = std::make_unique<AggregateOp>();
  ColumnId total = add_column(SqlType::double_type(), true, "o_total");
  ColumnId sum = add_column(SqlType::big_int(), true, "sum");
  ColumnId count = add_column(SqlType::big_int(), false, "count");
  aggregate->groups.push_back({total, column(o[1])});
  aggregate->aggregates.push_back({sum, AggregateFunction::kSum, column(l[1]), false});
  aggregate->aggregates.push_back({count, AggregateFunction::kCountStar, nullptr, false});
  aggregate->children.push_back(std::move(joined));
  const LogicalOp* join_op = aggregate->children[0].get();
  const LogicalOp* aggregate_op = aggregate.get();
  plan_.root = std::move(aggregate);
  plan_.outputs = {{total, "o_total"}, {sum, "sum"}, {count, "count"}};

  PhysicalPlan physical = make_physical_plan(std::move(plan_));
  ASSERT_EQ(physical.choices.count(join_op), 1u);
  EXPECT_EQ(physical.choices.at(join_op).join_table, JoinTableKind::kChaining);
  EXPECT_EQ(physical.choices.at(join_op).compaction, CompactionStrategy::kNone);
  EXPECT_EQ(physical.choices.count(aggregate_op), 0u);

  PhysicalDescription d = describe_physical(physical);
  EXPECT_TRUE(d.is_used(l[0]));
  EXPECT_TRUE(d.is_used(l[1]));
  EXPECT_FALSE(d.is_used(l[2]));  // l_flag: read by nothing
  EXPECT_TRUE(d.is_used(o[1]));

  // P0: orders -> join build; P1: lineitem -> probe -> aggregation; P2: groups -> result.
  ASSERT_EQ(d.pipelines.size(), 3u);
  const auto& build_pipeline = d.pipelines[0];
  const auto& probe_pipeline = d.pipelines[1];
  const auto& result_pipeline = d.pipelines[2];

  // The join payload: the key o_id (NOT NULL: inner joins store no NULL keys), which also
  // gives o_id back, then o_total with its null byte.
  const Materialization& rows = d.materialization(*join_op);
  ASSERT_EQ(rows.layout.field_count(), 2u);
  EXPECT_FALSE(rows.layout.field(0).nullable);
  EXPECT_TRUE(rows.layout.field(1).nullable);
  EXPECT_EQ(rows.layout.offset(0), 0u);
  EXPECT_EQ(rows.layout.offset(1), 8u);
  EXPECT_EQ(rows.layout.null_offset(1), 16u);
  EXPECT_EQ(rows.layout.size(), 24u);
  ASSERT_EQ(rows.columns.size(), 2u);
  EXPECT_EQ(rows.columns[0].id, o[0]);
  EXPECT_EQ(rows.columns[0].field, 0u);
  EXPECT_EQ(rows.columns[1].id, o[1]);
  EXPECT_EQ(rows.columns[1].field, 1u);
  EXPECT_EQ(d.slots.at(rows.slot).kind, Slot::kJoinTable);
  EXPECT_EQ(d.slots.at(rows.slot).size, 24u);

  // The group row: the key, then sum's value and "has input" flag, then count(*).
  const Materialization& groups = d.materialization(*aggregate_op);
  ASSERT_TRUE(groups.aggregate.has_value());
  const AggregateLayout& states = *groups.aggregate;
  ASSERT_EQ(states.key_types.size(), 1u);
  EXPECT_EQ(states.key_types[0].id, TypeId::kDouble);
  ASSERT_EQ(states.states.size(), 2u);
  EXPECT_EQ(states.states[0].function, AggregateFunction::kSum);
  EXPECT_EQ(states.states[0].value_type.id, TypeId::kBigInt);
  EXPECT_EQ(states.layout.offset(states.states[0].value_field), 8u);
  EXPECT_EQ(states.layout.field(states.states[0].extra_field).type.id, TypeId::kBoolean);
  EXPECT_EQ(states.layout.offset(states.states[0].extra_field), 16u);
  EXPECT_EQ(states.layout.offset(states.states[1].value_field), 24u);
  EXPECT_EQ(states.layout.null_offset(0), 32u);  // the key's null byte
  EXPECT_EQ(states.layout.size(), 40u);
  EXPECT_EQ(groups.layout.size(), states.layout.size());
  EXPECT_EQ(d.slots.at(groups.slot).kind, Slot::kAggregationTable);
  EXPECT_EQ(d.slots.at(groups.slot).size, 40u);

  EXPECT_EQ(build_pipeline.source, Source::kTable);
  EXPECT_EQ(build_pipeline.table, &orders_);
  EXPECT_EQ(build_pipeline.sink, Sink::kJoinBuild);
  EXPECT_EQ(build_pipeline.sink_op, join_op);
  EXPECT_EQ(build_pipeline.sink_slot, rows.slot);

  EXPECT_EQ(probe_pipeline.source, Source::kTable);
  EXPECT_EQ(probe_pipeline.table, &lineitem_);
  EXPECT_EQ(probe_pipeline.sink, Sink::kAggregation);
  EXPECT_EQ(probe_pipeline.sink_slot, groups.slot);
  EXPECT_FALSE(probe_pipeline.global_aggregation);
  EXPECT_FALSE(probe_pipeline.initial_groups);
  EXPECT_TRUE(probe_pipeline.limits.empty());
  EXPECT_FALSE(probe_pipeline.sink_continues);

  EXPECT_EQ(result_pipeline.source, Source::kAggregation);
  EXPECT_EQ(result_pipeline.source_slot, groups.slot);
  EXPECT_EQ(result_pipeline.sink, Sink::kResult);
  EXPECT_EQ(result_pipeline.sink_slot, d.result_slot);

  // The scanners read the used columns only (table column numbers).
  const StateSlot& lineitem_scan = d.slots.at(d.operator_slots.at(join_op->children[0].get()));
  EXPECT_EQ(lineitem_scan.kind, Slot::kScanCursors);
  EXPECT_EQ(lineitem_scan.table, &lineitem_);
  EXPECT_EQ(lineitem_scan.columns, (std::vector<size_t>{0, 1}));
  const StateSlot& orders_scan = d.slots.at(d.operator_slots.at(join_op->children[1].get()));
  EXPECT_EQ(orders_scan.columns, (std::vector<size_t>{0, 1}));

  // The result: one nullable field per output column.
  ASSERT_EQ(d.result_columns.size(), 3u);
  EXPECT_EQ(d.result_columns[1].name, "sum");
  EXPECT_EQ(d.result_layout.field_count(), 3u);
  EXPECT_EQ(d.result_layout.size(), 32u);  // three 8-byte values, three null bytes
  EXPECT_EQ(d.slots.at(d.result_slot).kind, Slot::kRowBuffer);
  EXPECT_EQ(d.slots.at(d.result_slot).size, 32u);
  EXPECT_EQ(d.slots.size(), 5u);  // join table, two scans, aggregation table, result
}

// SELECT * FROM lineitem RIGHT JOIN orders ON l_order = o_id LIMIT 5 OFFSET 2: the
// unmatched build rows feed the same result under the same LIMIT in a pipeline of their own.
TEST_F(PhysicalLayoutTest, RightJoinUnmatchedRowsShareTheLimit) {
  std::vector<ColumnId> l, o;
  auto probe = scan(lineitem_, l);
  auto build = scan(orders_, o);
  auto limit = std::make_unique<LimitOp>();
  limit->limit = 5;
  limit->offset = 2;
  limit->children.push_back(
      join(JoinType::kRightOuter, std::move(probe), std::move(build), l[0], o[0]));
  const LogicalOp* join_op = limit->children[0].get();
  const LogicalOp* limit_op = limit.get();
  plan_.root = std::move(limit);
  for (ColumnId id : {l[0], o[0], o[1]}) plan_.outputs.push_back({id, plan_.registry[id].name});

  PhysicalPlan physical = make_physical_plan(std::move(plan_));
  PhysicalDescription d = describe_physical(physical);
  ASSERT_EQ(d.pipelines.size(), 3u);
  const auto& probe_pipeline = d.pipelines[1];
  const auto& unmatched = d.pipelines[2];

  // Right outer joins keep NULL keys and end the payload with the matched byte.
  const Materialization& rows = d.materialization(*join_op);
  ASSERT_EQ(rows.layout.field_count(), 3u);
  EXPECT_TRUE(rows.layout.field(0).nullable);
  EXPECT_EQ(rows.layout.field(2).type.id, TypeId::kBoolean);
  EXPECT_FALSE(rows.layout.field(2).nullable);

  uint32_t counter = d.operator_slots.at(limit_op);
  EXPECT_EQ(d.slots.at(counter).kind, Slot::kCounter);
  ASSERT_EQ(probe_pipeline.limits.size(), 1u);
  EXPECT_EQ(probe_pipeline.limits[0].counter_slot, counter);
  EXPECT_EQ(probe_pipeline.limits[0].end, 7u);
  EXPECT_TRUE(probe_pipeline.sink_continues);  // the result is finished after the next one

  EXPECT_EQ(unmatched.source, Source::kJoinUnmatched);
  EXPECT_EQ(unmatched.source_slot, rows.slot);
  EXPECT_EQ(unmatched.table, nullptr);
  EXPECT_EQ(unmatched.sink, Sink::kResult);
  EXPECT_EQ(unmatched.sink_slot, probe_pipeline.sink_slot);
  ASSERT_EQ(unmatched.limits.size(), 1u);
  EXPECT_EQ(unmatched.limits[0].counter_slot, counter);
  EXPECT_FALSE(unmatched.sink_continues);
}

// A sort key that is no stored column gets a field of its own after the columns.
TEST_F(PhysicalLayoutTest, SortKeysComputedIntoTheirOwnFields) {
  std::vector<ColumnId> o;
  auto sort = std::make_unique<SortOp>();
  sort->children.push_back(scan(orders_, o));
  sort->keys.push_back({make_cast(column(o[0]), SqlType::double_type()), true, false});
  sort->keys.push_back({column(o[1])});
  sort->limit = 10;
  const LogicalOp* sort_op = sort.get();
  plan_.root = std::move(sort);
  plan_.outputs = {{o[1], "o_total"}};

  PhysicalPlan physical = make_physical_plan(std::move(plan_));
  PhysicalDescription d = describe_physical(physical);
  const Materialization& rows = d.materialization(*sort_op);
  ASSERT_EQ(rows.columns.size(), 2u);  // the used columns (o_id is read by the first key)
  EXPECT_EQ(rows.columns[1].id, o[1]);
  EXPECT_EQ(rows.key_fields, (std::vector<size_t>{2, 1}));
  EXPECT_EQ(rows.layout.field(2).type.id, TypeId::kDouble);
  ASSERT_EQ(rows.computed_keys.size(), 1u);
  EXPECT_EQ(rows.computed_keys[0], static_cast<const SortOp*>(sort_op)->keys[0].expr.get());
  EXPECT_EQ(d.pipelines[0].sink, Sink::kSort);
  EXPECT_EQ(d.pipelines[0].limit, 10u);
  EXPECT_EQ(d.pipelines[1].source, Source::kRows);
  EXPECT_EQ(d.pipelines[1].source_slot, rows.slot);
}

// SELECT l_flag, lag(l_quantity::bigint) OVER w, sum(l_quantity) OVER w FROM lineitem
// WINDOW w AS (PARTITION BY l_order ORDER BY l_quantity): the window's rows are laid out by
// the plan layer like a sort's.
TEST_F(PhysicalLayoutTest, WindowRowsLaidOutByThePlanLayer) {
  std::vector<ColumnId> l;
  auto window = std::make_unique<WindowOp>();
  window->children.push_back(scan(lineitem_, l));
  window->partitions.push_back(column(l[0]));
  window->order.push_back({column(l[1])});
  ColumnId lag = add_column(SqlType::big_int(), true, "lag");
  ColumnId sum = add_column(SqlType::big_int(), true, "sum");
  WindowOp::Function lag_function;
  lag_function.id = lag;
  lag_function.kind = WindowFunctionKind::kLag;
  lag_function.arguments.push_back(make_cast(column(l[1]), SqlType::big_int()));
  window->functions.push_back(std::move(lag_function));
  WindowOp::Function sum_function;
  sum_function.id = sum;
  sum_function.kind = WindowFunctionKind::kAggregate;
  sum_function.aggregate = AggregateFunction::kSum;
  sum_function.arguments.push_back(column(l[1]));
  window->functions.push_back(std::move(sum_function));
  const WindowOp* window_op = window.get();
  plan_.root = std::move(window);
  plan_.outputs = {{l[2], "l_flag"}, {lag, "lag"}, {sum, "sum"}};

  PhysicalPlan physical = make_physical_plan(std::move(plan_));
  PhysicalDescription d = describe_physical(physical);
  const Materialization& rows = d.materialization(*window_op);
  ASSERT_TRUE(rows.window.has_value());
  const WindowLayout& layout = *rows.window;
  // The used input columns (l_order, l_quantity and l_flag), the partition hash, then per
  // function its arguments that are no stored column (lag's cast) and its result.
  EXPECT_EQ(layout.passed_columns, 3u);
  ASSERT_EQ(rows.columns.size(), 5u);
  EXPECT_EQ(rows.columns[3].id, lag);
  EXPECT_EQ(rows.columns[4].id, sum);
  EXPECT_EQ(layout.partition_fields, (std::vector<size_t>{0}));
  EXPECT_EQ(layout.order_fields, (std::vector<size_t>{1}));
  ASSERT_EQ(layout.computed.size(), 1u);
  EXPECT_EQ(layout.computed[0].first, window_op->functions[0].arguments[0].get());
  EXPECT_EQ(layout.computed[0].second, 4u);
  EXPECT_EQ(layout.hash_field, std::optional<size_t>(3));
  EXPECT_EQ(layout.functions[0].argument_fields, (std::vector<size_t>{4}));
  EXPECT_EQ(layout.functions[0].result_field, 5u);
  EXPECT_EQ(layout.functions[1].argument_fields, (std::vector<size_t>{1}));
  EXPECT_EQ(layout.functions[1].result_field, 6u);
  EXPECT_EQ(rows.layout.field_count(), 7u);
  EXPECT_FALSE(rows.layout.field(3).nullable);  // the hash
  // The slot holds rows of the layout's size (no longer sized by the code generator).
  EXPECT_EQ(d.slots[rows.slot].kind, Slot::kRowBuffer);
  EXPECT_EQ(d.slots[rows.slot].size, rows.layout.size());
  EXPECT_GT(rows.layout.size(), 0u);
  EXPECT_EQ(d.pipelines[0].sink, Sink::kWindow);
  EXPECT_EQ(d.pipelines[0].sink_slot, rows.slot);
  EXPECT_EQ(d.pipelines[1].source, Source::kRows);
  EXPECT_EQ(d.pipelines[1].source_slot, rows.slot);
}

// Without pushed restrictions (JIT scan) the scanner applies none, and the columns they read
// are loaded.
TEST_F(PhysicalLayoutTest, RestrictionsPushedOnlyWhenAsked) {
  std::vector<ColumnId> l;
  auto scan_op = scan(lineitem_, l);
  auto& scan_ref = static_cast<ScanOp&>(*scan_op);
  ScanOp::Restriction restriction;
  restriction.predicate = column(l[2]);  // stands for any predicate over l_flag
  scan_ref.restrictions.push_back(std::move(restriction));
  const LogicalOp* scan_ptr = scan_op.get();
  plan_.root = std::move(scan_op);
  plan_.outputs = {{l[0], "l_order"}};
  PhysicalPlan physical = make_physical_plan(std::move(plan_));

  PhysicalDescription pushed = describe_physical(physical);
  const StateSlot& pushed_slot = pushed.slots.at(pushed.operator_slots.at(scan_ptr));
  EXPECT_EQ(pushed_slot.restrictions.size(), 1u);
  EXPECT_EQ(pushed_slot.columns, (std::vector<size_t>{0}));

  PhysicalDescription jit = describe_physical(physical, {.push_restrictions = false});
  const StateSlot& jit_slot = jit.slots.at(jit.operator_slots.at(scan_ptr));
  EXPECT_TRUE(jit_slot.restrictions.empty());
  EXPECT_EQ(jit_slot.columns, (std::vector<size_t>{0, 2}));
}

}  // namespace
}  // namespace floe::plan
