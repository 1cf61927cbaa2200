//! Stage 6, the proof manager: proofs bigger than one process and one
//! run. The manager ([`Manager`]) keeps the top of the proof tree as a
//! DAG of canonical positions and farms binary questions about its most
//! promising open leaves ("does the side to move win?", "does it avoid
//! losing?", each with a node budget) to workers ([`Workers`]: local
//! threads, or MPI ranks with the `mpi` feature) that run the alpha-beta
//! solver of stage 5 or its proof-number solver ([`Method`]). A job whose
//! budget runs out is continued with a bigger budget, and its position is
//! expanded one ply once the budget would pass the largest (or at once
//! when workers are idle; see [`manager`]). Every finished job is appended
//! to a durable, checksummed text log ([`log`]) in the proof directory, so
//! a killed run resumes from the log, nothing logged is solved again, and
//! logs of several machines merge. A run ([`run()`]) reports what it does
//! through [`RunEvent`]s; the library prints nothing.
//!
//! It hands on the value of a position (and of every first move) with the
//! log that proves it, which `peasant prove --check` re-checks.

pub mod check;
pub mod emulate;
pub mod log;
pub mod manager;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod pair;
pub mod run;
pub mod simulate;
pub mod snapshot;
pub mod warm;
pub mod worker;

pub use check::{check, replay, CheckOptions, CheckReport, Problem};
pub use emulate::{EmulatedWorkers, Emulation};
pub use log::{
    merge, read_dir_log, read_logs, Answer, JobRecord, LineKind, LogContents, LogError, LogWriter,
    MergeReport, RootRecord, LOG_FILE,
};
pub use manager::{value_of, wdl_text, Contradiction, Manager, ManagerConfig, MoveValue};
pub use pair::{ByQuestion, Pair};
pub use run::{
    progress_line, run, run_with_events, Progress, RunEnd, RunError, RunEvent, RunOptions,
};
pub use warm::{WarmStore, WARM_DIR};
pub use worker::{
    run_job, Job, JobEnd, JobResult, JobSolver, Method, ThreadWorkers, WorkerConfig, WorkerError,
    WorkerTt, Workers,
};
