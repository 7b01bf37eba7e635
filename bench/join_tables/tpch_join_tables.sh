#!/bin/sh
# The SQL-level comparison of the join tables (bench/RESULTS.md "Join hash tables"): the
# join-heavy TPC-H queries Q3, Q5, Q9 and Q10 under each SET join_table, one load of the data,
# medians of RUNS runs, at THREADS threads.
#   bench/join_tables/tpch_join_tables.sh BUILD_DIR [SF] [RUNS] [THREADS]
set -e
build=${1:?usage: tpch_join_tables.sh BUILD_DIR [SF] [RUNS] [THREADS]}
sf=${2:-1}
runs=${3:-5}
threads=${4:-2}
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
queries=$(mktemp -d)
trap 'rm -rf "$queries"' EXIT
files=""
for q in 03 05 09 10; do
  for table in chaining cht cat auto; do
    file="$queries/q${q}_$table.sql"
    printf "set join_table = '%s';\n" "$table" > "$file"
    cat "$source_dir/bench/tpch/queries/q$q.sql" >> "$file"
    files="$files${files:+,}$file"
  done
done
"$build/bench/floe-tpch" run --sf "$sf" --runs "$runs" --threads "$threads" --no-duckdb \
  --query-files "$files"
