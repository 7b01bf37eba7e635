#include <gtest/gtest.h>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <set>

#include "codegen/runtime_declarations.h"
#include "runtime/function_registry.h"
#include "storage/error.h"

namespace floe {
namespace {

const FunctionOverload& overload(std::string_view name, std::vector<TypeId> parameters) {
  for (const FunctionOverload& candidate : function_registry().overloads(name))
    if (candidate.parameters == parameters) return candidate;
  throw std::runtime_error("no such overload: " + std::string(name));
}

TEST(FunctionRegistryTest, SymbolsAreUniqueAndDeclarable) {
  llvm::LLVMContext context;
  llvm::Module module("test", context);
  std::set<std::string> symbols;
  for (const FunctionOverload* function : function_registry().all()) {
    EXPECT_TRUE(symbols.insert(function->symbol).second) << "twice: " << function->symbol;
    EXPECT_EQ(function_registry().by_symbol(function->symbol), function);
    EXPECT_NE(function->thunk, nullptr);
    llvm::FunctionCallee callee = codegen::declare_runtime_function(module, function->symbol);
    EXPECT_EQ(callee.getFunctionType()->getNumParams(), 3u) << function->symbol;
  }
  EXPECT_GT(symbols.size(), 50u);
}

TEST(FunctionRegistryTest, CallsTheThunkOnValues) {
  const FunctionOverload& abs = overload("abs", {TypeId::kInteger});
  EXPECT_EQ(abs.call({Value::integer(-7)}, SqlType::integer()).as_int64(), 7);
  try {
    abs.call({Value::integer(INT32_MIN)}, SqlType::integer());
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "integer out of range");
  }
  const FunctionOverload& round = overload("round", {TypeId::kDecimal, TypeId::kInteger});
  Value rounded =
      round.call({Value::decimal(-2345, 10, 3), Value::integer(2)}, SqlType::decimal(10, 2));
  EXPECT_EQ(rounded.to_string(), "-2.35");
}

TEST(FunctionRegistryTest, StringsAndNullResults) {
  const FunctionOverload& lpad = overload("lpad", {TypeId::kText, TypeId::kInteger, TypeId::kText});
  Value padded = lpad.call({Value::string("héllo wörld!"), Value::integer(15), Value::string("€")},
                           SqlType::text());
  EXPECT_EQ(padded.as_string(), "€€€héllo wörld!");
  const FunctionOverload& substring = overload("substring", {TypeId::kText, TypeId::kText});
  EXPECT_TRUE(substring.may_return_null);
  EXPECT_TRUE(
      substring.call({Value::string("abc"), Value::string("x")}, SqlType::text()).is_null());
  EXPECT_EQ(substring.call({Value::string("abc1234"), Value::string("[0-9]+")}, SqlType::text())
                .as_string(),
            "1234");
}

TEST(FunctionRegistryTest, AliasesShareTheImplementation) {
  const FunctionOverload& length = overload("length", {TypeId::kText});
  const FunctionOverload& char_length = overload("char_length", {TypeId::kText});
  EXPECT_EQ(length.thunk, char_length.thunk);
  EXPECT_NE(length.symbol, char_length.symbol);
}

}  // namespace
}  // namespace floe
