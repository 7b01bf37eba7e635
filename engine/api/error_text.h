// psql-style error report (the public floe::api::format_error): the message and, when the
// position is known, the statement line with a caret under the offending spot.
#pragma once

#include "engine/api/floe.h"

namespace floe {

// Declared in the public header; position: byte offset into `statement`, or -1.
using api::format_error;

}  // namespace floe
