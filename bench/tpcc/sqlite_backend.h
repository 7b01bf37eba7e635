// SQLite (Debian's libsqlite3) as the peer: one in-memory database shared by one connection
// per thread (shared cache), prepared statements, the default in-memory rollback journal (no
// WAL). Transactions start with BEGIN IMMEDIATE: SQLite has one writer at a time, so a
// second thread waits at BEGIN rather than aborting halfway.
#pragma once

#include <memory>

#include "bench/tpcc/tpcc_backend.h"

namespace floe::tpcc {

std::unique_ptr<Backend> make_sqlite_backend();

}  // namespace floe::tpcc
