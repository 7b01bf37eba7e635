// The embedded API's prepared statements (Connection::prepare, engine/api/prepared_query.h):
// $n typing, compile-once execution, index lookups keyed by parameters, re-preparation
// after DDL, and DML with parameters.
#include <gtest/gtest.h>

#include "engine/api/database.h"
#include "storage/error.h"

namespace floe {
namespace {

class ApiPreparedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    connection_.query("create table api_kv (k bigint primary key, v text, n integer)");
    // 200,000 rows over four chunks: a lookup by key must use the primary key's index.
    connection_.query(
        "insert into api_kv select g, 'v' || g, (g % 7)::integer from generate_series(1, 200000) "
        "g");
  }

  std::string text(const Result& result) {
    std::string out;
    for (size_t r = 0; r < result.row_count(); ++r)
      for (size_t c = 0; c < result.column_count(); ++c)
        out += (r || c ? (c ? "|" : ";") : "") + result.value(r, c).to_string();
    return out;
  }

  Database database_;
  Connection connection_{database_};
};

TEST_F(ApiPreparedTest, SelectTypesParametersFromTheirUse) {
  PreparedStatement lookup = connection_.prepare("select v, n from api_kv where k = $1");
  ASSERT_EQ(lookup.parameter_count(), 1u);
  EXPECT_EQ(lookup.parameter_type(0), SqlType::big_int());
  EXPECT_EQ(text(lookup.execute({Value::big_int(42)})), "v42|0");
  EXPECT_EQ(text(lookup.execute({Value::integer(199999)})), "v199999|2");  // cast to bigint
  EXPECT_EQ(text(lookup.execute({Value::big_int(0)})), "");
  EXPECT_EQ(text(lookup.execute({Value::null(SqlType::big_int())})), "");
  EXPECT_EQ(text(lookup.execute({Value::big_int(7)})), "v7|0");
}

TEST_F(ApiPreparedTest, ExecutionsNeitherPlanNorCompile) {
  PreparedStatement lookup = connection_.prepare("select v from api_kv where k = $1");
  for (int64_t k = 1; k <= 50; ++k) {
    Result result = lookup.execute({Value::big_int(k * 1000)});
    ASSERT_EQ(text(result), "v" + std::to_string(k * 1000));
    EXPECT_EQ(result.timings().plan_ms, 0);
    EXPECT_EQ(result.timings().codegen_ms, 0);
    EXPECT_EQ(result.timings().compile_ms, 0);
  }
}

TEST_F(ApiPreparedTest, RangesAndSeveralParameters) {
  PreparedStatement range = connection_.prepare(
      "select count(*), sum(k) from api_kv where k >= $1 and k < $2 and n = $3");
  ASSERT_EQ(range.parameter_count(), 3u);
  EXPECT_EQ(range.parameter_type(2), SqlType::integer());
  // k in [100, 200) with k % 7 = 1: 106, 113, ..., 197 (14 values, sum 2121).
  EXPECT_EQ(text(range.execute({Value::big_int(100), Value::big_int(200), Value::integer(1)})),
            "14|2121");
  EXPECT_EQ(text(range.execute({Value::big_int(100), Value::big_int(100), Value::integer(1)})),
            "0|NULL");
}

TEST_F(ApiPreparedTest, JitScanModeReadsParametersInGeneratedCode) {
  connection_.query("set scan_mode = 'jit'");
  PreparedStatement lookup = connection_.prepare("select v from api_kv where k = $1 or k = $2");
  EXPECT_EQ(text(lookup.execute({Value::big_int(5), Value::big_int(6)})), "v5;v6");
  EXPECT_EQ(text(lookup.execute({Value::big_int(8), Value::null(SqlType::big_int())})), "v8");
}

TEST_F(ApiPreparedTest, SeesRowsCommittedAfterPreparation) {
  PreparedStatement count = connection_.prepare("select count(*) from api_kv where k > $1");
  EXPECT_EQ(text(count.execute({Value::big_int(199990)})), "10");
  connection_.query("insert into api_kv values (300000, 'x', 1)");
  EXPECT_EQ(text(count.execute({Value::big_int(199990)})), "11");
  connection_.query("begin");
  connection_.query("delete from api_kv where k > 199995");
  EXPECT_EQ(text(count.execute({Value::big_int(199990)})), "5");
  connection_.query("rollback");
  EXPECT_EQ(text(count.execute({Value::big_int(199990)})), "11");
}

TEST_F(ApiPreparedTest, PreparesAgainAfterDdl) {
  PreparedStatement count = connection_.prepare("select count(*) from api_kv where n = $1");
  EXPECT_EQ(text(count.execute({Value::integer(0)})), "28571");
  connection_.query("alter table api_kv add column w integer");
  EXPECT_EQ(text(count.execute({Value::integer(0)})), "28571");
  PreparedStatement star = connection_.prepare("select * from api_kv where k = $1");
  EXPECT_EQ(text(star.execute({Value::big_int(1)})), "1|v1|1|NULL");
  connection_.query("alter table api_kv drop column w");
  EXPECT_THROW(
      {
        try {
          star.execute({Value::big_int(1)});
        } catch (const Error& error) {
          EXPECT_STREQ(error.what(), "cached plan must not change result type");
          throw;
        }
      },
      Error);
}

TEST_F(ApiPreparedTest, InsertUpdateDeleteWithParameters) {
  PreparedStatement insert = connection_.prepare("insert into api_kv values ($1, $2, $3)");
  EXPECT_EQ(insert.execute({Value::big_int(-1), Value::string("neg", SqlType::text()),
                            Value::integer(5)})
                .command_tag(),
            "INSERT 0 1");
  PreparedStatement update = connection_.prepare("update api_kv set n = n + $2 where k = $1");
  EXPECT_EQ(update.execute({Value::big_int(-1), Value::integer(10)}).command_tag(), "UPDATE 1");
  EXPECT_EQ(text(connection_.query("select v, n from api_kv where k = -1")), "neg|15");
  PreparedStatement remove = connection_.prepare("delete from api_kv where k <= $1");
  EXPECT_EQ(remove.execute({Value::big_int(10)}).command_tag(), "DELETE 11");
  EXPECT_THROW(insert.execute({Value::big_int(20), Value::string("dup", SqlType::text()),
                               Value::integer(1)}),
               Error);  // duplicate key
  EXPECT_EQ(text(connection_.query("select count(*) from api_kv")), "199990");
}

TEST_F(ApiPreparedTest, WrongParameterCountsAndTypes) {
  PreparedStatement lookup = connection_.prepare("select v from api_kv where k = $1");
  try {
    lookup.execute({});
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()),
              "wrong number of parameters for unnamed prepared statement\nDETAIL:  Expected 1 "
              "parameters but got 0.");
  }
  try {
    lookup.execute({Value::interval({1, 0, 0})});
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()),
              "parameter $1 of type interval cannot be coerced to the expected type bigint");
  }
  EXPECT_THROW(connection_.prepare("select $2::integer"), Error);
  EXPECT_THROW(connection_.prepare("select 1; select 2"), Error);
}

}  // namespace
}  // namespace floe
