// The vectorized hash join (X100 thesis §5.3; DESIGN.md "Hash join"): the build pipeline's
// sink, the probe operator of every join kind and the source of a right/full outer join's
// unmatched build rows. They fill and read the same runtime tables as generated code
// (codegen/hash_join_translator.cpp, mark_join_translator.cpp, join_table_codegen.cpp):
// chaining, CHT or CAT, the payload of the physical description's Materialization (keys
// first, the "matched" byte last where the probe marks build rows), so both engines give the
// same rows.
#pragma once

#include <memory>

#include "engine/vector/chunk_operator.h"

namespace floe::vectorized {

// The build side (PipelineDescription::Sink::kJoinBuild): per chunk, the keys are hashed
// (key_hash.h) and the rows scattered (row_scatter.h) into the worker's part of the table;
// the executor finalizes the table after the pipeline. Rows with a NULL key are not stored,
// except by the joins that keep every build row (right/full outer, right semi/anti) and in
// the mark keys of a mark join; the null-aware anti join records that the build side has rows
// and NULL keys in its counters.
std::unique_ptr<ChunkConsumer> make_join_build(const PipelineContext& context,
                                               const plan::JoinOp& join, const ChunkColumns& input);

// The probe (a kJoin in Pipeline::operators), by join kind; a mark join's is mark_join.cpp's.
std::unique_ptr<ChunkOperator> make_join_probe(const PipelineContext& context,
                                               const plan::JoinOp& join, const ChunkColumns& input);
std::unique_ptr<ChunkOperator> make_mark_join_probe(const PipelineContext& context,
                                                    const plan::JoinOp& join,
                                                    const ChunkColumns& input);

// The early bitmap filter before the pipeline's operator at `position`, its first CHT/CAT
// join (engine/plan/bitmap_filter_joins.h); null where fewer than two joins take part.
std::unique_ptr<ChunkOperator> make_bitmap_filter(const PipelineContext& context,
                                                  const plan::Pipeline& pipeline, size_t position,
                                                  const ChunkColumns& input);

// The build rows a right/full outer join's probe left unmatched (a right semi join: those it
// matched), with NULL probe columns (PipelineDescription::Source::kJoinUnmatched): morsels
// are directory slots of a chaining table, rows of a CHT/CAT.
std::unique_ptr<ChunkSource> make_join_unmatched_source(const PipelineContext& context,
                                                        const plan::JoinOp& join);

}  // namespace floe::vectorized
