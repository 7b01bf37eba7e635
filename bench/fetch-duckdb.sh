#!/usr/bin/env bash
# Fetches DuckDB's shared library from the npm package @duckdb/node-bindings-linux-x64 into
# ~/.cache/floe/duckdb/libduckdb.so, where the benchmark drivers look for it (or set
# FLOE_DUCKDB_LIB). The build never depends on it.
set -euo pipefail
target="${HOME}/.cache/floe/duckdb"
mkdir -p "$target"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent @duckdb/node-bindings-linux-x64 >/dev/null && tar xzf ./*.tgz)
cp "$work/package/libduckdb.so" "$target/libduckdb.so"
echo "$target/libduckdb.so ($(jq -r .version "$work/package/package.json" 2>/dev/null || echo '?'))"
