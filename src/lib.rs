//! `peasant` solves pawn-only chess games exactly: Peasants' Chess, the pawn
//! game and Pawn Race, on any board up to 8x8, with or without en passant.
//!
//! ```
//! use peasant::{parse_position, perft, Board, Rules};
//!
//! let start = parse_position("peasants", Some(Board::STANDARD), Rules::default()).unwrap();
//! // Only the eight pawns of rank 3 can move: the second rank is blocked.
//! assert_eq!(start.legal_moves().len(), 8);
//! assert_eq!(perft(&start, 2), 64);
//! ```

mod bitboard;
mod color;
mod error;
pub mod fen;
mod moves;
mod perft;
mod position;
mod setup;
mod square;
mod variant;

pub use bitboard::Bitboard;
pub use color::{ByColor, Color};
pub use error::Error;
pub use moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use perft::{divide, perft, perft_parallel};
pub use position::{Outcome, Position, Setup};
pub use setup::{named_setup, parse_position};
pub use square::{file_char, file_from_char, Square};
pub use variant::{Board, Rules, Variant};
