// Name and address of every function in runtime_abi.h, so the JIT can bind generated code's
// calls by symbol. runtime_symbols.cpp lists them; a unit test checks the list against the
// declarations in runtime_abi.h, so the two cannot drift apart.
#pragma once

#include <utility>
#include <vector>

namespace floe {

std::vector<std::pair<const char*, void*>> runtime_symbols();

}  // namespace floe
