#include "codegen/expression_hash.h"

#include <cmath>
#include <limits>

#include "codegen/expression_comparison.h"
#include "codegen/expression_ir.h"
#include "codegen/expression_string.h"
#include "runtime/hash.h"

namespace floe::codegen {
namespace {

// The per-value hashes of runtime/hash.h (hash_word, hash_int128, hash_double,
// hash_interval; strings call hash_string), inline: the two engines must agree bit for bit.

// hash_word: mix_hash((word ^ seed) * golden ratio).
llvm::Value* hash_word(CodegenContext& context, llvm::Value* word, llvm::Value* seed) {
  auto& builder = context.builder();
  auto xorshift = [&](llvm::Value* x) { return builder.CreateXor(x, builder.CreateLShr(x, 32)); };
  llvm::Value* h =
      builder.CreateMul(builder.CreateXor(word, seed), builder.getInt64(kGoldenRatio64));
  h = builder.CreateMul(xorshift(h), builder.getInt64(kMixMultiplier64));
  h = builder.CreateMul(xorshift(h), builder.getInt64(kMixMultiplier64));
  return xorshift(h);
}

llvm::Value* hash_int128(CodegenContext& context, llvm::Value* value, llvm::Value* seed) {
  auto& builder = context.builder();
  llvm::Value* high = builder.CreateTrunc(builder.CreateLShr(value, 64), builder.getInt64Ty());
  llvm::Value* low = builder.CreateTrunc(value, builder.getInt64Ty());
  return hash_word(context, low, hash_word(context, high, seed));
}

// -0.0 becomes 0.0 and every NaN the same NaN, so that equal doubles share their bits.
llvm::Value* canonical_double_bits(CodegenContext& context, llvm::Value* value) {
  auto& builder = context.builder();
  llvm::Type* type = value->getType();
  llvm::Value* zero = llvm::ConstantFP::get(type, 0.0);
  llvm::Value* nan = llvm::ConstantFP::get(type, std::numeric_limits<double>::quiet_NaN());
  llvm::Value* result = builder.CreateSelect(builder.CreateFCmpOEQ(value, zero), zero, value);
  result = builder.CreateSelect(builder.CreateFCmpUNO(value, value), nan, result);
  return builder.CreateBitCast(result, builder.getInt64Ty());
}

}  // namespace

llvm::Value* hash_value(CodegenContext& context, llvm::Value* value, const SqlType& type,
                        llvm::Value* seed) {
  auto& builder = context.builder();
  switch (type.physical()) {
    case PhysicalType::kBool:
      return hash_word(context, builder.CreateZExt(value, builder.getInt64Ty()), seed);
    case PhysicalType::kInt16:
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
      return hash_word(context, builder.CreateSExt(value, builder.getInt64Ty()), seed);
    case PhysicalType::kInt128:
      return hash_int128(context, value, seed);
    case PhysicalType::kDouble:
      return hash_word(context, canonical_double_bits(context, value), seed);
    case PhysicalType::kInterval:
      return hash_int128(context, interval_span(context, value), seed);
    case PhysicalType::kString:
      return call_runtime(context, "floe_rt_hash_string",
                          {string_lo(context, value), string_hi(context, value), seed});
  }
  return seed;
}

}  // namespace floe::codegen
