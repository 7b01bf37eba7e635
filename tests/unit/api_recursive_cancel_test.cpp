// A WITH RECURSIVE query that never ends (UNION ALL over a counter without a bound) runs
// until canceled; Connection::cancel() stops it with PostgreSQL's message and the connection
// stays usable.
#include <chrono>
#include <string>
#include <thread>

#include "runtime/cancellation.h"
#include "tests/unit/sql_test_helpers.h"

namespace floe::testing {
namespace {

using ApiRecursiveCancelTest = SqlFixture;

TEST_F(ApiRecursiveCancelTest, CancelsAnEndlessRecursion) {
  std::thread canceler([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    connection_.cancel();
  });
  std::string message = "no error";
  try {
    connection_.query(
        "with recursive t(n) as (select 1 union all select n + 1 from t) select count(*) from t");
  } catch (const Error& error) {
    message = error.what();
  }
  canceler.join();
  EXPECT_EQ(message, kCanceledMessage);
  EXPECT_EQ(connection_
                .query("with recursive t(n) as (select 1 union all select n + 1 from t "
                       "where n < 3) select sum(n) from t")
                .value(0, 0)
                .as_int64(),
            6);
}

}  // namespace
}  // namespace floe::testing
