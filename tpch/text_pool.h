// Comment columns: dbgen (text.c) first writes a 300 MiB pool of pseudo-English sentences
// from a grammar, then takes each comment as a random substring of that pool.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "tpch/random_stream.h"

namespace floe::tpch {

constexpr int64_t kTextPoolSize = 300 * 1024 * 1024;

// The pool, built on first use (a few seconds; thread-safe) and kept for the process.
// `poll` (optional) is called every few milliseconds while the pool is built; when it
// throws, the exception passes on and a later call builds the pool again.
std::string_view text_pool(const std::function<void()>& poll = {});

// Length bounds of a variable-length column with average length `average`: dbgen's
// [0.4 * average, 1.6 * average], truncated.
struct LengthRange {
  int min;
  int max;
};
LengthRange variable_length(int average);

// A comment (dbgen's dbg_text): a pool substring of random offset and length. Two draws.
std::string_view random_text(RandomStream& stream, LengthRange length);

}  // namespace floe::tpch
