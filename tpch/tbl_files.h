// Writes dbgen-identical .tbl files: the rows are generated in chunks in parallel and
// written in order.
#pragma once

#include <string>

namespace floe::tpch {

// Writes <directory>/<table>.tbl for the eight tables (the directory must exist).
// `threads` = 0 uses all cores. Throws floe::Error on I/O errors.
void write_tbl_files(double scale_factor, const std::string& directory, int threads = 0);

}  // namespace floe::tpch
