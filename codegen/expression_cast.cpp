#include "codegen/expression_cast.h"

#include "codegen/expression_decimal.h"
#include "codegen/expression_ir.h"
#include "codegen/expression_string.h"
#include "storage/date_time.h"
#include "storage/error.h"

namespace floe::codegen {
namespace {

[[noreturn]] void unsupported_cast(const SqlType& from, const SqlType& to) {
  throw NotSupported("cast from " + from.to_string() + " to " + to.to_string());
}

unsigned integer_bits(const SqlType& type) {
  return static_cast<unsigned>(physical_size(type.physical()) * 8);
}

// Narrows or widens a (wider or narrower) integer to the integer type `to`, with its range check.
llvm::Value* to_integer_type(CodegenContext& context, llvm::Value* value, llvm::Value* null,
                             const SqlType& to) {
  unsigned bits = integer_bits(to);
  if (value->getType()->getIntegerBitWidth() > bits) {
    int128_t max = (int128_t{1} << (bits - 1)) - 1;
    check_range(context, value, -max - 1, max, null, integer_overflow_message(to));
  }
  return context.builder().CreateSExtOrTrunc(value, context.register_type(to));
}

// rint() rounding (half to even), then a range check that also rejects NaN.
llvm::Value* double_to_integer(CodegenContext& context, SqlValue value, const SqlType& to) {
  auto& builder = context.builder();
  llvm::Value* rounded = builder.CreateUnaryIntrinsic(llvm::Intrinsic::rint, value.value);
  double limit = static_cast<double>(int128_t{1} << (integer_bits(to) - 1));
  llvm::Value* inside = builder.CreateAnd(
      builder.CreateFCmpOGE(rounded, llvm::ConstantFP::get(rounded->getType(), -limit)),
      builder.CreateFCmpOLT(rounded, llvm::ConstantFP::get(rounded->getType(), limit)));
  context.fail_if(unless_null(context, builder.CreateNot(inside), value.null),
                  integer_overflow_message(to));
  // Out-of-range conversions are poison; NULL rows may carry any bits.
  return builder.CreateFreeze(builder.CreateFPToSI(rounded, context.register_type(to)));
}

llvm::Value* decimal_to_double(CodegenContext& context, llvm::Value* value, const SqlType& from) {
  auto& builder = context.builder();
  llvm::Value* converted = builder.CreateSIToFP(value, builder.getDoubleTy());
  if (from.scale == 0) return converted;
  auto divisor = static_cast<double>(power_of_ten(from.scale));
  return builder.CreateFDiv(converted, llvm::ConstantFP::get(builder.getDoubleTy(), divisor));
}

llvm::Value* date_to_timestamp(CodegenContext& context, SqlValue value) {
  auto& builder = context.builder();
  return checked_integer_op(context, llvm::Intrinsic::smul_with_overflow,
                            builder.CreateSExt(value.value, builder.getInt64Ty()),
                            builder.getInt64(kMicrosPerDay), value.null,
                            "date out of range for timestamp");
}

// Floor division: timestamps before 1970 belong to the earlier day.
llvm::Value* timestamp_to_date(CodegenContext& context, llvm::Value* micros) {
  auto& builder = context.builder();
  llvm::Value* day = builder.getInt64(kMicrosPerDay);
  llvm::Value* quotient = builder.CreateSDiv(micros, day);
  llvm::Value* negative_rest =
      builder.CreateICmpSLT(builder.CreateSRem(micros, day), builder.getInt64(0));
  quotient = builder.CreateSub(quotient, builder.CreateZExt(negative_rest, builder.getInt64Ty()));
  return builder.CreateTrunc(quotient, builder.getInt32Ty());
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
      return to_integer_type(
          context, parse_text(context, "floe_rt_cast_string_to_int64", text, builder.getInt64Ty()),
          nullptr, to);
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

std::string integer_overflow_message(const SqlType& type) {
  switch (type.id) {
    case TypeId::kSmallInt:
      return "smallint out of range";
    case TypeId::kInteger:
      return "integer out of range";
    default:
      return "bigint out of range";
  }
}

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
        case CastFamily::kInteger: {
          // Rounded to scale 0 as numeric(38,0) (always fits), then range-checked.
          SqlValue whole = convert_decimal(context, value, from.precision, from.scale,
                                           SqlType::decimal(kMaxDecimalPrecision, 0));
          return {to_integer_type(context, whole.value, null, to), null};
        }
        case CastFamily::kDecimal:
          return convert_decimal(context, value, from.precision, from.scale, to);
        case CastFamily::kDouble:
          return {decimal_to_double(context, value.value, from), null};
        default:
          break;
      }
      break;
    case CastFamily::kDouble:
      switch (target) {
        case CastFamily::kInteger:
          return {double_to_integer(context, value, to), null};
        case CastFamily::kDecimal:
          // PostgreSQL converts through the double's text form; so does this.
          return via_runtime([&] {
            llvm::Value* text = to_text(context, value.value, from, SqlType::text());
            return from_text(context, text, SqlType::text(), to);
          });
        default:
          break;
      }
      break;
    case CastFamily::kDate:
      if (target == CastFamily::kTimestamp) return {date_to_timestamp(context, value), null};
      break;
    case CastFamily::kTimestamp:
      if (target == CastFamily::kDate) return {timestamp_to_date(context, value.value), null};
      break;
    case CastFamily::kInterval:
    case CastFamily::kString:
      break;
  }
  unsupported_cast(from, to);
}

}  // namespace floe::codegen
