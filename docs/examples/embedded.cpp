// A runnable example of floe's embedded API (docs/api.md), built and run by ctest
// (`embedded-example`): a database in memory, a table, a transaction, a prepared point
// lookup executed many times, and a transfer through the record-level path.
#include <cstdio>
#include <string>

#include "engine/api/database.h"
#include "engine/api/record_transaction.h"
#include "storage/error.h"

int main() {
  try {
    floe::Database database(":memory:");
    floe::Connection connection(database);
    connection.query("create table accounts (id bigint primary key, owner text, balance numeric(12,2))");
    connection.query("insert into accounts select g, 'owner ' || g, 100 from generate_series(1, 1000) g");

    // One transaction: both updates or neither.
    connection.query("begin");
    connection.query("update accounts set balance = balance - 25 where id = 1");
    connection.query("update accounts set balance = balance + 25 where id = 2");
    connection.query("commit");

    // Prepared once (bound, planned, compiled), executed with new values each time.
    floe::PreparedStatement balance =
        connection.prepare("select owner, balance from accounts where id = $1");
    for (int64_t id : {1, 2, 3}) {
      floe::Result result = balance.execute({floe::Value::big_int(id)});
      std::printf("%s: %s\n", result.value(0, 0).to_string().c_str(),
                  result.value(0, 1).to_string().c_str());
    }
    floe::PreparedStatement deposit =
        connection.prepare("update accounts set balance = balance + $2 where id = $1");
    floe::Result updated = deposit.execute({floe::Value::big_int(3), floe::Value::integer(10)});
    std::printf("%s\n", updated.command_tag().c_str());

    // The record-level path: no SQL per call; commit() or rollback() ends the transaction,
    // and one left open rolls back when `transfer` goes out of scope.
    {
      floe::TransactionScope transfer = connection.begin();
      floe::RecordTable accounts = transfer.table("accounts");
      floe::RecordIndex by_id = accounts.primary_key();
      const size_t balance_column = accounts.column("balance");
      floe::RowRef from = *transfer.lookup(by_id, {floe::Value::big_int(4)});
      floe::RowRef to = *transfer.lookup(by_id, {floe::Value::big_int(5)});
      floe::Value from_balance = transfer.read(from, balance_column);  // numeric(12,2): cents
      floe::Value to_balance = transfer.read(to, balance_column);
      transfer.update(from, {{balance_column, floe::Value::decimal(from_balance.as_int128() - 500,
                                                                   12, 2)}});
      transfer.update(to, {{balance_column, floe::Value::decimal(to_balance.as_int128() + 500,
                                                                 12, 2)}});
      transfer.commit();
    }
    floe::Result moved = connection.query("select balance from accounts where id in (4, 5) order by id");
    std::printf("after the transfer: %s, %s\n", moved.value(0, 0).to_string().c_str(),
                moved.value(1, 0).to_string().c_str());
    floe::Result total = connection.query("select sum(balance) from accounts");
    std::printf("total: %s\n", total.value(0, 0).to_string().c_str());
    return total.value(0, 0).to_string() == "100010.00" &&
                   moved.value(0, 0).to_string() == "95.00"
               ? 0
               : 1;
  } catch (const floe::Error& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
}
