//! MPI ranks as workers (cargo feature `mpi`): under `mpirun -np N` or
//! Slurm's `srun`, rank 0 runs the manager and ranks 1..N answer jobs, each
//! with its own solver (own transposition table, own table cache).
//!
//! Messages are short texts (tab-separated): rank 0 sends a job (tag
//! [`TAG_JOB`]: id, game, position, question, budget), a cancel ([`TAG_CANCEL`]:
//! id), an interruption at the end of a run ([`TAG_INTERRUPT`]: id) or the
//! end ([`TAG_QUIT`]); a worker answers with a result ([`TAG_RESULT`]: the
//! text of [`JobResult::to_text`]), and to the end with its last message
//! ([`TAG_LEFT`]). A job or a
//! result with a warm start (proof-number workers, see
//! [`crate::prove::warm`]) carries it after the text and a NUL byte, in
//! the checksummed form of the warm-start files, checked against the
//! job's game and question. With `--share-solved`, a worker sends the
//! solved entries of its finished job ([`TAG_SOLVED`]) before the result,
//! and rank 0 sends each worker the ones it has not had yet
//! ([`TAG_SHARE`]) before its next job, both in that checksummed form.
//! With `--share-every` as well, a rank's job stops every that many nodes
//! to send what it solved so far ([`TAG_EXCHANGE`]), and rank 0 answers
//! at once with the entries new to that rank ([`TAG_EXCHANGED`]), which
//! the job loads before it goes on. Both name the job and carry a search
//! path ([`warm::encode_exchange`]): the job's own (where its search was
//! when it stopped), and in the answer the paths of the jobs of the ranks
//! before it, which its search then steers clear of (without
//! `--no-share-paths`, [`PathBoard`]); with `--share-paths-every` a job
//! also sends its path alone between those exchanges, and rank 0 answers
//! with the paths alone.
//!
//! With `--workers W` every worker rank runs W jobs at once, one a
//! thread, on one transposition table of W times `--hash-mb` (as the
//! local workers of one process share theirs): one rank a machine, its
//! cores on one table. Rank 0 counts W workers a rank, sends a rank up to
//! W jobs, and keeps the solved entries by rank, so a rank's table loads
//! each once. Messages name their jobs, so a rank's jobs cancel, end and
//! exchange apart; a rank's exchanges are answered in the order they came,
//! which is the order MPI delivers the answers in.
//! A worker rank runs its jobs on threads of their own and keeps
//! listening, so a cancel stops a job made unnecessary; only the main
//! thread calls MPI.

use crate::prove::idle::IdleWorkers;
use crate::prove::log::{parse_variant_tag, variant_tag};
use crate::prove::pair::Pair;
use crate::prove::warm;
use crate::prove::worker::{
    run_job_exchanging, Job, JobResult, JobSolver, PathBoard, SolvedPool, WorkerConfig,
    WorkerError, WorkerTt, Workers,
};
use crate::rules::{Position, Variant};
use crate::solve::{KeySet, PnEntry, Question};
use crate::table::Tablebase;
use mpi::topology::{Communicator, Rank, SimpleCommunicator};
use mpi::traits::*;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Message tag: a job, from rank 0 to a worker rank.
pub const TAG_JOB: i32 = 1;
/// Message tag: cancel the job in flight, from rank 0.
pub const TAG_CANCEL: i32 = 2;
/// Message tag: a job's result, from a worker rank to rank 0.
pub const TAG_RESULT: i32 = 3;
/// Message tag: no more jobs, from rank 0.
pub const TAG_QUIT: i32 = 4;
/// Message tag: stop the job in flight because the run ends (it comes
/// back `open`, interrupted, with its warm start), from rank 0.
pub const TAG_INTERRUPT: i32 = 5;

/// Message tag: solved transposition-table entries other ranks sent out
/// ([`crate::prove::worker::SolvedPool`]), from rank 0 to a worker rank
/// before its next job.
pub const TAG_SHARE: i32 = 6;
/// Message tag: the solved entries of a finished job
/// ([`JobResult::solved`]), from a worker rank to rank 0 before the job's
/// result.
pub const TAG_SOLVED: i32 = 7;
/// Message tag: the solved entries of a running job between two steps of
/// its search (`--share-every`), from a worker rank to rank 0, which
/// answers with [`TAG_SHARE`] (possibly empty) at once.
pub const TAG_EXCHANGE: i32 = 8;
/// Message tag: a worker rank's last message, sent when it has read
/// [`TAG_QUIT`] and will send nothing more, to rank 0.
pub const TAG_LEFT: i32 = 9;
/// Message tag: rank 0's answer to a [`TAG_EXCHANGE`], the solved entries
/// new to that rank (possibly none), to the worker rank.
pub const TAG_EXCHANGED: i32 = 10;

/// How long rank 0, at the end, waits for every worker rank to leave
/// (a rank stops its job as soon as it reads [`TAG_QUIT`]).
const QUIT_WAIT: Duration = Duration::from_secs(60);

/// A message: `text`, and after a NUL byte the warm start of the pair
/// (`pos`, `question`), if any.
fn with_warm(
    text: String,
    pos: &Position,
    question: Question,
    warm: Option<&[PnEntry]>,
) -> Vec<u8> {
    let mut bytes = text.into_bytes();
    if let Some(warm) = warm {
        bytes.push(0);
        let pair = Pair::of(pos, question);
        bytes.extend(warm::encode(pos.variant(), pair, warm));
    }
    bytes
}

/// The text of a message and its warm start for the pair (`pos`,
/// `question`); `None` if the warm start is damaged or of another pair.
fn split_warm(
    bytes: &[u8],
    pair: impl FnOnce(&str) -> Option<(Position, Question)>,
) -> Option<(&str, Option<Vec<PnEntry>>)> {
    let (text, warm) = match bytes.iter().position(|&b| b == 0) {
        Some(i) => (&bytes[..i], Some(&bytes[i + 1..])),
        None => (bytes, None),
    };
    let text = std::str::from_utf8(text).ok()?;
    let Some(warm) = warm else {
        return Some((text, None));
    };
    let (pos, question) = pair(text)?;
    let (found, entries) = warm::decode(pos.variant(), warm).ok()?;
    if found != Pair::of(&pos, question) {
        return None;
    }
    Some((text, Some(entries)))
}

/// Whether this process was started by an MPI launcher (mpirun, srun).
pub fn launched() -> bool {
    [
        "OMPI_COMM_WORLD_SIZE",
        "PMI_SIZE",
        "PMIX_RANK",
        "MPI_LOCALNRANKS",
    ]
    .iter()
    .any(|v| std::env::var_os(v).is_some())
}

/// Starts MPI; `None` if it cannot be started.
pub fn init() -> Option<mpi::environment::Universe> {
    mpi::initialize_with_threading(mpi::Threading::Funneled).map(|(u, _)| u)
}

/// The ranks 1.. of `world` as workers of rank 0, each rank `per_rank`
/// workers.
pub struct MpiWorkers {
    world: SimpleCommunicator,
    /// A rank once for each job it can take now, with the pair its last
    /// job there left open: a job goes back to the rank whose table holds
    /// the search of its pair ([`IdleWorkers`]).
    idle: IdleWorkers<Rank>,
    /// Running jobs: their rank and pair (to check a result's warm start).
    running: HashMap<u64, (Rank, Position, Question)>,
    /// Worker ranks times the jobs each runs at once.
    workers: usize,
    /// The game of the jobs (set by the first).
    variant: Option<Variant>,
    /// What finished jobs solved, and how much of it each rank was sent
    /// (by rank).
    solved: SolvedPool,
    /// Solved entries each rank sent before its result (by rank).
    arrived: Vec<Vec<PnEntry>>,
    /// Where each running job's search was at its last exchange
    /// (without `--no-share-paths`), by job.
    paths: PathBoard,
}

impl MpiWorkers {
    /// Every rank of `world` but 0 (this one, the manager), idle, each
    /// running up to `per_rank` jobs at once (at least one; the worker
    /// ranks run [`worker_loop`] with the same number). The first rank's
    /// workers get jobs first, as [`crate::prove::EmulatedWorkers::in_ranks`]
    /// hands them out.
    pub fn new(world: SimpleCommunicator, per_rank: usize) -> MpiWorkers {
        let size = world.size();
        let per_rank = per_rank.max(1);
        MpiWorkers {
            world,
            idle: IdleWorkers::new(
                (1..size)
                    .rev()
                    .flat_map(|r| std::iter::repeat_n(r, per_rank)),
                true,
            ),
            running: HashMap::new(),
            workers: (size - 1).max(0) as usize * per_rank,
            variant: None,
            solved: SolvedPool::new(size.max(1) as usize),
            arrived: vec![Vec::new(); size.max(1) as usize],
            paths: PathBoard::new(),
        }
    }

    /// The same ranks, a job going back to the rank whose job left its
    /// question open (the default) or to the latest idle
    /// (`prove --no-affinity`).
    pub fn with_affinity(mut self, affinity: bool) -> MpiWorkers {
        self.idle.set_affinity(affinity);
        self
    }

    /// A message of `tag` from any worker rank, if one has come: its
    /// bytes and its sender.
    fn receive(&self, tag: i32) -> Option<(Vec<u8>, Rank)> {
        let probed = self
            .world
            .any_process()
            .immediate_matched_probe_with_tag(tag)?;
        let (bytes, status) = probed.matched_receive_vec::<u8>();
        Some((bytes, status.source_rank()))
    }
}

fn question_code(q: Question) -> &'static str {
    match q {
        Question::Wins => "w",
        Question::AvoidsLoss => "a",
    }
}

impl Workers for MpiWorkers {
    fn count(&self) -> usize {
        self.workers
    }

    fn start(&mut self, job: Job) -> Result<(), WorkerError> {
        let pair = Pair::of(&job.pos, job.question);
        let rank = self.idle.take(pair).ok_or(WorkerError::NoIdle("rank"))?;
        let text = format!(
            "{}\t{}\t{}\t{}\t{}",
            job.id,
            variant_tag(job.pos.variant()),
            job.pos,
            question_code(job.question),
            job.budget
        );
        self.variant = Some(job.pos.variant());
        let new = self.solved.take_for(rank as usize);
        if !new.is_empty() {
            let bytes = warm::encode_solved(job.pos.variant(), &new);
            self.world
                .process_at_rank(rank)
                .send_with_tag(&bytes[..], TAG_SHARE);
        }
        let bytes = with_warm(text, &job.pos, job.question, job.warm.as_deref());
        self.world
            .process_at_rank(rank)
            .send_with_tag(&bytes[..], TAG_JOB);
        self.running.insert(job.id, (rank, job.pos, job.question));
        Ok(())
    }

    fn share(&mut self, solved: &[PnEntry]) {
        self.solved.add(solved);
    }

    fn cancel(&mut self, id: u64) {
        if let Some(&(rank, _, _)) = self.running.get(&id) {
            self.world
                .process_at_rank(rank)
                .send_with_tag(id.to_string().as_bytes(), TAG_CANCEL);
        }
    }

    fn interrupt(&mut self) -> bool {
        for (&id, &(rank, _, _)) in &self.running {
            self.world
                .process_at_rank(rank)
                .send_with_tag(id.to_string().as_bytes(), TAG_INTERRUPT);
        }
        true
    }

    fn wait(&mut self, timeout: Duration) -> Result<Option<JobResult>, WorkerError> {
        let end = Instant::now() + timeout;
        loop {
            // Solved entries first: a rank sends them before its result.
            while let Some((bytes, rank)) = self.receive(TAG_SOLVED) {
                let garbled = || WorkerError::GarbledResult(rank);
                let variant = self.variant.ok_or_else(garbled)?;
                let entries = warm::decode_solved(variant, &bytes).ok_or_else(garbled)?;
                self.arrived[rank as usize].extend(entries);
            }
            // A running job's entries and path, answered at once with the
            // entries new to its rank and the paths of the ranks before
            // it: the job waits for them. Its path alone
            // (--share-paths-every) is answered with the paths alone.
            while let Some((bytes, rank)) = self.receive(TAG_EXCHANGE) {
                let garbled = || WorkerError::GarbledResult(rank);
                let variant = self.variant.ok_or_else(garbled)?;
                let (id, entries, path) =
                    warm::decode_exchange(variant, &bytes).ok_or_else(garbled)?;
                let new = entries.map(|entries| self.solved.exchange(rank as usize, &entries));
                let clear_of: Vec<u128> = if self.running.contains_key(&id) {
                    self.paths.post(id, rank as usize, path);
                    self.paths
                        .ahead_of(rank as usize)
                        .map_or_else(Vec::new, |k| k.iter().copied().collect())
                } else {
                    Vec::new()
                };
                let bytes = warm::encode_exchange(variant, id, new.as_deref(), &clear_of);
                self.world
                    .process_at_rank(rank)
                    .send_with_tag(&bytes[..], TAG_EXCHANGED);
            }
            if let Some((bytes, rank)) = self.receive(TAG_RESULT) {
                let garbled = || WorkerError::GarbledResult(rank);
                let running = &self.running;
                // The running job a result names (its first field).
                let job_of = |text: &str| {
                    let id: u64 = text.split('\t').next()?.parse().ok()?;
                    let &(_, pos, question) = running.get(&id)?;
                    Some((pos, question))
                };
                let (text, warm) = split_warm(&bytes, job_of).ok_or_else(garbled)?;
                let (pos, question) = job_of(text).ok_or_else(garbled)?;
                let mut r = JobResult::from_text(text.as_bytes(), pos.variant())
                    .ok_or_else(garbled)?
                    .with_warm(warm);
                r.solved = std::mem::take(&mut self.arrived[rank as usize]);
                self.running.remove(&r.id);
                self.paths.remove(r.id);
                let left_open = r.end.leaves_open().then(|| Pair::of(&pos, question));
                self.idle.put(rank, left_open);
                return Ok(Some(r));
            }
            if Instant::now() >= end {
                return Ok(None);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

impl Drop for MpiWorkers {
    /// Tells every rank to quit, then reads (and drops) whatever they still
    /// send until each has left: a rank whose job ended as the run did may
    /// be inside a send of its solved entries or its result, which waits
    /// for rank 0 to receive it, and would never read the quit (nor end,
    /// and MPI's finalize waits for every rank).
    fn drop(&mut self) {
        let ranks = self.world.size();
        for rank in 1..ranks {
            self.world
                .process_at_rank(rank)
                .send_with_tag(&b""[..], TAG_QUIT);
        }
        // Rank 0, the manager, has nothing to leave.
        let mut left: Vec<bool> = (0..ranks).map(|r| r == 0).collect();
        let end = Instant::now() + QUIT_WAIT;
        while left.contains(&false) && Instant::now() < end {
            match self.world.any_process().immediate_matched_probe() {
                Some(probed) => {
                    let (_, status) = probed.matched_receive_vec::<u8>();
                    if status.tag() == TAG_LEFT {
                        if let Some(l) = left.get_mut(status.source_rank() as usize) {
                            *l = true;
                        }
                    }
                }
                None => std::thread::sleep(Duration::from_millis(1)),
            }
        }
        let waiting = left.iter().filter(|&&l| !l).count();
        if waiting > 0 {
            eprintln!("peasant: {waiting} MPI ranks did not leave within {QUIT_WAIT:?}");
        }
    }
}

/// A job's text without its warm start.
fn parse_job_text(text: &str) -> Option<Job> {
    let f: Vec<&str> = text.split('\t').collect();
    if f.len() != 5 {
        return None;
    }
    let variant = parse_variant_tag(f[1])?;
    let setup = crate::rules::notation::parse(f[2]).ok()?;
    Some(Job {
        id: f[0].parse().ok()?,
        pos: Position::from_setup(&setup, variant).ok()?,
        question: match f[3] {
            "w" => Question::Wins,
            "a" => Question::AvoidsLoss,
            _ => return None,
        },
        budget: f[4].parse().ok()?,
        warm: None,
        solved: Vec::new(),
    })
}

/// A job as [`MpiWorkers`] sent it, with its warm start.
fn parse_job(bytes: &[u8]) -> Option<Job> {
    let (text, warm) = split_warm(bytes, |text| {
        let job = parse_job_text(text)?;
        Some((job.pos, job.question))
    })?;
    let mut job = parse_job_text(text)?;
    job.warm = warm.map(Into::into);
    Some(job)
}

/// The loop of a worker rank: answers rank 0's jobs until told to quit,
/// up to `per_rank` at once (rank 0's [`MpiWorkers::new`] is given the
/// same number), on one transposition table of `per_rank` times
/// `config.hash_mb` when there are several.
/// [`WorkerError::Setup`] if its solvers cannot be made (the caller ends
/// every rank: the proof cannot run), [`WorkerError::GarbledJob`] if rank
/// 0 sends a job that does not read as one (this rank stops answering).
pub fn worker_loop(
    world: &SimpleCommunicator,
    config: WorkerConfig,
    per_rank: usize,
    tables: Option<&Tablebase>,
) -> Result<(), WorkerError> {
    // A rank's table is its own: its `open` jobs hand on warm starts.
    let config = WorkerConfig {
        shared_tt: false,
        ..config
    };
    let setup = |e: crate::solve::SolveError| WorkerError::Setup(e.to_string());
    let per_rank = per_rank.max(1);
    let table = match per_rank {
        1 => None,
        n => Some(WorkerTt::new(config, n).map_err(setup)?),
    };
    let solvers = (0..per_rank)
        .map(|_| JobSolver::new(config, tables, table.as_ref()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(setup)?;
    let manager = world.process_at_rank(0);
    let done = answer_jobs(&manager, &solvers, &config);
    // Rank 0 reads what this rank sends until it has left.
    manager.send_with_tag(&b""[..], TAG_LEFT);
    done
}

/// A job running on one of a worker rank's solvers.
struct Slot<'scope> {
    id: u64,
    stop: Arc<AtomicBool>,
    interrupted: Arc<AtomicBool>,
    /// Where the answers to its exchanges go.
    answers: std::sync::mpsc::Sender<(Option<Vec<PnEntry>>, Vec<u128>)>,
    handle: std::thread::ScopedJoinHandle<'scope, JobResult>,
    pos: Position,
    question: Question,
}

/// A message from rank 0 (its bytes and tag), if one has come.
fn receive_from(manager: &mpi::topology::Process<'_>) -> Option<(Vec<u8>, i32)> {
    let probed = manager.immediate_matched_probe()?;
    let (bytes, status) = probed.matched_receive_vec::<u8>();
    Some((bytes, status.tag()))
}

/// Sends `bytes` with `tag` to rank 0 and keeps receiving while the send
/// is under way, into `inbox`, to be handled after. A rank running
/// several jobs may be sending one job's result while rank 0 sends it
/// the next job or an exchange's answer: a send of many bytes waits for
/// its receiver, so two such blocking sends would wait for each other
/// for ever.
fn send_receiving(
    manager: &mpi::topology::Process<'_>,
    bytes: &[u8],
    tag: i32,
    inbox: &mut VecDeque<(Vec<u8>, i32)>,
) {
    mpi::request::scope(|scope| {
        let mut request = manager.immediate_send_with_tag(scope, bytes, tag);
        loop {
            match request.test() {
                Ok(_) => break,
                Err(pending) => request = pending,
            }
            match receive_from(manager) {
                Some(message) => inbox.push_back(message),
                None => std::thread::sleep(Duration::from_micros(100)),
            }
        }
    });
}

/// [`worker_loop`]'s jobs, until rank 0 says quit (`Ok`) or sends what
/// does not read as a job, a share or an exchange's answer. Each job runs
/// on a thread of its own with a free solver of `solvers`; this thread
/// alone calls MPI: it passes the jobs' exchanges on to rank 0 and rank
/// 0's answers back (in the order they were asked), stops the jobs rank 0
/// cancels or interrupts, and sends each finished job's solved entries
/// and result.
fn answer_jobs(
    manager: &mpi::topology::Process<'_>,
    solvers: &[JobSolver],
    config: &WorkerConfig,
) -> Result<(), WorkerError> {
    use std::sync::mpsc::{channel, Sender};
    let mut shares: Vec<Vec<u8>> = Vec::new();
    // What rank 0 sent while this rank was sending.
    let mut inbox = VecDeque::new();
    // The jobs' exchanges: the solver's number, its entries (none with its
    // path alone) and its path.
    let (ask_tx, ask_rx) = channel::<(usize, Option<Vec<PnEntry>>, Vec<u128>)>();
    std::thread::scope(|scope| {
        let mut slots: Vec<Option<Slot>> = solvers.iter().map(|_| None).collect();
        // The solvers whose exchanges rank 0 has not answered yet, in
        // the order they were sent.
        let mut asked: VecDeque<usize> = VecDeque::new();
        let mut quit = false;
        let mut garbled = false;
        // The quit, or what does not read: every job stops, and those
        // waiting for an exchange's answer get nothing and go on to their
        // stop (an answer rank 0 still sends finds none waiting).
        let give_up = |slots: &[Option<Slot>], asked: &mut VecDeque<usize>| {
            for s in slots.iter().flatten() {
                s.stop.store(true, Ordering::SeqCst);
            }
            for i in asked.drain(..) {
                if let Some(s) = &slots[i] {
                    let _ = s.answers.send((None, Vec::new()));
                }
            }
        };
        loop {
            let mut idle = true;
            // Finished jobs: their solved entries, then their results.
            for slot in slots.iter_mut() {
                if !slot.as_ref().is_some_and(|s| s.handle.is_finished()) {
                    continue;
                }
                idle = false;
                let s = slot.take().expect("a finished job");
                let result = s.handle.join().expect("a job thread");
                if quit || garbled {
                    continue;
                }
                if !result.solved.is_empty() {
                    let bytes = warm::encode_solved(s.pos.variant(), &result.solved);
                    send_receiving(manager, &bytes, TAG_SOLVED, &mut inbox);
                }
                let bytes = with_warm(result.to_text(), &s.pos, s.question, result.end.warm());
                send_receiving(manager, &bytes, TAG_RESULT, &mut inbox);
            }
            if (quit || garbled) && slots.iter().all(Option::is_none) {
                break;
            }
            // The jobs' exchanges, on to rank 0 (after the quit, or with
            // rank 0's answers garbled, answered here with nothing).
            while let Ok((i, mine, path)) = ask_rx.try_recv() {
                idle = false;
                let Some(s) = &slots[i] else { continue };
                if quit || garbled {
                    let _ = s.answers.send((None, Vec::new()));
                    continue;
                }
                let bytes = warm::encode_exchange(s.pos.variant(), s.id, mine.as_deref(), &path);
                asked.push_back(i);
                send_receiving(manager, &bytes, TAG_EXCHANGE, &mut inbox);
            }
            let Some((bytes, tag)) = inbox.pop_front().or_else(|| receive_from(manager)) else {
                if idle {
                    std::thread::sleep(Duration::from_millis(1));
                }
                continue;
            };
            match tag {
                TAG_QUIT => {
                    quit = true;
                    give_up(&slots, &mut asked);
                }
                TAG_SHARE => {
                    // Before a job: what the other ranks solved, read with
                    // the job's game.
                    shares.push(bytes);
                }
                TAG_EXCHANGED => {
                    // Rank 0's answer to the oldest exchange not answered.
                    let Some(i) = asked.pop_front() else {
                        continue;
                    };
                    let Some(s) = &slots[i] else { continue };
                    let answer = match warm::decode_exchange(s.pos.variant(), &bytes) {
                        Some((id, new, clear_of)) if id == s.id => (new, clear_of),
                        _ => {
                            garbled = true;
                            (None, Vec::new())
                        }
                    };
                    let _ = s.answers.send(answer);
                    if garbled {
                        give_up(&slots, &mut asked);
                    }
                }
                // For one of this rank's jobs, or one that already finished.
                TAG_CANCEL | TAG_INTERRUPT => {
                    let id: Option<u64> = std::str::from_utf8(&bytes)
                        .ok()
                        .and_then(|s| s.parse().ok());
                    if let Some(s) = slots.iter().flatten().find(|s| Some(s.id) == id) {
                        if tag == TAG_INTERRUPT {
                            s.interrupted.store(true, Ordering::SeqCst);
                        }
                        s.stop.store(true, Ordering::SeqCst);
                    }
                }
                TAG_JOB if !quit && !garbled => {
                    let Some(mut job) = parse_job(&bytes) else {
                        garbled = true;
                        give_up(&slots, &mut asked);
                        continue;
                    };
                    for share in shares.drain(..) {
                        match warm::decode_solved(job.pos.variant(), &share) {
                            Some(entries) => job.solved.extend(entries),
                            None => garbled = true,
                        }
                    }
                    let free = slots.iter().position(Option::is_none);
                    let (false, Some(i)) = (garbled, free) else {
                        // Damaged shares, or more jobs than this rank runs
                        // at once: rank 0 and this rank disagree.
                        garbled = true;
                        give_up(&slots, &mut asked);
                        continue;
                    };
                    let solver = &solvers[i];
                    let stop = solver.stop_flag();
                    stop.store(false, Ordering::SeqCst);
                    let interrupted = Arc::new(AtomicBool::new(false));
                    let (answers, answers_rx) = channel::<(Option<Vec<PnEntry>>, Vec<u128>)>();
                    let ask: Sender<(usize, Option<Vec<PnEntry>>, Vec<u128>)> = ask_tx.clone();
                    let (pos, question, id) = (job.pos, job.question, job.id);
                    let (flag, int) = (Arc::clone(&stop), Arc::clone(&interrupted));
                    let handle = scope.spawn(move || {
                        // Between the steps of the job (--share-every): its
                        // solved entries (and without --no-share-paths where its
                        // search is) to the main thread, which sends them
                        // to rank 0 and passes the answer back: the other
                        // ranks' entries, and the paths to steer clear of.
                        // Between those (--share-paths-every), its path
                        // alone, answered with the paths alone.
                        let mut exchange = |s: &crate::solve::PnSolver, entries: bool| {
                            let mine = entries.then(|| s.take_recent_solved(config.share_solved));
                            let path = if config.share_paths {
                                s.stopped_path()
                            } else {
                                Vec::new()
                            };
                            if ask.send((i, mine, path)).is_ok() {
                                if let Ok((new, clear_of)) = answers_rx.recv() {
                                    s.load_entries(new.as_deref().unwrap_or_default());
                                    if config.share_paths {
                                        let keys: KeySet = clear_of.into_iter().collect();
                                        s.steer_clear_of(Some(Arc::new(keys)));
                                    }
                                }
                            }
                        };
                        run_job_exchanging(solver, &flag, &int, &job, config, &mut exchange)
                    });
                    slots[i] = Some(Slot {
                        id,
                        stop,
                        interrupted,
                        answers,
                        handle,
                        pos,
                        question,
                    });
                }
                _ => {}
            }
        }
        if garbled && !quit {
            Err(WorkerError::GarbledJob)
        } else {
            Ok(())
        }
    })
}
