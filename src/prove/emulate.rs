//! An emulated cluster: `N` workers that exist only on a virtual clock.
//!
//! [`EmulatedWorkers`] give the manager `N` workers, each with its own
//! solver and transposition table as an MPI rank has, but run every job at
//! once, one after another, on this machine. A job started at virtual time
//! `t` finishes at `t` plus its nodes; [`Workers::wait`] hands results back
//! in the order of those virtual finishing times and moves the clock (a
//! wait of no time polls: only what ends at the present moment), and a
//! cancelled job frees its worker at the moment of the cancel. So the
//! manager sees exactly what it would see on `N` workers of equal speed —
//! the same idle workers, the same expansions, the same cancels — and the
//! run measures what the replay of a log ([`crate::prove::simulate`])
//! cannot: the jobs a proof on `N` workers would really run, speculative
//! and repeated work included. Time is counted in nodes (exact and
//! repeatable); the speedup of `N` workers is the makespan of one emulated
//! worker over theirs (`tools/prove_scaling.sh`). With `--share-solved`,
//! a job takes with it the solved entries of the jobs that came back
//! before it started on the virtual clock, as a rank gets them from rank
//! 0 ([`Workers::share`]); with `--share-every N` as well, a job runs in
//! steps of N nodes, each at its own moment of virtual time, and between
//! two steps its worker sends out its solved entries and loads those sent
//! before that moment, as a rank does between the steps of its search. A
//! step runs whole when its moment comes, but what it solved goes out at
//! its end on the virtual clock, as a rank sends it: sent at the step's
//! start, it would reach the workers whose steps begin meanwhile up to a
//! step before it was solved, and the emulation would promise more than
//! a cluster gives (twice as much on Peasants' Chess 6x7).
//!
//! [`EmulatedWorkers::sharing`] models the threads of one machine instead
//! (`prove --emulate N --emulate-shared STEP`): one transposition table for
//! all, the jobs in flight taking turns on it in steps. With `R` ranks
//! (`--emulate-ranks R`) it models a cluster of machines: the workers fall
//! into `R` ranks of `N / R`, each rank's workers share one table as a
//! machine's threads do, and the ranks send one another solved entries
//! (`--share-solved`, `--share-every`) as MPI ranks do.
//!
//! With `--threads T` each worker is a machine's T threads on one job
//! (`prove --workers 1 --threads T` in an MPI rank): they take turns of
//! [`TURN`] nodes in each step, going on where they were from turn to turn
//! as `solve --emulate-turns` runs them ([`JobSolver::in_turns`]), and the
//! step takes their makespan; the work is then the threads' time.
//!
//! One thing differs from a real cluster: a step runs whole when it
//! starts, so a job cancelled during a step leaves that step's work in its
//! worker's table, which the worker's next job may find (never another
//! worker's). Its effect is small while steps are short next to the proof.

use crate::prove::idle::IdleWorkers;
use crate::prove::pair::Pair;
use crate::prove::worker::{
    Job, JobResult, JobRun, JobSolver, PathBoard, SolvedPool, WorkerConfig, WorkerError, WorkerTt,
    Workers,
};
use crate::solve::{KeySet, Method, PnEntry, SolveError, TableUse};
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The nodes of a thread's turn in a worker of several
/// (`--emulate-turn-nodes`, the default): the threads take turns of this
/// length, one at a time, each round's turns kept apart
/// ([`crate::solve::PnConfig::turns`]), and go on where they were from
/// turn to turn within a step of the job (up to its next exchange, or a
/// tick's end), starting again from the job's position at the next. The
/// shorter the turns the nearer the threads of a real worker, which
/// search side by side node by node. Sixteen threads on Peasants' Chess
/// 6x7 (docs/SCALING.md): `solve --emulate-turns` 8.97x one solve in turns
/// of 10,000 nodes, 11.49x in 1,000, 12.19x in 250.
pub const TURN: u64 = 1_000;

/// What an emulated run measured, in nodes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Emulation {
    /// The number of emulated workers.
    pub workers: usize,
    /// The threads each worker puts on its job (`--threads`, taking turns
    /// in each step, as `JobSolver::in_turns` runs a job).
    pub threads: usize,
    /// The number of ranks they fall into, each with a table of its own:
    /// `workers` with tables of their own, 1 when all share one.
    pub ranks: usize,
    /// The threads' time of all jobs, in nodes, cancelled ones up to their
    /// cancel: with one thread a worker, their nodes.
    pub work: u64,
    /// The virtual time at the last finished job.
    pub makespan: u64,
    /// How many workers ever had a job at the same time.
    pub peak: usize,
    /// Solved entries sent out with jobs (`--share-solved`), all workers
    /// together.
    pub solved_sent: u64,
    /// Jobs that went back to the worker whose job had left their question
    /// open, and jobs on such a question that went to another
    /// (the idle pool of `src/prove/idle.rs`).
    pub affinity: (u64, u64),
    /// Solved entries a worker never had because the pool forgot them
    /// before it loaded ([`SolvedPool::missed`]).
    pub solved_missed: u64,
    /// Jobs still running, their work not counted in `work`: none once a
    /// complete run has ended (it cancels its jobs in flight, and each
    /// comes back); a run stopped short (`--emulate-until`, a signal, a
    /// time limit) leaves them in flight, for emulated workers cannot be
    /// interrupted.
    pub running: usize,
    /// The threads' time those jobs held so far: from each one's start to
    /// [`Emulation::reached`], in nodes. Their workers were busy all that
    /// time; without it a run stopped short looks idle by their work.
    pub in_flight_work: u64,
    /// How far the virtual clock's steps went, in nodes. Steps run in the
    /// order of their moments, and a result comes back only when every
    /// step before its moment has run, so no step runs past the moment of
    /// the proof's last result: for a run stopped short, a lower bound of
    /// the makespan its whole proof would have.
    pub reached: u64,
    /// The tick of the coarser model ([`EmulatedWorkers::ticked`]), in
    /// nodes; 0 for the model of steps at their own moments.
    pub tick: u64,
    /// Wall time of this machine's threads, all ranks together, in the
    /// jobs' searches.
    pub search_seconds: f64,
    /// The nodes those searches made.
    pub search_nodes: u64,
    /// Wall time of the ranks' sending: what a job's search solved taken
    /// out of its solver at each exchange, and a job's end (its heaviest
    /// solved entries, its witness and the answers around it).
    pub send_seconds: f64,
    /// Wall time of the ranks' loads of what the others sent (the
    /// `solved_sent` entries) and of their jobs' warm starts: a real rank
    /// spends it too, beside its search, where the virtual clock counts
    /// only nodes.
    pub load_seconds: f64,
}

impl Emulation {
    /// Work over makespan: how many workers' threads were busy on average
    /// (the speedup only if the work is what one worker would do), at
    /// most every thread. A step runs whole when it starts, so a job
    /// cancelled during a step has the whole step's work counted while
    /// its worker takes its next job at the moment of the cancel (the
    /// one way the emulation differs from a cluster, above): over the
    /// makespan alone, more threads than there are could look busy.
    ///
    /// A run stopped with jobs in flight counts their threads' time so far
    /// ([`Emulation::in_flight_work`]) over the time the clock reached, so
    /// that workers busy to the stop are not shown idle.
    pub fn busy(&self) -> f64 {
        let (work, time) = self.work_and_time();
        if time == 0 {
            1.0
        } else {
            (work as f64 / time as f64).min(self.cores() as f64)
        }
    }

    /// The threads' time and the time it was spent in, for
    /// [`Emulation::busy`]: the jobs that came back over the makespan, and
    /// with jobs still in flight their time too, over the time reached.
    fn work_and_time(&self) -> (u64, u64) {
        if self.running > 0 {
            (
                self.work + self.in_flight_work,
                self.makespan.max(self.reached),
            )
        } else {
            (self.work, self.makespan)
        }
    }

    /// Against one solve of `baseline` nodes (one thread's `solve
    /// --value-only` of the same question): how many times as fast the
    /// emulated workers are (its nodes over the makespan), that per
    /// thread (the efficiency), and how many times its work they did. A
    /// makespan of 0 (nothing ran) counts as one node.
    pub fn against(&self, baseline: u64) -> (f64, f64, f64) {
        let speedup = baseline as f64 / self.makespan.max(1) as f64;
        (
            speedup,
            speedup / self.cores() as f64,
            self.work as f64 / baseline.max(1) as f64,
        )
    }

    /// What a loaded entry cost on this machine, in nodes of search: the
    /// loads' time per entry over the searches' time per node (`None`
    /// before any entry was loaded or any node searched). A real rank
    /// loads what every other sent, so its loads add this times
    /// `solved_sent` over `search_nodes` to its time.
    pub fn load_cost(&self) -> Option<f64> {
        (self.solved_sent > 0 && self.search_nodes > 0 && self.search_seconds > 0.0).then(|| {
            (self.load_seconds / self.solved_sent as f64)
                / (self.search_seconds / self.search_nodes as f64)
        })
    }

    /// The ranks' sending and loading over their searching, in this
    /// machine's time (`None` before any search): what a real rank adds
    /// to each second of its search, at this machine's rates.
    pub fn exchange_share(&self) -> Option<f64> {
        (self.search_seconds > 0.0)
            .then(|| (self.send_seconds + self.load_seconds) / self.search_seconds)
    }

    /// [`Emulation::against`]'s speedup with each rank's exchanges counted
    /// as the time they took here ([`Emulation::exchange_share`]), spread
    /// evenly over the ranks: an estimate of the speedup in time of real
    /// ranks whose node is as fast as the solve's.
    pub fn speedup_with_exchanges(&self, baseline: u64) -> Option<f64> {
        self.exchange_share()
            .map(|share| self.against(baseline).0 / (1.0 + share))
    }

    /// For a run stopped short of its proof: the most its workers can
    /// still be as fast as one solve of `baseline` nodes, that over how
    /// far the clock [`Emulation::reached`].
    pub fn speedup_at_most(&self, baseline: u64) -> f64 {
        baseline as f64 / self.reached.max(1) as f64
    }

    /// The workers' threads together (at least one): the cores they
    /// stand for.
    pub fn cores(&self) -> usize {
        (self.workers * self.threads.max(1)).max(1)
    }

    /// The share of worker time spent without a job (none where the
    /// cancelled jobs' steps fill it, [`Emulation::busy`]).
    pub fn idle(&self) -> f64 {
        if self.work_and_time().1 == 0 {
            0.0
        } else {
            1.0 - self.busy() / self.cores() as f64
        }
    }
}

/// What the job of `r` has done to its worker's table so far (none for a
/// job not begun).
fn table_use(solvers: &[Option<JobSolver<'static>>], r: &Running) -> TableUse {
    match (&r.run, &solvers[r.worker]) {
        (Some(run), Some(solver)) => run.table_use(solver),
        _ => TableUse::default(),
    }
}

struct Running {
    worker: usize,
    /// The pair it asks, for the idle pool if it comes back open.
    pair: Pair,
    start: u64,
    /// The moment of its next step, or of its end once `result` is set.
    next: u64,
    /// The job under way (until its last step).
    run: Option<JobRun>,
    /// With a tick: the job as it was started, until the tick that begins
    /// it (on its rank's thread, after its rank has loaded what was sent).
    pending: Option<Job>,
    /// Its result, after its last step or a cancel.
    result: Option<JobResult>,
    /// Its nodes at its worker's last exchange of solved entries (its
    /// start, before the first).
    exchanged: u64,
    /// Whether its next step loads what the other ranks sent meanwhile
    /// (its last step ended with an exchange).
    load: bool,
    /// What its last step solved, to be sent out at the step's end (the
    /// moment of its next step), as a rank sends it when the step is
    /// over; a cancel during the step drops it, as the rank's stopped job
    /// sends nothing.
    outbox: Vec<PnEntry>,
    /// With [`WorkerConfig::share_paths`]: the path its search was in at
    /// its last exchange (the one that filled `outbox`, or one of its path
    /// alone), sent out at its step's end.
    path: Option<Vec<u128>>,
    /// Its nodes at its last exchange of a path.
    pathed: u64,
    /// Whether its next step steers by the paths sent meanwhile (its last
    /// step ended with an exchange, of entries or of its path alone).
    steer: bool,
}

impl Running {
    /// The pair it leaves open in its worker's table, if its result is
    /// `open` (ran out of its budget, or interrupted).
    fn left_open(&self) -> Option<Pair> {
        self.result
            .as_ref()
            .is_some_and(|r| r.end.leaves_open())
            .then_some(self.pair)
    }
}

/// The keys a rank's searches steer clear of ([`PathBoard::ahead_of`]).
type Steer = Option<Arc<KeySet>>;

/// What a rank loads at a tick's start: where in the pool the entries new
/// to it begin (if it loads), and if it steers anew the paths its searches
/// steer clear of.
type RankLoad = (Option<usize>, Option<Steer>);

/// `count` workers on a virtual clock (see the module's text).
pub struct EmulatedWorkers {
    config: WorkerConfig,
    /// With [`EmulatedWorkers::sharing`]: the transposition table of each
    /// rank, its workers' (all workers' with one rank), and the nodes of
    /// each step of their jobs. Empty without: every worker has a table of
    /// its own and is a rank of its own.
    tables: Vec<WorkerTt>,
    step: u64,
    /// Workers a rank.
    per_rank: usize,
    /// Threads a worker, taking turns on its job ([`JobSolver::in_turns`]).
    worker_threads: usize,
    /// The most nodes of a thread's turn ([`TURN`] unless
    /// [`EmulatedWorkers::with_turn`] says otherwise).
    turn: u64,
    solvers: Vec<Option<JobSolver<'static>>>,
    idle: IdleWorkers<usize>,
    clock: u64,
    /// The latest moment a step was run at (steps run ahead of `clock`,
    /// which moves when a result comes back).
    horizon: u64,
    running: HashMap<u64, Running>,
    /// (moment, job id) of every running job's next step or end; stale
    /// entries (a cancelled job's old moment) are skipped.
    queue: BinaryHeap<Reverse<(u64, u64)>>,
    stop: AtomicBool,
    measured: Emulation,
    /// Solved entries the finished jobs handed back ([`Workers::share`]),
    /// by rank: the workers of one rank load them into their one table
    /// once.
    shared: SolvedPool,
    /// With [`EmulatedWorkers::ticked`]: the tick of the coarser model, in
    /// nodes; 0 for the model of steps at their own moments.
    tick: u64,
    /// The threads a tick's ranks run on; none: one rank after another.
    threads: Option<rayon::ThreadPool>,
    /// With a tick: (moment, job id) of the jobs whose results are at the
    /// present moment: they come back in that order, whatever the order
    /// of the cancels that made some of them.
    ready: BinaryHeap<Reverse<(u64, u64)>>,
    /// With [`WorkerConfig::share_paths`]: where each worker's running job
    /// was at its last exchange.
    paths: PathBoard,
}

impl EmulatedWorkers {
    /// `count` emulated workers (at least one), each with a transposition
    /// table of `config.hash_mb` MiB made when it first gets a job.
    pub fn new(count: usize, config: WorkerConfig) -> EmulatedWorkers {
        let config = WorkerConfig {
            shared_tt: false,
            ..config
        };
        EmulatedWorkers::with_tables(count, config, Vec::new(), 0)
    }

    /// `count` workers (at least one) of `config`: in ranks on `tables`
    /// (as many ranks as tables, `count` a multiple of it), jobs taking
    /// turns in steps of `step` nodes; a table and a rank each without.
    fn with_tables(
        count: usize,
        config: WorkerConfig,
        tables: Vec<WorkerTt>,
        step: u64,
    ) -> EmulatedWorkers {
        let count = count.max(1);
        let ranks = if tables.is_empty() {
            count
        } else {
            tables.len()
        };
        debug_assert_eq!(count % ranks, 0, "whole ranks");
        let threads = config.threads.max(1);
        EmulatedWorkers {
            config: WorkerConfig {
                threads: 1,
                ..config
            },
            tables,
            step,
            per_rank: count / ranks,
            worker_threads: threads,
            turn: TURN,
            solvers: (0..count).map(|_| None).collect(),
            idle: IdleWorkers::new((0..count).rev(), true),
            clock: 0,
            horizon: 0,
            running: HashMap::new(),
            queue: BinaryHeap::new(),
            stop: AtomicBool::new(false),
            measured: Emulation {
                workers: count,
                threads,
                ranks,
                ..Emulation::default()
            },
            shared: SolvedPool::new(ranks),
            paths: PathBoard::new(),
            tick: 0,
            threads: None,
            ready: BinaryHeap::new(),
        }
    }

    /// The coarser model whose ranks run at once (`prove --emulate N
    /// --emulate-tick K`): the virtual clock moves in ticks of `tick`
    /// nodes, and in each tick every rank runs its jobs up to the tick's
    /// end, the ranks side by side on `threads` threads of this machine (a
    /// rank's own workers still take turns on its table, in its steps).
    /// Everything between ranks waits for a tick's end: what a job
    /// solved goes out then and is loaded at the next tick's start, the
    /// results of the jobs that ended in the tick come back then (in the
    /// order of the moments they ended at, which count as their ends),
    /// and a job starts, or is cancelled, only at a tick's end. A worker
    /// whose job ended inside a tick waits for its end, as the manager
    /// learns of the result only then: up to a tick a job of idle time
    /// that the model of steps at their own moments does not have (and
    /// the jobs cancelled when the proof is complete run to the end of
    /// its last tick, where the makespan then ends). Which entries reach
    /// a rank when differs too, and moves the figures either way, as any
    /// change of timing does. Its figures do not depend on `threads`.
    /// `--share-every` exchanges at the first tick's end it has reached.
    pub fn ticked(self, tick: u64, threads: usize) -> Result<EmulatedWorkers, String> {
        let threads = if threads > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| format!("--emulate-threads: {e}"))?,
            )
        } else {
            None
        };
        Ok(EmulatedWorkers {
            tick: tick.max(1),
            threads,
            ..self
        })
    }

    /// `count` emulated proof-number workers sharing one transposition
    /// table of `config.hash_mb` MiB times `count`, as the threads of
    /// [`crate::prove::ThreadWorkers`] do (`prove --workers N`): every job
    /// runs in steps of `step` nodes, each at its moment of virtual time,
    /// so the jobs in flight take turns on the table as real threads would
    /// (at a coarser grain: a real thread sees the others' entries node by
    /// node). A step goes back down from the job's position, at the cost
    /// of a path. [`SolveError::Memory`] if the table does not fit.
    pub fn sharing(
        count: usize,
        config: WorkerConfig,
        step: u64,
    ) -> Result<EmulatedWorkers, SolveError> {
        let config = WorkerConfig {
            shared_tt: true,
            share_solved: 0,
            share_every: 0,
            share_paths: false,
            share_paths_every: 0,
            ..config
        };
        let table = WorkerTt::new(config, count.max(1))?;
        Ok(EmulatedWorkers::with_tables(
            count,
            config,
            vec![table],
            step.max(1),
        ))
    }

    /// `count` emulated proof-number workers in `ranks` ranks (`count` a
    /// multiple of `ranks`): the workers of a rank share one transposition
    /// table of `config.hash_mb` MiB times the workers of a rank, taking
    /// turns on it in steps of `step` nodes as [`EmulatedWorkers::sharing`]
    /// does, and the ranks have tables of their own, as the machines of a
    /// cluster do. With [`WorkerConfig::share_solved`] a job hands back
    /// the solved entries of its rank's table for the other ranks, and
    /// with [`WorkerConfig::share_every`] its worker exchanges them every
    /// that many nodes (at the end of the step that reaches them); each
    /// rank loads what the others sent once, into its one table. One rank
    /// is [`EmulatedWorkers::sharing`]; a worker a rank the workers of
    /// [`EmulatedWorkers::new`], but in steps. Jobs that come back `open`
    /// hand on their warm starts, as between ranks they must.
    /// [`SolveError::Memory`] if the tables do not fit.
    pub fn in_ranks(
        count: usize,
        ranks: usize,
        config: WorkerConfig,
        step: u64,
    ) -> Result<EmulatedWorkers, SolveError> {
        let count = count.max(1);
        let ranks = ranks.clamp(1, count);
        assert_eq!(
            count % ranks,
            0,
            "--emulate N --emulate-ranks R: R divides N"
        );
        let config = WorkerConfig {
            shared_tt: false,
            ..config
        };
        let tables = (0..ranks)
            .map(|_| WorkerTt::new(config, count / ranks))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(EmulatedWorkers::with_tables(
            count,
            config,
            tables,
            step.max(1),
        ))
    }

    /// The same workers with turns of at most `nodes` nodes (at least one)
    /// for the threads of each ([`TURN`] by default).
    pub fn with_turn(self, nodes: u64) -> EmulatedWorkers {
        EmulatedWorkers {
            turn: nodes.max(1),
            ..self
        }
    }

    /// The same workers, a job going back to the worker whose job left
    /// its pair open (the default) or to the latest idle
    /// (`prove --no-affinity`, to measure what the first is worth).
    pub fn with_affinity(mut self, affinity: bool) -> EmulatedWorkers {
        self.idle.set_affinity(affinity);
        self
    }

    /// The rank of worker `w`.
    fn rank(&self, w: usize) -> usize {
        w / self.per_rank
    }

    /// How far the virtual clock has gone: the last result's moment or
    /// the latest step's, whichever is later ([`Emulation::reached`]).
    fn reached(&self) -> u64 {
        self.clock.max(self.horizon)
    }

    /// The most nodes of time of a job's step: with a table of its own, up
    /// to its next exchange (after [`WorkerConfig::slice`] nodes of its
    /// threads together); on a rank's table, the table's step.
    fn slice(&self) -> u64 {
        if self.tables.is_empty() {
            match self.config.slice() {
                u64::MAX => u64::MAX,
                n => n.div_ceil(self.worker_threads as u64),
            }
        } else {
            self.step
        }
    }

    /// What the run so far measured.
    pub fn emulation(&self) -> Emulation {
        let reached = self.reached();
        Emulation {
            solved_missed: self.shared.missed(),
            affinity: (self.idle.back, self.idle.elsewhere),
            running: self.running.len(),
            in_flight_work: self
                .running
                .values()
                .map(|r| {
                    // A job whose result waits to come back ended at its
                    // next moment; the others run on to the time reached.
                    let end = match r.result {
                        Some(_) => r.next.min(reached),
                        None => reached,
                    };
                    end.saturating_sub(r.start) * self.worker_threads as u64
                })
                .sum(),
            reached,
            tick: self.tick,
            ..self.measured
        }
    }

    /// Runs the next step of job `id` at moment `at` of virtual time
    /// (every result that came back before it has been shared): after a
    /// step that ended with an exchange its worker loads the entries sent
    /// out since, and one that steps on past [`WorkerConfig::share_every`]
    /// more nodes sends out its own.
    fn step(&mut self, id: u64, at: u64) {
        let slice = self.slice();
        let rank = self.rank(self.running[&id].worker);
        let r = self.running.get_mut(&id).expect("a running job");
        let w = r.worker;
        let solver = self.solvers[w].as_ref().expect("a worker with a job");
        debug_assert_eq!(r.next, at, "a job's step at its own moment");
        // What its last step solved goes out now, at that step's end.
        self.shared.add(&std::mem::take(&mut r.outbox));
        if let Some(path) = r.path.take() {
            self.paths.post(w as u64, rank, path);
        }
        let load = std::mem::take(&mut r.load);
        let steer = std::mem::take(&mut r.steer);
        let mut times = StepTimes::default();
        if let JobSolver::ProofNumber(s) = solver {
            // What the other ranks sent out meanwhile.
            if load {
                let new = self.shared.take_for(rank);
                self.measured.solved_sent += new.len() as u64;
                let since = Instant::now();
                s.load_entries(&new);
                times.load = since.elapsed();
            }
            if steer && self.config.share_paths {
                s.steer_clear_of(self.paths.ahead_of(rank));
            }
        }
        advance(r, solver, &self.stop, &self.config, slice, &mut times);
        times.add_to(&mut self.measured);
        let next = r.next;
        self.queue.push(Reverse((next, id)));
    }

    /// Runs one tick of the coarser model ([`EmulatedWorkers::ticked`]):
    /// what was sent before it is loaded, every rank runs its jobs up to
    /// the tick's end (the ranks side by side, a rank's jobs taking turns
    /// in its steps, in the order of their numbers), what they solved goes
    /// out, and the jobs that ended come back, in the order of their
    /// moments, at the tick's end, where the clock now is.
    fn run_tick(&mut self) {
        let end = self.clock + self.tick;
        let per_rank = self.per_rank;
        let ranks = self.solvers.len() / per_rank;
        // A rank's step: its own tick with a table of its own, its table's
        // steps when its workers share one.
        let step = if self.tables.is_empty() {
            u64::MAX
        } else {
            self.step
        };
        let mut groups: Vec<Vec<(u64, &mut Running)>> = (0..ranks).map(|_| Vec::new()).collect();
        for (&id, r) in self.running.iter_mut() {
            if r.run.is_some() || r.pending.is_some() {
                groups[r.worker / per_rank].push((id, r));
            }
        }
        // Each rank's load: where in the pool what it has not loaded yet
        // begins, and unless --no-share-paths what it steers clear of.
        let mut loads: Vec<RankLoad> = Vec::with_capacity(ranks);
        for (rank, group) in groups.iter_mut().enumerate() {
            group.sort_by_key(|(id, _)| *id);
            let (mut load, mut steer) = (false, false);
            for (_, r) in group.iter_mut() {
                load |= std::mem::take(&mut r.load);
                steer |= std::mem::take(&mut r.steer);
            }
            let from = load.then(|| self.shared.take_from(rank));
            if let Some(from) = from {
                let [a, b] = self.shared.since(from);
                self.measured.solved_sent += (a.len() + b.len()) as u64;
            }
            let clear = (steer && self.config.share_paths).then(|| self.paths.ahead_of(rank));
            loads.push((from, clear));
        }
        let (solvers, stop, config) = (&self.solvers, &self.stop, &self.config);
        let shared = &self.shared;
        // Each rank's load, search and send times (StepTimes).
        let run_rank = |(group, (load, clear)): (&mut Vec<(u64, &mut Running)>, &RankLoad)| {
            let solver = |r: &Running| solvers[r.worker].as_ref().expect("a worker with a job");
            let since = Instant::now();
            if let (Some((_, r)), Some(from)) = (group.first(), load) {
                if let JobSolver::ProofNumber(s) = solver(r) {
                    for run in shared.since(*from) {
                        s.load_entries(run);
                    }
                }
            }
            let mut times = StepTimes {
                load: since.elapsed(),
                ..StepTimes::default()
            };
            if let Some(clear) = clear {
                for (_, r) in group.iter() {
                    if let JobSolver::ProofNumber(s) = solver(r) {
                        s.steer_clear_of(clear.clone());
                    }
                }
            }
            // A job's start loads its warm start and what came with it.
            let since = Instant::now();
            for (_, r) in group.iter_mut() {
                if let Some(job) = r.pending.take() {
                    r.run = Some(JobRun::begin(solver(r), &job, config));
                }
            }
            times.load += since.elapsed();
            loop {
                let mut stepped = false;
                for (_, r) in group.iter_mut() {
                    if r.run.is_some() && r.next < end {
                        let nodes = step.min(end - r.next);
                        advance(r, solver(r), stop, config, nodes, &mut times);
                        stepped = true;
                    }
                }
                if !stepped {
                    break;
                }
            }
            times
        };
        let times: Vec<StepTimes> = match &self.threads {
            Some(pool) => pool.install(|| {
                groups
                    .par_iter_mut()
                    .zip(loads.par_iter())
                    .map(run_rank)
                    .collect()
            }),
            None => groups.iter_mut().zip(loads.iter()).map(run_rank).collect(),
        };
        for t in times {
            t.add_to(&mut self.measured);
        }
        let mut ended = Vec::new();
        for group in groups {
            for (id, r) in group {
                self.shared.add(&std::mem::take(&mut r.outbox));
                if let Some(path) = r.path.take() {
                    self.paths.post(r.worker as u64, r.worker / per_rank, path);
                }
                if r.result.is_some() {
                    self.paths.remove(r.worker as u64);
                    ended.push((r.next, id));
                }
            }
        }
        self.ready.extend(ended.into_iter().map(Reverse));
        self.horizon = end;
        self.clock = end;
    }

    /// [`Workers::wait`] of the coarser model: the results at the present
    /// moment first; a wait of no time ends there, any other runs ticks
    /// until a result comes back or its timeout has passed.
    fn wait_ticked(&mut self, timeout: Duration) -> Option<JobResult> {
        let since = Instant::now();
        loop {
            if let Some(Reverse((_, id))) = self.ready.pop() {
                let r = self.running.remove(&id).expect("a job that came back");
                self.paths.remove(r.worker as u64);
                self.measured.work += (r.next - r.start) * self.worker_threads as u64;
                self.measured.makespan = self.measured.makespan.max(r.next);
                self.idle.put(r.worker, r.left_open());
                return r.result;
            }
            if timeout.is_zero() || self.running.is_empty() {
                return None;
            }
            self.run_tick();
            if self.ready.is_empty() && since.elapsed() >= timeout {
                return None;
            }
        }
    }

    /// Makes worker `w`'s solver if it has none yet.
    fn solver(&mut self, w: usize) -> Result<(), SolveError> {
        if self.solvers[w].is_none() {
            let table = self.tables.get(self.rank(w));
            let threads = self.worker_threads;
            self.solvers[w] = Some(match self.config.method {
                Method::ProofNumber if threads > 1 => {
                    let config = WorkerConfig {
                        threads,
                        ..self.config
                    };
                    JobSolver::in_turns(config, table, self.turn)?
                }
                _ => JobSolver::new(self.config, None, table)?,
            });
        }
        Ok(())
    }
}

/// One step of at most `nodes` nodes of the running job `r` on its
/// worker's `solver`: its next moment moves on by the nodes searched; a
/// job that ended gets its result, and one whose exchange is due
/// ([`WorkerConfig::share_every`]) puts what it solved since in its outbox
/// and loads at its next step.
fn advance(
    r: &mut Running,
    solver: &JobSolver,
    stop: &AtomicBool,
    config: &WorkerConfig,
    nodes: u64,
    times: &mut StepTimes,
) {
    let run = r.run.as_mut().expect("a job under way");
    // The emulated run has no stop of its own: a cancel acts on the
    // virtual clock.
    let never = AtomicBool::new(false);
    let (before, took) = (run.nodes(), run.elapsed());
    let since = Instant::now();
    let end = run.step(solver, stop, &never, nodes);
    times.search += since.elapsed();
    times.nodes += run.nodes() - before;
    r.next += (run.elapsed() - took).max(1);
    let since = Instant::now();
    match end {
        Some(end) => {
            let run = r.run.take().expect("a job under way");
            r.result = Some(run.end(solver, end, config));
        }
        None => {
            let (every, nodes) = (config.slice(), run.nodes());
            let due = every < u64::MAX && nodes - r.exchanged.max(r.pathed) >= every;
            if let (true, JobSolver::ProofNumber(s)) = (due, solver) {
                if config.entries_due(nodes - r.exchanged) {
                    r.outbox = s.take_recent_solved(config.share_solved);
                    r.exchanged = nodes;
                    r.load = true;
                }
                r.path = config.share_paths.then(|| s.stopped_path());
                r.pathed = nodes;
                r.steer = true;
            }
        }
    }
    times.send += since.elapsed();
}

/// Where a rank's wall time went in its steps and its jobs' starts
/// ([`Emulation`]'s seconds, every one of them added through here):
/// loading what the others sent, searching, and sending.
#[derive(Clone, Copy, Debug, Default)]
struct StepTimes {
    load: Duration,
    search: Duration,
    nodes: u64,
    send: Duration,
}

impl StepTimes {
    fn add_to(&self, e: &mut Emulation) {
        e.load_seconds += self.load.as_secs_f64();
        e.search_seconds += self.search.as_secs_f64();
        e.search_nodes += self.nodes;
        e.send_seconds += self.send.as_secs_f64();
    }
}

impl Workers for EmulatedWorkers {
    fn count(&self) -> usize {
        self.solvers.len()
    }

    fn virtual_clock(&self) -> bool {
        true
    }

    fn start(&mut self, job: Job) -> Result<(), WorkerError> {
        let id = job.id;
        let pair = Pair::of(&job.pos, job.question);
        let w = self.idle.take(pair).ok_or(WorkerError::NoIdle("worker"))?;
        self.solver(w)
            .map_err(|e| WorkerError::Setup(e.to_string()))?;
        let mut r = Running {
            worker: w,
            pair,
            start: self.clock,
            next: self.clock,
            run: None,
            pending: None,
            result: None,
            outbox: Vec::new(),
            path: None,
            pathed: 0,
            steer: false,
            exchanged: 0,
            load: false,
        };
        if self.tick > 0 {
            // Begun by its tick, which loads first what was sent before.
            r.pending = Some(job);
            r.load = true;
            r.steer = true;
        } else {
            // What the other ranks solved and sent out before this moment
            // of virtual time.
            let job = Job {
                solved: self.shared.take_for(self.rank(w)),
                ..job
            };
            self.measured.solved_sent += job.solved.len() as u64;
            let solver = self.solvers[w].as_ref().expect("made above");
            // Its start loads those, and its warm start.
            let since = Instant::now();
            r.run = Some(JobRun::begin(solver, &job, &self.config));
            StepTimes {
                load: since.elapsed(),
                ..StepTimes::default()
            }
            .add_to(&mut self.measured);
            self.queue.push(Reverse((self.clock, id)));
        }
        self.running.insert(id, r);
        self.measured.peak = self.measured.peak.max(self.running.len());
        Ok(())
    }

    fn virtual_time(&self) -> Option<u64> {
        Some(self.reached())
    }

    /// The nodes the running jobs have searched so far, their steps run
    /// ahead of the virtual clock included.
    fn running_nodes(&self) -> Option<u64> {
        Some(
            self.running
                .values()
                .map(|r| match (&r.run, &r.result) {
                    (Some(run), _) => run.nodes(),
                    (None, Some(result)) => result.nodes,
                    (None, None) => 0,
                })
                .sum(),
        )
    }

    /// Taken when the job's result comes back: at that moment of virtual
    /// time.
    fn share(&mut self, solved: &[PnEntry]) {
        self.shared.add(solved);
    }

    fn cancel(&mut self, id: u64) {
        // Stopped now: the worker is free at the current virtual time and
        // the job's answer is not used.
        if self.tick > 0 {
            // At a tick's end: a job whose result is waiting to come back
            // has ended already; one under way sends nothing more.
            if let Some(r) = self
                .running
                .get_mut(&id)
                .filter(|r| r.run.is_some() || r.pending.is_some())
            {
                let table = table_use(&self.solvers, r);
                r.run = None;
                r.pending = None;
                r.outbox.clear();
                r.next = self.clock;
                r.result = Some(JobResult::cancelled(
                    id,
                    (self.clock - r.start) * self.worker_threads as u64,
                    table,
                ));
                self.ready.push(Reverse((self.clock, id)));
            }
            return;
        }
        if let Some(r) = self.running.get_mut(&id) {
            if r.next > self.clock || r.run.is_some() {
                // A step that ended at this moment has sent what it
                // solved; one under way sends nothing.
                let outbox = std::mem::take(&mut r.outbox);
                if r.next <= self.clock {
                    self.shared.add(&outbox);
                }
                r.next = self.clock;
                let table = table_use(&self.solvers, r);
                r.run = None;
                r.result = Some(JobResult::cancelled(
                    id,
                    (self.clock - r.start) * self.worker_threads as u64,
                    table,
                ));
                self.queue.push(Reverse((self.clock, id)));
            }
        }
    }

    /// The next result in virtual time. A zero timeout polls, as it does
    /// with real workers: only a job that ends at the present moment comes
    /// back, so the manager starts new jobs on idle workers before the
    /// clock moves on (draining every running job first would leave the
    /// idle ones waiting for the slowest). Any other timeout moves the
    /// clock to the next job's end, running the steps on the way; a wait
    /// that has run steps for longer than its timeout of wall time comes
    /// back with nothing after its last step, so that the run shows its
    /// progress and heeds a stop or a time limit while sixteen jobs of
    /// millions of nodes take turns (minutes of one core before one ends).
    /// The next wait goes on from the same steps: nothing the manager
    /// knows has changed meanwhile, so it does what it would have done.
    fn wait(&mut self, timeout: Duration) -> Result<Option<JobResult>, WorkerError> {
        if self.tick > 0 {
            return Ok(self.wait_ticked(timeout));
        }
        let since = Instant::now();
        while let Some(&Reverse((at, id))) = self.queue.peek() {
            if timeout.is_zero() && at > self.clock {
                return Ok(None);
            }
            self.queue.pop();
            let current = self.running.get(&id).is_some_and(|r| r.next == at);
            if !current {
                continue;
            }
            if self.running[&id].result.is_none() {
                self.horizon = self.horizon.max(at);
                self.step(id, at);
                if !timeout.is_zero() && since.elapsed() >= timeout {
                    return Ok(None);
                }
                continue;
            }
            let r = self.running.remove(&id).expect("checked above");
            self.paths.remove(r.worker as u64);
            self.clock = at;
            self.measured.work += (at - r.start) * self.worker_threads as u64;
            self.measured.makespan = self.clock;
            self.idle.put(r.worker, r.left_open());
            return Ok(Some(r.result.expect("checked above")));
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prove::log::Answer;
    use crate::prove::worker::JobEnd;
    use crate::rules::{parse_position, Board, Position, Rules};
    use crate::solve::Question;

    #[test]
    fn results_come_back_in_virtual_time_and_cancels_free_workers() {
        let pos = parse_position(
            "pawngame",
            Some(Board::new(6, 6).unwrap()),
            Rules::default(),
        )
        .unwrap();
        let config = WorkerConfig {
            locked_reads: false,
            spread_every: false,
            spread_jobs: false,
            pn_init: crate::solve::PnInit::Guided,
            hash_mb: 1,
            shared_tt: false,
            method: Default::default(),
            warm_entries: 0,
            harvest_plies: 2,
            share_solved: 0,
            share_every: 0,
            share_paths: false,
            share_paths_every: 0,
            threads: 1,
        };
        let mut w = EmulatedWorkers::new(3, config);
        let job = |id, budget| Job {
            id,
            pos: crate::rules::canonical(&pos),
            question: Question::Wins,
            budget,
            warm: None,
            solved: Vec::new(),
        };
        // A long job, then a short one: the short one finishes first.
        w.start(job(1, 5000)).unwrap();
        w.start(job(2, 100)).unwrap();
        w.start(job(3, 3000)).unwrap();
        // Polling at the start: nothing has ended yet.
        assert!(w.wait(Duration::ZERO).unwrap().is_none());
        let next = NEXT;
        let first = w.wait(next).unwrap().unwrap();
        assert_eq!(first.id, 2);
        let t = w.emulation().makespan;
        assert!((100..5000).contains(&t), "{t}");
        // Job 1 cancelled at that moment: it comes back next, cancelled,
        // having cost only the time until the cancel.
        w.cancel(1);
        let second = w.wait(Duration::ZERO).unwrap().unwrap();
        // Job 3 ends later: a poll now finds nothing, and the clock stays.
        assert!(w.wait(Duration::ZERO).unwrap().is_none());
        assert_eq!(w.emulation().makespan, t);
        assert!(second.id == 1 && matches!(second.end, JobEnd::Cancelled));
        let third = w.wait(next).unwrap().unwrap();
        assert_eq!(third.id, 3);
        assert!(w.wait(next).unwrap().is_none());
        let e = w.emulation();
        assert_eq!(e.peak, 3);
        // Work: job 2 whole, job 1 up to t, job 3 whole.
        assert_eq!(e.work, first.nodes + t + third.nodes);
        assert_eq!(e.makespan, third.nodes);
    }

    /// A wait for the next result: far longer than any job here takes, so
    /// that no wait comes back empty while a job runs.
    const NEXT: Duration = Duration::from_secs(3600);

    /// A wait whose timeout passes during its first step comes back with
    /// nothing, and the run goes on from there exactly as it would have:
    /// "does white win the pawn game 6x6?" in steps of 250 nodes beside
    /// a job on 1.c4's refutation, results gathered by waits of a
    /// nanosecond, gives the same answers, nodes, work and makespan as
    /// waits that always reach the next result. Mutant: a wait that gives
    /// up before its first step never ends the run.
    #[test]
    fn a_wait_past_its_timeout_comes_back_and_the_run_goes_on_unchanged() {
        let (start, _) = pawn_game_6x6_and_last_move();
        let c4 = crate::rules::canonical(&start.play(start.parse_move("c4").unwrap()));
        let run = |timeout| {
            let mut w = EmulatedWorkers::new(2, pn_workers(64, 250));
            w.start(whole_job(1, start, Question::Wins)).unwrap();
            w.start(whole_job(2, c4, Question::AvoidsLoss)).unwrap();
            let (mut results, mut empty, mut horizons) = (Vec::new(), 0, Vec::new());
            while w.emulation().running > 0 {
                assert!(empty < 1_000_000, "the run does not go on");
                let before = w.running_nodes();
                match w.wait(timeout).unwrap() {
                    Some(r) => {
                        w.share(&r.solved);
                        results.push((r.id, r.answer(), r.nodes));
                    }
                    None => {
                        // Back after a step: the running jobs searched on,
                        // and the clock's steps went no further than the
                        // makespan the run ends with.
                        empty += 1;
                        assert!(w.running_nodes() > before);
                        horizons.push(w.virtual_time().unwrap());
                    }
                }
            }
            let e = w.emulation();
            assert!(horizons.windows(2).all(|h| h[0] <= h[1]), "{horizons:?}");
            assert!(horizons.iter().all(|&h| h <= e.makespan), "{horizons:?}");
            (results, e.work, e.makespan, e.solved_sent, empty)
        };
        let (results, work, makespan, sent, empty) = run(NEXT);
        assert_eq!(empty, 0);
        assert_eq!(results.len(), 2);
        let (again, work2, makespan2, sent2, empty2) = run(Duration::from_nanos(1));
        assert!(empty2 > 10, "{empty2} waits came back empty");
        assert_eq!(
            (again, work2, makespan2, sent2),
            (results, work, makespan, sent)
        );
    }

    /// The pawn game 6x6 (canonical) and the canonical position after the
    /// move its proof-number search tries last.
    fn pawn_game_6x6_and_last_move() -> (Position, Position) {
        use crate::rules::canonical;
        use crate::solve::order::{attacked_squares, pn_order};
        let start = parse_position(
            "pawngame",
            Some(Board::new(6, 6).unwrap()),
            Rules::default(),
        )
        .unwrap();
        let mut moves = start.legal_moves();
        pn_order(&start, moves.as_mut_slice(), attacked_squares(&start));
        let last = canonical(&start.play(moves[moves.len() - 1]));
        (canonical(&start), last)
    }

    /// Proof-number workers with 1 MiB tables that harvest nothing and
    /// send out `share_solved` entries every `share_every` nodes.
    fn pn_workers(share_solved: usize, share_every: u64) -> WorkerConfig {
        WorkerConfig {
            locked_reads: false,
            spread_every: false,
            spread_jobs: false,
            pn_init: crate::solve::PnInit::Guided,
            hash_mb: 1,
            shared_tt: false,
            method: crate::solve::Method::ProofNumber,
            warm_entries: 0,
            harvest_plies: 0,
            share_solved,
            share_every,
            share_paths: false,
            share_paths_every: 0,
            threads: 1,
        }
    }

    /// A job of no budget to speak of: it runs to its answer.
    fn whole_job(id: u64, pos: Position, question: Question) -> Job {
        Job {
            id,
            pos,
            question,
            budget: 1 << 30,
            warm: None,
            solved: Vec::new(),
        }
    }

    /// A question whose job ran out goes back to the worker that ran it,
    /// whose table holds that search, rather than to the latest idle one:
    /// "does white win the pawn game 6x6?" cut at half its nodes on one
    /// worker, while the other runs out later on the other question, then
    /// asked again with no warm start. Back on its worker it needs less
    /// than three quarters of its nodes alone. Mutant: without affinity
    /// the continuation goes to the other worker (the latest idle).
    #[test]
    fn a_question_left_open_goes_back_to_the_worker_whose_table_holds_it() {
        let (start, _) = pawn_game_6x6_and_last_move();
        let alone = {
            let mut w = EmulatedWorkers::new(1, pn_workers(0, 0));
            w.start(whole_job(1, start, Question::Wins)).unwrap();
            w.wait(NEXT).unwrap().unwrap().nodes
        };
        for affinity in [true, false] {
            let mut w = EmulatedWorkers::new(2, pn_workers(0, 0)).with_affinity(affinity);
            let cut = Job {
                budget: alone / 2,
                ..whole_job(1, start, Question::Wins)
            };
            let other = Job {
                budget: alone,
                ..whole_job(2, start, Question::AvoidsLoss)
            };
            w.start(cut).unwrap();
            w.start(other).unwrap();
            let (ran_it, ran_other) = (w.running[&1].worker, w.running[&2].worker);
            let rs: Vec<JobResult> = std::iter::from_fn(|| w.wait(NEXT).unwrap()).collect();
            // The cut job comes back first, open; the other after it.
            assert_eq!(rs.iter().map(|r| r.id).collect::<Vec<_>>(), [1, 2]);
            assert!(rs[0].end.leaves_open() && rs[1].nodes > rs[0].nodes);
            w.start(whole_job(3, start, Question::Wins)).unwrap();
            let took = w.running[&3].worker;
            let r = w.wait(NEXT).unwrap().unwrap();
            assert!(matches!(r.end, JobEnd::Answered { answer: false, .. }));
            if affinity {
                assert_eq!(took, ran_it, "affinity");
                assert!(
                    r.nodes < alone * 3 / 4,
                    "{} nodes where it ran before, {alone} alone",
                    r.nodes
                );
            } else {
                assert_eq!(took, ran_other, "no affinity: the latest idle");
            }
        }
    }

    /// With --share-every, a running job loads what another worker's job
    /// solved while it ran: "does white win the pawn game 6x6?" (no: every
    /// move must be refuted) beside a job on the refutation of 1.c4 (1,720
    /// nodes alone; the whole's search settles it last, after some 18,000
    /// nodes) takes fewer nodes for the same answer, and without
    /// --share-every (or --share-solved) exactly as many as alone. (The
    /// refutation of the move the search orders last, settled by the whole
    /// after about 3,000 nodes, helped only while the emulation sent a
    /// step's entries out at its start, before they were solved.)
    #[test]
    fn a_running_job_loads_what_another_solved_meanwhile() {
        let (start, _) = pawn_game_6x6_and_last_move();
        let c4 = crate::rules::canonical(&start.play(start.parse_move("c4").unwrap()));
        let run = |share_solved, share_every| {
            let mut w = EmulatedWorkers::new(2, pn_workers(share_solved, share_every));
            w.start(whole_job(1, start, Question::Wins)).unwrap();
            w.start(whole_job(2, c4, Question::AvoidsLoss)).unwrap();
            let mut whole = None;
            while let Some(r) = w.wait(NEXT).unwrap() {
                w.share(&r.solved);
                if r.id == 1 {
                    whole = Some(r);
                }
            }
            let whole = whole.unwrap();
            assert_eq!(whole.answer(), Answer::No, "{share_solved} {share_every}");
            (whole.nodes, w.emulation().solved_sent)
        };
        let (alone, _) = run(0, 0);
        assert_eq!(run(64, 0).0, alone);
        assert_eq!(run(0, 500), (alone, 0));
        let (helped, sent) = run(64, 500);
        assert!(sent > 0);
        assert!(helped < alone, "{helped} nodes, alone {alone}");
    }

    /// What a step solves goes out at the step's end, as a rank sends it
    /// when its step is over: a job started while another's first step
    /// is under way on the virtual clock gets none of that step's
    /// entries, and one started after the step's end gets them. (Sent
    /// when the step was run, at its start, the entries reached the
    /// others up to a step early: sixteen emulated workers on Peasants'
    /// Chess 6x7 did half the work they do now.) Mutant: the step's
    /// entries added to the pool when it runs.
    #[test]
    fn a_steps_entries_go_out_at_its_end() {
        let (start, _) = pawn_game_6x6_and_last_move();
        let step = 2_000;
        // White promotes at once: answered in a node or so.
        let quick = parse_position("6/P5/6/6/5p/6 w -", None, Rules::default()).unwrap();
        let mut w = EmulatedWorkers::new(2, pn_workers(64, step));
        w.start(whole_job(1, start, Question::Wins)).unwrap();
        w.start(whole_job(2, quick, Question::Wins)).unwrap();
        let r = w.wait(NEXT).unwrap().unwrap();
        assert_eq!((r.id, r.answer()), (2, Answer::Yes));
        assert!(r.nodes < step, "{} nodes", r.nodes);
        // Job 1's first step ([0, step) on the clock) has run, its end
        // not come: a job starting now gets nothing of it.
        w.start(whole_job(3, start, Question::AvoidsLoss)).unwrap();
        assert_eq!(w.emulation().solved_sent, 0);
        // Past the end of job 1's first step, worker 1 (job 3's) loads
        // what it sent.
        let mut results = Vec::new();
        while let Some(r) = w.wait(NEXT).unwrap() {
            results.push(r);
        }
        assert_eq!(results.len(), 2);
        assert!(w.emulation().solved_sent > 0);
    }

    /// Emulated workers sharing one table see one another's search: a job
    /// asked again on another worker after the first answered it finds
    /// the answer with a path's worth of nodes, and a job beside another
    /// on one of its children's questions costs fewer nodes than alone;
    /// workers with tables of their own search again in full. Both ways
    /// give the same answers.
    #[test]
    fn workers_sharing_a_table_see_one_anothers_search() {
        let (start, _) = pawn_game_6x6_and_last_move();
        let config = pn_workers(0, 0);
        let job = whole_job;
        let finish = |w: &mut EmulatedWorkers| {
            let mut out = Vec::new();
            while let Some(r) = w.wait(NEXT).unwrap() {
                out.push(r);
            }
            out.sort_by_key(|r| r.id);
            out
        };
        // One job, then the same on another worker (the first is busy
        // with a long job meanwhile).
        let again = |mut w: EmulatedWorkers| {
            w.start(job(1, start, Question::Wins)).unwrap();
            let first = finish(&mut w).remove(0);
            w.start(job(2, start, Question::Wins)).unwrap();
            w.start(job(3, start, Question::Wins)).unwrap();
            let rs = finish(&mut w);
            assert!(rs.iter().all(|r| r.answer() == first.answer()));
            assert_eq!(first.answer(), Answer::No);
            (first.nodes, rs[0].nodes.max(rs[1].nodes))
        };
        let (whole, repeat) = again(EmulatedWorkers::sharing(2, config, 300).unwrap());
        assert!(
            repeat * 20 < whole,
            "{repeat} nodes again, {whole} at first"
        );
        let (whole, repeat) = again(EmulatedWorkers::new(2, config));
        assert!(repeat * 2 > whole, "{repeat} nodes again, {whole} at first");
        // Side by side: the root's question beside the refutation of the
        // move its search tries first.
        let first = {
            use crate::rules::canonical;
            use crate::solve::order::{attacked_squares, pn_order};
            let mut moves = start.legal_moves();
            pn_order(&start, moves.as_mut_slice(), attacked_squares(&start));
            canonical(&start.play(moves[0]))
        };
        let beside = |mut w: EmulatedWorkers| {
            w.start(job(1, start, Question::Wins)).unwrap();
            w.start(job(2, first, Question::AvoidsLoss)).unwrap();
            let rs = finish(&mut w);
            assert_eq!(rs[0].answer(), Answer::No);
            assert_eq!(rs[1].answer(), Answer::Yes);
            rs[0].nodes
        };
        let alone = beside(EmulatedWorkers::new(2, config));
        let helped = beside(EmulatedWorkers::sharing(2, config, 300).unwrap());
        assert!(helped < alone, "{helped} nodes, alone {alone}");
    }

    /// With --share-solved, what one worker proved answers another's job
    /// on the same question without search; without it, that worker
    /// searches.
    #[test]
    fn a_solved_position_sent_out_answers_another_workers_job() {
        crate::prove::worker::check_solved_entries_sent_out(
            |config| EmulatedWorkers::new(2, config),
            |w| w.idle.latest(),
        );
    }

    /// In the coarser model a result comes back at the end of the tick
    /// its job ended in, counted at the moment it ended, and the job the
    /// manager then starts begins at that tick's end: the worker waits
    /// out the rest of the tick, which is idle time, not work. Mutant:
    /// the next job started at the moment the first ended.
    /// A worker of four threads (`--threads 4`) runs its job in turns of
    /// its threads ([`TURN`] nodes) and takes their makespan: "does white
    /// win the pawn game 6x6?" gets one thread's answer, in less time
    /// than its nodes and no less than a quarter of them (less a turn of
    /// each thread, which the answer may cut short), and the threads'
    /// time is four times the time. Mutant: a step's time its nodes (the
    /// makespan of one thread).
    #[test]
    fn a_worker_of_several_threads_takes_its_threads_makespan() {
        let (start, _) = pawn_game_6x6_and_last_move();
        let config = WorkerConfig {
            threads: 4,
            ..pn_workers(0, 0)
        };
        let mut w = EmulatedWorkers::new(1, config);
        w.start(whole_job(1, start, Question::Wins)).unwrap();
        let r = w.wait(NEXT).unwrap().unwrap();
        assert_eq!(r.answer(), Answer::No);
        let e = w.emulation();
        assert_eq!((e.threads, e.cores()), (4, 4));
        assert!(
            e.makespan < r.nodes && (e.makespan + TURN) * 4 >= r.nodes,
            "{} nodes in {}",
            r.nodes,
            e.makespan
        );
        assert_eq!(e.work, 4 * e.makespan);
        assert_eq!(e.idle(), 0.0);
    }

    /// A run stopped with a job in flight (as `--emulate-until` stops one:
    /// emulated workers cannot be interrupted) counts that job's threads'
    /// time up to the stop: of two workers, one whose job ran out at 500
    /// nodes and one busy all along, the pair was busy 1.5 of the 1,000
    /// nodes the clock reached. Mutant: the jobs in flight left out (busy
    /// 1 over the makespan of 500, idle a half; a run of four ranks of
    /// sixty-four threads stopped at its clock reported 28% idle with
    /// every thread busy to the end).
    #[test]
    fn jobs_in_flight_at_a_stop_count_as_busy() {
        let (start, _) = pawn_game_6x6_and_last_move();
        let mut w = EmulatedWorkers::new(2, pn_workers(1, 1_000));
        w.start(whole_job(1, start, Question::Wins)).unwrap();
        w.start(Job {
            budget: 500,
            ..whole_job(2, start, Question::Wins)
        })
        .unwrap();
        let short = w.wait(NEXT).unwrap().unwrap();
        assert_eq!((short.id, short.nodes), (2, 500));
        assert!(short.end.leaves_open());
        // One more step of the long job, then back with nothing: the clock
        // has reached that step's moment.
        assert!(w.wait(Duration::from_nanos(1)).unwrap().is_none());
        let e = w.emulation();
        assert_eq!((e.running, e.work, e.makespan), (1, 500, 500));
        assert_eq!((e.reached, e.in_flight_work), (1_000, 1_000));
        assert_eq!((e.busy(), e.idle()), (1.5, 0.25));
    }

    /// The whole steps of cancelled jobs, counted in the work, make no
    /// thread busier than all the time: sixty-four threads are never
    /// more than sixty-four busy, nor idle less than not at all. Mutant:
    /// busy and idle as work over the makespan alone (64.25 busy, idle
    /// below zero, as a run of four ranks of four workers of four
    /// threads on 6x8-f reported: 350,166,392 nodes of work in
    /// 5,450,000).
    #[test]
    fn cancelled_jobs_steps_busy_no_thread_more_than_all_the_time() {
        let e = Emulation {
            workers: 16,
            threads: 4,
            ranks: 4,
            work: 350_166_392,
            makespan: 5_450_000,
            reached: 5_450_000,
            ..Emulation::default()
        };
        assert_eq!((e.busy(), e.idle()), (64.0, 0.0));
        let less = Emulation {
            work: 64 * 5_000_000,
            ..e
        };
        assert_eq!(less.busy(), 64.0 * 5_000_000.0 / 5_450_000.0);
        assert!((less.idle() - (1.0 - 5_000_000.0 / 5_450_000.0)).abs() < 1e-12);
    }

    #[test]
    fn a_ticked_result_comes_back_at_its_ticks_end_and_the_next_job_starts_there() {
        let (start, _) = pawn_game_6x6_and_last_move();
        let tick = 1_000;
        let mut w = EmulatedWorkers::new(1, pn_workers(0, 0))
            .ticked(tick, 1)
            .unwrap();
        w.start(whole_job(1, start, Question::Wins)).unwrap();
        assert!(w.wait(Duration::ZERO).unwrap().is_none(), "nothing yet");
        let first = w.wait(NEXT).unwrap().unwrap();
        assert_eq!(first.answer(), Answer::No);
        let n1 = first.nodes;
        assert!(!n1.is_multiple_of(tick) && n1 > tick, "{n1} nodes");
        assert_eq!(w.emulation().makespan, n1);
        let end = n1.div_ceil(tick) * tick;
        assert_eq!(w.virtual_time(), Some(end));
        // Asked again on the same table: a path's worth of nodes.
        w.start(whole_job(2, start, Question::Wins)).unwrap();
        let again = w.wait(NEXT).unwrap().unwrap();
        let n2 = again.nodes.max(1);
        assert!(n2 < tick, "{n2} nodes again");
        let e = w.emulation();
        assert_eq!((e.makespan, e.work), (end + n2, n1 + n2));
        assert_eq!(e.idle(), 1.0 - (n1 + n2) as f64 / (end + n2) as f64);
    }

    /// Ranks side by side in a tick see nothing of one another's tick:
    /// with a tick longer than both jobs, "does white win the pawn game
    /// 6x6?" beside the refutation of 1.c4 takes as many nodes as alone,
    /// with ticks of 500 nodes it loads what the other solved and takes
    /// fewer. One thread or two, the same answers, nodes, work, makespan
    /// and entries sent. Mutant: what a job solved added to the pool as
    /// it is taken out, inside the tick, on one thread: the whole, which
    /// runs second, then loads the other's entries of the same tick.
    #[test]
    fn ranks_side_by_side_in_a_tick_see_only_what_came_before_it() {
        let (start, _) = pawn_game_6x6_and_last_move();
        let c4 = crate::rules::canonical(&start.play(start.parse_move("c4").unwrap()));
        let run = |tick, threads| {
            let mut w = EmulatedWorkers::new(2, pn_workers(64, 500))
                .ticked(tick, threads)
                .unwrap();
            // The refutation first: it runs first in every tick.
            w.start(whole_job(1, c4, Question::AvoidsLoss)).unwrap();
            w.start(whole_job(2, start, Question::Wins)).unwrap();
            let mut results = Vec::new();
            while let Some(r) = w.wait(NEXT).unwrap() {
                w.share(&r.solved);
                results.push((r.id, r.answer(), r.nodes));
            }
            results.sort_by_key(|r| r.0);
            let e = w.emulation();
            (results, e.work, e.makespan, e.solved_sent)
        };
        let alone = {
            let mut w = EmulatedWorkers::new(1, pn_workers(0, 0));
            w.start(whole_job(2, start, Question::Wins)).unwrap();
            w.wait(NEXT).unwrap().unwrap().nodes
        };
        let long = run(1 << 30, 1);
        assert_eq!(long.0[1], (2, Answer::No, alone), "{long:?}");
        assert_eq!(run(1 << 30, 2), long);
        let short = run(500, 1);
        assert!(short.3 > 0, "entries were sent");
        assert!(short.0[1].2 < alone, "{short:?}, alone {alone}");
        assert_eq!(run(500, 2), short);
    }

    /// With `--share-paths-every` a rank's job sends its path alone
    /// between its exchanges of entries, and the ranks after its own steer
    /// by it from the next tick: two ranks of one worker in ticks of 500
    /// nodes, paths every 500 and entries every 2,000. After the first
    /// tick the second rank steers clear of the path the first posted at
    /// its end, and the first rank by none; no entry is loaded before the
    /// fifth tick, and from it some are. Mutants: an exchange of the path
    /// alone that does not steer (the second rank steers by none), and one
    /// that carries entries too (entries loaded at the second tick).
    #[test]
    fn paths_alone_go_out_between_the_exchanges_of_entries() {
        let (start, _) = pawn_game_6x6_and_last_move();
        let config = WorkerConfig {
            share_paths: true,
            share_paths_every: 500,
            ..pn_workers(64, 2_000)
        };
        let mut w = EmulatedWorkers::new(2, config).ticked(500, 1).unwrap();
        w.start(whole_job(1, start, Question::Wins)).unwrap();
        w.start(whole_job(2, start, Question::AvoidsLoss)).unwrap();
        let steering = |w: &EmulatedWorkers, worker: usize| match &w.solvers[worker] {
            Some(JobSolver::ProofNumber(s)) => s.steering(),
            _ => panic!("a proof-number worker"),
        };
        w.run_tick();
        let posted = w.paths.ahead_of(1).expect("the first rank's path");
        assert!(!posted.is_empty());
        for tick in 2..=4 {
            w.run_tick();
            assert_eq!(w.emulation().solved_sent, 0, "entries before tick 5");
            if tick == 2 {
                assert_eq!(steering(&w, 1), Some(posted.clone()));
                assert_eq!(steering(&w, 0), None);
            }
            assert_eq!(w.ready.len(), 0, "both jobs run on");
        }
        w.run_tick();
        assert!(w.emulation().solved_sent > 0, "entries at tick 5");
    }

    /// Runs "does white win the pawn game 6x6?" on two workers to their
    /// ends beside the refutation of 1.c4, or with `last` of the move its
    /// search tries last: the answers and nodes of both jobs, the work,
    /// the makespan and the entries sent.
    fn two_jobs(mut w: EmulatedWorkers, last: bool) -> (Vec<(u64, Answer, u64)>, u64, u64, u64) {
        let (start, last_move) = pawn_game_6x6_and_last_move();
        let c4 = crate::rules::canonical(&start.play(start.parse_move("c4").unwrap()));
        let beside = if last { last_move } else { c4 };
        w.start(whole_job(1, start, Question::Wins)).unwrap();
        w.start(whole_job(2, beside, Question::AvoidsLoss)).unwrap();
        let mut results = Vec::new();
        while let Some(r) = w.wait(NEXT).unwrap() {
            w.share(&r.solved);
            results.push((r.id, r.answer(), r.nodes));
        }
        assert_eq!(results.len(), 2);
        results.sort_by_key(|r| r.0);
        let e = w.emulation();
        (results, e.work, e.makespan, e.solved_sent)
    }

    /// Ranks at either end are the two emulations there were: a worker a
    /// rank, in steps as long as its exchanges, does exactly what workers
    /// with tables of their own do (the same answers, nodes, work,
    /// makespan and entries sent), and one rank exactly what workers
    /// sharing one table do, where the job beside helps the whole. And a
    /// rank loads what the others sent only at its exchanges: without
    /// `--share-every`, a job's steps run as if nothing were sent.
    /// Mutants: a rank's workers given tables of their own, or a rank
    /// loading the others' entries at every step, fail it.
    #[test]
    fn ranks_of_one_worker_and_one_rank_of_all_are_the_emulations_there_were() {
        let (step, config) = (500, pn_workers(64, 500));
        let own = two_jobs(EmulatedWorkers::new(2, config), false);
        assert!(own.3 > 0, "entries were sent");
        let ranks = |n, r, config, step| EmulatedWorkers::in_ranks(n, r, config, step).unwrap();
        assert_eq!(two_jobs(ranks(2, 2, config, step), false), own);
        let config = pn_workers(0, 0);
        let shared = two_jobs(EmulatedWorkers::sharing(2, config, 300).unwrap(), true);
        assert_eq!(two_jobs(ranks(2, 1, config, 300), true), shared);
        let apart = two_jobs(ranks(2, 2, config, 300), true);
        assert!(shared.0[0].2 < apart.0[0].2, "{shared:?} {apart:?}");
        // Sent between jobs only: the whole's steps load nothing.
        let between = two_jobs(ranks(2, 2, pn_workers(64, 0), 300), false);
        let nothing = two_jobs(ranks(2, 2, config, 300), false);
        assert!(
            between.3 == 0 && between.0 == nothing.0,
            "{between:?} {nothing:?}"
        );
    }

    /// Four workers in two ranks, nothing sent between them: a job asked
    /// again on the first worker's rank-mate finds the first's answer in
    /// the rank's table with a path's worth of nodes, and on a worker of
    /// the other rank searches again in full. Mutant: each worker on a
    /// table of its own.
    #[test]
    fn a_ranks_workers_share_its_table_and_ranks_do_not() {
        let (start, _) = pawn_game_6x6_and_last_move();
        let mut w = EmulatedWorkers::in_ranks(4, 2, pn_workers(0, 0), 300).unwrap();
        let job = |id| whole_job(id, start, Question::Wins);
        // Worker 0 (rank 0) first; then workers 0 and 1 (rank 0) and 2
        // (rank 1) on the same question.
        w.start(job(1)).unwrap();
        let first = w.wait(NEXT).unwrap().unwrap();
        assert_eq!(first.answer(), Answer::No);
        for id in 2..=4 {
            w.start(job(id)).unwrap();
        }
        let mut rs = Vec::new();
        while let Some(r) = w.wait(NEXT).unwrap() {
            assert_eq!(r.answer(), Answer::No);
            rs.push((r.id, r.nodes));
        }
        rs.sort();
        let [(2, again), (3, mate), (4, other)] = rs[..] else {
            panic!("{rs:?}")
        };
        assert!(
            again * 20 < first.nodes,
            "{again} nodes again, {} at first",
            first.nodes
        );
        assert!(mate * 20 < first.nodes, "{mate} nodes on the rank-mate");
        assert!(other * 2 > first.nodes, "{other} nodes on the other rank");
    }

    /// With --share-solved, what one rank proved answers another rank's
    /// job on the same question without search; without it, that rank
    /// searches.
    #[test]
    fn a_solved_position_sent_out_answers_another_ranks_job() {
        crate::prove::worker::check_solved_entries_sent_out(
            |config| EmulatedWorkers::in_ranks(2, 2, config, 1000).unwrap(),
            |w| w.idle.latest(),
        );
    }
}
