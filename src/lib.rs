//! `peasant` solves pawn-only chess games exactly: Peasants' Chess, the pawn
//! game and Pawn Race, on any board up to 8x8, with or without en passant.
//!
//! The library is a pipeline, one module a stage, in the order of their
//! imports (each stage builds on the stages before it):
//!
//! 1. [`rules`]: boards, position text, [`Position`](rules::Position) with its moves and
//!    un-moves, perft, values, canonical forms, the proven rule shortcuts;
//! 2. [`index`]: material classes and the perfect hash that numbers the
//!    positions of a class, and which positions a table holds;
//! 3. [`table`]: the compressed, checksummed table files and the
//!    [`Tablebase`](table::Tablebase) that probes them;
//! 4. [`generate`]: the generator that values every position of a class
//!    and writes its table;
//! 5. [`solve`]: the alpha-beta and proof-number searches, save files and
//!    the [`Session`](solve::Session) that runs a long solve;
//! 6. [`prove`]: the proof manager, which farms a proof's questions to
//!    workers and keeps their answers in a durable log;
//! 7. [`explore`]: what a person sees: board pictures, PGN, the oracle
//!    that answers from tables, proofs or search, the terminal game and
//!    the Pawn Race protocol;
//! 8. [`serve`]: the HTTP API and the explorer page.
//!
//! The rules are written out in `docs/RULES.md`, the table files in
//! `docs/FORMAT.md`. Values are from the side to move's view.
//!
//! # Counting moves
//!
//! ```
//! use peasant::rules::{parse_position, perft, Board, Rules};
//!
//! let start = parse_position("peasants", Some(Board::STANDARD), Rules::default()).unwrap();
//! // Only the eight pawns of rank 3 can move: the second rank is blocked.
//! assert_eq!(start.legal_moves().len(), 8);
//! assert_eq!(perft(&start, 2), 64);
//! ```
//!
//! # Solving a position
//!
//! ```
//! use peasant::rules::{parse_position, Board, Rules, Wdl};
//! use peasant::solve::{Solver, SolverConfig};
//!
//! let board = Board::new(5, 5).unwrap();
//! let start = parse_position("pawngame", Some(board), Rules::default()).unwrap();
//! let solver = Solver::new(SolverConfig::default(), None).unwrap();
//! // The pawn game on 5x5 is a draw; without en passant white wins.
//! assert_eq!(solver.solve(&start).unwrap().wdl, Wdl::Draw);
//! let no_ep = Rules { en_passant: false, ..Rules::default() };
//! let start = parse_position("pawngame", Some(board), no_ep).unwrap();
//! let solver = Solver::new(SolverConfig::default(), None).unwrap();
//! assert_eq!(solver.solve(&start).unwrap().wdl, Wdl::Win);
//! ```
//!
//! # Generating and probing tables
//!
//! ```
//! use peasant::generate::{generate, GenConfig, Target};
//! use peasant::rules::{parse_position, Board, Rules, Value, Variant};
//! use peasant::table::Tablebase;
//!
//! let dir = std::env::temp_dir().join(format!("peasant-doc-{}", std::process::id()));
//! let variant = Variant::new(Board::new(4, 4).unwrap(), Rules::default());
//! // Every class of the 4x4 board up to 8 pawns (a second or so).
//! generate(&GenConfig::new(variant, &dir), Target::MaxPawns(8), &|_| {}).unwrap();
//! let tables = Tablebase::new(&dir, variant);
//! let start = parse_position("pawngame", Some(variant.board), variant.rules).unwrap();
//! // White must capture, and black promotes on its next move.
//! assert_eq!(tables.probe(&start).unwrap(), Value::Loss(2));
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

#![warn(missing_docs)]

pub mod explore;
#[doc(hidden)]
pub mod fuzzing;
pub mod generate;
pub mod index;
pub mod memory;
pub mod prove;
mod rng;
pub mod rules;
#[cfg(feature = "serve")]
pub mod serve;
pub mod solve;
pub mod table;

// Each public item has one path, in its stage's module; the crate's root
// adds only what belongs to no stage.
pub use rng::SplitMix64;
