#include "engine/sql/grouping_sets.h"

#include <algorithm>

#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::sql {
namespace {

using Sets = std::vector<GroupingSet>;

constexpr size_t kMaxGroupingSets = 4096;  // PostgreSQL's limit
constexpr size_t kMaxCubeElements = 12;    // PostgreSQL's limit

void add_to(GroupingSet& set, const GroupingSet& more) {
  for (size_t index : more)
    if (std::find(set.begin(), set.end(), index) == set.end()) set.push_back(index);
}

Sets cross(const Sets& a, const Sets& b, int location) {
  if (a.size() * b.size() > kMaxGroupingSets)
    throw Error("too many grouping sets present (maximum 4096)", location);
  Sets out;
  for (const GroupingSet& x : a) {
    for (const GroupingSet& y : b) {
      GroupingSet set = x;
      add_to(set, y);
      out.push_back(std::move(set));
    }
  }
  return out;
}

// An element of ROLLUP, CUBE or GROUPING SETS that is no nested grouping set: one
// expression, or a parenthesized list of them.
GroupingSet element(const Node* node, const GroupingItemBinder& bind) {
  GroupingSet set;
  if (node->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) {
    const PgQuery__RowExpr& row = *node->row_expr;
    for (size_t i = 0; i < row.n_args; ++i) add_to(set, {bind(row.args[i])});
  } else {
    set.push_back(bind(node));
  }
  return set;
}

Sets expand(const Node* node, const GroupingItemBinder& bind) {
  check_stack_depth();
  if (node->node_case != PG_QUERY__NODE__NODE_GROUPING_SET) return {element(node, bind)};
  const PgQuery__GroupingSet& grouping = *node->grouping_set;
  std::vector<GroupingSet> elements;
  if (grouping.kind != PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_SETS) {
    for (size_t i = 0; i < grouping.n_content; ++i)
      elements.push_back(element(grouping.content[i], bind));
  }
  Sets out;
  switch (grouping.kind) {
    case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_EMPTY:
      return {GroupingSet{}};
    case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_SIMPLE: {
      GroupingSet set;
      for (const GroupingSet& e : elements) add_to(set, e);
      return {set};
    }
    case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_ROLLUP:
      for (size_t length = elements.size() + 1; length-- > 0;) {
        GroupingSet set;
        for (size_t i = 0; i < length; ++i) add_to(set, elements[i]);
        out.push_back(std::move(set));
      }
      return out;
    case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_CUBE:
      if (elements.size() > kMaxCubeElements)
        throw Error("CUBE is limited to 12 elements", grouping.location);
      for (size_t mask = (size_t{1} << elements.size()); mask-- > 0;) {
        GroupingSet set;
        for (size_t i = 0; i < elements.size(); ++i)
          if (mask & (size_t{1} << (elements.size() - 1 - i))) add_to(set, elements[i]);
        out.push_back(std::move(set));
      }
      return out;
    case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_SETS:
      for (size_t i = 0; i < grouping.n_content; ++i) {
        Sets more = expand(grouping.content[i], bind);
        if (out.size() + more.size() > kMaxGroupingSets)
          throw Error("too many grouping sets present (maximum 4096)", grouping.location);
        out.insert(out.end(), more.begin(), more.end());
      }
      return out;
    default:
      throw Error("internal error: unknown grouping set kind", grouping.location);
  }
}

}  // namespace

bool has_grouping_sets(const Node* const* items, size_t count) {
  for (size_t i = 0; i < count; ++i)
    if (items[i]->node_case == PG_QUERY__NODE__NODE_GROUPING_SET) return true;
  return false;
}

std::vector<GroupingSet> expand_grouping_sets(const Node* const* items, size_t count,
                                              const GroupingItemBinder& bind) {
  Sets sets = {GroupingSet{}};
  for (size_t i = 0; i < count; ++i) {
    const Node* item = items[i];
    // At the top level a parenthesized list is a row value, not a set: bind it as one.
    Sets more = item->node_case == PG_QUERY__NODE__NODE_GROUPING_SET ? expand(item, bind)
                                                                     : Sets{{bind(item)}};
    sets = cross(sets, more, node_location(item));
  }
  return sets;
}

}  // namespace floe::sql
