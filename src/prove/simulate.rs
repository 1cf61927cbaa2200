//! The scaling simulator: replays a proof log's jobs on `P` simulated
//! workers to predict what a cluster would gain.
//!
//! Each logged job has its cost (seconds) and the job whose `open` answer
//! made it possible (`dep`): it becomes available when that job finishes
//! (at once if none; a split's `open` line costs nothing, so the jobs below
//! a split become available when the split job could start). Available
//! jobs start in the order the real run started them (their numbers)
//! whenever a worker is free. The model keeps
//! the real run's jobs: it ignores that more workers would also run jobs a
//! proof later makes unnecessary (more work), and that the manager's own
//! time and messages cost something. The critical path (the longest chain
//! of jobs each waiting for the last) bounds the speedup whatever `P`.

use crate::prove::log::JobRecord;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// The prediction for one number of workers.
#[derive(Clone, Copy, Debug)]
pub struct Prediction {
    /// The number of simulated workers.
    pub workers: usize,
    /// Simulated wall time, seconds.
    pub makespan: f64,
    /// Sum of job times over the makespan.
    pub speedup: f64,
    /// Share of worker time spent waiting.
    pub idle: f64,
}

/// The sum of all jobs' seconds and the critical path's.
pub fn work_and_span(jobs: &[JobRecord]) -> (f64, f64) {
    let mut finish: HashMap<u64, f64> = HashMap::new();
    let mut sorted: Vec<&JobRecord> = jobs.iter().collect();
    sorted.sort_by_key(|j| j.id);
    let (mut work, mut span) = (0.0, 0.0f64);
    for j in sorted {
        let start = finish.get(&j.dep).copied().unwrap_or(0.0);
        let f = start + j.seconds;
        finish.insert(j.id, f);
        work += j.seconds;
        span = span.max(f);
    }
    (work, span)
}

/// Replays `jobs` on `workers` simulated workers.
pub fn simulate(jobs: &[JobRecord], workers: usize) -> Prediction {
    let workers = workers.max(1);
    // Microseconds, so that the event queue orders exactly; every job
    // costs at least one.
    let cost: Vec<u64> = jobs
        .iter()
        .map(|j| ((j.seconds * 1e6) as u64).max(1))
        .collect();
    let ids: HashMap<u64, usize> = jobs.iter().enumerate().map(|(i, j)| (j.id, i)).collect();
    let mut waiting: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut ready: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    for (i, j) in jobs.iter().enumerate() {
        match ids.get(&j.dep) {
            Some(&d) if j.dep != 0 && d != i => waiting.entry(d).or_default().push(i),
            _ => ready.push(Reverse((j.id, i))),
        }
    }
    let mut running: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    let (mut t, mut free, mut busy) = (0u64, workers, 0u64);
    loop {
        while free > 0 {
            let Some(Reverse((_, i))) = ready.pop() else {
                break;
            };
            running.push(Reverse((t + cost[i], i)));
            busy += cost[i];
            free -= 1;
        }
        let Some(Reverse((f, i))) = running.pop() else {
            break;
        };
        t = f;
        free += 1;
        for k in waiting.remove(&i).unwrap_or_default() {
            ready.push(Reverse((jobs[k].id, k)));
        }
    }
    let makespan = t as f64 / 1e6;
    let work = busy as f64 / 1e6;
    Prediction {
        workers,
        makespan,
        speedup: if makespan > 0.0 { work / makespan } else { 1.0 },
        idle: if makespan > 0.0 {
            1.0 - work / (workers as f64 * makespan)
        } else {
            0.0
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prove::log::Answer;
    use crate::rules::{parse_position, Board, Rules};
    use crate::solve::Question;

    fn job(id: u64, dep: u64, seconds: f64) -> JobRecord {
        let pos = parse_position(
            "pawngame",
            Some(Board::new(5, 5).unwrap()),
            Rules::default(),
        )
        .unwrap();
        JobRecord {
            pos,
            question: Question::Wins,
            answer: Answer::Open,
            nodes: 1,
            seconds,
            best: None,
            id,
            dep,
            kind: crate::prove::log::LineKind::Job,
        }
    }

    #[test]
    fn chains_and_fans() {
        // Job 1 (1 s) opens four jobs of 1 s each: two workers take 3 s,
        // four or more take 2 s (the critical path).
        let jobs = vec![
            job(1, 0, 1.0),
            job(2, 1, 1.0),
            job(3, 1, 1.0),
            job(4, 1, 1.0),
            job(5, 1, 1.0),
        ];
        assert_eq!(work_and_span(&jobs), (5.0, 2.0));
        let p1 = simulate(&jobs, 1);
        assert!((p1.makespan - 5.0).abs() < 1e-9 && p1.idle.abs() < 1e-9);
        let p2 = simulate(&jobs, 2);
        assert!((p2.makespan - 3.0).abs() < 1e-9);
        let p8 = simulate(&jobs, 8);
        assert!((p8.makespan - 2.0).abs() < 1e-9);
        assert!((p8.speedup - 2.5).abs() < 1e-9);
        assert!((p8.idle - (1.0 - 5.0 / 16.0)).abs() < 1e-9);
    }
}
