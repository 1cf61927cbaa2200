#!/usr/bin/env bash
# Measures the table generator: generates 8x8 up to 5 pawns into a fresh
# directory, then 3v3 alone (40M positions) with the lower classes present,
# and prints positions/s, CPU time and peak memory.
#
#   tools/gen_bench.sh
#
# Wall-clock rates depend on what else the machine runs; CPU time (user)
# is the steadier figure on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/peasant
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
/usr/bin/time -f "up to 5 pawns: user %U s, wall %e s, peak %M KiB" \
    "$bin" gen --max-pawns 5 --out "$dir" 2>&1 | grep -E "solve [0-9.]+ s|user"
/usr/bin/time -f "3v3: user %U s, wall %e s, peak %M KiB" \
    "$bin" gen --class 3v3 --out "$dir" 2>&1 | grep -E "solve [0-9.]+ s|user"
