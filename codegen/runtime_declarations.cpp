#include "codegen/runtime_declarations.h"

#include <llvm/IR/DerivedTypes.h>

#include <unordered_map>

#include "runtime/function_registry.h"
#include "storage/error.h"

namespace floe::codegen {
namespace {

// Signature code: the return type, then one letter per parameter.
// v void, b bool (i1 zeroext), p pointer, i 32-bit int, l 64-bit int, q __int128,
// d double, s FloeString ({i64, i64}, returned in rax:rdx).
const std::unordered_map<std::string, std::string>& signatures() {
  static const std::unordered_map<std::string, std::string> table = {
      {"floe_rt_fail", "vpp"},
      {"floe_rt_check_canceled", "bp"},
      {"floe_rt_scan_open", "bpll"},
      {"floe_rt_scan_next", "ipp"},
      {"floe_rt_join_insert", "pppl"},
      {"floe_rt_join_lookup", "ppl"},
      {"floe_rt_join_next", "ppl"},
      {"floe_rt_join_payload", "pp"},
      {"floe_rt_join_slot_chain", "ppl"},
      {"floe_rt_join_first", "pp"},
      {"floe_rt_join_following", "ppp"},
      {"floe_rt_concise_insert", "ppplp"},
      {"floe_rt_concise_lookup", "pplpp"},
      {"floe_rt_concise_next", "pplpp"},
      {"floe_rt_concise_may_contain", "bplp"},
      {"floe_rt_concise_row", "ppl"},
      {"floe_rt_agg_lookup", "pppl"},
      {"floe_rt_agg_next", "ppl"},
      {"floe_rt_agg_insert", "pppl"},
      {"floe_rt_agg_payload", "pp"},
      {"floe_rt_agg_global_group", "ppp"},
      {"floe_rt_agg_row", "ppl"},
      {"floe_rt_rows_append", "ppp"},
      {"floe_rt_rows_at", "ppl"},
      {"floe_rt_hash_string", "llll"},
      {"floe_rt_string_equal", "bllll"},
      {"floe_rt_string_compare", "illll"},
      {"floe_rt_like", "bpll"},
      {"floe_rt_cast_string_to_integer", "bpllip"},
      {"floe_rt_cast_string_to_double", "bpllp"},
      {"floe_rt_cast_string_to_decimal", "bplliip"},
      {"floe_rt_cast_string_to_date", "bpllp"},
      {"floe_rt_cast_string_to_timestamp", "bpllp"},
      {"floe_rt_cast_string_to_bool", "bpllp"},
      {"floe_rt_cast_string_to_string", "sllib"},
      {"floe_rt_cast_int64_to_string", "spl"},
      {"floe_rt_cast_double_to_string", "spd"},
      {"floe_rt_cast_decimal_to_string", "spqi"},
      {"floe_rt_cast_date_to_string", "spi"},
      {"floe_rt_cast_timestamp_to_string", "spl"},
      {"floe_rt_cast_bool_to_string", "spb"},
      {"floe_rt_cast_string_to_interval", "bpllp"},
      {"floe_rt_cast_interval_to_string", "spiil"},
      {"floe_rt_cast_double_to_integer", "bpdip"},
      {"floe_rt_cast_decimal_to_integer", "bpqiip"},
      {"floe_rt_cast_decimal_to_double", "dqi"},
      {"floe_rt_cast_double_to_decimal", "bpdiip"},
      {"floe_rt_cast_date_to_timestamp", "bpip"},
      {"floe_rt_cast_timestamp_to_date", "il"},
      {"floe_rt_decimal_rescale", "bpqiiip"},
      {"floe_rt_variance_exact", "dlqqii"},
      {"floe_rt_variance_double", "dldi"},
      {"floe_rt_average_exact", "dqli"},
      {"floe_rt_variance_add_double", "vpppd"},
      {"floe_rt_variance_add_exact", "bppppq"},
      {"floe_rt_variance_combine_double", "vpppppp"},
      {"floe_rt_variance_combine_exact", "bppppppp"},
      {"floe_rt_collect", "vpppbppi"},
      {"floe_rt_collect_merge", "vpp"},
      {"floe_rt_string_agg", "sppi"},
      {"floe_rt_percentile_cont", "bppdip"},
      {"floe_rt_percentile_disc", "bppdip"},
      {"floe_rt_mode", "vpip"},
      {"floe_rt_extract_date", "lii"},
      {"floe_rt_extract_timestamp", "lil"},
      {"floe_rt_extract_interval", "qiiil"},
      {"floe_rt_interval_multiply", "bpiildp"},
      {"floe_rt_interval_divide", "bpiildp"},
      {"floe_rt_date_add_months", "iii"},
      {"floe_rt_timestamp_add_interval", "lliil"},
      {"floe_rt_table_function_open", "ppppp"},
      {"floe_rt_table_function_next", "ippp"},
  };
  return table;
}

llvm::Type* type_of(char code, llvm::LLVMContext& context) {
  switch (code) {
    case 'v':
      return llvm::Type::getVoidTy(context);
    case 'b':
      return llvm::Type::getInt1Ty(context);
    case 'p':
      return llvm::PointerType::get(context, 0);
    case 'i':
      return llvm::Type::getInt32Ty(context);
    case 'l':
      return llvm::Type::getInt64Ty(context);
    case 'q':
      return llvm::Type::getInt128Ty(context);
    case 'd':
      return llvm::Type::getDoubleTy(context);
    case 's': {
      auto* i64 = llvm::Type::getInt64Ty(context);
      return llvm::StructType::get(context, {i64, i64});
    }
  }
  throw Error("internal error: bad runtime signature code");
}

}  // namespace

llvm::FunctionCallee declare_runtime_function(llvm::Module& module, const std::string& name) {
  // Registry functions all have the thunk signature bool(WorkerContext*, slots*, result*).
  static const std::string kFunctionThunk = "bppp";
  auto found = signatures().find(name);
  const std::string* code_ptr = found != signatures().end() ? &found->second : nullptr;
  if (!code_ptr && function_registry().by_symbol(name)) code_ptr = &kFunctionThunk;
  if (!code_ptr) throw Error("internal error: unknown runtime function " + name);
  if (auto* existing = module.getFunction(name)) return existing;
  const std::string& code = *code_ptr;
  auto& context = module.getContext();
  std::vector<llvm::Type*> parameters;
  for (size_t i = 1; i < code.size(); ++i) parameters.push_back(type_of(code[i], context));
  auto* type = llvm::FunctionType::get(type_of(code[0], context), parameters, false);
  auto* function = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, module);
  // C++ bools are one byte holding 0 or 1: the caller must widen i1 arguments.
  if (code[0] == 'b') function->addRetAttr(llvm::Attribute::ZExt);
  for (size_t i = 1; i < code.size(); ++i) {
    if (code[i] == 'b') function->addParamAttr(static_cast<unsigned>(i - 1), llvm::Attribute::ZExt);
  }
  return function;
}

std::vector<std::string> declared_runtime_functions() {
  std::vector<std::string> names;
  for (const auto& [name, code] : signatures()) names.push_back(name);
  return names;
}

}  // namespace floe::codegen
