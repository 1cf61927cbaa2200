#!/usr/bin/env bash
# The benchmark of issue 32 (ten times smaller proofs): Peasants' Chess
# questions, each solved by `peasant solve --method pn --value-only`, as
# Markdown rows with the value, nodes, wall and CPU seconds, against the
# nodes the search needed when the question was chosen (BASE) and the
# goal, a tenth of them. A value that differs from the recorded one is a
# bug, not a saving: the row says so.
#
#   tools/shrink_bench.sh [NAME...]      (default: every question)
#
# Environment: PEASANT (binary, default target/release/peasant, built
# first if missing), HASH_MB (default 4096), EXTRA (more solve flags, to
# measure an idea: EXTRA="--pn-init tuned" for the order tuned on these
# questions, docs/SOLVE.md), MAX_NODES (stop a question after this many
# nodes; default 10 times its BASE).
#
# 4x8 is a one-second smoke test; 5x8's value is the issue's first
# question. The 6x8 questions are positions of Peasants' Chess 6x8 ten to
# twelve plies below the start (three draws, five wins for the side to
# move), each between one and four minutes of one core (0.7 to 0.8 M
# nodes a second): the line that reaches each is in its name's comment.
# They were found by solving candidates with a node cap: every position
# tried three to eight plies below the start on the drawing lines of
# results/peasants-6x8 ran past its cap unfinished (HASH_MB=4096):
#   1.c4 c5 2.b4                    stopped at 400 M nodes
#   1.d4 d5 2.c4                    stopped at 400 M nodes
#   1.c4 c5 2.b4 cxb4, 1.d4 d5 2.c4 dxc4, 1.c4 c5 2.d4 cxd4,
#   1.a4 a5 2.b4 axb4               stopped at 300 M each
#   1.c4 c5 2.d4 d5, 1.c4 b5 2.c3   stopped at 450 M and 300 M
#   1.c4 b5 2.cxb5 cxb5 3.b4 a5, 2...axb5 3.a4 bxa4, 2...cxb5 3.d4 d5,
#   and 3.d4 d5 4.e4 dxe4           stopped at 300 M each
# while lines where black mostly answers each push with the same push
# on its file close the board enough to land in the window.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PEASANT:-target/release/peasant}
[ -x "$BIN" ] || cargo build --release --quiet
HASH_MB=${HASH_MB:-4096}
EXTRA=${EXTRA:-}

# NAME  BOARD  VALUE  BASE-NODES  POSITION
#   6x8-a: 1.a4 a5 2.a3 a6 3.d4 d5 4.b4 b5 5.d3 d6 6.b3 b6
#   6x8-b: 1.b4 b5 2.e4 e5 3.d4 d5 4.a4 a5 5.e3 e6 6.b3 (black to move)
#   6x8-c: 1.c4 e5 2.d4 d5 3.d3 d6 4.f4 f5 5.c3 exd4
#   6x8-d: 1.c4 c5 2.f4 f5 3.d4 d5 4.b4 b5 5.c3 c6
#   6x8-e: 1.f4 f5 2.c4 c5 3.a4 a5 4.d4 d5 5.b4 b5
#   6x8-f: 1.e4 e5 2.c4 c5 3.c3 c6 4.d4 d5 5.b4 b5
#   6x8-g: 1.b4 b5 2.e4 e5 3.d4 d5 4.a4 a5 5.e3 e6
#   6x8-h: 1.a4 a5 2.a3 a6 3.d4 d5 4.e4 e5 5.c4 b5
QUESTIONS='
4x8    4x8 draw 853084 peasants
5x8    5x8 draw 71468085 peasants
6x8-a  6x8 draw 53635699 6/2p1pp/pppppp/pp1p2/PP1P2/PPPPPP/2P1PP/6 w -
6x8-b  6x8 draw 91229299 6/pppp1p/2p1pp/pp1pp1/PP1PP1/1PP1PP/P1PP1P/6 b -
6x8-c  6x8 draw 142614814 6/ppp1pp/pppp2/3p1p/2Pp1P/PPPPP1/PP2PP/6 w -
6x8-d  6x8 win 57263760 6/pp1ppp/p1p1p1/1ppp1p/1PPP1P/P1P1P1/PP1PPP/6 w -
6x8-e  6x8 win 71432086 6/pppppp/4p1/pppp1p/PPPP1P/4P1/PPPPPP/6 w -
6x8-f  6x8 win 154416115 6/pp1ppp/p1p2p/1pppp1/1PPPP1/P1P2P/PP1PPP/6 w -
6x8-g  6x8 win 140648280 6/pppp1p/2p1pp/pp1pp1/PP1PP1/2P1PP/PPPP1P/6 w -
6x8-h  6x8 win 86198897 6/1ppppp/p1p2p/pp1pp1/P1PPP1/PP3P/1PPPPP/6 w -
'

echo "| question | value | nodes | goal (a tenth of base) | base | wall s | CPU s | command |"
echo "|---|---|---|---|---|---|---|---|"
while read -r name board value base pos; do
  [ -n "$name" ] || continue
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
  max=${MAX_NODES:-$((base * 10))}
  cmd="peasant --board $board solve '$pos' --method pn --value-only --hash-mb $HASH_MB $EXTRA"
  out=$(mktemp)
  /usr/bin/time -f "%e %U" -o "$out.time" "$BIN" --board "$board" solve "$pos" --method pn \
    --value-only --hash-mb "$HASH_MB" --max-nodes "$max" $EXTRA --json --quiet >"$out" 2>/dev/null || true
  read -r wall cpu < <(tail -1 "$out.time")
  python3 - "$name" "$value" "$base" "$wall" "$cpu" "$cmd" "$out" <<'PY'
import json, sys
name, value, base, wall, cpu, cmd, out = sys.argv[1:8]
base = int(base)
try:
    r = json.load(open(out))
    got, nodes = r["value"], r["nodes"]
except Exception:
    got, nodes = "stopped", None
if got != value and got != "stopped":
    got = f"**{got}, recorded {value}: wrong**"
shown = f"{nodes:,}" if nodes is not None else "over the limit"
print(f"| {name} | {got} | {shown} | {base // 10:,} | {base:,} | {wall} | {cpu} | `{cmd}` |")
PY
  rm -f "$out" "$out.time"
done <<< "$QUESTIONS"
