#!/usr/bin/env python3
"""Tunes weights on the moves' features for the proof-number search's
move order, as the tuned order (`--pn-init tuned`) was tuned
(docs/SOLVE.md, "A perfect move order"): coordinate descent on the nodes
that `examples/order_score.rs` counts on training questions, each
feature's weight moved by each step either way and the best move kept
where it cuts the training nodes by more than a half percent, round
after round until none does; then the result on the held-out questions.
Values never depend on the weights; nodes do.

    tools/tune_order.py [--start WEIGHTS] [--steps 1,2] [--rounds N]
        [--features NAME,...] [--train BOARD:FILE ...] [--hold BOARD:FILE ...]

WEIGHTS is a `--pn-init` text (`tuned`, `guided`, or
`weights:NAME=N,...`; default tuned, as
`weights:ranks_short=1,single_step=1,replies=1,passed=-3,defended=-3`).
The default question files are those of results/order-questions/ (6x8
and 5x8). Two solves run at a time (JOBS to change). Each evaluation of
the default training set is some 50 M nodes (about 80 s of one core).
Example, one round of steps of one from the tuned order:

    tools/tune_order.py --rounds 1 --steps 1  # long
"""
import argparse
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The tuned order (PnInit::Tuned) as weights, as docs/SOLVE.md writes it
# (a unit test holds the two to the node).
TUNED = "weights:ranks_short=1,single_step=1,replies=1,passed=-3,defended=-3"
# move_features' names in their order, read from the library (main()).
FEATURES = []
QUESTIONS = os.path.join(ROOT, "results", "order-questions")


DYING = threading.Lock()


def die(message):
    """One line and status 2, once, from whichever thread finds it."""
    with DYING:
        print(f"tune_order.py: {message}", file=sys.stderr, flush=True)
        os._exit(2)


def parse_weights(text):
    if text == "tuned":
        text = TUNED
    if text == "guided":
        return {}
    if not text.startswith("weights:"):
        die(f"{text}: expected tuned, guided or weights:NAME=N,...")
    weights = {}
    for item in filter(None, text[len("weights:"):].split(",")):
        name, _, n = item.partition("=")
        if name not in FEATURES or name in weights:
            die(f"{item}: not a feature, or named twice")
        try:
            weights[name] = int(n)
        except ValueError:
            die(f"{item}: not a whole number")
    return weights


def text_of(weights):
    return "weights:" + ",".join(f"{f}={weights[f]}" for f in FEATURES if weights.get(f))


def score(binary, weights, sets):
    """The node sum of every question of the sets, with these weights."""
    total = 0
    for board, path in sets:
        run = subprocess.run([binary, board, path, text_of(weights)], capture_output=True,
                             text=True)
        if run.returncode != 0:
            die(run.stderr.strip())
        total += int(run.stdout.split()[2])
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--start", default="tuned")
    ap.add_argument("--steps", default="1,2")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--features", default="")
    ap.add_argument("--train", nargs="*", default=[f"6x8:{QUESTIONS}/train6.fens",
                                                   f"5x8:{QUESTIONS}/train5.fens"])
    ap.add_argument("--hold", nargs="*", default=[f"6x8:{QUESTIONS}/hold6.fens",
                                                  f"5x8:{QUESTIONS}/hold5.fens"])
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet", "--example", "order_score"],
                   cwd=ROOT, check=True)
    binary = os.path.join(ROOT, "target", "release", "examples", "order_score")
    FEATURES.extend(subprocess.run([binary, "--features"], capture_output=True, text=True,
                                   check=True).stdout.split())
    features = a.features.split(",") if a.features else FEATURES
    for f in features:
        if f not in FEATURES:
            die(f"{f}: not a feature ({' '.join(FEATURES)})")
    try:
        steps = [int(s) for s in a.steps.split(",")]
    except ValueError:
        die(f"--steps {a.steps}: not whole numbers")
    def sets(specs):
        out = []
        for spec in specs:
            board, _, path = spec.partition(":")
            if not path or not os.path.isfile(path):
                die(f"{spec}: expected BOARD:FILE, a file of positions")
            out.append((board, path))
        return out

    train, hold = sets(a.train), sets(a.hold)
    pool = ThreadPoolExecutor(int(os.environ.get("JOBS", "2")))

    weights = parse_weights(a.start)
    guided, best = pool.map(lambda w: score(binary, w, train), [{}, weights])
    print(f"training: guided {guided}, start {text_of(weights)} {best} ({best / guided:.4f})",
          flush=True)
    for rnd in range(a.rounds):
        moved = False
        for f in features:
            for step in steps:
                tries = [dict(weights, **{f: weights.get(f, 0) + s}) for s in (-step, step)]
                got = list(pool.map(lambda w: score(binary, w, train), tries))
                k = min(range(2), key=lambda i: got[i])
                print(f"  {f} {[t[f] for t in tries]} {[f'{g / guided:.4f}' for g in got]}",
                      flush=True)
                if got[k] < best * 0.995:
                    weights, best, moved = tries[k], got[k], True
                    print(f"round {rnd}: {text_of(weights)} {best} ({best / guided:.4f})",
                          flush=True)
                    break
        if not moved:
            break
    hold_guided, hold_start, hold_end = pool.map(
        lambda w: score(binary, w, hold), [{}, parse_weights(a.start), weights])
    print(f"final: {text_of(weights)}; training {best / guided:.4f}; held out: guided "
          f"{hold_guided}, start {hold_start} ({hold_start / hold_guided:.4f}), final "
          f"{hold_end} ({hold_end / hold_guided:.4f})", flush=True)


if __name__ == "__main__":
    main()
