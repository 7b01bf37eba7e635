#include "tests/unit/codegen_expression_harness.h"

#include <gtest/gtest.h>

#include <llvm/IR/Verifier.h>

#include <cstddef>
#include <map>

#include "codegen/codegen_context.h"
#include "codegen/expression_compiler.h"
#include "runtime/query_context.h"

namespace floe::codegen::testing {
namespace {

// One input or output slot: the physical value, then a null byte.
constexpr size_t kSlotSize = 32;
constexpr size_t kNullOffset = 16;

void collect_columns(const plan::Expr& expr, std::map<plan::ColumnId, const plan::Expr*>& out) {
  if (expr.kind == plan::ExprKind::kColumn) out[expr.column] = &expr;
  for (const plan::ExprPtr& child : expr.children) collect_columns(*child, out);
}

llvm::Value* slot_address(llvm::IRBuilder<>& builder, llvm::Value* base, size_t index,
                          size_t offset) {
  return builder.CreateConstGEP1_64(builder.getInt8Ty(), base, index * kSlotSize + offset);
}

// Stores a register value in its in-memory form (booleans as one byte).
void store_value(CodegenContext& context, llvm::Value* value, llvm::Value* address) {
  auto& builder = context.builder();
  if (value->getType()->isIntegerTy(1)) value = builder.CreateZExt(value, builder.getInt8Ty());
  builder.CreateStore(value, address);
}

llvm::Value* load_value(CodegenContext& context, const SqlType& type, llvm::Value* address) {
  auto& builder = context.builder();
  if (type.physical() == PhysicalType::kBool) {
    return builder.CreateICmpNE(builder.CreateLoad(builder.getInt8Ty(), address),
                                builder.getInt8(0));
  }
  return builder.CreateLoad(context.register_type(type), address);
}

using Body =
    std::function<void(CodegenContext&, ExpressionCompiler&, llvm::Value* in, llvm::Value* out)>;

// Builds `bool eval(WorkerContext*, const uint8_t* in, uint8_t* out)`, JITs it and runs it,
// then calls `read_result` while the query's string heap still exists. Returns the error
// message of a failed run, or "".
std::string compile_and_run(const Body& body, JitOptimization level, const uint8_t* in,
                            uint8_t* out, const std::function<void()>& read_result) {
  auto llvm_context = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>("expression_test", *llvm_context);
  prepare_module(*module);
  CodegenContext context(*llvm_context, *module);
  auto& builder = context.builder();
  auto* pointer = builder.getPtrTy();
  auto* type = llvm::FunctionType::get(builder.getInt1Ty(), {pointer, pointer, pointer}, false);
  auto* function = llvm::Function::Create(type, llvm::Function::ExternalLinkage, "eval", *module);
  builder.SetInsertPoint(llvm::BasicBlock::Create(*llvm_context, "entry", function));
  context.begin_function(function, nullptr, function->getArg(0));
  ExpressionCompiler compiler(context);
  body(context, compiler, function->getArg(1), function->getArg(2));
  builder.CreateRet(builder.getTrue());
  std::string verify_errors;
  llvm::raw_string_ostream stream(verify_errors);
  if (llvm::verifyFunction(*function, &stream)) {
    ADD_FAILURE() << "invalid IR: " << verify_errors;
    return "invalid IR";
  }
  auto keep_alive = context.take_embedded_objects();
  optimize_module(*module, level);
  auto compiled = compile_module(std::move(llvm_context), std::move(module), level, {"eval"});
  auto* eval = reinterpret_cast<bool (*)(WorkerContext*, const uint8_t*, uint8_t*)>(
      compiled->lookup("eval"));
  QueryContext query(1);
  bool ok = eval(&query.worker(0), in, out);
  EXPECT_EQ(ok, !query.failed());
  if (!ok) return query.error_message();
  read_result();
  return "";
}

}  // namespace

std::string evaluate(const plan::Expr& expr, const std::vector<Value>& inputs,
                     JitOptimization level) {
  std::map<plan::ColumnId, const plan::Expr*> columns;
  collect_columns(expr, columns);
  std::vector<uint8_t> in(kSlotSize * (inputs.size() + 1));
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].is_null()) inputs[i].write_physical(&in[i * kSlotSize]);
    in[i * kSlotSize + kNullOffset] = inputs[i].is_null();
  }
  alignas(16) uint8_t out[kSlotSize] = {};
  std::string result;
  std::string error = compile_and_run(
      [&](CodegenContext& context, ExpressionCompiler& compiler, llvm::Value* in_base,
          llvm::Value* out_base) {
        auto& builder = context.builder();
        ColumnResolver resolver = [&](plan::ColumnId id) {
          const plan::Expr& column = *columns.at(id);
          SqlValue value{load_value(context, column.type, slot_address(builder, in_base, id, 0)),
                         nullptr};
          if (column.nullable) {
            value.null = builder.CreateICmpNE(
                builder.CreateLoad(builder.getInt8Ty(),
                                   slot_address(builder, in_base, id, kNullOffset)),
                builder.getInt8(0));
          }
          return value;
        };
        SqlValue result = compiler.compile(expr, resolver);
        if (!expr.nullable) {
          EXPECT_EQ(result.null, nullptr) << "NOT NULL expression with null logic";
        }
        store_value(context, result.value, slot_address(builder, out_base, 0, 0));
        llvm::Value* null = result.null ? result.null : builder.getFalse();
        store_value(context, null, slot_address(builder, out_base, 0, kNullOffset));
      },
      level, in.data(), out,
      [&] {
        result = out[kNullOffset] ? "NULL" : Value::read_physical(out, expr.type).to_string();
      });
  return error.empty() ? result : "ERROR: " + error;
}

std::string run(const plan::Expr& expr, const std::vector<Value>& inputs) {
  std::string fast = evaluate(expr, inputs, JitOptimization::kFast);
  std::string optimized = evaluate(expr, inputs, JitOptimization::kOptimized);
  EXPECT_EQ(fast, optimized) << expr.to_string();
  return fast;
}

KeyResults key_functions(const Value& a, const Value& b) {
  std::vector<uint8_t> in(kSlotSize * 2);
  a.write_physical(&in[0]);
  b.write_physical(&in[kSlotSize]);
  struct {
    uint8_t equal;
    int32_t compare;
    uint64_t hash_a;
    uint64_t hash_b;
  } out{};
  SqlType type = a.type();
  std::string error = compile_and_run(
      [&](CodegenContext& context, ExpressionCompiler& compiler, llvm::Value* in_base,
          llvm::Value* out_base) {
        auto& builder = context.builder();
        llvm::Value* va = load_value(context, type, slot_address(builder, in_base, 0, 0));
        llvm::Value* vb = load_value(context, type, slot_address(builder, in_base, 1, 0));
        llvm::Value* seed = builder.getInt64(42);
        auto field = [&](size_t offset) {
          return builder.CreateConstGEP1_64(builder.getInt8Ty(), out_base, offset);
        };
        store_value(context, compiler.equal(va, vb, type), field(offsetof(decltype(out), equal)));
        store_value(context, compiler.compare(va, vb, type),
                    field(offsetof(decltype(out), compare)));
        store_value(context, compiler.hash({va, nullptr}, type, seed),
                    field(offsetof(decltype(out), hash_a)));
        store_value(context, compiler.hash({vb, nullptr}, type, seed),
                    field(offsetof(decltype(out), hash_b)));
      },
      JitOptimization::kFast, in.data(), reinterpret_cast<uint8_t*>(&out), [] {});
  EXPECT_EQ(error, "");
  return {out.equal != 0, out.compare, out.hash_a, out.hash_b};
}

plan::ExprPtr constant(Value value) {
  return plan::make_constant(std::move(value));
}

plan::ExprPtr column(plan::ColumnId id, SqlType type, bool nullable) {
  return plan::make_column(id, type, nullable);
}

plan::ExprPtr null_of(SqlType type) {
  return plan::make_constant(Value::null(type));
}

plan::ExprPtr node(plan::ExprKind kind, SqlType type, std::vector<plan::ExprPtr> children) {
  auto expr = std::make_unique<plan::Expr>();
  expr->kind = kind;
  expr->type = type;
  expr->nullable = false;
  for (const plan::ExprPtr& child : children) expr->nullable = expr->nullable || child->nullable;
  expr->children = std::move(children);
  return expr;
}

plan::ExprPtr arithmetic(plan::ArithmeticOp op, plan::ExprPtr a, plan::ExprPtr b, SqlType type) {
  auto expr = node(plan::ExprKind::kArithmetic, type, list(std::move(a), std::move(b)));
  expr->arithmetic_op = op;
  return expr;
}

plan::ExprPtr negate(plan::ExprPtr operand) {
  SqlType type = operand->type;
  return node(plan::ExprKind::kNegate, type, list(std::move(operand)));
}

plan::ExprPtr compare(plan::CompareOp op, plan::ExprPtr a, plan::ExprPtr b) {
  auto expr = node(plan::ExprKind::kCompare, SqlType::boolean(), list(std::move(a), std::move(b)));
  expr->compare_op = op;
  return expr;
}

plan::ExprPtr cast(plan::ExprPtr operand, SqlType type) {
  return plan::make_cast(std::move(operand), type);
}

}  // namespace floe::codegen::testing
