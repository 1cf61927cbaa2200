//! Stage 7, playing and exploring: what a person sees of the solved
//! games. Board pictures ([`svg`]), PGN text ([`pgn`]), the oracle that
//! answers a position from the tables, proven results or a bounded search
//! and says which ([`Oracle`]; proven results come from the proof
//! manager's logs, [`ProofLogs`]), a player with a clock ([`Player`]),
//! books of proven winning moves ([`book`]), the terminal game against
//! perfect play ([`game`]) and the Pawn Race tournament's line protocol
//! ([`pawnrace`]).

// Each item has one path: the modules that are namespaces of their own
// (`book`, `game`, `pawnrace`, `pgn`, `svg`) are public and their items are not
// re-exported; the others are private and their items are re-exported
// here.
pub mod book;
mod engine;
pub mod game;
pub(crate) mod oracle;
pub mod pawnrace;
pub mod pgn;
pub(crate) mod proofs;
pub mod svg;

pub use engine::{Choice, Player, PlayerConfig};
pub use oracle::{
    Analysis, Answered, Budget, Knowledge, Line, LineEnd, Oracle, OracleError, Source,
};
pub use proofs::ProofLogs;
