// Sequence options as CREATE SEQUENCE and identity columns write them (AS type, INCREMENT,
// MINVALUE, MAXVALUE, START, CACHE, [NO] CYCLE), checked with PostgreSQL's messages
// (init_params in sequence.c), and the sequences that serial and identity columns own.
#pragma once

#include "engine/sql/pg_node.h"
#include "storage/catalog.h"

namespace floe {

// `options`: DefElem nodes. `type`: the sequence's data type unless an AS option names one
// (smallint, integer or bigint): its range bounds MINVALUE and MAXVALUE.
SequenceOptions sequence_options(const sql::Node* const* options, size_t count, SqlType type);

// The sequence of a serial or identity column `column` of `table`, named as PostgreSQL does
// (table_column_seq, with a number when that is taken), created in the catalog.
Sequence& create_owned_sequence(Catalog& catalog, const std::string& table,
                                const std::string& column, const SequenceOptions& options);

}  // namespace floe
