# Plots of bench/scan/simd_match_bench.cpp (bench/RESULTS.md, "Data Blocks: SIMD find/reduce
# matches"). Input: the benchmark's CSV with --benchmark_repetitions and
# --benchmark_report_aggregates_only=true; the medians are plotted.
#   gnuplot -e "csv='bench/results/simd_match.csv'; out='bench/results'" bench/scan/simd_match.gnuplot
set datafile separator ","
set datafile columnheaders
set terminal pngcairo size 1200,900 font ",11"

levels = "scalar sse4.2 avx2 avx512"
types = "u8 u16 u32 u64"
# The header and the median rows of one benchmark series.
series(kind, type, level) = sprintf("< (head -1 '%s'; grep '^\"%s/%s/%s/[0-9]*_median' '%s')", \
                                    csv, kind, type, level, csv)

# Figure 8: find_matches, ns per row against selectivity, one panel per element width.
set output out."/simd_find_matches.png"
set multiplot layout 2,2 title "find_matches: ns per row (median); 64K-row chunk in 16K-row vectors" noenhanced
set xlabel "selectivity (%)"
set ylabel "ns per row"
set yrange [0:*]
set key below horizontal
do for [type in types] {
  set title type
  plot for [level in levels] series("find", type, level) \
       using "selectivity":"ns_per_tuple" with linespoints title level
}
unset multiplot

# Figure 9: reduce_matches with a 40% restriction, ns per input position against the
# selectivity of the first restriction.
set output out."/simd_reduce_matches.png"
set multiplot layout 2,2 title "reduce_matches (40% restriction): ns per input position (median)" noenhanced
set xlabel "selectivity of the first restriction (%)"
set ylabel "ns per position"
do for [type in types] {
  set title type
  plot for [level in levels] series("reduce", type, level) \
       using "selectivity":"ns_per_tuple" with linespoints title level
}
unset multiplot
