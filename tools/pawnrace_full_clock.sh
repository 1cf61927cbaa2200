#!/usr/bin/env bash
# The Pawn Race protocol with the tournament's clock: peasant plays the
# winning side of every 8x8 setup a side wins (31 up to the mirror image)
# against a random and a greedy opponent, thinking the default 3.5 s a
# move, and must win every game with every reply within 5 s. Two games
# run at a time; each game's result and longest reply are printed.
#
#   tools/pawnrace_full_clock.sh [SEEDS]     (default $PEASANT_PROTOCOL_SEEDS or 1; e.g. 1,2,3)
set -euo pipefail
cd "$(dirname "$0")/.."
PEASANT_PROTOCOL_SEEDS=${1:-${PEASANT_PROTOCOL_SEEDS:-1}} cargo test --release --test suite -- \
  --ignored pawnrace_protocol::full_clock_replies_within_five_seconds --nocapture
