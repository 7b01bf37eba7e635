// Loading progress on stderr: a redrawn bar per generation pass when stderr is a terminal,
// otherwise one line per loaded table (logs stay readable).
#pragma once

#include "tpch/direct_loader.h"

namespace floe::tpch {

LoadProgress make_stderr_progress();

}  // namespace floe::tpch
