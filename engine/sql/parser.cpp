#include "engine/sql/parser.h"

#include <pg_query.h>

#include "engine/sql/parse_depth.h"
#include "storage/error.h"
#include "storage/stack_depth.h"
#include "storage/utf8.h"

namespace floe::sql {

namespace {

// libpg_query's error as floe::Error. PostgreSQL's cursor position counts characters from 1;
// floe's positions are bytes.
Error parse_error(const PgQueryError& error, std::string_view sql) {
  int position =
      error.cursorpos > 0 ? static_cast<int>(utf8_prefix_bytes(sql, error.cursorpos - 1)) : -1;
  return Error(error.message, position);
}

}  // namespace

ParseTree::ParseTree(std::string_view sql) {
  // SQL text comes from outside: like PostgreSQL's server, accept only valid UTF-8 (this
  // also rejects a NUL byte, which would end the C string below).
  check_utf8(sql);
  std::string text(sql);
  if (!parse_fits_stack(sql)) {
    // Too deep to become a tree on this stack. PostgreSQL's grammar alone does not recurse,
    // so syntax errors (bison's "memory exhausted" among them) still come first, as there.
    PgQuerySplitResult split = pg_query_split_with_parser(text.c_str());
    if (!split.error) {
      pg_query_free_split_result(split);
      throw StackDepthExceeded();
    }
    Error error = parse_error(*split.error, sql);
    pg_query_free_split_result(split);
    throw error;
  }
  PgQueryProtobufParseResult parsed = pg_query_parse_protobuf(text.c_str());
  if (parsed.error) {
    Error error = parse_error(*parsed.error, sql);
    pg_query_free_protobuf_parse_result(parsed);
    throw error;
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
