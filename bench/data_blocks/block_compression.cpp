// floe-block-compression: the Data Blocks paper's Fig. 10. Generates TPC-H at a scale factor,
// freezes every table into Data Blocks of 2^11 ... 2^16 rows, and reports per table and in
// total the hot-chunk ("uncompressed") bytes, the block bytes, their ratio and how many
// column blocks use each scheme.
//
//   floe-block-compression [--sf 1] [--threads N] [--min-shift 11] [--max-shift 16]
//                          [--sort] [--csv FILE] [--columns]
//
// --sort freezes blocks sorted on their first column that is a date (block-wise sorted, paper
// Fig. 11) to show its effect on size; --columns adds a per-column breakdown at the largest
// block size.
#include <tbb/combinable.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <array>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/api/database.h"
#include "storage/data_block.h"
#include "storage/error.h"
#include "tpch/direct_loader.h"
#include "tpch/schema_sql.h"

namespace floe {
namespace {

constexpr const char* kTables[] = {"region",   "nation",   "part",   "supplier",
                                   "partsupp", "customer", "orders", "lineitem"};
constexpr const char* kSchemeNames[] = {"single", "dictionary", "truncation", "uncompressed"};

struct Options {
  double scale_factor = 1;
  int threads = 0;
  int min_shift = 11;
  int max_shift = 16;
  bool sort = false;
  bool columns = false;
  std::string csv;
};

// Sizes of one column (or a whole table) frozen at one block size.
struct Sizes {
  uint64_t uncompressed = 0;
  uint64_t compressed = 0;
  std::array<uint64_t, block_format::kSchemeCount> schemes{};

  void add(const Sizes& other) {
    uncompressed += other.uncompressed;
    compressed += other.compressed;
    for (size_t i = 0; i < schemes.size(); ++i) schemes[i] += other.schemes[i];
  }
  double ratio() const { return uncompressed ? double(compressed) / double(uncompressed) : 0; }
};

struct TableResult {
  std::string table;
  uint32_t block_rows;
  uint64_t rows;
  uint64_t blocks;
  Sizes total;  // block bytes, headers included
  std::vector<Sizes> columns;
  double freeze_seconds;  // summed over the worker threads
};

std::optional<size_t> sort_column_of(const Table& table) {
  for (size_t c = 0; c < table.columns().size(); ++c)
    if (table.columns()[c].type.id == TypeId::kDate) return c;
  return std::nullopt;
}

TableResult freeze_table(const Table& table, uint32_t block_rows, bool sort) {
  struct Partial {
    Sizes total;
    std::vector<Sizes> columns;
    uint64_t blocks = 0;
    double seconds = 0;
  };
  const size_t column_count = table.columns().size();
  const std::optional<size_t> sort_column = sort ? sort_column_of(table) : std::nullopt;
  tbb::combinable<Partial> partials([&] { return Partial{{}, std::vector<Sizes>(column_count)}; });
  tbb::parallel_for(size_t{0}, table.chunk_count(), [&](size_t index) {
    Partial& partial = partials.local();
    const HotChunk* chunk = table.chunk(index).hot();
    if (!chunk)
      throw Error("chunk " + std::to_string(index) + " of " + table.name() + " is frozen");
    for (uint32_t begin = 0; begin < chunk->size(); begin += block_rows) {
      const uint32_t end = std::min(chunk->size(), begin + block_rows);
      const auto start = std::chrono::steady_clock::now();
      auto block = DataBlock::freeze(table.columns(), *chunk, begin, end, sort_column);
      partial.seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      ++partial.blocks;
      partial.total.compressed += block->byte_size();
      for (size_t c = 0; c < column_count; ++c) {
        BlockColumn column = block->column(c);
        Sizes& sizes = partial.columns[c];
        sizes.uncompressed += column.uncompressed_bytes();
        sizes.compressed += column.compressed_bytes();
        ++sizes.schemes[static_cast<size_t>(column.scheme())];
        partial.total.uncompressed += column.uncompressed_bytes();
        ++partial.total.schemes[static_cast<size_t>(column.scheme())];
      }
    }
  });
  TableResult result{
      table.name(), block_rows, table.row_count(), 0, {}, std::vector<Sizes>(column_count), 0};
  partials.combine_each([&](const Partial& partial) {
    result.blocks += partial.blocks;
    result.total.add(partial.total);
    for (size_t c = 0; c < column_count; ++c) result.columns[c].add(partial.columns[c]);
    result.freeze_seconds += partial.seconds;
  });
  return result;
}

void print_row(const char* table, uint32_t block_rows, uint64_t rows, const Sizes& sizes,
               double seconds) {
  std::printf("%-9s %8u %10llu %12.1f %12.1f %6.3f %8llu %8llu %8llu %8llu %8.2f\n", table,
              block_rows, static_cast<unsigned long long>(rows), sizes.uncompressed / 1048576.0,
              sizes.compressed / 1048576.0, sizes.ratio(),
              static_cast<unsigned long long>(sizes.schemes[0]),
              static_cast<unsigned long long>(sizes.schemes[1]),
              static_cast<unsigned long long>(sizes.schemes[2]),
              static_cast<unsigned long long>(sizes.schemes[3]), seconds);
}

void write_csv_row(std::FILE* csv, const char* table, uint32_t block_rows, uint64_t rows,
                   uint64_t blocks, const Sizes& sizes, double seconds) {
  std::fprintf(csv, "%s,%u,%llu,%llu,%llu,%llu,%.5f,%llu,%llu,%llu,%llu,%.4f\n", table, block_rows,
               static_cast<unsigned long long>(rows), static_cast<unsigned long long>(blocks),
               static_cast<unsigned long long>(sizes.uncompressed),
               static_cast<unsigned long long>(sizes.compressed), sizes.ratio(),
               static_cast<unsigned long long>(sizes.schemes[0]),
               static_cast<unsigned long long>(sizes.schemes[1]),
               static_cast<unsigned long long>(sizes.schemes[2]),
               static_cast<unsigned long long>(sizes.schemes[3]), seconds);
}

void print_columns(const Table& table, const TableResult& result) {
  std::printf("\n%s, blocks of %u rows:\n%-16s %12s %12s %6s  schemes (s/d/t/u)\n",
              table.name().c_str(), result.block_rows, "column", "uncompr. MiB", "compr. MiB",
              "ratio");
  for (size_t c = 0; c < result.columns.size(); ++c) {
    const Sizes& sizes = result.columns[c];
    std::printf("%-16s %12.2f %12.2f %6.3f  %llu/%llu/%llu/%llu\n", table.columns()[c].name.c_str(),
                sizes.uncompressed / 1048576.0, sizes.compressed / 1048576.0, sizes.ratio(),
                static_cast<unsigned long long>(sizes.schemes[0]),
                static_cast<unsigned long long>(sizes.schemes[1]),
                static_cast<unsigned long long>(sizes.schemes[2]),
                static_cast<unsigned long long>(sizes.schemes[3]));
  }
}

int run(const Options& options) {
  const int threads =
      options.threads ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  Database database;
  Connection connection(database);
  // The hot chunks are the input: no freezing, also not by the background freezer.
  connection.query("SET freeze_policy = 'never'");
  connection.query(std::string(tpch::schema_sql()));
  std::fprintf(stderr, "generating TPC-H SF %g ...\n", options.scale_factor);
  tpch::load_tables(database.catalog(), options.scale_factor, threads);

  std::FILE* csv = nullptr;
  if (!options.csv.empty()) {
    csv = std::fopen(options.csv.c_str(), "w");
    if (!csv) throw Error("could not open \"" + options.csv + "\" for writing");
    std::fprintf(csv,
                 "table,block_rows,rows,blocks,uncompressed_bytes,compressed_bytes,ratio,"
                 "single,dictionary,truncation,uncompressed,freeze_seconds\n");
  }
  std::printf("SF %g, %s blocks\n", options.scale_factor,
              options.sort ? "date-sorted" : "unsorted");
  std::printf("%-9s %8s %10s %12s %12s %6s %8s %8s %8s %8s %8s\n", "table", "block", "rows",
              "uncompr.MiB", "compr.MiB", "ratio", kSchemeNames[0], "dict", "trunc", "uncompr",
              "freeze s");
  for (int shift = options.min_shift; shift <= options.max_shift; ++shift) {
    const uint32_t block_rows = 1u << shift;
    Sizes total;
    uint64_t total_rows = 0, total_blocks = 0;
    double total_seconds = 0;
    for (const char* name : kTables) {
      const Table& table = *database.catalog().find_table(name);
      TableResult result = freeze_table(table, block_rows, options.sort);
      print_row(name, block_rows, result.rows, result.total, result.freeze_seconds);
      if (csv)
        write_csv_row(csv, name, block_rows, result.rows, result.blocks, result.total,
                      result.freeze_seconds);
      if (options.columns && shift == options.max_shift) print_columns(table, result);
      total.add(result.total);
      total_rows += result.rows;
      total_blocks += result.blocks;
      total_seconds += result.freeze_seconds;
    }
    print_row("TOTAL", block_rows, total_rows, total, total_seconds);
    std::printf("\n");
    if (csv)
      write_csv_row(csv, "TOTAL", block_rows, total_rows, total_blocks, total, total_seconds);
  }
  if (csv) std::fclose(csv);
  return 0;
}

template <typename Number>
Number parse_number(const char* text, const char* what) {
  Number value{};
  const std::string_view view(text);
  auto [end, error] = std::from_chars(view.data(), view.data() + view.size(), value);
  if (error != std::errc() || end != view.data() + view.size())
    throw Error(std::string("invalid ") + what + ": \"" + text + "\"");
  return value;
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view name = argv[i];
    if (name == "--sort") {
      options.sort = true;
      continue;
    }
    if (name == "--columns") {
      options.columns = true;
      continue;
    }
    if (i + 1 >= argc) throw Error("invalid or incomplete option \"" + std::string(name) + "\"");
    const char* value = argv[++i];
    if (name == "--sf") {
      options.scale_factor = parse_number<double>(value, "scale factor");
    } else if (name == "--threads") {
      options.threads = parse_number<int>(value, "thread count");
    } else if (name == "--min-shift") {
      options.min_shift = parse_number<int>(value, "block size shift");
    } else if (name == "--max-shift") {
      options.max_shift = parse_number<int>(value, "block size shift");
    } else if (name == "--csv") {
      options.csv = value;
    } else {
      throw Error("unknown option \"" + std::string(name) + "\"");
    }
  }
  if (options.min_shift < 1 || options.max_shift > 16 || options.min_shift > options.max_shift)
    throw Error("block size shifts must satisfy 1 <= min <= max <= 16");
  if (options.threads < 0) throw Error("the thread count must not be negative");
  return options;
}

}  // namespace
}  // namespace floe

int main(int argc, char** argv) {
  try {
    return floe::run(floe::parse_options(argc, argv));
  } catch (const floe::Error& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
}
