#!/bin/sh
# A proof cut into many short runs, as a long proof is cut into sittings:
# `prove` runs again and again, each run stopped after K jobs (--max-jobs),
# until the proof is complete; prints the runs it took and the nodes of
# all jobs logged (against one uncut run, K = 0).
#   tools/prove_sessions.sh [POS] [BOARD] [JOB_NODES] [MAX_JOB_NODES] [K] [PROVE_FLAGS]
# e.g. tools/prove_sessions.sh peasants 4x8 25000 1600000 2 "--method pn"
#      PEASANT=/path/to/other/peasant tools/prove_sessions.sh ...   (A/B)
# One worker, --hash-mb 256; gives up after 500 runs. The proof directory
# is left in ${TMPDIR:-/tmp}/prove-sessions-*.
set -eu
POS=${1:-peasants}
BOARD=${2:-4x8}
JOB=${3:-25000}
MAX=${4:-1600000}
K=${5:-2}
PROVE_FLAGS=${6:---method pn}
BIN=${PEASANT:-target/release/peasant}
d="${TMPDIR:-/tmp}/prove-sessions-$POS-$BOARD-$JOB-$MAX-$K"
rm -rf "$d"
limit=""
if [ "$K" -gt 0 ]; then limit="--max-jobs $K"; fi
runs=0
while :; do
    runs=$((runs + 1))
    rc=0
    # shellcheck disable=SC2086
    $BIN prove "$POS" --board "$BOARD" --dir "$d" --workers 1 --job-nodes "$JOB" \
        --max-job-nodes "$MAX" --hash-mb 256 --quiet $limit $PROVE_FLAGS > /dev/null 2>&1 || rc=$?
    if [ "$rc" -eq 0 ]; then break; fi
    if [ "$rc" -ne 3 ]; then echo "run $runs: exit status $rc"; exit 1; fi
    if [ "$runs" -ge 500 ]; then echo "not complete after $runs runs"; break; fi
done
s=$($BIN prove --status "$d" --json)
v=$(echo "$s" | sed 's/.*"value":"*\([a-z]*\)"*}$/\1/')
j=$(echo "$s" | sed 's/.*"jobs":\([0-9]*\).*/\1/')
n=$(echo "$s" | sed 's/.*"nodes":\([0-9]*\).*/\1/')
echo "$POS $BOARD, jobs of $JOB to $MAX nodes, runs of $K jobs: $runs runs, value $v, $j jobs, $n nodes"
