#!/usr/bin/env bash
# Generates the reach targets of the table generator and records their logs:
# 8x8 every class up to 7 pawns, and 4x8 every class (16 pawns), then probes
# 4x8 Peasants' Chess from the tables alone.
#
#   tools/gen_reach.sh [OUTDIR]     (default: tables/)
#
# Resumable: classes already present and verified are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-tables}
cargo build --release --quiet
bin=target/release/peasant
mkdir -p "$out"
/usr/bin/time -v "$bin" --board 8x8 gen --max-pawns 7 --out "$out/8x8" > "$out/8x8-gen.out" 2> "$out/8x8-gen.err"
/usr/bin/time -v "$bin" --board 4x8 gen --max-pawns 16 --out "$out/4x8" > "$out/4x8-gen.out" 2> "$out/4x8-gen.err"
"$bin" --board 4x8 probe peasants --tables "$out/4x8" | tee "$out/4x8-peasants.txt"
