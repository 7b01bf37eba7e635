// Cuts one pipeline's code out of a query's module (adaptive execution compiles a module per
// pipeline, so that the first pipelines switch to compiled code before the last are compiled:
// Kohn, Leis & Neumann, "Adaptive Execution of Compiled Queries", ICDE 2018, section IV).
#pragma once

#include <llvm/IR/Module.h>

#include <memory>
#include <string>
#include <vector>

namespace floe::codegen {

// A copy of `module`, in its context, defining only the functions and global variables that
// `roots` (function names) reach through their code and initializers; everything else is an
// unused external declaration. A definition that several pipelines reach (a sink's helpers)
// is copied into each.
std::unique_ptr<llvm::Module> extract_definitions(const llvm::Module& module,
                                                  const std::vector<std::string>& roots);

}  // namespace floe::codegen
