//! Moves and move lists.

use crate::rules::square::{file_char, Square};
use std::fmt;
use std::ops::Deref;

/// What a move does besides moving one pawn.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum MoveKind {
    /// One square straight forward.
    Push,
    /// Two squares straight forward from the second rank.
    DoublePush,
    /// Diagonally forward onto an enemy pawn.
    Capture,
    /// Diagonally forward onto the square an enemy pawn just skipped.
    EnPassant,
}

/// A move of the side to move of some position.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Move {
    /// The square the pawn leaves.
    pub from: Square,
    /// The square the pawn arrives on (for en passant, the square the captured
    /// pawn skipped).
    pub to: Square,
    /// Push, double step, capture or en passant.
    pub kind: MoveKind,
}

impl Move {
    /// Whether the move removes an enemy pawn (a capture or en passant).
    #[inline]
    pub const fn is_capture(self) -> bool {
        matches!(self.kind, MoveKind::Capture | MoveKind::EnPassant)
    }

    /// The square of the pawn this move removes, if it captures.
    #[inline]
    pub fn captured_square(self) -> Option<Square> {
        match self.kind {
            MoveKind::Capture => Some(self.to),
            MoveKind::EnPassant => Some(Square::new(self.to.file(), self.from.rank())),
            _ => None,
        }
    }

    /// Standard algebraic notation: `e4` for a quiet move, `bxc6` for a capture.
    pub fn san(self) -> String {
        self.to_string()
    }

    /// Long form: origin and target squares, `e2e4`, `b5c6`.
    pub fn uci(self) -> String {
        format!("{}{}", self.from, self.to)
    }
}

impl fmt::Display for Move {
    /// Writes the move in standard algebraic notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_capture() {
            write!(f, "{}x{}", file_char(self.from.file()), self.to)
        } else {
            write!(f, "{}", self.to)
        }
    }
}

/// Room for every move of any legal position. Pawns stand on at most 48
/// squares (ranks 2..7); with `own`, `enemy` and `empty` of them, pushes are
/// at most `min(own, empty)`, captures at most `2 * min(own, enemy)`, double
/// steps at most 8 and en passant captures 2: never more than 58.
pub const MAX_MOVES: usize = 64;

/// A list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        const NONE: Move = Move {
            from: Square::from_index(0),
            to: Square::from_index(0),
            kind: MoveKind::Push,
        };
        MoveList {
            moves: [NONE; MAX_MOVES],
            len: 0,
        }
    }

    /// Adds `m` at the end; a list holds [`MAX_MOVES`] moves at most, more than
    /// any legal position has.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// The moves, to reorder in place.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
