#!/usr/bin/env python3
"""Cross-check `peasant perft` against python-chess on 8x8 positions.

python-chess knows chess, not our games, so this script builds kingless
boards holding only pawns (with no king there are no checks, so its
pseudo-legal moves are exactly the pawn moves) and applies the end rules of
docs/RULES.md around it:

* a pawn reaching its last rank wins and ends the line; python-chess offers
  four promotion moves per such step, we keep one (the queen) and never look
  below it;
* capturing the opponent's last pawn ends the game;
* a side with no move is stalemated: nothing below;
* optionally (--seventh-rank-wins) reaching the second-to-last rank wins;
* without en passant (--no-en-passant) python-chess's en passant captures
  are filtered out.

It compares perft counts of the start positions (peasants, pawngame, several
pawnrace:X:Y, with and without en passant, some with seventh-rank-wins) and
of random positions reached by random playouts, against
`target/release/peasant perft <FEN> <DEPTH> --json`. On a mismatch it prints
both divides. It ends with `N passed, M failed` and exits 1 on any mismatch.

    pip install chess
    cargo build --release
    python3 tools/perft_crosscheck.py [--random 300] [--seed 1] [--quick]
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time

try:
    import chess
except ImportError:  # pragma: no cover
    sys.exit("perft_crosscheck: python-chess is missing: pip install chess")

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_BINARY = os.path.join(REPO, "target", "release", "peasant")

RANK_2 = chess.BB_RANK_2
RANK_7 = chess.BB_RANK_7


class Rules:
    def __init__(self, en_passant=True, seventh_rank_wins=False):
        self.en_passant = en_passant
        self.seventh_rank_wins = seventh_rank_wins

    def flags(self):
        out = []
        if not self.en_passant:
            out.append("--no-en-passant")
        if self.seventh_rank_wins:
            out.append("--seventh-rank-wins")
        return out

    def __str__(self):
        return " ".join(self.flags()) or "default rules"


# --- positions --------------------------------------------------------------


def setup_fen(name):
    """The 8x8 position text of a setup name (docs/RULES.md)."""
    if name == "peasants":
        return "8/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/8 w -"
    if name == "pawngame":
        return "8/pppppppp/8/8/8/8/PPPPPPPP/8 w -"
    if name.startswith("pawnrace:"):
        _, x, y = name.split(":")
        white = "".join("1" if f == x else "P" for f in "abcdefgh")
        black = "".join("1" if f == y else "p" for f in "abcdefgh")
        return f"8/{squeeze(black)}/8/8/8/8/{squeeze(white)}/8 w -"
    raise ValueError(name)


def squeeze(row):
    """'1p11pppp' -> '1p2pppp': merge runs of empty-square digits."""
    out, run = "", 0
    for c in row:
        if c == "1":
            run += 1
        else:
            if run:
                out += str(run)
                run = 0
            out += c
    return out + (str(run) if run else "")


def board_from_fen(fen):
    """A kingless python-chess board with the pawns, side to move and en
    passant square of one of our position texts (8x8 only). Built square by
    square: chess FEN parsing would want kings."""
    fields = fen.split()
    rows = fields[0].split("/")
    if len(rows) != 8:
        raise ValueError(f"not an 8x8 position: {fen}")
    board = chess.Board(None)
    board.clear()
    for i, row in enumerate(rows):
        rank = 7 - i
        file = 0
        for c in row:
            if c.isdigit():
                file += int(c)
                continue
            color = chess.WHITE if c == "P" else chess.BLACK
            if c not in "Pp":
                raise ValueError(f"not a pawn: {c!r} in {fen}")
            board.set_piece_at(chess.square(file, rank), chess.Piece(chess.PAWN, color))
            file += 1
        if file != 8:
            raise ValueError(f"rank {rank + 1} is not 8 squares wide: {fen}")
    board.turn = chess.WHITE if fields[1] == "w" else chess.BLACK
    board.ep_square = None if len(fields) < 3 or fields[2] == "-" else chess.parse_square(fields[2])
    board.castling_rights = chess.BB_EMPTY
    return board


def fen_of(board):
    """Our position text of a kingless python-chess board."""
    ep = "-" if board.ep_square is None else chess.square_name(board.ep_square)
    return f"{board.board_fen()} {'w' if board.turn else 'b'} {ep}"


# --- our rules around python-chess ---------------------------------------------


def game_over_by_rule(board, rules):
    """Whether the last move ended the game: the side that moved promoted (or
    stands on its seventh rank with seventh-rank-wins), or the side to move
    has no pawns left. Stalemate is not included."""
    mover = not board.turn
    mine = board.occupied_co[mover]
    if mine & ~board.pawns:  # python-chess promoted the pawn
        return True
    if rules.seventh_rank_wins:
        seventh = RANK_7 if mover == chess.WHITE else RANK_2
        if mine & board.pawns & seventh:
            return True
    return not (board.occupied_co[board.turn] & board.pawns)


def legal_moves(board, rules):
    """The legal moves under our rules (none if the game is over)."""
    if game_over_by_rule(board, rules):
        return []
    moves = []
    for m in board.generate_pseudo_legal_moves():
        if board.piece_type_at(m.from_square) != chess.PAWN:
            raise AssertionError(f"a non-pawn moved in {fen_of(board)}")
        if m.promotion not in (None, chess.QUEEN):
            continue  # one move per promoting step, not one per piece
        if not rules.en_passant and board.is_en_passant(m):
            continue
        moves.append(m)
    return moves


def py_perft(board, depth, rules):
    if depth == 0:
        return 1
    moves = legal_moves(board, rules)
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        board.push(m)
        total += py_perft(board, depth - 1, rules)
        board.pop()
    return total


def our_san(board, m):
    """Move text as `peasant` writes it: `e4`, `bxc6`."""
    to = chess.square_name(m.to_square)
    if board.is_capture(m):
        return f"{chess.FILE_NAMES[chess.square_file(m.from_square)]}x{to}"
    return to


def py_divide(board, depth, rules):
    out = {}
    for m in legal_moves(board, rules):
        san = our_san(board, m)
        board.push(m)
        out[san] = py_perft(board, depth - 1, rules)
        board.pop()
    return out


# --- the engine -------------------------------------------------------------------


def peasant_perft(binary, fen, depth, rules, divide=False):
    cmd = [binary, "perft", fen, str(depth), "--json"] + rules.flags()
    if divide:
        cmd.append("--divide")
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {res.returncode}: {res.stderr.strip()}")
    return json.loads(res.stdout)


# --- the checks -------------------------------------------------------------------


class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.py_nodes = 0


def check(binary, fen, depth, rules, tally, label=""):
    """Compares one perft count; returns python-chess's count, or None on a
    mismatch (after printing both divides)."""
    board = board_from_fen(fen)
    want = py_perft(board, depth, rules)
    tally.py_nodes += want
    got = peasant_perft(binary, fen, depth, rules)["nodes"]
    if got == want:
        tally.passed += 1
        return want
    tally.failed += 1
    print(f"MISMATCH {label} perft {depth} of '{fen}' ({rules}): peasant {got}, python-chess {want}")
    if depth >= 1:
        ours = {d["move"]: d["nodes"] for d in peasant_perft(binary, fen, depth, rules, divide=True)["divide"]}
        theirs = py_divide(board_from_fen(fen), depth, rules)
        for san in sorted(set(ours) | set(theirs)):
            a, b = ours.get(san), theirs.get(san)
            if a != b:
                print(f"    {san}: peasant {a}, python-chess {b}")
    return None


def random_position(rng, setups):
    """A random start, random rules and a random playout under our rules.
    Returns (fen, rules, plies) of a position where the game goes on, or
    None if the playout ended the game."""
    name = rng.choice(setups)
    rules = Rules(en_passant=rng.random() < 0.6, seventh_rank_wins=rng.random() < 0.4)
    board = board_from_fen(setup_fen(name))
    plies = rng.randrange(0, 61)
    for _ in range(plies):
        moves = legal_moves(board, rules)
        if not moves:
            return None
        board.push(rng.choice(moves))
    if not legal_moves(board, rules):
        return None
    return fen_of(board), rules, plies


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", default=DEFAULT_BINARY, help="the peasant binary (default: target/release/peasant)")
    ap.add_argument("--random", type=int, default=300, help="number of random playout positions (default 300)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--budget",
        type=int,
        default=30000,
        help="deepen a random position while python-chess's last count stays below this (default 30000)",
    )
    ap.add_argument("--quick", action="store_true", help="shallower start positions (seconds, not minutes)")
    args = ap.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"perft_crosscheck: {args.binary} is missing: cargo build --release")

    start = time.time()
    tally = Tally()
    rng = random.Random(args.seed)

    # Start positions: every depth up to a limit that python-chess manages.
    races = ["pawnrace:h:a", "pawnrace:a:h", "pawnrace:d:e", "pawnrace:e:d", "pawnrace:a:a", "pawnrace:c:f"]
    deep = 4 if args.quick else 5
    starts = [("peasants", deep + 1 if not args.quick else deep), ("pawngame", deep)] + [(r, deep) for r in races]
    rule_sets = [Rules(True, False), Rules(False, False), Rules(True, True), Rules(False, True)]
    for name, max_depth in starts:
        fen = setup_fen(name)
        for rules in rule_sets:
            # Seventh-rank-wins changes nothing this shallow from the start of
            # a long game; check it at a smaller depth to save time.
            top = max_depth if not rules.seventh_rank_wins else min(max_depth, 4)
            ok = all([check(args.binary, fen, d, rules, tally, name) is not None for d in range(0, top + 1)])
            print(f"{name:14} {str(rules):38} depths 0..{top}: {'ok' if ok else 'MISMATCH'}", flush=True)

    # Random playout positions: deepen while python-chess's count is small.
    setups = ["peasants", "pawngame"] + [f"pawnrace:{x}:{y}" for x in "abcdefgh" for y in "abcdefgh"]
    made = ep_rights = depth_sum = 0
    while made < args.random:
        got = random_position(rng, setups)
        if got is None:
            continue
        fen, rules, _ = got
        made += 1
        ep_rights += fen.split()[2] != "-"
        depth = 1
        while depth <= 6:
            count = check(args.binary, fen, depth, rules, tally, f"random #{made}")
            depth_sum += 1
            if count is None or count > args.budget:
                break
            depth += 1
    print(
        f"random positions: {made} ({ep_rights} with an en passant square in the text), "
        f"{depth_sum} perft counts compared",
        flush=True,
    )

    elapsed = time.time() - start
    print(f"python-chess counted {tally.py_nodes} leaf nodes in all; {elapsed:.1f} s")
    print(f"{tally.passed} passed, {tally.failed} failed")
    sys.exit(1 if tally.failed else 0)


if __name__ == "__main__":
    main()
