// Logical algebra: what the binder produces and the optimizer rewrites. Each operator's
// output is a set of ColumnIds; the plan's ColumnRegistry gives their types and names.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/plan/expression.h"
#include "runtime/index_lookup.h"
#include "runtime/scan_restriction.h"
#include "runtime/window_frame.h"
#include "storage/table.h"

namespace floe {
struct TableFunction;
}

namespace floe::plan {

struct ColumnInfo {
  SqlType type;
  bool nullable = true;
  std::string name;  // for EXPLAIN and result headers, e.g. "l_quantity" or "sum"
};

class ColumnRegistry {
 public:
  ColumnId add(ColumnInfo info) {
    columns_.push_back(std::move(info));
    return static_cast<ColumnId>(columns_.size() - 1);
  }
  const ColumnInfo& operator[](ColumnId id) const { return columns_[id]; }
  ColumnInfo& operator[](ColumnId id) { return columns_[id]; }
  size_t size() const { return columns_.size(); }

 private:
  std::vector<ColumnInfo> columns_;
};

enum class LogicalKind : uint8_t {
  kScan,
  kFilter,
  kMap,
  kJoin,
  kAggregate,
  kSort,
  kLimit,
  kValues,
  kWindow,
  kUnionAll,
  kRepeat,
  kSeries,
  kTableFunction
};

struct LogicalOp {
  explicit LogicalOp(LogicalKind k) : kind(k) {}
  virtual ~LogicalOp() = default;
  LogicalKind kind;
  std::vector<std::unique_ptr<LogicalOp>> children;
  // Filled by the optimizer's cardinality estimate (0 = unknown).
  double estimated_rows = 0;
};
using LogicalOpPtr = std::unique_ptr<LogicalOp>;

// Reads a table. `filters` are conjuncts pushed down to the scan (over scan columns only).
// `restrictions` are the SARGable ones among them (scan_restrictions.cpp): the vectorized
// scan applies each `restriction` itself, before the generated code sees a row; a JIT scan
// (SET scan_mode = 'jit', or sarg_pushdown off) evaluates its `predicate` in the generated
// loop like any filter.
struct ScanOp : LogicalOp {
  ScanOp() : LogicalOp(LogicalKind::kScan) {}
  const Table* table = nullptr;
  std::string alias;
  struct Column {
    size_t table_column;
    ColumnId id;
  };
  std::vector<Column> columns;
  std::vector<ExprPtr> filters;
  struct Restriction {
    ExprPtr predicate;
    ScanRestriction restriction;
  };
  std::vector<Restriction> restrictions;
  // An index scan (index_selection.cpp): the scan reads only the rows `lookup` finds, still
  // applying every restriction and filter; `condition` are the positions in `restrictions`
  // of those the lookup's key ranges come from (EXPLAIN's index condition).
  struct IndexScan {
    IndexLookup lookup;
    std::vector<size_t> condition;
  };
  std::optional<IndexScan> index;
  // The probe side of an index nested-loop join (index_join.cpp): the scan reads only the rows
  // of `index` whose key is one of the join's build keys, looked up once the build side is
  // complete; index column i takes its value from join key join_keys[i] (a build row field).
  struct IndexJoin {
    const UniqueIndex* index = nullptr;
    std::vector<size_t> join_keys;
  };
  std::optional<IndexJoin> index_join;
};

struct FilterOp : LogicalOp {
  FilterOp() : LogicalOp(LogicalKind::kFilter) {}
  ExprPtr predicate;
};

// Passes every input column through and adds computed ones.
struct MapOp : LogicalOp {
  MapOp() : LogicalOp(LogicalKind::kMap) {}
  struct Computed {
    ColumnId id;
    ExprPtr expr;
  };
  std::vector<Computed> computed;
};

// A pair (probe row, build row) matches when all keys are equal (NULL keys never match) and
// the residual passes.
enum class JoinType : uint8_t {
  kInner,
  kLeftOuter,   // also each probe row without a match, with NULL build columns
  kRightOuter,  // also each build row without a match, with NULL probe columns
  kFullOuter,   // both
  kSemi,        // each probe row with a match, once
  kAnti,        // each probe row without a match
  // NOT IN: like kAnti, except that nothing qualifies when a build key is NULL, and a probe
  // row with a NULL key qualifies only when the build side is empty. One key, no residual.
  kNullAwareAnti,
  // kSemi / kAnti with the sides swapped, so that the hash table holds the smaller side:
  kRightSemi,  // each build row with a match, once
  kRightAnti,  // each build row without a match
  // Each probe row once, plus the boolean column `mark` (Neumann & Kemper, "Unnesting
  // Arbitrary Queries", BTW 2015, section 2.2): the three-valued OR, over the candidates (build
  // rows whose first keys.size() - mark_keys keys equal the probe's and whose residual is
  // true), of the AND of the last `mark_keys` key equalities and `mark_condition`, both
  // three-valued. FALSE when there is no candidate. EXISTS, IN and quantified comparisons
  // anywhere in an expression (mark_join_unnesting.h).
  kMark,
};

// Hash join. children[0] is the probe side, children[1] the build side. Output: all columns
// of both sides (inner and outer joins), the probe columns only (semi and anti joins), the
// probe columns and `mark` (mark joins) or the build columns only (right semi and right anti
// joins).
// `residual` (may be null) is evaluated on joined pairs. Right and full outer joins emit
// their unmatched build rows in an extra pipeline after the probe pipeline (physical_plan.h).
struct JoinOp : LogicalOp {
  JoinOp() : LogicalOp(LogicalKind::kJoin) {}
  JoinType type = JoinType::kInner;
  struct KeyPair {
    ExprPtr probe;  // over children[0]
    ExprPtr build;  // over children[1]; same SqlType as probe
  };
  std::vector<KeyPair> keys;
  ExprPtr residual;
  // kMark only: the output column, how many of `keys` (the last ones) are three-valued, and
  // a three-valued condition on candidate pairs (may be null).
  ColumnId mark = 0;
  size_t mark_keys = 0;
  ExprPtr mark_condition;
};

enum class AggregateFunction : uint8_t {
  kCountStar,
  kCount,
  kSum,
  kAvg,
  kMin,
  kMax,
  kBoolAnd,     // bool_and, every
  kBoolOr,      // bool_or
  kVarSamp,     // var_samp, variance
  kVarPop,      // var_pop
  kStddevSamp,  // stddev_samp, stddev
  kStddevPop,   // stddev_pop
  // Aggregates over all their (non-NULL) inputs, collected per group (runtime/collected_values.h):
  kStringAgg,       // string_agg(argument, parameter = delimiter [ORDER BY order])
  kPercentileCont,  // percentile_cont(parameter = fraction) WITHIN GROUP (ORDER BY argument)
  kPercentileDisc,  // percentile_disc(parameter = fraction) WITHIN GROUP (ORDER BY argument)
  kMode,            // mode() WITHIN GROUP (ORDER BY argument)
};

bool is_collected(AggregateFunction function);

// Whether the aggregate of the union of two inputs is the same aggregate over the two
// inputs' aggregates (sum, min, max, bool_and, bool_or); the DISTINCT-aggregate rewrite
// combines such partials with the function itself.
bool combines_with_itself(AggregateFunction function);

// What avg accumulates its sum in: double for doubles, else numeric(38, scale of the input).
// Shared by the code generator and the DISTINCT-aggregate rewrite, which must agree.
SqlType avg_sum_type(const SqlType& argument);

// Output: group columns then aggregate columns. No groups = one row, even on empty input.
// Distinct aggregates are rewritten by the planner before physical planning.
struct AggregateOp : LogicalOp {
  AggregateOp() : LogicalOp(LogicalKind::kAggregate) {}
  struct Group {
    ColumnId id;
    ExprPtr expr;
  };
  struct Aggregate {
    ColumnId id = 0;
    AggregateFunction function = AggregateFunction::kCountStar;
    ExprPtr argument = nullptr;  // null for count(*)
    // Collected aggregates: string_agg deduplicates its values itself; the others'
    // DISTINCT is rewritten by the planner before physical planning.
    bool distinct = false;
    // string_agg: the delimiter; percentile_*: the fraction (a constant).
    ExprPtr parameter = nullptr;
    // string_agg: the ORDER BY key inside the call (null: in no particular order). The
    // WITHIN GROUP aggregates order by their argument: only `descending` applies.
    ExprPtr order = nullptr;
    bool descending = false;
    bool nulls_first = false;

    Aggregate clone() const;
    // Whether both compute the same value (same function, DISTINCT, arguments, order).
    bool same_as(const Aggregate& other) const;
  };
  std::vector<Group> groups;
  std::vector<Aggregate> aggregates;
  // Groups that exist even for empty input, by their key values (the empty grouping set of
  // GROUPING SETS, which gives one row like an aggregation without GROUP BY).
  std::vector<std::vector<Value>> initial_groups;
};

struct SortKey {
  ExprPtr expr;
  bool descending = false;
  bool nulls_first = false;  // PostgreSQL default: NULLS LAST for ASC, NULLS FIRST for DESC
};

// Output: the input columns, ordered. Optional limit/offset applied after sorting.
struct SortOp : LogicalOp {
  SortOp() : LogicalOp(LogicalKind::kSort) {}
  std::vector<SortKey> keys;
  std::optional<uint64_t> limit;
  uint64_t offset = 0;
};

// Window functions over one window (PARTITION BY + ORDER BY); each function has its own
// frame. Output: the input columns, then one column per function. A pipeline breaker
// (runtime/window_evaluator.h).
struct WindowOp : LogicalOp {
  WindowOp() : LogicalOp(LogicalKind::kWindow) {}
  struct Function {
    ColumnId id;
    WindowFunctionKind kind;
    AggregateFunction aggregate = AggregateFunction::kCountStar;  // kind kAggregate
    // kAggregate: [argument] (none for count(*)); ntile: [buckets]; lag, lead: [value,
    // offset, default] (offset and default optional); first/last_value: [value];
    // nth_value: [value, n]. Offsets, buckets and n are bigint. string_agg: [value,
    // delimiter].
    std::vector<ExprPtr> arguments;
    WindowFrame frame;
    // RANGE frames with offset bounds: the ORDER BY key and the current row's bounds (key ∓
    // offset, null for the bounds without offset), of one type in which they are compared
    // (sql/window_frame_binder.h).
    ExprPtr range_key, start_bound, end_bound;
  };
  std::vector<ExprPtr> partitions;
  std::vector<SortKey> order;
  std::vector<Function> functions;
};

// The SQL name of a window function, e.g. "row_number" (aggregates: their own name).
std::string window_function_name(const WindowOp::Function& function);

struct LimitOp : LogicalOp {
  LimitOp() : LogicalOp(LogicalKind::kLimit) {}
  std::optional<uint64_t> limit;
  uint64_t offset = 0;
};

// Constant rows (SELECT without FROM, INSERT ... VALUES).
struct ValuesOp : LogicalOp {
  ValuesOp() : LogicalOp(LogicalKind::kValues) {}
  std::vector<ColumnId> columns;
  std::vector<std::vector<ExprPtr>> rows;  // constant-foldable expressions
};

// UNION ALL (and the input of the other set operations): the rows of all children. Child
// i's row becomes an output row through `inputs[i]`, one expression per output column over
// child i's columns (casts to the unified column types). Physically every child's pipeline
// pushes into the operators above: several pipelines feed one sink (physical_plan.h).
struct UnionAllOp : LogicalOp {
  UnionAllOp() : LogicalOp(LogicalKind::kUnionAll) {}
  std::vector<ColumnId> columns;
  std::vector<std::vector<ExprPtr>> inputs;  // per child, one per column
};

// Passes every input row on `count` times (a bigint expression over the input; NULL or
// below 1: not at all). INTERSECT ALL and EXCEPT ALL emit each group this often.
struct RepeatOp : LogicalOp {
  RepeatOp() : LogicalOp(LogicalKind::kRepeat) {}
  ExprPtr count;
};

// generate_series(start, stop, step) in FROM: `column` takes start, start + step, ... while
// not past stop (integers, numerics; timestamps with an interval step). The arguments are
// constants by code generation (folded, or uncorrelated subqueries run first). Its morsels
// are ranges of the values' ordinals, so a big series is produced in parallel. WITH
// ORDINALITY: `ordinality` is the value's ordinal + 1. Arguments that read other FROM items
// make it a TableFunctionOp (dependent_join.h).
struct SeriesOp : LogicalOp {
  SeriesOp() : LogicalOp(LogicalKind::kSeries) {}
  ColumnId column = 0;
  std::optional<ColumnId> ordinality;
  ExprPtr start, stop, step;
};

// A set-returning function in FROM other than generate_series (runtime/table_function.h):
// for each input row, one call on `arguments` (over the input's columns), whose rows are the
// input row with `column` (and `ordinality`, the row's number within the call, 1, 2, ...,
// WITH ORDINALITY) added. Output: the input columns, `column`, then `ordinality`. Constant
// arguments read a one-row VALUES input; LATERAL arguments become a dependent join
// (dependent_join.h), which gives it the distinct argument values as input.
struct TableFunctionOp : LogicalOp {
  TableFunctionOp() : LogicalOp(LogicalKind::kTableFunction) {}
  const TableFunction* function = nullptr;
  std::vector<ExprPtr> arguments;
  ColumnId column = 0;
  std::optional<ColumnId> ordinality;
};

// A WITH RECURSIVE query: `initial` UNION [ALL] `recursive`, where `recursive` scans
// `working`, the rows the previous iteration added, until an iteration adds none
// (engine/api/recursive_query.h runs it before the plan that scans `result`, all its rows).
struct RecursiveQuery {
  std::shared_ptr<Table> working;
  std::shared_ptr<Table> result;
  LogicalOpPtr initial;
  std::vector<ColumnId> initial_columns;
  LogicalOpPtr recursive;
  std::vector<ColumnId> recursive_columns;  // of the same types as the tables' columns
  bool distinct = false;                    // UNION: rows seen before are not added again
};

struct LogicalPlan {
  LogicalOpPtr root;
  ColumnRegistry registry;
  // Run before the plan, in this order (a later one may read an earlier one's result).
  std::vector<std::shared_ptr<RecursiveQuery>> recursive_queries;
  // The query's result columns, in order, with their display names.
  struct Output {
    ColumnId id;
    std::string name;
  };
  std::vector<Output> outputs;
};

// Columns an operator produces, in a stable order.
std::vector<ColumnId> output_columns(const LogicalOp& op);
// Whether the join's output includes the probe side's / the build side's columns.
bool join_outputs_probe(JoinType type);
bool join_outputs_build(JoinType type);
// Whether the probe marks matched build rows, which a pipeline after the probe pipeline
// scans (right and full outer joins: the unmatched ones; right semi / anti joins).
bool join_preserves_build(JoinType type);

// Text an EXPLAIN variant appends to an operator's line (EXPLAIN ANALYZE: its actual rows).
using OperatorAnnotation = std::function<std::string(const LogicalOp&)>;

// Indented tree for EXPLAIN; `annotate`, when set, extends each operator's line.
std::string to_string(const LogicalPlan& plan, const OperatorAnnotation& annotate = {});
// One line describing a single operator, e.g. "Scan lineitem [l_quantity#3]".
std::string describe_operator(const LogicalOp& op, const ColumnRegistry& registry);

}  // namespace floe::plan
