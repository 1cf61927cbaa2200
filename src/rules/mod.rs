//! Stage 1, the rules: boards and their variants, squares and bitboards,
//! position text, [`Position`] with its moves and un-moves, perft, values
//! ([`Value`], [`Wdl`]), the canonical forms that merge positions which play
//! alike, and the proven rule shortcuts.
//!
//! Everything later in the pipeline (the index, the generator, the tables,
//! the solvers) works on the [`Position`] this stage hands on: a position
//! that has been checked against the rules and can only change by legal
//! moves. The exact rules are written out in `docs/RULES.md`.

pub(crate) mod bitboard;
pub(crate) mod bound;
pub(crate) mod canonical;
pub(crate) mod color;
pub(crate) mod dead;
pub(crate) mod error;
pub(crate) mod fen;
pub(crate) mod moves;
pub(crate) mod numbering;
pub(crate) mod parse;
pub(crate) mod perft;
pub(crate) mod position;
pub(crate) mod setup;
pub(crate) mod shortcuts;
pub(crate) mod square;
pub(crate) mod unmove;
pub(crate) mod value;
pub(crate) mod variant;

pub use bitboard::Bitboard;
pub use bound::{can_win, may_win, reach, reach_of, Reach};
pub use canonical::{canonical, canonical_with, position_from_key, position_key, CanonicalRules};
pub use color::{ByColor, Color};
pub use dead::{dead_segments, is_dead};
pub use error::{FenError, IllegalPosition, MaterialError, MoveError, PositionError, SettingError};
pub use moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use parse::parse_position;
pub use perft::{divide, perft, perft_parallel};
pub use position::{Outcome, Position};
pub use setup::{named_setup, Setup};
pub use shortcuts::{
    resolve_by_rule, resolve_opponent_rule_ahead, resolve_opponent_runner, resolve_race,
    resolve_rule_ahead, resolve_rule_two_ahead, resolve_runner, stalemated_after_any_move,
    stalemates_at_once,
};
pub use square::{file_char, file_from_char, Square};
pub use unmove::{retro_perft, UnMove};
pub use value::{Value, Wdl};
pub use variant::{Board, BoardError, Rules, Variant};

/// Position text (the FEN-like notation of `docs/RULES.md`) and numbered
/// move text.
pub mod notation {
    pub use super::fen::{parse, write};
    pub use super::numbering::{numbered_moves, numbered_with_comments};
}
