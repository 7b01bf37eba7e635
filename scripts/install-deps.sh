#!/usr/bin/env bash
# Installs floe's build dependencies from Debian 12 (bookworm) packages; only the missing ones.
set -euo pipefail

packages=(
  build-essential g++ cmake ninja-build pkg-config
  # LLVM 16 and the libraries its CMake package (LLVMConfig.cmake / LLVMExports.cmake) links:
  # z3 (by absolute path), terminfo, zlib, zstd, libffi, libxml2, curl, libedit.
  llvm-16-dev libz3-dev libncurses-dev zlib1g-dev libzstd-dev libffi-dev libxml2-dev
  libcurl4-openssl-dev libedit-dev
  libtbb-dev libre2-dev libreadline-dev libpg-query-dev libprotobuf-c-dev
  googletest libgtest-dev libbenchmark-dev
  # benchmark peer (bench/): SQLite
  libsqlite3-dev
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

sudo=()
if ((EUID != 0)); then sudo=(sudo); fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
