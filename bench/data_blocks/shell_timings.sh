#!/usr/bin/env bash
# Data Blocks paper Fig 5, Fig 11 and Fig 13 through the floe shell, each in one process:
#   bench/data_blocks/shell_timings.sh fig11 [SF]   Q6 with and without PSMA, on lineitem
#       frozen as loaded and frozen with every block sorted on l_shipdate
#   bench/data_blocks/shell_timings.sh fig13 [SF]   Q1 and Q6 on Data Blocks against the
#       vectorized scan's vector size
#   bench/data_blocks/shell_timings.sh fig5         compile time of a scan of 8 bigint
#       columns against the number of storage layout combinations among the table's Data
#       Blocks (1 to 64), with the vectorized and with the JIT scan
# Prints one line per measurement: label and the median execution time (ms) of 5 runs
# (fig5: the median compile time). Configurations compared with each other alternate run by
# run, so that they share the machine's noise.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
experiment="${1:?fig5, fig11 or fig13}"
sf="${2:-1}"
q1="$(cat "$root/bench/tpch/queries/q01.sql")"
q6="$(cat "$root/bench/tpch/queries/q06.sql")"
runs=${RUNS:-5}

# SQL that runs `query` $runs times after `setup`, each tagged with `label` for the parser.
measure() {
  local label="$1" setup="$2" query="$3"
  echo "$setup"
  for _ in $(seq $runs); do
    echo "-- $label"
    echo "select '$label' as label;"
    echo "$query"
  done
}

# Like measure, for two settings that alternate run by run.
alternate() {
  local label1="$1" setup1="$2" label2="$3" setup2="$4" query="$5"
  for _ in $(seq $runs); do
    echo "$setup1"
    echo "select '$label1' as label;"
    echo "$query"
    echo "$setup2"
    echo "select '$label2' as label;"
    echo "$query"
  done
}

# fig5: tables l<K> of K Data Blocks whose 8 columns each use the scheme given by a base-4
# digit of the block number (single value, dictionary, truncation, uncompressed), so that
# the K blocks have K different layout combinations.
layouts() {
  echo "create table hex (x integer);"
  echo "insert into hex values $(seq -s, -f '(%g)' 0 15);"
  local rows="select a.x * 4096 + b.x * 256 + c.x * 16 + d.x as n from hex a, hex b, hex c, hex d"
  local sum="" column value
  for column in 0 1 2 3 4 5 6 7; do sum="$sum${sum:+ + }sum(c$column)"; done
  for combinations in 1 2 4 8 16 32 64; do
    echo "create table l$combinations (c0 bigint, c1 bigint, c2 bigint, c3 bigint," \
      "c4 bigint, c5 bigint, c6 bigint, c7 bigint);"
    for ((block = 0; block < combinations; block++)); do
      local values=""
      for column in 0 1 2 3 4 5 6 7; do
        case $(((block >> (2 * (column % 3))) % 4)) in
          0) value="7" ;;                                         # single value
          1) value="(n % 4) * 1000000000000" ;;                   # dictionary
          2) value="n % 200" ;;                                   # truncation
          3) value="(n * 2654435761) % 9223372036854775807" ;;    # uncompressed
        esac
        values="$values${values:+, }$value"
      done
      echo "insert into l$combinations select $values from ($rows) as numbers;"
    done
    echo "vacuum freeze l$combinations;"
    alternate "layouts $combinations, vectorized" "set scan_mode = 'vectorized';" \
      "layouts $combinations, jit" "set scan_mode = 'jit';" \
      "select $sum from l$combinations where c0 > 0;"
  done
}

script() {
  echo ".timer on"
  echo "set freeze_policy = 'never';"
  echo "set threads = 2;"
  [ "$experiment" = fig5 ] || echo "call dbgen($sf);"
  # fig5: one LLVM optimization level for every table size (auto picks by estimated work).
  [ "$experiment" = fig5 ] && echo "set optimization = 'optimized';"
  case "$experiment" in
    fig5)
      layouts
      ;;
    fig11)
      echo "vacuum freeze;"
      alternate "unsorted, PSMA off" "set psma = off;" "unsorted, PSMA on" "set psma = on;" "$q6"
      echo "drop table lineitem;"
      echo "drop table orders;"
      echo "drop table customer; drop table part; drop table partsupp; drop table supplier;"
      echo "drop table nation; drop table region;"
      echo "call dbgen($sf);"
      echo "call freeze('lineitem', 'l_shipdate');"
      echo "vacuum freeze;"
      alternate "sorted on l_shipdate, PSMA off" "set psma = off;" \
        "sorted on l_shipdate, PSMA on" "set psma = on;" "$q6"
      ;;
    fig13)
      echo "vacuum freeze;"
      for size in 1 16 256 1024 4096 8192 16384 65536; do
        measure "q1 vector_size=$size" "set vector_size = $size;" "$q1"
        measure "q6 vector_size=$size" "set vector_size = $size;" "$q6"
      done
      ;;
    *) echo "unknown experiment $experiment" >&2; exit 2 ;;
  esac
}

# The shell prints the label row and its "Time:" line, then the query's result and its
# "Time: ... execute X ms" line, which belongs to the label.
metric=execute
[ "$experiment" = fig5 ] && metric=compile
script | "$root/build/shell/floe" 2>/dev/null | METRIC=$metric python3 -c '
import os, re, statistics, sys
label, seen_label_time, times = None, False, {}
for line in sys.stdin:
    row = re.match(r"│ ((?:q1|q6|unsorted|sorted|layouts)[^│]*?) +│", line)
    if row:
        label, seen_label_time = row.group(1), False
    elif line.startswith("Time:") and label:
        if seen_label_time:
            times.setdefault(label, []).append(float(re.search(os.environ["METRIC"] + r" ([0-9.]+)", line).group(1)))
            label = None
        else:
            seen_label_time = True
for name, values in times.items():
    print(f"{name:36s} median {statistics.median(values):8.2f} ms ({len(values)} runs)")
'
