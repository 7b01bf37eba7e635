// Small accessors over libpg_query's protobuf nodes.
#pragma once

#include <string>
#include <string_view>

#include <pg_query/pg_query.pb-c.h>

namespace floe::sql {

using Node = PgQuery__Node;

// The text of a String node ("" for anything else).
std::string_view node_string(const Node* node);
// Names such as {"pg_catalog", "sum"} joined by '.', e.g. for function and type names.
std::string qualified_name(Node* const* names, size_t count);
// The last part of a qualified name ("sum" of "pg_catalog.sum").
std::string_view last_name(Node* const* names, size_t count);
// The node's `location` field where it has one, else -1.
int node_location(const Node* node);
// Integer value of an A_Const integer node; throws floe::Error otherwise.
int64_t constant_integer(const Node* node, const char* what);

}  // namespace floe::sql
