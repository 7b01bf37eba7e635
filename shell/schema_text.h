// CREATE TABLE text of a catalog table, for the shell's .schema command.
#pragma once

#include <string>

#include "storage/table.h"

namespace floe {

std::string create_table_text(const Table& table);

}  // namespace floe
