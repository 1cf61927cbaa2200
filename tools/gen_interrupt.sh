#!/usr/bin/env bash
# gen killed (SIGKILL) at random moments and started again must end with
# tables byte-identical to those of a run never interrupted, and every
# file under a table's name must be a whole table at every moment.
#
#   tools/gen_interrupt.sh [BOARD] [MAX_PAWNS] [KILLS]    (default 5x6 8 20)
#
# Needs a release build (cargo build --release). Prints one line per kill
# and a verdict; exit status 0 if the tables are identical.
set -euo pipefail
board=${1:-5x6}
max=${2:-8}
kills=${3:-20}
bin=${PEASANT:-target/release/peasant}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

start=$(date +%s.%N)
"$bin" --board "$board" gen --max-pawns "$max" --out "$work/whole" >/dev/null 2>&1
whole=$(echo "$(date +%s.%N) - $start" | bc)
echo "whole run: $whole s, $(ls "$work/whole" | wc -l) files"

killed=0
runs=0
rounds=0
start=$(date +%s.%N)
# Rounds from an empty directory, each killed at random moments until a
# run finishes by itself and compared with the whole run, until KILLS kills.
while [ "$killed" -lt "$kills" ]; do
  rounds=$((rounds + 1))
  rm -rf "$work/killed"
  while :; do
    runs=$((runs + 1))
    "$bin" --board "$board" gen --max-pawns "$max" --out "$work/killed" >/dev/null 2>&1 &
    pid=$!
    # A random moment within the first half of a whole run.
    r=$((RANDOM % 500))
    wait_s=$(echo "scale=3; $whole * $r / 1000" | bc)
    sleep "$wait_s"
    if kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
      killed=$((killed + 1))
      # Every file under a table's name must be a whole table.
      if ls "$work/killed"/*.ptb >/dev/null 2>&1; then
        "$bin" --board "$board" gen --check "$work/killed" >/dev/null 2>"$work/check.txt" || {
          if grep -q -e DAMAGED -e UNREADABLE "$work/check.txt"; then
            echo "kill $killed: a damaged file under a table's name:"; grep -e DAMAGED -e UNREADABLE "$work/check.txt"; exit 1
          fi
        }
      fi
      echo "round $rounds, kill $killed after ${wait_s} s: $(ls "$work/killed" | grep -c '\.ptb$' || true) tables, $(ls "$work/killed" | grep -c '\.tmp$' || true) temporary files"
    else
      wait "$pid"
      break
    fi
  done
  "$bin" --board "$board" gen --max-pawns "$max" --out "$work/killed" >/dev/null 2>&1
  if diff -r "$work/whole" "$work/killed" >/dev/null; then
    echo "round $rounds: identical, $(ls "$work/killed" | wc -l) files"
  else
    echo "round $rounds: DIFFERENT:"; diff -rq "$work/whole" "$work/killed"; exit 1
  fi
done
total=$(echo "$(date +%s.%N) - $start" | bc)
echo "identical in every round: $killed kills in $runs runs, $rounds rounds ($total s in all, $whole s whole)"
