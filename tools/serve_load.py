#!/usr/bin/env python3
"""A bounded load test of `peasant serve` on loopback.

Starts the server on a free port, then runs CLIENTS threads for SECONDS
seconds, each sending GET requests in a loop: probes, mainlines and
board pictures of the pawn game and every Pawn Race gap pair on 4x5 and
5x5 (searched by the server: no tables), and one bad query in five (broken FEN, bad
options, unknown paths). Every good answer is checked against the first
answer the server gave for the same query, asked before the load (it must never change, and
must be 200 with the fields the API promises); every bad query must get
400 or 404 with a JSON error. Prints requests per second and latency
percentiles, and exits 1 on any wrong answer or if the server died.

    tools/serve_load.py [--bin target/release/peasant] [--clients 32] [--seconds 20]
"""
import argparse, http.client, json, random, socket, subprocess, sys, threading, time

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/peasant")
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=20)
    args = ap.parse_args()
    port = free_port()
    server = subprocess.Popen([args.bin, "serve", "--addr", f"127.0.0.1:{port}",
                               "--search-nodes", "200000", "--search-secs", "2"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close(); break
        except OSError:
            time.sleep(0.05)
    else:
        print("serve_load: the server did not start"); server.kill(); return 1

    def get(conn, path):
        conn.request("GET", path); r = conn.getresponse(); return r.status, r.read()

    # Good queries: the start of every small game the API is asked about
    # most (the pawn game and every Pawn Race gap pair on 4x5 and 5x5).
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    good = []
    for board in ["4x5", "5x5"]:
        files = "abcde"[: int(board[0])]
        names = ["pawngame"] + [f"pawnrace:{x}:{y}" for x in files for y in files]
        for name in names:
            fen = f"{name}&board={board}"
            good += [f"/api/probe?fen={fen}", f"/api/mainline?fen={fen}", f"/board.svg?fen={fen}"]
    bad = ["/api/probe?fen=not_a_position", "/api/probe?fen=8/8/8/8_w_-",
           "/api/probe?fen=pawngame&board=9x9", "/api/probe?fen=pawngame&no_en_passant=maybe",
           "/api/mainline", "/board.svg?fen=pawngame&arrow=zz99", "/no/such/page"]
    first = {}
    for q in good:
        st, body = get(conn, q)
        if st != 200:
            print(f"serve_load: {q}: status {st} at warm-up"); server.kill(); return 1
        first[q] = body
    conn.close()

    lat = []; errors = []; lock = threading.Lock(); stop = time.time() + args.seconds

    def client(seed):
        r = random.Random(seed); c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine = []
        while time.time() < stop:
            q = r.choice(bad) if r.random() < 0.2 else r.choice(good)
            t = time.perf_counter()
            try:
                st, body = get(c, q)
            except Exception as e:
                with lock: errors.append(f"{q}: {e}")
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=30); continue
            mine.append(time.perf_counter() - t)
            if q in first:
                if st != 200 or body != first[q]:
                    with lock: errors.append(f"{q}: status {st}, answer changed")
            elif st not in (400, 404) or "error" not in json.loads(body or b"{}"):
                with lock: errors.append(f"{q}: status {st} for a bad query")
        with lock: lat.extend(mine)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
    t0 = time.time()
    for t in threads: t.start()
    for t in threads: t.join()
    elapsed = time.time() - t0
    alive = server.poll() is None
    server.kill()
    lat.sort()
    pct = lambda p: lat[min(len(lat) - 1, int(p / 100 * len(lat)))] * 1000 if lat else float("nan")
    print(f"{len(lat)} requests from {args.clients} clients in {elapsed:.1f} s: {len(lat)/elapsed:.0f} requests/s; "
          f"latency p50 {pct(50):.1f} ms, p90 {pct(90):.1f} ms, p99 {pct(99):.1f} ms, max {lat[-1]*1000 if lat else 0:.1f} ms; "
          f"{len(errors)} wrong answers; server {'alive' if alive else 'DEAD'}")
    for e in errors[:5]:
        print("  " + e)
    return 0 if alive and not errors else 1

if __name__ == "__main__":
    sys.exit(main())
