#!/usr/bin/env bash
# The X100 thesis' SQL-level experiments on floe (bench/RESULTS.md "X100 experiments"), medians
# of RUNS runs (default 3), at THREADS threads (default 2):
#   bench/x100/x100_sql.sh q1 [SF] > bench/results/x100_q1_sf1.txt
#       Fig 4.6 / 5.1: TPC-H Q1 in the vectorized engine against the vector size 1 .. 64K
#       (powers of 4, and 2048, the default), and in the compiled engine (the reference line).
#   bench/x100/x100_sql.sh probe > bench/results/x100_probe.txt
#       Fig 5.9: a hash-join probe of 2^22 rows (the thesis' 4M), all matching, into build
#       sides of 1E3 .. 4E6 rows (bigint key and payload; the build side stays the smaller
#       one), compiled against vectorized, under each join table: the probe pipeline's time
#       from EXPLAIN ANALYZE in the shell, the two engines alternating run by run.
# Output: one line per measurement, "label median_ms" (bench/x100/x100.gnuplot).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${BUILD:-$root/build}"
experiment="${1:?q1 or probe}"
runs="${RUNS:-3}"
threads="${THREADS:-2}"
files=$(mktemp -d)
trap 'rm -rf "$files"' EXIT
list=""
add() {  # add NAME SQL: a query file named NAME
  printf '%s\n' "$2" > "$files/$1.sql"
  list="$list${list:+,}$files/$1.sql"
}

case "$experiment" in
  q1)
    sf="${2:-1}"
    q1="$(cat "$root/bench/tpch/queries/q01.sql")"
    add "q1_compiled" "set execution_mode = 'compiled'; $q1"
    for size in 1 4 16 64 256 1024 2048 4096 16384 65536; do
      add "q1_vectorized_$size" "set execution_mode = 'vectorized'; set vector_size = $size; $q1"
    done
    ;;
  probe)
    # Through the shell: EXPLAIN ANALYZE's time of the probe pipeline (P1), without the build.
    sizes="1000 10000 100000 1000000 4000000"
    probe="select i"
    labels="$files/labels"
    {
      echo "set threads = $threads;"
      for n in $sizes; do
        echo "create table x100_build_$n as"
        echo "  select i::bigint as k, i::bigint * 3 as v from generate_series(0, $n - 1) as g(i);"
        probe="$probe, (i * 2654435761) % $n as k$n"
      done
      echo "create table x100_probe as $probe from generate_series(0, 4194303) as g(i);"
      for n in $sizes; do
        for table in chaining cht cat; do
          for _ in $(seq "$runs"); do
            for mode in compiled vectorized; do  # alternating, to share the machine's noise
              echo "probe_${n}_${table}_$mode" >> "$labels"
              echo "set execution_mode = '$mode'; set join_table = '$table';"
              echo "explain analyze select count(*), sum(b.v) from x100_probe p"
              echo "  join x100_build_$n b on p.k$n = b.k;"
            done
          done
        done
      done
    } > "$files/probe.sql"
    "$build/shell/floe" < "$files/probe.sql" 2>&1 | python3 -c '
import re, statistics, sys
labels = open(sys.argv[1]).read().split()
times = [float(m.group(1)) for m in re.finditer(r"P1: Scan x100_probe .*?\(([0-9.]+) ms\)", sys.stdin.read())]
assert len(times) == len(labels), (len(times), len(labels))
runs = {}
for label, ms in zip(labels, times):
    runs.setdefault(label, []).append(ms)
for label, values in runs.items():
    print(f"{label:40s} {statistics.median(values):10.2f}")
' "$labels"
    exit 0
    ;;
  *) echo "unknown experiment $experiment" >&2; exit 2 ;;
esac

# q1: through floe-tpch, one load of the data, each file RUNS times.
"$build/bench/floe-tpch" run --sf "$sf" --runs "$runs" --threads "$threads" --no-duckdb \
  --query-files "$list" --json "$files/report.json" >&2
python3 - "$files/report.json" <<'PY'
import json, sys
for report in json.load(open(sys.argv[1])):
    if "error" in report:
        print(f"{report['query']:40s} error {report['error']}")
    else:
        print(f"{report['query']:40s} {report['exec_ms']:10.2f}")
PY
