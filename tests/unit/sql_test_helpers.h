// Shared fixture for the SQL front-end tests: a database with a few small tables.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/api/database.h"
#include "engine/plan/optimizer.h"
#include "engine/sql/parser.h"
#include "engine/sql/select_binder.h"
#include "storage/error.h"
#include "tests/unit/result_lines.h"

namespace floe::testing {

class SqlFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    connection_.query(
        "create table t (a integer not null, b numeric(15,2), c numeric(15,2), d date, e bigint, s "
        "varchar(10),"
        " primary key (a));"
        "create table big (id integer, s_id integer, x integer);"
        "create table small (id integer, r_id integer);"
        "create table tiny (id integer, name char(5));");
  }

  // Binds one SELECT (no optimization).
  plan::LogicalPlan bind(const std::string& sql) {
    sql::ParseTree tree(sql);
    return sql::bind_select(*tree.statement(0).stmt->select_stmt, database_.catalog());
  }
  plan::LogicalPlan optimized(const std::string& sql) {
    plan::LogicalPlan plan = bind(sql);
    plan::optimize(plan);
    return plan;
  }
  SqlType output_type(const std::string& sql, size_t column = 0) {
    plan::LogicalPlan plan = bind(sql);
    return plan.registry[plan.outputs.at(column).id].type;
  }
  // The error a statement raises: "message@position".
  std::string error_of(const std::string& sql) {
    try {
      connection_.query(sql);
    } catch (const Error& error) {
      return std::string(error.what()) + "@" + std::to_string(error.position());
    }
    return "no error";
  }

  Database database_;
  Connection connection_{database_};
};

}  // namespace floe::testing
