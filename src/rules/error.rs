//! The library's typed errors. Each message names what is wrong in words a
//! user of the command line can act on.

use crate::rules::color::Color;
use crate::rules::square::Square;
use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum Error {
    #[error("board {width}x{height} is out of range: width must be 1..8 and height 4..8")]
    BoardSize { width: u8, height: u8 },
    #[error("'{0}' is not a board size: expected WxH such as 8x8")]
    BoardText(String),
    #[error(
        "'{0}' is neither a position (FEN) nor a setup name (peasants, pawngame, pawnrace:X:Y)"
    )]
    UnknownPosition(String),
    #[error("position text: {0}")]
    Fen(String),
    #[error("setup '{setup}' does not fit the {board} board: {why}")]
    SetupDoesNotFit {
        setup: String,
        board: String,
        why: String,
    },
    #[error("the position is {fen_board} but --board says {board}")]
    BoardMismatch { fen_board: String, board: String },
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
    #[error("the game is already over in this position ({0})")]
    GameOver(String),
    #[error(
        "'{0}' is not a material class: expected WvB such as 3v2, each side with at least one pawn"
    )]
    MaterialText(String),
    #[error("'{text}' is not a legal move here{why}")]
    IllegalMove { text: String, why: String },
}
