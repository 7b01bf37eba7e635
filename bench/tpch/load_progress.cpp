#include "bench/tpch/load_progress.h"

#include <unistd.h>

#include <cstdio>
#include <string>

namespace floe::tpch {
namespace {

constexpr int kBarWidth = 40;

std::string table_names(const LoadStatus& status) {
  std::string names;
  for (const Table* table : status.tables) names += (names.empty() ? "" : "+") + table->name();
  return names;
}

void draw_bar(const LoadStatus& status) {
  double fraction = status.parents_total == 0
                        ? 1.0
                        : static_cast<double>(status.parents_done) / status.parents_total;
  int filled = static_cast<int>(fraction * kBarWidth);
  std::string bar(filled, '#');
  bar.resize(kBarWidth, ' ');
  std::fprintf(stderr, "\rloading %-18s [%s] %3d%%", table_names(status).c_str(), bar.c_str(),
               static_cast<int>(fraction * 100));
  if (status.parents_done == status.parents_total) std::fputc('\n', stderr);
  std::fflush(stderr);
}

void print_loaded_tables(const LoadStatus& status) {
  if (status.parents_done != status.parents_total) return;
  for (const Table* table : status.tables) {
    std::fprintf(stderr, "loaded %s: %llu rows\n", table->name().c_str(),
                 static_cast<unsigned long long>(table->row_count()));
  }
}

}  // namespace

LoadProgress make_stderr_progress() {
  if (isatty(fileno(stderr))) return draw_bar;
  return print_loaded_tables;
}

}  // namespace floe::tpch
