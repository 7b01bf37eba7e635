// Index scans: a scan whose restrictions (scan_restrictions.cpp) pin down a prefix of an
// index's key reads only the rows the index finds (runtime/index_lookup.h), when they are few.
// Usable restrictions, key column by key column: equality or an IN list of constants on each
// column of a prefix of the key (IN lists multiply into several key ranges), then optionally
// a range (<, <=, >, >=, BETWEEN, LIKE 'prefix%') on the next column. NULL never passes a
// restriction, and the index's key ranges hold no NULL in those columns either. The scan still
// applies every restriction and filter to the rows it reads, so an index only narrows which
// rows are read, never what passes.
//
// When is it worth it? A sequential scan tests a restriction on about a billion values per
// second and core (SIMD, on compressed Data Blocks even fewer bytes), whereas an index scan
// pays per matching row a tree descent or step, loads of the key from the table, and a
// random access into a chunk: on the order of 100 ns. So the index wins while it finds under
// about 1% of the rows; and above about 10,000 rows the sequential scan of a large table is
// no slower in absolute terms and parallelizes better. Rather than trust statistics (which
// every insert makes stale) the planner counts the entries in the key ranges, stopping at the
// limit: exact for a selective lookup, and bounded work otherwise.
#include <algorithm>

#include "engine/plan/optimizer.h"
#include "engine/plan/parameter_restrictions.h"
#include "storage/stack_depth.h"

namespace floe::plan {

namespace {

constexpr double kMaxFraction = 0.01;  // of the table's rows, see above
constexpr uint64_t kMaxRows = 10000;
constexpr size_t kMaxRanges = 1024;  // key ranges an IN list product may make

bool is_equality(const ScanRestriction& restriction) {
  return restriction.kind == ScanRestriction::Kind::kRange && restriction.low && restriction.high &&
         restriction.low->inclusive && restriction.high->inclusive &&
         restriction.low->parameter == restriction.high->parameter &&
         restriction.low->value == restriction.high->value;
}

// The first restriction on `column` that `accept`s, as a position in the list.
template <typename Accept>
std::optional<size_t> find_restriction(const std::vector<ScanRestriction>& restrictions,
                                       size_t column, Accept accept) {
  for (size_t i = 0; i < restrictions.size(); ++i)
    if (restrictions[i].column == column && accept(restrictions[i])) return i;
  return std::nullopt;
}

// The key ranges of `index` that a scan's restrictions allow, and which restrictions they
// come from; none when the restrictions do not constrain the key's first column.
std::optional<ScanOp::IndexScan> index_scan_for(const std::vector<ScanRestriction>& restrictions,
                                                const UniqueIndex& index) {
  ScanOp::IndexScan result;
  result.lookup.index = &index;
  std::vector<std::vector<Value>> prefixes(1);
  std::optional<size_t> range;  // a range restriction on the column after the prefix
  for (size_t column : index.constraint().columns) {
    auto equal = find_restriction(restrictions, column, is_equality);
    auto in = find_restriction(restrictions, column, [&](const ScanRestriction& restriction) {
      return restriction.kind == ScanRestriction::Kind::kIn &&
             prefixes.size() * restriction.values.size() <= kMaxRanges;
    });
    if (equal || in) {
      const ScanRestriction& restriction = restrictions[equal ? *equal : *in];
      const std::vector<Value> values =
          equal ? std::vector<Value>{restriction.low->value} : restriction.values;
      std::vector<std::vector<Value>> extended;
      for (const std::vector<Value>& prefix : prefixes) {
        for (const Value& value : values) {
          extended.push_back(prefix);
          extended.back().push_back(value);
        }
      }
      prefixes = std::move(extended);
      result.condition.push_back(equal ? *equal : *in);
      continue;
    }
    range = find_restriction(restrictions, column, [](const ScanRestriction& restriction) {
      return restriction.kind == ScanRestriction::Kind::kRange;
    });
    if (range) result.condition.push_back(*range);
    break;
  }
  if (result.condition.empty()) return std::nullopt;
  for (const std::vector<Value>& prefix : prefixes) {
    IndexLookup::Range key_range;
    key_range.low = key_range.high = IndexBound{prefix, true};
    if (range) {
      const ScanRestriction& restriction = restrictions[*range];
      auto bound = [&](const std::optional<ScanRestriction::Bound>& limit) {
        std::optional<IndexBound> key_bound;
        if (limit) {
          key_bound = IndexBound{prefix, limit->inclusive};
          key_bound->prefix.push_back(limit->value);
        } else if (!prefix.empty()) {
          key_bound = IndexBound{prefix, true};
        }
        return key_bound;
      };
      key_range.low = bound(restriction.low);
      key_range.high = bound(restriction.high);
    }
    result.lookup.ranges.push_back(std::move(key_range));
  }
  return result;
}

// The entries of the lookup's ranges, counting no further than `limit`.
uint64_t count_entries(const IndexLookup& lookup, uint64_t limit) {
  uint64_t count = 0;
  for (const IndexLookup::Range& range : lookup.ranges) {
    lookup.index->scan(range.low, range.high, [&](uint64_t) { return ++count < limit; });
    if (count >= limit) break;
  }
  return count;
}

void choose(LogicalOp& op) {
  check_stack_depth();
  for (LogicalOpPtr& child : op.children) choose(*child);
  if (op.kind != LogicalKind::kScan) return;
  auto& scan = static_cast<ScanOp&>(op);
  const auto rows = static_cast<double>(scan.table->live_row_count());
  // The best index finds fewer than `limit` rows (the first of a tie: the primary key first).
  auto limit = static_cast<uint64_t>(std::min(rows * kMaxFraction, static_cast<double>(kMaxRows)));
  std::vector<ScanRestriction> restrictions;
  for (const auto& restriction : scan.restrictions) restrictions.push_back(restriction.restriction);
  for (const auto& index : scan.table->unique_indexes()) {
    if (limit == 0) break;
    auto candidate = index_scan_for(restrictions, *index);
    if (!candidate) continue;
    // Key values from parameters are known only when the statement runs: like a generic plan
    // of PostgreSQL's, assume that they find a row (parameter_restrictions.h).
    bool parameters = std::any_of(candidate->condition.begin(), candidate->condition.end(),
                                  [&](size_t i) { return has_parameters(restrictions[i]); });
    uint64_t found = parameters ? 1 : count_entries(candidate->lookup, limit);
    if (found >= limit) continue;
    limit = found;
    scan.index = std::move(candidate);
  }
}

}  // namespace

void choose_index_scans(LogicalPlan& plan) {
  if (plan.root) choose(*plan.root);
}

void bind_scan_parameters(StateSlot& slot, const std::vector<Value>& parameters) {
  const ScanOp& scan = *slot.scan;
  std::vector<ScanRestriction> bound;
  bool null = false;
  for (const auto& restriction : scan.restrictions) {
    const SqlType& type = scan.table->columns()[restriction.restriction.column].type;
    auto filled = with_parameters(restriction.restriction, type, parameters);
    null = null || !filled;
    bound.push_back(filled ? std::move(*filled) : restriction.restriction);
  }
  if (null) {
    // A comparison with NULL passes no row: an empty index lookup, or two restrictions that
    // no value meets.
    if (slot.index) slot.index->ranges.clear();
    if (!slot.restrictions.empty()) {
      ScanRestriction is_null, is_not_null;
      is_null.column = is_not_null.column = slot.restrictions[0].column;
      is_null.kind = ScanRestriction::Kind::kIsNull;
      is_not_null.kind = ScanRestriction::Kind::kIsNotNull;
      slot.restrictions = {is_null, is_not_null};
    }
    return;
  }
  if (slot.index) slot.index = index_scan_for(bound, *slot.index->index)->lookup;
  if (!slot.restrictions.empty()) slot.restrictions = std::move(bound);
}

}  // namespace floe::plan
