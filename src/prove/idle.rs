//! Which idle worker takes a job, where workers have tables of their own.
//!
//! An MPI rank (or an emulated one) keeps its transposition table from job
//! to job. A job that runs out of its budget leaves its whole search in
//! that table, and hands on only a sliver of it (its warm start,
//! [`crate::prove::WarmStore`]) for the question's next job. If that next
//! job goes to another rank, it starts from the sliver; if it goes back to
//! the rank that ran the last one, it starts from everything. A proof of
//! billions of nodes asks its hard questions again and again with growing
//! budgets, so where the next job runs decides how much of the last one
//! is kept.

use crate::prove::pair::Pair;
use std::collections::HashSet;

/// The idle workers of a pool whose workers have tables of their own,
/// each with the pair (position and question) its last job left open.
#[derive(Clone, Debug)]
pub struct IdleWorkers<W> {
    /// In the order they became idle, the latest last.
    idle: Vec<(W, Option<Pair>)>,
    /// Whether a job goes back to the worker that left its pair open
    /// (false: the latest idle worker takes every job, the order of a
    /// stack).
    affinity: bool,
    /// Pairs left open whose worker took another job before they were
    /// asked again.
    lost: HashSet<Pair>,
    /// Jobs that went back to the worker that left their pair open.
    pub back: u64,
    /// Jobs on a pair left open by a worker that had taken another job
    /// since (or, without affinity, that another worker took).
    pub elsewhere: u64,
}

impl<W: Copy + PartialEq> IdleWorkers<W> {
    /// `workers` idle, none having left a pair open; the last of them
    /// takes the first job.
    pub fn new(workers: impl IntoIterator<Item = W>, affinity: bool) -> IdleWorkers<W> {
        IdleWorkers {
            idle: workers.into_iter().map(|w| (w, None)).collect(),
            affinity,
            lost: HashSet::new(),
            back: 0,
            elsewhere: 0,
        }
    }

    /// Whether jobs go back to the worker that left their pair open.
    pub fn set_affinity(&mut self, affinity: bool) {
        self.affinity = affinity;
    }

    /// Whether none is idle.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.idle.is_empty()
    }

    /// The latest of the idle workers, which takes a job if no other
    /// left its pair open and it left none.
    #[cfg(test)]
    pub fn latest(&self) -> Option<W> {
        self.idle.last().map(|&(w, _)| w)
    }

    /// The worker for a job on `pair`, taken out of the idle ones: the one
    /// that left `pair` open, whose table holds that search whole; else the
    /// latest idle of those that left nothing open (their tables hold what
    /// answered questions needed); else the one idle longest, whose open
    /// pair is the least likely to be asked again soon. Without affinity,
    /// the latest idle. None if every worker is busy.
    pub fn take(&mut self, pair: Pair) -> Option<W> {
        let holder = self.idle.iter().rposition(|&(_, p)| p == Some(pair));
        let i = if !self.affinity {
            self.idle.len().checked_sub(1)?
        } else {
            holder
                .or_else(|| self.idle.iter().rposition(|&(_, p)| p.is_none()))
                .or(if self.idle.is_empty() { None } else { Some(0) })?
        };
        if self.lost.remove(&pair) {
            self.elsewhere += 1;
        }
        let (w, left) = self.idle.remove(i);
        if holder == Some(i) {
            self.back += 1;
        } else {
            if let Some(p) = left {
                self.lost.insert(p);
            }
            if holder.is_some() {
                self.elsewhere += 1;
            }
        }
        Some(w)
    }

    /// Worker `w` is idle again; `left_open` is the pair its job left
    /// open (ran out of its budget, or was interrupted), None if the job
    /// answered or was cancelled.
    pub fn put(&mut self, w: W, left_open: Option<Pair>) {
        if let Some(p) = left_open {
            self.lost.remove(&p);
        }
        self.idle.push((w, left_open));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Question;

    fn pair(key: u128) -> Pair {
        Pair::new(key, Question::Wins)
    }

    #[test]
    fn a_pair_goes_back_to_the_worker_that_left_it_open() {
        let mut idle = IdleWorkers::new([0, 1, 2, 3], true);
        // Every worker takes a job.
        for k in 0..4 {
            assert!(idle.take(pair(k)).is_some());
        }
        assert!(idle.take(pair(9)).is_none());
        idle.put(1, Some(pair(10)));
        idle.put(2, None);
        idle.put(3, Some(pair(30)));
        // A new pair takes the worker that left nothing open, though 3 is
        // the latest idle.
        assert_eq!(idle.take(pair(50)), Some(2));
        // The pair 10 goes back to worker 1, not the latest idle (3).
        assert_eq!(idle.take(pair(10)), Some(1));
        // The same question of another pair is not the pair.
        assert_eq!(idle.take(Pair::new(30, Question::AvoidsLoss)), Some(3));
        assert!(idle.is_empty());
        // Worker 3 took other work: the pair it left open is lost to it.
        idle.put(3, None);
        assert_eq!(idle.take(pair(30)), Some(3));
        assert_eq!((idle.back, idle.elsewhere), (1, 1));
    }

    #[test]
    fn with_every_idle_worker_holding_an_open_pair_the_longest_idle_goes() {
        let mut idle = IdleWorkers::new(Vec::<u8>::new(), true);
        idle.put(7, Some(pair(1)));
        idle.put(8, Some(pair(2)));
        idle.put(9, Some(pair(3)));
        assert_eq!(idle.take(pair(4)), Some(7));
        assert_eq!(idle.take(pair(3)), Some(9));
        assert_eq!(idle.latest(), Some(8));
    }

    #[test]
    fn without_affinity_the_latest_idle_takes_every_job() {
        let mut idle = IdleWorkers::new([0, 1], false);
        assert_eq!(idle.take(pair(1)), Some(1));
        assert_eq!(idle.take(pair(2)), Some(0));
        idle.put(0, Some(pair(1)));
        idle.put(1, None);
        assert_eq!(idle.take(pair(1)), Some(1));
        assert_eq!(idle.take(pair(5)), Some(0));
        assert_eq!(idle.take(pair(5)), None);
        // Pair 1 went to worker 1, not to worker 0 that held it.
        assert_eq!((idle.back, idle.elsewhere), (0, 1));
    }
}
