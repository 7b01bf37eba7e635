# Data Block compression ratio against block size (Data Blocks paper, Fig. 10), from the CSV
# of floe-block-compression:
#   gnuplot -e "csv='bench/results/data_blocks_sf1.csv'; png='bench/results/data_blocks_sf1.png'" \
#           bench/data_blocks/plot_compression.gp
if (!exists("csv")) csv = 'bench/results/data_blocks_sf1.csv'
if (!exists("png")) png = 'bench/results/data_blocks_sf1.png'

set terminal pngcairo size 800,500 font ",11"
set output png
set datafile separator ","
set title "TPC-H in Data Blocks: size relative to hot chunks"
set xlabel "rows per Data Block"
set ylabel "compressed / uncompressed"
set logscale x 2
set format x "2^{%L}"
set xrange [1536:87381]
set yrange [0:1]
set grid ytics
set key outside right

# One line per table: its rows of the CSV as (block rows, ratio).
rows_of(name) = sprintf("< grep '^%s,' '%s'", name, csv)
plot for [t in "TOTAL lineitem orders partsupp part customer"] \
     rows_of(t) using 2:7 with linespoints lw (t eq "TOTAL" ? 3 : 1.5) pt 7 title t
