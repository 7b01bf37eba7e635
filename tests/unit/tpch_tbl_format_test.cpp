#include <gtest/gtest.h>

#include <string>

#include "storage/date_time.h"
#include "storage/error.h"
#include "tpch/scale.h"
#include "tpch/tbl_format.h"

namespace floe::tpch {
namespace {

TEST(TpchTblFormatTest, MoneyDatesAndSeparators) {
  std::string out;
  append_tbl_line(
      out, SupplierRow{7, "Supplier#000000007", "addr", 23, "33-990-965-2201", -99999, "comment"});
  append_tbl_line(out, PartSuppRow{1, 2, 3325, 100, "c"});
  OrderRow order{32, 1301, 'F', 5, days_from_civil(1998, 8, 2), "1-URGENT", "Clerk#000000001",
                 0,  ""};
  append_tbl_line(out, order);
  EXPECT_EQ(out,
            "7|Supplier#000000007|addr|23|33-990-965-2201|-999.99|comment|\n"
            "1|2|3325|1.00|c|\n"
            "32|1301|F|0.05|1998-08-02|1-URGENT|Clerk#000000001|0||\n");
}

TEST(TpchScaleTest, CardinalitiesAsDbgen) {
  Scale small = make_scale(0.01);
  EXPECT_EQ(small.suppliers, 100);
  EXPECT_EQ(small.customers, 1500);
  EXPECT_EQ(small.parts, 2000);
  EXPECT_EQ(small.orders, 15000);
  EXPECT_EQ(small.clerks, 1000);
  Scale ten = make_scale(10);
  EXPECT_EQ(ten.orders, 15000000);
  EXPECT_EQ(ten.clerks, 10000);
  EXPECT_THROW(make_scale(0), Error);
  EXPECT_THROW(make_scale(30000), NotSupported);
}

}  // namespace
}  // namespace floe::tpch
