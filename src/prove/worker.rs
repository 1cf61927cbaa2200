//! Workers: whatever answers jobs. A [`Workers`] implementation takes a
//! [`Job`] (a canonical position, a question, a node budget), runs it on
//! one of its workers with a [`JobSolver`] (the alpha-beta [`Solver`], or
//! the proof-number [`PnSolver`] with [`Method::ProofNumber`]) and hands
//! back a [`JobResult`], whose [`JobEnd`] says how the job ended.
//! [`ThreadWorkers`] are local threads, each with its own solver (its own
//! node budget and stop flag) and, by default, one transposition table
//! shared by all of them and kept from job to job; with the cargo feature
//! `mpi`, `crate::prove::mpi` makes MPI ranks workers (a transposition
//! table each).

use crate::prove::log::Answer;
use crate::prove::warm::Warm;
use crate::rules::{canonical, position_key, Move, Position, Variant};
use crate::solve::{
    KeySet, Method, PnConfig, PnEntry, PnInit, PnSolver, Question, SharedPnTt, SharedTt, Solve,
    SolveError, SolveStats, Solver, SolverConfig, TableUse,
};
use crate::table::Tablebase;
use std::collections::{HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use thiserror::Error;

/// One unit of work: answer `question` about `pos` within `budget` nodes.
#[derive(Clone, Debug)]
pub struct Job {
    /// The job's number (unique within a log).
    pub id: u64,
    /// The position asked about (canonical).
    pub pos: Position,
    /// The question.
    pub question: Question,
    /// The node budget.
    pub budget: u64,
    /// The top of an earlier search of the same question, loaded into a
    /// proof-number worker's transposition table before it starts (see
    /// [`crate::prove::WarmStore`]).
    pub warm: Option<Warm>,
    /// Solved transposition-table entries of other workers (see
    /// [`SolvedPool`]), loaded before the warm start: what a pool of
    /// workers with tables of their own sends out.
    pub solved: Vec<PnEntry>,
}

/// Why a pool of workers, or one of its jobs, failed: the proof cannot go
/// on.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum WorkerError {
    /// A job's search failed (a damaged table): the solver's message (as
    /// text, for it crosses from an MPI worker rank as text).
    #[error("{0}")]
    Search(String),
    /// A worker's solver could not be made (its transposition table does
    /// not fit).
    #[error("{0}")]
    Setup(String),
    /// A job was started with no idle worker (`worker` or `rank`).
    #[error("no idle {0}")]
    NoIdle(&'static str),
    /// The thread of this local worker has ended.
    #[error("worker thread {0} has ended")]
    ThreadEnded(usize),
    /// Every local worker thread has ended.
    #[error("every worker thread has ended")]
    AllThreadsEnded,
    /// This MPI rank sent a result that does not read as one.
    #[error("rank {0}: a garbled result")]
    GarbledResult(i32),
    /// The manager (MPI rank 0) sent a job that does not read as one.
    #[error("a garbled job")]
    GarbledJob,
}

/// How a job ended.
#[derive(Clone, Debug)]
pub enum JobEnd {
    /// The job answered its question.
    Answered {
        /// The answer.
        answer: bool,
        /// For a `yes`, a move that achieves it (standard notation), if
        /// one was found.
        best: Option<String>,
    },
    /// The node budget ran out: the answer is `open`.
    Open {
        /// For a proof-number worker: the top of its search, for the
        /// question's next job.
        warm: Option<Vec<PnEntry>>,
    },
    /// Stopped by [`Workers::cancel`]: nothing learnt, nothing to log.
    Cancelled,
    /// Stopped because the run ends ([`Workers::interrupt`]): `open`, with
    /// the nodes searched so far, to be logged.
    Interrupted {
        /// As for [`JobEnd::Open`].
        warm: Option<Vec<PnEntry>>,
    },
    /// The solver failed (a damaged table): the proof cannot go on.
    Failed(WorkerError),
}

impl JobEnd {
    /// The answer as the log writes it: `yes`, `no`, else `open`.
    pub fn answer(&self) -> Answer {
        match self {
            JobEnd::Answered { answer, .. } => Answer::of_bool(*answer),
            _ => Answer::Open,
        }
    }

    /// Whether the job left its question open in its worker's table: it
    /// ran out of its budget or was interrupted, so the question's next
    /// job would find that search there.
    pub fn leaves_open(&self) -> bool {
        matches!(self, JobEnd::Open { .. } | JobEnd::Interrupted { .. })
    }

    /// The move that achieves a `yes`, if one was found.
    pub fn best(&self) -> Option<&str> {
        match self {
            JobEnd::Answered { best, .. } => best.as_deref(),
            _ => None,
        }
    }

    /// The warm start an `open` or interrupted proof-number job hands on.
    pub fn warm(&self) -> Option<&[PnEntry]> {
        match self {
            JobEnd::Open { warm } | JobEnd::Interrupted { warm } => warm.as_deref(),
            _ => None,
        }
    }
}

/// What a worker found.
#[derive(Clone, Debug)]
pub struct JobResult {
    /// The number of the job this answers.
    pub id: u64,
    /// How the job ended.
    pub end: JobEnd,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds its worker spent on it: its beginning, its search and its
    /// end, not the waits between the steps of its search (an emulated
    /// worker's other jobs, an MPI rank's exchanges).
    pub seconds: f64,
    /// What the worker's transposition table knew when the job ended about
    /// the positions a few plies below the job's (`harvest`): canonical
    /// position, question, answer. The proof manager settles those pairs
    /// with them instead of asking jobs, so the work of an `open` job is
    /// not lost when its position is expanded.
    pub known: Vec<(Position, Question, bool)>,
    /// With [`WorkerConfig::share_solved`]: the solved entries of a
    /// proof-number worker's transposition table with the most work below
    /// them when the job ended, for workers with tables of their own
    /// (not with a cancelled or failed job).
    pub solved: Vec<PnEntry>,
    /// What its stores did to its worker's transposition table.
    pub table: TableUse,
}

impl JobResult {
    /// The result of job `id` cancelled after `nodes` nodes, having used
    /// its worker's table as `table` says: nothing to hand back.
    pub fn cancelled(id: u64, nodes: u64, table: TableUse) -> JobResult {
        JobResult {
            id,
            end: JobEnd::Cancelled,
            nodes,
            seconds: 0.0,
            known: Vec::new(),
            solved: Vec::new(),
            table,
        }
    }

    /// The answer as the log writes it (see [`JobEnd::answer`]).
    pub fn answer(&self) -> Answer {
        self.end.answer()
    }

    /// The result as one line of text, as an MPI worker rank sends it
    /// (without its warm start): tab-separated id, answer, nodes, seconds,
    /// best move (`-`: none), how it stopped (0 it did not, 1 cancelled, 2
    /// interrupted), the known answers (`-`: none; else `;`-separated
    /// `W1:position`, question `W` wins or `A` avoids-loss, answer `1` yes
    /// or `0` no), the table's use (`stores:replaced:most`, [`TableUse`])
    /// and last the error of a failed job (`-`: none), which may hold
    /// anything, tabs included.
    pub fn to_text(&self) -> String {
        let stopped = match self.end {
            JobEnd::Cancelled => 1,
            JobEnd::Interrupted { .. } => 2,
            _ => 0,
        };
        let known = if self.known.is_empty() {
            "-".to_string()
        } else {
            let item = |(pos, q, b): &(Position, Question, bool)| {
                let q = if *q == Question::Wins { 'W' } else { 'A' };
                format!("{q}{}:{pos}", *b as u8)
            };
            self.known.iter().map(item).collect::<Vec<_>>().join(";")
        };
        let error = match &self.end {
            JobEnd::Failed(e) => e.to_string(),
            _ => "-".to_string(),
        };
        let t = self.table;
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}:{}:{}\t{}",
            self.id,
            self.answer().text(),
            self.nodes,
            self.seconds,
            self.end.best().unwrap_or("-"),
            stopped,
            known,
            t.stores,
            t.replaced,
            t.replaced_max_work,
            error,
        )
    }

    /// The result [`JobResult::to_text`] wrote about a position of
    /// `variant` (with no warm start: an MPI message carries it apart);
    /// `None` for anything else.
    pub fn from_text(bytes: &[u8], variant: Variant) -> Option<JobResult> {
        let text = std::str::from_utf8(bytes).ok()?;
        let f: Vec<&str> = text.splitn(9, '\t').collect();
        if f.len() != 9 {
            return None;
        }
        let table = match f[7]
            .split(':')
            .map(str::parse)
            .collect::<Result<Vec<u64>, _>>()
        {
            Ok(t) if t.len() == 3 => TableUse {
                stores: t[0],
                replaced: t[1],
                replaced_max_work: t[2],
            },
            _ => return None,
        };
        let known = match f[6] {
            "-" => Vec::new(),
            list => list
                .split(';')
                .map(|item| {
                    let (head, pos) = item.split_once(':')?;
                    let q = match &head[..head.len().min(1)] {
                        "W" => Question::Wins,
                        "A" => Question::AvoidsLoss,
                        _ => return None,
                    };
                    let b = match &head[1..] {
                        "1" => true,
                        "0" => false,
                        _ => return None,
                    };
                    let setup = crate::rules::notation::parse(pos).ok()?;
                    Some((Position::from_setup(&setup, variant).ok()?, q, b))
                })
                .collect::<Option<Vec<_>>>()?,
        };
        let answer = Answer::from_text(f[1])?;
        let best = (f[4] != "-").then(|| f[4].to_string());
        // Only the combinations `to_text` writes.
        let end = match (answer.as_bool(), best, f[5], f[8]) {
            (Some(answer), best, "0", "-") => JobEnd::Answered { answer, best },
            (None, None, "0", "-") => JobEnd::Open { warm: None },
            (None, None, "1", "-") => JobEnd::Cancelled,
            (None, None, "2", "-") => JobEnd::Interrupted { warm: None },
            (None, None, "0", error) => JobEnd::Failed(WorkerError::Search(error.to_string())),
            _ => return None,
        };
        Some(JobResult {
            id: f[0].parse().ok()?,
            end,
            nodes: f[2].parse().ok()?,
            seconds: f[3].parse().ok()?,
            known,
            solved: Vec::new(),
            table,
        })
    }

    /// The result with `warm` as the warm start of an `open` or
    /// interrupted job (an MPI message carries it after the text); other
    /// ends take none.
    pub fn with_warm(mut self, warm: Option<Vec<PnEntry>>) -> JobResult {
        if let JobEnd::Open { warm: w } | JobEnd::Interrupted { warm: w } = &mut self.end {
            *w = warm;
        }
        self
    }
}

/// A pool of workers, local or remote. The manager never has more jobs in
/// flight than [`Workers::count`].
pub trait Workers {
    /// How many jobs can run at once.
    fn count(&self) -> usize;
    /// Starts `job` on an idle worker.
    fn start(&mut self, job: Job) -> Result<(), WorkerError>;
    /// Asks the worker running job `id` to stop it (its result comes back
    /// [`JobEnd::Cancelled`], or with its answer if it finished first).
    fn cancel(&mut self, id: u64);
    /// The next finished job, waiting at most `timeout`.
    fn wait(&mut self, timeout: Duration) -> Result<Option<JobResult>, WorkerError>;
    /// Nodes the running jobs have searched so far, if the pool can tell
    /// (local threads can; remote ranks report only when a job ends).
    fn running_nodes(&self) -> Option<u64> {
        None
    }
    /// Takes the solved entries a finished job handed back
    /// ([`JobResult::solved`]) for workers with tables of their own, which
    /// load the ones new to them before their next jobs; a pool whose
    /// workers share one table has nothing to do.
    fn share(&mut self, _solved: &[PnEntry]) {}
    /// Stops every running job because the run ends: each comes back
    /// [`JobEnd::Interrupted`], with what it searched (and its warm
    /// start), to be logged. False if the pool cannot (its jobs in flight
    /// are lost, as before).
    fn interrupt(&mut self) -> bool {
        false
    }
    /// With one proof-number table shared by every worker (whose `open`
    /// jobs hand on no warm start of their own, [`WorkerConfig::shared_tt`]):
    /// its [`WorkerConfig::warm_entries`] heaviest entries, the warm start
    /// of every pair a run that stops leaves to be continued (a warm start
    /// is a table's heaviest entries, whichever job asks). None for other
    /// pools, and without warm starts.
    fn table_warm(&self) -> Option<Vec<PnEntry>> {
        None
    }
    /// On a virtual clock: the moment its steps have reached, in nodes
    /// (the makespan so far, the steps run ahead of the last result
    /// included). None for real workers.
    fn virtual_time(&self) -> Option<u64> {
        None
    }
    /// Whether the pool runs on a virtual clock ([`crate::prove::EmulatedWorkers`]):
    /// the run then does everything it does now and then at every turn of
    /// its loop, not by the wall clock, so that one command gives the same
    /// figures every time.
    fn virtual_clock(&self) -> bool {
        false
    }
}

/// The search one worker runs its jobs with.
pub enum JobSolver<'a> {
    /// Alpha-beta.
    AlphaBeta(Solver<'a>),
    /// Proof-number search.
    ProofNumber(PnSolver<'a>),
}

/// What a worker asks of its search beyond [`Solve`], whichever search it
/// runs.
trait JobSearch: Solve {
    /// See [`JobSolver::node_counter`].
    fn node_counter(&self) -> Arc<AtomicU64>;
    /// See [`JobSolver::known_answer`].
    fn known_answer(&self, pos: &Position, question: Question) -> Option<bool>;
    /// The moves of `pos`, the likeliest witness of a `yes` first.
    fn witness_order(&self, pos: &Position) -> Vec<Move>;
}

impl JobSearch for Solver<'_> {
    fn node_counter(&self) -> Arc<AtomicU64> {
        Solver::node_counter(self)
    }
    fn known_answer(&self, pos: &Position, question: Question) -> Option<bool> {
        Solver::known_answer(self, pos, question)
    }
    /// Alpha-beta's order, with its transposition table's best move first.
    fn witness_order(&self, pos: &Position) -> Vec<Move> {
        self.ordered_moves(pos)
    }
}

impl JobSearch for PnSolver<'_> {
    fn node_counter(&self) -> Arc<AtomicU64> {
        PnSolver::node_counter(self)
    }
    fn known_answer(&self, pos: &Position, question: Question) -> Option<bool> {
        PnSolver::known_answer(self, pos, question)
    }
    /// As generated: its proven children are in its transposition table
    /// either way.
    fn witness_order(&self, pos: &Position) -> Vec<Move> {
        pos.legal_moves().to_vec()
    }
}

/// A transposition table the local workers share, of their method.
#[derive(Clone)]
pub enum WorkerTt {
    /// For alpha-beta workers.
    AlphaBeta(SharedTt),
    /// For proof-number workers.
    ProofNumber(SharedPnTt),
}

impl WorkerTt {
    /// One transposition table of `config.hash_mb` MiB times `workers` for
    /// `config`'s method; [`SolveError::Memory`] if it does not fit.
    pub fn new(config: WorkerConfig, workers: usize) -> Result<WorkerTt, SolveError> {
        let mb = config.hash_mb.saturating_mul(workers.max(1));
        Ok(match config.method {
            Method::AlphaBeta => {
                let mut c = solver_config(config);
                c.search.hash_mb = mb;
                WorkerTt::AlphaBeta(SharedTt::new(&c)?)
            }
            Method::ProofNumber => WorkerTt::ProofNumber(SharedPnTt::for_workers(mb, workers)?),
        })
    }
}

impl<'a> JobSolver<'a> {
    /// A solver of `config.method` with a transposition table of its own of
    /// `config.hash_mb` MiB, or on `shared` (which must be of the same
    /// method); [`SolveError::Memory`] if its transposition table does not
    /// fit.
    pub fn new(
        config: WorkerConfig,
        tables: Option<&'a Tablebase>,
        shared: Option<&WorkerTt>,
    ) -> Result<JobSolver<'a>, SolveError> {
        Ok(match (config.method, shared) {
            (Method::AlphaBeta, Some(WorkerTt::AlphaBeta(t))) => {
                JobSolver::AlphaBeta(Solver::with_tt(solver_config(config), tables, t))
            }
            (Method::AlphaBeta, _) => {
                JobSolver::AlphaBeta(Solver::new(solver_config(config), tables)?)
            }
            (Method::ProofNumber, _) => JobSolver::proof_number(pn_config(config), tables, shared)?,
        })
    }

    /// A proof-number solver of `config`, with a transposition table of
    /// its own or on `shared`.
    fn proof_number(
        config: PnConfig,
        tables: Option<&'a Tablebase>,
        shared: Option<&WorkerTt>,
    ) -> Result<JobSolver<'a>, SolveError> {
        Ok(JobSolver::ProofNumber(match shared {
            Some(WorkerTt::ProofNumber(t)) => PnSolver::with_tt(config, tables, t),
            _ => PnSolver::new(config, tables)?,
        }))
    }

    /// A proof-number solver of `config` whose `config.threads` threads
    /// take turns of `turn` nodes on each question
    /// ([`crate::solve::PnConfig::turns`]): an emulated worker of several
    /// threads, whose job's steps (`JobRun::step`) are their number
    /// times a step's nodes, and take their makespan.
    pub fn in_turns(
        config: WorkerConfig,
        shared: Option<&WorkerTt>,
        turn: u64,
    ) -> Result<JobSolver<'a>, SolveError> {
        let config = PnConfig {
            turns: Some(turn),
            ..pn_config(config)
        };
        JobSolver::proof_number(config, None, shared)
    }

    /// The search, whichever it is.
    fn search(&self) -> &dyn JobSearch {
        match self {
            JobSolver::AlphaBeta(s) => s,
            JobSolver::ProofNumber(s) => s,
        }
    }

    /// The answer to `question` about `pos` within `budget` nodes
    /// ([`SolveError::Stopped`] when it runs out or the stop flag is set).
    pub fn answer(
        &self,
        pos: &Position,
        question: Question,
        budget: Option<u64>,
    ) -> Result<bool, SolveError> {
        self.search().answer(pos, question, budget)
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.search().stats().nodes
    }

    /// The solver's counters so far.
    pub fn stats(&self) -> SolveStats {
        self.search().stats()
    }

    /// The count of nodes searched (see [`Solver::node_counter`]).
    pub fn node_counter(&self) -> Arc<AtomicU64> {
        self.search().node_counter()
    }

    /// The flag that stops the current job (see [`Solver::stop_flag`]).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.search().stop_flag()
    }

    /// The answer to `question` about `pos` if the solver knows it without
    /// searching (see [`Solver::known_answer`]).
    pub fn known_answer(&self, pos: &Position, question: Question) -> Option<bool> {
        self.search().known_answer(pos, question)
    }
}

/// Runs one job on `solver` (whose stop flag is `stop`: set by a cancel,
/// or, with `interrupted` set as well, because the run ends; the caller
/// clears it before the job). A proof-number job first loads its warm
/// start, and one that comes back `open` or interrupted hands back its
/// `warm_entries` heaviest transposition-table entries (none if 0). A job
/// that was neither cancelled nor failed hands back what the solver knows
/// [`WorkerConfig::harvest_plies`] plies below its position (`harvest`).
pub fn run_job(
    solver: &JobSolver,
    stop: &AtomicBool,
    interrupted: &AtomicBool,
    job: &Job,
    config: &WorkerConfig,
) -> JobResult {
    run_job_exchanging(solver, stop, interrupted, job, config, &mut |_, _| {})
}

/// [`run_job`], which with [`WorkerConfig::share_every`] stops the search
/// every that many nodes to call `exchange` with `true` (which sends out
/// what the search solved since, [`PnSolver::take_recent_solved`], and
/// loads what the other workers sent; with paths, sends its path and
/// steers by the others') and goes on; with
/// [`WorkerConfig::share_paths_every`] also in between, with `false` (its
/// path alone).
pub fn run_job_exchanging(
    solver: &JobSolver,
    stop: &AtomicBool,
    interrupted: &AtomicBool,
    job: &Job,
    config: &WorkerConfig,
    exchange: &mut dyn FnMut(&PnSolver, bool),
) -> JobResult {
    let mut run = JobRun::begin(solver, job, config);
    // The job's nodes at its last exchange of solved entries.
    let mut exchanged = 0;
    loop {
        if let Some(end) = run.step(solver, stop, interrupted, config.slice()) {
            return run.end(solver, end, config);
        }
        if let JobSolver::ProofNumber(s) = solver {
            let entries = config.entries_due(run.nodes() - exchanged);
            if entries {
                exchanged = run.nodes();
            }
            exchange(s, entries);
        }
    }
}

/// A job under way on a worker's solver, searched in steps
/// ([`JobRun::step`]): what an emulated worker runs one step at a time on
/// its virtual clock, and [`run_job_exchanging`] with exchanges between
/// the steps. The search starts again from the job's position at each
/// step; what it proved is in the table, so it goes back down at the cost
/// of a path.
pub struct JobRun {
    job: Job,
    /// Time its worker spent on it so far: its beginning and its steps,
    /// not the waits between them (an emulated worker's other jobs, a
    /// rank's exchanges).
    busy: Duration,
    /// The solver's node count when the job began.
    n0: u64,
    /// Its solver's table counts when the job began.
    t0: TableUse,
    /// Nodes the steps searched so far.
    done: u64,
    /// The time its steps took, in nodes: [`JobRun::done`] for a search on
    /// one thread, the makespan of threads taking turns.
    elapsed: u64,
}

impl JobRun {
    /// Begins `job` on `solver`: a proof-number solver loads the solved
    /// entries sent with the job and its warm start, and with
    /// [`WorkerConfig::share_every`] keeps what the job's search solves
    /// for the exchanges ([`PnSolver::take_recent_solved`]).
    pub fn begin(solver: &JobSolver, job: &Job, config: &WorkerConfig) -> JobRun {
        let start = Instant::now();
        if let JobSolver::ProofNumber(s) = solver {
            s.record_solved(config.slice() < u64::MAX);
            s.track_path(config.share_paths && config.slice() < u64::MAX);
            s.steer_clear_of(None);
            // What the last job solved after its last exchange joins the
            // heaviest without being sent: its end sent the table's.
            s.take_recent_solved(config.share_solved);
            s.load_entries(&job.solved);
            if let Some(warm) = &job.warm {
                s.load_entries(warm);
            }
        }
        JobRun {
            // Without the entries just loaded: a running job need not
            // hold a copy of them (up to the pool's window each).
            job: Job {
                id: job.id,
                pos: job.pos,
                question: job.question,
                budget: job.budget,
                warm: None,
                solved: Vec::new(),
            },
            busy: start.elapsed(),
            n0: solver.nodes(),
            t0: solver.stats().table,
            done: 0,
            elapsed: 0,
        }
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.done
    }

    /// The time the steps took so far, in nodes: on one thread its nodes;
    /// for threads taking turns ([`JobSolver::in_turns`]) their makespan,
    /// as the threads of a real worker search side by side.
    pub fn elapsed(&self) -> u64 {
        self.elapsed
    }

    /// Searches at most `nodes` more nodes (and no more than the job's
    /// budget in all): how the job ended, or `None` if this step ran out
    /// with budget left.
    pub fn step(
        &mut self,
        solver: &JobSolver,
        stop: &AtomicBool,
        interrupted: &AtomicBool,
        nodes: u64,
    ) -> Option<JobEnd> {
        let start = Instant::now();
        let end = self.search_step(solver, stop, interrupted, nodes);
        self.busy += start.elapsed();
        end
    }

    /// [`JobRun::step`]'s search.
    fn search_step(
        &mut self,
        solver: &JobSolver,
        stop: &AtomicBool,
        interrupted: &AtomicBool,
        nodes: u64,
    ) -> Option<JobEnd> {
        let (pos, question, budget) = (self.job.pos, self.job.question, self.job.budget);
        // Threads in turns (`JobSolver::in_turns`, an emulated worker of
        // several) search their number times the step's nodes of their
        // time together, and the step takes their makespan: within it they
        // go on where they were, turn after turn, as real threads do; the
        // next step starts them again from the job's position.
        let turns = match solver {
            JobSolver::ProofNumber(s) => s.makespan().map(|span| (s, span)),
            JobSolver::AlphaBeta(_) => None,
        };
        let threads = turns.map_or(1, |(s, _)| s.config().search.threads as u64);
        let nodes = nodes.saturating_mul(threads);
        let left = budget.saturating_sub(self.done);
        let spent = left <= nodes;
        let before = solver.nodes();
        let r = solver.answer(&pos, question, Some(left.min(nodes)));
        // The search for the move that proves a yes is the job's work too
        // (an emulated worker's clock counts it).
        let best = match r {
            Ok(true) => witness(solver, &pos, question, budget),
            _ => None,
        };
        let searched = solver.nodes() - before;
        self.done += searched;
        self.elapsed += match turns {
            Some((s, span)) => s.makespan().map_or(searched, |now| now - span),
            None => searched,
        };
        Some(match r {
            Ok(answer) => JobEnd::Answered { answer, best },
            Err(SolveError::Stopped) if stop.load(Ordering::SeqCst) => {
                if interrupted.load(Ordering::SeqCst) {
                    JobEnd::Interrupted { warm: None }
                } else {
                    JobEnd::Cancelled
                }
            }
            Err(SolveError::Stopped) if self.done < budget && !spent => return None,
            Err(SolveError::Stopped) => JobEnd::Open { warm: None },
            Err(e) => JobEnd::Failed(WorkerError::Search(e.to_string())),
        })
    }

    /// What the job's stores did to `solver`'s table so far (the largest
    /// entry given up is the worker's so far).
    pub fn table_use(&self, solver: &JobSolver) -> TableUse {
        solver.stats().table.since(self.t0)
    }

    /// The job's result, once [`JobRun::step`] has said how it ended.
    pub fn end(self, solver: &JobSolver, end: JobEnd, config: &WorkerConfig) -> JobResult {
        let start = Instant::now();
        let job = &self.job;
        let nodes = solver.nodes() - self.n0;
        let table = self.table_use(solver);
        // The warm start is taken after the nodes are counted, as the
        // harvest is: neither searches. Workers sharing one table take
        // none for an `open` job: the pair's next job, on whichever worker,
        // finds the whole search in the table, and reading a table of many
        // GiB for it held each such job's worker up for a second or more
        // (16 workers on 8 GiB, Peasants' Chess 5x8: 17.8 s with it, 14.8
        // s without). A stop still takes one, for the run that resumes on
        // a cold table.
        let wants_warm = config.warm_entries > 0
            && match end {
                JobEnd::Open { .. } => !config.shared_tt,
                JobEnd::Interrupted { .. } => true,
                _ => false,
            };
        let ended = !matches!(end, JobEnd::Cancelled | JobEnd::Failed(_));
        // The warm start and the heaviest solved entries in the same two
        // reads of the table; on a rank's table of several workers, one
        // read for the jobs that end before each of them has exchanged
        // again (`share_every`): they would all read nearly the same.
        let (warm, solved) = match solver {
            JobSolver::ProofNumber(s) if wants_warm || ended => {
                let (warm, solved) = s.heaviest_for_jobs(
                    if wants_warm { config.warm_entries } else { 0 },
                    if ended { config.share_solved } else { 0 },
                    config.warm_entries,
                    config.read_apart(),
                );
                (wants_warm.then_some(warm), solved)
            }
            _ => (None, Vec::new()),
        };
        let end = match end {
            JobEnd::Open { .. } => JobEnd::Open { warm },
            JobEnd::Interrupted { .. } => JobEnd::Interrupted { warm },
            end => end,
        };
        let known = if ended {
            harvest(solver, &job.pos, job.question, config.harvest_plies)
        } else {
            Vec::new()
        };
        JobResult {
            id: job.id,
            end,
            nodes,
            seconds: (self.busy + start.elapsed()).as_secs_f64(),
            known,
            solved,
            table,
        }
    }
}

/// What `solver` knows without searching ([`JobSolver::known_answer`])
/// about the positions 1 to `plies` plies below `pos` (both questions) and
/// about `pos` itself (the question other than `asked`): each position in
/// its canonical form, once. Positions over by the rules of play are left
/// out (the manager knows them). After a job on `pos`, these are the
/// children and grandchildren it proved on its way.
pub fn harvest(
    solver: &JobSolver,
    pos: &Position,
    asked: Question,
    plies: usize,
) -> Vec<(Position, Question, bool)> {
    let mut out = Vec::new();
    if plies == 0 {
        return out;
    }
    let other = asked.other();
    let root = canonical(pos);
    if let Some(b) = solver.known_answer(&root, other) {
        out.push((root, other, b));
    }
    let mut seen = HashSet::from([position_key(&root)]);
    let mut level = vec![root];
    for _ in 0..plies {
        let mut next = Vec::new();
        for p in &level {
            for &m in p.legal_moves().iter() {
                let c = canonical(&p.play(m));
                if c.is_game_over() || !seen.insert(position_key(&c)) {
                    continue;
                }
                for q in [Question::Wins, Question::AvoidsLoss] {
                    if let Some(b) = solver.known_answer(&c, q) {
                        out.push((c, q, b));
                    }
                }
                next.push(c);
            }
        }
        level = next;
    }
    out
}

/// A move of `pos` that achieves a `yes` to `question`: first a child whose
/// opposite answer the solver knows without searching (a proof-number
/// search's proof is in its transposition table, and so is the bound of
/// alpha-beta's best move), then by asking each child the opposite question
/// with an eighth of the budget, the search's best move first; `None` if
/// that runs out. A job answered at once from a big transposition table
/// would otherwise spend a whole eighth of its budget on a child the proof
/// did not use (the 6x8 proof's jobs: 50 M nodes each, and no move found).
fn witness(solver: &JobSolver, pos: &Position, question: Question, budget: u64) -> Option<String> {
    let opposite = question.other();
    let moves = solver.search().witness_order(pos);
    // Games over by rule and stalemates are known to the rules too.
    let known: Vec<Option<bool>> = moves
        .iter()
        .map(|&m| solver.known_answer(&pos.play(m), opposite))
        .collect();
    if let Some(i) = known.iter().position(|&k| k == Some(false)) {
        return Some(moves[i].san());
    }
    let per_child = (budget / 8).max(1000);
    // Children known to give the opponent its answer are no witnesses.
    for (&m, _) in moves.iter().zip(&known).filter(|(_, k)| k.is_none()) {
        match solver.answer(&pos.play(m), opposite, Some(per_child)) {
            Ok(false) => return Some(m.san()),
            Ok(true) => {}
            Err(_) => return None,
        }
    }
    None
}

/// Settings every worker's solver gets.
#[derive(Clone, Copy, Debug)]
pub struct WorkerConfig {
    /// Transposition table of each worker, MiB.
    pub hash_mb: usize,
    /// [`ThreadWorkers`]: one transposition table of `hash_mb` times the
    /// number of workers, shared by all of them (what one job proved serves
    /// every later job on any worker), instead of one transposition table
    /// each. Workers with tables of their own (emulated ones, MPI ranks)
    /// run with it false; with it true a job that comes back `open` hands
    /// on no warm start (the shared table holds its search).
    pub shared_tt: bool,
    /// The search the workers run.
    pub method: Method,
    /// How many transposition-table entries a proof-number job that comes
    /// back `open` hands on to its question's next job (0: none).
    pub warm_entries: usize,
    /// How many plies below a job's position its worker reports what its
    /// transposition table proved (`harvest`; 0: nothing).
    pub harvest_plies: usize,
    /// How many solved transposition-table entries (the heaviest) a
    /// proof-number job hands back for workers with tables of their own
    /// ([`JobResult::solved`]; 0: none).
    pub share_solved: usize,
    /// With [`WorkerConfig::share_solved`]: every how many nodes of a job
    /// its worker sends out its heaviest solved entries and loads those
    /// the others sent meanwhile, instead of only between jobs (0: only
    /// between jobs).
    pub share_every: u64,
    /// Threads each worker puts on its job's question, sharing its
    /// transposition table (proof-number jobs; alpha-beta jobs run on one).
    pub threads: usize,
    /// Proof-number workers of one thread read the transposition table
    /// under each bucket's lock ([`PnConfig::lock_free_reads`] off; to
    /// measure).
    pub locked_reads: bool,
    /// Threads on one question steer away from one another at every node
    /// ([`PnConfig::spread_every`]; to measure).
    pub spread_every: bool,
    /// Proof-number workers sharing one table search as one team
    /// ([`PnConfig::spread_jobs`]; `prove` turns it on from eight
    /// workers).
    pub spread_jobs: bool,
    /// With [`WorkerConfig::share_every`]: at each exchange a job also
    /// sends the path its search is in, and steers clear of the paths of
    /// the jobs of the ranks before its own (`PathBoard`,
    /// [`PnSolver::steer_clear_of`]; `prove` turns it on unless
    /// `--no-share-paths`).
    pub share_paths: bool,
    /// With [`WorkerConfig::share_paths`]: every how many nodes of a job
    /// it sends its path alone and steers by the others' anew, between
    /// its exchanges of solved entries, when that is more often than
    /// [`WorkerConfig::share_every`] (0: with those exchanges only). A
    /// path is a few dozen keys where an exchange of entries may carry
    /// hundreds of thousands.
    pub share_paths_every: u64,
    /// How a proof-number job's children start, the order in which each
    /// side tries its moves ([`PnConfig::init`]; `prove --pn-init`).
    pub pn_init: PnInit,
}

impl WorkerConfig {
    /// The most nodes a job searches before its worker exchanges solved
    /// entries or a path ([`WorkerConfig::share_every`],
    /// [`WorkerConfig::share_paths_every`]; unbounded without, and for
    /// alpha-beta jobs, which have none).
    pub fn slice(&self) -> u64 {
        if self.method == Method::ProofNumber && self.share_solved > 0 && self.share_every > 0 {
            self.paths_apart().unwrap_or(self.share_every)
        } else {
            u64::MAX
        }
    }

    /// The nodes between a job's exchanges of its path alone, if they
    /// come more often than its exchanges of solved entries.
    fn paths_apart(&self) -> Option<u64> {
        let every = self.share_paths_every;
        (self.share_paths && every > 0 && every < self.share_every).then_some(every)
    }

    /// How many nodes each worker on a rank's table of several searches
    /// before a job's end reads the table anew rather than take the last
    /// read of it ([`crate::solve::PnSolver::heaviest_for_jobs`]): its
    /// exchanges' [`WorkerConfig::share_every`]; 0 (every end reads)
    /// without exchanges during jobs or without solved entries to share.
    pub fn read_apart(&self) -> u64 {
        if self.method == Method::ProofNumber && self.share_solved > 0 {
            self.share_every
        } else {
            0
        }
    }

    /// Whether the exchange a job makes after searching `since` nodes
    /// since its last exchange of solved entries carries entries too (else
    /// its path alone, [`WorkerConfig::share_paths_every`]).
    pub fn entries_due(&self, since: u64) -> bool {
        self.paths_apart().is_none() || since >= self.share_every
    }
}

/// The solver configuration of a worker.
pub fn solver_config(config: WorkerConfig) -> SolverConfig {
    SolverConfig {
        search: crate::solve::SearchConfig {
            hash_mb: config.hash_mb,
            threads: config.threads,
            ..SolverConfig::default().search
        },
        ..SolverConfig::default()
    }
}

/// The proof-number configuration of a worker.
pub fn pn_config(config: WorkerConfig) -> PnConfig {
    PnConfig {
        search: crate::solve::SearchConfig {
            hash_mb: config.hash_mb,
            threads: config.threads,
            ..PnConfig::default().search
        },
        lock_free_reads: !config.locked_reads,
        spread_every: config.spread_every,
        spread_jobs: config.spread_jobs,
        init: config.pn_init,
        ..PnConfig::default()
    }
}

/// Where the searches of workers with tables of their own were at their
/// last exchange ([`WorkerConfig::share_paths`]): each running job's path
/// (the keys of the nodes its search was in, [`PnSolver::stopped_path`])
/// with its rank. Two ranks whose searches meet in the same positions
/// prove them side by side, each learning of the other's proofs only at
/// the next exchange, when it has proven them too: sixteen emulated ranks
/// of one did 3.9 times one solve's work on Peasants' Chess 6x7 where one
/// table's workers did 1.4 (docs/SCALING.md). So a job steers clear of
/// the paths of the ranks before its own, and the first rank in a line
/// keeps it: were each to steer clear of every other, two ranks in the
/// same line would both leave it, for the same next child.
#[derive(Default)]
pub struct PathBoard {
    /// Each running job's rank and path, by its key (a job id, or a worker).
    paths: std::collections::HashMap<u64, (usize, Vec<u128>)>,
}

impl PathBoard {
    /// An empty board.
    pub fn new() -> PathBoard {
        PathBoard::default()
    }

    /// `path` as where job (or worker) `id` of `rank` is now; an empty
    /// path (a search that ended) removes it.
    pub fn post(&mut self, id: u64, rank: usize, path: Vec<u128>) {
        if path.is_empty() {
            self.paths.remove(&id);
        } else {
            self.paths.insert(id, (rank, path));
        }
    }

    /// Forgets job (or worker) `id`: its search ended.
    pub fn remove(&mut self, id: u64) {
        self.paths.remove(&id);
    }

    /// The keys on the paths of the ranks before `rank`, for
    /// [`PnSolver::steer_clear_of`]; none if there are none.
    pub fn ahead_of(&self, rank: usize) -> Option<Arc<KeySet>> {
        let keys: KeySet = self
            .paths
            .values()
            .filter(|(r, _)| *r < rank)
            .flat_map(|(_, p)| p.iter().copied())
            .collect();
        (!keys.is_empty()).then(|| Arc::new(keys))
    }
}

/// The solved transposition-table entries that jobs handed back
/// ([`JobResult::solved`]), each key once, in the order they came, and
/// how many of them each worker has been sent: what a pool of workers
/// with tables of their own sends out, each worker loading the entries
/// added since it last loaded.
///
/// The pool is a window: past its cap it forgets its oldest entries,
/// which every worker that keeps loading has had by then, so a long
/// proof goes on sharing what it solves lately (a pool that stopped
/// growing at its cap would send nothing new for the rest of the run).
/// A worker that has not loaded for longer than the window misses what
/// fell out of it.
pub struct SolvedPool {
    entries: VecDeque<PnEntry>,
    /// The number of entries the pool has forgotten: `entries[0]` is the
    /// pool's entry number `forgotten`.
    forgotten: usize,
    keys: KeySet,
    cap: usize,
    /// By worker: how many of the pool's entries, forgotten ones
    /// included, it has been sent or has missed.
    sent: Vec<usize>,
    /// Entries forgotten before a worker was sent them, counted once
    /// for each worker that missed them.
    missed: u64,
}

impl SolvedPool {
    /// The most entries a pool keeps (about 200 MB with their keys' set):
    /// past it the oldest are forgotten.
    pub const MAX: usize = 1 << 22;

    /// An empty pool for `workers` workers (numbered from 0).
    pub fn new(workers: usize) -> SolvedPool {
        SolvedPool::with_cap(workers, SolvedPool::MAX)
    }

    /// [`SolvedPool::new`], keeping at most `cap` entries.
    pub fn with_cap(workers: usize, cap: usize) -> SolvedPool {
        SolvedPool {
            entries: VecDeque::new(),
            forgotten: 0,
            keys: HashSet::default(),
            cap: cap.max(1),
            sent: vec![0; workers],
            missed: 0,
        }
    }

    /// Adds the entries whose keys the pool does not hold, forgetting
    /// its oldest past its cap ([`SolvedPool::MAX`] by default).
    pub fn add(&mut self, solved: &[PnEntry]) {
        for e in solved {
            if !self.keys.insert(e.key) {
                continue;
            }
            if self.entries.len() == self.cap {
                let old = self.entries.pop_front().expect("a full pool");
                self.keys.remove(&old.key);
                self.forgotten += 1;
            }
            self.entries.push_back(*e);
        }
    }

    /// A running job's exchange for worker `w`: adds what it solved
    /// (`mine`) and hands back what the worker has not had yet.
    pub fn exchange(&mut self, w: usize, mine: &[PnEntry]) -> Vec<PnEntry> {
        self.add(mine);
        self.take_for(w)
    }

    /// The entries worker `w` has not been sent yet and the pool still
    /// holds, now counted as sent.
    pub fn take_for(&mut self, w: usize) -> Vec<PnEntry> {
        let from = self.take_from(w);
        self.entries.range(from..).copied().collect()
    }

    /// [`SolvedPool::take_for`] without the copy: where in the pool the
    /// entries worker `w` has not been sent yet begin, now counted as
    /// sent; [`SolvedPool::since`] reads them until the pool next changes.
    pub fn take_from(&mut self, w: usize) -> usize {
        self.missed += self.forgotten.saturating_sub(self.sent[w]) as u64;
        let from = self.sent[w].max(self.forgotten) - self.forgotten;
        self.sent[w] = self.forgotten + self.entries.len();
        from
    }

    /// The pool's entries from `from` ([`SolvedPool::take_from`]) on, in
    /// the order they came, as two runs.
    pub fn since(&self, from: usize) -> [&[PnEntry]; 2] {
        let (a, b) = self.entries.as_slices();
        if from < a.len() {
            [&a[from..], b]
        } else {
            [&[], &b[(from - a.len()).min(b.len())..]]
        }
    }

    /// How many entries workers missed because the pool forgot them
    /// before they loaded (an entry once for each worker that missed
    /// it): nonzero when the window is short for the workers' pace.
    pub fn missed(&self) -> u64 {
        self.missed
    }
}

/// Local threads, each with its own [`JobSolver`].
pub struct ThreadWorkers {
    jobs: Vec<Sender<Option<Job>>>,
    stops: Vec<Arc<AtomicBool>>,
    /// Each worker's solver's node count, and its value when the worker's
    /// current job started.
    counters: Vec<(Arc<AtomicU64>, u64)>,
    results: Receiver<(usize, JobResult)>,
    quit: Arc<AtomicBool>,
    /// Set with the stop flags when the run ends: the jobs come back
    /// interrupted, not cancelled.
    interrupting: Arc<AtomicBool>,
    idle: Vec<usize>,
    running: Vec<Option<u64>>,
    handles: Vec<JoinHandle<()>>,
    /// The transposition table the workers share, if they share one.
    shared: Option<WorkerTt>,
    /// With tables of their own and [`WorkerConfig::share_solved`]: what
    /// the finished jobs solved, and with [`WorkerConfig::share_every`]
    /// what the running ones sent out (empty with a shared table, whose
    /// workers hand back nothing).
    solved: Arc<Mutex<SolvedPool>>,
    /// [`WorkerConfig::warm_entries`].
    warm_entries: usize,
}

impl ThreadWorkers {
    /// Starts `n` worker threads (at least one), with one shared or `n`
    /// own transposition tables ([`WorkerConfig::shared_tt`]);
    /// [`SolveError::Memory`] if they do not fit.
    pub fn new(
        n: usize,
        config: WorkerConfig,
        tables: Option<Arc<Tablebase>>,
    ) -> Result<ThreadWorkers, SolveError> {
        let n = n.max(1);
        // Workers sharing one table have nothing to send one another.
        let config = WorkerConfig {
            share_solved: if config.shared_tt {
                0
            } else {
                config.share_solved
            },
            ..config
        };
        let shared = if config.shared_tt {
            Some(WorkerTt::new(config, n)?)
        } else {
            None
        };
        let (result_tx, results) = channel();
        let (flag_tx, flag_rx) = channel();
        let quit = Arc::new(AtomicBool::new(false));
        let interrupting = Arc::new(AtomicBool::new(false));
        let mut jobs = Vec::new();
        let mut handles = Vec::new();
        let solved = Arc::new(Mutex::new(SolvedPool::new(n)));
        let paths = Arc::new(Mutex::new(PathBoard::new()));
        for w in 0..n {
            let (tx, rx) = channel::<Option<Job>>();
            jobs.push(tx);
            let result_tx = result_tx.clone();
            let flag_tx = flag_tx.clone();
            let tables = tables.clone();
            let quit = Arc::clone(&quit);
            let interrupting = Arc::clone(&interrupting);
            let shared = shared.clone();
            let pool = Arc::clone(&solved);
            let paths = Arc::clone(&paths);
            handles.push(std::thread::spawn(move || {
                let made = JobSolver::new(config, tables.as_deref(), shared.as_ref());
                let solver = match made {
                    Ok(solver) => solver,
                    Err(e) => {
                        let _ = flag_tx.send((w, Err(e)));
                        return;
                    }
                };
                let stop = solver.stop_flag();
                let _ = flag_tx.send((w, Ok((Arc::clone(&stop), solver.node_counter()))));
                while let Ok(Some(job)) = rx.recv() {
                    // Cleared before `quit` is read: a shutdown after this
                    // point sets the flag again and stops the job.
                    stop.store(false, Ordering::SeqCst);
                    if quit.load(Ordering::SeqCst) {
                        break;
                    }
                    // Between the steps of a job (--share-every): what it
                    // solved so far goes out, what the others sent comes in.
                    // Unless --no-share-paths, where its search is goes out too,
                    // and it steers clear of the workers' before it.
                    let mut exchange = |s: &PnSolver, entries: bool| {
                        if entries {
                            let mine = s.take_recent_solved(config.share_solved);
                            let new = pool.lock().expect("the solved pool").exchange(w, &mine);
                            s.load_entries(&new);
                        }
                        if config.share_paths {
                            let mut board = paths.lock().expect("the path board");
                            board.post(w as u64, w, s.stopped_path());
                            s.steer_clear_of(board.ahead_of(w));
                        }
                    };
                    let r = run_job_exchanging(
                        &solver,
                        &stop,
                        &interrupting,
                        &job,
                        &config,
                        &mut exchange,
                    );
                    paths.lock().expect("the path board").remove(w as u64);
                    if result_tx.send((w, r)).is_err() {
                        break;
                    }
                }
            }));
        }
        let mut flags: Vec<Option<(Arc<AtomicBool>, Arc<AtomicU64>)>> = vec![None; n];
        let mut failed = None;
        for _ in 0..n {
            let (w, flag) = flag_rx.recv().expect("a worker thread started");
            match flag {
                Ok(flag) => flags[w] = Some(flag),
                Err(e) => failed = Some(e),
            }
        }
        if let Some(e) = failed {
            // The threads that started wait for jobs: ending their queues
            // ends them.
            drop(jobs);
            for h in handles {
                let _ = h.join();
            }
            return Err(e);
        }
        let (stops, counters) = flags
            .into_iter()
            .map(|f| {
                let (stop, nodes) = f.expect("every flag");
                (stop, (nodes, 0))
            })
            .unzip();
        Ok(ThreadWorkers {
            jobs,
            stops,
            counters,
            results,
            quit,
            interrupting,
            idle: (0..n).rev().collect(),
            running: vec![None; n],
            handles,
            shared,
            solved,
            warm_entries: config.warm_entries,
        })
    }

    /// The transposition table the workers share
    /// ([`WorkerConfig::shared_tt`]), if they share one: a snapshot of
    /// it ([`crate::prove::snapshot`]) carries a run's work to the next.
    pub fn shared_tt(&self) -> Option<&WorkerTt> {
        self.shared.as_ref()
    }
}

impl Workers for ThreadWorkers {
    fn count(&self) -> usize {
        self.jobs.len()
    }

    fn start(&mut self, job: Job) -> Result<(), WorkerError> {
        let w = self.idle.pop().ok_or(WorkerError::NoIdle("worker"))?;
        self.running[w] = Some(job.id);
        let job = Job {
            solved: self.solved.lock().expect("the solved pool").take_for(w),
            ..job
        };
        // The worker is idle: its count stands still until the job starts.
        let (nodes, base) = &mut self.counters[w];
        *base = nodes.load(Ordering::Relaxed);
        self.jobs[w]
            .send(Some(job))
            .map_err(|_| WorkerError::ThreadEnded(w))
    }

    fn cancel(&mut self, id: u64) {
        if let Some(w) = self.running.iter().position(|&r| r == Some(id)) {
            self.stops[w].store(true, Ordering::Relaxed);
        }
    }

    fn wait(&mut self, timeout: Duration) -> Result<Option<JobResult>, WorkerError> {
        match self.results.recv_timeout(timeout) {
            Ok((w, r)) => {
                self.running[w] = None;
                self.idle.push(w);
                Ok(Some(r))
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(WorkerError::AllThreadsEnded),
        }
    }

    fn share(&mut self, solved: &[PnEntry]) {
        self.solved.lock().expect("the solved pool").add(solved);
    }

    fn interrupt(&mut self) -> bool {
        self.interrupting.store(true, Ordering::SeqCst);
        for (w, job) in self.running.iter().enumerate() {
            if job.is_some() {
                self.stops[w].store(true, Ordering::SeqCst);
            }
        }
        true
    }

    fn table_warm(&self) -> Option<Vec<PnEntry>> {
        match &self.shared {
            Some(WorkerTt::ProofNumber(t)) if self.warm_entries > 0 => {
                Some(t.heaviest(self.warm_entries))
            }
            _ => None,
        }
    }

    fn running_nodes(&self) -> Option<u64> {
        let running = self.running.iter().zip(&self.counters);
        Some(
            running
                .filter(|(job, _)| job.is_some())
                .map(|(_, (nodes, base))| nodes.load(Ordering::Relaxed).saturating_sub(*base))
                .sum(),
        )
    }
}

impl Drop for ThreadWorkers {
    fn drop(&mut self) {
        self.quit.store(true, Ordering::SeqCst);
        for s in &self.stops {
            s.store(true, Ordering::SeqCst);
        }
        for tx in &self.jobs {
            let _ = tx.send(None);
        }
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

/// What a pool of two proof-number workers with tables of their own
/// (made by `make` from a configuration) does with solved entries sent
/// out: each worker answers whether white wins one of two positions of
/// the pawn game 6x6 two plies in (from the first moves and from the
/// last); then the worker that came back last is asked what the other one
/// answered. With `--share-solved` it answers without search; without,
/// it searches. `last_idle` names the worker the pool's next job goes to.
#[cfg(test)]
pub(crate) fn check_solved_entries_sent_out<W: Workers>(
    make: impl Fn(WorkerConfig) -> W,
    last_idle: impl Fn(&W) -> Option<usize>,
) {
    use crate::rules::{parse_position, Board, Rules};
    let start = parse_position(
        "pawngame",
        Some(Board::new(6, 6).unwrap()),
        Rules::default(),
    )
    .unwrap();
    let ply = |p: &Position, last: bool| {
        let moves = p.legal_moves();
        let m = if last {
            moves[moves.len() - 1]
        } else {
            moves[0]
        };
        p.play(m)
    };
    let pos = [false, true].map(|last| canonical(&ply(&ply(&start, last), last)));
    let job = |id, which: usize| Job {
        id,
        pos: pos[which],
        question: Question::Wins,
        budget: 1 << 30,
        warm: None,
        solved: Vec::new(),
    };
    let wait = |w: &mut W| loop {
        if let Some(r) = w.wait(Duration::from_millis(10)).unwrap() {
            break r;
        }
    };
    for share in [0, 64] {
        let mut w = make(WorkerConfig {
            locked_reads: false,
            spread_every: false,
            spread_jobs: false,
            pn_init: PnInit::Guided,
            hash_mb: 1,
            shared_tt: false,
            method: Method::ProofNumber,
            warm_entries: 0,
            harvest_plies: 0,
            share_solved: share,
            share_every: 0,
            share_paths: false,
            share_paths_every: 0,
            threads: 1,
        });
        // Job 1 on worker 0, job 2 on worker 1; both come back.
        w.start(job(1, 0)).unwrap();
        w.start(job(2, 1)).unwrap();
        let mut done = [None, None];
        for _ in 0..2 {
            let r = wait(&mut w);
            assert!(r.solved.len() <= share, "{}", r.solved.len());
            w.share(&r.solved);
            let i = r.id as usize - 1;
            done[i] = Some(r);
        }
        // The next job goes to the worker that came back last; it asks
        // what the other one answered.
        let other = match last_idle(&w) {
            Some(1) => 0,
            _ => 1,
        };
        let first = done[other].take().unwrap();
        assert!(first.nodes > 0 && first.answer() != Answer::Open);
        w.start(job(3, other)).unwrap();
        let again = wait(&mut w);
        assert_eq!(again.answer(), first.answer(), "sharing {share}");
        assert_eq!(
            again.nodes == 0,
            share > 0,
            "sharing {share}: {} nodes",
            again.nodes
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The start of Peasants' Chess 5x8: far beyond any job of these tests.
    fn peasants_5x8() -> Position {
        use crate::rules::{parse_position, Board, Rules};
        let board = Board::new(5, 8).unwrap();
        parse_position("peasants", Some(board), Rules::default()).unwrap()
    }

    #[test]
    fn results_survive_their_text() {
        let open = JobResult {
            id: 17,
            end: JobEnd::Open { warm: None },
            nodes: 123_456,
            seconds: 1.25,
            known: Vec::new(),
            solved: Vec::new(),
            table: TableUse {
                stores: 123_457,
                replaced: 9_876,
                replaced_max_work: 54_321,
            },
        };
        let pos = peasants_5x8();
        let child = canonical(&pos.play(pos.legal_moves()[2]));
        let knowing = JobResult {
            known: vec![
                (pos, Question::AvoidsLoss, true),
                (child, Question::Wins, false),
            ],
            ..open.clone()
        };
        let yes = JobResult {
            end: JobEnd::Answered {
                answer: true,
                best: Some("b5".into()),
            },
            ..open.clone()
        };
        let no = JobResult {
            end: JobEnd::Answered {
                answer: false,
                best: None,
            },
            ..knowing.clone()
        };
        let failed = JobResult {
            end: JobEnd::Failed(WorkerError::Search("a table is damaged:\tsee\tthis".into())),
            ..open.clone()
        };
        let cancelled = JobResult {
            end: JobEnd::Cancelled,
            ..open.clone()
        };
        let interrupted = JobResult {
            end: JobEnd::Interrupted { warm: None },
            ..knowing.clone()
        };
        let variant = pos.variant();
        for r in [
            open.clone(),
            knowing,
            yes,
            no,
            failed,
            cancelled,
            interrupted,
        ] {
            let back = JobResult::from_text(r.to_text().as_bytes(), variant).unwrap();
            assert_eq!(format!("{back:?}"), format!("{r:?}"));
        }
        let start = format!("W1:{pos}");
        for bad in [
            "",
            "17\topen\t1\t1.0\t-\t0\t-",
            "17\tmaybe\t1\t1.0\t-\t0\t-\t0:0:0\t-",
            "17\topen\t1\t1.0\t-\t3\t-\t0:0:0\t-",
            "17\topen\tmany\t1.0\t-\t0\t-\t0:0:0\t-",
            "x\topen\t1\t1.0\t-\t0\t-\t0:0:0\t-",
            &format!("17\topen\t1\t1.0\t-\t0\t{start};\t0:0:0\t-"),
            &format!("17\topen\t1\t1.0\t-\t0\tX1:{pos}\t0:0:0\t-"),
            &format!("17\topen\t1\t1.0\t-\t0\tW2:{pos}\t0:0:0\t-"),
            "17\topen\t1\t1.0\t-\t0\tW1:8/8 w -\t0:0:0\t-",
            "17\topen\t1\t1.0\t-\t0\t\t0:0:0\t-",
            // Combinations no result has: a move without a yes, a
            // cancelled answer, an interrupted failure.
            "17\topen\t1\t1.0\tb5\t0\t-\t0:0:0\t-",
            "17\tyes\t1\t1.0\tb5\t1\t-\t0:0:0\t-",
            "17\topen\t1\t1.0\t-\t2\t-\t0:0:0\tdamaged",
            "17\tyes\t1\t1.0\tb5\t0\t-\t0:0:0\tdamaged",
            // The table's counts: three numbers.
            "17\topen\t1\t1.0\t-\t0\t-\t0:0\t-",
            "17\topen\t1\t1.0\t-\t0\t-\t0:x:0\t-",
            "17\topen\t1\t1.0\t-\t0\t-\t0:0:0:0\t-",
            "17\topen\t1\t1.0\t-\t0\t-\t-\t-",
        ] {
            assert!(
                JobResult::from_text(bad.as_bytes(), variant).is_none(),
                "{bad}"
            );
        }
        // The known answers are read in the game they are of.
        let other = Variant::new(crate::rules::Board::new(6, 8).unwrap(), Default::default());
        let r = JobResult {
            known: vec![(pos, Question::Wins, false)],
            ..open
        };
        assert!(JobResult::from_text(r.to_text().as_bytes(), other).is_none());
    }

    /// A pool keeps each key once, in the order the entries came, hands
    /// each worker what it has not had, and past its cap forgets its
    /// oldest entries, so new ones still travel; a worker that loads late
    /// misses only what was forgotten, and the pool counts it.
    #[test]
    fn a_solved_pool_sends_each_entry_once_to_each_worker() {
        let e = |key: u128| PnEntry {
            key,
            phi: 0,
            delta: u32::MAX,
            work: key as u32,
        };
        let mut pool = SolvedPool::with_cap(2, 100);
        let (a, b) = (0, 1);
        pool.add(&[e(2), e(4), e(2)]);
        assert_eq!(pool.take_for(a), vec![e(2), e(4)]);
        pool.add(&[e(4), e(6)]);
        assert_eq!(pool.take_for(a), vec![e(6)]);
        assert_eq!(pool.take_for(a), vec![]);
        assert_eq!(pool.take_for(b), vec![e(2), e(4), e(6)]);
        assert_eq!(pool.missed(), 0);
        // 110 more: the pool forgets 2, 4, 6 and the first 10 of them,
        // which neither worker has had.
        let many: Vec<PnEntry> = (0..110).map(|k| e(2 * k + 8)).collect();
        pool.add(&many);
        assert_eq!(pool.take_for(b), many[10..].to_vec());
        assert_eq!(pool.missed(), 10);
        pool.add(&[e(1)]);
        assert_eq!(pool.take_for(b), vec![e(1)]);
        let mut late = many[11..].to_vec();
        late.push(e(1));
        assert_eq!(pool.take_for(a), late);
        assert_eq!(pool.missed(), 21);
        // A forgotten key is a new entry when it comes again; a held
        // one is not.
        pool.add(&[e(2), e(1)]);
        assert_eq!(pool.take_for(a), vec![e(2)]);
        assert_eq!(pool.take_for(b), vec![e(2)]);
        assert_eq!(pool.missed(), 21);
    }

    /// What [`SolvedPool::take_from`] and [`SolvedPool::since`] read is
    /// what [`SolvedPool::take_for`] copies, and counts the same missed
    /// entries, also once the window has wrapped round its buffer (its
    /// entries in two runs). Mutant: the second run read from `from`
    /// without the first run's length taken off.
    #[test]
    fn a_pools_entries_read_in_place_are_the_ones_it_copies() {
        let e = |key: u128| PnEntry {
            key,
            phi: 0,
            delta: u32::MAX,
            work: key as u32,
        };
        let (mut copied, mut read) = (SolvedPool::with_cap(2, 7), SolvedPool::with_cap(2, 7));
        let mut key = 1;
        for (round, adds) in [3, 2, 5, 0, 9, 1, 4].into_iter().enumerate() {
            let batch: Vec<PnEntry> = (0..adds).map(|i| e(key + i)).collect();
            key += adds;
            copied.add(&batch);
            read.add(&batch);
            // Worker 0 loads every round (what it has not had lies at
            // the window's end), worker 1 every third.
            for w in [0, 1].into_iter().filter(|&w| w == 0 || round % 3 == 2) {
                let from = read.take_from(w);
                let in_place: Vec<PnEntry> = read.since(from).concat();
                assert_eq!(in_place, copied.take_for(w), "round {round}, worker {w}");
                assert_eq!(read.missed(), copied.missed(), "round {round}");
            }
        }
        assert!(copied.missed() > 0, "the window forgot entries");
    }

    /// Local workers with tables of their own (`--separate-tables`):
    /// what one proved and sent out answers the other's job on the same
    /// question without search; without --share-solved it searches.
    #[test]
    fn local_workers_load_what_the_others_sent_out() {
        check_solved_entries_sent_out(
            |config| ThreadWorkers::new(2, config, None).unwrap(),
            |w| w.idle.last().copied(),
        );
    }

    #[test]
    fn local_workers_tell_how_far_their_running_jobs_are() {
        // Peasants' Chess 5x8 is far beyond a budget of 1 M nodes: the job
        // runs for seconds and comes back open.
        let pos = peasants_5x8();
        let config = WorkerConfig {
            locked_reads: false,
            spread_every: false,
            spread_jobs: false,
            pn_init: PnInit::Guided,
            hash_mb: 16,
            shared_tt: true,
            method: Method::AlphaBeta,
            warm_entries: 0,
            harvest_plies: 2,
            share_solved: 0,
            share_every: 0,
            share_paths: false,
            share_paths_every: 0,
            threads: 1,
        };
        let mut workers = ThreadWorkers::new(1, config, None).unwrap();
        assert_eq!(workers.running_nodes(), Some(0));
        let budget = 1_000_000;
        for id in 1..=2 {
            let job = Job {
                id,
                pos,
                question: Question::Wins,
                budget,
                warm: None,
                solved: Vec::new(),
            };
            workers.start(job).unwrap();
            let mut seen = Vec::new();
            let result = loop {
                seen.push(workers.running_nodes().unwrap());
                if let Some(r) = workers.wait(Duration::from_millis(2)).unwrap() {
                    break r;
                }
            };
            assert!(matches!(result.end, JobEnd::Open { .. }), "{result:?}");
            // Counted from this job's start (the second job's count does
            // not include the first's), growing, never past the job's own.
            assert!(seen.iter().any(|&n| n > 0), "{seen:?}");
            assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
            assert!(
                *seen.last().unwrap() <= result.nodes,
                "{seen:?} {}",
                result.nodes
            );
            assert_eq!(workers.running_nodes(), Some(0));
        }
    }

    /// What a job hands back of the positions below its own is true
    /// (checked by a fresh alpha-beta solver), under either search, each
    /// position once and in its canonical form, none over by the rules; and
    /// there is something to hand back after a job that ran out.
    #[test]
    fn known_answers_below_a_job_are_true() {
        use crate::rules::{parse_position, Board, Rules};
        let pos = parse_position(
            "pawngame",
            Some(Board::new(7, 6).unwrap()),
            Rules::default(),
        )
        .unwrap();
        let truth = Solver::new(SolverConfig::default(), None).unwrap();
        // Budgets that run out.
        for (method, open) in [(Method::AlphaBeta, 20_000), (Method::ProofNumber, 10_000)] {
            let config = WorkerConfig {
                locked_reads: false,
                spread_every: false,
                spread_jobs: false,
                pn_init: PnInit::Guided,
                hash_mb: 16,
                shared_tt: false,
                method,
                warm_entries: 0,
                harvest_plies: 2,
                share_solved: 0,
                share_every: 0,
                share_paths: false,
                share_paths_every: 0,
                threads: 1,
            };
            let solver = JobSolver::new(config, None, None).unwrap();
            let never = AtomicBool::new(false);
            for (budget, question) in [(open, Question::Wins), (1 << 40, Question::AvoidsLoss)] {
                let job = Job {
                    id: 1,
                    pos,
                    question,
                    budget,
                    warm: None,
                    solved: Vec::new(),
                };
                let r = run_job(&solver, &never, &never, &job, &config);
                assert_eq!(r.answer() == Answer::Open, budget < 1 << 40, "{method:?}");
                assert!(!r.known.is_empty(), "{method:?} {budget} {r:?}");
                let mut seen = HashSet::new();
                for (p, q, b) in &r.known {
                    assert_eq!(*p, canonical(p));
                    assert!(!p.is_game_over());
                    assert!(seen.insert((position_key(p), *q)), "{p} twice");
                    assert_eq!(
                        truth.answer(p, *q, None).unwrap(),
                        *b,
                        "{method:?}: {p} {q:?}"
                    );
                }
                // Nothing below: none.
                let none = run_job(
                    &solver,
                    &never,
                    &never,
                    &job,
                    &WorkerConfig {
                        harvest_plies: 0,
                        share_solved: 0,
                        share_every: 0,
                        share_paths: false,
                        share_paths_every: 0,
                        threads: 1,
                        ..config
                    },
                );
                assert!(none.known.is_empty());
            }
        }
    }

    /// A job's `yes` names a move that achieves it, found in the
    /// transposition table without a search once the answer is proven:
    /// under both searches, with a witness budget (1,000 nodes a child) too
    /// small to search the children of Peasants' Chess 4x8's start, and
    /// every move named is one that a fresh solver confirms.
    #[test]
    fn a_yes_names_its_move_without_searching_again() {
        use crate::rules::{parse_position, Board, Rules};
        let truth = Solver::new(SolverConfig::default(), None).unwrap();
        let board = Board::new(4, 8).unwrap();
        let start = parse_position("peasants", Some(board), Rules::default()).unwrap();
        let mut checked = 0;
        for method in [Method::AlphaBeta, Method::ProofNumber] {
            let config = WorkerConfig {
                locked_reads: false,
                spread_every: false,
                spread_jobs: false,
                pn_init: PnInit::Guided,
                hash_mb: 64,
                shared_tt: false,
                method,
                warm_entries: 0,
                harvest_plies: 0,
                share_solved: 0,
                share_every: 0,
                share_paths: false,
                share_paths_every: 0,
                threads: 1,
            };
            let solver = JobSolver::new(config, None, None).unwrap();
            // The start and its first moves, both questions: every yes.
            let mut cases = vec![start];
            cases.extend(start.legal_moves().iter().map(|&m| start.play(m)));
            for pos in cases {
                for question in [Question::Wins, Question::AvoidsLoss] {
                    if !solver.answer(&pos, question, None).unwrap() {
                        continue;
                    }
                    let before = solver.nodes();
                    let m = witness(&solver, &pos, question, 8000)
                        .unwrap_or_else(|| panic!("{method:?}: no move for {pos} {question:?}"));
                    assert_eq!(solver.nodes(), before, "{method:?}: searched for {pos}");
                    let child = pos.play(pos.parse_move(&m).unwrap());
                    assert!(
                        !truth.answer(&child, question.other(), None).unwrap(),
                        "{method:?}: {m} does not achieve {question:?} in {pos}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked >= 10, "{checked}");
    }

    /// A proof-number worker with a table of its own that sends out up to
    /// 64 solved entries every `share_every` nodes of a job.
    fn stepping_config(share_every: u64) -> WorkerConfig {
        WorkerConfig {
            locked_reads: false,
            spread_every: false,
            spread_jobs: false,
            pn_init: PnInit::Guided,
            hash_mb: 16,
            shared_tt: false,
            method: Method::ProofNumber,
            warm_entries: 0,
            harvest_plies: 0,
            share_solved: 64,
            share_every,
            share_paths: false,
            share_paths_every: 0,
            threads: 1,
        }
    }

    /// The board of paths: a job steers clear of the paths of the jobs
    /// of the ranks before its own only (not its own rank's, not those
    /// after it); a newer path replaces a job's older one, and an empty
    /// one, or the job's end, takes it off.
    #[test]
    fn a_job_steers_clear_of_the_ranks_before_its_own() {
        let mut board = PathBoard::new();
        assert!(board.ahead_of(5).is_none());
        board.post(10, 0, vec![1, 2]);
        board.post(11, 1, vec![3]);
        board.post(12, 2, vec![4, 5]);
        fn keys(board: &PathBoard, rank: usize) -> Vec<u128> {
            let mut k: Vec<u128> = board
                .ahead_of(rank)
                .map_or_else(Vec::new, |s| s.iter().copied().collect());
            k.sort_unstable();
            k
        }
        assert_eq!(keys(&board, 0), Vec::<u128>::new());
        assert_eq!(keys(&board, 1), [1, 2]);
        assert_eq!(keys(&board, 2), [1, 2, 3]);
        assert_eq!(keys(&board, 3), [1, 2, 3, 4, 5]);
        board.post(10, 0, vec![7]);
        assert_eq!(keys(&board, 1), [7]);
        board.post(10, 0, Vec::new());
        assert_eq!(keys(&board, 2), [3]);
        board.remove(11);
        assert!(board.ahead_of(2).is_none());
        assert_eq!(keys(&board, 3), [4, 5]);
    }

    /// A running job keeps what it asks, not a copy of the entries it
    /// loaded when it began (up to the pool's window each).
    #[test]
    fn a_running_job_holds_no_copy_of_what_it_loaded() {
        let config = stepping_config(1_000);
        let solver = JobSolver::new(config, None, None).unwrap();
        let entry = |key: u128| PnEntry {
            key,
            phi: 0,
            delta: u32::MAX,
            work: 9,
        };
        let job = Job {
            id: 7,
            pos: peasants_5x8(),
            question: Question::AvoidsLoss,
            budget: 5_000,
            warm: Some(vec![entry(10), entry(12)].into()),
            solved: (0..1000).map(|k| entry(2 * k + 20)).collect(),
        };
        let run = JobRun::begin(&solver, &job, &config);
        assert!(run.job.solved.is_empty() && run.job.warm.is_none());
        assert_eq!(
            (run.job.id, run.job.pos, run.job.question, run.job.budget),
            (7, job.pos, Question::AvoidsLoss, 5_000)
        );
    }

    /// A job searched in steps (`--share-every`) exchanges between them,
    /// keeps to its budget, and answers as the job searched at once.
    #[test]
    fn a_job_in_steps_exchanges_between_them_and_keeps_its_budget() {
        use crate::rules::{parse_position, Board, Rules};
        let config = stepping_config;
        let never = AtomicBool::new(false);
        let job = |pos, budget| Job {
            id: 1,
            pos,
            question: Question::Wins,
            budget,
            warm: None,
            solved: Vec::new(),
        };
        let stepped_with = |job: &Job, config: WorkerConfig| {
            let solver = JobSolver::new(config, None, None).unwrap();
            let (mut exchanges, mut sent, mut with_entries) = (0, 0, 0);
            let r = run_job_exchanging(&solver, &never, &never, job, &config, &mut |s, entries| {
                exchanges += 1;
                if !entries {
                    return;
                }
                with_entries += 1;
                // What the search solved since the last exchange, heaviest
                // first; then nothing until it solves more.
                let recent = s.take_recent_solved(64);
                assert!(recent.len() <= 64);
                assert!(recent.iter().all(|e| e.phi == 0 || e.delta == 0));
                assert!(recent.windows(2).all(|w| w[0].work >= w[1].work));
                assert!(s.take_recent_solved(64).is_empty());
                sent += recent.len();
            });
            (r, exchanges, sent, with_entries)
        };
        let stepped = |job: &Job, every| {
            let (r, exchanges, sent, with_entries) = stepped_with(job, config(every));
            assert_eq!(with_entries, exchanges, "every exchange carries entries");
            (r, exchanges, sent)
        };
        // Peasants' Chess 5x8 runs out of 20,000 nodes.
        let (r, exchanges, sent) = stepped(&job(peasants_5x8(), 20_000), 3_000);
        assert!(matches!(r.end, JobEnd::Open { .. }), "{r:?}");
        assert!((5..=7).contains(&exchanges), "{exchanges}");
        assert!(sent > 0);
        assert!((20_000..24_000).contains(&r.nodes), "{}", r.nodes);
        // With paths every 1,000 nodes (--share-paths-every) the job stops
        // three times as often, and every third stop carries entries;
        // without paths shared, --share-paths-every changes nothing.
        let paths = |on, every| WorkerConfig {
            share_paths: on,
            share_paths_every: every,
            ..config(3_000)
        };
        let (r, exchanges, sent, with_entries) =
            stepped_with(&job(peasants_5x8(), 20_000), paths(true, 1_000));
        assert!(matches!(r.end, JobEnd::Open { .. }), "{r:?}");
        assert!((17..=21).contains(&exchanges), "{exchanges}");
        assert!((5..=7).contains(&with_entries), "{with_entries}");
        assert!(sent > 0);
        let (_, exchanges, _, with_entries) =
            stepped_with(&job(peasants_5x8(), 20_000), paths(false, 1_000));
        assert!((5..=7).contains(&exchanges), "{exchanges}");
        assert_eq!(with_entries, exchanges);
        let (_, exchanges, _, with_entries) =
            stepped_with(&job(peasants_5x8(), 20_000), paths(true, 5_000));
        assert!((5..=7).contains(&exchanges), "{exchanges}");
        assert_eq!(with_entries, exchanges);
        // The pawn game 6x6 (a draw): white does not win, in steps or not.
        let pawngame = parse_position(
            "pawngame",
            Some(Board::new(6, 6).unwrap()),
            Rules::default(),
        );
        let whole = job(canonical(&pawngame.unwrap()), u64::MAX);
        let (at_once, none, _) = stepped(&whole, 0);
        let (in_steps, exchanges, _) = stepped(&whole, 500);
        assert_eq!(none, 0);
        assert!(exchanges > 3, "{exchanges}");
        assert_eq!(at_once.answer(), Answer::No);
        assert_eq!(in_steps.answer(), Answer::No);
    }

    /// A proof-number job stopped because the run ends comes back `open`,
    /// interrupted, with its nodes and its warm start; one cancelled as
    /// unneeded comes back cancelled with neither to keep; one that runs
    /// out of budget is `open`, with its warm start where the workers have
    /// tables of their own and without one where they share a table (its
    /// search is there for the pair's next job); a warm start is the
    /// heaviest entries first, which an empty transposition table takes in
    /// whole.
    #[test]
    fn stopped_proof_number_jobs_say_why_and_hand_on_their_search() {
        let pos = peasants_5x8();
        let config = WorkerConfig {
            locked_reads: false,
            spread_every: false,
            spread_jobs: false,
            pn_init: PnInit::Guided,
            hash_mb: 16,
            shared_tt: true,
            method: Method::ProofNumber,
            warm_entries: 500,
            harvest_plies: 2,
            share_solved: 0,
            share_every: 0,
            share_paths: false,
            share_paths_every: 0,
            threads: 1,
        };
        let job = |id, budget| Job {
            id,
            pos,
            question: Question::Wins,
            budget,
            warm: None,
            solved: Vec::new(),
        };
        let mut workers = ThreadWorkers::new(1, config, None).unwrap();
        let wait = |w: &mut ThreadWorkers| loop {
            if let Some(r) = w.wait(Duration::from_millis(10)).unwrap() {
                return r;
            }
        };
        let started = |w: &ThreadWorkers| {
            while w.running_nodes().unwrap() == 0 {
                std::thread::sleep(Duration::from_millis(1));
            }
        };
        workers.start(job(1, u64::MAX)).unwrap();
        started(&workers);
        workers.cancel(1);
        let r = wait(&mut workers);
        assert!(matches!(r.end, JobEnd::Cancelled), "{r:?}");
        workers.start(job(2, 20_000)).unwrap();
        let r = wait(&mut workers);
        assert!(matches!(r.end, JobEnd::Open { .. }), "{r:?}");
        assert_eq!(r.end.warm().map(<[_]>::len), None);
        let own = WorkerConfig {
            shared_tt: false,
            ..config
        };
        let mut alone = ThreadWorkers::new(1, own, None).unwrap();
        alone.start(job(2, 20_000)).unwrap();
        let r = wait(&mut alone);
        assert!(matches!(r.end, JobEnd::Open { .. }), "{r:?}");
        assert_eq!(r.end.warm().map(<[_]>::len), Some(500));
        workers.start(job(3, u64::MAX)).unwrap();
        started(&workers);
        assert!(workers.interrupt());
        let r = wait(&mut workers);
        assert!(
            matches!(r.end, JobEnd::Interrupted { .. }) && r.nodes > 0,
            "{r:?}"
        );
        let warm = r.end.warm().expect("a warm start").to_vec();
        // Heaviest first, a proven entry counting four times its work.
        let weight = |e: &PnEntry| match e.phi == 0 || e.delta == 0 {
            true => 4 * e.work as u64 + 1,
            false => e.work as u64 + 1,
        };
        assert!(warm.windows(2).all(|w| weight(&w[0]) >= weight(&w[1])));
        // A fresh transposition table seeded with it holds exactly its
        // entries.
        let fresh = PnSolver::new(pn_config(config), None).unwrap();
        fresh.load_entries(&warm);
        let mut back = fresh.heaviest(warm.len());
        let mut sent = warm.clone();
        back.sort_by_key(|e| e.key);
        sent.sort_by_key(|e| e.key);
        assert_eq!(back, sent);
    }
}
