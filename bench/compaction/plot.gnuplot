# Plots of floe-compaction-experiments' CSV (bench/RESULTS.md "Chunk compaction"):
#   gnuplot -e "dir='bench/results'" bench/compaction/plot.gnuplot
# reads dir/compaction_joins.csv, dir/compaction_tuple.csv, dir/compaction_thresholds.csv and
# dir/compaction_selection.csv, writes dir/compaction_joins.png (Fig 10),
# dir/compaction_tuple.png (Fig 11), dir/compaction_thresholds.png (Fig 12) and
# dir/compaction_selection.png (Fig 13).
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

set terminal pngcairo size 1200,450
set output dir.'/compaction_thresholds.png'
set multiplot layout 1,2 title 'Fig 12: learned thresholds per join (3 joins, CRF 8, learned compaction)'
unset logscale x
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:100]
set xlabel 'threshold (rows)'
set ylabel 'share of selections (%)'
set key top right
# Lines 1-9 (after the header, line 0): case 1, 10-18: case 2.
do for [c=1:2] {
  set title sprintf('case %d: S_2 tuple of %d bytes', c, c == 1 ? 16 : 1000)
  plot dir.'/compaction_thresholds.csv' every ::((c-1)*9+1)::((c-1)*9+9) using 4:xtic(3) title 'join 1', \
       '' every ::((c-1)*9+1)::((c-1)*9+9) using 5 title 'join 2', \
       '' every ::((c-1)*9+1)::((c-1)*9+9) using 6 title 'join 3'
}
unset multiplot
set yrange [*:*]

set terminal pngcairo size 1200,450
set output dir.'/compaction_selection.png'
set multiplot layout 1,2 title 'Fig 13: a filter over chunks with extended selection vectors (2048 rows per chunk)'
set style data linespoints
set logscale x 2
set xlabel 'BIGINT columns'
set ylabel 'ms (median)'
set key top left
# Lines 1-6 (after the header, line 0): one SV; 7-12: one SV per column.
do for [f=0:1] {
  set title f == 0 ? 'one SV for all columns' : 'one SV per column'
  plot dir.'/compaction_selection.csv' every ::(6*f+1)::(6*f+6) using 1:3 title 'predicate', \
       '' every ::(6*f+1)::(6*f+6) using 1:4 title 'SV update', \
       '' every ::(6*f+1)::(6*f+6) using 1:($3 + $4) title 'total'
}
unset multiplot
