// The TPC-C generators of clauses 2.1.6 and 4.3.2.
#include <gtest/gtest.h>

#include <cctype>

#include "bench/tpcc/tpcc_random.h"

namespace floe::tpcc {
namespace {

TEST(TpccRandomTest, LastNameSyllables) {
  // Clause 4.3.2.3's example: 371 is PRI CALLY OUGHT.
  EXPECT_EQ(last_name(371), "PRICALLYOUGHT");
  EXPECT_EQ(last_name(0), "BARBARBAR");
  EXPECT_EQ(last_name(999), "EINGEINGEING");
}

TEST(TpccRandomTest, NurandStaysInRangeAndIsSkewed) {
  Random random(7);
  NurandConstants c = random.load_constants();
  std::vector<int> hits(3001);
  for (int i = 0; i < 300000; ++i) {
    int64_t value = random.nurand(1023, 1, 3000, c);
    ASSERT_GE(value, 1);
    ASSERT_LE(value, 3000);
    ++hits[static_cast<size_t>(value)];
  }
  // Uniform would give every value about 100 hits; NURand's OR makes some far more popular.
  int most = *std::max_element(hits.begin(), hits.end());
  EXPECT_GT(most, 300);
}

TEST(TpccRandomTest, RunConstantDeltaOfClause2_1_6_1) {
  Random random(11);
  for (int i = 0; i < 1000; ++i) {
    NurandConstants load = random.load_constants();
    NurandConstants run = random.run_constants(load);
    int64_t delta = std::abs(run.c_last - load.c_last);
    EXPECT_GE(delta, 65);
    EXPECT_LE(delta, 119);
    EXPECT_NE(delta, 96);
    EXPECT_NE(delta, 112);
    EXPECT_LE(run.c_id, 1023);
    EXPECT_LE(run.ol_i_id, 8191);
  }
}

TEST(TpccRandomTest, StringsHaveTheirLengthsAndAlphabets) {
  Random random(3);
  for (int i = 0; i < 1000; ++i) {
    std::string a = random.a_string(8, 16);
    EXPECT_GE(a.size(), 8u);
    EXPECT_LE(a.size(), 16u);
    for (char c : a) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)));
    std::string n = random.n_string(16, 16);
    EXPECT_EQ(n.size(), 16u);
    for (char c : n) EXPECT_TRUE(std::isdigit(static_cast<unsigned char>(c)));
    std::string zip = random.zip();
    EXPECT_EQ(zip.size(), 9u);
    EXPECT_EQ(zip.substr(4), "11111");
  }
}

TEST(TpccRandomTest, TenPercentOfDataIsOriginal) {
  Random random(5);
  int original = 0;
  for (int i = 0; i < 10000; ++i) {
    std::string data = random.data_with_original();
    EXPECT_GE(data.size(), 26u);
    EXPECT_LE(data.size(), 50u);
    original += data.find("ORIGINAL") != std::string::npos;
  }
  EXPECT_GT(original, 800);
  EXPECT_LT(original, 1200);
}

}  // namespace
}  // namespace floe::tpcc
