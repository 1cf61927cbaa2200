#!/bin/sh
# Work inflation of the proof manager: the nodes of all jobs of a fresh
# `prove` divided by the nodes of one `solve` of the same question, and the
# wall time with 1 and 2 workers.
#   tools/prove_inflation.sh [POS] [BOARD] [JOB_NODES] [EXTRA_FLAGS] [PROVE_FLAGS]
# EXTRA_FLAGS go to both commands (rules), PROVE_FLAGS to `prove` only.
# e.g. tools/prove_inflation.sh pawngame 7x7 1000000
#      tools/prove_inflation.sh pawngame 7x7 1000000 "" "--max-job-nodes 1000000"
#      tools/prove_inflation.sh peasants 5x8 10000000
# Prints one line per run; the proof directories are left in
# ${TMPDIR:-/tmp}/prove-inflation-* for --simulate.
set -eu
POS=${1:-pawngame}
BOARD=${2:-7x7}
JOB=${3:-1000000}
EXTRA=${4:-}
PROVE_FLAGS=${5:-}
BIN=${PEASANT:-target/release/peasant}
T=${TMPDIR:-/tmp}
s=$($BIN solve "$POS" --board "$BOARD" --value-only --hash-mb 256 --json --quiet $EXTRA)
sn=$(echo "$s" | sed 's/.*"nodes":\([0-9]*\).*/\1/')
ss=$(echo "$s" | sed 's/.*"seconds":\([0-9.]*\).*/\1/')
sv=$(echo "$s" | sed 's/.*"value":"\([a-z]*\)".*/\1/')
echo "solve --value-only: value $sv, $sn nodes, $ss s"
for w in 1 2; do
    d="$T/prove-inflation-$POS-$BOARD-$JOB-w$w"
    rm -rf "$d"
    p=$($BIN prove "$POS" --board "$BOARD" --dir "$d" --workers $w --job-nodes "$JOB" --hash-mb 256 --json --quiet $EXTRA $PROVE_FLAGS)
    pn=$(echo "$p" | sed 's/.*"nodes":\([0-9]*\).*/\1/')
    ps=$(echo "$p" | sed 's/.*"seconds":\([0-9.]*\).*/\1/')
    pv=$(echo "$p" | sed 's/.*"value":"\([a-z]*\)".*/\1/')
    pj=$(echo "$p" | sed 's/.*"jobs":\([0-9]*\).*/\1/')
    echo "prove --workers $w --job-nodes $JOB $PROVE_FLAGS: value $pv, $pj jobs, $pn nodes, $ps s, inflation $(echo "scale=2; $pn / $sn" | bc)x"
done
