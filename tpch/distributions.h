// Weighted word lists of dbgen's dists.dss, compiled into dists_data.cpp by make_dists.py.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "tpch/random_stream.h"

namespace floe::tpch {

struct DistributionEntry {
  std::string_view text;
  int32_t cumulative_weight;  // sum of the weights of this entry and all before it
};

struct Distribution {
  std::span<const DistributionEntry> entries;
};

// The index of a weighted random entry (dbgen's pick_str): one draw.
size_t pick_index(const Distribution& distribution, RandomStream& stream);

inline std::string_view pick(const Distribution& distribution, RandomStream& stream) {
  return distribution.entries[pick_index(distribution, stream)].text;
}

namespace dists {
// Column values.
extern const Distribution p_cntr, colors, p_types, nations, regions, o_oprio, instruct, smode,
    rflag, msegmnt;
// The grammar and vocabulary of comment text (text_pool.cpp).
extern const Distribution nouns, verbs, adjectives, adverbs, auxillaries, terminators, articles,
    prepositions, grammar, np, vp;
}  // namespace dists

}  // namespace floe::tpch
