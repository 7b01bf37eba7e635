// CALL dbgen(sf): the eight TPC-H tables with their primary keys, loaded all or nothing.
#include <string>
#include <vector>

#include "tests/unit/sql_test_helpers.h"

namespace floe::testing {
namespace {

class ApiCallDbgenTest : public SqlFixture {
 protected:
  void SetUp() override {}  // an empty database
  int64_t count(const std::string& table) {
    return connection_.query("select count(*) from " + table).value(0, 0).as_int64();
  }
};

TEST_F(ApiCallDbgenTest, LoadsTheEightTablesAtScaleFactor001) {
  std::vector<std::string> progress;
  connection_.options().threads = 2;
  connection_.options().load_progress = [&](std::string_view tables, uint64_t done,
                                            uint64_t total) {
    if (done == total) progress.emplace_back(tables);
  };
  EXPECT_EQ(connection_.query("CALL dbgen(0.01)").command_tag(), "CALL");
  EXPECT_EQ(progress, (std::vector<std::string>{"region", "nation", "supplier", "customer",
                                                "part+partsupp", "orders+lineitem"}));
  EXPECT_EQ(count("lineitem"), 60175);
  EXPECT_EQ(count("orders"), 15000);
  EXPECT_EQ(count("customer"), 1500);
  EXPECT_EQ(count("part"), 2000);
  EXPECT_EQ(count("partsupp"), 8000);
  EXPECT_EQ(count("supplier"), 100);
  EXPECT_EQ(count("nation"), 25);
  EXPECT_EQ(count("region"), 5);

  const Catalog& catalog = database_.catalog();
  EXPECT_EQ(catalog.find_table("orders")->primary_key(), (std::vector<size_t>{0}));
  EXPECT_EQ(catalog.find_table("partsupp")->primary_key(), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(catalog.find_table("lineitem")->primary_key(), (std::vector<size_t>{0, 3}));
  EXPECT_EQ(catalog.find_table("lineitem")->columns()[5].type.to_string(), "numeric(15,2)");

  // TPC-H Q6; the reference answer is 1193053.2253.
  Result q6 = connection_.query(
      "select sum(l_extendedprice * l_discount) as revenue from lineitem"
      " where l_shipdate >= date '1994-01-01'"
      " and l_shipdate < date '1994-01-01' + interval '1' year"
      " and l_discount between .06 - 0.01 and .06 + 0.01 and l_quantity < 24");
  EXPECT_EQ(q6.value(0, 0).to_string(), "1193053.2253");

  // A second CALL finds the tables and changes nothing.
  EXPECT_EQ(error_of("CALL dbgen(0.01)"), "relation \"region\" already exists@5");
  EXPECT_EQ(count("lineitem"), 60175);
}

TEST_F(ApiCallDbgenTest, CreatesNothingWhenATableExists) {
  connection_.query("create table lineitem (x integer)");
  EXPECT_EQ(error_of("call dbgen(0.01)"), "relation \"lineitem\" already exists@5");
  EXPECT_EQ(database_.catalog().table_names(), (std::vector<std::string>{"lineitem"}));
}

TEST_F(ApiCallDbgenTest, RejectsBadArgumentsAndUnknownProcedures) {
  EXPECT_EQ(error_of("call dbgen(0)"), "scale factor of dbgen must be positive@11");
  EXPECT_EQ(error_of("call dbgen(-0.5)"), "scale factor of dbgen must be positive@11");
  EXPECT_EQ(error_of("call dbgen('big')"), "scale factor of dbgen must be a numeric constant@11");
  EXPECT_EQ(error_of("call dbgen(1 + 1)"), "scale factor of dbgen must be a numeric constant@13");
  EXPECT_EQ(error_of("call dbgen()"),
            "dbgen takes one argument, the scale factor, e.g. CALL dbgen(0.01)@5");
  EXPECT_EQ(error_of("call dbgen(0.01, 2)"),
            "dbgen takes one argument, the scale factor, e.g. CALL dbgen(0.01)@5");
  EXPECT_EQ(error_of("call dbgen(50000)"),
            "not supported: TPC-H scale factors of 30000 and above@-1");
  EXPECT_EQ(error_of("call nope(1)"), "procedure nope does not exist@5");
  EXPECT_TRUE(database_.catalog().table_names().empty());
}

}  // namespace
}  // namespace floe::testing
