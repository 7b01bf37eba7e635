#include <gtest/gtest.h>

#include <cstring>
#include <map>

#include "runtime/hash.h"
#include "runtime/join_hash_table.h"
#include "runtime/query_context.h"
#include "runtime/runtime_abi.h"

namespace floe {
namespace {

struct Payload {
  int64_t key;
  int64_t value;
};

using HashFn = uint64_t (*)(int64_t);

uint64_t good_hash(int64_t key) {
  return mix_hash(static_cast<uint64_t>(key));
}
uint64_t identity_hash(int64_t key) {
  return static_cast<uint64_t>(key);
}
uint64_t high_bits_hash(int64_t key) {
  return static_cast<uint64_t>(key) << 40;
}

// Sum of the values of all entries with `key`, walking the chain as generated code does.
int64_t probe(JoinHashTable& table, int64_t key, HashFn hash_fn, int& matches) {
  uint64_t hash = hash_fn(key);
  int64_t sum = 0;
  matches = 0;
  for (JoinEntry* entry = floe_rt_join_lookup(&table, hash); entry;
       entry = floe_rt_join_next(entry, hash)) {
    EXPECT_EQ(entry->hash, hash);
    Payload payload;
    std::memcpy(&payload, floe_rt_join_payload(entry), sizeof payload);
    if (payload.key != key) continue;  // equal hash, different key
    sum += payload.value;
    ++matches;
  }
  return sum;
}

class JoinHashTableTest : public ::testing::TestWithParam<HashFn> {};

TEST_P(JoinHashTableTest, FindsEveryDuplicateAndNoAbsentKey) {
  HashFn hash_fn = GetParam();
  QueryContext query(2);
  JoinHashTable table(sizeof(Payload), 2);
  EXPECT_EQ(table.payload_size(), sizeof(Payload));
  // Even keys 0..19998, key k inserted k % 3 + 1 times, spread over two workers.
  std::map<int64_t, std::pair<int64_t, int>> expected;
  uint64_t inserted = 0;
  for (int64_t key = 0; key < 20000; key += 2) {
    for (int copy = 0; copy <= key % 3; ++copy) {
      WorkerContext* worker = &query.worker(static_cast<uint32_t>(inserted++ % 2));
      uint8_t* payload = floe_rt_join_insert(&table, worker, hash_fn(key));
      EXPECT_EQ(reinterpret_cast<uintptr_t>(payload) % 8, 0u);
      Payload row{key, key * 10 + copy};
      std::memcpy(payload, &row, sizeof row);
      expected[key].first += row.value;
      expected[key].second += 1;
    }
  }
  table.finalize();
  EXPECT_EQ(table.size(), inserted);
  for (int64_t key = -5; key < 20005; ++key) {
    int matches;
    int64_t sum = probe(table, key, hash_fn, matches);
    auto it = expected.find(key);
    if (it == expected.end()) {
      EXPECT_EQ(matches, 0) << key;
    } else {
      EXPECT_EQ(matches, it->second.second) << key;
      EXPECT_EQ(sum, it->second.first) << key;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(HashShapes, JoinHashTableTest,
                         ::testing::Values(&good_hash, &identity_hash, &high_bits_hash));

TEST(JoinHashTableEdgeTest, CollidingHashesAreTellApartByKey) {
  JoinHashTable table(sizeof(Payload), 1);
  for (int64_t key = 0; key < 100; ++key) {
    Payload row{key, key};
    std::memcpy(table.insert(0, 42), &row, sizeof row);
  }
  table.finalize();
  int matches;
  EXPECT_EQ(probe(
                table, 17, [](int64_t) -> uint64_t { return 42; }, matches),
            17);
  EXPECT_EQ(matches, 1);
  int chain = 0;
  for (JoinEntry* e = table.lookup(42); e; e = JoinHashTable::next(e, 42)) ++chain;
  EXPECT_EQ(chain, 100);
  EXPECT_EQ(table.lookup(43), nullptr);
}

TEST(JoinHashTableEdgeTest, EmptyTable) {
  JoinHashTable table(8, 3);
  table.prefetch(1);  // the vectorized probe's first pass, on any table
  EXPECT_EQ(table.lookup(1), nullptr);  // before finalize
  table.finalize();
  EXPECT_EQ(table.size(), 0u);
  table.prefetch(~uint64_t{0});
  EXPECT_EQ(table.lookup(0), nullptr);
  EXPECT_EQ(table.lookup(~uint64_t{0}), nullptr);
}

}  // namespace
}  // namespace floe
