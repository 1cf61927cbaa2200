//! The one-sided bound: a side that can never win is held to a draw at
//! best. A side wins only by moving a pawn onto its goal rank (its last
//! rank, or its second-to-last under `--seventh-rank-wins`) or by
//! capturing the opponent's last pawn. [`can_win`] shows, by a static
//! over-approximation in the manner of chess unwinnability checkers, that
//! neither can ever happen; [`crate::rules::is_dead`] is the special case
//! in which neither side can win (and nothing can ever be captured).
//!
//! The analysis is a fixpoint over *stable* pawns: pawns assumed never to
//! capture and never to be captured. At the start every pawn is stable.
//! Given the stable pawns, the squares every white pawn can ever stand on
//! (`RW`) and every black pawn (`RB`) are over-approximated:
//! - a pawn's first stay on its file (from the start until it first
//!   captures) runs from its square up to just below the first stable
//!   enemy pawn ahead of it on its file: that pawn never leaves the file,
//!   never vanishes and can never pass it (black: downward, the same);
//! - a white pawn captures only onto a square a black pawn can stand on
//!   (`RB`), from a square of `RW` diagonally below it, so it enters a file
//!   only at such *entry* squares (en passant: onto the skipped square,
//!   which lies inside the double-stepping pawn's run). After entering at
//!   rank `r` it can be held down only by a *stable pair*: the first stable
//!   white pawn on that file at rank `r` or above (at entry it stands above
//!   the entering pawn, for it only moves up and the entry square holds a
//!   black pawn), and the first stable black pawn above that one (the two
//!   never pass each other). Below such a pair the pawn stays below the
//!   black pawn's square; with no pair, it may climb the whole file. Every
//!   stay after a capture is covered so, and captures from entered squares
//!   are followed to a fixpoint.
//!
//! A white pawn on square `s` and a black pawn on `s + 8 ± 1` (one rank up,
//! one file aside) are the only way a capture between them can happen,
//! whoever moves: so where `RW` holds `s` and `RB` such a square, a capture
//! may happen, and every stable pawn whose own first stay holds such a
//! square is made unstable. The reaches grow, and the whole is repeated
//! until no stable pawn is left to lose. At that fixpoint, by induction
//! over the moves of any game from the position, every stable pawn keeps to
//! its file and is never captured and every pawn stays inside its reach:
//! the first move to break this would be a capture between squares the
//! analysis flagged. So white can win only if `RW` meets its goal rank or
//! no black pawn is stable (else a black pawn is on the board for ever),
//! and black the same way.
//!
//! An en passant right of the position is taken as if the pawn that just
//! double-stepped stood on the square it skipped: its run then covers both.
//!
//! The alpha-beta search ([`crate::solve::Solver`], `--no-bound` to compare) takes
//! a side to move that can never win as an upper bound of a draw: "does
//! it win?" is answered no at once, a wider window shrinks to "does it
//! avoid losing?", and if the opponent can never win either, a draw. (The
//! opponent's side alone, a lower bound, is not used: it cost nodes.) The
//! proof-number search ([`crate::solve::PnSolver`], with `Shortcuts::bound`, off by
//! default) disproves a node whose attacker is to move and can never win.
//! It is rare where the searches go (about 1% of nodes) and saves a tenth
//! of a percent of alpha-beta nodes or less: README.md.
//!
//! Checked against plain minimax on every reachable position of small
//! boards under every rule set, with wrong variants the test catches
//! (`tests/suite/bound_vs_minimax.rs`; docs/RULES.md fact 8).

use super::bitboard::Bitboard;
use super::color::Color;
use super::dead::{fill_down, fill_up};
use super::position::Position;

/// The squares one rank up and one file aside of squares of `b`.
#[inline]
const fn diag_up(b: u64) -> u64 {
    let up = Bitboard(b).up(1);
    up.left().0 | up.right().0
}

/// The squares one rank down and one file aside of squares of `b`.
#[inline]
const fn diag_down(b: u64) -> u64 {
    let down = Bitboard(b).down(1);
    down.left().0 | down.right().0
}

/// What the analysis finds (see the module text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Every square a white pawn can ever stand on (squares above the
    /// board may be included).
    pub white: u64,
    /// Every square a black pawn can ever stand on.
    pub black: u64,
    /// The white pawns (their squares now) that can never capture or be
    /// captured.
    pub stable_white: u64,
    /// The black pawns that can never capture or be captured.
    pub stable_black: u64,
}

/// The reaches of `white` and `black` pawns (see the module text), with
/// `board` the squares of the board. An en passant right must already be
/// folded in (the double-stepped pawn placed on the skipped square).
pub fn reach(white: u64, black: u64, board: u64) -> Reach {
    let (mut sw, mut sb) = (white, black);
    loop {
        // First stays: up to the first stable enemy pawn ahead.
        let mut rw = fill_up(white, !sb) & board;
        let mut rb = fill_down(black, !sw) & board;
        loop {
            // Entries by capture; below a stable pair the stay ends under
            // the pair's black pawn, else the whole file.
            let ew = diag_up(rw) & rb;
            let eb = diag_down(rb) & rw;
            let x1 = fill_up(ew, !sw);
            let wstar = ((x1 << 8) | ew) & sw;
            let nrw = rw | ((x1 | fill_up(wstar, !sb)) & board);
            let y1 = fill_down(eb, !sb);
            let bstar = ((y1 >> 8) | eb) & sb;
            let nrb = rb | ((y1 | fill_down(bstar, !sw)) & board);
            if nrw == rw && nrb == rb {
                break;
            }
            rw = nrw;
            rb = nrb;
        }
        // Squares where a capture may happen, and the stable pawns whose
        // first stay holds one.
        let pw = rw & diag_down(rb);
        let pb = rb & diag_up(rw);
        let hit_w = sw & fill_down(pw & !sb, !sb);
        let hit_b = sb & fill_up(pb & !sw, !sw);
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

/// The analysis of `pos`: its pawns, with an en passant right folded in.
pub fn reach_of(pos: &Position) -> Reach {
    let (mut white, mut black) = (pos.pawns(Color::White).0, pos.pawns(Color::Black).0);
    if let Some(ep) = pos.ep_square() {
        let x = 1u64 << ep.index();
        // The pawn that double-stepped stands just beyond the skipped square.
        match pos.turn() {
            Color::White => black = (black & !(x >> 8)) | x,
            Color::Black => white = (white & !(x << 8)) | x,
        }
    }
    let board = pos.board();
    reach(
        white,
        black,
        Bitboard::board(board.width(), board.height()).0,
    )
}

/// The squares of `color`'s goal and beyond: its last rank, or from its
/// second-to-last on with `--seventh-rank-wins`.
fn goal(pos: &Position, color: Color) -> u64 {
    let board = pos.board();
    let srw = pos.variant().rules.seventh_rank_wins;
    let rank = if srw {
        board.second_to_last_rank(color)
    } else {
        board.last_rank(color)
    } as u32;
    match color {
        Color::White => !0u64 << (8 * rank),
        Color::Black => !0u64 >> (8 * (7 - rank)),
    }
}

/// Whether `color` may still win: `false` is proven, the side can never
/// win (its value is at most a draw); `true` only means the analysis
/// cannot rule it out. A side with a pawn that has no enemy pawn ahead of
/// it on its file may win at once (that pawn's first stay runs to the
/// goal), so the fixpoint runs only where every pawn of the side is
/// blocked on its file.
#[inline]
pub fn may_win(pos: &Position, color: Color) -> bool {
    let (ours, theirs) = (pos.pawns(color), pos.pawns(!color));
    let blocked = match color {
        Color::White => ours.0 & !fill_down(theirs.0 >> 8, !0),
        Color::Black => ours.0 & !fill_up(theirs.0 << 8, !0),
    } == 0;
    if !blocked {
        return true;
    }
    let r = reach_of(pos);
    let (reach, stable_theirs) = match color {
        Color::White => (r.white, r.stable_black),
        Color::Black => (r.black, r.stable_white),
    };
    reach & goal(pos, color) != 0 || stable_theirs == 0
}

/// Whether each side may still win, `(white, black)`, as [`may_win`].
pub fn can_win(pos: &Position) -> (bool, bool) {
    (may_win(pos, Color::White), may_win(pos, Color::Black))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{parse_position, Board, Rules};

    fn pos(text: &str, board: (u8, u8)) -> Position {
        let board = Board::new(board.0, board.1).unwrap();
        parse_position(text, Some(board), Rules::default()).unwrap()
    }

    #[test]
    fn dead_positions_are_won_by_neither() {
        for (text, b) in [
            ("2/2/2/1p/pP/P1/2/2 w -", (2, 8)),
            ("3/3/p1p/3/P1P/3/P2/3 b -", (3, 8)),
            ("2/1p/2/1P/p1/2/P1/2 w -", (2, 8)),
        ] {
            assert_eq!(can_win(&pos(text, b)), (false, false), "{text}");
        }
    }

    #[test]
    fn a_free_pawn_may_win_and_a_locked_side_may_not() {
        // White's a-pawn is locked by a black pawn that can never capture
        // or be captured; black's c-pawn runs free: black may win, white
        // never.
        let p = pos("3/3/p1p/3/P2/3/3/3 w -", (3, 8));
        assert_eq!(can_win(&p), (false, true));
        // The start positions: anything may happen.
        let start = parse_position("peasants", Some(Board::STANDARD), Rules::default()).unwrap();
        assert_eq!(can_win(&start), (true, true));
    }

    #[test]
    fn a_capture_may_free_a_pawn() {
        // a3 against a6, b6: the b6 pawn may take on a5 or be taken, so
        // the a-file may open.
        let p = pos("2/2/pp/2/2/P1/2/2 w -", (2, 8));
        assert_eq!(can_win(&p), (true, true));
    }
}
