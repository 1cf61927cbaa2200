#!/usr/bin/env bash
# What each idea of the alpha-beta solver (`--method ab`) gains: nodes
# and time of the same solves with the
# move order off (--no-order), with fewer canonical-form rules
# (--canonical walls: no frozen islands; flip: colour flip + mirror only),
# without the pure-race rule (--no-race), without the free-runner rule
# (--no-runner), without the enhanced
# transposition cutoff (--no-etc), and with the two null windows at the
# root (--null-window). One thread, so node counts repeat exactly; the CPU
# column (user seconds) is steadier than wall time on a shared machine.
#
#   tools/solver_ablation.sh [POS BOARD]...   (default: a few small games)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PEASANT:-target/release/peasant}
if [[ $# -eq 0 ]]; then
  set -- pawngame 6x6 peasants 3x8 pawnrace:a:f 6x6 peasants 4x8
fi
echo "| position | variant | value | nodes | wall s | CPU s |"
echo "|---|---|---|---|---|---|"
while [[ $# -ge 2 ]]; do
  pos=$1 board=$2; shift 2
  for flags in "" "--no-order" "--canonical walls" "--canonical flip" "--no-race" "--no-runner" "--no-etc" \
    "--null-window"; do
    t=$(mktemp)
    out=$(/usr/bin/time -f "%e %U" -o "$t" "$BIN" solve "$pos" --board "$board" $flags \
      --method ab --threads 1 --hash-mb 256 --json --quiet)
    read -r wall cpu < <(tail -1 "$t")
    rm -f "$t"
    python3 -c 'import json,sys; a=sys.argv; r=json.loads(a[1]); f=a[4] or "default"; print("| %s %s | %s | %s | %d | %s | %s |" % (a[2], a[3], f, r["value"], r["nodes"], a[5], a[6]))' \
      "$out" "$pos" "$board" "$flags" "$wall" "$cpu"
  done
done
