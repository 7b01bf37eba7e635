# Markdown tables of the scan microbenchmarks' medians, with ratios, for bench/RESULTS.md.
# Input: CSV of bench/scan/simd_match_bench.cpp or truncation_vs_bitpacking_bench.cpp run with
# --benchmark_repetitions and --benchmark_report_aggregates_only=true.
#   awk -F, -f bench/scan/scan_tables.awk bench/results/simd_match.csv
BEGIN { nlevels = split("scalar sse4.2 avx2 avx512", levels, " ") }

NR == 1 {
  for (i = 1; i <= NF; ++i) {
    gsub(/"/, "", $i)
    if ($i == "ns_per_tuple") ns_column = i
  }
  next
}

$1 ~ /_median"$/ {
  name = $1
  gsub(/"/, "", name)
  sub(/_median$/, "", name)
  n = split(name, part, "/")
  series = part[1]
  for (i = 2; i < n; ++i) series = series "/" part[i]
  ns[series, part[n]] = $ns_column
  if (!((series) in seen)) { seen[series] = 1; order[++nseries] = series }
  if (!((part[1], part[n]) in seen_percent)) {
    seen_percent[part[1], part[n]] = 1
    percents[part[1]] = percents[part[1]] " " part[n]
  }
  if (part[1] == "find" || part[1] == "reduce") {
    if (!((part[2]) in seen_type)) { seen_type[part[2]] = 1; types[++ntypes] = part[2] }
  }
}

function level_table(kind, unit,    t, p, l, np, pct, row, base) {
  printf "%s, ns per %s (median) and speedup over scalar:\n\n", kind, unit
  row = "| type | selectivity % |"
  for (l = 1; l <= nlevels; ++l) if ((kind "/" types[1] "/" levels[l]) in seen) row = row " " levels[l] " |"
  for (l = 2; l <= nlevels; ++l) if ((kind "/" types[1] "/" levels[l]) in seen) row = row " " levels[l] " speedup |"
  print row
  gsub(/[^|]+/, "---", row)
  print row
  for (t = 1; t <= ntypes; ++t) {
    np = split(percents[kind], pct, " ")
    for (p = 1; p <= np; ++p) {
      base = ns[kind "/" types[t] "/scalar", pct[p]]
      row = "| " types[t] " | " pct[p] " |"
      for (l = 1; l <= nlevels; ++l)
        if ((kind "/" types[t] "/" levels[l]) in seen) row = row sprintf(" %.3f |", ns[kind "/" types[t] "/" levels[l], pct[p]])
      for (l = 2; l <= nlevels; ++l)
        if ((kind "/" types[t] "/" levels[l]) in seen) row = row sprintf(" %.2fx |", base / ns[kind "/" types[t] "/" levels[l], pct[p]])
      print row
    }
  }
  print ""
}

function format_table(    p, np, pct, sarg_t, sarg_b, un_t, un_p, un_a, best) {
  print "| selectivity % | SARG truncation ns/row | SARG bit-packing ns/row | bit-packing / truncation | unpack truncation ns/match | unpack positional ns/match | unpack all+filter ns/match | best bit-packing / truncation |"
  print "|---|---|---|---|---|---|---|---|"
  np = split(percents["sarg"], pct, " ")
  for (p = 1; p <= np; ++p) {
    sarg_t = ns["sarg/truncation", pct[p]]
    sarg_b = ns["sarg/bitpacking", pct[p]]
    if (("unpack/truncation", pct[p]) in ns) {
      un_t = ns["unpack/truncation", pct[p]]
      un_p = ns["unpack/bitpacking_positional", pct[p]]
      un_a = ns["unpack/bitpacking_unpack_all", pct[p]]
      best = un_p < un_a ? un_p : un_a
      printf "| %s | %.3f | %.3f | %.2fx | %.2f | %.2f | %.2f | %.2fx |\n", pct[p], sarg_t, sarg_b, sarg_b / sarg_t, un_t, un_p, un_a, best / un_t
    } else {
      printf "| %s | %.3f | %.3f | %.2fx | – | – | – | – |\n", pct[p], sarg_t, sarg_b, sarg_b / sarg_t
    }
  }
}

END {
  if (("sarg", "0") in seen_percent || ("sarg", "10") in seen_percent) {
    format_table()
  } else {
    level_table("find", "row")
    level_table("reduce", "input position")
  }
}
