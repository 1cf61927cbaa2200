//! Dead positions: no capture and no promotion can ever happen again, so
//! the game can only end by stalemate, a draw (the seed notes' "fully dead
//! files", generalising the frozen islands of [`crate::rules::canonical`]:
//! here pawns may still have moves).
//!
//! The analysis is a static over-approximation of where each pawn can ever
//! go, under the hypothesis that no capture ever happens:
//! - without captures a pawn never leaves its file, and two pawns on a file
//!   never pass each other (a push or a double step needs the squares it
//!   crosses empty), so the order of the pawns on every file is fixed;
//! - a white pawn can then only reach the squares from its own up to just
//!   below the first black pawn above it on its file (a black pawn never
//!   moves up; white pawns between them only shrink the room), and a black
//!   pawn the squares from its own down to just above the first white pawn
//!   below it. These runs include every square a double step skips.
//!
//! If every white pawn has a black pawn above it on its file and every
//! black pawn a white pawn below it, no pawn can reach its last rank (nor
//! its second-to-last: the black pawn above a white one stands at most on
//! black's second rank). If moreover no square a white pawn can reach
//! attacks (one rank up, one file aside) a square a black pawn can reach,
//! no capture is ever possible, en passant included (its target is a
//! skipped square, inside the runs): by induction over the moves, the first
//! capture would need such an attack, so the hypothesis holds for ever.
//! Then no promotion, no capture, no loss of a side's last pawn: the game,
//! which always ends (every move advances a pawn), ends by stalemate.
//! Whoever is to move, whatever the rules (en passant or not,
//! `--seventh-rank-wins`), the value is a draw.
//!
//! Checked against plain minimax on every reachable position of small
//! boards under every rule set (`tests/suite/dead_vs_minimax.rs`).

use super::bitboard::Bitboard;
use super::color::Color;
use super::position::Position;

/// Every square strictly below some square of `b` on the same file.
#[inline]
const fn below(b: u64) -> u64 {
    let mut x = b >> 8;
    x |= x >> 8;
    x |= x >> 16;
    x |= x >> 32;
    x
}

/// The squares reachable by pushes from `from` upward through squares of
/// `open` (from included): an occluded fill, at most seven ranks.
#[inline]
pub(super) const fn fill_up(from: u64, open: u64) -> u64 {
    let mut x = from;
    let mut open = open;
    x |= open & (x << 8);
    open &= open << 8;
    x |= open & (x << 16);
    open &= open << 16;
    x |= open & (x << 32);
    x
}

/// As [`fill_up`], downward.
#[inline]
pub(super) const fn fill_down(from: u64, open: u64) -> u64 {
    let mut x = from;
    let mut open = open;
    x |= open & (x >> 8);
    open &= open >> 8;
    x |= open & (x >> 16);
    open &= open >> 16;
    x |= open & (x >> 32);
    x
}

/// The squares each side's pawns can ever reach if no capture ever happens
/// (see the module text): white's and black's, or `None` when some pawn has
/// no enemy pawn ahead of it on its file (it could promote).
#[inline]
pub fn quiet_reach(white: u64, black: u64) -> Option<(u64, u64)> {
    // Every white pawn needs a black pawn above it, every black pawn a
    // white pawn below it.
    if white & !below(black) != 0 || black & !Bitboard(white).above().0 != 0 {
        return None;
    }
    Some((fill_up(white, !black), fill_down(black, !white)))
}

/// Whether a white pawn on some square of `white_reach` could ever capture
/// (or be captured by) a black pawn on some square of `black_reach`: the
/// squares are one rank apart diagonally, white below.
#[inline]
pub fn can_meet(white_reach: u64, black_reach: u64) -> bool {
    let up = Bitboard(white_reach).up(1);
    ((up.left() | up.right()).0 & black_reach) != 0
}

/// Whether `pos` is dead: no capture and no promotion can ever happen, so
/// its value is a draw whoever is to move (see the module text). A
/// position with an en passant right is never dead (the capture is there).
#[inline]
pub fn is_dead(pos: &Position) -> bool {
    if pos.ep_square().is_some() {
        return false;
    }
    match quiet_reach(pos.pawns(Color::White).0, pos.pawns(Color::Black).0) {
        Some((w, b)) => !can_meet(w, b),
        None => false,
    }
}

/// The files (bit `f` for file `f`) of every wall-separated segment of
/// `pos` (maximal run of files holding pawns) that is dead on its own: its
/// pawns can never capture, be captured or promote, whatever happens in the
/// other segments (empty files stay empty: nothing crosses them).
pub fn dead_segments(pos: &Position) -> u8 {
    let files = pos.occupied().files();
    let mut dead = 0u8;
    let mut f = 0u32;
    while f < 8 {
        if files >> f & 1 == 0 {
            f += 1;
            continue;
        }
        let start = f;
        while f < 8 && files >> f & 1 != 0 {
            f += 1;
        }
        let seg = (((1u32 << (f - start)) - 1) << start) as u8;
        let mask = (seg as u64).wrapping_mul(Bitboard::FILE_A.0);
        let (w, b) = (
            pos.pawns(Color::White).0 & mask,
            pos.pawns(Color::Black).0 & mask,
        );
        let ep_here = pos.ep_square().is_some_and(|s| mask >> s.index() & 1 != 0);
        if !ep_here && quiet_reach(w, b).is_some_and(|(rw, rb)| !can_meet(rw, rb)) {
            dead |= seg;
        }
    }
    dead
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
    fn blocked_pairs_out_of_reach_are_dead() {
        // a3/a4 and b4/b5: white's a-pawn attacks b4 (its own), black's
        // b-pawn attacks a4 (its own).
        assert!(is_dead(&pos("2/2/2/1p/pP/P1/2/2 w -", (2, 8))));
        // Room to move: a2 and a4 against a6, c4 against c6, an empty file
        // between.
        assert!(is_dead(&pos("3/3/p1p/3/P1P/3/P2/3 b -", (3, 8))));
        // Room to move on adjacent files that never meet: a2 against a4,
        // b5 against b7.
        assert!(is_dead(&pos("2/1p/2/1P/p1/2/P1/2 w -", (2, 8))));
    }

    #[test]
    fn live_positions_are_not_dead() {
        // a2 against a5, b3 against b7: a4 and b5 may meet.
        assert!(!is_dead(&pos("2/1p/2/p1/2/1P/P1/2 w -", (2, 8))));
        // The white b-pawn has nothing ahead: it can promote.
        assert!(!is_dead(&pos("2/2/p1/2/2/1P/P1/2 w -", (2, 8))));
        // The black b-pawn has nothing below it.
        assert!(!is_dead(&pos("2/1p/2/p1/2/2/P1/2 w -", (2, 8))));
        // The starting positions.
        let start = parse_position("peasants", Some(Board::STANDARD), Rules::default()).unwrap();
        assert!(!is_dead(&start));
    }

    #[test]
    fn fills_stop_at_enemy_pawns() {
        let (w, b) = quiet_reach(1 << 8 | 1 << 16, 1 << 40).unwrap();
        assert_eq!(w, 1 << 8 | 1 << 16 | 1 << 24 | 1 << 32);
        assert_eq!(b, 1 << 40 | 1 << 32 | 1 << 24);
        assert_eq!(quiet_reach(1 << 8, 0), None);
        assert_eq!(fill_up(1, !0), Bitboard::FILE_A.0);
        assert_eq!(fill_down(1 << 63, !0), Bitboard::FILE_H.0);
    }
}
