#include "engine/sql/parser.h"

#include <pg_query.h>

#include "storage/error.h"

namespace floe::sql {

ParseTree::ParseTree(std::string_view sql) {
  std::string text(sql);
  PgQueryProtobufParseResult parsed = pg_query_parse_protobuf(text.c_str());
  if (parsed.error) {
    std::string message = parsed.error->message;
    int position = parsed.error->cursorpos > 0 ? parsed.error->cursorpos - 1 : -1;
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
