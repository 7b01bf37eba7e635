// Chunk compaction (engine/vector/compaction.h, runtime/compaction_learner.h): the buffer
// that merges small chunks (values, NULLs, strings that outlive their chunk), the compactor's
// policies (which chunks pass, when the buffer goes on, order where it counts), and the UCB
// bandit of learned compaction (initial tries in arm order, convergence to the best arm,
// reset on a 2x jump), with fixed rewards so that every run is the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "engine/api/database.h"
#include "engine/vector/compaction.h"
#include "engine/vector/logical_chunk.h"
#include "runtime/compaction_learner.h"
#include "tests/unit/result_lines.h"

namespace floe::vectorized {
namespace {

// A chunk of an integer and a text column with rows at `positions`: value p at
// position p, NULL integer where p % 5 == 0, text "a long string number <p>" (not inline,
// its bytes in `heap`).
DataChunk make_chunk(const std::vector<uint32_t>& positions, StringHeap& heap) {
  DataChunk chunk;
  Vector& ints = chunk.add_column(SqlType::integer());
  Vector& texts = chunk.add_column(SqlType::text());
  for (uint32_t p : positions) {
    ints.set(p, p % 5 == 0 ? Value::null(SqlType::integer()) : Value::integer(static_cast<int32_t>(p)),
             heap);
    texts.set(p, Value::string("a long string number " + std::to_string(p)), heap);
  }
  chunk.set_count(static_cast<uint32_t>(positions.size()));
  return chunk;
}

// Collects what a compactor pushes on: per chunk its size and its rows' integer values.
class Collector : public ChunkConsumer {
 public:
  bool consume(DataChunk& chunk) override {
    sizes.push_back(chunk.count());
    const uint32_t* sel = chunk.selection();
    for (uint32_t i = 0; i < chunk.count(); ++i) {
      const uint32_t p = sel ? sel[i] : i;
      values.push_back(chunk.column(0).is_valid(p) ? chunk.column(0).values<int32_t>()[p] : -1);
    }
    return true;
  }
  std::vector<uint32_t> sizes;
  std::vector<int32_t> values;
};

TEST(CompactionBufferTest, MergesSelectedRowsWithNullsAndStringsThatOutliveTheirChunk) {
  StringHeap strings;
  CompactionBuffer buffer(2048, strings);
  std::vector<uint32_t> first = {0, 3, 7, 10}, second = {1, 2, 5};
  {
    StringHeap heap;  // the chunks' string bytes die with them
    DataChunk a = make_chunk(first, heap);
    a.set_selection(first.data());
    buffer.append(a, 1, 3);  // rows 3, 7, 10
    DataChunk b = make_chunk(second, heap);
    b.set_selection(second.data());
    buffer.append(b, 0, 3);  // rows 1, 2, 5
    EXPECT_EQ(buffer.size(), 6u);
    EXPECT_EQ(buffer.room(), 2042u);
  }  // the chunks and their string bytes are gone
  DataChunk merged = buffer.take();
  EXPECT_EQ(buffer.size(), 0u);
  ASSERT_EQ(merged.count(), 6u);
  EXPECT_EQ(merged.selection(), nullptr);
  const uint32_t expected[] = {3, 7, 10, 1, 2, 5};
  for (uint32_t i = 0; i < 6; ++i) {
    const uint32_t p = expected[i];
    if (p % 5 == 0) {
      EXPECT_FALSE(merged.column(0).is_valid(i)) << i;
    } else {
      EXPECT_EQ(merged.column(0).get(i), Value::integer(static_cast<int32_t>(p)));
    }
    EXPECT_EQ(merged.column(1).get(i).as_string(), "a long string number " + std::to_string(p));
  }
}

// Chunks of the given sizes (each without selection), pushed through `compactor`, then its
// flush; the rows keep their number across chunks.
Collector push(Compactor& compactor, const std::vector<uint32_t>& sizes, uint32_t capacity) {
  Collector collector;
  compactor.set_next(collector);
  StringHeap heap;
  int32_t next = 1;
  for (uint32_t size : sizes) {
    DataChunk chunk(capacity);
    Vector& ints = chunk.add_column(SqlType::integer());
    for (uint32_t i = 0; i < size; ++i) ints.mutable_values<int32_t>()[i] = next++;
    chunk.set_count(size);
    EXPECT_TRUE(compactor.consume(chunk));
  }
  EXPECT_TRUE(compactor.flush());
  return collector;
}

TEST(CompactorTest, BinaryBuffersSmallChunksUntil1920AndPassesLargerOnes) {
  EXPECT_EQ(binary_compaction(2048).threshold, 128u);
  EXPECT_EQ(binary_compaction(2048).flush_at, 1920u);
  StringHeap strings;
  Compactor compactor({}, 2048, binary_compaction(2048), nullptr, false, strings);
  std::vector<uint32_t> sizes(21, 100);  // 2,100 rows in small chunks
  sizes.insert(sizes.begin() + 5, 500);  // passes at once, before the buffered rows
  Collector out = push(compactor, sizes, 2048);
  // The 20th small chunk takes the buffer past 1920; the flush at the end pushes the rest.
  EXPECT_EQ(out.sizes, (std::vector<uint32_t>{500, 2000, 100}));
  std::vector<int32_t> values = out.values;
  std::sort(values.begin(), values.end());
  std::vector<int32_t> all(2600);
  std::iota(all.begin(), all.end(), 1);
  EXPECT_EQ(values, all);
}

TEST(CompactorTest, OrderedPipelinesFlushBeforeALargeChunkPasses) {
  StringHeap strings;
  Compactor compactor({}, 2048, binary_compaction(2048), nullptr, true, strings);
  Collector out = push(compactor, {100, 100, 500, 100}, 2048);
  EXPECT_EQ(out.sizes, (std::vector<uint32_t>{200, 500, 100}));
  std::vector<int32_t> all(800);
  std::iota(all.begin(), all.end(), 1);
  EXPECT_EQ(out.values, all);
}

TEST(CompactorTest, FullSplitsChunksToFillTheBuffer) {
  StringHeap strings;
  Compactor compactor({}, 100, full_compaction(100), nullptr, false, strings);
  Collector out = push(compactor, {60, 60, 100, 99, 1}, 100);
  // 100 passes; 60 + 40 of 60, then 20 + 80 of 99, then 19 + 1.
  EXPECT_EQ(out.sizes, (std::vector<uint32_t>{100, 100, 100, 20}));
}

TEST(CompactorTest, ThresholdZeroPassesEveryChunk) {
  StringHeap strings;
  Compactor compactor({}, 2048, threshold_compaction(0, 2048), nullptr, false, strings);
  Collector out = push(compactor, {1, 2, 3}, 2048);
  EXPECT_EQ(out.sizes, (std::vector<uint32_t>{1, 2, 3}));
}

// The integers of a logical chunk's column 0 (-1 for NULL), row by row, flattened.
std::vector<int32_t> flat_integers(const LogicalChunk& chunk, size_t column) {
  DataChunk flat = chunk.flatten();
  EXPECT_EQ(flat.selection(), nullptr);
  std::vector<int32_t> values;
  for (uint32_t r = 0; r < flat.count(); ++r)
    values.push_back(flat.column(column).is_valid(r) ? flat.column(column).values<int32_t>()[r]
                                                     : -1);
  return values;
}

// What a logical join pushes: the probe chunk's rows `pairs` and a dense build column of
// first_build, first_build + 1, ...
LogicalChunk join_pairs(const LogicalChunk& probe, const std::vector<uint32_t>& pairs,
                        int32_t first_build) {
  LogicalChunk joined = probe.view(probe.column_count());
  const auto n = static_cast<uint32_t>(pairs.size());
  joined.select(pairs.data(), n);
  Vector build(SqlType::integer(), n);
  for (uint32_t i = 0; i < n; ++i)
    build.mutable_values<int32_t>()[i] = first_build + static_cast<int32_t>(i);
  joined.add_column(std::move(build), joined.add_group(nullptr));
  return joined;
}

// A join's pairs reference the probe chunk's rows by position (repeats, any order), a second
// join adds a group and composes the first one's index, a filter narrows every group (SIGMOD
// 2024 §5.2).
TEST(LogicalChunkTest, JoinsReferenceProbeRowsAndFiltersNarrowEveryGroup) {
  StringHeap heap;
  std::vector<uint32_t> selected = {0, 3, 7, 10};
  DataChunk probe = make_chunk(selected, heap);
  probe.set_selection(selected.data());
  LogicalChunk wrapped = LogicalChunk::wrap(probe, 2);
  EXPECT_EQ(wrapped.count(), 11u);  // one row per position
  EXPECT_EQ(wrapped.group_count(), 1u);

  // Pairs of a first join: probe positions 7, 3, 7, 10 (found in two steps), one build column.
  LogicalChunk joined = join_pairs(wrapped, {7, 3, 7, 10}, 100);
  EXPECT_EQ(joined.group_count(), 2u);
  EXPECT_EQ(joined.index(0), joined.index(1));  // the probe columns share one index
  EXPECT_EQ(joined.index(2), nullptr);          // the build column is dense
  EXPECT_EQ(flat_integers(joined, 0), (std::vector<int32_t>{7, 3, 7, -1}));  // 10: NULL
  EXPECT_EQ(flat_integers(joined, 2), (std::vector<int32_t>{100, 101, 102, 103}));
  EXPECT_EQ(joined.flatten().column(1).get(3).as_string(), "a long string number 10");

  // A second join's pairs: rows 3, 0, 0 of the first one's output.
  LogicalChunk twice = join_pairs(joined, {3, 0, 0}, 200);
  EXPECT_EQ(twice.group_count(), 3u);
  EXPECT_EQ(flat_integers(twice, 0), (std::vector<int32_t>{-1, 7, 7}));
  EXPECT_EQ(flat_integers(twice, 2), (std::vector<int32_t>{103, 100, 100}));
  EXPECT_EQ(flat_integers(twice, 3), (std::vector<int32_t>{200, 201, 202}));

  // A filter keeps rows 0 and 2 of it.
  const uint32_t kept[] = {0, 2};
  twice.select(kept, 2);
  EXPECT_EQ(twice.count(), 2u);
  EXPECT_EQ(flat_integers(twice, 0), (std::vector<int32_t>{-1, 7}));
  EXPECT_EQ(flat_integers(twice, 2), (std::vector<int32_t>{103, 100}));
  EXPECT_EQ(flat_integers(twice, 3), (std::vector<int32_t>{200, 202}));
  // The first join's output is untouched by what was built on it.
  EXPECT_EQ(flat_integers(joined, 0), (std::vector<int32_t>{7, 3, 7, -1}));
}

TEST(LogicalChunkTest, MaterializeCopiesOnlyTheColumnsRead) {
  StringHeap heap;
  std::vector<uint32_t> positions = {0, 1, 2, 3, 4, 5};
  DataChunk probe = make_chunk(positions, heap);
  LogicalChunk joined = LogicalChunk::wrap(probe, 2).view(2);
  const uint32_t pairs[] = {4, 2};
  joined.select(pairs, 2);
  DataChunk read = joined.materialize({1});
  ASSERT_EQ(read.count(), 2u);
  EXPECT_EQ(read.column(1).get(0).as_string(), "a long string number 4");
  EXPECT_EQ(read.column(1).get(1).as_string(), "a long string number 2");
  // Column 0 is a view of the probe column, not read through the index.
  EXPECT_EQ(read.column(0).values<int32_t>(), probe.column(0).values<int32_t>());
}

// Smart compaction's compactor after a logical join: small logical chunks are copied into
// the buffer through their indexes, large ones pass without copying.
TEST(CompactorTest, BuffersLogicalChunksThroughTheirIndexes) {
  StringHeap strings, heap;
  std::vector<uint32_t> positions(200);
  std::iota(positions.begin(), positions.end(), 0u);
  DataChunk probe = make_chunk(positions, heap);
  Collector out;
  Compactor compactor({}, 2048, binary_compaction(2048), nullptr, false, strings);
  compactor.set_next(out);
  std::vector<uint32_t> small = {9, 8, 7}, large(150);
  std::iota(large.begin(), large.end(), 1u);
  for (const auto* pairs : {&small, &large, &small}) {
    LogicalChunk joined = LogicalChunk::wrap(probe, 2).view(2);
    joined.select(pairs->data(), static_cast<uint32_t>(pairs->size()));
    EXPECT_TRUE(compactor.consume_logical(joined));
  }
  EXPECT_TRUE(compactor.flush());
  EXPECT_EQ(out.sizes, (std::vector<uint32_t>{150, 6}));
  std::vector<int32_t> expected(large.begin(), large.end());
  for (int copy = 0; copy < 2; ++copy) expected.insert(expected.end(), {9, 8, 7});
  for (int32_t& value : expected)
    if (value % 5 == 0) value = -1;
  EXPECT_EQ(out.values, expected);
}

TEST(CompactionLearnerTest, ArmsAreThePapersScaledToTheVectorSize) {
  CompactionLearner paper(2048);
  ASSERT_EQ(paper.arm_count(), 9u);
  for (size_t j = 0; j < 9; ++j) EXPECT_EQ(paper.threshold(j), CompactionLearner::kPaperArms[j]);
  CompactionLearner small(100);
  std::vector<uint32_t> arms;
  for (size_t j = 0; j < small.arm_count(); ++j) arms.push_back(small.threshold(j));
  EXPECT_EQ(arms, (std::vector<uint32_t>{0, 1, 3, 6, 12, 18, 25, 37, 50}));
}

// Arm j's reward: higher the closer j is to `best`.
double reward(size_t arm, size_t best) {
  return 10.0 / (1.0 + (arm > best ? arm - best : best - arm));
}

TEST(CompactionLearnerTest, TriesEveryArmFirstThenSettlesOnTheBest) {
  CompactionLearner learner({0, 32, 64, 128, 256}, {.initial_tries = 8, .window = 16,
                                                   .snapshot_interval = 1 << 30});
  for (size_t j = 0; j < 5; ++j) {
    for (int t = 0; t < 8; ++t) {
      size_t arm = learner.select();
      ASSERT_EQ(arm, j);
      learner.update(arm, reward(arm, 3));
    }
  }
  std::vector<int> picks(5);
  for (int t = 0; t < 2000; ++t) {
    size_t arm = learner.select();
    ++picks[arm];
    learner.update(arm, reward(arm, 3));
  }
  EXPECT_EQ(learner.best_arm(), 3u);
  for (size_t j = 0; j < 5; ++j) {
    if (j == 3) continue;
    EXPECT_GT(picks[3], 3 * picks[j]) << j;
  }
}

TEST(CompactionLearnerTest, ResetsAndTriesAgainWhenRewardsJumpTwofold) {
  CompactionLearner learner({0, 128, 1024}, {.initial_tries = 2, .window = 4,
                                             .snapshot_interval = 8});
  auto run = [&](int samples, double scale) {
    for (int t = 0; t < samples; ++t) {
      size_t arm = learner.select();
      learner.update(arm, scale * reward(arm, 1));
    }
  };
  run(64, 1.0);
  EXPECT_EQ(learner.resets(), 0u);
  EXPECT_EQ(learner.best_arm(), 1u);
  // The workload changes: rewards triple. A snapshot (every 8 rewards) sees the jump.
  for (int t = 0; t < 16 && learner.resets() == 0; ++t) {
    size_t arm = learner.select();
    learner.update(arm, 3.0 * reward(arm, 1));
  }
  EXPECT_EQ(learner.resets(), 1u);
  // Fresh statistics: the initial tries start over at the first arm.
  EXPECT_EQ(learner.select(), 0u);
  EXPECT_EQ(learner.select(), 0u);
  EXPECT_EQ(learner.select(), 1u);
}

// A snapshot's before-images come with strings that live only as long as their scan batch
// (runtime/table_scanner.h); a selective join leaves chunks of a few rows, which every
// strategy buffers past the batch.
TEST(CompactionTest, BufferedStringsOfBeforeImagesOutliveTheirBatch) {
  Database database;
  Connection setup(database);
  setup.query(
      "set freeze_policy = 'never';"
      "create table cv (id bigint, s varchar(60));"
      "insert into cv select n, 'an-old-long-string-value-' || cast(n % 5000 as text) "
      "from generate_series(0, 99999) as g(n);"
      "create table ck (k bigint);"
      "insert into ck select n * 31 from generate_series(0, 2999) as g(n)");
  const std::string sql = "select cv.s, count(*) from cv join ck on cv.id = ck.k group by cv.s";
  for (const char* compaction : {"full", "binary", "learned", "logical", "smart"}) {
    Connection reader(database);
    reader.options().threads = 2;
    reader.options().oversubscribe = true;
    reader.query(std::string("set execution_mode = 'vectorized'; set vector_size = 256; ") +
                 "set compaction = '" + compaction + "'");
    reader.query("begin");
    const auto before = testing::sorted_lines(reader.query(sql));
    ASSERT_EQ(before.size(), 3000u) << compaction;
    setup.query("update cv set s = 'a-new-long-string-value-' || cast(id as text)");
    EXPECT_EQ(testing::sorted_lines(reader.query(sql)), before) << compaction;
    reader.query("commit");
    setup.query("update cv set s = 'an-old-long-string-value-' || cast(id % 5000 as text)");
  }
}

}  // namespace
}  // namespace floe::vectorized
