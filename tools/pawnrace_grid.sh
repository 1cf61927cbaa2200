#!/usr/bin/env bash
# The value of every gap pair of Pawn Race N x N, resumable: one solve per
# gap pair (`solve --value-only`: the value and one best move), each result
# appended as a Markdown row to RESULTS as soon as it is known, so the
# script can be stopped at any time and run again to go on. Gap pairs
# already in RESULTS are skipped. A gap pair and its mirror image (gaps
# x:y and (N-1-x):(N-1-y)) have the same value, so only the gap pairs with
# white's gap on the left half (and the middle file, N odd) are solved.
#
#   tools/pawnrace_grid.sh N RESULTS          solve what is missing
#   tools/pawnrace_grid.sh --grid N RESULTS   print the N x N grid
#
# Environment: PEASANT (binary, default target/release/peasant), JOBS
# (solves at once, default 1), HASH_MB (per solve, default 4096), EXTRA
# (more solve flags). Pawn Race 8x8 with JOBS=2 HASH_MB=4096 needs about
# 9 GB of memory.
set -euo pipefail
cd "$(dirname "$0")/.."
files=(a b c d e f g h)

if [[ ${1:-} == --grid ]]; then
  n=$2 results=$3
  python3 - "$n" "$results" <<'PY'
import re, sys
n, path = int(sys.argv[1]), sys.argv[2]
files = "abcdefgh"[:n]
val = {}
for line in open(path):
    m = re.match(r"\| pawnrace:([a-h]):([a-h]) \| (\w+) \| (\S+)", line)
    if m:
        x, y = files.index(m[1]), files.index(m[2])
        cell = f"{m[3]} ({m[4]})" if m[3] == "win" else m[3]
        val[(x, y)] = cell
        # The mirror image has the same value; its best move is mirrored.
        mm = m[4]
        if m[3] == "win":
            mm = files[n - 1 - files.index(mm[0])] + mm[1:]
            val.setdefault((n - 1 - x, n - 1 - y), f"win ({mm})")
        else:
            val.setdefault((n - 1 - x, n - 1 - y), m[3])
print("| white gap \\ black gap | " + " | ".join(files) + " |")
print("|---" * (n + 1) + "|")
for x in range(n):
    print(f"| {files[x]} | " + " | ".join(val.get((x, y), "?") for y in range(n)) + " |")
PY
  exit 0
fi

n=$1 results=$2
BIN=${PEASANT:-target/release/peasant}
JOBS=${JOBS:-1}
HASH_MB=${HASH_MB:-4096}
EXTRA=${EXTRA:-}
export BIN HASH_MB EXTRA results n
[[ -f $results ]] || {
  echo "Pawn Race ${n}x${n}: one row per gap pair (white to move), by \`tools/pawnrace_grid.sh $n\`."
  echo
  echo "| pair | value | best move | nodes | wall s | CPU s | load | command |"
  echo "|---|---|---|---|---|---|---|---|"
} >"$results"

solve_pair() { # solve_pair X:Y
  local pair=$1 out tm
  out=$(mktemp); tm=$(mktemp)
  local cmd="peasant --board ${n}x${n} solve pawnrace:$pair --value-only --hash-mb $HASH_MB $EXTRA"
  /usr/bin/time -f "%e %U" -o "$tm" "$BIN" --board "${n}x${n}" solve "pawnrace:$pair" \
    --value-only --hash-mb "$HASH_MB" $EXTRA --json --quiet >"$out" 2>/dev/null || true
  python3 - "$pair" "$cmd" "$out" "$tm" "$(uptime | sed 's/.*average: //; s/,.*//')" \
    >>"$results" <<'PY'
import json, sys
pair, cmd, out, tm, load = sys.argv[1:6]
wall, cpu = open(tm).read().split()[-2:]
try:
    r = json.load(open(out))
except Exception:
    sys.exit(f"pawnrace:{pair}: the solve failed ({wall} s); not recorded")
print(f"| pawnrace:{pair} | {r['value']} | {r['moves'][0]['move']} | {r['nodes']} "
      f"| {wall} | {cpu} | {load} | `{cmd}` |", flush=True)
PY
  rm -f "$out" "$tm"
}
export -f solve_pair

todo=()
for ((x = 0; 2 * x < n; x++)); do
  for ((y = 0; y < n; y++)); do
    # The middle file (n odd) is its own mirror: take half of its pairs.
    if ((2 * x + 1 == n && 2 * y + 1 > n)); then continue; fi
    pair="${files[x]}:${files[y]}"
    grep -q "^| pawnrace:$pair |" "$results" || todo+=("$pair")
  done
done
echo "Pawn Race ${n}x${n}: ${#todo[@]} pairs to solve, $JOBS at a time, into $results" >&2
printf '%s\n' "${todo[@]}" | xargs -r -P "$JOBS" -I{} bash -c 'solve_pair {}'
