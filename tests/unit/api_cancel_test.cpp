// Connection::cancel(): the running statement stops soon with PostgreSQL's "canceling
// statement due to user request", and the connection and its data stay usable.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "runtime/cancellation.h"
#include "tests/unit/sql_test_helpers.h"

namespace floe::testing {
namespace {

using Clock = std::chrono::steady_clock;

// Generous for noisy CI machines; the typical latency is a few to a few tens of ms.
constexpr double kMaxLatencyMs = 2000;

class ApiCancelTest : public SqlFixture {
 protected:
  void SetUp() override {
    SqlFixture::SetUp();
    // 2^16 rows, so that a three-way cross product would run for days.
    connection_.query("create table many (x integer); insert into many values (1), (2)");
    for (int i = 0; i < 15; ++i) connection_.query("insert into many select x + 1 from many");
  }

  int64_t count(const std::string& table) {
    return connection_.query("select count(*) from " + table).value(0, 0).as_int64();
  }

  // Runs `sql`, canceling it from another thread after `delay_ms`; returns the error message
  // and sets `latency_ms` to the time from cancel() to query() giving up.
  std::string run_and_cancel(const std::string& sql, int delay_ms, double& latency_ms) {
    Clock::time_point canceled_at;
    std::thread canceler([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
      canceled_at = Clock::now();
      connection_.cancel();
    });
    std::string message = "no error";
    try {
      connection_.query(sql);
    } catch (const Error& error) {
      message = error.what();
    }
    auto stopped_at = Clock::now();
    canceler.join();
    latency_ms = std::chrono::duration<double, std::milli>(stopped_at - canceled_at).count();
    std::printf("cancel latency %.1f ms: %s\n", latency_ms, sql.substr(0, 60).c_str());
    return message;
  }
};

TEST_F(ApiCancelTest, CancelsACrossProduct) {
  for (uint32_t threads : {1u, 2u}) {
    connection_.options().threads = threads;
    double latency_ms = 0;
    EXPECT_EQ(run_and_cancel("select count(*) from many a, many b, many c", 200, latency_ms),
              kCanceledMessage);
    EXPECT_LT(latency_ms, kMaxLatencyMs);
  }
  // The connection and the data are as before.
  EXPECT_EQ(count("many"), 65536);
  EXPECT_EQ(connection_.query("select max(x) from many").value(0, 0).as_int64(), 17);
}

TEST_F(ApiCancelTest, CanceledInsertLeavesTheTableAsItWas) {
  double latency_ms = 0;
  connection_.query("create table target (x integer)");
  EXPECT_EQ(run_and_cancel("insert into target select a.x from many a, many b", 200, latency_ms),
            kCanceledMessage);
  EXPECT_LT(latency_ms, kMaxLatencyMs);
  EXPECT_EQ(count("target"), 0);
}

TEST_F(ApiCancelTest, CancelsCopyFrom) {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("floe_cancel_copy_" + std::to_string(getpid()));
  {
    std::ofstream out(path);
    for (int i = 0; i < 3'000'000; ++i) out << i << ",row number " << i << "\n";
  }
  connection_.query("create table copied (id integer, note text)");
  double latency_ms = 0;
  EXPECT_EQ(
      run_and_cancel("copy copied from '" + path.string() + "' with (format csv)", 100, latency_ms),
      kCanceledMessage);
  EXPECT_LT(latency_ms, kMaxLatencyMs);
  EXPECT_EQ(count("copied"), 0);
  std::filesystem::remove(path);
}

TEST_F(ApiCancelTest, CancelsCallDbgen) {
  double latency_ms = 0;
  EXPECT_EQ(run_and_cancel("call dbgen(1)", 300, latency_ms), kCanceledMessage);
  EXPECT_LT(latency_ms, kMaxLatencyMs);
  EXPECT_EQ(database_.catalog().find_table("lineitem"), nullptr);  // all or nothing
  EXPECT_EQ(count("many"), 65536);
}

TEST_F(ApiCancelTest, ACancelWithoutAStatementIsForgotten) {
  connection_.cancel();
  EXPECT_EQ(count("many"), 65536);
}

TEST_F(ApiCancelTest, TheRestOfACanceledScriptDoesNotRun) {
  double latency_ms = 0;
  EXPECT_EQ(run_and_cancel("select count(*) from many a, many b, many c; create table after (x "
                           "integer)",
                           200, latency_ms),
            kCanceledMessage);
  EXPECT_EQ(database_.catalog().find_table("after"), nullptr);
}

}  // namespace
}  // namespace floe::testing
