#!/usr/bin/env bash
# Data Blocks paper Fig 11 and Fig 13 in one load each, through the floe shell:
#   bench/data_blocks/shell_timings.sh fig11 [SF]   Q6 with and without PSMA, on lineitem
#       frozen as loaded and frozen with every block sorted on l_shipdate
#   bench/data_blocks/shell_timings.sh fig13 [SF]   Q1 and Q6 on Data Blocks against the
#       vectorized scan's vector size
# Prints one line per measurement: label and the median execution time (ms) of 5 runs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
experiment="${1:?fig11 or fig13}"
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

script() {
  echo ".timer on"
  echo "set freeze_policy = 'never';"
  echo "set threads = 2;"
  echo "call dbgen($sf);"
  case "$experiment" in
    fig11)
      echo "vacuum freeze;"
      measure "unsorted, PSMA off" "set psma = off;" "$q6"
      measure "unsorted, PSMA on" "set psma = on;" "$q6"
      echo "drop table lineitem;"
      echo "drop table orders;"
      echo "drop table customer; drop table part; drop table partsupp; drop table supplier;"
      echo "drop table nation; drop table region;"
      echo "call dbgen($sf);"
      echo "call freeze('lineitem', 'l_shipdate');"
      echo "vacuum freeze;"
      measure "sorted on l_shipdate, PSMA off" "set psma = off;" "$q6"
      measure "sorted on l_shipdate, PSMA on" "set psma = on;" "$q6"
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
script | "$root/build/shell/floe" 2>/dev/null | python3 -c '
import re, statistics, sys
label, seen_label_time, times = None, False, {}
for line in sys.stdin:
    row = re.match(r"│ ((?:q1|q6|unsorted|sorted)[^│]*?) +│", line)
    if row:
        label, seen_label_time = row.group(1), False
    elif line.startswith("Time:") and label:
        if seen_label_time:
            times.setdefault(label, []).append(float(re.search(r"execute ([0-9.]+)", line).group(1)))
            label = None
        else:
            seen_label_time = True
for name, values in times.items():
    print(f"{name:36s} median {statistics.median(values):8.2f} ms ({len(values)} runs)")
'
