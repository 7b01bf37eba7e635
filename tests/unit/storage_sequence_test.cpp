// Sequences (storage/sequence.h) and the session state of currval and lastval
// (storage/sequence_session.h).
#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "storage/catalog.h"
#include "storage/error.h"
#include "storage/sequence_session.h"

namespace floe {
namespace {

TEST(SequenceTest, ConcurrentNextvalHandsOutEveryValueOnce) {
  Sequence sequence("s", {});
  constexpr int kThreads = 4, kPerThread = 20000;
  std::vector<std::vector<int64_t>> taken(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) taken[t].push_back(sequence.next());
    });
  for (auto& thread : threads) thread.join();
  std::set<int64_t> all;
  for (const auto& values : taken) all.insert(values.begin(), values.end());
  EXPECT_EQ(all.size(), size_t{kThreads * kPerThread});
  EXPECT_EQ(*all.begin(), 1);
  EXPECT_EQ(*all.rbegin(), kThreads * kPerThread);
}

TEST(SequenceTest, CycleAndLimits) {
  Sequence cycling("c", {2, 1, 5, 4, true});
  EXPECT_EQ(cycling.next(), 4);
  EXPECT_EQ(cycling.next(), 1);  // past 5: back to the minimum
  Sequence bounded("b", {1, 1, 2, 2, false});
  EXPECT_EQ(bounded.next(), 2);
  EXPECT_THROW(bounded.next(), Error);
  EXPECT_THROW(bounded.set(3, true), Error);
  bounded.set(1, false);
  EXPECT_EQ(bounded.next(), 1);
}

TEST(SequenceTest, CurrvalBelongsToTheSession) {
  Catalog catalog;
  catalog.create_sequence("s", {});
  SequenceSession first(catalog), second(catalog);
  EXPECT_EQ(first.nextval("s"), 1);
  EXPECT_EQ(second.nextval("S"), 2);
  EXPECT_EQ(first.currval("s"), 1);
  EXPECT_EQ(second.currval("s"), 2);
  EXPECT_EQ(first.lastval(), 1);
  EXPECT_THROW(SequenceSession(catalog).currval("s"), Error);
  // A sequence dropped and made again is a new one: currval and lastval forget it.
  catalog.drop_sequence("s");
  catalog.create_sequence("s", {});
  EXPECT_THROW(first.currval("s"), Error);
  EXPECT_THROW(first.lastval(), Error);
}

TEST(SequenceTest, TheCurrentSessionIsPerThread) {
  Catalog catalog;
  SequenceSession session(catalog);
  EXPECT_EQ(SequenceSession::current(), nullptr);
  {
    SequenceSession::Scope scope(session);
    EXPECT_EQ(SequenceSession::current(), &session);
    std::thread([] { EXPECT_EQ(SequenceSession::current(), nullptr); }).join();
  }
  EXPECT_EQ(SequenceSession::current(), nullptr);
}

}  // namespace
}  // namespace floe
