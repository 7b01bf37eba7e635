// How PostgreSQL prints a name in messages and DDL (quote_identifier): as is when it reads
// back as the same identifier, otherwise in double quotes.
#pragma once

#include <string>

namespace floe {

std::string quote_identifier(const std::string& name);

}  // namespace floe
