#!/usr/bin/env bash
# The solved results of issue 5 as Markdown table rows, one solve per row,
# each with its command, wall time and CPU time (/usr/bin/time).
#
#   tools/solve_results.sh [pawngame|peasants|pawnrace|all] [MAX]
#
# pawngame: N x N for N = 4..MAX (default 7), with and without en passant.
# peasants: W x 8 for W = 1..MAX (default 4), real rules and --seventh-rank-wins.
# pawnrace: every gap pair on MAX x MAX (default 6).
# Environment: PEASANT (binary, default target/release/peasant), THREADS
# (default 1), HASH_MB (default 256), EXTRA (more solve flags, e.g. --tables DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PEASANT:-target/release/peasant}
THREADS=${THREADS:-1}
HASH_MB=${HASH_MB:-256}
EXTRA=${EXTRA:-}
what=${1:-all}
max=${2:-}

row() { # row LABEL ARGS...
  local label=$1; shift
  local cmd="peasant solve $* --threads $THREADS --hash-mb $HASH_MB $EXTRA --json"
  local out err
  out=$(mktemp); err=$(mktemp)
  /usr/bin/time -f "%e %U" -o "$err.time" "$BIN" solve "$@" --threads "$THREADS" \
    --hash-mb "$HASH_MB" $EXTRA --json --quiet >"$out" 2>"$err" || true
  python3 - "$label" "$cmd" "$out" "$err.time" "$(uptime | sed 's/.*average: //; s/,.*//')" <<'PY'
import json, sys
label, cmd, out, tm, load = sys.argv[1:6]
wall, cpu = open(tm).read().split()[-2:]
try:
    r = json.load(open(out))
except Exception:
    print(f"| {label} | failed | | | {wall} | {cpu} | {load} | `{cmd}` |")
    sys.exit()
moves = ", ".join(f"{m['move']} {m['value']}" + (f" {m['dtm']}" if m['dtm'] else "")
                  for m in r["moves"])
v = r["value"] + (f" in {r['dtm']}" if r["dtm"] else "")
print(f"| {label} | {v} | {moves} | {r['nodes']} | {wall} | {cpu} | {load} | `{cmd}` |")
PY
  rm -f "$out" "$err" "$err.time"
}

header() {
  echo
  echo "| position | value | first moves (mover's view) | nodes | wall s | CPU s | load | command |"
  echo "|---|---|---|---|---|---|---|---|"
}

if [[ $what == pawngame || $what == all ]]; then
  header
  for n in $(seq 4 "${max:-7}"); do
    row "pawngame ${n}x${n}" pawngame --board "${n}x${n}"
    row "pawngame ${n}x${n} no e.p." pawngame --board "${n}x${n}" --no-en-passant
  done
fi
if [[ $what == peasants || $what == all ]]; then
  header
  for w in $(seq 1 "${max:-4}"); do
    row "peasants ${w}x8" peasants --board "${w}x8"
    row "peasants ${w}x8 7th wins" peasants --board "${w}x8" --seventh-rank-wins
  done
fi
if [[ $what == pawnrace || $what == all ]]; then
  n=${max:-6}
  files=(a b c d e f g h)
  header
  for ((x = 0; x < n; x++)); do
    for ((y = 0; y < n; y++)); do
      row "pawnrace:${files[x]}:${files[y]} ${n}x${n}" "pawnrace:${files[x]}:${files[y]}" --board "${n}x${n}"
    done
  done
fi
