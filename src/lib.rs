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
mod canonical;
mod color;
mod error;
mod eval;
pub mod fen;
mod gen;
mod index;
mod material;
mod moves;
mod perft;
mod pns;
mod position;
mod proven;
mod rng;
mod search;
mod setup;
mod solver;
mod square;
mod table;
mod unmove;
mod value;
mod variant;

pub use bitboard::Bitboard;
pub use canonical::{canonical, canonical_with, position_key, CanonicalRules};
pub use color::{ByColor, Color};
pub use error::Error;
pub use eval::{
    minimax, resolve_by_rule, resolve_race, resolve_runner, search_one_ply, value, FxHasher,
    MinimaxMemo, TableValues,
};
pub use gen::{
    available_memory, generate, peak_memory, plan, ClassReport, GenConfig, GenError, Target,
};
pub use index::{binomial, black_domain, in_domain, white_domain, Index, IndexStats, WhiteKey};
pub use material::Material;
pub use moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use perft::{divide, perft, perft_parallel};
pub use pns::{PnConfig, PnInit, PnSolver};
pub use position::{Outcome, Position, Setup};
pub use proven::{
    decode_proven, encode_proven, load_proven, save_proven, save_proven_union, ProvenError,
    ProvenKind,
};
pub use rng::SplitMix64;
pub use setup::{named_setup, parse_position};
pub use solver::{Proven, RootSolution, Solution, SolveError, SolveStats, Solver, SolverConfig};
pub use square::{file_char, file_from_char, Square};
pub use table::{
    encode_table, file_name, read_v1_values, split_values, variant_flags, verify_tables,
    wins_at_once, write_table, write_table_with, BlockCache, DenseTable, Header, SectionHeader,
    StoreIndex, Table, TableError, Tablebase, VerifyReport, WriteOptions, DEFAULT_CACHE_BLOCKS,
    FORMAT_VERSION,
};
pub use unmove::{retro_perft, UnMove};
pub use value::{Value, Wdl};
pub use variant::{Board, Rules, Variant};
