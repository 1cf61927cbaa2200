//! An emulated cluster: `N` workers that exist only on a virtual clock.
//!
//! [`EmulatedWorkers`] give the manager `N` workers, each with its own
//! solver and transposition table as an MPI rank has, but run every job at
//! once, one after another, on this machine. A job started at virtual time
//! `t` finishes at `t` plus its nodes; [`Workers::wait`] hands results back
//! in the order of those virtual finishing times and moves the clock, and a
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
//! 0 ([`Workers::share`]).
//!
//! One thing differs from a real cluster: the jobs run in the order they
//! start, so a job's transposition table may hold the results of a job
//! started earlier on the same worker that has not finished in virtual time
//! yet (never of another worker's). Its effect is small while jobs are
//! short next to the proof.

use crate::prove::worker::{
    run_job, Job, JobEnd, JobResult, JobSolver, SolvedPool, WorkerConfig, WorkerError, Workers,
};
use crate::solve::{PnEntry, SolveError};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What an emulated run measured, in nodes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Emulation {
    /// The number of emulated workers.
    pub workers: usize,
    /// Nodes of all jobs, cancelled ones up to their cancel.
    pub work: u64,
    /// The virtual time at the last finished job.
    pub makespan: u64,
    /// How many workers ever had a job at the same time.
    pub peak: usize,
    /// Solved entries sent out with jobs (`--share-solved`), all workers
    /// together.
    pub solved_sent: u64,
}

impl Emulation {
    /// Work over makespan: how many workers were busy on average (the
    /// speedup only if the work is what one worker would do).
    pub fn busy(&self) -> f64 {
        if self.makespan == 0 {
            1.0
        } else {
            self.work as f64 / self.makespan as f64
        }
    }

    /// The share of worker time spent without a job.
    pub fn idle(&self) -> f64 {
        if self.makespan == 0 {
            0.0
        } else {
            1.0 - self.work as f64 / (self.workers as f64 * self.makespan as f64)
        }
    }
}

struct Running {
    worker: usize,
    start: u64,
    finish: u64,
    result: JobResult,
}

/// `count` workers on a virtual clock (see the module's text).
pub struct EmulatedWorkers {
    config: WorkerConfig,
    solvers: Vec<Option<JobSolver<'static>>>,
    idle: Vec<usize>,
    clock: u64,
    running: HashMap<u64, Running>,
    /// (finish, job id) of every running job; stale entries (a cancelled
    /// job's old finish) are skipped.
    queue: BinaryHeap<Reverse<(u64, u64)>>,
    stop: AtomicBool,
    measured: Emulation,
    /// Solved entries the finished jobs handed back ([`Workers::share`]).
    shared: SolvedPool,
}

impl EmulatedWorkers {
    /// `count` emulated workers (at least one), each with a transposition
    /// table of `config.hash_mb` MiB made when it first gets a job.
    pub fn new(count: usize, config: WorkerConfig) -> EmulatedWorkers {
        let count = count.max(1);
        EmulatedWorkers {
            config,
            solvers: (0..count).map(|_| None).collect(),
            idle: (0..count).rev().collect(),
            clock: 0,
            running: HashMap::new(),
            queue: BinaryHeap::new(),
            stop: AtomicBool::new(false),
            measured: Emulation {
                workers: count,
                ..Emulation::default()
            },
            shared: SolvedPool::new(count),
        }
    }

    /// What the run so far measured.
    pub fn emulation(&self) -> Emulation {
        self.measured
    }

    /// Makes worker `w`'s solver if it has none yet.
    fn solver(&mut self, w: usize) -> Result<(), SolveError> {
        if self.solvers[w].is_none() {
            self.solvers[w] = Some(JobSolver::new(self.config, None, None)?);
        }
        Ok(())
    }
}

impl Workers for EmulatedWorkers {
    fn count(&self) -> usize {
        self.solvers.len()
    }

    fn start(&mut self, job: Job) -> Result<(), WorkerError> {
        let w = self.idle.pop().ok_or(WorkerError::NoIdle("worker"))?;
        self.solver(w)
            .map_err(|e| WorkerError::Setup(e.to_string()))?;
        // What the other workers solved and sent out before this moment
        // of virtual time.
        let job = Job {
            solved: self.shared.take_for(w),
            ..job
        };
        self.measured.solved_sent += job.solved.len() as u64;
        let solver = self.solvers[w].as_ref().expect("made above");
        // The emulated run has no stop of its own: a cancel acts on the
        // virtual clock.
        let never = AtomicBool::new(false);
        let result = run_job(solver, &self.stop, &never, &job, &self.config);
        let finish = self.clock + result.nodes.max(1);
        self.queue.push(Reverse((finish, job.id)));
        self.running.insert(
            job.id,
            Running {
                worker: w,
                start: self.clock,
                finish,
                result,
            },
        );
        self.measured.peak = self.measured.peak.max(self.running.len());
        Ok(())
    }

    /// Taken when the job's result comes back: at that moment of virtual
    /// time.
    fn share(&mut self, solved: &[PnEntry]) {
        self.shared.add(solved);
    }

    fn cancel(&mut self, id: u64) {
        // Stopped now: the worker is free at the current virtual time and
        // the job's answer is not used.
        if let Some(r) = self.running.get_mut(&id) {
            if r.finish > self.clock {
                r.finish = self.clock;
                r.result.end = JobEnd::Cancelled;
                self.queue.push(Reverse((self.clock, id)));
            }
        }
    }

    fn wait(&mut self, _timeout: Duration) -> Result<Option<JobResult>, WorkerError> {
        while let Some(Reverse((finish, id))) = self.queue.pop() {
            let current = self.running.get(&id).is_some_and(|r| r.finish == finish);
            if !current {
                continue;
            }
            let r = self.running.remove(&id).expect("checked above");
            self.clock = finish;
            self.measured.work += finish - r.start;
            self.measured.makespan = self.clock;
            self.idle.push(r.worker);
            return Ok(Some(r.result));
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{parse_position, Board, Rules};
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
            hash_mb: 1,
            shared_tt: false,
            method: Default::default(),
            warm_entries: 0,
            harvest_plies: 2,
            share_solved: 0,
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
        let first = w.wait(Duration::ZERO).unwrap().unwrap();
        assert_eq!(first.id, 2);
        let t = w.emulation().makespan;
        assert!((100..5000).contains(&t), "{t}");
        // Job 1 cancelled at that moment: it comes back next, cancelled,
        // having cost only the time until the cancel.
        w.cancel(1);
        let second = w.wait(Duration::ZERO).unwrap().unwrap();
        assert!(second.id == 1 && matches!(second.end, JobEnd::Cancelled));
        let third = w.wait(Duration::ZERO).unwrap().unwrap();
        assert_eq!(third.id, 3);
        assert!(w.wait(Duration::ZERO).unwrap().is_none());
        let e = w.emulation();
        assert_eq!(e.peak, 3);
        // Work: job 2 whole, job 1 up to t, job 3 whole.
        assert_eq!(e.work, first.nodes + t + third.nodes);
        assert_eq!(e.makespan, third.nodes);
    }

    /// With --share-solved, what one worker proved answers another's job
    /// on the same question without search; without it, that worker
    /// searches.
    #[test]
    fn a_solved_position_sent_out_answers_another_workers_job() {
        crate::prove::worker::check_solved_entries_sent_out(
            |config| EmulatedWorkers::new(2, config),
            |w| w.idle.last().copied(),
        );
    }
}
