# Plots of bench/join_tables/join_experiments.cpp (bench/RESULTS.md, "Join hash tables").
#   gnuplot -e "dir='bench/results'" bench/join_tables/join_experiments.gnuplot
# reads dir/join_tables_{size,filter,multiway}.csv and writes dir/join_tables_*.png.
set datafile separator ","
set datafile columnheaders
set terminal pngcairo size 1200,800 font ",11"
set key below horizontal
tables = "chaining cht cat"
size = dir."/join_tables_size.csv"
rows_of(table, payload, factor) = sprintf("< (head -1 '%s'; grep '^%s,[0-9]*,%d,%d,' '%s')", \
                                          size, table, payload, factor, size)

# Table 1 / Fig 6: bytes per build row against the inner's rows, one panel per payload.
set output dir."/join_tables_memory.png"
set multiplot layout 1,3 title "Join table bytes per build row (keys unique, range 2x rows)"
set logscale x
set xlabel "inner rows"
set ylabel "bytes per row"
set yrange [0:*]
do for [payload in "0 8 24"] {
  set title "payload ".payload." bytes"
  plot for [t in tables] rows_of(t, payload + 0, 2) using "inner_rows":"bytes_per_row" \
       with linespoints title t
}
unset multiplot

# Fig 8: build and probe time. Probe: million probe keys per second (4M probes, all hits).
set output dir."/join_tables_time.png"
set multiplot layout 2,3 title "Build time (ms) and probe throughput (M keys/s; 4M probes, 10M at 1E7), 2 threads, medians"
do for [payload in "0 8 24"] {
  set title "build, payload ".payload
  set logscale y
  set ylabel "build ms"
  set yrange [*:*]
  plot for [t in tables] rows_of(t, payload + 0, 2) using "inner_rows":"build_ms" \
       with linespoints title t
}
unset logscale y
do for [payload in "0 8 24"] {
  set title "probe, payload ".payload
  set ylabel "M probe keys / s"
  set yrange [0:*]
  plot for [t in tables] rows_of(t, payload + 0, 2) using "inner_rows":"probe_mkeys_per_s" \
       with linespoints title t
}
unset multiplot
unset logscale x

# Fig 12: key density, 1M build rows in a range 2x, 10x, 100x the rows.
set output dir."/join_tables_density.png"
density = dir."/join_tables_density.csv"
dens(table) = sprintf("< (head -1 '%s'; grep '^%s,' '%s')", density, table, density)
set multiplot layout 1,2 title "Key density: 1M build rows, keys in a range 2x/10x/100x the rows"
set logscale x
set xlabel "key range / rows"
set title "bytes per row"
set ylabel "bytes per row"
plot for [t in tables] dens(t) using "range_factor":"bytes_per_row" with linespoints title t
set title "probe throughput"
set ylabel "M probe keys / s"
plot for [t in tables] dens(t) using "range_factor":"probe_mkeys_per_s" with linespoints title t
unset multiplot
unset logscale x

# Fig 14: a 3-way join pipeline against selectivity, with and without early bitmap filtering.
set output dir."/join_tables_filter.png"
filter = dir."/join_tables_filter.csv"
flt(table, early) = sprintf("< (head -1 '%s'; grep '^%s,3,[0-9]*,[0-9]*,%d,' '%s')", \
                            filter, table, early, filter)
set title "3-way join probe (1M rows per build side, 1M probe rows, 2 threads)"
set xlabel "selectivity (% of probe rows matching all joins)"
set ylabel "probe ms"
set yrange [0:*]
plot for [t in "cht cat"] flt(t, 1) using "selectivity":"probe_ms" with linespoints \
       title t." early filter", \
     for [t in "cht cat"] flt(t, 0) using "selectivity":"probe_ms" with linespoints dt 2 \
       title t." join by join"

# Fig 9: 2- to 4-way joins: memory of all build sides.
set output dir."/join_tables_multiway.png"
multi = dir."/join_tables_multiway.csv"
mw(table) = sprintf("< (head -1 '%s'; grep '^%s,' '%s')", multi, table, multi)
set multiplot layout 1,2 title "n-way joins, 1M rows per build side"
set xlabel "joined tables"
set title "memory of all join tables (MB)"
set ylabel "MB"
plot for [t in tables] mw(t) using "joins":(column("total_bytes") / 1e6) with linespoints title t
set title "probe (1M probe rows, 50% selectivity)"
set ylabel "probe ms"
plot for [t in tables] mw(t) using "joins":"probe_ms" with linespoints title t
unset multiplot
