# Plots of bench/scan/truncation_vs_bitpacking_bench.cpp (bench/RESULTS.md, "Data Blocks:
# truncation against bit-packing"), after Figure 12 of the Data Blocks paper. Input: the
# benchmark's CSV with --benchmark_repetitions and --benchmark_report_aggregates_only=true.
#   gnuplot -e "csv='bench/results/truncation_vs_bitpacking.csv'; out='bench/results'" \
#           bench/scan/truncation_vs_bitpacking.gnuplot
set datafile separator ","
set datafile columnheaders
set terminal pngcairo size 1400,600 font ",11"
# The header and the median rows of one benchmark series.
series(name) = sprintf("< (head -1 '%s'; grep '^\"%s/[0-9]*_median' '%s')", csv, name, csv)

set output out."/truncation_vs_bitpacking.png"
set multiplot layout 1,2
set xlabel "selectivity (%)"
set key bottom right noenhanced

set title "(a) SARG l <= A <= r: ns per row (median)"
set ylabel "ns per row"
set yrange [0:*]
plot for [format in "truncation bitpacking"] series("sarg/".format) \
     using "selectivity":"ns_per_tuple" with linespoints title format

set title "(b) unpacking A, B, C: ns per matching tuple (median)"
set ylabel "ns per matching tuple"
set logscale y
set yrange [*:*]
set key top right
plot for [strategy in "truncation bitpacking_positional bitpacking_unpack_all"] \
     series("unpack/".strategy) using "selectivity":"ns_per_tuple" with linespoints title strategy
unset multiplot
