#!/usr/bin/env bash
# Runs every command that README.md and docs/*.md show, and prints a
# pass/fail table.
#
#   tools/check_docs.sh [FILE.md ...]        (default: README.md docs/*.md)
#
# Which lines are commands:
#   - every line of a fenced block opened with ```sh (a line ending in `\`
#     goes on on the next line; lines starting with `#` are comments);
#     ```text blocks hold syntax summaries and are not run;
#   - in README.md, every `peasant ...` or `cargo run ...` in backticks in a
#     table row (the results table).
# Markers:
#   - a command line ending in `# long` (in a table cell: the command
#     followed by ` (long`) is too long to run here: listed as skipped;
#   - a line ending in `# server` starts a server: it is started, asked
#     GET /api/probe?fen=pawngame&board=5x5&search=1 on 127.0.0.1:8080, and stopped.
#
# `peasant` and `cargo run --release --` run $PEASANT (default
# target/release/peasant, built first if missing); `cargo run --release
# --example NAME --` runs $EXAMPLE_DIR/NAME when EXAMPLE_DIR is set, else
# cargo itself. Each command runs with stdin from /dev/null, a timeout of
# $TIMEOUT seconds (default 300), in a scratch directory that links to the
# repository's files (results/, docs/, ...), so what the commands write
# (tables/, proofs/, game files) stays out of the checkout. Exit status:
# 0 when every command run passed, 1 otherwise.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
TIMEOUT=${TIMEOUT:-300}
PEASANT=${PEASANT:-$ROOT/target/release/peasant}
case $PEASANT in /*) ;; *) PEASANT=$ROOT/$PEASANT ;; esac
if [ ! -x "$PEASANT" ]; then
    cargo build --release --bin peasant || exit 1
fi
if [ $# -eq 0 ]; then set -- README.md docs/*.md; fi

# One command a line: FILE<TAB>LINE<TAB>KIND<TAB>COMMAND, KIND run|long|server.
extract() {
    awk -v readme="README.md" '
        function emit(kind, cmd) {
            printf "%s\t%d\t%s\t%s\n", FILENAME, start, kind, cmd
        }
        FNR == 1 { fence = ""; cont = "" }
        /^```/ {
            if (fence == "") { fence = ($0 ~ /^```(sh|bash)[[:space:]]*$/) ? "sh" : "other" }
            else { fence = "" }
            next
        }
        fence == "sh" {
            line = $0
            if (cont == "") start = FNR
            if (line ~ /\\[[:space:]]*$/) { sub(/\\[[:space:]]*$/, "", line); cont = cont line " "; next }
            line = cont line; cont = ""
            if (line ~ /^[[:space:]]*(#|$)/) next
            kind = "run"
            if (line ~ /#[[:space:]]*long[[:space:]]*$/) kind = "long"
            else if (line ~ /#[[:space:]]*server[[:space:]]*$/) kind = "server"
            emit(kind, line)
            next
        }
        fence == "" && FILENAME == readme && /^\|/ {
            rest = $0; start = FNR
            while (match(rest, /`(peasant|cargo run)[^`]*`/)) {
                cmd = substr(rest, RSTART + 1, RLENGTH - 2)
                rest = substr(rest, RSTART + RLENGTH)
                emit((rest ~ /^ \(long/) ? "long" : "run", cmd)
            }
        }
    ' "$@"
}

# The command as bash runs it: cargo's spellings of the binary replaced.
rewrite() {
    local c=$1
    c=${c//cargo run --release -- /peasant }
    if [ -n "${EXAMPLE_DIR:-}" ]; then
        c=$(printf '%s' "$c" | sed -E "s#cargo run --release --example ([A-Za-z0-9_]+) --#$EXAMPLE_DIR/\\1#g")
    fi
    printf '%s' "$c"
}

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/check-docs.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
for f in "$ROOT"/* "$ROOT"/.[!.]*; do
    case $(basename "$f") in target | tables | proofs | .git) continue ;; esac
    ln -s "$f" "$SCRATCH/"
done
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
export PEASANT
peasant() { "$PEASANT" "$@"; }
export -f peasant

results=()
failed=0
skipped=()
n=0
while IFS=$'\t' read -r file line kind cmd; do
    n=$((n + 1))
    where="$file:$line"
    if [ "$kind" = long ]; then
        skipped+=("$where: $cmd")
        continue
    fi
    run=$(rewrite "$cmd")
    log="$SCRATCH/.log.$n"
    t0=$(date +%s.%N)
    if [ "$kind" = server ]; then
        run=${run/#peasant /$PEASANT }
        (cd "$SCRATCH" && exec bash -c "exec $run" </dev/null >"$log" 2>&1) &
        pid=$!
        status=1
        for _ in $(seq 1 60); do
            if curl -sf "http://127.0.0.1:8080/api/probe?fen=pawngame&board=5x5&search=1" >>"$log" 2>&1; then
                status=0
                break
            fi
            kill -0 "$pid" 2>/dev/null || break
            sleep 1
        done
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    else
        (cd "$SCRATCH" && timeout "$TIMEOUT" bash -c "$run" </dev/null >"$log" 2>&1)
        status=$?
    fi
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
    if [ "$status" -eq 0 ]; then verdict=pass; else verdict="FAIL ($status)"; failed=$((failed + 1)); fi
    [ "$status" -eq 124 ] && verdict="FAIL (timeout)"
    results+=("$(printf '| %s | %.1f | %s | `%s` |' "$verdict" "$secs" "$where" "$cmd")")
    if [ "$status" -ne 0 ]; then
        echo "--- $where failed: $cmd" >&2
        tail -5 "$log" >&2
    fi
done < <(extract "$@")

echo "| result | seconds | where | command |"
echo "|---|---|---|---|"
printf '%s\n' "${results[@]}"
echo
echo "skipped (# long): ${#skipped[@]}"
for s in "${skipped[@]}"; do echo "  $s"; done
echo "run: ${#results[@]}, failed: $failed"
[ "$failed" -eq 0 ]
