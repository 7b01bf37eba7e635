#!/usr/bin/env bash
# Builds floe and runs every test: the unit tests and the sqllogictest files (ctest).
#   scripts/test.sh                   Release build in build/
#   FLOE_SANITIZE=1 scripts/test.sh   AddressSanitizer + UBSan build in build-asan/
# Extra arguments go to ctest, e.g. scripts/test.sh -R sql/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh" >&2  # only installs what is missing
jobs="${FLOE_JOBS:-2}"

if [[ "${FLOE_SANITIZE:-0}" == 1 ]]; then
  build="$root/build-asan"
  config=(-DFLOE_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo)
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
else
  build="$root/build"
  config=(-DCMAKE_BUILD_TYPE=Release)
fi

cmake -S "$root" -B "$build" -G Ninja "${config[@]}"
cmake --build "$build" -j "$jobs"
cd "$build"
ctest --output-on-failure -j "$jobs" "$@"
