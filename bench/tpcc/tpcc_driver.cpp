#include "bench/tpcc/tpcc_driver.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "bench/tpcc/tpcc_population.h"

namespace floe::tpcc {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Counters {
  std::array<std::atomic<uint64_t>, kTransactionTypes> committed{};
  std::atomic<uint64_t> aborted{0};
  std::atomic<uint64_t> new_order_rollbacks{0};
  uint64_t total() const {
    uint64_t sum = 0;
    for (const auto& count : committed) sum += count.load(std::memory_order_relaxed);
    return sum;
  }
};

// Runs `transaction` until it completes, again after each conflict (rolled back, counted).
template <typename Transaction>
void retry(Session& session, Counters& counters, Transaction&& transaction) {
  for (;;) {
    try {
      transaction();
      return;
    } catch (const ConflictError&) {
      session.rollback();
      ++counters.aborted;
    }
  }
}

// Draws the inputs of a transaction of `type` and runs it.
void run_one(Session& session, InputGenerator& inputs, TransactionType type, Counters& counters) {
  switch (type) {
    case TransactionType::kNewOrder: {
      NewOrderInput input = inputs.new_order();
      retry(session, counters, [&] {
        if (run_new_order(session, input).rolled_back) ++counters.new_order_rollbacks;
      });
      break;
    }
    case TransactionType::kPayment: {
      PaymentInput input = inputs.payment();
      retry(session, counters, [&] { run_payment(session, input); });
      break;
    }
    case TransactionType::kOrderStatus: {
      OrderStatusInput input = inputs.order_status();
      retry(session, counters, [&] { run_order_status(session, input); });
      break;
    }
    case TransactionType::kDelivery: {
      DeliveryInput input = inputs.delivery();
      retry(session, counters, [&] { run_delivery(session, input); });
      break;
    }
    case TransactionType::kStockLevel: {
      StockLevelInput input = inputs.stock_level();
      retry(session, counters, [&] { run_stock_level(session, input); });
      break;
    }
  }
}

}  // namespace

RunResult run_tpcc(const RunOptions& options) {
  RunResult result;
  std::unique_ptr<Backend> backend = make_backend(options.engine, options.api);
  result.engine = backend->name();
  bool terminal = isatty(STDERR_FILENO);

  Random constants(options.seed);
  NurandConstants load_c = constants.load_constants();
  NurandConstants run_c = constants.run_constants(load_c);
  Clock::time_point load_start = Clock::now();
  LoadProgress load_progress;
  if (options.progress) {
    load_progress = [&](const std::string& table, uint64_t rows) {
      std::fprintf(stderr, "%s%s: loading %s, %llu rows (%.1f s)%s", terminal ? "\r\033[K" : "",
                   result.engine.c_str(), table.c_str(), static_cast<unsigned long long>(rows),
                   seconds_since(load_start), terminal ? "" : "\n");
    };
  }
  backend->set_freeze_mode(options.freeze);
  populate(*backend, options.scale, options.warehouses, options.seed + 1, load_c,
           current_timestamp(), load_progress);
  const bool freeze_cold = options.freeze == FreezeMode::kCold;
  if (freeze_cold) result.chunks_frozen_at_start = backend->freeze_cold();
  result.load_seconds = seconds_since(load_start);
  if (options.progress) {
    std::fprintf(stderr, "%s%s: loaded %d warehouses in %.1f s\n", terminal ? "\r\033[K" : "",
                 result.engine.c_str(), options.warehouses, result.load_seconds);
  }

  Counters counters;
  std::atomic<bool> stop{false};
  std::mutex error_mutex;
  std::exception_ptr error;
  std::vector<std::unique_ptr<Session>> sessions;
  for (int t = 0; t < options.threads; ++t) sessions.push_back(backend->connect());
  Clock::time_point start = Clock::now();
  std::vector<std::thread> terminals;
  for (int t = 0; t < options.threads; ++t) {
    terminals.emplace_back([&, t] {
      InputGenerator inputs(options.scale, options.warehouses,
                            options.seed * 1000 + static_cast<uint64_t>(t) + 2, run_c);
      Session& session = *sessions[static_cast<size_t>(t)];
      try {
        while (!stop.load(std::memory_order_relaxed)) {
          TransactionType type = inputs.next_type();
          run_one(session, inputs, type, counters);
          ++counters.committed[static_cast<size_t>(type)];
        }
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        stop = true;
      }
    });
  }
  Clock::time_point next_report = start + std::chrono::seconds(1);
  Clock::time_point next_freeze = start + std::chrono::seconds(1);
  while (!stop && seconds_since(start) < options.duration_seconds) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (freeze_cold && Clock::now() >= next_freeze) {
      next_freeze += std::chrono::seconds(1);
      result.chunks_frozen_during_run += backend->freeze_cold();
    }
    if (options.progress && Clock::now() >= next_report) {
      next_report += std::chrono::seconds(1);
      double elapsed = seconds_since(start);
      uint64_t committed = counters.total();
      std::fprintf(stderr, "%s%s: %4.0f s  %llu committed  %.0f tps  %llu aborted%s",
                   terminal ? "\r\033[K" : "", result.engine.c_str(), elapsed,
                   static_cast<unsigned long long>(committed), committed / elapsed,
                   static_cast<unsigned long long>(counters.aborted.load()), terminal ? "" : "\n");
    }
  }
  stop = true;
  for (std::thread& terminal_thread : terminals) terminal_thread.join();
  result.seconds = seconds_since(start);
  if (options.progress && terminal) std::fprintf(stderr, "\n");
  if (error) std::rethrow_exception(error);

  for (size_t i = 0; i < kTransactionTypes; ++i) {
    result.committed_by_type[i] = counters.committed[i].load();
    result.committed += result.committed_by_type[i];
  }
  result.aborted = counters.aborted.load();
  result.new_order_rollbacks = counters.new_order_rollbacks.load();
  result.statement_profile = backend->statement_profile();
  result.consistency = check_consistency(*sessions[0]);
  return result;
}

std::string to_json(const RunOptions& options, const RunResult& result) {
  char text[1024];
  std::snprintf(text, sizeof(text),
                "{\"engine\": \"%s\", \"api\": \"%s\", \"warehouses\": %d, \"threads\": %d, "
                "\"duration_s\": %.3f, \"load_s\": %.3f, \"tps\": %.1f, \"tpmC\": %.1f, "
                "\"committed\": %llu, \"aborted\": %llu, \"new_order\": %llu, \"payment\": %llu, "
                "\"order_status\": %llu, \"delivery\": %llu, \"stock_level\": %llu, "
                "\"new_order_rollbacks\": %llu, \"freeze\": \"%s\", "
                "\"chunks_frozen_at_start\": %llu, \"chunks_frozen_during_run\": %llu, "
                "\"consistency_ok\": %s, \"consistency_violations\": [%lld, %lld, %lld, %lld]}",
                result.engine.c_str(), options.api == Api::kSql ? "sql" : "record",
                options.warehouses, options.threads, result.seconds, result.load_seconds,
                result.tps(), result.tpmc(), static_cast<unsigned long long>(result.committed),
                static_cast<unsigned long long>(result.aborted),
                static_cast<unsigned long long>(result.committed_by_type[0]),
                static_cast<unsigned long long>(result.committed_by_type[1]),
                static_cast<unsigned long long>(result.committed_by_type[2]),
                static_cast<unsigned long long>(result.committed_by_type[3]),
                static_cast<unsigned long long>(result.committed_by_type[4]),
                static_cast<unsigned long long>(result.new_order_rollbacks),
                freeze_mode_name(options.freeze),
                static_cast<unsigned long long>(result.chunks_frozen_at_start),
                static_cast<unsigned long long>(result.chunks_frozen_during_run),
                result.consistency.ok() ? "true" : "false",
                static_cast<long long>(result.consistency.violations[0]),
                static_cast<long long>(result.consistency.violations[1]),
                static_cast<long long>(result.consistency.violations[2]),
                static_cast<long long>(result.consistency.violations[3]));
  return text;
}

std::string to_report(const RunResult& result) {
  char text[512];
  std::snprintf(text, sizeof(text),
                "%s: %.1f tps, %.1f tpmC (%llu committed, %llu aborted and retried, %llu "
                "New-Orders rolled back by design, %.1f s); consistency conditions 1-4: %s\n",
                result.engine.c_str(), result.tps(), result.tpmc(),
                static_cast<unsigned long long>(result.committed),
                static_cast<unsigned long long>(result.aborted),
                static_cast<unsigned long long>(result.new_order_rollbacks), result.seconds,
                result.consistency.ok() ? "ok" : "VIOLATED");
  std::string report = text;
  if (result.chunks_frozen_at_start + result.chunks_frozen_during_run > 0) {
    std::snprintf(text, sizeof(text),
                  "%s: cold order_line chunks frozen: %llu after the population, %llu during the "
                  "run\n",
                  result.engine.c_str(),
                  static_cast<unsigned long long>(result.chunks_frozen_at_start),
                  static_cast<unsigned long long>(result.chunks_frozen_during_run));
    report += text;
  }
  if (!result.statement_profile.empty())
    report += result.engine + ": " + result.statement_profile + "\n";
  return report;
}

}  // namespace floe::tpcc
