//! The proven rule shortcuts: positions whose value follows from a rule of
//! the game without search, each checked against plain minimax on every
//! placement of small boards (`tests/suite/race_vs_minimax.rs`; the facts are
//! listed in `docs/RULES.md`).

use super::bitboard::Bitboard;
use super::color::Color;
use super::position::Position;
use super::value::Value;

/// Fact 3 of docs/RULES.md, for a position with white to move whose game is not
/// over and that has no en passant right: a pawn on a second-to-last rank
/// can never be stopped. (With an en passant right it can: on a board of
/// height 5 a double step lands there and may be taken en passant.)
/// - White has one: it promotes now, a win in 1.
/// - Else black has one (real rules; under `--seventh-rank-wins` black would
///   already have won): black's pawn cannot be captured and will promote,
///   so white wins in 1 if some move wins at once (on a board of height 4 a
///   double step reaches the last rank), draws if it has no move, and
///   otherwise loses in 2.
pub fn resolve_by_rule(pos: &Position) -> Option<Value> {
    debug_assert_eq!(pos.turn(), Color::White);
    let board = pos.board();
    let white_runner = board.rank_mask(board.second_to_last_rank(Color::White));
    if (pos.pawns(Color::White) & white_runner).any() {
        return Some(Value::Win(1));
    }
    let black_runner = board.rank_mask(board.second_to_last_rank(Color::Black));
    if (pos.pawns(Color::Black) & black_runner).any() {
        let moves = pos.legal_moves();
        return Some(if moves.is_empty() {
            Value::Draw
        } else if moves
            .iter()
            .any(|&m| pos.play(m).winner_by_rule() == Some(Color::White))
        {
            Value::Win(1)
        } else {
            Value::Loss(2)
        });
    }
    None
}

/// The pure race (for a position with white to move whose game is not over
/// and that has no en passant right): when no white pawn has a black pawn
/// on its own or an adjacent file strictly ahead of it, no capture, block,
/// en passant or stalemate can ever happen again (black pawns only move
/// down and white pawns up, so the two armies have passed each other for
/// good; each side's most advanced pawn on a file always has the square
/// ahead free). Each side then only races: its time is the fewest moves
/// its most advanced pawn needs to its goal (the last rank, or the
/// second-to-last with `--seventh-rank-wins`), a double step from its
/// second rank counting as one move (on boards of height 4 and 5 it may
/// reach the goal itself). White, to move, wins iff its time `t` is at most
/// black's `u`: a win in `2t - 1`, else a loss in `2u`.
/// `None` when the armies have not passed each other.
pub fn resolve_race(pos: &Position) -> Option<Value> {
    debug_assert_eq!(pos.turn(), Color::White);
    if pos.ep_square().is_some() {
        return None;
    }
    let (white, black) = (pos.pawns(Color::White).0, pos.pawns(Color::Black).0);
    if white == 0 || black == 0 {
        return None;
    }
    // Every square strictly ahead of a white pawn, on its file and beside.
    let ahead = Bitboard(white).above();
    if ((ahead | ahead.left() | ahead.right()).0 & black) != 0 {
        return None;
    }
    let h = pos.board().height() as i32;
    let srw = pos.variant().rules.seventh_rank_wins as i32;
    // The fewest moves over `dist` ranks, a double step from the second
    // rank counting as one.
    let time = |dist: i32, on_second: bool| (dist - on_second as i32).max(1);
    let top = (63 - white.leading_zeros()) as i32 / 8;
    let bottom = black.trailing_zeros() as i32 / 8;
    let t = time(h - 1 - srw - top, top == 1);
    let u = time(bottom - srw, bottom == h - 2);
    Some(if t <= u {
        Value::Win((2 * t - 1) as u8)
    } else {
        Value::Loss((2 * u) as u8)
    })
}

/// The free runner (for a position with white to move whose game is not
/// over and that has no en passant right): true when white wins by pushing
/// one pawn P, on file f and rank r, to its goal and nothing else. That
/// needs all of:
/// - nothing on file f ahead of P: every push is legal (only P moves, so
///   no white pawn ever comes there);
/// - no black pawn in the cone ahead of P: on its file anywhere ahead, on
///   the files `d >= 1` away at least `2d` ranks ahead. A black pawn `d`
///   files away changes file only by capturing, one file per move, each
///   move descending a rank, while P climbs a rank every move with white
///   moving first: to capture P (en passant included: a double step
///   landing beside it) it must stand beside P one rank above it after `m`
///   of P's pushes with `m >= d`, so it started at least `2d` ranks above
///   P; to stand in front of P it needs even more. P, never captured, also
///   keeps white from losing its last pawn;
/// - P's time `t` (fewest moves to its goal, a double step counting as one)
///   at most every black pawn's fewest moves to its goal, counted on an empty
///   board: black, moving second, cannot get there first;
/// - a black pawn with nothing on its file ahead of it (below it) and no
///   white pawn below it on an adjacent file: it can never capture (P stays
///   out of its reach by the cone), so it stays on its file and can always
///   be pushed, and black is never stalemated (fact 7) before P arrives.
///   (A black pawn that could capture might leave its file for a blocked
///   square and stalemate black on purpose.)
///
/// The win is sure but not its distance (another plan may be faster): for
/// win/draw/loss searches only.
pub fn resolve_runner(pos: &Position) -> bool {
    debug_assert_eq!(pos.turn(), Color::White);
    if pos.ep_square().is_some() {
        return false;
    }
    let (white, black) = (pos.pawns(Color::White).0, pos.pawns(Color::Black).0);
    if white == 0 || black == 0 {
        return false;
    }
    let board = pos.board();
    let (w, h) = (board.width() as i32, board.height() as i32);
    let srw = pos.variant().rules.seventh_rank_wins as i32;
    let time = |dist: i32, on_second: bool| (dist - on_second as i32).max(1);
    let occupied = white | black;
    // Black is never stalemated: some black pawn has nothing below it on
    // its file and no white pawn below it on a file beside (so it can never
    // capture, stays on its file and can always be pushed).
    let over_white = Bitboard(white).above();
    if black & !Bitboard(occupied).above().0 & !(over_white.left() | over_white.right()).0 == 0 {
        return false;
    }
    // Black's fastest goal on an empty board: its lowest pawn.
    let bottom = black.trailing_zeros() as i32 / 8;
    let u = time(bottom - srw, bottom == h - 2);
    let mut candidates = white;
    while candidates != 0 {
        let sq = candidates.trailing_zeros() as i32;
        candidates &= candidates - 1;
        let (f, r) = (sq % 8, sq / 8);
        if time(h - 1 - srw - r, r == 1) > u {
            continue;
        }
        // The file ahead and the cone.
        let mut clear = true;
        for q in r + 1..h {
            let d = (q - r) / 2;
            let (lo, hi) = ((f - d).max(0), (f + d).min(w - 1));
            let files = ((1u64 << (hi - lo + 1)) - 1) << lo;
            if (black >> (8 * q)) & 0xff & files != 0 || (white >> (8 * q)) & (1 << f) != 0 {
                clear = false;
                break;
            }
        }
        if clear {
            return true;
        }
    }
    false
}
