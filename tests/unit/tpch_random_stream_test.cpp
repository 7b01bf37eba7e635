// dbgen's random streams, checked against values read off dbgen's SF 0.01 output.
#include <gtest/gtest.h>

#include <string>

#include "tpch/column_streams.h"
#include "tpch/distributions.h"
#include "tpch/random_fields.h"
#include "tpch/random_stream.h"

namespace floe::tpch {
namespace {

TEST(TpchRandomStreamTest, ParkMillerSequence) {
  // x' = 16807 x mod (2^31 - 1) from 1: 16807, 282475249, 1622650073 (CACM Oct 1988).
  RandomStream stream(1);
  stream.uniform(1, 10);
  EXPECT_EQ(stream.seed(), 16807);
  stream.uniform(1, 10);
  EXPECT_EQ(stream.seed(), 282475249);
  stream.uniform(1, 10);
  EXPECT_EQ(stream.seed(), 1622650073);
}

TEST(TpchRandomStreamTest, SkipEqualsSequentialDraws) {
  for (int64_t draws : {0, 1, 2, 7, 92, 1000}) {
    RandomStream stepped(933588178);
    for (int64_t i = 0; i < draws; ++i) stepped.uniform(0, 1);
    EXPECT_EQ(skip_seed(933588178, draws), stepped.seed()) << draws;
  }
}

TEST(TpchRandomStreamTest, NextRowSkipsTheUnusedBudget) {
  RandomStream row_wise(46831694, 3);
  row_wise.uniform(0, 9);
  row_wise.next_row();
  EXPECT_EQ(row_wise.seed(), skip_seed(46831694, 3));
  for (int i = 0; i < 5; ++i) row_wise.uniform(0, 9);  // over budget: stays put
  int64_t seed = row_wise.seed();
  row_wise.next_row();
  EXPECT_EQ(row_wise.seed(), seed);
}

TEST(TpchRandomStreamTest, CustomerColumnsOfDbgen) {
  // customer.tbl rows 1 and 3: nation 15 and 1, balance 711.56 and 7498.12.
  RandomStream nation = column_stream(ColumnStream::kCustomerNation, 1);
  RandomStream balance = column_stream(ColumnStream::kCustomerBalance, 1);
  EXPECT_EQ(nation.uniform(0, 24), 15);
  EXPECT_EQ(balance.uniform(-99999, 999999), 71156);
  nation = column_stream(ColumnStream::kCustomerNation, 3);
  balance = column_stream(ColumnStream::kCustomerBalance, 3);
  EXPECT_EQ(nation.uniform(0, 24), 1);
  EXPECT_EQ(balance.uniform(-99999, 999999), 749812);

  RandomStream segment = column_stream(ColumnStream::kCustomerSegment, 1);
  EXPECT_EQ(pick(dists::msegmnt, segment), "BUILDING");
  RandomStream phone_stream = column_stream(ColumnStream::kCustomerPhone, 1);
  std::string phone;
  random_phone(phone_stream, 15, phone);
  EXPECT_EQ(phone, "25-989-741-2988");
}

TEST(TpchRandomStreamTest, AlphanumericUsesTheNegativeRangeQuirk) {
  // customer.tbl row 1 address; depends on uniform(0, 2^31 - 1) scaling by -2^31.
  RandomStream address_stream = column_stream(ColumnStream::kCustomerAddress, 1);
  std::string address;
  random_alphanumeric(address_stream, {10, 40}, address);
  EXPECT_EQ(address, "IVhzIApeRb ot,c,E");
}

TEST(TpchRandomStreamTest, LineitemColumnsOfDbgen) {
  // lineitem.tbl order 1: part keys 1552, 674; quantities 17, 36 (SF 0.01 has 2000 parts).
  RandomStream partkey = column_stream(ColumnStream::kLinePartKey, 1);
  RandomStream quantity = column_stream(ColumnStream::kLineQuantity, 1);
  EXPECT_EQ(partkey.uniform(1, 2000), 1552);
  EXPECT_EQ(partkey.uniform(1, 2000), 674);
  EXPECT_EQ(quantity.uniform(1, 50), 17);
  EXPECT_EQ(quantity.uniform(1, 50), 36);
}

}  // namespace
}  // namespace floe::tpch
