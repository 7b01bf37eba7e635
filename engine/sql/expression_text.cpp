#include "engine/sql/expression_text.h"

#include <pg_query.h>

#include <functional>
#include <memory>
#include <vector>

#include "storage/error.h"

namespace floe::sql {

std::string expression_text(const Node* expression) {
  // SELECT <expression>, deparsed; the text after "SELECT " is the expression.
  PgQuery__ResTarget target = PG_QUERY__RES_TARGET__INIT;
  target.val = const_cast<Node*>(expression);
  PgQuery__Node target_node = PG_QUERY__NODE__INIT;
  target_node.node_case = PG_QUERY__NODE__NODE_RES_TARGET;
  target_node.res_target = &target;
  PgQuery__Node* targets[] = {&target_node};
  PgQuery__SelectStmt select = PG_QUERY__SELECT_STMT__INIT;
  select.n_target_list = 1;
  select.target_list = targets;
  select.limit_option = PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_DEFAULT;
  select.op = PG_QUERY__SET_OPERATION__SETOP_NONE;
  PgQuery__Node statement = PG_QUERY__NODE__INIT;
  statement.node_case = PG_QUERY__NODE__NODE_SELECT_STMT;
  statement.select_stmt = &select;
  PgQuery__RawStmt raw = PG_QUERY__RAW_STMT__INIT;
  raw.stmt = &statement;
  PgQuery__RawStmt* statements[] = {&raw};
  PgQuery__ParseResult result = PG_QUERY__PARSE_RESULT__INIT;
  result.version = PG_VERSION_NUM;
  result.n_stmts = 1;
  result.stmts = statements;
  std::string packed(pg_query__parse_result__get_packed_size(&result), '\0');
  pg_query__parse_result__pack(&result, reinterpret_cast<uint8_t*>(packed.data()));
  PgQueryDeparseResult deparsed = pg_query_deparse_protobuf({packed.size(), packed.data()});
  std::unique_ptr<PgQueryDeparseResult, void (*)(PgQueryDeparseResult*)> guard(
      &deparsed, [](PgQueryDeparseResult* r) { pg_query_free_deparse_result(*r); });
  if (deparsed.error)
    throw Error(std::string("cannot print expression: ") + deparsed.error->message);
  constexpr std::string_view kPrefix = "SELECT ";
  std::string text = deparsed.query;
  if (text.rfind(kPrefix, 0) != 0) throw Error("cannot print expression: " + text);
  return text.substr(kPrefix.size());
}

namespace {

// Calls `visit` on every message of a parse tree, through protobuf-c's descriptors.
void visit_messages(ProtobufCMessage* message,
                    const std::function<void(ProtobufCMessage*)>& visit) {
  visit(message);
  const ProtobufCMessageDescriptor* descriptor = message->descriptor;
  auto* base = reinterpret_cast<uint8_t*>(message);
  for (unsigned i = 0; i < descriptor->n_fields; ++i) {
    const ProtobufCFieldDescriptor& field = descriptor->fields[i];
    if (field.type != PROTOBUF_C_TYPE_MESSAGE) continue;
    if (field.label == PROTOBUF_C_LABEL_REPEATED) {
      size_t count = *reinterpret_cast<size_t*>(base + field.quantifier_offset);
      auto* items = *reinterpret_cast<ProtobufCMessage***>(base + field.offset);
      for (size_t k = 0; k < count; ++k)
        if (items[k]) visit_messages(items[k], visit);
    } else if (auto* child = *reinterpret_cast<ProtobufCMessage**>(base + field.offset)) {
      visit_messages(child, visit);
    }
  }
}

}  // namespace

std::string rename_column_references(const std::string& text, const std::string& from,
                                     const std::string& to) {
  ParsedExpression parsed(text);
  std::string renamed = to;
  // The tree frees its strings: the renamed ones get their own pointers back afterwards.
  std::vector<std::pair<PgQuery__String*, char*>> originals;
  visit_messages(const_cast<ProtobufCMessage*>(&parsed.node()->base), [&](ProtobufCMessage* m) {
    if (m->descriptor != &pg_query__column_ref__descriptor) return;
    auto* ref = reinterpret_cast<PgQuery__ColumnRef*>(m);
    Node* last = ref->fields[ref->n_fields - 1];
    if (last->node_case != PG_QUERY__NODE__NODE_STRING || last->string->sval != from) return;
    originals.emplace_back(last->string, last->string->sval);
    last->string->sval = renamed.data();
  });
  std::string result;
  try {
    result = expression_text(parsed.node());
  } catch (...) {
    for (auto [string, original] : originals) string->sval = original;
    throw;
  }
  for (auto [string, original] : originals) string->sval = original;
  return result;
}

ParsedExpression::ParsedExpression(const std::string& text) : tree_("SELECT " + text) {
  node_ = tree_.statement(0).stmt->select_stmt->target_list[0]->res_target->val;
}

}  // namespace floe::sql
