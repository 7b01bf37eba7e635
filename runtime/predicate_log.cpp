#include "runtime/predicate_log.h"

#include <algorithm>

#include "storage/table.h"

namespace floe {

namespace {

// A bound whose prepared-statement parameter was not filled in (a NULL placeholder): the
// restriction's rows are unknown, so the scan counts as one of the whole table.
bool unbound(const std::optional<ScanRestriction::Bound>& bound) {
  return bound && bound->value.is_null();
}

}  // namespace

void PredicateLog::add(const Table& table, const std::vector<ScanRestriction>& restrictions) {
  std::lock_guard lock(mutex_);
  TableReads& reads = tables_[&table];
  if (reads.whole) return;
  const bool whole =
      restrictions.empty() ||
      std::any_of(restrictions.begin(), restrictions.end(), [](const ScanRestriction& restriction) {
        return unbound(restriction.low) || unbound(restriction.high);
      });
  if (whole) {
    reads.whole = true;
    reads.predicates.clear();
    return;
  }
  Predicate& predicate = reads.predicates.emplace_back();
  predicate.restrictions = restrictions;
  for (const ScanRestriction& restriction : restrictions) {
    const PhysicalType type = table.columns()[restriction.column].type.physical();
    const bool compares = restriction.kind == ScanRestriction::Kind::kRange ||
                          restriction.kind == ScanRestriction::Kind::kIn;
    predicate.matchers.push_back(compares ? make_value_matcher(type, restriction) : nullptr);
    predicate.types.push_back(type);
  }
}

bool PredicateLog::empty() const {
  std::lock_guard lock(mutex_);
  return tables_.empty();
}

bool PredicateLog::reads_table(const Table& table) const {
  std::lock_guard lock(mutex_);
  return tables_.count(&table) > 0;
}

bool PredicateLog::reads(const Table& table,
                         const std::function<Value(size_t column)>& value_of) const {
  std::lock_guard lock(mutex_);
  auto found = tables_.find(&table);
  if (found == tables_.end()) return false;
  if (found->second.whole) return true;
  for (const Predicate& predicate : found->second.predicates) {
    bool holds = true;
    for (size_t r = 0; r < predicate.restrictions.size() && holds; ++r) {
      const ScanRestriction& restriction = predicate.restrictions[r];
      const auto& columns = table.columns();
      if (restriction.column >= columns.size() ||
          columns[restriction.column].type.physical() != predicate.types[r])
        continue;
      holds = value_passes(restriction, predicate.matchers[r].get(), value_of(restriction.column));
    }
    if (holds) return true;
  }
  return false;
}

}  // namespace floe
