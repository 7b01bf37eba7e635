# Plots of bench/data_blocks/shell_timings.sh output (Data Blocks paper Fig 13 and Fig 5):
#   gnuplot -e "figure='fig13'; data='bench/results/vector_size_sf1.txt'; \
#               png='bench/results/vector_size_sf1.png'" bench/data_blocks/plot_shell_timings.gp
#   gnuplot -e "figure='fig5'; data='bench/results/layout_combinations.txt'; \
#               png='bench/results/layout_combinations.png'" bench/data_blocks/plot_shell_timings.gp
set terminal pngcairo size 800,500 font ",11"
set output png
set grid ytics
set key top right
set logscale x 2

# The lines of one configuration as (x, median ms): fig13 labels read "q1 vector_size=N",
# fig5 labels "layouts N, mode".
if (figure eq "fig13") {
  set title "TPC-H Q1 and Q6 on Data Blocks (SF 1, 2 threads) against the vector size"
  set xlabel "vector size (rows)"
  set ylabel "execution time (ms)"
  set logscale y
  series(q) = sprintf("< awk '$1 == \"%s\" { split($2, n, \"=\"); print n[2], $4 }' '%s'", q, data)
  plot series("q1") using 1:2 with linespoints lw 2 pt 7 title "Q1", \
       series("q6") using 1:2 with linespoints lw 2 pt 7 title "Q6"
} else {
  set title "Compile time against storage layout combinations (8 columns)"
  set xlabel "layout combinations among the table's Data Blocks"
  set ylabel "compile time (ms)"
  set yrange [0:*]
  series(mode) = sprintf("< awk '$3 == \"%s\" { sub(\",\", \"\", $2); print $2, $5 }' '%s'", mode, data)
  plot series("vectorized") using 1:2 with linespoints lw 2 pt 7 title "vectorized scan", \
       series("jit") using 1:2 with linespoints lw 2 pt 7 title "JIT scan"
}
