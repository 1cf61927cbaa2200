#!/usr/bin/env bash
# How the two searches grow with the board: value-only nodes and CPU
# seconds of `solve --method ab` and `--method pn` on each board given,
# one thread (node counts repeat exactly; CPU seconds are steadier than
# wall time on a shared machine). The ratio column is pn's nodes over
# ab's. Measured: Peasants' Chess 3x8 0.87, 4x8 0.50, 5x8 0.27 (README).
#
#   tools/method_growth.sh [SETUP [BOARD...]]   (default: peasants 2x8 3x8 4x8)
#   HASH_MB=4096 tools/method_growth.sh peasants 5x8   (8 + 4 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PEASANT:-target/release/peasant}
HASH_MB=${HASH_MB:-256}
setup=${1:-peasants}
shift || true
if [[ $# -eq 0 ]]; then
  set -- 2x8 3x8 4x8
fi
echo "| $setup | value | ab nodes | ab CPU s | pn nodes | pn CPU s | pn/ab nodes |"
echo "|---|---|---|---|---|---|---|"
for board in "$@"; do
  declare -A nodes cpu value
  for method in ab pn; do
    t=$(mktemp)
    out=$(/usr/bin/time -f "%U" -o "$t" "$BIN" --board "$board" solve "$setup" \
      --method "$method" --value-only --threads 1 --hash-mb "$HASH_MB" --json --quiet)
    cpu[$method]=$(tail -1 "$t")
    rm -f "$t"
    nodes[$method]=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["nodes"])' "$out")
    value[$method]=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["value"])' "$out")
  done
  if [[ ${value[ab]} != "${value[pn]}" ]]; then
    echo "method_growth: $board: ab says ${value[ab]}, pn says ${value[pn]}" >&2
    exit 1
  fi
  ratio=$(python3 -c 'import sys; print("%.2f" % (int(sys.argv[2]) / int(sys.argv[1])))' \
    "${nodes[ab]}" "${nodes[pn]}")
  echo "| $board | ${value[ab]} | ${nodes[ab]} | ${cpu[ab]} | ${nodes[pn]} | ${cpu[pn]} | $ratio |"
done
