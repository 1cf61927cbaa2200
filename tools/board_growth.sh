#!/usr/bin/env bash
# How a game's value costs more with every file: the start of SETUP
# solved on boards of one height and growing width, one thread, each
# row with its value, nodes, CPU seconds and the factor over the board
# one file narrower (node counts repeat exactly; CPU seconds vary; where
# the widths skip, the factor is the geometric mean per file).
#
#   tools/board_growth.sh [SETUP] [RANKS] [WIDTH...]
#     (default: peasants 7 3 4 5 6; each width's board is WIDTHxRANKS)
#
# Environment: PEASANT (binary, default target/release/peasant, built
# first if missing), HASH_MB (default 1024), METHOD (default pn), ALL=1
# (every first move's value, not only the start's), MAX_NODES (stop a
# solve after this many nodes: its row says "stopped"), EXTRA (more
# solve flags).
#
# Measured in docs/RESULTS.md and docs/SCALING.md (Peasants' Chess on six
# and seven ranks):
#   tools/board_growth.sh peasants 6 3 4 5 6 7 8            (seconds)
#   HASH_MB=8192 tools/board_growth.sh peasants 7 3 4 5 6 7  (7x7: ten minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PEASANT:-target/release/peasant}
[ -x "$BIN" ] || cargo build --release --quiet
HASH_MB=${HASH_MB:-1024}
METHOD=${METHOD:-pn}
EXTRA=${EXTRA:-}
setup=${1:-peasants}
ranks=${2:-7}
shift 2 || shift $#
[ $# -gt 0 ] || set -- 3 4 5 6
only=--value-only
[ "${ALL:-0}" = 1 ] && only=
limit=()
[ -n "${MAX_NODES:-}" ] && limit=(--max-nodes "$MAX_NODES")

echo "| board | value | first moves | nodes | factor per file | CPU s | command |"
echo "|---|---|---|---|---|---|---|"
prev=
for width in "$@"; do
  board="${width}x${ranks}"
  cmd="peasant --board $board solve $setup --method $METHOD${only:+ $only} --hash-mb $HASH_MB${EXTRA:+ $EXTRA}"
  out=$(mktemp)
  /usr/bin/time -f "%U" -o "$out.time" "$BIN" --board "$board" solve "$setup" \
    --method "$METHOD" $only --hash-mb "$HASH_MB" "${limit[@]}" $EXTRA --json --quiet \
    >"$out" 2>"$out.err" || true
  line=$(python3 - "$board" "$cmd" "$out" "$out.time" "$prev" "${MAX_NODES:-}" "$width" <<'PY'
import json, sys
board, cmd, out, tm, prev, limit, width = sys.argv[1:8]
cpu = open(tm).read().split()[-1]
try:
    r = json.load(open(out))
    value, nodes = r["value"], r["nodes"]
except Exception:
    value, nodes = None, None
if value is None:
    err = open(out + ".err").read().strip().splitlines()
    what = err[-1].replace("|", "/") if err else (f"stopped past {int(limit):,}" if limit else "no value")
    print(f"\t| {board} | {what} | | | | {cpu} | `{cmd}` |")
    sys.exit()
moves = ", ".join(f"{m['move']} {m['value']}" for m in r["moves"]) if len(r["moves"]) > 1 else ""
factor = ""
if prev:
    pnodes, pwidth = map(int, prev.split())
    factor = f"{(nodes / pnodes) ** (1 / (int(width) - pwidth)):.1f}"
print(f"{nodes} {width}\t| {board} | {value} | {moves} | {nodes:,} | {factor} | {cpu} | `{cmd}` |")
PY
  )
  prev=${line%%$'\t'*}
  echo "${line#*$'\t'}"
  rm -f "$out" "$out.time" "$out.err"
done
