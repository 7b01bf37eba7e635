// System-R style cardinality estimation (Selinger et al. 1979): table statistics at the
// scans, fixed selectivity rules for predicates, independence between conjuncts. Fills
// LogicalOp::estimated_rows; the join orderer uses the same rules to cost its plans.
#pragma once

#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/plan/logical_plan.h"

namespace floe::plan {

// What is known about one column's values where it is produced.
struct ColumnEstimate {
  double distinct = 1;  // number of distinct non-null values
  double null_fraction = 0;
  // Numeric view of min/max for range interpolation (numbers, dates, timestamps).
  std::optional<double> min;
  std::optional<double> max;
};

// Rows of an equi-join of inputs with `left_rows` and `right_rows` rows whose key (all key
// columns together) has `left_distinct` and `right_distinct` values on each side: each
// distinct count is capped by its input's rows.
double equi_join_rows(double left_rows, double right_rows, double left_distinct,
                      double right_distinct);

// Distinct values of a key of several columns with these distinct counts. Key columns are
// often correlated (TPC-H l_partkey, l_suppkey), so instead of the product this backs off
// exponentially: the largest count, times the square root of the next, the fourth root of
// the one after, ...
double combined_distinct(std::vector<double> column_distinct);

// A join key side that is a column of its table's primary key: the table, the column's bit
// among the key's columns, all of the key's bits, and the table's rows (table null
// otherwise). When one side's keys cover a primary key, the other side is taken to be a
// foreign key into it (containment): its distinct key count is at most that table's rows.
// Without this, the correlated composite key of TPC-H q9's lineitem ⋈ partsupp looks 7.5x
// more selective than it is.
struct PrimaryKeyColumn {
  const Table* table = nullptr;
  uint32_t bit = 0;
  uint32_t all_bits = 0;
  double table_rows = 0;
};
// The rows of a table whose primary key `columns` cover, if any.
std::optional<double> covered_primary_key_rows(const std::vector<PrimaryKeyColumn>& columns);

// One side of an equi-join: its key columns' distinct counts and primary-key roles, and rows.
struct JoinSideKey {
  std::vector<double> column_distinct;
  std::vector<PrimaryKeyColumn> primary_key;
  double rows;
};
struct JoinKeyDistinct {
  double left;
  double right;
};
// The distinct values of each side's whole key: combined_distinct, except that a side whose
// keys cover its table's primary key is unique (its rows) and caps the other side's count at
// that table's rows.
JoinKeyDistinct join_key_distinct(JoinSideKey left, JoinSideKey right);

class CardinalityEstimator {
 public:
  // Selectivities used when nothing better is known.
  static constexpr double kDefaultSelectivity = 1.0 / 3;
  static constexpr double kLikeSelectivity = 0.1;
  static constexpr double kPrefixLikeSelectivity = 0.05;
  static constexpr double kAntiJoinFloor = 0.1;  // fraction of the probe rows kept at least

  // Estimates `op` and its whole subtree bottom-up; returns op.estimated_rows.
  double estimate(LogicalOp& op);

  // Fraction of the rows of an input with `input_rows` rows passing `predicate`.
  double selectivity(const Expr& predicate, double input_rows);
  // Distinct values of an expression over an input with `input_rows` rows.
  double distinct_values(const Expr& expr, double input_rows);
  // Whether the expression is a scanned column of its table's primary key.
  PrimaryKeyColumn primary_key_column(const Expr& expr) const;

 private:
  double estimate_operator(LogicalOp& op);
  double estimate_join(const JoinOp& join);
  const ColumnEstimate* column(ColumnId id);
  double conjunction_selectivity(const std::vector<const Expr*>& conjuncts, double input_rows);
  double compare_selectivity(const Expr& compare, double input_rows);
  double range_selectivity(ColumnId id, std::optional<double> lower, std::optional<double> upper);

  std::unordered_map<ColumnId, ColumnEstimate> columns_;
  // Scan columns whose statistics have not been needed yet.
  std::unordered_map<ColumnId, std::pair<const Table*, size_t>> scan_columns_;
};

}  // namespace floe::plan
