//! The rules' typed errors, one type per boundary: board sizes, position
//! text, the legality of a position, position arguments (setup names or
//! text), move text and material classes. Each message names what is wrong
//! in words a user can act on; none speaks of command-line flags.

use crate::rules::color::Color;
use crate::rules::square::Square;
use crate::rules::variant::Board;
use thiserror::Error;

/// Position text that cannot be read, before any rule is checked: what
/// is wrong with its syntax.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("position text: {why}")]
pub struct FenError {
    pub why: String,
}

/// A setup that breaks the rules: no game of the family reaches it.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum IllegalPosition {
    #[error("the position is on a {setup} board, not the {variant} board of its game")]
    WrongBoard { setup: Board, variant: Board },
    #[error("illegal position: {color} pawn on {square} lies off the board")]
    OffBoard { color: Color, square: Square },
    #[error("illegal position: two pawns on {0}")]
    TwoPawns(Square),
    #[error("illegal position: {color} pawn on {square}, its own first rank")]
    PawnOnFirstRank { color: Color, square: Square },
    #[error("illegal position: {color} pawn on {square}, its last rank (the game would be over)")]
    PawnOnLastRank { color: Color, square: Square },
    #[error("illegal position: there are no pawns at all")]
    NoPawns,
    #[error("illegal position: {0} has no pawns but has just moved")]
    MoverHasNoPawns(Color),
    #[error("illegal position: en passant square {square}: {why}")]
    EnPassant { square: Square, why: &'static str },
}

/// A position argument (a setup name or position text) that names no
/// position of the game asked for.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PositionError {
    #[error(
        "'{0}' is neither a position (FEN) nor a setup name (peasants, pawngame, pawnrace:X:Y)"
    )]
    Unknown(String),
    #[error(transparent)]
    Text(#[from] FenError),
    #[error("setup '{setup}' does not fit the {board} board: {why}")]
    SetupDoesNotFit {
        setup: String,
        board: Board,
        why: String,
    },
    #[error("the position text is for a {text} board, but the {asked} board was asked for")]
    BoardMismatch { text: Board, asked: Board },
    #[error(transparent)]
    Illegal(#[from] IllegalPosition),
}

/// Move text that names no legal move of the position.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MoveError {
    #[error("'{text}' is not a legal move here: the game is over")]
    GameOver { text: String },
    #[error("'{text}' is not a legal move here; legal moves: {}", legal.join(" "))]
    NotLegal { text: String, legal: Vec<String> },
}

/// Text that names no material class.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error(
    "'{0}' is not a material class: expected WvB such as 3v2, each side with at least one pawn"
)]
pub struct MaterialError(pub String);
