// LLVM declarations of the functions in runtime/runtime_abi.h. The table in the .cpp mirrors
// that header signature by signature (a unit test checks it against runtime_symbols()).
#pragma once

#include <llvm/IR/Module.h>

#include <string>
#include <vector>

namespace floe::codegen {

// Declares (or finds) the runtime function `name` in `module`; throws floe::Error for a name
// that is neither part of the runtime ABI nor a registry function's thunk.
llvm::FunctionCallee declare_runtime_function(llvm::Module& module, const std::string& name);

// Every runtime function name the table knows.
std::vector<std::string> declared_runtime_functions();

}  // namespace floe::codegen
