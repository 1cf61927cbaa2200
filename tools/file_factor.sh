#!/usr/bin/env bash
# What one more file costs Peasants' Chess, measured on the same position:
# a line of play 14 to 18 plies deep from the 6x8 start, and the same line
# from the 7x8 start (its g-file pawns untouched), each solved by
# `solve --method pn --value-only --hash-mb 4096`, one thread. Prints one
# Markdown row per line: both node counts and their ratio. The lines came
# from a generator in which black mostly answers white's push on the same
# file (as tools/shrink_bench.sh's questions did); each 6x8 position takes
# seconds, each 7x8 one half a minute to six minutes of one core. The value
# may differ between the boards (f18b: a draw on 6x8, a win on 7x8).
#
# Usage: tools/file_factor.sh [NAME...]   (default: every line)
# Environment: PEASANT (binary, default target/release/peasant), HASH_MB.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PEASANT:-target/release/peasant}
[ -x "$BIN" ] || cargo build --release --quiet
HASH_MB=${HASH_MB:-4096}

# name | line (from the start, both boards) | 6x8 position | 7x8 position
LINES='
f14a|c4 f5 f4 a5 c5 d5 e4 e5 d4 e6 c4 b5 b4 a6|6/1ppp1p/p1p1p1/ppPppp/1PPPPP/P5/PP1PPP/6 w -|7/1ppp1pp/p1p1p1p/ppPppp1/1PPPPP1/P5P/PP1PPPP/7 w -
f14b|f4 f5 a4 a5 e4 e5 b4 b5 a3 a6 bxa5 d5 b4 c5|6/1ppppp/p5/Pppppp/PP2PP/P1PP2/2PPPP/6 w -|7/1pppppp/p5p/Pppppp1/PP2PP1/P1PP2P/2PPPPP/7 w -
f16a|f4 f5 e4 e5 b4 b5 b3 b6 c4 c5 c3 c6 f3 d5 e3 e6|6/p2p1p/ppp1p1/1ppppp/1PP1PP/PPPPPP/P2P2/6 w -|7/p2p1pp/ppp1p1p/1ppppp1/1PP1PP1/PPPPPPP/P2P2P/7 w -
f16b|e4 e5 c4 c5 c3 c6 d4 d5 b4 b5 d3 a5 b3 b6 e3 e6|6/p2p1p/1pp1pp/ppppp1/1PPPP1/PPPPPP/P4P/6 w -|7/p2p1pp/1pp1ppp/ppppp2/1PPPP2/PPPPPPP/P4PP/7 w -
f18a|f4 b5 e4 e5 d4 d5 f5 c5 e3 e6 d3 c4 dxc4 dxc4 f4 a5 d5 b6|6/p1pp1p/1p2pp/pp1PpP/2p1PP/PPP1P1/PPP3/6 w -|7/p1pp1pp/1p2ppp/pp1PpP1/2p1PP1/PPP1P1P/PPP3P/7 w -
f18b|c4 c5 c3 c6 e4 e5 d4 d5 e3 e6 a4 a5 f4 f5 d3 d6 f3 f6|6/pp4/1ppppp/p1pppp/P1PPPP/1PPPPP/PP4/6 w -|7/pp4p/1pppppp/p1pppp1/P1PPPP1/1PPPPPP/PP4P/7 w -
'

solve() {
  "$BIN" solve "$1" --method pn --value-only --hash-mb "$HASH_MB" --json --quiet |
    python3 -c 'import json, sys; r = json.load(sys.stdin); print(r["value"], r["nodes"])'
}

echo "| line | moves | 6x8 value | 6x8 nodes | 7x8 value | 7x8 nodes | factor |"
echo "|---|---|---|---|---|---|---|"
while IFS='|' read -r name line six seven; do
  [ -n "$name" ] || continue
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
  read -r v6 n6 < <(solve "$six")
  read -r v7 n7 < <(solve "$seven")
  python3 - "$name" "$line" "$v6" "$n6" "$v7" "$n7" <<'PY'
import sys
name, line, v6, n6, v7, n7 = sys.argv[1:7]
n6, n7 = int(n6), int(n7)
print(f"| {name} | {line} | {v6} | {n6:,} | {v7} | {n7:,} | {n7 / n6:.0f} |")
PY
done <<< "$LINES"
