// The vectorized pipeline sources (chunk_operator.h): a table scan, VALUES and
// generate_series, each over one morsel of its pipeline.
#pragma once

#include <memory>

#include "engine/vector/chunk_operator.h"

namespace floe::vectorized {

// Table scan (codegen/scan_translator.cpp): the worker's TableScanner of the scan's
// kScanCursors slot hands out batches (hot chunks, Data Blocks, index scans, restrictions
// applied when pushed), each wrapped as a chunk without copying; the scan's filters (and, in
// JIT-scan mode, its restrictions) then narrow the chunk's selection.
std::unique_ptr<ChunkSource> make_scan_source(const PipelineContext& context,
                                              const plan::ScanOp& scan);
// VALUES (codegen/values_translator.cpp): the morsel's rows, each row's expressions
// evaluated by the expression executor.
std::unique_ptr<ChunkSource> make_values_source(const PipelineContext& context,
                                                const plan::ValuesOp& values);
// generate_series (codegen/series_translator.cpp): the values with ordinals in the morsel,
// and WITH ORDINALITY their numbers (ordinal + 1).
std::unique_ptr<ChunkSource> make_series_source(const PipelineContext& context,
                                                const plan::SeriesOp& series);

}  // namespace floe::vectorized
