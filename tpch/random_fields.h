// Small dbgen column helpers shared by several tables (bm_utils.c, build.c).
#pragma once

#include <cstdint>
#include <string>

#include "tpch/random_stream.h"
#include "tpch/text_pool.h"

namespace floe::tpch {

// Random characters from [0-9a-zA-Z ,] with a random length in `length` (dbgen's a_rnd):
// one draw for the length and one per five characters.
void random_alphanumeric(RandomStream& stream, LengthRange length, std::string& out);

// "CC-AAA-EEE-NNNN" with country code 10 + nation key: three draws.
void random_phone(RandomStream& stream, int64_t nation_key, std::string& out);

// "<tag><key zero-padded to `digits`>", e.g. "Customer#000000001".
void tagged_key(std::string_view tag, int64_t key, int digits, std::string& out);

}  // namespace floe::tpch
