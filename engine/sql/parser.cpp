#include "engine/sql/parser.h"

#include <pg_query.h>

#include "storage/error.h"
#include "storage/utf8.h"

namespace floe::sql {

ParseTree::ParseTree(std::string_view sql) {
  // SQL text comes from outside: like PostgreSQL's server, accept only valid UTF-8 (this
  // also rejects a NUL byte, which would end the C string below).
  check_utf8(sql);
  std::string text(sql);
  PgQueryProtobufParseResult parsed = pg_query_parse_protobuf(text.c_str());
  if (parsed.error) {
    std::string message = parsed.error->message;
    // PostgreSQL's cursor position counts characters from 1; floe's positions are bytes.
    int position = parsed.error->cursorpos > 0
                       ? static_cast<int>(utf8_prefix_bytes(sql, parsed.error->cursorpos - 1))
                       : -1;
    pg_query_free_protobuf_parse_result(parsed);
    throw Error(message, position);
  }
  result_ = pg_query__parse_result__unpack(
      nullptr, parsed.parse_tree.len, reinterpret_cast<const uint8_t*>(parsed.parse_tree.data));
  pg_query_free_protobuf_parse_result(parsed);
  if (!result_) throw Error("could not decode the parse tree");
}

ParseTree::~ParseTree() {
  pg_query__parse_result__free_unpacked(result_, nullptr);
}

}  // namespace floe::sql
