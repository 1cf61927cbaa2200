//! One `prove` run: the manager's loop over a pool of workers, with the
//! log written as jobs finish, progress lines and an orderly stop.

use crate::prove::log::{LogError, LogWriter};
use crate::prove::manager::Manager;
use crate::prove::pair::Pair;
use crate::prove::warm::WarmStore;
use crate::prove::worker::{JobResult, Workers};
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
    /// A worker failed.
    Worker(String),
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
}

/// Options of a run.
pub struct RunOptions<'a> {
    /// Set from elsewhere (a signal handler) to stop the run.
    pub stop: &'a AtomicBool,
    /// Print a progress line on stderr this often (`None`: never).
    pub progress: Option<Duration>,
    /// Stop after this many jobs of this run (for tests and bounded runs).
    pub max_jobs: Option<u64>,
    /// Stop once the run has lasted this long.
    pub max_time: Option<Duration>,
    /// Where the warm starts of `open` proof-number jobs are kept (see
    /// [`crate::prove::warm`]); `None`: nowhere but in memory.
    pub warm: Option<&'a WarmStore>,
    /// Print a line on stderr when a job whose budget is at least this
    /// many nodes starts, naming its line and question, and one when it
    /// ends, with its answer (`None`: never). Long proofs run jobs for
    /// hours: these lines say what each worker is busy with.
    pub announce: Option<u64>,
}

/// How long the end of a run waits for its interrupted jobs to come back.
const INTERRUPT_WAIT: Duration = Duration::from_secs(120);

/// Runs `manager` on `workers` until the proof is complete or stopped,
/// logging every finished job to `log`.
pub fn run(
    manager: &mut Manager,
    workers: &mut dyn Workers,
    log: &mut LogWriter,
    options: &RunOptions,
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
        if manager.done() {
            break RunEnd::Complete;
        }
        if options.max_jobs.is_some_and(|m| manager.counts.jobs >= m) {
            break RunEnd::JobLimit;
        }
        if options.max_time.is_some_and(|t| start.elapsed() >= t) {
            break RunEnd::TimeLimit;
        }
        // Looking for unneeded jobs walks the open part of the tree: not
        // more often than every 50 ms.
        if last_cancel_check.elapsed() >= Duration::from_millis(50) {
            last_cancel_check = Instant::now();
            for id in manager.unneeded_jobs() {
                if cancelled.insert(id) {
                    workers.cancel(id);
                }
            }
        }
        while manager.in_flight() < workers.count() {
            match manager.next_job() {
                Some(job) => {
                    if options.announce.is_some_and(|min| job.budget >= min) {
                        let text = manager.job_text(job.id).unwrap_or_default();
                        let warm = match &job.warm {
                            Some(w) => format!(", warm start of {} entries", w.len()),
                            None => String::new(),
                        };
                        eprintln!(
                            "prove: job {} starts: {text}, budget {} nodes{warm}",
                            job.id, job.budget
                        );
                        announced.insert(job.id, text);
                    }
                    workers.start(job).map_err(RunError::Worker)?
                }
                None => break,
            }
        }
        // Expansions on the way to those jobs may have met known answers,
        // and splits made lines of their own.
        log_records(manager, log)?;
        if manager.in_flight() == 0 {
            if manager.done() {
                continue;
            }
            return Err(RunError::Stuck);
        }
        let mut wait = Duration::from_millis(500);
        while let Some(r) = workers.wait(wait).map_err(RunError::Worker)? {
            if let Some(e) = &r.error {
                return Err(RunError::Worker(e.clone()));
            }
            cancelled.remove(&r.id);
            announce_end(&mut announced, &r);
            take_result(manager, log, options, &r)?;
            wait = Duration::ZERO;
        }
        if let Some(every) = options.progress {
            if last_progress.elapsed() >= every {
                last_progress = Instant::now();
                let running = workers.running_nodes();
                eprintln!("{}", progress_line(manager, start.elapsed(), running));
            }
        }
    };
    // Jobs still in flight: where the workers can, they stop now and come
    // back `open` with what they searched (logged, with their warm
    // starts, for the next run to continue); elsewhere they are lost (the
    // workers' owner stops them) and the next run asks them again.
    if manager.in_flight() > 0 && workers.interrupt() {
        let since = Instant::now();
        while manager.in_flight() > 0 && since.elapsed() < INTERRUPT_WAIT {
            if let Some(r) = workers
                .wait(Duration::from_millis(100))
                .map_err(RunError::Worker)?
            {
                if r.error.is_none() {
                    announce_end(&mut announced, &r);
                    take_result(manager, log, options, &r)?;
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
        for pair in store.pairs() {
            if manager.warm_obsolete(pair) {
                store.remove(pair);
            }
        }
    }
    log.sync()?;
    Ok(end)
}

/// The line that ends an announced job's: its answer, nodes and time.
fn announce_end(announced: &mut std::collections::HashMap<u64, String>, r: &JobResult) {
    let Some(text) = announced.remove(&r.id) else {
        return;
    };
    let answer = if r.cancelled {
        "cancelled (no longer needed)".to_string()
    } else if r.interrupted {
        "open (the run ends)".to_string()
    } else {
        r.answer.text().to_string()
    };
    eprintln!(
        "prove: job {} ends: {text} {answer}, {} nodes, {:.0} s",
        r.id, r.nodes, r.seconds
    );
}

/// Hands a finished job to the manager, logs it and keeps its warm start.
fn take_result(
    manager: &mut Manager,
    log: &mut LogWriter,
    options: &RunOptions,
    r: &JobResult,
) -> Result<(), RunError> {
    if let Some(record) = manager.finish(r) {
        if let (Some(store), Some(warm)) = (options.warm, &r.warm) {
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

/// One line for people: what the run has done so far (with the nodes the
/// running jobs have searched, where the workers can tell).
pub fn progress_line(manager: &Manager, elapsed: Duration, running_nodes: Option<u64>) -> String {
    let moves = manager.move_values();
    let known = moves.iter().filter(|m| m.value.is_some()).count();
    let running = match running_nodes {
        Some(n) => format!("{} running ({n} nodes so far)", manager.in_flight()),
        None => format!("{} running", manager.in_flight()),
    };
    format!(
        "prove: {:.0}s, {} jobs ({} nodes), {running}, {} cancelled, {} known from jobs' tables, {} positions in the tree, root {}, {}/{} first moves known",
        elapsed.as_secs_f64(),
        manager.counts.jobs,
        manager.counts.nodes,
        manager.counts.cancelled,
        manager.counts.known,
        manager.size(),
        crate::prove::manager::wdl_text(manager.value()),
        known,
        moves.len()
    )
}
