# Per-query compile + exec time of each execution mode against DuckDB, from the table that
# `floe-tpch run --mode compiled,vectorized,adaptive` prints (bench/RESULTS.md "Adaptive
# execution"):
#   gnuplot -e "data='bench/results/adaptive_sf1.txt'; png='bench/results/adaptive_sf1.png'; \
#               label='SF 1'" bench/tpch/plot_modes.gp
set terminal pngcairo size 1100,500 font ",10"
set output png
set title sprintf("TPC-H %s, 2 threads: compile + exec per query, each execution mode and DuckDB", label)
set ylabel "ms (log scale)"
set logscale y
set grid ytics
set key top left
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -45
# One line per query: query, compiled, vectorized, adaptive, DuckDB (total ms).
table = sprintf("< awk '$1 ~ /^q[0-9][0-9]$/ && NF >= 8 { t[$1, $2] = $3 + $4; d[$1] = $7; \
                 if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } } \
                 END { for (i = 1; i <= n; ++i) { q = order[i]; \
                 print q, t[q, \"compiled\"], t[q, \"vectorized\"], t[q, \"adaptive\"], d[q] } }' '%s'", data)
plot table using 2:xtic(1) title "compiled", \
     '' using 3 title "vectorized", \
     '' using 4 title "adaptive", \
     '' using 5 title "DuckDB"
