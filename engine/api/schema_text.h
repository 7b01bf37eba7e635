// CREATE TABLE text of a catalog table, for the shell's .schema command
// (Database::table_definition).
#pragma once

#include <string>

#include "storage/table.h"

namespace floe {

std::string create_table_text(const Table& table);

}  // namespace floe
