// PostgreSQL-like implicit conversions between operand types (see the contract in
// engine/plan/expression.h): which common type two operands take, and how an expression is
// converted to a type (casts inserted, untyped literals parsed).
#pragma once

#include <optional>
#include <string>

#include "engine/plan/expression.h"

namespace floe::sql {

// An untyped string literal or NULL, which takes the type its context needs.
bool is_unknown_literal(const plan::Expr& expr);

// Position in the numeric promotion order smallint < integer < bigint < numeric < double
// precision; -1 for non-numbers.
int numeric_rank(TypeId id);

// The type both sides of a comparison (and all branches of CASE, IN, COALESCE) take:
// numbers promote smallint < integer < bigint < numeric < double precision, date promotes
// to timestamp, character types meet as text; two untyped literals stay unknown. nullopt when
// there is no such type.
std::optional<SqlType> common_type(const SqlType& a, const SqlType& b);

// The name PostgreSQL's messages give a type (format_type_be): without modifiers, e.g.
// "numeric", "character varying", "timestamp without time zone".
std::string type_name(const SqlType& type);

// numeric(p,s) that holds every value of an integer or numeric type.
SqlType as_decimal(const SqlType& type);

// Whether CAST(x AS target) exists for x of type `source`.
bool can_cast(const SqlType& source, const SqlType& target);

// Converts `expr` to `target` implicitly: untyped literals are parsed into a constant of that
// type (floe::Error at the literal's position when the text is not valid input), other
// expressions get a kCast unless they already have the type. As in PostgreSQL, where such a
// literal becomes the unbounded type (bpchar, varchar), a string literal keeps its whole
// text in a CHAR(n)/VARCHAR(n) context: c = 'too long' is false, not an error.
plan::ExprPtr coerce(plan::ExprPtr expr, const SqlType& target);

// CAST(expr AS target): like coerce, but with an explicit cast's rules, which cut a value to
// a CHAR(n)/VARCHAR(n) target's length (a kCast always has them).
plan::ExprPtr explicit_cast(plan::ExprPtr expr, const SqlType& target);

// Whether an untyped literal's text fits the length of the CHAR(n)/VARCHAR(n) `type`.
bool literal_fits(const plan::Expr& literal, const SqlType& type);

// An untyped literal's final type when nothing else decides it: text.
plan::ExprPtr resolve_unknown(plan::ExprPtr expr);

}  // namespace floe::sql
