#!/usr/bin/env bash
# The scaling table of the proofs (issue "every core on the hardest
# question"): for each benchmark, one thread's `solve --value-only` of the
# same question with the same method (the baseline, the faster of two
# runs), then real runs of R
# workers of T threads each and emulated runs of N workers with tables of
# their own (as MPI ranks have), as one Markdown table: workers, threads
# per worker, real or emulated, wall seconds or makespan in nodes, nodes,
# speedup over the baseline (wall time when real, nodes when emulated;
# an emulated row also gives it counted in time, the ranks' sending and
# loading spread over their search at this machine's rates) and
# efficiency (speedup per thread), for real proofs where the workers'
# time went (the seconds of the logged jobs and, in brackets, of the jobs
# cancelled as unneeded), and the process's CPU seconds with the millions
# of nodes searched a CPU second (threads that slow each other search
# fewer).
#
#   tools/scaling.sh [BENCH...]     (default: peasants6x7 peasants5x8)
#
# Benchmarks:
#   peasants6x7    Peasants' Chess 6x7, `solve --value-only --threads R*T`
#                  (proof-number threads on one question), 2 GiB table
#   peasants5x8    Peasants' Chess 5x8, `prove --method pn`, 10 M-node
#                  first jobs growing to 40 M, 8 GiB of tables in all
#   pawngame-b4a5  the 8x8 pawn game after 1.b4 a5, `prove --method ab`,
#                  2 M-node first jobs continued up to 2,048 M (an
#                  alpha-beta job expanded at 32 M, the default, has
#                  cost 4.3 times one solve's nodes), 16 GiB of tables
#                  in all (minutes a run)
#   peasants6x8-q  a question of the 6x8 proof (results/peasants-6x8): the
#                  value after 1.d4 c5 (its "does white avoid losing?"
#                  took a 1.35 G-node job there), `prove --method
#                  pn`, 10 M-node first jobs growing to 160 M, 16 GiB of
#                  tables in all (hours a run: for a machine with time)
#   peasants4x8    Peasants' Chess 4x8, `prove --method pn`, 25,000-node
#                  jobs: a seconds-long check that the script works
#
# Environment: PEASANT (binary; default target/release/peasant, built
# first if missing), CONFIGS (real runs as RxT, default "1x1 2x1 1x2";
# e.g. "1x1 2x1 4x1 8x1 16x1 1x16 4x4" on 16 cores), EMULATE (emulated
# worker counts for the prove benchmarks, default "16"; empty for none;
# NxT for N workers of T threads each, `--threads T`, proof-number only),
# SHARE_SOLVED (the emulated proof-number workers' `--share-solved N`,
# default 65536; 0: they send out nothing), SHARE_EVERY (with it, their
# `--share-every N`, default 250000; 0: between jobs only),
# EMULATE_SHARED (non-empty: the proof-number benchmarks also emulate
# each count of EMULATE as workers sharing one table, as local threads
# do, `--emulate-shared STEP` with this STEP, e.g. 100000),
# RANK_WORKERS (non-empty, with EMULATE_SHARED: each count N of EMULATE
# that it divides, and that is larger, is also emulated as a cluster of
# N/RANK_WORKERS ranks of RANK_WORKERS workers, each rank on one table,
# the ranks sending one another solved entries as above,
# `--emulate-ranks`; e.g. 16 for machines of sixteen cores),
# TURNS (thread counts T emulated as T threads on one question taking
# turns, `solve --value-only --threads T --emulate-turns K`, with the
# benchmark's method, its makespan against the baseline's nodes; e.g.
# "4 16"), TURN_NODES (their K, default 1000),
# EMULATE_TICK (non-empty: every emulated run takes the coarser model of
# ticks of this many nodes, `--emulate-tick`, its ranks side by side on
# the machine's cores; the same figures on any number of cores, e.g.
# 250000),
# MACHINE (what the table says it ran on; default the CPU model and core
# count), BASELINE_RUNS (how many baseline solves to take the faster of,
# default 2; 1 where machine time is short), BASELINE_WALL and
# BASELINE_NODES (the wall seconds and nodes of a baseline solve measured
# before on the same machine, e.g. by tools/thread_speed.py: no baseline
# is run, and the first row says "given"; for one benchmark), NO_SPREAD (non-empty: the
# `solve` benchmark also runs each
# thread count with threads that ignore where the others are, the hidden
# `--pn-no-spread`, to show what spreading them is worth; from 4 threads,
# since a value's two questions take half the threads each and a team of
# one has no one to steer away from). Every run starts from an empty proof directory; wall times are
# of the whole process, one run each.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PEASANT:-target/release/peasant}
[ -x "$BIN" ] || cargo build --release --quiet
CONFIGS=${CONFIGS:-1x1 2x1 1x2}
EMULATE=${EMULATE-16}
BASELINE_RUNS=${BASELINE_RUNS:-2}
SHARE_SOLVED=${SHARE_SOLVED:-65536}
SHARE_EVERY=${SHARE_EVERY:-250000}
MACHINE=${MACHINE:-"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores"}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ $# -gt 0 ] || set -- peasants6x7 peasants5x8

# Runs a command; prints "WALL NODES MAKESPAN VALUE SECONDS CPU" from its
# --json output (with --emulate, NODES is the work of all workers;
# SECONDS is "JOBS(CANCELLED)", the seconds of the logged and the
# cancelled jobs of a real proof; CPU is the process's user and system
# seconds with, in brackets, the millions of nodes it searched a CPU
# second; "-" where a figure does not apply). The wall time is the
# shell's clock around the whole process (bash's EPOCHREALTIME) and the
# CPU time its `times` for the process (measure runs in a subshell of
# its own, whose only child so far is the command), so the script needs
# no /usr/bin/time.
measure() {
  local start=$EPOCHREALTIME
  "$@" --json --quiet >"$TMP/out" 2>"$TMP/err" ||
    { echo "failed: $* ($(tail -1 "$TMP/err"))" >&2; return 1; }
  local end=$EPOCHREALTIME
  # A redirection, not a pipe or $(...): a forked subshell would report
  # no children.
  times >"$TMP/times"
  python3 - "$TMP/out" "$start" "$end" "$(tail -1 "$TMP/times")" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
e = r.get("emulation", {})
wall = float(sys.argv[3]) - float(sys.argv[2])
c = r.get("cancelled")
seconds = f"{r['job_seconds']:.1f}({c['seconds']:.1f})" if c and not e else "-"
cpu = sum(int(m) * 60 + float(s) for m, s in re.findall(r"(\d+)m([\d.]+)s", sys.argv[4]))
nodes = e.get("work_nodes", r["nodes"])
# The rate counts every node searched, the cancelled jobs' too.
searched = nodes + (c["nodes"] if c and not e else 0)
rate = f"{cpu:.1f}({searched / cpu / 1e6:.2f})" if cpu > 0 else "-"
span = e.get("makespan_nodes", r.get("makespan") or "-")
print(f"{wall:.2f}", nodes, span, r.get("value") or "-", seconds, rate)
# An emulation's speedup counted in time, as its own report gives it
# (with --baseline-nodes, emulated below), for its row.
with open(sys.argv[1] + ".in_time", "w") as f:
    x = e.get("speedup_with_exchanges")
    print(f"{x:.2f}x" if x else "-", file=f)
PY
}

row() { printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$@"; }
ratio() { python3 -c "import sys; a, b = map(float, sys.argv[1:]); print(f'{a / b:.2f}x')" "$@"; }
per() { python3 -c "import sys; a, b, t = map(float, sys.argv[1:]); print(f'{a / b / t:.2f}')" "$@"; }
# One emulated run of the benchmark in hand (bench, pos, method, hash,
# flags, bnodes) on N workers of ET threads each (the caller's ET) with
# the flags after TEXT; its row says TEXT.
emulated() {
  local n=$1 text=$2 work span value cpu tick=() threads=()
  shift 2
  [ "$ET" = 1 ] || threads=(--threads "$ET")
  if [ -n "${EMULATE_TICK:-}" ]; then
    tick=(--emulate-tick "$EMULATE_TICK")
    text="$text, in ticks of $EMULATE_TICK"
  fi
  rm -rf "$TMP/dir"
  read -r _ work span value _ cpu < <(measure "$BIN" prove "${pos[@]}" --dir "$TMP/dir" \
    --method $method --emulate "$n" --hash-mb $((hash / n > 16 ? hash / n : 16)) \
    --baseline-nodes "$bnodes" "$@" "${tick[@]}" "${threads[@]}" "${flags[@]}")
  local speedup in_time
  speedup=$(ratio "$bnodes" "$span")
  in_time=$(cat "$TMP/out.in_time")
  # The ranks' sending and loading spread over their search, as the
  # emulation's own report counts it ("counted in time").
  if [ "$in_time" != - ]; then speedup="$speedup ($in_time in time)"; fi
  row "$bench" "$n" "$ET" "$text" "$(commas "$span")" "$(commas "$work")" \
    "$speedup" "$(per "$bnodes" "$span" $((n * ET)))" "$value" - "$cpu"
}
commas() { python3 -c "import sys; print(f'{int(sys.argv[1]):,}')" "$1"; }

echo "Machine: $MACHINE. Binary: $("$BIN" --version 2>/dev/null || echo "$BIN")."
echo
row benchmark workers "threads each" "real or emulated" "wall s / makespan nodes" nodes "speedup" efficiency value "job s (cancelled s)" "CPU s (M nodes a CPU s)"
row --- --- --- --- --- --- --- --- --- --- ---
for bench in "$@"; do
  case $bench in
    peasants6x7) pos=(peasants --board 6x7); method=pn; hash=2048; kind=solve; flags=() ;;
    peasants5x8) pos=(peasants --board 5x8); method=pn; hash=8192; kind=prove
      flags=(--job-nodes 10000000 --max-job-nodes 40000000) ;;
    peasants6x8-q) pos=('6/pppppp/pp1ppp/2p3/3P2/PPP1PP/PPPPPP/6 w -' --board 6x8); method=pn
      hash=16384; kind=prove; flags=(--job-nodes 10000000 --max-job-nodes 160000000) ;;
    peasants4x8) pos=(peasants --board 4x8); method=pn; hash=512; kind=prove
      flags=(--job-nodes 25000 --max-job-nodes 1600000) ;;
    pawngame-b4a5) pos=('8/1ppppppp/8/p7/1P6/8/P1PPPPPP/8 w -'); method=ab; hash=16384; kind=prove
      flags=(--job-nodes 2000000 --max-job-nodes 2048000000) ;;
    *) echo "unknown benchmark $bench" >&2; exit 2 ;;
  esac
  # The baseline is the faster of two runs: the first run of a big table
  # on a fresh machine can be much slower, which would flatter every
  # speedup below it.
  bwall=${BASELINE_WALL:-}
  bnodes=${BASELINE_NODES:-}
  bvalue=-
  bcpu=-
  runs=$BASELINE_RUNS
  [ -z "$bwall" ] || runs=0
  for _ in $(seq "$runs"); do
    read -r w bnodes _ bvalue _ cpu < <(measure "$BIN" solve "${pos[@]}" --value-only --threads 1 \
      --method $method --hash-mb $hash)
    if [ -z "$bwall" ] || python3 -c "import sys; sys.exit(not float(sys.argv[1]) < float(sys.argv[2]))" "$w" "$bwall"; then
      bwall=$w
      bcpu=$cpu
    fi
  done
  given=""
  [ "$runs" != 0 ] || given=" (given)"
  row "$bench" "one \`solve --value-only\`$given" 1 real "$bwall" "$(commas "$bnodes")" 1.00x 1.00 "$bvalue" - "$bcpu"
  done_threads=" "
  for c in $CONFIGS; do
    r=${c%x*}; t=${c#*x}
    if [ $kind = solve ]; then
      # One search of R*T threads: run each count once.
      t=$((r * t)); r=1
      [[ $done_threads == *" $t "* ]] && continue
      done_threads="$done_threads$t "
      read -r wall nodes _ value seconds cpu < <(measure "$BIN" solve "${pos[@]}" --value-only \
        --threads "$t" --method $method --hash-mb $hash)
    else
      rm -rf "$TMP/dir"
      read -r wall nodes _ value seconds cpu < <(measure "$BIN" prove "${pos[@]}" --dir "$TMP/dir" \
        --method $method --workers "$r" --threads "$t" --hash-mb $((hash / r)) "${flags[@]}")
    fi
    row "$bench" "$r" "$t" real "$wall" "$(commas "$nodes")" "$(ratio "$bwall" "$wall")" \
      "$(per "$bwall" "$wall" $((r * t)))" "$value" "$seconds" "$cpu"
    if [ $kind = solve ] && [ -n "${NO_SPREAD:-}" ] && [ "$t" -gt 1 ]; then
      # The same threads, each ignoring where the others are.
      read -r w2 n2 _ v2 _ cpu < <(measure "$BIN" solve "${pos[@]}" --value-only \
        --threads "$t" --method $method --hash-mb $hash --pn-no-spread)
      row "$bench" 1 "$t, not spreading" real "$w2" "$(commas "$n2")" "$(ratio "$bwall" "$w2")" \
        "$(per "$bwall" "$w2" "$t")" "$v2" - "$cpu"
    fi
  done
  k=${TURN_NODES:-1000}
  for t in ${TURNS:-}; do
    read -r _ work span value _ cpu < <(measure "$BIN" solve "${pos[@]}" --value-only \
      --threads "$t" --method $method --hash-mb $hash --emulate-turns "$k")
    row "$bench" 1 "$t" "emulated, threads in turns of $k nodes" "$(commas "$span")" \
      "$(commas "$work")" "$(ratio "$bnodes" "$span")" "$(per "$bnodes" "$span" "$t")" \
      "$value" - "$cpu"
  done
  if [ $kind = prove ]; then
    for n in $EMULATE; do
      ET=1
      if [[ $n == *x* ]]; then ET=${n#*x}; n=${n%x*}; fi
      [ "$ET" = 1 ] || [ $method = pn ] || continue
      share=()
      kind_text=emulated
      if [ $method = pn ] && [ "$SHARE_SOLVED" != 0 ]; then
        share=(--share-solved "$SHARE_SOLVED")
        kind_text="emulated, --share-solved $SHARE_SOLVED"
        if [ "$SHARE_EVERY" != 0 ]; then
          share+=(--share-every "$SHARE_EVERY")
          kind_text="$kind_text --share-every $SHARE_EVERY"
        fi
      fi
      emulated "$n" "$kind_text" "${share[@]}"
      if [ $method = pn ] && [ -n "${EMULATE_SHARED:-}" ]; then
        emulated "$n" "emulated, one table, --emulate-shared $EMULATE_SHARED" \
          --emulate-shared "$EMULATE_SHARED"
        rw=${RANK_WORKERS:-}
        if [ -n "$rw" ] && [ "$n" -gt "$rw" ] && [ $((n % rw)) = 0 ]; then
          label="emulated, $((n / rw)) ranks of $rw on a table each"
          [ "$kind_text" = emulated ] || label="$label, ${kind_text#emulated, }"
          emulated "$n" "$label" \
            --emulate-shared "$EMULATE_SHARED" --emulate-ranks $((n / rw)) "${share[@]}"
        fi
      fi
    done
  fi
done
