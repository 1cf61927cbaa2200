#!/usr/bin/env python3
"""Where a thread's time goes on a machine of many cores: how fast each
thread searches (millions of nodes a CPU second) in one process of W
proof-number workers sharing one transposition table, against the same
workers with tables of their own, W processes of one thread, and one
thread alone, on one benchmark (issue "every core on the hardest
question"). One prepared run for a lent machine:

    tools/thread_speed.py [--workers W] [--board 5x8] [--hash-mb 8192]
                          [--peasant BIN] [--json FILE] [--only ROWS]
                          [--baseline-wall S] [--repeat N]

Rows (each process timed from outside; CPU seconds are its user and system
time as the kernel accounts them, from wait4):

  one solve        `solve --value-only --threads 1`, the whole table: the
                   baseline of every speedup (wall time)
  W processes      W copies of `solve --max-nodes 5000000` at once, a W-th
                   of the table each, and one copy alone: whether the
                   machine gives W cores' worth
  W shared         `prove --workers W`, one shared table (the default;
                   since commit 9d92bde its jobs search as one team from
                   8 workers, each seeing the nodes the others are in)
  W shared, locked the same with `--pn-locked-reads`: workers read the
                   table under each bucket's lock, as before lock-free
                   reads
  W shared, spread the same with `--pn-spread-jobs`: the jobs as one team
                   whatever W (before commit 574c8b1 off by default)
  W shared, blind  the same with `--pn-no-spread-jobs` (binaries since
                   commit 574c8b1): each job blind to the others
  W own tables     `prove --workers W --separate-tables`, a W-th of the
                   table each, no exchanges, stopped after 20 s: threads
                   of one process that share no table
  W threads        `solve --value-only --threads W`: threads on one
                   question

With --json, each run's figures and, for the proofs, their logged jobs
(nodes and seconds each: how fast the jobs that decided ran). --only
names the rows to run, of: solve, procs, shared, locked, spread, blind,
own, threads (default all but the one that repeats shared: spread from
8 workers, blind below; the one solve is the baseline of
the speedups, or --baseline-wall gives its wall seconds from an earlier
run); --repeat runs each of the rows shared, spread, blind and threads N
times in turn (default 1).

Nodes are all the nodes searched, the jobs cancelled as unneeded
included. Default W: the machine's cores. Takes about five minutes on 16
cores with Peasants' Chess 5x8 (most of it the one solve).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("--workers", type=int, default=os.cpu_count())
ap.add_argument("--board", default="5x8")
ap.add_argument("--hash-mb", type=int, default=8192)
ap.add_argument("--peasant", default="target/release/peasant")
ap.add_argument("--json", help="also write every run's figures to this file")
ROWS = ["solve", "procs", "shared", "locked", "spread", "blind", "own", "threads"]
ap.add_argument("--only", help="the rows to run, comma-separated, of " + ",".join(ROWS))
ap.add_argument("--baseline-wall", type=float,
                help="the one solve's wall seconds from an earlier run on this machine")
ap.add_argument("--repeat", type=int, default=1)
a = ap.parse_args()
# By default every row but the one that repeats `shared`: the team is
# prove's default from 8 workers (commit 9d92bde).
ONLY = (a.only or ",".join(r for r in ROWS if r != ("spread" if a.workers >= 8 else "blind"))).split(",")
if any(r not in ROWS for r in ONLY):
    sys.exit(f"thread_speed: --only {a.only}: rows are {','.join(ROWS)}")
W, H = a.workers, a.hash_mb
BIN = os.path.abspath(a.peasant)
if not os.access(BIN, os.X_OK):
    sys.exit(f"thread_speed: no peasant binary at {BIN} (build with cargo build --release)")
POS = ["peasants", "--board", a.board]
TMP = tempfile.mkdtemp(prefix="thread-speed-")


def solve(threads, hash_mb, *extra):
    return ["solve", *POS, "--value-only", "--threads", str(threads), "--method", "pn",
            "--hash-mb", str(hash_mb), "--json", *extra]


def prove(name, workers, hash_mb, *extra):
    return ["prove", *POS, "--dir", os.path.join(TMP, name), "--method", "pn",
            "--job-nodes", "10000000", "--max-job-nodes", "40000000", "--workers", str(workers),
            "--hash-mb", str(hash_mb), "--json", "--quiet", *extra]


def jobs(argv):
    """The logged jobs of a `prove` run's directory: position, question,
    answer, nodes and seconds of each (what its worker searched a
    second), for the JSON."""
    if "--dir" not in argv:
        return None
    log = os.path.join(argv[argv.index("--dir") + 1], "proof.log")
    out = []
    with open(log) as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if cols[0] == "job":
                out.append({"fen": cols[2], "question": cols[3], "answer": cols[4],
                            "nodes": int(cols[5]), "seconds": float(cols[6])})
    return out


def run(argvs):
    """Runs the commands at once; for each: wall s, CPU s, exit status,
    nodes searched (None if it printed none), its JSON and, for a proof,
    its logged jobs."""
    start = time.time()
    procs = [subprocess.Popen([BIN, *argv], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
             for argv in argvs]
    out = []
    for p in procs:
        text = p.stdout.read()
        _, status, ru = os.wait4(p.pid, 0)
        try:
            j = json.loads(text)
        except ValueError:
            j = {}
        nodes = j.get("nodes")
        if nodes is not None:
            nodes += (j.get("cancelled") or {}).get("nodes", 0)
        out.append({"wall": time.time() - start, "cpu": ru.ru_utime + ru.ru_stime,
                    "status": os.waitstatus_to_exitcode(status), "nodes": nodes, "json": j,
                    "jobs": jobs(p.args[1:])})
    return out


rows, records = [], []
base = a.baseline_wall


def row(name, r, complete=True):
    global base
    rate = f"{r['nodes'] / r['cpu'] / 1e6:.3f}" if r["nodes"] and r["cpu"] > 0 else "-"
    speedup = "-"
    if name == "one solve":
        base = r["wall"]
        speedup = "1.00x"
    elif complete and r["status"] == 0 and base:
        speedup = f"{base / r['wall']:.2f}x"
    nodes = f"{r['nodes']:,}" if r["nodes"] is not None else "-"
    rows.append(f"| {name} | {r['wall']:.2f} | {nodes} | {r['cpu']:.1f} | {rate} | {speedup} |")
    records.append({"run": name, **{k: v for k, v in r.items() if k != "json"}})
    print(rows[-1], flush=True)


print(f"Peasants' Chess {a.board}, {W} workers, {H} MiB of tables in all; binary {BIN}")
print("| run | wall s | nodes searched | CPU s | M nodes a CPU s | speedup |")
print("| --- | --- | --- | --- | --- | --- |")
if "solve" in ONLY:
    row("one solve", run([solve(1, H)])[0])
elif base:
    print(f"| one solve (given) | {base:.2f} | - | - | - | 1.00x |")


# Stopped by --max-nodes, a solve prints no JSON: it searched the budget.
def budget(r):
    return {**r, "nodes": r["nodes"] or 5000000}


PER = max(H // W, 16)  # MiB of a worker's share of the table, or of one process's
if "procs" in ONLY:
    row("one process of 5 M nodes, alone",
        budget(run([solve(1, PER, "--max-nodes", "5000000")])[0]), False)
    many = run([solve(1, PER, "--max-nodes", "5000000")] * W)
    row(f"{W} processes of 5 M nodes at once (the slowest)",
        budget(max(many, key=lambda r: r["wall"])), False)
# The proofs of W workers: row, its name's tail, its flags, whether it runs
# only once whatever --repeat, and whether it runs to the end.
PROOFS = [
    ("shared", "one shared table", [], False, True),
    ("locked", "one shared table, --pn-locked-reads", ["--pn-locked-reads"], True, True),
    ("spread", "one shared table, --pn-spread-jobs", ["--pn-spread-jobs"], False, True),
    ("blind", "one shared table, --pn-no-spread-jobs", ["--pn-no-spread-jobs"], False, True),
    ("own", "tables of their own, 20 s",
     ["--separate-tables", "--max-seconds", "20", "--warm-entries", "0"], True, False),
]
for i in range(a.repeat):
    for key, name, flags, once, complete in PROOFS:
        if key in ONLY and not (once and i > 0):
            row(f"{W} workers, {name}", run([prove(f"{key}{i}", W, PER, *flags)])[0], complete)
    if "threads" in ONLY:
        row(f"{W} threads on one question", run([solve(W, H)])[0])
if a.json:
    with open(a.json, "w") as f:
        json.dump(records, f, indent=1)
subprocess.run(["rm", "-rf", TMP])
