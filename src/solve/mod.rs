//! Stage 5, the solvers: forward searches from a start position that stop
//! wherever the rules, the proven shortcuts or the tables already know the
//! answer. Alpha-beta ([`Solver`]) gives exact values and distances;
//! proof-number search ([`PnSolver`]) answers win/draw/loss. Both keep
//! what they prove exactly in a transposition table, which save files
//! carry from one run to the next.

pub(crate) mod alphabeta;
pub(crate) mod config;
pub(crate) mod crosscheck;
pub(crate) mod heaviest;
pub(crate) mod keyset;
pub(crate) mod leaf;
pub(crate) mod oracle;
pub(crate) mod order;
pub(crate) mod pns;
pub mod profile;
pub(crate) mod savefile;
pub(crate) mod session;
pub(crate) mod ternary;
pub(crate) mod tt;
pub(crate) mod turns;
pub(crate) mod types;

pub use alphabeta::{SharedTt, Solver};
pub use config::{
    Method, PnConfig, PnEpsilon, PnInit, SearchConfig, Shortcuts, SolverConfig, DEFER_PLIES,
};
pub use crosscheck::{
    cross_check, CrossCheckConfig, CrossCheckError, CrossCheckReport, Disagreement,
};
pub use keyset::{KeyHash, KeyHasher, KeySet};
pub use oracle::{Choice, ChoiceMove, Chooser, OracleReport, ProofOracle, StartDeltas};
pub use order::{move_features, move_order, FEATURES, FEATURE_NAMES};
pub use pns::{PnEntry, PnSolver, ProofStep, SharedPnTt};
pub use savefile::{
    decode_proven, encode_proven, load_proven, save_proven, save_proven_union, ProvenError,
    ProvenKind,
};
pub use session::{Event, Finished, Goal, Session, SessionConfig, Solve};
pub use types::{Proven, Question, RootSolution, Solution, SolveError, SolveStats, TableUse};
