#!/usr/bin/env bash
# Builds floe (Release, in build/) and starts the shell on an in-memory database.
# Arguments go to the shell, e.g. scripts/shell.sh -c "select 1;".
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh" >&2  # only installs what is missing
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$root/build" --target floe -j "${FLOE_JOBS:-2}" >&2
exec "$root/build/shell/floe" "$@"
