//! Un-moves: the moves that could have led to a position, taken back.
//!
//! The generator does not need them (every move advances a pawn, so one
//! forward pass values everything, see [`crate::generate`]), but they are
//! the other half of the move generator's contract and are checked against
//! it: every move's result has that move among its un-moves, and every
//! un-move can be played forward again to the same position.

use crate::rules::color::Color;
use crate::rules::moves::{Move, MoveKind};
use crate::rules::position::Position;
use crate::rules::square::Square;

/// A move taken back: the move that led to the position, and the en passant
/// square the position before it had. The earlier position is not fixed by
/// the move alone: it may or may not have carried an en passant right.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct UnMove {
    /// The move taken back: the last move, made by the side not to move now.
    pub m: Move,
    /// The en passant square of the position before that move, if it had one.
    pub prev_ep: Option<Square>,
}

impl Position {
    /// The position before `um`; `um` must be one of [`Position::legal_unmoves`].
    pub fn unplay(&self, um: UnMove) -> Position {
        let mover = !self.turn();
        let mut pawns = self.all_pawns();
        let own = pawns.get_mut(mover);
        own.clear(um.m.to);
        own.set(um.m.from);
        if let Some(captured) = um.m.captured_square() {
            pawns.get_mut(self.turn()).set(captured);
        }
        Position::from_parts_unchecked(self.variant(), pawns, mover, um.prev_ep)
    }

    /// Every un-move: each move of the side that just moved that leads here
    /// from a legal position whose game was not over, once for each en
    /// passant right that position could have had.
    pub fn legal_unmoves(&self) -> Vec<UnMove> {
        let mover = !self.turn();
        let width = self.board().width() as i8;
        let up: i8 = match mover {
            Color::White => 1,
            Color::Black => -1,
        };
        let at = |file: i8, rank: i8| {
            ((0..width).contains(&file) && (0..8).contains(&rank))
                .then(|| Square::new(file as u8, rank as u8))
        };
        let mut out = Vec::new();
        for to in self.pawns(mover) {
            let (f, r) = (to.file() as i8, to.rank() as i8);
            let mut candidates = Vec::new();
            if let Some(from) = at(f, r - up) {
                candidates.push(Move {
                    from,
                    to,
                    kind: MoveKind::Push,
                });
            }
            if let Some(from) = at(f, r - 2 * up) {
                candidates.push(Move {
                    from,
                    to,
                    kind: MoveKind::DoublePush,
                });
            }
            for df in [-1, 1] {
                if let Some(from) = at(f + df, r - up) {
                    candidates.push(Move {
                        from,
                        to,
                        kind: MoveKind::Capture,
                    });
                    candidates.push(Move {
                        from,
                        to,
                        kind: MoveKind::EnPassant,
                    });
                }
            }
            for m in candidates {
                self.push_unmoves(m, &mut out);
            }
        }
        out
    }

    /// Adds `m` with each en passant right the earlier position could have
    /// had, where that position is legal and `m` leads from it to here.
    fn push_unmoves(&self, m: Move, out: &mut Vec<UnMove>) {
        let bare = self.unplay(UnMove { m, prev_ep: None });
        // The squares the side to move here could have skipped with a double
        // step just before `m`.
        let board = self.board();
        let stepper = self.turn();
        let skipped_rank = match stepper {
            Color::White => 2,
            Color::Black => board.height() - 3,
        };
        let mut eps = vec![None];
        eps.extend(board.rank_mask(skipped_rank).map(Some));
        for prev_ep in eps {
            let mut setup = bare.to_setup();
            setup.ep_square = prev_ep;
            // The validating constructor checks the earlier position, and
            // keeps its en passant square only if a capture was possible.
            let Ok(prev) = Position::from_setup(&setup, self.variant()) else {
                continue;
            };
            if prev.ep_square() != prev_ep || prev.winner_by_rule().is_some() {
                continue;
            }
            if prev.legal_moves().contains(&m) && prev.play(m) == *self {
                out.push(UnMove { m, prev_ep });
            }
        }
    }
}

/// The number of un-move sequences of `depth` plies back from `pos`.
pub fn retro_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_unmoves()
        .iter()
        .map(|&um| retro_perft(&pos.unplay(um), depth - 1))
        .sum()
}
