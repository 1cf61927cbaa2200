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

pub mod generate;
pub mod index;
pub mod prove;
mod rng;
pub mod rules;
pub mod solve;
pub mod table;

pub use generate::{
    available_memory, generate, peak_memory, plan, ClassReport, GenConfig, GenError, Target,
};
pub use index::{
    binomial, black_domain, in_domain, search_one_ply, value, white_domain, Index, IndexStats,
    Material, TableValues, WhiteKey,
};
pub use rng::SplitMix64;
/// Position text (FEN-like): `peasant::fen::parse`, `peasant::fen::write`.
pub use rules::notation as fen;
pub use rules::{
    canonical, canonical_with, divide, file_char, file_from_char, named_setup, parse_position,
    perft, perft_parallel, position_key, resolve_by_rule, resolve_race, resolve_runner,
    retro_perft, Bitboard, Board, ByColor, CanonicalRules, Color, Error, Move, MoveKind, MoveList,
    Outcome, Position, Rules, Setup, Square, UnMove, Value, Variant, Wdl, MAX_MOVES,
};
pub use solve::{
    decode_proven, encode_proven, load_proven, save_proven, save_proven_union, PnConfig, PnInit,
    PnSolver, Proven, ProvenError, ProvenKind, Question, RootSolution, Solution, SolveError,
    SolveStats, Solver, SolverConfig,
};
pub use table::{
    encode_table, file_name, read_v1_values, split_values, variant_flags, verify_tables,
    wins_at_once, write_table, write_table_with, BlockCache, DenseTable, Header, SectionHeader,
    StoreIndex, Table, TableError, Tablebase, VerifyReport, WriteOptions, DEFAULT_CACHE_BLOCKS,
    FORMAT_VERSION,
};
