//! Positions: pawns on a board, the side to move and an en passant right.
//! Legal moves, playing them, and the end of the game.

use crate::rules::bitboard::Bitboard;
use crate::rules::color::{ByColor, Color};
use crate::rules::error::{IllegalPosition, MoveError};
use crate::rules::moves::{Move, MoveKind, MoveList};
use crate::rules::setup::Setup;
use crate::rules::square::Square;
use crate::rules::variant::{Board, Variant};
use std::fmt;

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// One side promoted a pawn or captured the opponent's last pawn (or,
    /// with `--seventh-rank-wins`, reached its second-to-last rank).
    Decisive {
        /// The side that won.
        winner: Color,
    },
    /// The side to move has pawns but no legal move.
    Draw,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Decisive { winner } => write!(f, "{winner} wins"),
            Outcome::Draw => f.write_str("draw by stalemate"),
        }
    }
}

/// A legal position of one game of the family.
///
/// Built only by [`Position::from_setup`] (which checks it) or by playing
/// moves. The en passant square is kept only when an en passant capture is
/// really possible, so positions that play alike compare equal.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Position {
    pawns: ByColor<Bitboard>,
    turn: Color,
    ep_square: Option<Square>,
    variant: Variant,
}

impl Position {
    /// Checks a setup against the rules of `variant` (whose board must be the
    /// setup's) and makes it a position. The error names the first problem.
    pub fn from_setup(setup: &Setup, variant: Variant) -> Result<Position, IllegalPosition> {
        let board = variant.board;
        if setup.board != board {
            return Err(IllegalPosition::WrongBoard {
                setup: setup.board,
                variant: board,
            });
        }
        let on_board = board.squares();
        for color in Color::ALL {
            let pawns = *setup.pawns.get(color);
            if let Some(square) = (pawns & !on_board).first() {
                return Err(IllegalPosition::OffBoard { color, square });
            }
            if let Some(square) = (pawns & board.rank_mask(board.first_rank(color))).first() {
                return Err(IllegalPosition::PawnOnFirstRank { color, square });
            }
            if let Some(square) = (pawns & board.rank_mask(board.last_rank(color))).first() {
                return Err(IllegalPosition::PawnOnLastRank { color, square });
            }
        }
        if let Some(square) = (setup.pawns.white & setup.pawns.black).first() {
            return Err(IllegalPosition::TwoPawns(square));
        }
        if (setup.pawns.white | setup.pawns.black).is_empty() {
            return Err(IllegalPosition::NoPawns);
        }
        if setup.pawns.get(!setup.turn).0 == 0 {
            return Err(IllegalPosition::MoverHasNoPawns(!setup.turn));
        }
        let mut pos = Position {
            pawns: setup.pawns,
            turn: setup.turn,
            ep_square: None,
            variant,
        };
        if let Some(target) = setup.ep_square {
            pos.check_ep_square(target)?;
            pos.ep_square = pos.ep_if_capturable(target);
        }
        Ok(pos)
    }

    /// Checks that a double step of the side that just moved skipped `target`.
    fn check_ep_square(&self, target: Square) -> Result<(), IllegalPosition> {
        let board = self.board();
        let mover = !self.turn;
        let err = |why| {
            Err(IllegalPosition::EnPassant {
                square: target,
                why,
            })
        };
        if !board.squares().contains(target) {
            return err("it lies off the board");
        }
        let (skipped_rank, dir) = match mover {
            Color::White => (2, 1i8),
            Color::Black => (board.height() - 3, -1i8),
        };
        if target.rank() != skipped_rank {
            return err("no double step of the side that just moved skips that square");
        }
        let arrival = target.offset(8 * dir).expect("on the board");
        let origin = target.offset(-8 * dir).expect("on the board");
        if !self.pawns.get(mover).contains(arrival) {
            return err("no pawn stands where the double step would have arrived");
        }
        if self.occupied().contains(target) || self.occupied().contains(origin) {
            return err("the squares the double step crossed are not empty");
        }
        Ok(())
    }

    /// `Some(target)` if the side to move has a pawn that can capture en
    /// passant onto `target`, the rules allow it, and the game goes on (a
    /// double step onto the last rank of a board of height 4, or onto the
    /// second-to-last with `--seventh-rank-wins`, has ended it).
    #[inline]
    fn ep_if_capturable(&self, target: Square) -> Option<Square> {
        if !self.variant.rules.en_passant || self.winner_by_rule().is_some() {
            return None;
        }
        let t = Bitboard::from_square(target);
        let beside = match self.turn {
            Color::White => t.down(1),
            Color::Black => t.up(1),
        };
        let capturers = (beside.left() | beside.right()) & *self.pawns.get(self.turn);
        capturers.any().then_some(target)
    }

    /// A position from raw parts, not checked. For indexers and generators
    /// that build only legal positions; the en passant square must already be
    /// one that [`Position::from_setup`] would keep.
    #[inline]
    pub fn from_parts_unchecked(
        variant: Variant,
        pawns: ByColor<Bitboard>,
        turn: Color,
        ep_square: Option<Square>,
    ) -> Position {
        Position {
            pawns,
            turn,
            ep_square,
            variant,
        }
    }

    /// The setup this position was made from.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board(),
            pawns: self.pawns,
            turn: self.turn,
            ep_square: self.ep_square,
        }
    }

    /// The game (board and rules) the position belongs to.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The board (the variant's).
    #[inline]
    pub fn board(&self) -> Board {
        self.variant.board
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The pawns of `color`.
    #[inline]
    pub fn pawns(&self, color: Color) -> Bitboard {
        *self.pawns.get(color)
    }

    /// The pawns of both sides.
    #[inline]
    pub fn all_pawns(&self) -> ByColor<Bitboard> {
        self.pawns
    }

    /// Every square that holds a pawn of either side.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.pawns.white | self.pawns.black
    }

    /// The square skipped by the last move's double step, if a pawn of the
    /// side to move can capture en passant onto it.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The winner if the last move ended the game by rule: a pawn on its last
    /// rank (or second-to-last with `--seventh-rank-wins`), or the side to
    /// move left without pawns. Stalemate is not included (see [`Position::outcome`]).
    #[inline]
    pub fn winner_by_rule(&self) -> Option<Color> {
        let board = self.board();
        let mover = !self.turn;
        let theirs = *self.pawns.get(mover);
        let goal = if self.variant.rules.seventh_rank_wins {
            board.rank_mask(board.last_rank(mover))
                | board.rank_mask(board.second_to_last_rank(mover))
        } else {
            board.rank_mask(board.last_rank(mover))
        };
        if (theirs & goal).any() || self.pawns(self.turn).is_empty() {
            Some(mover)
        } else {
            None
        }
    }

    /// How the game has ended, or `None` if it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(winner) = self.winner_by_rule() {
            Some(Outcome::Decisive { winner })
        } else if self.count_moves() == 0 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// Whether the game is over, by rule or by stalemate (as
    /// `outcome().is_some()`).
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.winner_by_rule().is_some() || self.count_moves() == 0
    }

    /// The move targets of the side to move, by kind: (pushes, double
    /// steps, captures toward file a, captures toward file h).
    #[inline]
    fn targets(&self) -> (Bitboard, Bitboard, Bitboard, Bitboard) {
        let board = self.board();
        let own = *self.pawns.get(self.turn);
        let theirs = *self.pawns.get(!self.turn);
        let empty = board.squares() & !(own | theirs);
        let mut prey = theirs;
        if let Some(t) = self.ep_square {
            prey.set(t);
        }
        match self.turn {
            Color::White => {
                let push = own.up(1) & empty;
                let double = (push & board.rank_mask(2)).up(1) & empty;
                (
                    push,
                    double,
                    own.left().up(1) & prey,
                    own.right().up(1) & prey,
                )
            }
            Color::Black => {
                let push = own.down(1) & empty;
                let double = (push & board.rank_mask(board.height() - 3)).down(1) & empty;
                (
                    push,
                    double,
                    own.left().down(1) & prey,
                    own.right().down(1) & prey,
                )
            }
        }
    }

    /// The number of legal moves (0 when the game is over).
    #[inline]
    pub fn count_moves(&self) -> u32 {
        if self.winner_by_rule().is_some() {
            return 0;
        }
        let (push, double, left, right) = self.targets();
        push.count() + double.count() + left.count() + right.count()
    }

    /// Every legal move of the side to move (none when the game is over).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.winner_by_rule().is_some() {
            return list;
        }
        let (push, double, left, right) = self.targets();
        let back: i8 = match self.turn {
            Color::White => -8,
            Color::Black => 8,
        };
        let sq = |s: Square, d: i8| s.offset(d).expect("origin lies on the board");
        let capture_kind = |to: Square| {
            if Some(to) == self.ep_square {
                MoveKind::EnPassant
            } else {
                MoveKind::Capture
            }
        };
        for to in push {
            list.push(Move {
                from: sq(to, back),
                to,
                kind: MoveKind::Push,
            });
        }
        for to in double {
            list.push(Move {
                from: sq(to, 2 * back),
                to,
                kind: MoveKind::DoublePush,
            });
        }
        // A capture toward file a started one file to the right, and vice versa.
        for to in left {
            list.push(Move {
                from: sq(to, back + 1),
                to,
                kind: capture_kind(to),
            });
        }
        for to in right {
            list.push(Move {
                from: sq(to, back - 1),
                to,
                kind: capture_kind(to),
            });
        }
        list
    }

    /// The position after `m`, which must be a legal move of this position.
    #[inline]
    pub fn play(&self, m: Move) -> Position {
        let mover = self.turn;
        let mut pawns = self.pawns;
        let own = pawns.get_mut(mover);
        own.clear(m.from);
        own.set(m.to);
        if let Some(captured) = m.captured_square() {
            pawns.get_mut(!mover).clear(captured);
        }
        let mut next = Position {
            pawns,
            turn: !mover,
            ep_square: None,
            variant: self.variant,
        };
        if m.kind == MoveKind::DoublePush {
            let skipped = Square::new(m.from.file(), (m.from.rank() + m.to.rank()) / 2);
            next.ep_square = next.ep_if_capturable(skipped);
        }
        next
    }

    /// Finds the legal move that `text` names, in SAN (`e4`, `bxc6`) or long
    /// form (`e2e4`, `b5c6`, also `e2-e4`, `b5xc6`); check marks, `!`/`?`
    /// and a trailing `e.p.` are ignored.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let mut t = text.trim().to_ascii_lowercase();
        for suffix in ["e.p.", "ep"] {
            if let Some(rest) = t.strip_suffix(suffix) {
                if rest.len() >= 2 {
                    t = rest.trim_end().to_string();
                }
            }
        }
        let t = t.trim_end_matches(['+', '#', '!', '?']);
        let moves = self.legal_moves();
        let found = moves.iter().find(|m| {
            t == m.san()
                || t == m.uci()
                || t == format!("{}-{}", m.from, m.to)
                || t == format!("{}x{}", m.from, m.to)
        });
        match found {
            Some(&m) => Ok(m),
            None if moves.is_empty() => Err(MoveError::GameOver {
                text: text.trim().to_string(),
            }),
            None => Err(MoveError::NotLegal {
                text: text.trim().to_string(),
                legal: moves.iter().map(|m| m.san()).collect(),
            }),
        }
    }

    /// The same pawns and side to move without an en passant right: the
    /// position has every move of this one but the captures en passant.
    pub fn without_en_passant(&self) -> Position {
        Position {
            ep_square: None,
            ..*self
        }
    }

    /// The same position with colours swapped and the board turned upside
    /// down: white's pawns become black's, mirrored top-bottom, and the other
    /// side moves. Values (from the side to move's view) are unchanged.
    pub fn flipped(&self) -> Position {
        let h = self.board().height();
        Position {
            pawns: ByColor {
                white: self.pawns.black.mirror_ranks(h),
                black: self.pawns.white.mirror_ranks(h),
            },
            turn: !self.turn,
            ep_square: self.ep_square.map(|s| s.mirror_rank(h)),
            variant: self.variant,
        }
    }

    /// The same position mirrored left-right (file a <-> the last file).
    pub fn mirrored(&self) -> Position {
        let w = self.board().width();
        Position {
            pawns: ByColor {
                white: self.pawns.white.mirror_files(w),
                black: self.pawns.black.mirror_files(w),
            },
            turn: self.turn,
            ep_square: self.ep_square.map(|s| s.mirror_file(w)),
            variant: self.variant,
        }
    }

    /// A board diagram, rank H at the top, with file letters and rank numbers.
    pub fn diagram(&self) -> String {
        let board = self.board();
        let mut out = String::new();
        for rank in (0..board.height()).rev() {
            out.push_str(&format!("{} ", rank + 1));
            for file in 0..board.width() {
                let sq = Square::new(file, rank);
                let c = if self.pawns.white.contains(sq) {
                    'P'
                } else if self.pawns.black.contains(sq) {
                    'p'
                } else if self.ep_square == Some(sq) {
                    '*'
                } else {
                    '.'
                };
                out.push(' ');
                out.push(c);
            }
            out.push('\n');
        }
        out.push_str("  ");
        for file in 0..board.width() {
            out.push(' ');
            out.push(crate::rules::square::file_char(file));
        }
        out.push('\n');
        out
    }
}

impl fmt::Display for Position {
    /// Writes the position text (FEN subset of docs/RULES.md).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::rules::fen::write(&self.to_setup()))
    }
}
