#!/usr/bin/env python3
"""A bounded load test of `peasant serve` on loopback, in two phases.

Starts the server on a free port (with `--proofs results` when that
directory is there), asks every good query once before the load (with
`search=1` where a search answers it, so that the server keeps the answer),
then runs each phase for SECONDS seconds:

1. probes: CLIENTS threads send GET requests in a loop: probes, mainlines
   and board pictures of the pawn game and every Pawn Race gap pair on 4x5
   and 5x5, probes of the positions the proofs answer (the 8x8 pawn game
   and the 6x8 Peasants' start, 8x8 after 1.b4 a5), and one bad query in
   five (broken FEN, bad options, unknown paths). None asks for a search.
2. mixed: one client in a loop asks `/api/mainline?search=1` of the 6x6,
   7x6 and 6x7 pawn games (searches within the server's budget), while
   PROBERS clients probe the 8x8 and 6x8 starts, 8x8 after 1.b4 a5 and the
   5x5 start: the probes must not wait behind the searches.

Every good answer must be the answer given before the load (200, the same
body); every bad query must get 400 or 404 with a JSON error; a search may
answer 200, 404 (no answer within the budget) or 503 (queue full). Prints
requests per second and latency percentiles of each phase, and exits 1 on
any wrong answer or if the server died.

    tools/serve_load.py [--bin target/release/peasant] [--clients 32]
                        [--probers 24] [--seconds 15] [--phase both]
"""
import argparse, http.client, json, os, random, socket, subprocess, sys, threading, time

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

def get(conn, path):
    conn.request("GET", path); r = conn.getresponse(); return r.status, r.read()

def pct(lat, p):
    return lat[min(len(lat) - 1, int(p / 100 * len(lat)))] * 1000 if lat else float("nan")

def summary(name, lat, elapsed, clients):
    lat = sorted(lat)
    return (f"{name}: {len(lat)} requests from {clients} clients in {elapsed:.1f} s: "
            f"{len(lat)/elapsed:.0f} requests/s; latency p50 {pct(lat, 50):.1f} ms, "
            f"p90 {pct(lat, 90):.1f} ms, p99 {pct(lat, 99):.1f} ms, "
            f"max {lat[-1]*1000 if lat else 0:.1f} ms")

PROVEN = ["/api/probe?fen=pawngame&board=8x8", "/api/probe?fen=peasants&board=6x8",
          "/api/probe?fen=8%2F1ppppppp%2F8%2Fp7%2F1P6%2F8%2FP1PPPPPP%2F8_w_-"]
BAD = ["/api/probe?fen=not_a_position", "/api/probe?fen=8/8/8/8_w_-",
       "/api/probe?fen=pawngame&board=9x9", "/api/probe?fen=pawngame&no_en_passant=maybe",
       "/api/mainline", "/board.svg?fen=pawngame&arrow=zz99", "/no/such/page",
       "/api/probe?fen=pawngame&search=perhaps"]

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/peasant")
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--probers", type=int, default=24)
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--phase", choices=["probes", "mixed", "both"], default="both")
    ap.add_argument("--proofs", default="results")
    args = ap.parse_args()
    port = free_port()
    cmd = [args.bin, "serve", "--addr", f"127.0.0.1:{port}"]
    proven = PROVEN if os.path.isdir(args.proofs) else []
    if proven:
        cmd += ["--proofs", args.proofs]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close(); break
        except OSError:
            time.sleep(0.05)
    else:
        print("serve_load: the server did not start"); server.kill(); return 1

    # Good queries: the small games' starts (searched once before the load,
    # then answered from what the server kept) and the proven positions.
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    good = []
    for board in ["4x5", "5x5"]:
        files = "abcde"[: int(board[0])]
        names = ["pawngame"] + [f"pawnrace:{x}:{y}" for x in files for y in files]
        for name in names:
            fen = f"{name}&board={board}"
            good += [f"/api/probe?fen={fen}", f"/api/mainline?fen={fen}", f"/board.svg?fen={fen}"]
    good += proven
    first = {}
    for q in good:
        if q.startswith("/api/"):
            st, _ = get(conn, q + "&search=1")
            if st != 200:
                print(f"serve_load: {q}&search=1: status {st} at warm-up"); server.kill(); return 1
        st, body = get(conn, q)
        if st != 200:
            print(f"serve_load: {q}: status {st} at warm-up"); server.kill(); return 1
        first[q] = body
    conn.close()
    errors = []; lock = threading.Lock()

    def run(queries, clients, seconds, searcher):
        """Runs `clients` clients on `queries` (bad ones one in five) and,
        if `searcher`, one client asking searches; returns the latencies."""
        lat = []; slat = []; stop = time.time() + seconds; counts = {}

        def client(seed):
            r = random.Random(seed); c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            mine = []
            while time.time() < stop:
                q = r.choice(BAD) if r.random() < 0.2 else r.choice(queries)
                t = time.perf_counter()
                try:
                    st, body = get(c, q)
                except Exception as e:
                    with lock: errors.append(f"{q}: {e}")
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60); continue
                mine.append(time.perf_counter() - t)
                if q in first:
                    if st != 200 or body != first[q]:
                        with lock: errors.append(f"{q}: status {st}, answer changed")
                elif st not in (400, 404) or "error" not in json.loads(body or b"{}"):
                    with lock: errors.append(f"{q}: status {st} for a bad query")
            with lock: lat.extend(mine)

        def search_client():
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            boards = ["6x6", "7x6", "6x7"]; i = 0
            while time.time() < stop:
                q = f"/api/mainline?fen=pawngame&board={boards[i % 3]}&search=1"; i += 1
                t = time.perf_counter()
                try:
                    st, body = get(c, q)
                except Exception as e:
                    with lock: errors.append(f"{q}: {e}")
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60); continue
                slat.append(time.perf_counter() - t)
                counts[st] = counts.get(st, 0) + 1
                if st not in (200, 404, 503) or (st != 200 and "error" not in json.loads(body or b"{}")):
                    with lock: errors.append(f"{q}: status {st} for a search")

        threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
        if searcher:
            threads.append(threading.Thread(target=search_client))
        t0 = time.time()
        for t in threads: t.start()
        for t in threads: t.join()
        return lat, slat, time.time() - t0, counts

    ok = True
    if args.phase in ("probes", "both"):
        lat, _, elapsed, _ = run(good, args.clients, args.seconds, False)
        print(summary("probes", lat, elapsed, args.clients))
    if args.phase in ("mixed", "both"):
        probes = proven + ["/api/probe?fen=pawngame&board=5x5"]
        lat, slat, elapsed, counts = run(probes, args.probers, args.seconds, True)
        print(summary("mixed, probes", lat, elapsed, args.probers))
        print(summary("mixed, searches", slat, elapsed, 1)
              + "; statuses " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
    alive = server.poll() is None
    if alive:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            alive = get(c, "/api/probe?fen=pawngame&board=5x5")[0] == 200
        except Exception:
            alive = False
    server.kill()
    print(f"{len(errors)} wrong answers; server {'alive' if alive else 'DEAD'}")
    for e in errors[:5]:
        print("  " + e)
    return 0 if ok and alive and not errors else 1

if __name__ == "__main__":
    sys.exit(main())
