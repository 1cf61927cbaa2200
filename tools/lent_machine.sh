#!/usr/bin/env bash
# One prepared run for a lent machine of many cores (issue "every core on
# the hardest question"): everything the 16-core rows of docs/SCALING.md
# need, in order of what matters most, each part's output written as it
# comes so that a run cut off by its time limit still leaves the parts it
# finished.
#
#   tools/lent_machine.sh OUTDIR
#
# 1. the machine: CPU model, cores, memory, kernel, huge pages;
# 2. tools/thread_speed.py on Peasants' Chess 5x8 (one solve, W processes,
#    W workers on one table as one team (the default), with reads under
#    the lock and blind to one another, W workers with tables of their
#    own, W threads on one question), W the machine's cores;
# 3. tools/scaling.sh peasants6x7 (one solve, W threads, W/4 threads,
#    and the W threads emulated in turns beside them);
# 4. tools/scaling.sh pawngame-b4a5 (one solve, W alpha-beta workers,
#    one worker of W threads on one question, and those W threads
#    emulated in turns beside them);
# 5. tools/scaling.sh peasants5x8 with W/8, W/4 and W/2 workers: the
#    curve below W (against part 2's one solve, when part 2 ran);
# 6. W workers on 5x8 as one team and blind on a table of 2 GiB instead
#    of 8 (against part 2's one solve): whether a thread beside the
#    others searches faster on a smaller table, the lever SCALING.md
#    names next.
# 7. (not run unless PARTS names it) the cluster's emulation at the
#    machine's speed: Peasants' Chess 7x7's value (one solve 605,824,460
#    nodes) on 256 emulated workers as 16 ranks of 16, in ticks of
#    250,000 nodes (`--emulate-tick`, the ranks side by side on W
#    threads), stopped after EMULATE_SECONDS (default 300): its speedup,
#    or the most it can still reach.
# 8. (not run unless PARTS names it) the scaling issue's question of billions on
#    sixteen workers with tables of their own: Peasants' Chess 6x8 (or
#    Q_BOARD), the position Q_POS whose one solve took Q_BASELINE nodes
#    (given both or neither; default 6/pppppp/1p1ppp/p1p3/P5/1PPPPP/PPPPPP/6 w -, one
#    solve 3,290,206,065 nodes with a 6 GiB table, docs/SCALING.md), 16
#    emulated ranks of one worker with tables of Q_HASH_MB MiB each
#    (default 6144, the solve's: 96 GiB for the sixteen), in ticks of
#    250,000 nodes on W threads, stopped by `--emulate-until` at
#    Q_BASELINE / 10 of virtual time: complete, the sixteen are at least
#    10x as fast as one solve; stopped, they are not. Q_JOB (first jobs,
#    default 100,000,000; they grow to 4 times); Q_SECONDS (a limit of
#    wall seconds, `--max-seconds`: a run stopped so still prints its
#    report, which an outer `timeout` kills with it). With Q_HASH_MB=512
#    Q_JOB=10000000, all a 24 GiB machine holds, the default question is
#    measured (not complete, at most 9.99x, docs/SCALING.md), and so it
#    is with Q_HASH_MB=1024 and with Q_JOB=100000000. With the defaults
#    sixteen ranks search some 0.57 M nodes a second each (commit
#    6059e81 on a 16-core Xeon: stopped by the wall clock after 425 s at
#    242 M of virtual time), so the whole part takes about ten minutes:
#    run it alone, in a call of its own.
# 9. (not run unless PARTS names it) builds side by side on the rows
#    where threads share a table: PEASANT and each binary of PEASANT_B (a
#    list), in turn, AB_ROUNDS times (default 2), each time 5x8's W
#    workers on one table and W threads on one question
#    (tools/thread_speed.py --only shared,threads) and 6x7's W threads on
#    one question (--board 6x7 --hash-mb 2048): whether a change to the
#    shared search pays on W cores, with the run-to-run spread of each
#    build beside it (about 25 s a binary a round on sixteen cores).
# 10. (not run unless PARTS names it) the question of billions on ranks
#    of one worker of sixteen threads each (`--emulate R --threads 16`,
#    the threads taking turns, docs/PROVE.md), the shape of a cluster of
#    16-core machines: Q_POS and Q_BASELINE as in part 8 (the same
#    default), R = Q10_RANKS (default 16: 256 threads), each rank's table
#    Q10_HASH_MB MiB (default 4096: 64 GiB for sixteen), jobs of Q10_JOB
#    nodes of threads' time growing to 4 times (default 40,000,000), in
#    ticks of 10,000 nodes with the paths every 10,000 (the setting of
#    docs/SCALING.md's 94.2x on 256), on W threads, stopped by
#    `--emulate-until` at Q_BASELINE / Q10_SPEEDUP (default 100) of
#    virtual time: complete, the ranks are at least that much faster than
#    one solve. Q_SECONDS as in part 8. The 1,024-thread point of the
#    issue's plan is `Q10_RANKS=64 Q10_HASH_MB=1024 Q10_SPEEDUP=350`
#    (64 GiB). The 24 GiB
#    machine ran the default question with 1 GiB a rank (not complete,
#    at most 99.98x). The part searches at most 16 R threads times
#    Q_BASELINE / Q10_SPEEDUP nodes: 8.4 G for the defaults, 9.6 G for
#    the 1,024 threads, some ten minutes of sixteen cores at 0.9 M nodes
#    a second each: a call of its own, with Q_SECONDS.
#
# Environment: PEASANT (binary; default target/release/peasant), PEASANT_B
# (part 9's other binaries, a list of paths), PARTS
# (which of 2 to 10 to run, default "2 3 4 5 6"; the first lent machine
# ran commit e213975's binary with "2 3", docs/SCALING.md), SPEED_ARGS
# (more arguments for thread_speed.py, e.g. "--board 4x8 --hash-mb 256"
# for a quick try of the script on a small machine). Takes about eight
# minutes on sixteen cores (parts 2 and 3 took 200 s; PARTS="9 2 4 3 5",
# part 9 with three binaries and part 2 with SPEED_ARGS="--only
# solve,procs,blind", 379 s on a faster Xeon); each part writes
# OUTDIR/partN.txt, parts 2 and 6 also OUTDIR/thread_speed.json and
# OUTDIR/small_table.json (the logged jobs of each proof).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: tools/lent_machine.sh OUTDIR}
mkdir -p "$OUT"
BIN=$(realpath "${PEASANT:-target/release/peasant}")
[ -x "$BIN" ] || { echo "lent_machine: no peasant binary at $BIN" >&2; exit 2; }
PARTS=${PARTS:-2 3 4 5 6}
W=$(nproc)
# Part 2's one solve (wall seconds and nodes), when it ran: the baseline
# of parts 5 and 6 (the same command).
baseline() {
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))[0]
print("%.2f %d" % (r["wall"], r["nodes"]))' "$OUT/thread_speed.json" 2>/dev/null
}
# The question of parts 8 and 10: Q_POS on Q_BOARD (default 6x8) and
# Q_BASELINE, its one solve's nodes, given together, or neither for the
# question of 3.29 G nodes; false (the part skipped) if only one is given.
question() {
  if [ -z "${Q_POS:-}" ] && [ -z "${Q_BASELINE:-}" ]; then
    Q_POS='6/pppppp/1p1ppp/p1p3/P5/1PPPPP/PPPPPP/6 w -' Q_BASELINE=3290206065
  fi
  Q_BOARD=${Q_BOARD:-6x8}
  if [ -z "${Q_POS:-}" ] || [ -z "${Q_BASELINE:-}" ]; then
    echo "lent_machine: part $1 needs Q_POS and Q_BASELINE (its one solve's nodes) together; skipped"
    return 1
  fi
}
# "RxT" for each count of the list that is at least 1.
configs() {
  local c out=""
  for c in "$@"; do [ "${c%x*}" -ge 1 ] && [ "${c#*x}" -ge 1 ] && out="$out $c"; done
  echo "${out# }"
}
export PEASANT=$BIN BASELINE_RUNS=1 EMULATE=

{
  echo "date: $(date -u +%FT%TZ)"
  echo "binary: $("$BIN" --version)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $W cores"
  grep -E '^(cpu family|model)\s' /proc/cpuinfo | head -2
  grep -E 'MemTotal|Hugepagesize' /proc/meminfo
  echo "kernel: $(uname -r)"
  echo "transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
  command -v lscpu >/dev/null && lscpu | grep -E 'Model name|Socket|Core|Thread|NUMA node\(|L2|L3'
} 2>&1 | tee "$OUT/part1.txt"

for part in $PARTS; do
  echo "== part $part, $(date -u +%T)"
  case $part in
    # shellcheck disable=SC2086
    2) python3 -u tools/thread_speed.py --workers "$W" --peasant "$BIN" \
         --json "$OUT/thread_speed.json" ${SPEED_ARGS:-} ;;
    3) CONFIGS=$(configs "1x$W" "1x$((W / 4))") TURNS=$W tools/scaling.sh peasants6x7 ;;
    4) CONFIGS=$(configs "${W}x1" "1x${W}") TURNS=$W tools/scaling.sh pawngame-b4a5 ;;
    5) read -r BASELINE_WALL BASELINE_NODES < <(baseline) || true
       export BASELINE_WALL BASELINE_NODES
       CONFIGS=$(configs "$((W / 8))x1" "$((W / 4))x1" "$((W / 2))x1") \
         tools/scaling.sh peasants5x8 ;;
    6) read -r wall _ < <(baseline) || true
       # shellcheck disable=SC2086
       python3 -u tools/thread_speed.py --workers "$W" --peasant "$BIN" --hash-mb 2048 \
         --only shared,blind ${wall:+--baseline-wall "$wall"} \
         --json "$OUT/small_table.json" ${SPEED_ARGS:-} ;;
    7) rm -rf "$OUT/emulate7x7"
       /usr/bin/time -v "$BIN" prove peasants --board 7x7 --dir "$OUT/emulate7x7" --method pn \
         --emulate 256 --emulate-shared 100000 --emulate-ranks 16 --hash-mb 32 \
         --job-nodes 2500000 --max-job-nodes 10000000 --share-solved 65536 \
         --share-every 250000 --emulate-tick 250000 --emulate-threads "$W" \
         --baseline-nodes 605824460 --max-seconds "${EMULATE_SECONDS:-300}" ;;
    8) if question 8; then
         rm -rf "$OUT/emulate6x8"
         job=${Q_JOB:-100000000}
         /usr/bin/time -v "$BIN" prove "$Q_POS" --board "$Q_BOARD" \
           --dir "$OUT/emulate6x8" --method pn --emulate 16 --hash-mb "${Q_HASH_MB:-6144}" \
           --job-nodes "$job" --max-job-nodes $((4 * job)) --share-solved 65536 \
           --share-every 250000 --emulate-tick 250000 --emulate-threads "$W" \
           --baseline-nodes "$Q_BASELINE" --emulate-until $((Q_BASELINE / 10)) \
           ${Q_SECONDS:+--max-seconds "$Q_SECONDS"}
       fi ;;
    9) if [ -z "${PEASANT_B:-}" ]; then
         echo "lent_machine: part 9 needs PEASANT_B, other binaries; skipped"
       else
         side=0
         for bin in "$BIN" $PEASANT_B; do
           echo "binary $((side += 1)): $bin"
           [ -x "$bin" ] || { echo "lent_machine: no binary at $bin"; exit 2; }
         done
         for round in $(seq "${AB_ROUNDS:-2}"); do
           side=0
           for bin in "$BIN" $PEASANT_B; do
             echo "round $round, binary $((side += 1))"
             python3 -u tools/thread_speed.py --workers "$W" --peasant "$bin" --only shared,threads
             python3 -u tools/thread_speed.py --workers "$W" --peasant "$bin" --only threads \
               --board 6x7 --hash-mb 2048
           done
         done
       fi ;;
    10) if question 10; then
          rm -rf "$OUT/ranks16threads"
          job=${Q10_JOB:-40000000}
          /usr/bin/time -v "$BIN" prove "$Q_POS" --board "$Q_BOARD" \
            --dir "$OUT/ranks16threads" --method pn --emulate "${Q10_RANKS:-16}" --threads 16 \
            --hash-mb "${Q10_HASH_MB:-4096}" --job-nodes "$job" --max-job-nodes $((4 * job)) \
            --share-solved 65536 --share-every 250000 --share-paths-every 10000 \
            --emulate-tick 10000 --emulate-threads "$W" --baseline-nodes "$Q_BASELINE" \
            --emulate-until $((Q_BASELINE / ${Q10_SPEEDUP:-100})) \
            ${Q_SECONDS:+--max-seconds "$Q_SECONDS"}
        fi ;;
    *) echo "lent_machine: no part $part" >&2; exit 2 ;;
  esac 2>&1 | tee "$OUT/part$part.txt"
done
echo "== done, $(date -u +%T)"
