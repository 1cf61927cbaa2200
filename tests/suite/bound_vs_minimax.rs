//! The one-sided bound (`peasant::rules::can_win`) against plain minimax:
//! on every position reachable from every setup of small boards, and from
//! random positions of bigger ones, under every rule set, a side the
//! analysis says can never win does not win (from the side to move's view:
//! not a win if the mover can never win, not a loss if the opponent can
//! never win). The test also counts how many positions the rule claims,
//! and shows that it catches deliberately unsound variants (mutants).
//! The solvers with the bound are checked in `solver_vs_minimax.rs`,
//! `pns_vs_minimax.rs` and `value_only_and_lines.rs` (it is on by default).

use crate::common::{minimax, reachable_positions, variants, MinimaxMemo, RULE_CHECK_BOARDS};
use peasant::rules::*;

/// A deliberately wrong variant of the analysis, to show the test can fail.
///
/// Some plausible mistakes are *equivalent* at the fixpoint and so cannot
/// be caught (they are left out): dropping the "last pawn" clause (if no
/// black pawn is stable, some black pawn may meet a white one, so white may
/// capture onto a file with no stable pair, and that file's whole run to
/// the goal is in white's reach already); forgetting `--seventh-rank-wins`
/// (a run that reaches the second-to-last rank goes on to the last, where
/// no enemy pawn ever stands); holding a pawn that entered a file by
/// capture below *any* stable enemy pawn above it (a stable black pawn that
/// could come down past the entry square would have that square in its
/// own run, where a white pawn may capture: it would not be stable); and,
/// on every board checked, letting unstable enemy pawns block a pawn's
/// first stay (where the blocker may leave or be taken, a capture enters
/// that file above the blocked pawn and its run reaches the goal anyway)
/// and judging stability only on the squares the pawns stand on now (the
/// reaches, which decide promotion, still grow by every capture).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mutant {
    /// Captures ignored: every pawn keeps to its file, blocked by the
    /// enemy pawn ahead, and nobody's last pawn can be taken.
    CapturesIgnored,
    /// The en passant right of the position forgotten.
    EnPassantForgotten,
    /// A pawn that has captured is taken to stay on the square it took
    /// (no pushes after a capture).
    StuckAfterCapture,
}

const MUTANTS: [Mutant; 3] = [
    Mutant::CapturesIgnored,
    Mutant::EnPassantForgotten,
    Mutant::StuckAfterCapture,
];

fn fill(from: u64, open: u64, up: bool) -> u64 {
    let mut x = from;
    for _ in 0..8 {
        x |= open & if up { x << 8 } else { x >> 8 };
    }
    x
}

fn diag(b: u64, up: bool) -> u64 {
    let s = if up {
        Bitboard(b).up(1)
    } else {
        Bitboard(b).down(1)
    };
    (s.left() | s.right()).0
}

/// The analysis written out plainly, with the mistake of `mutant`
/// (`StuckAfterCapture`).
fn mutant_reach(white: u64, black: u64, board: u64, mutant: Mutant) -> Reach {
    let climb = mutant != Mutant::StuckAfterCapture;
    let (mut sw, mut sb) = (white, black);
    loop {
        let mut rw = fill(white, !sb, true) & board;
        let mut rb = fill(black, !sw, false) & board;
        loop {
            let ew = diag(rw, true) & rb;
            let eb = diag(rb, false) & rw;
            let (mut nrw, mut nrb) = (rw | ew, rb | eb);
            if climb {
                let x1 = fill(ew, !sw, true);
                let wstar = ((x1 << 8) | ew) & sw;
                nrw |= (x1 | fill(wstar, !sb, true)) & board;
                let y1 = fill(eb, !sb, false);
                let bstar = ((y1 >> 8) | eb) & sb;
                nrb |= (y1 | fill(bstar, !sw, false)) & board;
            }
            if (nrw, nrb) == (rw, rb) {
                break;
            }
            (rw, rb) = (nrw, nrb);
        }
        let pw = rw & diag(rb, false);
        let pb = rb & diag(rw, true);
        let hit_w = sw & fill(pw & !sb, !sb, false);
        let hit_b = sb & fill(pb & !sw, !sw, true);
        if hit_w | hit_b == 0 {
            return Reach {
                white: rw,
                black: rb,
                stable_white: sw,
                stable_black: sb,
            };
        }
        sw &= !hit_w;
        sb &= !hit_b;
    }
}

/// The pawns of `pos` with the en passant right folded in (the pawn that
/// double-stepped placed on the skipped square), as the analysis takes them.
fn folded(pos: &Position) -> (u64, u64) {
    let (mut w, mut b) = (pos.pawns(Color::White).0, pos.pawns(Color::Black).0);
    if let Some(ep) = pos.ep_square() {
        let x = 1u64 << ep.index();
        match pos.turn() {
            Color::White => b = (b & !(x >> 8)) | x,
            Color::Black => w = (w & !(x << 8)) | x,
        }
    }
    (w, b)
}

/// The goal squares of `color` (and beyond).
fn goal(pos: &Position, color: Color) -> u64 {
    let b = pos.board();
    let rank = if pos.variant().rules.seventh_rank_wins {
        b.second_to_last_rank(color)
    } else {
        b.last_rank(color)
    } as u32;
    match color {
        Color::White => !0u64 << (8 * rank),
        Color::Black => !0u64 >> (8 * (7 - rank)),
    }
}

/// The mutant's verdict `(white may win, black may win)`.
fn mutant_can_win(pos: &Position, mutant: Mutant) -> (bool, bool) {
    let (white, black) = (pos.pawns(Color::White).0, pos.pawns(Color::Black).0);
    let board = Bitboard::board(pos.board().width(), pos.board().height()).0;
    let r = match mutant {
        Mutant::CapturesIgnored => Reach {
            white: fill(white, !black, true) & board,
            black: fill(black, !white, false) & board,
            stable_white: white,
            stable_black: black,
        },
        Mutant::EnPassantForgotten => reach(white, black, board),
        Mutant::StuckAfterCapture => {
            let (w, b) = folded(pos);
            mutant_reach(w, b, board, mutant)
        }
    };
    (
        r.white & goal(pos, Color::White) != 0 || r.stable_black == 0,
        r.black & goal(pos, Color::Black) != 0 || r.stable_white == 0,
    )
}

/// Whether a verdict `(white may win, black may win)` is wrong about
/// `pos`, whose minimax value (side to move's view) is `value`.
fn wrong(pos: &Position, verdict: (bool, bool), value: Value) -> bool {
    let (mover, other) = match pos.turn() {
        Color::White => verdict,
        Color::Black => (verdict.1, verdict.0),
    };
    (!mover && value.wdl() == Wdl::Win) || (!other && value.wdl() == Wdl::Loss)
}

/// Counts of one check.
#[derive(Default, Debug)]
struct Counts {
    positions: usize,
    /// Positions where the mover can never win.
    mover: usize,
    /// Positions where the opponent can never win.
    other: usize,
    /// Positions where neither can win.
    both: usize,
    dead: usize,
    caught: [usize; MUTANTS.len()],
}

/// Checks the analysis on the positions of `v` (every position reachable
/// from its setups if `setups`, and from `randoms` random positions).
fn check(v: Variant, setups: bool, randoms: usize, counts: &mut Counts) {
    let mut memo = MinimaxMemo::default();
    let all = reachable_positions(v, setups, randoms);
    for p in &all {
        let value = minimax(p, &mut memo);
        let verdict = can_win(p);
        assert!(
            !wrong(p, verdict, value),
            "{v}: {p} (value {value}) verdict {verdict:?}"
        );
        let (mover, other) = match p.turn() {
            Color::White => verdict,
            Color::Black => (verdict.1, verdict.0),
        };
        counts.positions += 1;
        counts.mover += !mover as usize;
        counts.other += !other as usize;
        counts.both += (!mover && !other) as usize;
        if is_dead(p) {
            counts.dead += 1;
            assert_eq!(verdict, (false, false), "{v}: dead {p}");
        }
        for (i, &m) in MUTANTS.iter().enumerate() {
            counts.caught[i] += wrong(p, mutant_can_win(p, m), value) as usize;
        }
    }
    eprintln!("{v}: {} positions so far, {counts:?}", counts.positions);
}

#[test]
fn sides_that_can_never_win_do_not_win() {
    let mut counts = Counts::default();
    for (w, h, setups) in RULE_CHECK_BOARDS {
        for v in variants(w, h) {
            check(v, setups, 300, &mut counts);
        }
    }
    eprintln!("all: {counts:?}");
    // The bound claims more than the dead positions.
    assert!(counts.mover + counts.other > 2 * counts.dead, "{counts:?}");
    // Each mutant is wrong somewhere: the comparison can fail.
    for (m, c) in MUTANTS.iter().zip(counts.caught) {
        assert!(c > 0, "the mutant {m:?} was not caught");
    }
}

/// Bigger boards, every position reachable from every setup (minutes:
/// `cargo test --release -- --ignored`: 34.5 M positions under the four
/// rule sets, under two minutes; 5x6 needs more than 6 GiB).
#[test]
#[ignore]
fn sides_that_can_never_win_do_not_win_big() {
    let mut counts = Counts::default();
    for (w, h) in [(4, 6), (3, 8)] {
        for v in variants(w, h) {
            check(v, true, 300, &mut counts);
        }
    }
    eprintln!("all: {counts:?}");
}
