// Equality of parse trees up to their positions: PostgreSQL matches a select-list expression
// with a GROUP BY expression by equality (parse_agg.c), wherever in the text each stands.
#pragma once

#include <pg_query/pg_query.pb-c.h>

namespace floe::sql {

// Whether the two messages (nodes and everything below them) are equal, ignoring every
// `location` field. Either may be null.
bool same_parse_tree(const ProtobufCMessage* a, const ProtobufCMessage* b);

}  // namespace floe::sql
