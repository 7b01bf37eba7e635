// Shared by the CHT and CAT unit tests: build rows (key, id), inserted by several threads
// as several workers, and the std::unordered_multimap model they are checked against.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <thread>
#include <unordered_map>
#include <vector>

namespace floe::join_table_test {

// A build row's payload: its key (CHT callers compare keys themselves) and a row id.
struct Payload {
  int64_t key;
  int64_t id;
};

struct BuildRow {
  int64_t key;
  int64_t id;
};

using Model = std::unordered_multimap<int64_t, int64_t>;

inline Model model_of(const std::vector<BuildRow>& rows) {
  Model model;
  for (const BuildRow& row : rows) model.emplace(row.key, row.id);
  return model;
}

// The ids the model holds for `key`, sorted.
inline std::vector<int64_t> model_ids(const Model& model, int64_t key) {
  std::vector<int64_t> ids;
  auto [begin, end] = model.equal_range(key);
  for (auto it = begin; it != end; ++it) ids.push_back(it->second);
  std::sort(ids.begin(), ids.end());
  return ids;
}

// Inserts rows [0, count) with `workers` threads, worker w taking every workers-th row from w:
// insert(worker, index) runs on the worker's own thread.
template <typename Insert>
void insert_in_parallel(uint32_t workers, size_t count, const Insert& insert) {
  std::vector<std::thread> threads;
  for (uint32_t w = 0; w < workers; ++w) {
    threads.emplace_back([w, workers, count, &insert] {
      for (size_t i = w; i < count; i += workers) insert(w, i);
    });
  }
  for (std::thread& thread : threads) thread.join();
}

inline void store(uint8_t* payload, const BuildRow& row) {
  Payload stored{row.key, row.id};
  std::memcpy(payload, &stored, sizeof stored);
}

inline Payload load(const uint8_t* payload) {
  Payload loaded;
  std::memcpy(&loaded, payload, sizeof loaded);
  return loaded;
}

}  // namespace floe::join_table_test
