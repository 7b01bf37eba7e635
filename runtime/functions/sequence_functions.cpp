// nextval, currval, setval and lastval: volatile (never folded), and served by the sequence
// session the query runs in (storage/sequence_session.h). A sequence is named by text, as
// PostgreSQL's regclass literal ('s', '"S"').
#include "runtime/function_adapter.h"
#include "runtime/functions/function_families.h"
#include "storage/error.h"

namespace floe {

namespace {

SequenceSession& session(QueryContext& query, const char* function) {
  if (!query.sequences()) throw Error(std::string(function) + " needs a connection's session");
  return *query.sequences();
}

int64_t nextval(QueryContext& query, std::string_view name) {
  return session(query, "nextval").nextval(name);
}

int64_t currval(QueryContext& query, std::string_view name) {
  return session(query, "currval").currval(name);
}

int64_t lastval(QueryContext& query) {
  return session(query, "lastval").lastval();
}

int64_t setval(QueryContext& query, std::string_view name, int64_t value) {
  return session(query, "setval").setval(name, value, true);
}

int64_t setval_called(QueryContext& query, std::string_view name, int64_t value, bool is_called) {
  return session(query, "setval").setval(name, value, is_called);
}

}  // namespace

void register_sequence_functions(FunctionRegistry& r) {
  const ResultTypeRule bigint = returns(SqlType::big_int());
  r.add("nextval", {TypeId::kText}, bigint, volatile_function<nextval>);
  r.add("currval", {TypeId::kText}, bigint, volatile_function<currval>);
  r.add("lastval", {}, bigint, volatile_function<lastval>);
  r.add("setval", {TypeId::kText, TypeId::kBigInt}, bigint, volatile_function<setval>);
  r.add("setval", {TypeId::kText, TypeId::kBigInt, TypeId::kBoolean}, bigint,
        volatile_function<setval_called>);
}

}  // namespace floe
