#!/bin/sh
# Predicted speedup of the proof manager on a cluster: the same proof run
# on 1, 2, 8, ... emulated workers (`peasant prove --emulate N`: each with
# its own table as an MPI rank has, jobs run one after another on a virtual
# clock counted in nodes), each from an empty proof directory. Prints, per
# worker count, the work (all jobs' nodes), the makespan, the speedup over
# one worker (makespan 1 / makespan N) and the inflation (work N / work 1).
#   tools/prove_scaling.sh [POS] [BOARD] [JOB_NODES] [COUNTS] [PROVE_FLAGS]
# e.g. tools/prove_scaling.sh pawngame 7x7 100000 "1 2 8 64"
set -eu
POS=${1:-pawngame}
BOARD=${2:-7x7}
JOB=${3:-100000}
COUNTS=${4:-1 2 8 64 256}
FLAGS=${5:-}
BIN=${PEASANT:-target/release/peasant}
T=${TMPDIR:-/tmp}
echo "workers  work_nodes  makespan_nodes  speedup  inflation  idle"
w1=""; m1=""
for n in $COUNTS; do
    d="$T/prove-scaling-$POS-$BOARD-$JOB-$n"
    rm -rf "$d"
    j=$($BIN prove "$POS" --board "$BOARD" --dir "$d" --job-nodes "$JOB" --hash-mb 16 --emulate "$n" --json --quiet $FLAGS)
    work=$(echo "$j" | sed 's/.*"work_nodes":\([0-9]*\).*/\1/')
    span=$(echo "$j" | sed 's/.*"makespan_nodes":\([0-9]*\).*/\1/')
    idle=$(echo "$j" | sed 's/.*"idle":\([0-9.]*\).*/\1/')
    [ -z "$w1" ] && { w1=$work; m1=$span; }
    printf "%7s  %10s  %14s  %7s  %9s  %4s\n" "$n" "$work" "$span" \
        "$(echo "scale=2; $m1 / $span" | bc)" "$(echo "scale=2; $work / $w1" | bc)" "$idle"
    rm -rf "$d"
done
