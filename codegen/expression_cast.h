// CAST between SQL types with PostgreSQL semantics. The semantics are storage's
// (storage/numeric_casts.h, parse_value, format_*): generated code calls them through the
// runtime and inlines only what has no semantic choice (see numeric_casts.h).
#pragma once

#include "codegen/codegen_context.h"

namespace floe::codegen {

// Converts `value` of type `from` to `to`; NULL stays NULL. Throws floe::NotSupported for
// casts PostgreSQL does not have either (e.g. date to integer).
SqlValue cast_value(CodegenContext& context, SqlValue value, const SqlType& from,
                    const SqlType& to);

}  // namespace floe::codegen
