#include "engine/sql/set_operation_binder.h"

#include <optional>
#include <string>

#include "engine/plan/expression_utils.h"
#include "engine/sql/expression_binder.h"
#include "engine/sql/type_rules.h"
#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::sql {

using plan::ExprKind;
using plan::ExprPtr;

namespace {

// The result of one branch of a set operation: its plan and, per output column, the
// expression over the plan's columns that gives it (an untyped literal stays untyped until
// the branches' types are unified) and its name.
struct Branch {
  plan::LogicalOpPtr root;
  std::vector<ExprPtr> columns;
  std::vector<std::string> names;
};

const char* operation_name(PgQuery__SetOperation op) {
  switch (op) {
    case PG_QUERY__SET_OPERATION__SETOP_INTERSECT:
      return "INTERSECT";
    case PG_QUERY__SET_OPERATION__SETOP_EXCEPT:
      return "EXCEPT";
    default:
      return "UNION";
  }
}

// Clauses that make a set operation's operand a query of its own (written in parentheses).
bool has_own_clauses(const PgQuery__SelectStmt& stmt) {
  return stmt.n_sort_clause || stmt.limit_count || stmt.limit_offset || stmt.with_clause;
}

ExprPtr column_ref(const plan::ColumnRegistry& registry, plan::ColumnId id) {
  return plan::make_column(id, registry[id].type, registry[id].nullable);
}

class SetOperationBinder {
 public:
  SetOperationBinder(BindContext& context, const BindScope* outer)
      : context_(context), outer_(outer) {}

  BoundQuery bind(const PgQuery__SelectStmt& stmt) {
    WithQueries with(stmt.with_clause, context_);
    Branch branch = stmt.n_values_lists ? bind_values(stmt) : bind_tree(stmt);
    BoundQuery query;
    query.root = std::move(branch.root);
    for (size_t c = 0; c < branch.columns.size(); ++c) {
      // Only a VALUES list's columns or the set operation's own ones: column references.
      query.outputs.push_back({branch.columns[c]->column, branch.names[c]});
    }
    std::vector<plan::SortKey> keys;
    for (size_t i = 0; i < stmt.n_sort_clause; ++i) {
      const PgQuery__SortBy& sort = *stmt.sort_clause[i]->sort_by;
      plan::SortKey key = sort_direction(sort);
      key.expr = column_ref(context_.registry, query.outputs[output_of(sort.node, branch)].id);
      keys.push_back(std::move(key));
    }
    query.root = add_sort_and_limit(std::move(query.root), std::move(keys), stmt, context_);
    return query;
  }

 private:
  // ORDER BY over a set operation or VALUES names an output column or its position.
  size_t output_of(const Node* node, const Branch& branch) const {
    if (node->node_case == PG_QUERY__NODE__NODE_A_CONST &&
        node->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
      int64_t ordinal = node->a_const->ival->ival;
      if (ordinal < 1 || static_cast<size_t>(ordinal) > branch.names.size())
        throw Error("ORDER BY position " + std::to_string(ordinal) + " is not in select list",
                    node_location(node));
      return static_cast<size_t>(ordinal - 1);
    }
    if (node->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && node->column_ref->n_fields == 1 &&
        node->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING) {
      std::string_view name = node_string(node->column_ref->fields[0]);
      std::optional<size_t> found;
      for (size_t c = 0; c < branch.names.size(); ++c) {
        if (branch.names[c] != name) continue;
        if (found)
          throw Error("ORDER BY \"" + std::string(name) + "\" is ambiguous", node_location(node));
        found = c;
      }
      if (!found)
        throw Error("column \"" + std::string(name) + "\" does not exist", node_location(node));
      return *found;
    }
    throw Error("invalid UNION/INTERSECT/EXCEPT ORDER BY clause", node_location(node));
  }

  // An operand: a nested set operation without clauses of its own joins this tree, anything
  // else is a query of its own whose untyped literal columns stay untyped.
  Branch bind_branch(const PgQuery__SelectStmt& stmt) {
    check_stack_depth();
    if (stmt.op != PG_QUERY__SET_OPERATION__SETOP_NONE && !has_own_clauses(stmt))
      return bind_tree(stmt);
    BoundQuery query = bind_query(stmt, context_, outer_, true);
    Branch branch;
    branch.root = std::move(query.root);
    for (size_t c = 0; c < query.outputs.size(); ++c) {
      bool untyped = c < query.untyped_outputs.size() && query.untyped_outputs[c];
      branch.columns.push_back(untyped ? std::move(query.untyped_outputs[c])
                                       : column_ref(context_.registry, query.outputs[c].id));
      branch.names.push_back(query.outputs[c].name);
    }
    return branch;
  }

  Branch bind_tree(const PgQuery__SelectStmt& stmt) {
    const char* name = operation_name(stmt.op);
    Branch left = bind_branch(*stmt.larg);
    Branch right = bind_branch(*stmt.rarg);
    if (left.columns.size() != right.columns.size())
      throw Error(std::string("each ") + name + " query must have the same number of columns");
    for (size_t c = 0; c < left.columns.size(); ++c)
      unify_types({&left.columns[c], &right.columns[c]}, name, -1);
    bool counted = stmt.op != PG_QUERY__SET_OPERATION__SETOP_UNION;
    Branch result;
    result.names = left.names;
    result.root = union_all(std::move(left), std::move(right), counted);
    if (stmt.op == PG_QUERY__SET_OPERATION__SETOP_UNION && stmt.all) {
      for (plan::ColumnId id : static_cast<const plan::UnionAllOp&>(*result.root).columns)
        result.columns.push_back(column_ref(context_.registry, id));
      return result;
    }
    distinct(result, counted);
    if (counted) keep_counted(result, stmt.op, stmt.all);
    return result;
  }

  // Whether the branch is a UNION ALL whose columns keep their types: a further branch can
  // be its next child.
  static bool extends_union_all(const Branch& branch) {
    if (branch.root->kind != plan::LogicalKind::kUnionAll) return false;
    const auto& op = static_cast<const plan::UnionAllOp&>(*branch.root);
    for (size_t c = 0; c < op.columns.size(); ++c)
      if (branch.columns[c]->kind != ExprKind::kColumn ||
          branch.columns[c]->column != op.columns[c])
        return false;
    return true;
  }

  // UNION ALL of the two branches; `marker`: with a column that is TRUE in the left
  // branch's rows and NULL in the right one's.
  plan::LogicalOpPtr union_all(Branch left, Branch right, bool marker) {
    if (!marker && extends_union_all(left)) {  // a UNION ALL b UNION ALL c: one union
      auto& op = static_cast<plan::UnionAllOp&>(*left.root);
      for (size_t c = 0; c < op.columns.size(); ++c)
        context_.registry[op.columns[c]].nullable |= right.columns[c]->nullable;
      op.inputs.push_back(std::move(right.columns));
      op.children.push_back(std::move(right.root));
      return std::move(left.root);
    }
    auto op = std::make_unique<plan::UnionAllOp>();
    for (size_t c = 0; c < left.columns.size(); ++c) {
      bool nullable = left.columns[c]->nullable || right.columns[c]->nullable;
      op->columns.push_back(
          context_.registry.add({left.columns[c]->type, nullable, left.names[c]}));
    }
    if (marker) {
      op->columns.push_back(context_.registry.add({SqlType::boolean(), true, "left"}));
      left.columns.push_back(plan::make_constant(Value::boolean(true)));
      right.columns.push_back(plan::make_constant(Value::null(SqlType::boolean())));
    }
    op->inputs.push_back(std::move(left.columns));
    op->inputs.push_back(std::move(right.columns));
    op->children.push_back(std::move(left.root));
    op->children.push_back(std::move(right.root));
    return op;
  }

  // One row per distinct row of the union (its columns but the marker); `counted`: with the
  // group's rows (count(*)) and left rows (count(marker)) as further outputs.
  void distinct(Branch& branch, bool counted) {
    const auto& input = static_cast<const plan::UnionAllOp&>(*branch.root);
    size_t columns = input.columns.size() - (counted ? 1 : 0);
    auto aggregate = std::make_unique<plan::AggregateOp>();
    for (size_t c = 0; c < columns; ++c) {
      plan::ColumnInfo info = context_.registry[input.columns[c]];
      plan::ColumnId id = context_.registry.add(info);
      aggregate->groups.push_back({id, column_ref(context_.registry, input.columns[c])});
      branch.columns.push_back(column_ref(context_.registry, id));
    }
    if (counted) {
      auto count = [&](plan::AggregateFunction function, ExprPtr argument, const char* name) {
        plan::ColumnId id = context_.registry.add({SqlType::big_int(), false, name});
        aggregate->aggregates.push_back({id, function, std::move(argument), false});
      };
      count(plan::AggregateFunction::kCountStar, nullptr, "count");
      count(plan::AggregateFunction::kCount, column_ref(context_.registry, input.columns.back()),
            "count");
    }
    aggregate->children.push_back(std::move(branch.root));
    branch.root = std::move(aggregate);
  }

  // INTERSECT / EXCEPT over the counted groups: a group is kept (distinct forms) or repeated
  // (ALL forms) by its rows from each side, as PostgreSQL's nodeSetOp does.
  void keep_counted(Branch& branch, PgQuery__SetOperation op, bool all) {
    const auto& aggregate = static_cast<const plan::AggregateOp&>(*branch.root);
    auto total = [&] { return column_ref(context_.registry, aggregate.aggregates[0].id); };
    auto left = [&] { return column_ref(context_.registry, aggregate.aggregates[1].id); };
    auto right = [&] { return ExpressionBinder::arithmetic("-", total(), left(), -1); };
    bool intersect = op == PG_QUERY__SET_OPERATION__SETOP_INTERSECT;
    plan::LogicalOpPtr kept;
    if (!all) {
      auto filter = std::make_unique<plan::FilterOp>();
      // INTERSECT: rows on both sides (0 < left < total); EXCEPT: none on the right.
      if (intersect) {
        std::vector<ExprPtr> both;
        both.push_back(
            ExpressionBinder::comparison(">", left(), plan::make_constant(Value::big_int(0)), -1));
        both.push_back(ExpressionBinder::comparison("<", left(), total(), -1));
        filter->predicate = plan::make_conjunction(std::move(both));
      } else {
        filter->predicate = ExpressionBinder::comparison("=", left(), total(), -1);
      }
      kept = std::move(filter);
    } else {
      auto repeat = std::make_unique<plan::RepeatOp>();
      if (intersect) {  // min(left, right) copies
        std::vector<ExprPtr> cases;
        cases.push_back(ExpressionBinder::comparison("<", left(), right(), -1));
        cases.push_back(left());
        cases.push_back(right());
        repeat->count = plan::make_expr(ExprKind::kCase, SqlType::big_int(), std::move(cases));
      } else {  // left - right copies
        repeat->count = ExpressionBinder::arithmetic("-", left(), right(), -1);
      }
      kept = std::move(repeat);
    }
    kept->children.push_back(std::move(branch.root));
    branch.root = std::move(kept);
  }

  // VALUES (...), (...): a ValuesOp whose columns (column1, column2, ...) take the common
  // type of their rows, as PostgreSQL resolves them.
  Branch bind_values(const PgQuery__SelectStmt& stmt) {
    auto values = std::make_unique<plan::ValuesOp>();
    BindScope scope;
    for (size_t r = 0; r < stmt.n_values_lists; ++r) {
      const PgQuery__List& list = *stmt.values_lists[r]->list;
      if (r > 0 && list.n_items != values->rows[0].size())
        throw Error("VALUES lists must all be the same length", node_location(list.items[0]));
      std::vector<ExprPtr> row;
      for (size_t i = 0; i < list.n_items; ++i)
        row.push_back(ExpressionBinder(context_, scope, "VALUES").bind(list.items[i]));
      values->rows.push_back(std::move(row));
    }
    Branch branch;
    size_t columns = values->rows[0].size();
    for (size_t c = 0; c < columns; ++c) {
      std::vector<ExprPtr*> column;
      bool nullable = false;
      for (auto& row : values->rows) column.push_back(&row[c]);
      unify_types(column, "VALUES", -1);
      for (auto& row : values->rows) nullable |= row[c]->nullable;
      std::string name = "column" + std::to_string(c + 1);
      plan::ColumnId id = context_.registry.add({values->rows[0][c]->type, nullable, name});
      values->columns.push_back(id);
      branch.columns.push_back(column_ref(context_.registry, id));
      branch.names.push_back(std::move(name));
    }
    values->estimated_rows = static_cast<double>(values->rows.size());
    branch.root = std::move(values);
    return branch;
  }

  BindContext& context_;
  const BindScope* outer_;
};

}  // namespace

BoundQuery bind_set_operation(const PgQuery__SelectStmt& stmt, BindContext& context,
                              const BindScope* outer) {
  check_stack_depth();
  return SetOperationBinder(context, outer).bind(stmt);
}

}  // namespace floe::sql
