#!/usr/bin/env bash
# Builds the Pawn Race book (results/pawnrace-book.txt) that
# `peasant play --protocol pawnrace` follows: proven winning moves for
# black in every 8x8 setup black wins, to PLIES_BLACK plies (default 6),
# and for white in every setup white wins, to PLIES_WHITE plies (default
# 5). A setup and its mirror image share one section: the setups listed
# are those with white's gap on files a to d (32 setups, every one of
# the 64 gap pairs up to its mirror image). The two sides are built by
# two processes at once; their parts are joined, then the whole book is
# proven again with `peasant book --check`.
#
#   tools/pawnrace_book.sh [OUT]        (default results/pawnrace-book.txt)
#
# PEASANT=path runs that binary instead of building target/release/peasant.
#
# Needs about 2 x HASH_MB MiB of memory (default 3072 each) and, on two
# cores, some 20 to 40 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-results/pawnrace-book.txt}
PLIES_BLACK=${PLIES_BLACK:-6}
PLIES_WHITE=${PLIES_WHITE:-5}
HASH_MB=${HASH_MB:-3072}
if [ -z "${PEASANT:-}" ]; then
  cargo build --release --quiet
fi
P=${PEASANT:-target/release/peasant}
# The 8x8 grid (results/pawnrace8.md): black wins c:c, a:f, a:g, b:f, b:d
# (and their mirror images), a:a is drawn, white wins every other setup.
BLACK="c:c a:f a:g b:f b:d"
WHITE=()
for w in a b c d; do
  for b in a b c d e f g h; do
    case " $BLACK a:a " in *" $w:$b "*) continue ;; esac
    WHITE+=("pawnrace:$w:$b")
  done
done
BLACK_POS=()
for s in $BLACK; do BLACK_POS+=("pawnrace:$s"); done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
$P book "${BLACK_POS[@]}" --plies "$PLIES_BLACK" --hash-mb "$HASH_MB" \
  --out "$tmp/black.txt" 2> "$tmp/black.log" &
black=$!
$P book "${WHITE[@]}" --plies "$PLIES_WHITE" --hash-mb "$HASH_MB" \
  --out "$tmp/white.txt" 2> "$tmp/white.log" &
white=$!
wait $black || { cat "$tmp/black.log" >&2; exit 1; }
wait $white || { cat "$tmp/white.log" >&2; exit 1; }
grep -v "moves, .* nodes so far$" "$tmp/black.log" "$tmp/white.log" || true
{
  echo "# The Pawn Race book of peasant play --protocol pawnrace: proven winning"
  echo "# moves for black in the 8x8 setups black wins ($PLIES_BLACK plies) and for"
  echo "# white in the setups white wins ($PLIES_WHITE plies); each setup stands for"
  echo "# itself and its mirror image. Built by tools/pawnrace_book.sh; checked by"
  echo "# peasant book --check results/pawnrace-book.txt."
  grep -hv '^#' "$tmp/black.txt"
  echo
  grep -hv '^#' "$tmp/white.txt"
} > "$tmp/book.txt"
mv "$tmp/book.txt" "$OUT"
ls -l "$OUT"
$P book --check "$OUT" --hash-mb "$HASH_MB"
