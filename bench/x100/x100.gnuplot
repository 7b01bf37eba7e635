# Plots of the X100 experiments (bench/RESULTS.md "X100 experiments"):
#   gnuplot -e "dir='bench/results'" bench/x100/x100.gnuplot
# Inputs in `dir`: x100_q1_sf1.txt and x100_probe.txt (bench/x100/x100_sql.sh, lines
# "label median_ms") and x100_selection.csv (bench/x100/selection_bench.cpp, CSV with
# --benchmark_repetitions and --benchmark_report_aggregates_only=true; medians plotted).
set terminal pngcairo size 800,500 font ",11"
set grid ytics
set key top right

# Fig 4.6 / 5.1: Q1 against the vector size, the compiled engine as a horizontal line.
q1 = dir."/x100_q1_sf1.txt"
compiled = real(system(sprintf("awk '$1 == \"q1_compiled\" { print $2 }' '%s'", q1)))
set output dir."/x100_q1_vector_size.png"
set title "TPC-H Q1 (SF 1, 2 threads): vectorized engine against the vector size"
set xlabel "vector size (rows)"
set ylabel "execution time (ms, median)"
set logscale x 2
set logscale y
plot sprintf("< awk '$1 ~ /^q1_vectorized_/ { sub(\"q1_vectorized_\", \"\", $1); print $1, $2 }' '%s'", q1) \
       using 1:2 with linespoints lw 2 pt 7 title "vectorized", \
     compiled with lines lw 2 dt 2 title "compiled"
unset logscale

# Fig 5.6: branching against branch-free selection.
csv = dir."/x100_selection.csv"
set output dir."/x100_selection.png"
set title "Selection value < s on 4-byte integers, 1024-row vectors"
set xlabel "selectivity (%)"
set ylabel "ns per row (median)"
set yrange [0:*]
set datafile separator ","
set datafile columnheaders
series(mode) = sprintf("< (head -1 '%s'; grep '^\"select/%s/[0-9]*/.*_median' '%s')", csv, mode, csv)
plot series("branching") using "selectivity":"ns_per_tuple" with linespoints lw 2 pt 7 title "branching", \
     series("branch_free") using "selectivity":"ns_per_tuple" with linespoints lw 2 pt 7 title "branch-free"
set datafile separator whitespace
unset datafile columnheaders
set yrange [*:*]

# Fig 5.9: hash-join probe, ns per probe row (2^22 probe rows) against the build rows.
probe = dir."/x100_probe.txt"
set output dir."/x100_probe.png"
set title "Hash-join probe of 2^{22} rows (2 threads): compiled against vectorized"
set xlabel "build rows"
set ylabel "ns per probe row (median)"
set logscale x 10
set logscale y
set key top left
line(table, mode) = sprintf("< awk '{ split($1, f, \"_\") } f[1] == \"probe\" && f[3] == \"%s\" && f[4] == \"%s\" { print f[2], $2 * 1e6 / 4194304 }' '%s'", table, mode, probe)
plot for [table in "chaining cht cat"] line(table, "compiled") using 1:2 \
       with linespoints lw 2 title table." compiled", \
     for [table in "chaining cht cat"] line(table, "vectorized") using 1:2 \
       with linespoints lw 2 dt 2 title table." vectorized"
