#!/usr/bin/env python3
"""Data Blocks paper, Table 4 / Table 2: the 22 TPC-H queries under each scan configuration.

  bench/data_blocks/scan_configurations.py --sf 1 --threads 2 --runs 3 [--out DIR]

Runs build/bench/floe-tpch once per configuration (each loads its own copy of the data) and
prints a markdown table of per-query execution and compile times (medians of the runs), the
geometric means, and the speedups against the JIT scan on uncompressed data. The JSON of each
run is kept in DIR (default /tmp/floe-scan-configurations).
"""
import argparse
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name, storage, setup SQL
CONFIGURATIONS = [
    ("JIT scan, uncompressed", "hot", "SET scan_mode = 'jit'"),
    ("vectorized scan, uncompressed", "hot", "SET sarg_pushdown = off"),
    ("+SARG", "hot", ""),
    ("Data Blocks", "frozen", "SET sarg_pushdown = off"),
    ("+SARG/SMA", "frozen", "SET psma = off"),
    ("+PSMA", "frozen", ""),
]


def geometric_mean(values):
    return math.exp(sum(math.log(max(v, 1e-3)) for v in values) / len(values))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sf", default="1")
    parser.add_argument("--threads", default="2")
    parser.add_argument("--runs", default="3")
    parser.add_argument("--out", default="/tmp/floe-scan-configurations")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    results = []
    for index, (name, storage, setup) in enumerate(CONFIGURATIONS):
        path = os.path.join(args.out, f"config{index}.json")
        command = [os.path.join(ROOT, "build/bench/floe-tpch"), "run", "--sf", args.sf,
                   "--threads", args.threads, "--runs", args.runs, "--validate",
                   "--storage", storage, "--json", path, "--no-duckdb"]
        if setup:
            command += ["--setup", setup]
        print("running:", " ".join(command), file=sys.stderr)
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        with open(path) as file:
            results.append({r["query"]: r for r in json.load(file)})

    queries = list(results[0].keys())
    for result in results:
        for query in queries:
            if result[query].get("valid") is False or "error" in result[query]:
                sys.exit(f"{query} failed or is wrong: {result[query]}")
    header = "| query | " + " | ".join(name for name, _, _ in CONFIGURATIONS) + " |"
    print(f"Execution ms (median of {args.runs} runs), SF {args.sf}, {args.threads} threads\n")
    print(header)
    print("|---" * (len(CONFIGURATIONS) + 1) + "|")
    for query in queries:
        cells = [f"{r[query]['exec_ms']:.1f}" for r in results]
        print(f"| {query} | " + " | ".join(cells) + " |")
    for label, key in (("geo. mean exec", "exec_ms"), ("geo. mean compile", "compile_ms")):
        means = [geometric_mean([r[q][key] for q in queries]) for r in results]
        print(f"| {label} | " + " | ".join(f"{m:.1f}" for m in means) + " |")
    base = geometric_mean([results[0][q]["exec_ms"] for q in queries])
    speedups = [base / geometric_mean([r[q]["exec_ms"] for q in queries]) for r in results]
    print("| speedup (geo. mean exec) | " + " | ".join(f"{s:.2f}x" for s in speedups) + " |")
    for query in ("q01", "q06"):
        ratios = [results[0][query]["exec_ms"] / r[query]["exec_ms"] for r in results]
        print(f"| speedup {query} | " + " | ".join(f"{s:.2f}x" for s in ratios) + " |")


if __name__ == "__main__":
    main()
