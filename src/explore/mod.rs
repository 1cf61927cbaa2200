//! Playing and exploring: what a person sees of the solved games. Board
//! pictures ([`svg`]), PGN text ([`pgn`]), the oracle that answers a
//! position from the tables, proven results or a bounded search and says
//! which ([`oracle`]; proven results come from the proof manager's logs,
//! [`proofs`]), a player with a clock ([`engine`]), the terminal
//! game against perfect play ([`game`]) and the Pawn Race tournament's
//! line protocol ([`pawnrace`]).

pub mod engine;
pub mod game;
pub mod oracle;
pub mod pawnrace;
pub mod pgn;
pub mod proofs;
pub mod svg;

pub use engine::{Choice, Player, PlayerConfig};
pub use oracle::{
    Analysis, Answered, Budget, Knowledge, Line, LineEnd, Oracle, OracleError, Source,
};
pub use proofs::ProofLogs;
