#include "engine/sql/parse_depth.h"

#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>

#include <algorithm>
#include <string>
#include <vector>

#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::sql {

namespace {

// Levels every statement has around its expressions (RawStmt, SelectStmt, target list, ...).
constexpr size_t kStatementLevels = 16;
// Levels a group adds around its content (with its item's own level: the node that owns it
// and a list).
constexpr size_t kGroupLevels = 1;

// The depth counters of one open group (parenthesis, bracket or CASE).
struct Group {
  size_t set_operations = 0;  // UNION, INTERSECT, EXCEPT: chain across list items
  size_t keywords = 0;        // other keywords of the current list item (JOIN, NOT, IS, ...)
  size_t operands = 0;        // operators since the item's last AND / OR
  size_t deepest_operands = 0;
  size_t deepest_group = 0;  // the deepest group closed inside the current item
  size_t deepest_item = 0;   // the deepest finished item

  // A left-deep chain can hold a nested group anywhere, so the counts add up; +1 for the
  // item's own list or AND/OR node.
  size_t item_depth() const {
    return set_operations + keywords + std::max(operands, deepest_operands) + deepest_group + 1;
  }
  void end_operand() {
    deepest_operands = std::max(deepest_operands, operands);
    operands = 0;
  }
  void end_item() {
    deepest_item = std::max(deepest_item, item_depth());
    keywords = operands = deepest_operands = deepest_group = 0;
  }
  size_t depth() const { return std::max(deepest_item, item_depth()) + kGroupLevels; }
};

// Names and constants are leaves (a qualified name or a typed literal is one node).
bool is_leaf(PgQuery__Token token) {
  switch (token) {
    case PG_QUERY__TOKEN__IDENT:
    case PG_QUERY__TOKEN__UIDENT:
    case PG_QUERY__TOKEN__FCONST:
    case PG_QUERY__TOKEN__SCONST:
    case PG_QUERY__TOKEN__USCONST:
    case PG_QUERY__TOKEN__BCONST:
    case PG_QUERY__TOKEN__XCONST:
    case PG_QUERY__TOKEN__ICONST:
    case PG_QUERY__TOKEN__PARAM:
      return true;
    default:
      return false;
  }
}

bool opens_group(PgQuery__Token token) {
  return token == PG_QUERY__TOKEN__ASCII_40 || token == PG_QUERY__TOKEN__ASCII_91 ||
         token == PG_QUERY__TOKEN__CASE;
}

bool closes_group(PgQuery__Token token) {
  return token == PG_QUERY__TOKEN__ASCII_41 || token == PG_QUERY__TOKEN__ASCII_93 ||
         token == PG_QUERY__TOKEN__END_P;
}

}  // namespace

size_t parse_depth_bound(std::string_view sql) {
  std::string text(sql);
  PgQueryScanResult scanned = pg_query_scan(text.c_str());
  if (scanned.error) {  // the parser will report it; until then nothing nests
    pg_query_free_scan_result(scanned);
    return kStatementLevels;
  }
  PgQuery__ScanResult* result = pg_query__scan_result__unpack(
      nullptr, scanned.pbuf.len, reinterpret_cast<const uint8_t*>(scanned.pbuf.data));
  pg_query_free_scan_result(scanned);
  if (!result) throw Error("could not decode the scanned tokens");

  std::vector<Group> groups(1);
  auto close_group = [&groups] {
    size_t depth = groups.back().depth();
    groups.pop_back();
    groups.back().deepest_group = std::max(groups.back().deepest_group, depth);
  };
  size_t deepest_statement = 0;
  PgQuery__Token previous = PG_QUERY__TOKEN__NUL;
  for (size_t i = 0; i < result->n_tokens; ++i) {
    PgQuery__Token token = result->tokens[i]->token;
    if (token == PG_QUERY__TOKEN__SQL_COMMENT || token == PG_QUERY__TOKEN__C_COMMENT) continue;
    Group& group = groups.back();
    bool indirection = token == PG_QUERY__TOKEN__ASCII_46 || token == PG_QUERY__TOKEN__ASCII_91;
    // '.' or '[' after ')' or ']' selects a field or an element of an expression, a node and
    // a list that cost as much as two levels. Otherwise '.' is part of a qualified name.
    if (indirection && closes_group(previous)) group.operands += 2;
    if (token == PG_QUERY__TOKEN__ASCII_46) {
      // counted above, or a leaf
    } else if (opens_group(token)) {
      groups.emplace_back();
    } else if (closes_group(token) && groups.size() > 1) {
      close_group();
    } else if (token == PG_QUERY__TOKEN__ASCII_44) {  // ','
      group.end_item();
    } else if (token == PG_QUERY__TOKEN__ASCII_59) {  // ';': statements are separate trees
      groups.resize(1);
      deepest_statement = std::max(deepest_statement, groups[0].depth());
      groups[0] = Group();
    } else if (token == PG_QUERY__TOKEN__AND || token == PG_QUERY__TOKEN__OR) {
      group.end_operand();
    } else if (token == PG_QUERY__TOKEN__UNION || token == PG_QUERY__TOKEN__INTERSECT ||
               token == PG_QUERY__TOKEN__EXCEPT) {
      ++group.set_operations;
    } else if (is_leaf(token)) {
      // no level of its own
    } else if (result->tokens[i]->keyword_kind != PG_QUERY__KEYWORD_KIND__NO_KEYWORD) {
      ++group.keywords;
    } else {
      ++group.operands;
    }
    previous = token;
  }
  pg_query__scan_result__free_unpacked(result, nullptr);
  // Groups left open (a syntax error) close at the end.
  while (groups.size() > 1) close_group();
  return std::max(deepest_statement, groups[0].depth()) + kStatementLevels;
}

bool parse_fits_stack(std::string_view sql) {
  size_t remaining = stack_remaining();
  size_t available = remaining > kStackReserve ? remaining - kStackReserve : 0;
  // The bound is at most 2 levels per byte, so short scripts need no scan.
  if ((2 * sql.size() + kStatementLevels) * kParseStackPerLevel <= available) return true;
  return parse_depth_bound(sql) * kParseStackPerLevel <= available;
}

}  // namespace floe::sql
