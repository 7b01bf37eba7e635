#include "engine/vector/expression_executor.h"

#include <cstring>

#include "engine/vector/evaluation.h"
#include "runtime/function_registry.h"
#include "runtime/like_matcher.h"
#include "runtime/vector/cast.h"
#include "runtime/vector/function_call.h"
#include "runtime/vector/primitives.h"
#include "storage/date_part.h"
#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::vectorized {

void intersect_into(Vector& result, const Vector& operand) {
  if (operand.all_valid()) return;
  intersect_validity(result.mutable_validity(), operand.validity(), operand.validity_offset(),
                     result.extent());
}

void copy_values(const Vector& from, Vector& to, Rows rows) {
  visit_physical(from.physical(), [&](auto t) {
    using T = decltype(t);
    copy_rows(from.values<T>(), to.mutable_values<T>(), rows.sel, rows.n);
  });
  if (from.all_valid() && to.all_valid()) return;
  for_each_row(rows.sel, rows.n, [&](uint32_t p) { to.set_valid(p, from.is_valid(p)); });
}

namespace {

static_assert(static_cast<int>(plan::CompareOp::kGreaterEqual) ==
              static_cast<int>(Comparison::kGreaterEqual));

// The rows as owned positions, to be narrowed.
Selection all_of(Rows rows) {
  Selection selection;
  selection.positions.resize(rows.n);
  selection.count =
      select_rows(rows.sel, rows.n, selection.positions.data(), [](uint32_t) { return true; });
  return selection;
}

}  // namespace

Selection Evaluation::present(const Vector& vector, Rows rows) const {
  if (vector.all_valid()) return all_of(rows);
  Selection selection;
  selection.positions.resize(rows.n);
  selection.count = select_rows(rows.sel, rows.n, selection.positions.data(),
                                [&](uint32_t p) { return vector.is_valid(p); });
  return selection;
}

void Evaluation::throw_recorded() const {
  throw Error(worker_.query->error_message());
}

Vector Evaluation::cast(Vector in, const SqlType& to, Rows rows) {
  if (in.type() == to) return in;
  Vector out = make_vector(to);
  intersect_into(out, in);
  Selection valid = present(out, rows);
  if (!cast_vector(in, out, valid.positions.data(), valid.count, worker_)) throw_recorded();
  return out;
}

Vector Evaluation::constant(const plan::Expr& expr, Rows rows) {
  Vector out = make_vector(expr.type);
  const Value& value = expr.constant;
  if (value.is_null()) {
    std::memset(out.mutable_validity(), 0, validity_words(extent_) * sizeof(uint64_t));
    return out;
  }
  // Read by the expression's type, as codegen's compile_constant does; strings point into
  // the plan's constant, which outlives the evaluation.
  visit_physical(expr.type.physical(), [&](auto t) {
    using T = decltype(t);
    T physical;
    if constexpr (kIsIntegerLike<T>)
      physical = static_cast<T>(value.as_int128());
    else if constexpr (std::is_same_v<T, double>)
      physical = value.as_double();
    else if constexpr (std::is_same_v<T, Interval>)
      physical = value.as_interval();
    else
      physical = StringRef::from(value.as_string());
    T* values = out.mutable_values<T>();
    for_each_row(rows.sel, rows.n, [&](uint32_t p) { values[p] = physical; });
  });
  return out;
}

Vector Evaluation::compare(const plan::Expr& expr, Rows rows) {
  Vector a = evaluate(*expr.children[0], rows);
  Vector b = evaluate(*expr.children[1], rows);
  Vector out = make_vector(SqlType::boolean());
  intersect_into(out, a);
  intersect_into(out, b);
  auto op = static_cast<Comparison>(expr.compare_op);
  // Strings are compared only where both are present (a NULL's bytes are no string).
  Selection valid;
  if (a.physical() == PhysicalType::kString) {
    valid = present(out, rows);
    rows = valid.rows();
  }
  visit_physical(a.physical(), [&](auto t) {
    using T = decltype(t);
    vectorized::compare(op, a.values<T>(), b.values<T>(), out.mutable_values<uint8_t>(), rows.sel,
                        rows.n);
  });
  return out;
}

// AND/OR, three-valued: a row is decided by its first FALSE (AND) or TRUE (OR) operand, and
// later operands are evaluated only on the rows not yet decided (generated code branches
// past them).
Vector Evaluation::junction(const plan::Expr& expr, Rows rows) {
  bool is_and = expr.kind == plan::ExprKind::kAnd;
  Vector out = make_vector(SqlType::boolean());
  uint8_t* result = out.mutable_values<uint8_t>();
  std::vector<uint8_t> saw_null(extent_, 0);
  Selection open = all_of(rows);
  for_each_row(rows.sel, rows.n, [&](uint32_t p) { result[p] = is_and; });
  for (const plan::ExprPtr& child : expr.children) {
    if (open.count == 0) break;
    Vector value = evaluate(*child, open.rows());
    const uint8_t* v = value.values<uint8_t>();
    uint32_t* positions = open.positions.data();
    open.count = select_rows(positions, open.count, positions, [&](uint32_t p) {
      bool valid = value.is_valid(p);
      bool decides = valid & ((v[p] != 0) != is_and);
      saw_null[p] |= !valid;
      result[p] = decides ? !is_and : result[p];
      return !decides;
    });
  }
  for (uint32_t i = 0; i < open.count; ++i) {
    uint32_t p = open.positions[i];
    if (saw_null[p]) out.set_valid(p, false);
  }
  return out;
}

Vector Evaluation::case_when(const plan::Expr& expr, Rows rows) {
  Vector out = make_vector(expr.type);
  Selection open = all_of(rows);
  size_t else_index = expr.children.size() - 1;
  for (size_t i = 0; i < else_index && open.count > 0; i += 2) {
    Vector when = evaluate(*expr.children[i], open.rows());
    Selection taken;
    taken.positions.resize(open.count);
    taken.count = select_true(when.values<uint8_t>(), when.validity(), when.validity_offset(),
                              open.positions.data(), open.count, taken.positions.data());
    if (taken.count > 0) {
      Vector then = evaluate(*expr.children[i + 1], taken.rows());
      copy_values(then, out, taken.rows());
    }
    // The rest: open minus taken (both ascending).
    uint32_t k = 0, t = 0;
    for (uint32_t j = 0; j < open.count; ++j) {
      uint32_t p = open.positions[j];
      if (t < taken.count && taken.positions[t] == p) {
        ++t;
        continue;
      }
      open.positions[k++] = p;
    }
    open.count = k;
  }
  if (open.count > 0)
    copy_values(evaluate(*expr.children[else_index], open.rows()), out, open.rows());
  return out;
}

Vector Evaluation::coalesce(const plan::Expr& expr, Rows rows) {
  Vector out = make_vector(expr.type);
  Selection open = all_of(rows);
  for (const plan::ExprPtr& child : expr.children) {
    if (open.count == 0) break;
    Vector value = evaluate(*child, open.rows());
    copy_values(value, out, open.rows());
    uint32_t* positions = open.positions.data();
    open.count = select_rows(positions, open.count, positions,
                             [&](uint32_t p) { return !value.is_valid(p); });
  }
  return out;
}

Vector Evaluation::like(const plan::Expr& expr, Rows rows) {
  const plan::Expr& pattern = *expr.children[1];
  if (pattern.kind != plan::ExprKind::kConstant)
    throw NotSupported("LIKE with a non-constant pattern", pattern.position);
  Vector out = make_vector(SqlType::boolean());
  if (pattern.constant.is_null()) {
    std::memset(out.mutable_validity(), 0, validity_words(extent_) * sizeof(uint64_t));
    return out;
  }
  LikeMatcher matcher(pattern.constant.as_string());
  Vector text = evaluate(*expr.children[0], rows);
  intersect_into(out, text);
  Selection valid = present(out, rows);
  const StringRef* strings = text.values<StringRef>();
  uint8_t* result = out.mutable_values<uint8_t>();
  for_each_row(valid.positions.data(), valid.count,
               [&](uint32_t p) { result[p] = matcher.matches(strings[p].view()) != expr.negated; });
  return out;
}

// needle IN (items): true when an item equals it; else NULL when the needle or an item is
// NULL; else false. Every item is evaluated, as generated code does.
Vector Evaluation::in_list(const plan::Expr& expr, Rows rows) {
  Vector needle = evaluate(*expr.children[0], rows);
  Vector out = make_vector(SqlType::boolean());
  uint8_t* found = out.mutable_values<uint8_t>();
  std::vector<uint8_t> any_null(extent_, 0);
  for_each_row(rows.sel, rows.n, [&](uint32_t p) {
    found[p] = 0;
    any_null[p] = !needle.is_valid(p);
  });
  for (size_t i = 1; i < expr.children.size(); ++i) {
    Vector item = evaluate(*expr.children[i], rows);
    visit_physical(needle.physical(), [&](auto t) {
      using T = decltype(t);
      const T* a = needle.values<T>();
      const T* b = item.values<T>();
      for_each_row(rows.sel, rows.n, [&](uint32_t p) {
        bool item_valid = item.is_valid(p);
        any_null[p] |= !item_valid;
        if (item_valid && needle.is_valid(p))
          found[p] |= compare_one<Comparison::kEqual>(a[p], b[p]);
      });
    });
  }
  for_each_row(rows.sel, rows.n, [&](uint32_t p) {
    if (any_null[p] && !found[p]) out.set_valid(p, false);
    found[p] = found[p] != expr.negated;
  });
  return out;
}

// GREATEST/LEAST: NULL arguments are left out; NULL when all are.
Vector Evaluation::extremum(const plan::Expr& expr, Rows rows) {
  bool greatest = expr.kind == plan::ExprKind::kGreatest;
  Vector out = make_vector(expr.type);
  copy_values(evaluate(*expr.children[0], rows), out, rows);
  for (size_t i = 1; i < expr.children.size(); ++i) {
    Vector next = evaluate(*expr.children[i], rows);
    visit_physical(out.physical(), [&](auto t) {
      using T = decltype(t);
      T* best = out.mutable_values<T>();
      const T* candidate = next.values<T>();
      for_each_row(rows.sel, rows.n, [&](uint32_t p) {
        if (!next.is_valid(p)) return;
        int order = out.is_valid(p) ? sql_compare(candidate[p], best[p]) : greatest ? 1 : -1;
        if (greatest ? order > 0 : order < 0) {
          best[p] = candidate[p];
          out.set_valid(p, true);
        }
      });
    });
  }
  return out;
}

Vector Evaluation::extract(const plan::Expr& expr, Rows rows) {
  Vector source = evaluate(*expr.children[0], rows);
  const SqlType& type = expr.children[0]->type;
  if (type.id != TypeId::kInterval && !type.is_temporal())
    throw NotSupported("EXTRACT from " + type.to_string());
  Vector out = make_vector(expr.type);
  intersect_into(out, source);
  Selection valid = present(out, rows);
  DatePart part = expr.date_part;
  visit_physical(expr.type.physical(), [&](auto t) {
    using T = decltype(t);
    if constexpr (std::is_integral_v<T> || std::is_same_v<T, int128_t>) {
      T* result = out.mutable_values<T>();
      for_each_row(valid.positions.data(), valid.count, [&](uint32_t p) {
        int128_t scaled;
        if (type.id == TypeId::kInterval)
          scaled = extract_from_interval(part, source.values<Interval>()[p]);
        else if (type.id == TypeId::kDate)
          scaled = extract_from_date(part, source.values<int32_t>()[p]);
        else
          scaled = extract_from_timestamp(part, source.values<int64_t>()[p]);
        result[p] = static_cast<T>(scaled);
      });
    }
  });
  return out;
}

Vector Evaluation::function(const plan::Expr& expr, Rows rows) {
  std::vector<Vector> arguments;
  std::vector<const Vector*> pointers;
  Vector out = make_vector(expr.type);
  for (const plan::ExprPtr& child : expr.children) {
    arguments.push_back(evaluate(*child, rows));
    intersect_into(out, arguments.back());
  }
  for (const Vector& argument : arguments) pointers.push_back(&argument);
  Selection valid = present(out, rows);  // strict: NULL arguments skip the call
  if (!call_function(*expr.function, worker_, pointers, out, valid.positions.data(), valid.count))
    throw_recorded();
  return out;
}

Vector Evaluation::evaluate(const plan::Expr& expr, Rows rows) {
  check_stack_depth();
  using plan::ExprKind;
  switch (expr.kind) {
    case ExprKind::kColumn: {
      auto found = columns_.find(expr.column);
      if (found == columns_.end())
        throw NotSupported("this expression outside a query", expr.position);
      return chunk_.column(found->second).view();
    }
    case ExprKind::kConstant:
      return constant(expr, rows);
    case ExprKind::kArithmetic:
      return arithmetic(expr, rows);
    case ExprKind::kNegate:
      return negate(expr, rows);
    case ExprKind::kCompare:
      return compare(expr, rows);
    case ExprKind::kAnd:
    case ExprKind::kOr:
      return junction(expr, rows);
    case ExprKind::kNot: {
      Vector operand = evaluate(*expr.children[0], rows);
      Vector out = make_vector(SqlType::boolean());
      intersect_into(out, operand);
      const uint8_t* in = operand.values<uint8_t>();
      uint8_t* result = out.mutable_values<uint8_t>();
      for_each_row(rows.sel, rows.n, [&](uint32_t p) { result[p] = !in[p]; });
      return out;
    }
    case ExprKind::kIsNull: {
      Vector operand = evaluate(*expr.children[0], rows);
      Vector out = make_vector(SqlType::boolean());
      uint8_t* result = out.mutable_values<uint8_t>();
      for_each_row(rows.sel, rows.n,
                   [&](uint32_t p) { result[p] = operand.is_valid(p) == expr.negated; });
      return out;
    }
    case ExprKind::kCase:
      return case_when(expr, rows);
    case ExprKind::kCast: {
      const plan::Expr& source = *expr.children[0];
      if (source.kind == ExprKind::kConstant && source.constant.is_null())
        return constant(*plan::make_constant(Value::null(expr.type)), rows);
      return cast(evaluate(source, rows), expr.type, rows);
    }
    case ExprKind::kLike:
      return like(expr, rows);
    case ExprKind::kInList:
      return in_list(expr, rows);
    case ExprKind::kCoalesce:
      return coalesce(expr, rows);
    case ExprKind::kExtract:
      return extract(expr, rows);
    case ExprKind::kGreatest:
    case ExprKind::kLeast:
      return extremum(expr, rows);
    case ExprKind::kFunction:
      return function(expr, rows);
    case ExprKind::kScalarSubquery:
    case ExprKind::kExists:
    case ExprKind::kInSubquery:
    case ExprKind::kParameter:
      break;
  }
  throw NotSupported("this expression outside a query", expr.position);
}

Vector ExpressionExecutor::evaluate(const plan::Expr& expr, const DataChunk& chunk) {
  Evaluation evaluation(chunk, worker_, columns_);
  return evaluation.evaluate(expr, {chunk.selection(), chunk.count()});
}

uint32_t ExpressionExecutor::select(const plan::Expr& expr, const DataChunk& chunk,
                                    std::vector<uint32_t>& selection) {
  Evaluation evaluation(chunk, worker_, columns_);
  Rows rows{chunk.selection(), chunk.count()};
  selection.resize(chunk.count());
  if (expr.kind == plan::ExprKind::kCompare) {
    // A comparison selects straight from its operands, branch-free.
    Vector a = evaluation.evaluate(*expr.children[0], rows);
    Vector b = evaluation.evaluate(*expr.children[1], rows);
    Vector valid = evaluation.make_vector(SqlType::boolean());
    intersect_into(valid, a);
    intersect_into(valid, b);
    Selection present;
    if (a.physical() == PhysicalType::kString) {
      present = evaluation.present(valid, rows);
      rows = present.rows();
    }
    auto op = static_cast<Comparison>(expr.compare_op);
    return visit_physical(a.physical(), [&](auto t) {
      using T = decltype(t);
      return select_compare(op, a.values<T>(), b.values<T>(), rows.sel, rows.n, valid.validity(),
                            selection.data());
    });
  }
  Vector value = evaluation.evaluate(expr, rows);
  return select_true(value.values<uint8_t>(), value.validity(), value.validity_offset(), rows.sel,
                     rows.n, selection.data());
}

Value evaluate_scalar(const plan::Expr& expr) {
  if (expr.kind == plan::ExprKind::kConstant) return expr.constant;
  QueryContext query(1);
  ExpressionExecutor executor(query.worker(0));
  DataChunk chunk(1);
  chunk.set_count(1);
  return executor.evaluate(expr, chunk).get(0);
}

Value evaluate_scalar_at(const plan::Expr& expr) {
  try {
    return evaluate_scalar(expr);
  } catch (const NotSupported&) {
    throw;
  } catch (const Error& error) {
    throw Error(error.what(), error.position() >= 0 ? error.position() : expr.position);
  }
}

}  // namespace floe::vectorized
