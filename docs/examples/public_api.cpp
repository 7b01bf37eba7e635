// A runnable example of floe's public API (docs/api.md): it includes engine/api/floe.h and
// nothing else of floe. Built and run by ctest (`public-api-example`): a database in memory,
// a table, a transaction object, a prepared point lookup executed many times, the record-level
// path, NULLs, errors with their SQLSTATE, and a result printed as the shell prints it.
#include <cstdio>
#include <string>

#include "engine/api/floe.h"

int main() {
  using namespace floe::api;
  try {
    Database database(":memory:");
    Connection connection(database);
    connection.query(
        "create table accounts (id bigint primary key, owner text, balance numeric(12,2))");
    connection.query(
        "insert into accounts select g, 'owner ' || g, 100 from generate_series(1, 1000) g");

    // A transfer: both updates or neither. A Transaction left open rolls back when destroyed.
    {
      Transaction transfer = connection.begin();
      transfer.query("update accounts set balance = balance - 25 where id = 1");
      transfer.query("update accounts set balance = balance + 25 where id = 2");
      transfer.commit();
    }

    // Prepared once (bound, planned, compiled), executed with new parameters each time.
    PreparedStatement balance =
        connection.prepare("select owner, balance from accounts where id = $1");
    for (int64_t id : {1, 2, 3}) {
      Result result = balance.execute({Value::big_int(id)});
      std::printf("%s: %s\n", result.value(0, 0).as_string().c_str(),
                  result.value(0, 1).to_string().c_str());
    }
    PreparedStatement deposit =
        connection.prepare("update accounts set balance = balance + $2, owner = $3 where id = $1");
    Result updated = deposit.execute({Value::big_int(3), Value::numeric("10.50"), Value::null()});
    std::printf("%s\n", updated.command_tag().c_str());

    // The record-level path: the same transfer with no SQL per call.
    {
      Transaction transfer = connection.begin();
      RecordTable accounts = transfer.table("accounts");
      RecordKey key(accounts.primary_key());
      const size_t balance_column = accounts.column("balance");
      for (int64_t id : {4, 5}) {
        RowRef account = *transfer.lookup(key.clear().add(id));
        const RecordValue cents = transfer.read_value(account, balance_column);  // unscaled
        const int64_t change = id == 4 ? -500 : 500;
        transfer.update(account, {{balance_column, Value::numeric(std::to_string(
                                                         (cents.as_int64() + change) / 100))}});
      }
      transfer.commit();
    }

    Result row = connection.query("select id, owner, balance from accounts where id = 3");
    std::printf("owner of 3 is NULL: %s\n", row.is_null(0, 1) ? "yes" : "no");
    std::printf("%s", row.render(OutputMode::kBox).c_str());

    try {
      connection.query("insert into accounts values (1, 'again', 0)");
    } catch (const Error& error) {
      std::printf("SQLSTATE %s: %s\n", error.sql_state().c_str(), error.what());
    }

    Result total = connection.query("select sum(balance) from accounts");
    std::printf("total: %s\n", total.value(0, 0).to_string().c_str());
    return total.value(0, 0).to_string() == "100010.50" ? 0 : 1;
  } catch (const Error& error) {
    std::fprintf(stderr, "error %s: %s\n", error.sql_state().c_str(), error.what());
    return 1;
  }
}
