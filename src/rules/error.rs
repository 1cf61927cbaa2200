//! The rules' typed errors, one type per boundary: board sizes, position
//! text, the legality of a position, position arguments (setup names or
//! text), move text, material classes and the names of settings. Each message names what is wrong
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
    /// What is wrong, in words.
    pub why: String,
}

/// A setup that breaks the rules: no game of the family reaches it.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum IllegalPosition {
    /// The setup is for another board than the game it is checked against.
    #[error("the position is on a {setup} board, not the {variant} board of its game")]
    WrongBoard {
        /// The setup's board.
        setup: Board,
        /// The game's board.
        variant: Board,
    },
    /// A pawn stands beyond the board's files or ranks.
    #[error("illegal position: {color} pawn on {square} lies off the board")]
    OffBoard {
        /// Whose pawn.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// A white and a black pawn stand on this square.
    #[error("illegal position: two pawns on {0}")]
    TwoPawns(Square),
    /// A pawn stands on its own first rank (white: rank 1, black: rank H),
    /// where no pawn can be.
    #[error("illegal position: {color} pawn on {square}, its own first rank")]
    PawnOnFirstRank {
        /// Whose pawn.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// A pawn stands on its last rank: it has promoted and the game is over.
    #[error("illegal position: {color} pawn on {square}, its last rank (the game would be over)")]
    PawnOnLastRank {
        /// Whose pawn.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// Neither side has a pawn.
    #[error("illegal position: there are no pawns at all")]
    NoPawns,
    /// The side that has just moved (this one, not the side to move) has no
    /// pawn to have moved.
    #[error("illegal position: {0} has no pawns but has just moved")]
    MoverHasNoPawns(Color),
    /// The en passant square claimed cannot have been skipped by a double step
    /// of the side that has just moved.
    #[error("illegal position: en passant square {square}: {why}")]
    EnPassant {
        /// The square claimed.
        square: Square,
        /// What rules it out.
        why: &'static str,
    },
}

/// A position argument (a setup name or position text) that names no
/// position of the game asked for.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// The text (given here, trimmed) is neither a setup name nor position
    /// text.
    #[error(
        "'{0}' is neither a position (FEN) nor a setup name (peasants, pawngame, pawnrace:X:Y)"
    )]
    Unknown(String),
    /// Position text that cannot be read.
    #[error(transparent)]
    Text(#[from] FenError),
    /// A named setup that does not fit the board (Peasants' Chess needs six
    /// ranks or more, for one).
    #[error("setup '{setup}' does not fit the {board} board: {why}")]
    SetupDoesNotFit {
        /// The setup's name, as given.
        setup: String,
        /// The board asked for.
        board: Board,
        /// Why the setup does not fit.
        why: String,
    },
    /// Position text for one board when another board was asked for.
    #[error("the position text is for a {text} board, but the {asked} board was asked for")]
    BoardMismatch {
        /// The board of the text.
        text: Board,
        /// The board asked for.
        asked: Board,
    },
    /// The position breaks the rules.
    #[error(transparent)]
    Illegal(#[from] IllegalPosition),
    /// A move of the list after `moves` that is not legal where it is played.
    #[error("after '{after}': {error}")]
    Move {
        /// The position text of the position the move was played in.
        after: String,
        /// Why the move is not legal there.
        error: MoveError,
    },
}

/// Move text that names no legal move of the position.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// The game is over: the position has no legal move at all.
    #[error("'{text}' is not a legal move here: the game is over")]
    GameOver {
        /// The move text, as given (trimmed).
        text: String,
    },
    /// No legal move of the position matches the text.
    #[error("'{text}' is not a legal move here; legal moves: {}", legal.join(" "))]
    NotLegal {
        /// The move text, as given (trimmed).
        text: String,
        /// Every legal move of the position, in algebraic notation (`e4`,
        /// `bxc6`).
        legal: Vec<String>,
    },
}

/// Text that names no material class.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error(
    "'{0}' is not a material class: expected WvB such as 3v2, each side with at least one pawn"
)]
pub struct MaterialError(pub String);

/// Text that names none of the values of a setting (such as the canonical
/// rules `all`, `walls`, `flip`): says which it expected.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("expected {expected}")]
pub struct SettingError {
    /// The values the setting takes, in words ("all, walls or flip").
    pub expected: &'static str,
}
