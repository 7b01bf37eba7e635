#include "codegen/expression_cast.h"

#include "codegen/expression_decimal.h"
#include "codegen/expression_ir.h"
#include "codegen/expression_string.h"
#include "storage/error.h"
#include "storage/numeric_casts.h"

namespace floe::codegen {
namespace {

[[noreturn]] void unsupported_cast(const SqlType& from, const SqlType& to) {
  throw NotSupported("cast from " + from.to_string() + " to " + to.to_string());
}

// Calls a numeric_casts.h cast that writes `out_type` to an out-parameter and fails through
// the runtime (not for NULL rows: the caller runs it under compute_unless_null).
llvm::Value* call_cast(CodegenContext& context, const char* function,
                       std::vector<llvm::Value*> arguments, llvm::Type* out_type) {
  llvm::Value* out = entry_alloca(context, out_type);
  arguments.insert(arguments.begin(), context.worker());
  arguments.push_back(out);
  context.return_if_false(call_runtime(context, function, arguments));
  return context.builder().CreateLoad(out_type, out);
}

llvm::Value* type_id(CodegenContext& context, const SqlType& type) {
  return context.builder().getInt32(static_cast<uint32_t>(type.id));
}

// Narrows or widens a (wider or narrower) integer to the integer type `to`. Inlined: the
// range check is integer_to_integer's, with its bounds and message (numeric_casts.h).
llvm::Value* to_integer_type(CodegenContext& context, llvm::Value* value, llvm::Value* null,
                             const SqlType& to) {
  llvm::Type* target = context.register_type(to);
  if (value->getType()->getIntegerBitWidth() > target->getIntegerBitWidth()) {
    IntegerRange range = integer_range(to.id);
    check_range(context, value, range.min, range.max, null, integer_out_of_range(to.id));
  }
  return context.builder().CreateSExtOrTrunc(value, target);
}

// An integer type's result of a cast that produces int64.
llvm::Value* int64_to(CodegenContext& context, llvm::Value* value, const SqlType& to) {
  return context.builder().CreateTrunc(value, context.register_type(to));
}

// Applies an explicit cast's CHAR(n)/VARCHAR(n) length rules (plans cast to a bounded string
// type only where the SQL says CAST). TEXT and unbounded VARCHAR need none, and neither does
// CHAR(n) to unbounded CHAR (CHAR values are kept without trailing blanks).
llvm::Value* string_to_string(CodegenContext& context, llvm::Value* value, const SqlType& from,
                              const SqlType& to) {
  bool unbounded = to.length == 0 && (to.id == TypeId::kVarchar || to.id == from.id);
  if (to.id == TypeId::kText || unbounded) return value;
  auto& builder = context.builder();
  return call_runtime(context, "floe_rt_cast_string_to_string",
                      {string_lo(context, value), string_hi(context, value),
                       builder.getInt32(to.length), builder.getInt1(to.id == TypeId::kChar)});
}

llvm::Value* to_text(CodegenContext& context, llvm::Value* value, const SqlType& from,
                     const SqlType& to) {
  auto& builder = context.builder();
  llvm::Value* worker = context.worker();
  switch (cast_family(from)) {
    case CastFamily::kBool:
      return call_runtime(context, "floe_rt_cast_bool_to_string", {worker, value});
    case CastFamily::kInteger:
      return call_runtime(context, "floe_rt_cast_int64_to_string", {worker, value});
    case CastFamily::kDecimal:
      return call_runtime(context, "floe_rt_cast_decimal_to_string",
                          {worker, value, builder.getInt32(from.scale)});
    case CastFamily::kDouble:
      return call_runtime(context, "floe_rt_cast_double_to_string", {worker, value});
    case CastFamily::kDate:
      return call_runtime(context, "floe_rt_cast_date_to_string", {worker, value});
    case CastFamily::kTimestamp:
      return call_runtime(context, "floe_rt_cast_timestamp_to_string", {worker, value});
    case CastFamily::kInterval:
      return call_runtime(context, "floe_rt_cast_interval_to_string",
                          {worker, builder.CreateExtractValue(value, 0),
                           builder.CreateExtractValue(value, 1),
                           builder.CreateExtractValue(value, 2)});
    case CastFamily::kString:
      break;
  }
  unsupported_cast(from, to);
}

// Parses text through a runtime function that writes `out_type` to an out-parameter.
llvm::Value* parse_text(CodegenContext& context, const char* function, llvm::Value* text,
                        llvm::Type* out_type, std::vector<llvm::Value*> extra_arguments = {}) {
  llvm::Value* out = entry_alloca(context, out_type);
  std::vector<llvm::Value*> arguments = {context.worker(), string_lo(context, text),
                                         string_hi(context, text)};
  arguments.insert(arguments.end(), extra_arguments.begin(), extra_arguments.end());
  arguments.push_back(out);
  context.return_if_false(call_runtime(context, function, arguments));
  return context.builder().CreateLoad(out_type, out);
}

llvm::Value* from_text(CodegenContext& context, llvm::Value* text, const SqlType& from,
                       const SqlType& to) {
  auto& builder = context.builder();
  switch (cast_family(to)) {
    case CastFamily::kBool: {
      llvm::Value* byte =
          parse_text(context, "floe_rt_cast_string_to_bool", text, builder.getInt8Ty());
      return builder.CreateICmpNE(byte, builder.getInt8(0));
    }
    case CastFamily::kInteger:
      return int64_to(context,
                      parse_text(context, "floe_rt_cast_string_to_integer", text,
                                 builder.getInt64Ty(), {type_id(context, to)}),
                      to);
    case CastFamily::kDecimal: {
      llvm::Value* wide =
          parse_text(context, "floe_rt_cast_string_to_decimal", text, builder.getInt128Ty(),
                     {builder.getInt32(to.precision), builder.getInt32(to.scale)});
      return builder.CreateTrunc(wide, context.register_type(to));
    }
    case CastFamily::kDouble:
      return parse_text(context, "floe_rt_cast_string_to_double", text, builder.getDoubleTy());
    case CastFamily::kDate:
      return parse_text(context, "floe_rt_cast_string_to_date", text, builder.getInt32Ty());
    case CastFamily::kTimestamp:
      return parse_text(context, "floe_rt_cast_string_to_timestamp", text, builder.getInt64Ty());
    case CastFamily::kString:
      return string_to_string(context, text, from, to);
    case CastFamily::kInterval:
      return parse_text(context, "floe_rt_cast_string_to_interval", text,
                        context.register_type(to));
  }
  unsupported_cast(from, to);
}

}  // namespace

SqlValue cast_value(CodegenContext& context, SqlValue value, const SqlType& from,
                    const SqlType& to) {
  if (from == to) return value;
  auto& builder = context.builder();
  llvm::Value* null = value.null;
  CastFamily source = cast_family(from);
  CastFamily target = cast_family(to);
  // Everything that goes through the runtime must not run for NULL rows.
  auto via_runtime = [&](const std::function<llvm::Value*()>& body) {
    return compute_unless_null(context, null, body);
  };
  if (source == CastFamily::kString) {
    return via_runtime([&] { return from_text(context, value.value, from, to); });
  }
  if (target == CastFamily::kString) {
    return via_runtime([&] {
      llvm::Value* text = to_text(context, value.value, from, to);
      return string_to_string(context, text, SqlType::text(), to);
    });
  }
  switch (source) {
    case CastFamily::kBool:
      if (target == CastFamily::kInteger) {
        return {builder.CreateZExt(value.value, context.register_type(to)), null};
      }
      break;
    case CastFamily::kInteger:
      switch (target) {
        case CastFamily::kBool:
          return {builder.CreateICmpNE(value.value, int_constant(value.value->getType(), 0)), null};
        case CastFamily::kInteger:
          return {to_integer_type(context, value.value, null, to), null};
        case CastFamily::kDecimal:
          return convert_decimal(context, value, integer_decimal_precision(from.id), 0, to);
        case CastFamily::kDouble:
          return {builder.CreateSIToFP(value.value, builder.getDoubleTy()), null};
        default:
          break;
      }
      break;
    case CastFamily::kDecimal:
      switch (target) {
        case CastFamily::kInteger:
          return via_runtime([&] {
            llvm::Value* wide = builder.CreateSExt(value.value, builder.getInt128Ty());
            return int64_to(context,
                            call_cast(context, "floe_rt_cast_decimal_to_integer",
                                      {wide, builder.getInt32(from.scale), type_id(context, to)},
                                      builder.getInt64Ty()),
                            to);
          });
        case CastFamily::kDecimal:
          return convert_decimal(context, value, from.precision, from.scale, to);
        case CastFamily::kDouble:
          return {call_runtime(context, "floe_rt_cast_decimal_to_double",
                               {builder.CreateSExt(value.value, builder.getInt128Ty()),
                                builder.getInt32(from.scale)}),
                  null};
        default:
          break;
      }
      break;
    case CastFamily::kDouble:
      switch (target) {
        case CastFamily::kInteger:
          return via_runtime([&] {
            return int64_to(context,
                            call_cast(context, "floe_rt_cast_double_to_integer",
                                      {value.value, type_id(context, to)}, builder.getInt64Ty()),
                            to);
          });
        case CastFamily::kDecimal:
          return via_runtime([&] {
            llvm::Value* wide = call_cast(
                context, "floe_rt_cast_double_to_decimal",
                {value.value, builder.getInt32(to.precision), builder.getInt32(to.scale)},
                builder.getInt128Ty());
            return builder.CreateTrunc(wide, context.register_type(to));
          });
        default:
          break;
      }
      break;
    case CastFamily::kDate:
      if (target == CastFamily::kTimestamp) {
        return via_runtime([&] {
          return call_cast(context, "floe_rt_cast_date_to_timestamp", {value.value},
                           builder.getInt64Ty());
        });
      }
      break;
    case CastFamily::kTimestamp:
      if (target == CastFamily::kDate) {
        return {call_runtime(context, "floe_rt_cast_timestamp_to_date", {value.value}), null};
      }
      break;
    case CastFamily::kInterval:
    case CastFamily::kString:
      break;
  }
  unsupported_cast(from, to);
}

}  // namespace floe::codegen
