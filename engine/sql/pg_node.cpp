#include "engine/sql/pg_node.h"

#include "storage/error.h"

namespace floe::sql {

std::string_view node_string(const Node* node) {
  if (node && node->node_case == PG_QUERY__NODE__NODE_STRING) return node->string->sval;
  return {};
}

std::string qualified_name(Node* const* names, size_t count) {
  std::string result;
  for (size_t i = 0; i < count; ++i) {
    if (i) result += '.';
    result += node_string(names[i]);
  }
  return result;
}

std::string_view last_name(Node* const* names, size_t count) {
  return count ? node_string(names[count - 1]) : std::string_view();
}

int node_location(const Node* node) {
  if (!node) return -1;
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_A_CONST:
      return node->a_const->location;
    case PG_QUERY__NODE__NODE_COLUMN_REF:
      return node->column_ref->location;
    case PG_QUERY__NODE__NODE_A_EXPR:
      return node->a_expr->location;
    case PG_QUERY__NODE__NODE_FUNC_CALL:
      return node->func_call->location;
    case PG_QUERY__NODE__NODE_TYPE_CAST:
      return node->type_cast->location >= 0 ? node->type_cast->location
                                            : node_location(node->type_cast->arg);
    case PG_QUERY__NODE__NODE_BOOL_EXPR:
      return node->bool_expr->location;
    case PG_QUERY__NODE__NODE_CASE_EXPR:
      return node->case_expr->location;
    case PG_QUERY__NODE__NODE_NULL_TEST:
      return node->null_test->location;
    case PG_QUERY__NODE__NODE_SUB_LINK:
      return node->sub_link->location;
    case PG_QUERY__NODE__NODE_COALESCE_EXPR:
      return node->coalesce_expr->location;
    case PG_QUERY__NODE__NODE_RES_TARGET:
      return node->res_target->location;
    case PG_QUERY__NODE__NODE_SORT_BY:
      return node->sort_by->location;
    case PG_QUERY__NODE__NODE_RANGE_VAR:
      return node->range_var->location;
    default:
      return -1;
  }
}

int64_t constant_integer(const Node* node, const char* what) {
  if (node && node->node_case == PG_QUERY__NODE__NODE_A_CONST &&
      node->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL)
    return node->a_const->ival->ival;
  throw Error(std::string(what) + " must be an integer constant", node_location(node));
}

}  // namespace floe::sql
