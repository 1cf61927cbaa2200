#!/usr/bin/env python3
"""Prints perft.epd lines: for each entry, the engine's perft counts (from
`peasant perft --json`, i.e. perft_parallel) at depth 1, 2, ... until a count
passes CAP (or reaches 0).  The counts are then checked by
tests/suite/perft_suite.rs: with serial perft always, and with the naive generator
(`cargo test --release --test suite perft_suite:: -- --ignored`) up to each entry's
`naive` depth.

usage: tools/perft_suite_counts.py ENTRIES_FILE [CAP]
ENTRIES_FILE lines: id; epd; board; rules   (as in tests/perft.epd)
"""
import json, subprocess, sys

BIN = "target/release/peasant"
cap = int(float(sys.argv[2])) if len(sys.argv) > 2 else 300_000_000
for line in open(sys.argv[1]):
    line = line.strip()
    if not line or line.startswith("#"):
        print(line)
        continue
    fields = dict(f.strip().split(" ", 1) for f in line.split(";") if f.strip())
    args = [BIN, "--json", "--board", fields["board"]]
    rules = fields["rules"].split(",")
    if "no-ep" in rules:
        args.append("--no-en-passant")
    if "srw" in rules:
        args.append("--seventh-rank-wins")
    counts = []
    depth = 0
    while True:
        depth += 1
        out = subprocess.run(args + ["perft", fields["epd"], str(depth)],
                             capture_output=True, text=True, check=True).stdout
        n = json.loads(out)["nodes"]
        counts.append(n)
        if n == 0 or n > cap:
            break
    perfts = "; ".join(f"perft {d} {n}" for d, n in enumerate(counts, 1))
    print(f"{line}; {perfts}")
