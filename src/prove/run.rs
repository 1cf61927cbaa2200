//! One `prove` run: the manager's loop over a pool of workers, with the
//! log written as jobs finish, an orderly stop, and what it does told
//! through [`RunEvent`]s (which the command line prints on stderr).

use crate::prove::log::{question_text, LogError, LogWriter};
use crate::prove::manager::{wdl_text, Contradiction, Manager};
use crate::prove::pair::Pair;
use crate::prove::warm::WarmStore;
use crate::prove::worker::{JobEnd, JobResult, WorkerError, Workers};
use crate::rules::Wdl;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use thiserror::Error;

/// Why a run could not go on.
#[derive(Debug, Error)]
pub enum RunError {
    #[error(transparent)]
    /// The log could not be written.
    Log(#[from] LogError),
    #[error("worker: {0}")]
    /// A worker, or the pool of workers, failed.
    Worker(#[from] WorkerError),
    #[error("no job left to run but the proof is not complete (a manager bug)")]
    /// The manager has no job to give but the proof is not complete.
    Stuck,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Every goal has its value.
    Complete,
    /// Stopped by `stop` (Ctrl-C): the jobs in flight were cancelled.
    Stopped,
    /// The run's job limit was reached.
    JobLimit,
    /// The run's time limit was reached: the jobs in flight were lost.
    TimeLimit,
    /// The run started no job after [`RunOptions::drain_after`] and ended
    /// once the jobs in flight were back, each at its answer or its budget.
    Drained,
    /// The virtual clock of emulated workers reached
    /// [`RunOptions::max_virtual`] before the proof was complete.
    VirtualLimit,
    /// The log's name was given to another file, or removed, under the
    /// run ([`LogWriter::diverted`]): the run stopped as on [`RunEnd::Stopped`],
    /// its lines, the last ones included, in a proof directory of their own.
    LogDiverted,
}

/// Options of a run.
pub struct RunOptions<'a> {
    /// Set from elsewhere (a signal handler) to stop the run.
    pub stop: &'a AtomicBool,
    /// Send [`RunEvent::Progress`] this often (`None`: never).
    pub progress: Option<Duration>,
    /// Stop after this many jobs of this run (for tests and bounded runs).
    pub max_jobs: Option<u64>,
    /// Stop once the run has lasted this long.
    pub max_time: Option<Duration>,
    /// Start no job once the run has lasted this long, and end when the
    /// jobs in flight are back: none is cut short, so none has to be asked
    /// again from the start by a run on another machine, which has neither
    /// its transposition table nor its warm start.
    pub drain_after: Option<Duration>,
    /// On a virtual clock ([`Workers::virtual_time`]): stop once it has
    /// reached this many nodes. A proof not complete by then has a
    /// makespan past it, whatever the machine that runs the emulation, so
    /// its workers are at most one solve's nodes over this as fast as one
    /// solve: the question "are N workers K times as fast?" is settled by
    /// an emulation stopped at one solve's nodes over K.
    pub max_virtual: Option<u64>,
    /// Where the warm starts of `open` proof-number jobs are kept (see
    /// [`crate::prove::WarmStore`]); `None`: nowhere but in memory.
    pub warm: Option<&'a WarmStore>,
    /// Send [`RunEvent::JobStarts`] when a job whose budget is at least
    /// this many nodes starts, and [`RunEvent::JobEnds`] when it ends
    /// (`None`: never). Long proofs run jobs for hours: these say what
    /// each worker is busy with.
    pub announce: Option<u64>,
}

/// What a run reports while it runs. Each event's text (its `Display`) is
/// the line the command line prints on stderr.
#[derive(Debug)]
pub enum RunEvent<'a> {
    /// Every [`RunOptions::progress`]: how far the run is.
    Progress(Progress),
    /// An announced job ([`RunOptions::announce`]) starts.
    JobStarts {
        /// The job's number.
        id: u64,
        /// Its line and question ([`Manager::job_text`]).
        text: &'a str,
        /// Its node budget.
        budget: u64,
        /// The entries of the warm start it loads, if any.
        warm: Option<usize>,
    },
    /// An announced job ends.
    JobEnds {
        /// Its line and question, as when it started.
        text: &'a str,
        /// What it found.
        result: &'a JobResult,
    },
    /// Two answers to one question about one position disagree: the
    /// second is not used (a log line or a worker is wrong).
    Contradiction(&'a Contradiction),
}

impl fmt::Display for RunEvent<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            RunEvent::Progress(p) => p.fmt(f),
            RunEvent::JobStarts {
                id,
                text,
                budget,
                warm,
            } => {
                write!(f, "prove: job {id} starts: {text}, budget {budget} nodes")?;
                match warm {
                    Some(w) => write!(f, ", warm start of {w} entries"),
                    None => Ok(()),
                }
            }
            RunEvent::JobEnds { text, result: r } => {
                let answer = match r.end {
                    JobEnd::Cancelled => "cancelled (no longer needed)",
                    JobEnd::Interrupted { .. } => "open (the run ends)",
                    _ => r.answer().text(),
                };
                write!(
                    f,
                    "prove: job {} ends: {text} {answer}, {} nodes, {:.0} s",
                    r.id, r.nodes, r.seconds
                )
            }
            RunEvent::Contradiction(c) => write!(
                f,
                "peasant: contradiction at {} ({}): {} and {}",
                c.pos,
                question_text(c.question),
                c.first,
                c.second
            ),
        }
    }
}

/// How far a run is: its [`RunEvent::Progress`].
#[derive(Clone, Debug)]
pub struct Progress {
    /// Seconds since the run began.
    pub seconds: f64,
    /// Jobs finished (this run's and the log's).
    pub jobs: u64,
    /// Nodes those jobs searched.
    pub nodes: u64,
    /// Jobs running now.
    pub running: usize,
    /// Nodes the running jobs have searched so far, where the workers can
    /// tell.
    pub running_nodes: Option<u64>,
    /// Jobs cancelled as no longer needed.
    pub cancelled: u64,
    /// Nodes those cancelled jobs had searched.
    pub cancelled_nodes: u64,
    /// Answers taken from jobs' transposition tables.
    pub known: u64,
    /// Positions in the tree.
    pub positions: usize,
    /// The root's value, once known.
    pub root: Option<Wdl>,
    /// First moves whose value is known.
    pub moves_known: usize,
    /// First moves.
    pub moves: usize,
    /// On a virtual clock ([`Workers::virtual_time`]): how far its steps
    /// have gone, in nodes (the makespan so far).
    pub virtual_time: Option<u64>,
}

impl Progress {
    /// Where `manager` stands, `elapsed` into the run, with the nodes the
    /// running jobs have searched (where the workers can tell).
    pub fn of(manager: &Manager, elapsed: Duration, running_nodes: Option<u64>) -> Progress {
        let moves = manager.move_values();
        Progress {
            seconds: elapsed.as_secs_f64(),
            jobs: manager.counts.jobs,
            nodes: manager.counts.nodes,
            running: manager.in_flight(),
            running_nodes,
            cancelled: manager.counts.cancelled,
            cancelled_nodes: manager.counts.cancelled_nodes,
            known: manager.counts.known,
            positions: manager.size(),
            root: manager.value(),
            moves_known: moves.iter().filter(|m| m.value.is_some()).count(),
            moves: moves.len(),
            virtual_time: None,
        }
    }
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let running = match self.running_nodes {
            Some(n) => format!("{} running ({n} nodes so far)", self.running),
            None => format!("{} running", self.running),
        };
        write!(
            f,
            "prove: {:.0}s, {} jobs ({} nodes), {running}, {} cancelled ({} nodes), {} known from jobs' tables, {} positions in the tree, root {}, {}/{} first moves known",
            self.seconds,
            self.jobs,
            self.nodes,
            self.cancelled,
            self.cancelled_nodes,
            self.known,
            self.positions,
            wdl_text(self.root),
            self.moves_known,
            self.moves
        )?;
        match self.virtual_time {
            Some(t) => write!(f, ", virtual clock at {t} nodes"),
            None => Ok(()),
        }
    }
}

/// How long the end of a run waits for its interrupted jobs to come back.
const INTERRUPT_WAIT: Duration = Duration::from_secs(120);

/// Runs `manager` on `workers` until the proof is complete or stopped,
/// logging every finished job to `log`, its events unheard (see
/// [`run_with_events`]).
pub fn run(
    manager: &mut Manager,
    workers: &mut dyn Workers,
    log: &mut LogWriter,
    options: &RunOptions,
) -> Result<RunEnd, RunError> {
    run_with_events(manager, workers, log, options, &mut |_| {})
}

/// [`run`], telling `on_event` what it does.
pub fn run_with_events(
    manager: &mut Manager,
    workers: &mut dyn Workers,
    log: &mut LogWriter,
    options: &RunOptions,
    on_event: &mut dyn FnMut(RunEvent),
) -> Result<RunEnd, RunError> {
    let start = Instant::now();
    let mut last_progress = Instant::now();
    let mut last_cancel_check = Instant::now();
    let mut cancelled: std::collections::HashSet<u64> = Default::default();
    // Announced jobs still running: what they ask.
    let mut announced: std::collections::HashMap<u64, String> = Default::default();
    let end = loop {
        if options.stop.load(Ordering::Relaxed) {
            break RunEnd::Stopped;
        }
        if log.diverted().is_some() {
            break RunEnd::LogDiverted;
        }
        if manager.done() {
            break RunEnd::Complete;
        }
        if options.max_jobs.is_some_and(|m| manager.counts.jobs >= m) {
            break RunEnd::JobLimit;
        }
        if options.max_time.is_some_and(|t| start.elapsed() >= t) {
            break RunEnd::TimeLimit;
        }
        if options
            .max_virtual
            .zip(workers.virtual_time())
            .is_some_and(|(most, at)| at >= most)
        {
            break RunEnd::VirtualLimit;
        }
        let draining = options.drain_after.is_some_and(|t| start.elapsed() >= t);
        if draining && manager.in_flight() == 0 {
            break RunEnd::Drained;
        }
        // Looking for unneeded jobs walks the open part of the tree: not
        // more often than every 50 ms, but at every turn on a virtual
        // clock (an emulation whose cancels came when the wall clock said
        // gave other figures each run).
        if cancel_check_due(workers.virtual_clock(), last_cancel_check.elapsed()) {
            last_cancel_check = Instant::now();
            cancel_unneeded(manager, workers, &mut cancelled);
        }
        while !draining && manager.in_flight() < workers.count() {
            match manager.next_job() {
                Some(job) => {
                    if options.announce.is_some_and(|min| job.budget >= min) {
                        let text = manager.job_text(job.id).unwrap_or_default();
                        on_event(RunEvent::JobStarts {
                            id: job.id,
                            text: &text,
                            budget: job.budget,
                            warm: job.warm.as_ref().map(|w| w.len()),
                        });
                        announced.insert(job.id, text);
                    }
                    workers.start(job)?
                }
                None => break,
            }
        }
        // Expansions on the way to those jobs may have met known answers,
        // and splits made lines of their own.
        log_records(manager, log)?;
        tell_contradictions(manager, on_event);
        if manager.in_flight() == 0 {
            if manager.done() || draining {
                continue;
            }
            return Err(RunError::Stuck);
        }
        let mut wait = Duration::from_millis(500);
        while let Some(r) = workers.wait(wait)? {
            if let JobEnd::Failed(e) = r.end {
                return Err(RunError::Worker(e));
            }
            cancelled.remove(&r.id);
            announce_end(&mut announced, &r, on_event);
            take_result(manager, log, options, &r)?;
            // What it solved, for workers with tables of their own (a
            // cancelled job's worker stopped at the cancel: none).
            if !r.solved.is_empty() && !matches!(r.end, JobEnd::Cancelled) {
                workers.share(&r.solved);
            }
            tell_contradictions(manager, on_event);
            wait = Duration::ZERO;
        }
        if let Some(every) = options.progress {
            if last_progress.elapsed() >= every {
                last_progress = Instant::now();
                let running = workers.running_nodes();
                let progress = Progress {
                    virtual_time: workers.virtual_time(),
                    ..Progress::of(manager, start.elapsed(), running)
                };
                on_event(RunEvent::Progress(progress));
            }
        }
    };
    // Jobs still in flight when the run stops short of the proof: where
    // the workers can, they stop now and come back `open` with what they
    // searched (logged, with their warm starts, for the next run to
    // continue); elsewhere they are lost (the workers' owner stops them)
    // and the next run asks them again. Once the proof is complete none
    // of them is needed: they are cancelled, with no warm start to take
    // (each would read the worker's whole table for entries no run will
    // load), and come back to be counted with the work thrown away (and,
    // on MPI ranks, so that no rank is left inside a send at the end).
    let stopping = if manager.in_flight() == 0 {
        false
    } else if manager.done() {
        // No goal needs any pair now: every job in flight is unneeded.
        cancel_unneeded(manager, workers, &mut cancelled);
        true
    } else {
        workers.interrupt()
    };
    if stopping {
        let since = Instant::now();
        while manager.in_flight() > 0 && since.elapsed() < INTERRUPT_WAIT {
            if let Some(r) = workers.wait(Duration::from_millis(100))? {
                if !matches!(r.end, JobEnd::Failed(_)) {
                    announce_end(&mut announced, &r, on_event);
                    take_result(manager, log, options, &r)?;
                    tell_contradictions(manager, on_event);
                }
            }
        }
    }
    // The jobs taken back may have completed the proof (a job can finish
    // before it sees the interruption).
    let end = if manager.done() {
        RunEnd::Complete
    } else {
        end
    };
    if let Some(store) = options.warm {
        if end != RunEnd::Complete {
            save_table_warm(manager, workers, store)?;
        }
        for pair in store.pairs() {
            if manager.warm_obsolete(pair) {
                store.remove(pair);
            }
        }
    }
    log.sync()?;
    Ok(end)
}

/// Whether the run loop looks for unneeded jobs now: `since` the last look,
/// on a pool of real workers; always on a virtual clock, where the wall
/// clock must not decide what happens.
fn cancel_check_due(virtual_clock: bool, since: Duration) -> bool {
    virtual_clock || since >= Duration::from_millis(50)
}

/// Cancels the jobs in flight that no goal needs any more (every one of
/// them once the proof is complete), each once: `cancelled` keeps the
/// ones already told.
fn cancel_unneeded(
    manager: &mut Manager,
    workers: &mut dyn Workers,
    cancelled: &mut std::collections::HashSet<u64>,
) {
    for id in manager.unneeded_jobs() {
        if cancelled.insert(id) {
            workers.cancel(id);
        }
    }
}

/// Workers sharing one table hand on no warm start with an `open` job
/// (the table holds its search): when a run stops short of the proof, the
/// pairs it leaves to be continued get the table's, read once, for the
/// next run's cold table.
fn save_table_warm(
    manager: &Manager,
    workers: &dyn Workers,
    store: &WarmStore,
) -> Result<(), RunError> {
    let pairs = manager.waiting_continuations();
    if pairs.is_empty() {
        return Ok(());
    }
    let Some(warm) = workers.table_warm() else {
        return Ok(());
    };
    for pair in pairs {
        store.save(pair, &warm)?;
    }
    Ok(())
}

/// Tells the end of an announced job: its answer, nodes and time.
fn announce_end(
    announced: &mut std::collections::HashMap<u64, String>,
    r: &JobResult,
    on_event: &mut dyn FnMut(RunEvent),
) {
    if let Some(text) = announced.remove(&r.id) {
        on_event(RunEvent::JobEnds {
            text: &text,
            result: r,
        });
    }
}

/// Tells the contradictions the manager met since the last call.
fn tell_contradictions(manager: &mut Manager, on_event: &mut dyn FnMut(RunEvent)) {
    for c in manager.take_contradictions() {
        on_event(RunEvent::Contradiction(&c));
    }
}

/// Hands a finished job to the manager, logs it and keeps its warm start.
fn take_result(
    manager: &mut Manager,
    log: &mut LogWriter,
    options: &RunOptions,
    r: &JobResult,
) -> Result<(), RunError> {
    if let Some(record) = manager.finish(r) {
        if let (Some(store), Some(warm)) = (options.warm, r.end.warm()) {
            store.save(Pair::new(record.key(), record.question), warm)?;
        }
        log.append_job(&record)?;
    }
    log_records(manager, log)
}

/// Logs the lines the manager has made since the last call (`known`
/// answers, splits).
fn log_records(manager: &mut Manager, log: &mut LogWriter) -> Result<(), RunError> {
    for record in manager.take_records() {
        log.append_job(&record)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{parse_position, Board, Rules};
    use crate::solve::Question;

    /// Real workers are looked over every 50 ms; a virtual clock's at
    /// every turn of the loop, whatever the wall clock says (the whole
    /// emulation's repeatability: tests/suite/prove_values.rs).
    #[test]
    fn a_virtual_clock_looks_for_unneeded_jobs_at_every_turn() {
        assert!(cancel_check_due(true, Duration::ZERO));
        assert!(!cancel_check_due(false, Duration::from_millis(49)));
        assert!(cancel_check_due(false, Duration::from_millis(50)));
    }

    /// The lines the command line prints for a run's events, word for word.
    #[test]
    fn events_read_as_the_lines_prove_prints() {
        let starts = |warm| RunEvent::JobStarts {
            id: 7,
            text: "1. a3: wins?",
            budget: 1000,
            warm,
        };
        assert_eq!(
            starts(None).to_string(),
            "prove: job 7 starts: 1. a3: wins?, budget 1000 nodes"
        );
        assert_eq!(
            starts(Some(12)).to_string(),
            "prove: job 7 starts: 1. a3: wins?, budget 1000 nodes, warm start of 12 entries"
        );
        let result = |end| JobResult {
            id: 7,
            end,
            nodes: 1234,
            seconds: 2.6,
            known: Vec::new(),
            solved: Vec::new(),
            table: Default::default(),
        };
        for (end, answer) in [
            (JobEnd::Cancelled, "cancelled (no longer needed)"),
            (JobEnd::Interrupted { warm: None }, "open (the run ends)"),
            (JobEnd::Open { warm: None }, "open"),
            (
                JobEnd::Answered {
                    answer: true,
                    best: None,
                },
                "yes",
            ),
        ] {
            let r = result(end);
            let event = RunEvent::JobEnds {
                text: "1. a3: wins?",
                result: &r,
            };
            assert_eq!(
                event.to_string(),
                format!("prove: job 7 ends: 1. a3: wins? {answer}, 1234 nodes, 3 s")
            );
        }
        let pos = parse_position(
            "pawngame",
            Some(Board::new(4, 5).unwrap()),
            Rules::default(),
        )
        .unwrap();
        let c = Contradiction {
            pos,
            question: Question::AvoidsLoss,
            first: true,
            second: false,
        };
        assert_eq!(
            RunEvent::Contradiction(&c).to_string(),
            format!("peasant: contradiction at {pos} (avoids-loss): true and false")
        );
        let progress = Progress {
            seconds: 12.4,
            jobs: 3,
            nodes: 4000,
            running: 2,
            running_nodes: Some(50),
            cancelled: 1,
            cancelled_nodes: 700,
            known: 5,
            positions: 9,
            root: None,
            moves_known: 1,
            moves: 4,
            virtual_time: None,
        };
        assert_eq!(
            RunEvent::Progress(progress.clone()).to_string(),
            "prove: 12s, 3 jobs (4000 nodes), 2 running (50 nodes so far), 1 cancelled (700 nodes), 5 known from jobs' tables, 9 positions in the tree, root open, 1/4 first moves known"
        );
        let emulated = Progress {
            virtual_time: Some(321),
            ..progress
        };
        assert!(RunEvent::Progress(emulated)
            .to_string()
            .ends_with("1/4 first moves known, virtual clock at 321 nodes"));
    }
}
