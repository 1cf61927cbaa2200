//! Stage 6, the proof manager: proofs bigger than one process and one
//! run. The manager ([`Manager`]) keeps the top of the proof tree as a
//! DAG of canonical positions and farms binary questions about its most
//! promising open leaves ("does the side to move win?", "does it avoid
//! losing?", each with a node budget) to workers ([`Workers`]: local
//! threads, or MPI ranks with the `mpi` feature) that run the alpha-beta
//! solver of stage 5 or its proof-number solver ([`crate::solve::Method`]). A job whose
//! budget runs out is continued with a bigger budget, and its position is
//! expanded one ply once the budget would pass the largest (or at once
//! when workers are idle; see [`Manager`]). Every finished job is appended
//! to a durable, checksummed text log ([`LogWriter`], [`read_dir_log`]) in
//! the proof directory, so
//! a killed run resumes from the log, nothing logged is solved again, and
//! logs of several machines merge. A run ([`run()`]) reports what it does
//! through [`RunEvent`]s; the library prints nothing.
//!
//! It hands on the value of a position (and of every first move) with the
//! log that proves it, which `peasant prove --check` re-checks.

// Each item has one path: the modules that are namespaces of their own
// (`mpi`, `simulate`, `snapshot`) are public and their items are not
// re-exported; the others are private and their items are re-exported
// here.
mod check;
mod emulate;
mod idle;
pub(crate) mod log;
mod manager;
#[cfg(feature = "mpi")]
pub mod mpi;
mod pair;
mod run;
pub mod simulate;
pub mod snapshot;
pub(crate) mod warm;
mod worker;

pub use check::{check, replay, CheckOptions, CheckReport, Problem};
pub use emulate::{EmulatedWorkers, Emulation, TURN};
pub use log::{
    merge, read_dir_log, read_logs, Answer, JobRecord, LineKind, LogContents, LogError, LogWriter,
    MergeReport, RootRecord, LOG_FILE,
};
pub use manager::{value_of, wdl_text, Contradiction, Manager, ManagerConfig, MoveValue};
pub use pair::{ByQuestion, Pair};
pub use run::{run, run_with_events, Progress, RunEnd, RunError, RunEvent, RunOptions};
pub use warm::{
    decode_solved, encode_solved, WarmStore, MAX_ENTRIES as MAX_WARM_ENTRIES, WARM_DIR,
};
pub use worker::{
    run_job, Job, JobEnd, JobResult, JobSolver, SolvedPool, ThreadWorkers, WorkerConfig,
    WorkerError, WorkerTt, Workers,
};
