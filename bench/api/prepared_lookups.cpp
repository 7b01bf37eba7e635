// floe-bench-api: primary-key point lookups per second at 1 thread through a prepared
// statement (Connection::prepare, compiled once; issue 10's target: >= 500,000/s), against
// the same lookup as an unprepared Connection::query, through the public API (engine/api/floe.h).
// Prints the median of --runs runs.
//
//   floe-bench-api [--rows N] [--lookups N] [--runs N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "engine/api/floe.h"

namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t rows = 1000000, lookups = 200000, runs = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    uint64_t value = std::strtoull(argv[i + 1], nullptr, 10);
    if (!std::strcmp(argv[i], "--rows")) rows = value;
    else if (!std::strcmp(argv[i], "--lookups")) lookups = value;
    else if (!std::strcmp(argv[i], "--runs")) runs = value;
  }
  floe::api::Database database;
  floe::api::Connection connection(database);
  connection.query("set threads = 1");
  connection.query("create table kv (k bigint primary key, v bigint, s text)");
  connection.query("insert into kv select g, g * 2, 'value ' || g from generate_series(1, " +
                   std::to_string(rows) + ") g");
  std::mt19937_64 random(42);
  std::vector<int64_t> keys(lookups);
  for (auto& key : keys) key = static_cast<int64_t>(random() % rows) + 1;

  floe::api::PreparedStatement lookup = connection.prepare("select v, s from kv where k = $1");
  std::vector<double> prepared_rates, query_rates;
  for (uint64_t run = 0; run < runs; ++run) {
    auto start = std::chrono::steady_clock::now();
    uint64_t found = 0;
    for (int64_t key : keys) found += lookup.execute({floe::api::Value::big_int(key)}).row_count();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (found != lookups) {
      std::fprintf(stderr, "prepared lookups found %llu rows of %llu\n",
                   static_cast<unsigned long long>(found), static_cast<unsigned long long>(lookups));
      return 1;
    }
    prepared_rates.push_back(static_cast<double>(lookups) / seconds);
    // The same lookups as SQL text (parsed, bound, planned and compiled every time): fewer.
    uint64_t sql_lookups = std::max<uint64_t>(lookups / 100, 1);
    start = std::chrono::steady_clock::now();
    for (uint64_t i = 0; i < sql_lookups; ++i)
      connection.query("select v, s from kv where k = " + std::to_string(keys[i]));
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    query_rates.push_back(static_cast<double>(sql_lookups) / seconds);
  }
  std::printf("rows %llu, lookups per run %llu, runs %llu, threads 1\n",
              static_cast<unsigned long long>(rows), static_cast<unsigned long long>(lookups),
              static_cast<unsigned long long>(runs));
  std::printf("prepared statement: %.0f lookups/s (median)\n", median(prepared_rates));
  std::printf("Connection::query:  %.0f lookups/s (median)\n", median(query_rates));
  return 0;
}
