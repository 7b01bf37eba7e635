#!/usr/bin/env bash
# Runs the Data Blocks scan microbenchmarks (bench/RESULTS.md), writes their CSV and plots to
# bench/results/ and prints the tables of medians and ratios.
# Usage: bench/scan/run.sh [build directory, default: build]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
results=$root/bench/results
mkdir -p "$results"
flags=(--benchmark_repetitions=5 --benchmark_report_aggregates_only=true --benchmark_format=csv)

for bench in simd_match truncation_vs_bitpacking; do
  "$build/bench/floe_bench_$bench" "${flags[@]}" > "$results/$bench.csv"
  gnuplot -e "csv='$results/$bench.csv'; out='$results'" "$root/bench/scan/$bench.gnuplot"
  echo "## $bench"
  awk -F, -f "$root/bench/scan/scan_tables.awk" "$results/$bench.csv"
done
