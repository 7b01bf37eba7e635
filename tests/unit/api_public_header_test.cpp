// The public embedded API (engine/api/floe.h) end to end, through that header alone: queries,
// prepared statements with parameters of every type, transaction objects, errors with their
// SQLSTATE, NULLs, and results rendered as the shell prints them.
#include "engine/api/floe.h"

#include <gtest/gtest.h>

namespace {

using floe::api::Connection;
using floe::api::Database;
using floe::api::Error;
using floe::api::Interval;
using floe::api::OutputMode;
using floe::api::PreparedStatement;
using floe::api::Result;
using floe::api::SerializationFailure;
using floe::api::Transaction;
using floe::api::Type;
using floe::api::TypeId;
using floe::api::Value;

class ApiPublicHeaderTest : public ::testing::Test {
 protected:
  // The cells of a result, "a|b;c|d".
  static std::string text(const Result& result) {
    std::string out;
    for (size_t r = 0; r < result.row_count(); ++r)
      for (size_t c = 0; c < result.column_count(); ++c)
        out += (r || c ? (c ? "|" : ";") : "") + result.value(r, c).to_string();
    return out;
  }

  int64_t count(std::string_view table) {
    return connection_.query("select count(*) from " + std::string(table)).value(0, 0).as_int64();
  }

  // Runs `sql` and returns the error it throws.
  Error error_of(std::string_view sql) {
    try {
      connection_.query(sql);
    } catch (const Error& error) {
      return error;
    }
    ADD_FAILURE() << "no error: " << sql;
    return Error("", "");
  }

  Database database_;
  Connection connection_{database_};
};

TEST_F(ApiPublicHeaderTest, QueryGivesColumnsTypesAndTypedValues) {
  connection_.query(
      "create table hdr_items (id integer primary key, price numeric(8,2), label varchar(10), "
      "weight double precision, ok boolean)");
  Result inserted = connection_.query(
      "insert into hdr_items values (1, 2.50, 'one', 0.5, true), (2, null, "
      "null, null, null)");
  EXPECT_EQ(inserted.command_tag(), "INSERT 0 2");
  EXPECT_FALSE(inserted.has_rows());
  EXPECT_EQ(inserted.affected_rows(), 2u);

  Result result = connection_.query("select * from hdr_items order by id");
  EXPECT_TRUE(result.has_rows());
  EXPECT_EQ(result.command_tag(), "SELECT 2");
  ASSERT_EQ(result.column_count(), 5u);
  EXPECT_EQ(result.column_name(1), "price");
  EXPECT_EQ(result.column_type(0), (Type{TypeId::kInteger}));
  EXPECT_EQ(result.column_type(1), (Type{TypeId::kNumeric, 8, 2}));
  EXPECT_EQ(result.column_type(1).name(), "numeric(8,2)");
  EXPECT_EQ(result.column_type(2).name(), "character varying(10)");
  EXPECT_TRUE(result.column_type(3).is_numeric());
  EXPECT_FALSE(result.column_type(2).is_numeric());
  ASSERT_EQ(result.row_count(), 2u);

  EXPECT_EQ(result.value(0, 0).as_int64(), 1);
  EXPECT_EQ(result.value(0, 1).as_string(), "2.50");
  EXPECT_DOUBLE_EQ(result.value(0, 1).as_double(), 2.5);
  EXPECT_EQ(result.value(0, 1).type(), (Type{TypeId::kNumeric, 8, 2}));
  EXPECT_EQ(result.value(0, 2).as_string(), "one");
  EXPECT_EQ(result.value(0, 2).type(), (Type{TypeId::kVarchar, 0, 0, 10}));
  EXPECT_DOUBLE_EQ(result.value(0, 3).as_double(), 0.5);
  EXPECT_TRUE(result.value(0, 4).as_bool());
  EXPECT_EQ(result.value(0, 4).to_string(), "t");
  for (size_t c = 1; c < 5; ++c) {
    EXPECT_FALSE(result.is_null(0, c));
    EXPECT_TRUE(result.is_null(1, c));
    EXPECT_TRUE(result.value(1, c).is_null());
    EXPECT_EQ(result.value(1, c).to_string(), "NULL");
    EXPECT_EQ(result.value(1, c).type(), result.column_type(c));  // a NULL keeps its type
  }

  EXPECT_THROW(result.value(2, 0), std::out_of_range);
  EXPECT_THROW(result.is_null(0, 5), std::out_of_range);
  EXPECT_THROW(result.column_name(5), std::out_of_range);

  EXPECT_EQ(database_.table_names(), std::vector<std::string>{"hdr_items"});
  EXPECT_EQ(database_.table_definition("hdr_items"),
            "CREATE TABLE hdr_items (\n  id integer NOT NULL,\n  price numeric(8,2),\n  label "
            "character varying(10),\n  weight double precision,\n  ok boolean,\n  PRIMARY KEY "
            "(id)\n);\n");
  EXPECT_EQ(database_.table_definition("nope"), std::nullopt);
}

TEST_F(ApiPublicHeaderTest, PreparedStatementTakesParametersOfEveryType) {
  connection_.query(
      "create table hdr_all (b boolean, s smallint, i integer, g bigint, n numeric(10,3), "
      "d double precision, dt date, ts timestamp, iv interval, c char(3), v varchar(5), t text)");
  PreparedStatement insert = connection_.prepare(
      "insert into hdr_all values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)");
  EXPECT_EQ(insert.parameter_count(), 12u);
  const std::vector<Value> row = {
      Value::boolean(true),
      Value::small_int(-7),
      Value::integer(123456),
      Value::big_int(9000000000),
      Value::numeric("-12.5"),
      Value::double_value(0.25),
      Value::date(19782),                  // 2024-02-29
      Value::timestamp(1709210096000001),  // 2024-02-29 12:34:56.000001
      Value::interval(Interval{14, 3, 3723000000}),
      Value::string("ab", Type{TypeId::kChar, 0, 0, 3}),
      Value::string("five", Type{TypeId::kVarchar, 0, 0, 5}),
      Value::text("it's"),
  };
  EXPECT_EQ(insert.execute(row).command_tag(), "INSERT 0 1");
  // Literals take the parameters' types, as quoted constants do; NULL of every type.
  std::vector<Value> literals = {
      Value::literal("false"),      Value::literal("1"),
      Value::literal("2"),          Value::literal("3"),
      Value::literal("4.5"),        Value::literal("-0.5"),
      Value::literal("2000-01-01"), Value::literal("2000-01-01 00:00:01"),
      Value::literal("1 day"),      Value::literal("x"),
      Value::literal("y"),          Value::literal("z")};
  EXPECT_EQ(insert.execute(literals).affected_rows(), 1u);
  EXPECT_EQ(insert.execute(std::vector<Value>(12, Value::null())).affected_rows(), 1u);

  // PostgreSQL 15 gives the same (c, the character(3) column, is left out: floe prints it
  // without PostgreSQL's padding blanks, an engine difference of its own).
  EXPECT_EQ(text(connection_.query("select b, s, i, g, n, d, dt, ts, iv, v, t from hdr_all")),
            "t|-7|123456|9000000000|-12.500|0.25|2024-02-29|2024-02-29 12:34:56.000001|"
            "1 year 2 mons 3 days 01:02:03|five|it's;"
            "f|1|2|3|4.500|-0.5|2000-01-01|2000-01-01 00:00:01|1 day|y|z;"
            "NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL");

  // Each typed parameter of a SELECT finds its row; values round-trip through the API.
  const char* columns[] = {"b", "s", "i", "g", "n", "d", "dt", "ts", "iv", "c", "v", "t"};
  for (size_t c = 0; c < row.size(); ++c) {
    PreparedStatement select = connection_.prepare(std::string("select ") + columns[c] +
                                                   " from hdr_all where " + columns[c] + " = $1");
    Result found = select.execute({row[c]});
    ASSERT_EQ(found.row_count(), 1u) << columns[c];
    EXPECT_EQ(found.value(0, 0).type(), found.column_type(0)) << columns[c];
    EXPECT_EQ(select.execute({found.value(0, 0)}).row_count(), 1u) << columns[c];
  }
  Result typed = connection_.query("select s, dt, ts, iv from hdr_all where b");
  EXPECT_EQ(typed.value(0, 0).type(), (Type{TypeId::kSmallInt}));
  EXPECT_EQ(typed.value(0, 1).as_int64(), 19782);
  EXPECT_EQ(typed.value(0, 2).as_int64(), 1709210096000001);
  EXPECT_EQ(typed.value(0, 3).as_interval(), (Interval{14, 3, 3723000000}));
}

TEST_F(ApiPublicHeaderTest, PreparedSelectRunsManyTimesWithoutCompiling) {
  connection_.query("create table hdr_kv (k bigint primary key, v text)");
  connection_.query("insert into hdr_kv select g, 'v' || g from generate_series(1, 1000) g");
  PreparedStatement lookup = connection_.prepare("select v from hdr_kv where k = $1");
  ASSERT_EQ(lookup.parameter_count(), 1u);
  EXPECT_EQ(lookup.parameter_type(0), (Type{TypeId::kBigInt}));
  for (int64_t k : {1, 500, 1000}) {
    Result result = lookup.execute({Value::big_int(k)});
    EXPECT_EQ(text(result), "v" + std::to_string(k));
    EXPECT_EQ(result.timings().plan_ms, 0);
    EXPECT_EQ(result.timings().compile_ms, 0);
  }
  EXPECT_EQ(lookup.execute({Value::integer(7)}).value(0, 0).as_string(), "v7");  // cast
  EXPECT_EQ(lookup.execute({Value::big_int(0)}).row_count(), 0u);
  try {
    lookup.execute({Value::interval({0, 1, 0})});
    FAIL();
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "parameter $1 of type interval cannot be coerced to the expected type bigint");
  }
  EXPECT_THROW(lookup.execute({}), Error);
}

TEST_F(ApiPublicHeaderTest, TransactionCommitsRollsBackAndRollsBackWhenDestroyed) {
  connection_.query("create table hdr_tx (k integer primary key)");
  {
    Transaction tx = connection_.begin();
    EXPECT_TRUE(connection_.in_transaction());
    tx.query("insert into hdr_tx values (1)");
    connection_.query("insert into hdr_tx values (2)");  // the connection's SQL is inside it
    tx.rollback();
    EXPECT_FALSE(tx.active());
  }
  EXPECT_FALSE(connection_.in_transaction());
  EXPECT_EQ(count("hdr_tx"), 0);
  {
    Transaction tx = connection_.begin();
    PreparedStatement insert = connection_.prepare("insert into hdr_tx values ($1)");
    insert.execute({Value::integer(3)});
    EXPECT_THROW(connection_.begin(), Error);  // one block at a time
    tx.commit();
    EXPECT_THROW(tx.commit(), Error);
  }
  EXPECT_EQ(count("hdr_tx"), 1);
  {
    Transaction tx = connection_.begin();
    tx.query("insert into hdr_tx values (4)");
    Transaction moved = std::move(tx);
    EXPECT_TRUE(moved.active());
  }  // destroyed while open: rolled back
  EXPECT_EQ(count("hdr_tx"), 1);

  // An error aborts the block; commit then rolls back and says so.
  Transaction tx = connection_.begin();
  tx.query("insert into hdr_tx values (5)");
  EXPECT_THROW(tx.query("insert into hdr_tx values (3)"), Error);
  try {
    tx.query("select 1");
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.sql_state(), "25P02");
  }
  EXPECT_THROW(tx.commit(), Error);
  EXPECT_EQ(count("hdr_tx"), 1);
}

TEST_F(ApiPublicHeaderTest, ErrorsCarrySqlStateAndPosition) {
  connection_.query(
      "create table hdr_err (k integer primary key, v integer not null check (v > 0))");
  connection_.query("insert into hdr_err values (1, 1)");
  Error missing = error_of("select * from nope");
  EXPECT_STREQ(missing.what(), "relation \"nope\" does not exist");
  EXPECT_EQ(missing.sql_state(), "42P01");
  EXPECT_EQ(missing.position(), 14);
  EXPECT_EQ(floe::api::format_error(missing.what(), missing.position(), "select * from nope"),
            "Error: relation \"nope\" does not exist\n"
            "LINE 1: select * from nope\n"
            "                      ^\n");
  EXPECT_EQ(error_of("selec 1").sql_state(), "42601");
  EXPECT_EQ(error_of("select nope from hdr_err").sql_state(), "42703");
  EXPECT_EQ(error_of("insert into hdr_err values (1, 2)").sql_state(), "23505");
  EXPECT_EQ(error_of("insert into hdr_err values (2, null)").sql_state(), "23502");
  EXPECT_EQ(error_of("insert into hdr_err values (2, -1)").sql_state(), "23514");
  EXPECT_EQ(error_of("select 1 / 0").sql_state(), "22012");
  EXPECT_EQ(error_of("select 'x'::integer").sql_state(), "22P02");
  EXPECT_EQ(error_of("create table hdr_err (a integer)").sql_state(), "42P07");
  EXPECT_EQ(error_of("set transaction snapshot 'x'").sql_state(), "0A000");
  EXPECT_THROW(Value::numeric("1.2.3"), Error);
  EXPECT_THROW(Value::string("1", Type{TypeId::kInteger}), Error);
  try {
    connection_.prepare("select $1::integer")
        .execute({Value::string("x", Type{TypeId::kNumeric, 5, 2})});
    FAIL();
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "invalid input syntax for type numeric: \"x\"");
  }
  EXPECT_EQ(count("hdr_err"), 1);  // failed statements left nothing behind
}

TEST_F(ApiPublicHeaderTest, WriteWriteConflictIsASerializationFailure) {
  connection_.query("create table hdr_bank (k integer primary key, v integer)");
  connection_.query("insert into hdr_bank values (1, 10)");
  Connection other(database_);
  Transaction first = connection_.begin();
  Transaction second = other.begin();
  first.query("update hdr_bank set v = v + 1 where k = 1");
  try {
    second.query("update hdr_bank set v = v + 2 where k = 1");
    FAIL();
  } catch (const SerializationFailure& error) {
    EXPECT_EQ(error.sql_state(), "40001");
    EXPECT_STREQ(error.what(), "could not serialize access due to concurrent update");
  }
  second.rollback();
  first.commit();
  EXPECT_EQ(text(other.query("select v from hdr_bank")), "11");
}

TEST_F(ApiPublicHeaderTest, RendersResultsAsTheShellDoes) {
  connection_.query("create table hdr_show (id integer, name varchar(10))");
  connection_.query("insert into hdr_show values (7, 'a,b'), (-12345, null)");
  Result result = connection_.query("select * from hdr_show");
  EXPECT_EQ(result.render(),
            "┌─────────┬───────────────────────┐\n"
            "│   id    │         name          │\n"
            "│ integer │ character varying(10) │\n"
            "├─────────┼───────────────────────┤\n"
            "│       7 │ a,b                   │\n"
            "│  -12345 │ NULL                  │\n"
            "└─────────┴───────────────────────┘\n"
            "(2 rows)\n");
  EXPECT_EQ(result.render(OutputMode::kCsv), "id,name\n7,\"a,b\"\n-12345,\n");
  EXPECT_EQ(result.render(OutputMode::kList), "id|name\n7|a,b\n-12345|NULL\n");
  EXPECT_EQ(floe::api::parse_output_mode("markdown"), OutputMode::kMarkdown);
  EXPECT_EQ(floe::api::output_mode_name(OutputMode::kLine), "line");
  EXPECT_EQ(floe::api::Timings({1, 2, 3, 4, 5.5}).to_string(),
            "Time: parse 1.000 ms, plan 2.000 ms, codegen 3.000 ms, compile 4.000 ms, execute "
            "5.500 ms, total 15.500 ms\n");
  connection_.query("create index if not exists hdr_show_id on hdr_show (id)");
  Result notice = connection_.query("create index if not exists hdr_show_id on hdr_show (id)");
  EXPECT_EQ(notice.notices(),
            std::vector<std::string>{"relation \"hdr_show_id\" already exists, skipping"});
}

}  // namespace
