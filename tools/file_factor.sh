#!/usr/bin/env bash
# What one more file costs Peasants' Chess, measured on the same position:
# a line of play from the 6x8 start, and the same line from the 7x8 start
# (its g-file pawns untouched), each solved by `solve --method pn
# --value-only --hash-mb 4096`, one thread. Prints one Markdown row per
# line and depth: each board's value and nodes, and the ratio of each
# board's nodes to the narrower one's. The lines came from a generator in
# which black mostly answers white's push on the same file (as
# tools/shrink_bench.sh's questions did); f16b, f16c and f12a stay on
# files a to e, so they can be played from the 5x8 start too. The value may differ
# between the boards (f18b: a draw on 6x8, a win on 7x8).
#
# Lines s7a, s7b and s7c are of seven ranks, for `BOARDS="5x7 6x7 7x7
# 8x7"`: each is a three-ply opening followed by the line that `peasant
# --board 6x7 solve 'peasants moves OPENING' --value-only` printed (s7a
# after 1.c4 bxc4 2.bxc4, s7b after 1.a4 bxa4 2.bxa4, s7c after 1.b4
# axb4 2.axb4), so they stay on files a to f (s7a and s7c on a to d for
# their first twelve plies); s7d, s7e and s7f are their mirror images
# (the same positions on 6x7), whose play on 7x7 and 8x7 lies next to
# the added files. A line is played on every board of the list;
# where one of its moves is not legal (a line of the other height, or a
# move off a narrower board) the board's cells show "-", and a line no
# board can play is left out.
#
# By default each line is solved at its full length (12 to 18 plies: each
# 6x8 position takes seconds, each 7x8 one half a minute to six minutes of
# one core, but f12a's an hour). `PLIES="16 14 12"` solves each line's first 16, 14 and 12
# plies instead (lines shorter than a depth are skipped), which shows how
# the factor changes as the questions move toward the start: the measure
# behind SCALING.md's cost of 7x8 and 8x8.
#
# Usage: tools/file_factor.sh [NAME...]   (default: every line)
# Environment: PEASANT (binary, default target/release/peasant), HASH_MB,
# PLIES (depths, default each line's length), BOARDS (default "6x8 7x8";
# "5x8 6x8 7x8" adds the narrower board where a line fits it, "6x8" alone
# goes deeper than 7x8 can), MAX_NODES (a solve stopped there shows
# ">MAX_NODES" and no factor; default none).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PEASANT:-target/release/peasant}
[ -x "$BIN" ] || cargo build --release --quiet

# name | line (from the start, on every board)
LINES='
f14a|c4 f5 f4 a5 c5 d5 e4 e5 d4 e6 c4 b5 b4 a6
f14b|f4 f5 a4 a5 e4 e5 b4 b5 a3 a6 bxa5 d5 b4 c5
f16a|f4 f5 e4 e5 b4 b5 b3 b6 c4 c5 c3 c6 f3 d5 e3 e6
f16b|e4 e5 c4 c5 c3 c6 d4 d5 b4 b5 d3 a5 b3 b6 e3 e6
f18a|f4 b5 e4 e5 d4 d5 f5 c5 e3 e6 d3 c4 dxc4 dxc4 f4 a5 d5 b6
f18b|c4 c5 c3 c6 e4 e5 d4 d5 e3 e6 a4 a5 f4 f5 d3 d6 f3 f6
f16c|c4 c5 c3 c6 e4 e5 d4 d5 e3 e6 a4 a5 d3 d6 b4 b5
f12a|e4 d5 exd5 c5 c4 b5 cxb5 a5 a4 e5 d4 exd4
s7a|c4 bxc4 bxc4 dxc4 dxc4 a4 c3 a5 d3 b4 cxb5 cxb5 b4 axb3 axb3 d5
s7b|a4 bxa4 bxa4 b4 axb5 cxb5 a3 a4 e4 fxe4 fxe4 dxe4 dxe4 f4 exf5 exf5
s7c|b4 axb4 axb4 cxb4 cxb4 a4 bxa5 bxa5 a3 a4 b4 c4 dxc4 dxc4 d4 exd4
s7d|d4 exd4 exd4 cxd4 cxd4 f4 d3 f5 c3 e4 dxe5 dxe5 e4 fxe3 fxe3 c5
s7e|f4 exf4 exf4 e4 fxe5 dxe5 f3 f4 b4 axb4 axb4 cxb4 cxb4 a4 bxa5 bxa5
s7f|e4 fxe4 fxe4 dxe4 dxe4 f4 exf5 exf5 f3 f4 e4 d4 cxd4 cxd4 c4 bxc4
'

BIN="$BIN" LINES="$LINES" HASH_MB=${HASH_MB:-4096} PLIES=${PLIES:-} \
  BOARDS=${BOARDS:-6x8 7x8} MAX_NODES=${MAX_NODES:-} python3 - "$@" <<'PY'
import json, os, subprocess, sys, time

env = os.environ
boards = env["BOARDS"].split()
wanted = sys.argv[1:]
names = [entry.split("|")[0] for entry in env["LINES"].strip().splitlines()]
unknown = [w for w in wanted if w not in names]
if unknown:
    print(f"file_factor.sh: no line named {', '.join(unknown)} (lines: {' '.join(names)})", file=sys.stderr)
    sys.exit(2)

def solve(board, moves):
    """(value, nodes, seconds) of one solve; nodes is ">N" when --max-nodes
    stopped it, and None for a line that does not fit the board."""
    cmd = [env["BIN"], "--board", board, "solve", "peasants moves " + " ".join(moves),
           "--method", "pn", "--value-only", "--hash-mb", env["HASH_MB"], "--json", "--quiet"]
    if env["MAX_NODES"]:
        cmd += ["--max-nodes", env["MAX_NODES"]]
    start = time.monotonic()
    run = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.monotonic() - start
    if run.returncode == 2 and "not a legal move" in run.stderr:
        return None
    if run.returncode == 3:
        return "-", ">" + env["MAX_NODES"], secs
    if run.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {run.returncode}: {run.stderr.strip()}")
    r = json.loads(run.stdout)
    return r["value"], r["nodes"], secs

head = ["line", "plies", "moves"]
for i, b in enumerate(boards):
    head += [f"{b} value", f"{b} nodes", f"{b} s"]
    if i:
        head.append(f"{b} / {boards[i - 1]}")
print("| " + " | ".join(head) + " |")
print("|" + "---|" * len(head))
for entry in env["LINES"].strip().splitlines():
    name, line = entry.split("|")
    if wanted and name not in wanted:
        continue
    moves = line.split()
    for plies in [int(p) for p in env["PLIES"].split()] or [len(moves)]:
        if plies > len(moves):
            continue
        row, last, played = [name, str(plies), " ".join(moves[:plies])], None, False
        for i, b in enumerate(boards):
            got = solve(b, moves[:plies])
            played |= got is not None
            if got is None:
                row += ["-", "-", "-"]
            else:
                v, n, s = got
                row += [v, n if isinstance(n, str) else f"{n:,}", f"{s:.1f}"]
            n = got[1] if got else None
            if i:
                both = isinstance(n, int) and isinstance(last, int)
                row.append(f"{n / last:.0f}" if both else "-")
            last = n
        if played:
            print("| " + " | ".join(row) + " |", flush=True)
PY
