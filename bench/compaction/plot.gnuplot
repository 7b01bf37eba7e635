# Plots of floe-compaction-experiments' CSV (bench/RESULTS.md "Chunk compaction"):
#   gnuplot -e "dir='bench/results'" bench/compaction/plot.gnuplot
# reads dir/compaction_joins.csv and dir/compaction_tuple.csv, writes
# dir/compaction_joins.png (Fig 10) and dir/compaction_tuple.png (Fig 11).
if (!exists("dir")) dir = 'bench/results'
set datafile separator ','
set key top left
set grid
set style data linespoints

set terminal pngcairo size 1500,450
set output dir.'/compaction_joins.png'
set multiplot layout 1,3 title 'Fig 10: probe pipeline time by chunk-reduction factor (R 2E6 rows, 2 threads)'
set logscale x 2
set xlabel 'CRF of the first join'
set ylabel 'ms (median)'
do for [k=2:4] {
  set title sprintf('%d joins', k)
  # Rows (after the header line) go by CRF, then k = 2, 3, 4: every third from k's.
  plot dir.'/compaction_joins.csv' every 3::(k-1) using 2:3 title 'none', \
       '' every 3::(k-1) using 2:4 title 'full', \
       '' every 3::(k-1) using 2:5 title 'binary', \
       '' every 3::(k-1) using 2:6 title 'learned'
}
unset multiplot

set terminal pngcairo size 700,450
set output dir.'/compaction_tuple.png'
set title 'Fig 11: probe pipeline time by payload bytes (3 joins, CRF 8)'
set xlabel 'payload bytes of S_2'
plot dir.'/compaction_tuple.csv' using 1:2 title 'none', '' using 1:3 title 'full', \
     '' using 1:4 title 'binary', '' using 1:5 title 'learned'
