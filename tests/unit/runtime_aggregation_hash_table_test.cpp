#include <gtest/gtest.h>

#include <cstring>
#include <map>

#include "runtime/aggregation_hash_table.h"
#include "runtime/hash.h"
#include "runtime/query_context.h"
#include "runtime/runtime_abi.h"

namespace floe {
namespace {

// Group row as generated code would lay it out: the key, then aggregate states.
struct Group {
  int64_t key;
  int64_t count;
  int64_t sum;
};

bool keys_equal(const uint8_t* a, const uint8_t* b, const void*) {
  return reinterpret_cast<const Group*>(a)->key == reinterpret_cast<const Group*>(b)->key;
}

bool merge_groups(WorkerContext*, uint8_t* into, const uint8_t* from, const void*) {
  auto* target = reinterpret_cast<Group*>(into);
  const auto* source = reinterpret_cast<const Group*>(from);
  target->count += source->count;
  target->sum += source->sum;
  return true;
}

// Sums `value` into the worker's group for `key`, through the ABI as generated code does.
// `hash_of` lets tests force collisions.
Group* aggregate(AggregationHashTable& table, WorkerContext& worker, int64_t key, int64_t value,
                 uint64_t (*hash_of)(int64_t)) {
  uint64_t hash = hash_of(key);
  Group* group = nullptr;
  for (AggregationEntry* entry = floe_rt_agg_lookup(&table, &worker, hash); entry;
       entry = floe_rt_agg_next(entry, hash)) {
    auto* candidate = reinterpret_cast<Group*>(floe_rt_agg_payload(entry));
    if (candidate->key == key) {
      group = candidate;
      break;
    }
  }
  if (!group) {
    group = reinterpret_cast<Group*>(floe_rt_agg_insert(&table, &worker, hash));
    EXPECT_EQ(group->count, 0);  // zeroed
    group->key = key;
  }
  ++group->count;
  group->sum += value;
  return group;
}

uint64_t good_hash(int64_t key) {
  return mix_hash(static_cast<uint64_t>(key));
}
uint64_t few_hashes(int64_t key) {
  return static_cast<uint64_t>(key % 5);
}

std::map<int64_t, Group> collect(AggregationHashTable& table) {
  std::map<int64_t, Group> out;
  for (uint64_t i = 0; i < table.group_count(); ++i) {
    Group group;
    std::memcpy(&group, floe_rt_agg_row(&table, i), sizeof group);
    EXPECT_TRUE(out.emplace(group.key, group).second) << "duplicate group " << group.key;
  }
  return out;
}

TEST(AggregationHashTableTest, GrowsWhileKeepingPayloadAddresses) {
  QueryContext query(1);
  AggregationHashTable table(sizeof(Group), 1);
  constexpr int64_t kKeys = 50000;
  std::vector<Group*> first_address(kKeys);
  for (int64_t round = 0; round < 3; ++round) {
    for (int64_t key = 0; key < kKeys; ++key) {
      Group* group = aggregate(table, query.worker(0), key, key, &good_hash);
      if (round == 0) first_address[key] = group;
      ASSERT_EQ(group, first_address[key]);  // growth never moves an entry
    }
  }
  ASSERT_TRUE(table.merge(&keys_equal, &merge_groups, query));
  ASSERT_EQ(table.group_count(), static_cast<uint64_t>(kKeys));
  // One worker: groups come out in insertion order.
  for (uint64_t i = 0; i < table.group_count(); ++i) {
    const auto* group = reinterpret_cast<const Group*>(table.row(i));
    ASSERT_EQ(group->key, static_cast<int64_t>(i));
    ASSERT_EQ(group->count, 3);
    ASSERT_EQ(group->sum, 3 * group->key);
  }
}

// More groups than the pre-aggregation table holds (2^17): it is flushed, and the merge folds
// a key's groups from before and after each flush, also with a single worker.
TEST(AggregationHashTableTest, FoldsGroupsOfOneKeyAcrossFlushes) {
  QueryContext query(1);
  AggregationHashTable table(sizeof(Group), 1);
  constexpr int64_t kKeys = 300'000;
  for (int64_t round = 0; round < 2; ++round)
    for (int64_t key = 0; key < kKeys; ++key)
      aggregate(table, query.worker(0), key, key, &good_hash);
  ASSERT_TRUE(table.merge(&keys_equal, &merge_groups, query));
  std::map<int64_t, Group> groups = collect(table);
  ASSERT_EQ(groups.size(), static_cast<size_t>(kKeys));
  for (const auto& [key, group] : groups) {
    ASSERT_EQ(group.count, 2) << key;
    ASSERT_EQ(group.sum, 2 * key) << key;
  }
}

TEST(AggregationHashTableTest, MergesTwoWorkersGroups) {
  for (auto hash_of : {&good_hash, &few_hashes}) {
    QueryContext query(2);
    AggregationHashTable table(sizeof(Group), 2);
    // Worker 0 sees keys 0..2999, worker 1 keys 2000..5999: 1000 keys overlap.
    for (int64_t key = 0; key < 3000; ++key) aggregate(table, query.worker(0), key, 1, hash_of);
    for (int64_t key = 2000; key < 6000; ++key) {
      aggregate(table, query.worker(1), key, 10, hash_of);
      aggregate(table, query.worker(1), key, 10, hash_of);
    }
    ASSERT_TRUE(table.merge(&keys_equal, &merge_groups, query));
    std::map<int64_t, Group> groups = collect(table);
    ASSERT_EQ(groups.size(), 6000u);
    for (const auto& [key, group] : groups) {
      bool in_first = key < 3000, in_second = key >= 2000;
      ASSERT_EQ(group.count, (in_first ? 1 : 0) + (in_second ? 2 : 0)) << key;
      ASSERT_EQ(group.sum, (in_first ? 1 : 0) + (in_second ? 20 : 0)) << key;
    }
  }
}

// A merge function that fails (as generated code does for an overflowing sum) stops the
// merge: merge() returns false with the error recorded, also when the only merges are those
// of one worker's groups across flushes.
TEST(AggregationHashTableTest, FailingMergeFailsTheQuery) {
  auto merge_up_to_three = [](WorkerContext* worker, uint8_t* into, const uint8_t* from,
                              const void*) {
    auto* target = reinterpret_cast<Group*>(into);
    target->count += reinterpret_cast<const Group*>(from)->count;
    if (target->count <= 3) return true;
    floe_rt_fail(worker, "too many");
    return false;
  };
  for (uint32_t workers : {1u, 2u}) {
    QueryContext query(workers);
    AggregationHashTable table(sizeof(Group), workers);
    constexpr int64_t kKeys = 300'000;  // flushes the pre-aggregation tables
    for (int64_t round = 0; round < 4; ++round)
      for (int64_t key = 0; key < kKeys; ++key)
        aggregate(table, query.worker(static_cast<uint32_t>(key) % workers), key, 0, &good_hash);
    EXPECT_FALSE(table.merge(&keys_equal, +merge_up_to_three, query)) << workers;
    EXPECT_EQ(query.error_message(), "too many");
  }
}

TEST(AggregationHashTableTest, EmptyInputHasNoGroups) {
  QueryContext query(2);
  AggregationHashTable table(sizeof(Group), 2);
  EXPECT_EQ(table.lookup(0, 7), nullptr);
  ASSERT_TRUE(table.merge(&keys_equal, &merge_groups, query));
  EXPECT_EQ(table.group_count(), 0u);
}

}  // namespace
}  // namespace floe
