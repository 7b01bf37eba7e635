// The copies of INTERSECT ALL / EXCEPT ALL (codegen/repeat_translator.cpp) in the vectorized
// engine: each input row passed on `count` times (none for a NULL or a count below 1).
#pragma once

#include <memory>

#include "engine/vector/chunk_operator.h"

namespace floe::vectorized {

std::unique_ptr<ChunkOperator> make_repeat(const PipelineContext& context,
                                           const plan::RepeatOp& repeat, const ChunkColumns& input);

}  // namespace floe::vectorized
