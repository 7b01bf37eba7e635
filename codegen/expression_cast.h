// CAST between SQL types with PostgreSQL semantics: integer range checks, numeric rounding
// (half away from zero), double to integer rounding (half to even, like rint), casts from and
// to text through the runtime.
#pragma once

#include "codegen/codegen_context.h"

namespace floe::codegen {

// "smallint out of range", "integer out of range" or "bigint out of range".
std::string integer_overflow_message(const SqlType& type);

// Converts `value` of type `from` to `to`; NULL stays NULL. Throws floe::NotSupported for
// casts PostgreSQL does not have either (e.g. date to integer).
SqlValue cast_value(CodegenContext& context, SqlValue value, const SqlType& from,
                    const SqlType& to);

}  // namespace floe::codegen
