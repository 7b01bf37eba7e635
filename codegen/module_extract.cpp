#include "codegen/module_extract.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <unordered_set>

#include "storage/error.h"

namespace floe::codegen {
namespace {

// The global values `roots` reach (themselves included).
std::unordered_set<const llvm::GlobalValue*> reachable_globals(
    const llvm::Module& module, const std::vector<std::string>& roots) {
  std::unordered_set<const llvm::GlobalValue*> reached;
  std::unordered_set<const llvm::Constant*> visited_constants;
  std::vector<const llvm::GlobalValue*> pending;
  auto reach = [&](const llvm::GlobalValue* global) {
    if (reached.insert(global).second) pending.push_back(global);
  };
  // The globals a value names, also inside constant expressions and aggregates.
  auto visit = [&](const llvm::Value* value, auto& self) -> void {
    if (const auto* global = llvm::dyn_cast<llvm::GlobalValue>(value)) {
      reach(global);
    } else if (const auto* constant = llvm::dyn_cast<llvm::Constant>(value)) {
      if (!visited_constants.insert(constant).second) return;
      for (const llvm::Value* operand : constant->operands()) self(operand, self);
    }
  };
  for (const auto& name : roots) {
    const llvm::Function* function = module.getFunction(name);
    if (!function) throw Error("internal error: generated function " + name + " is missing");
    reach(function);
  }
  while (!pending.empty()) {
    const llvm::GlobalValue* global = pending.back();
    pending.pop_back();
    if (const auto* variable = llvm::dyn_cast<llvm::GlobalVariable>(global)) {
      if (variable->hasInitializer()) visit(variable->getInitializer(), visit);
    } else if (const auto* function = llvm::dyn_cast<llvm::Function>(global)) {
      for (const llvm::BasicBlock& block : *function)
        for (const llvm::Instruction& instruction : block)
          for (const llvm::Value* operand : instruction.operands()) visit(operand, visit);
    }
  }
  return reached;
}

}  // namespace

std::unique_ptr<llvm::Module> extract_definitions(const llvm::Module& module,
                                                  const std::vector<std::string>& roots) {
  auto reached = reachable_globals(module, roots);
  llvm::ValueToValueMapTy mapping;
  auto part = llvm::CloneModule(
      module, mapping, [&](const llvm::GlobalValue* global) { return reached.count(global) > 0; });
  // The declarations standing in for what the part does not define go: nothing uses them.
  for (llvm::Function& function : llvm::make_early_inc_range(part->functions()))
    if (function.isDeclaration() && function.use_empty()) function.eraseFromParent();
  for (llvm::GlobalVariable& variable : llvm::make_early_inc_range(part->globals()))
    if (variable.isDeclaration() && variable.use_empty()) variable.eraseFromParent();
  return part;
}

}  // namespace floe::codegen
