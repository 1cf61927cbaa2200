//! A proof log checked (`peasant prove --check`): damaged lines, pairs
//! answered both ways, every root's tree re-derived from its children's
//! answers, and a random sample of the logged answers solved again by a
//! fresh solver. [`check`] returns a [`CheckReport`]; whoever calls it
//! prints it.

use super::log::{question_text, Answer, Damage, LogContents};
use super::manager::{Manager, ManagerConfig};
use super::worker::{solver_config, WorkerConfig};
use crate::solve::Method;
use crate::solve::{Question, SolveError};
use crate::{rules::Position, solve::Solver, SplitMix64};
use std::fmt;

/// What [`check`] does beyond the log itself.
#[derive(Clone, Copy, Debug)]
pub struct CheckOptions {
    /// How many logged answers to solve again (all of them if fewer).
    pub samples: usize,
    /// The seed of the sample: the same seed picks the same answers.
    pub seed: u64,
    /// The fresh solver's transposition table, in MiB.
    pub hash_mb: usize,
}

/// One sign that a proof log is wrong.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// This many lines are damaged (torn last lines aside).
    Damaged(usize),
    /// Two lines answer the same pair (position key, question) differently.
    Conflict {
        /// The position's key.
        key: u128,
        /// The question answered both yes and no.
        question: Question,
    },
    /// The tree of `root` met answers that contradict each other this many
    /// times.
    Contradictions {
        /// The root whose tree it is.
        root: Position,
        /// How many.
        count: u64,
    },
    /// An interior node whose logged answer differs from what its
    /// children's answers give (the manager's words).
    Disagreement(String),
    /// A logged answer that a fresh solver gives the other way.
    SolvedAgain {
        /// The canonical position.
        pos: Position,
        /// The question.
        question: Question,
        /// What the log says.
        logged: Answer,
        /// What the solver found.
        solved: bool,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Damaged(n) => write!(f, "{n} damaged line(s)"),
            Problem::Conflict { key, question } => write!(
                f,
                "position key {key:032x}: {} answered both yes and no",
                question_text(*question)
            ),
            Problem::Contradictions { root, count } => {
                write!(f, "{root}: {count} answers contradict each other")
            }
            Problem::Disagreement(text) => f.write_str(text),
            Problem::SolvedAgain {
                pos,
                question,
                logged,
                solved,
            } => write!(
                f,
                "{pos} {}: logged {}, solved again {}",
                question_text(*question),
                logged.text(),
                Answer::of_bool(*solved).text()
            ),
        }
    }
}

/// What [`check`] checked and what it found.
#[derive(Clone, Debug)]
pub struct CheckReport {
    /// The log's lines of jobs and known answers.
    pub jobs: usize,
    /// The roots whose trees were re-derived: the log's last root first,
    /// then every other root it names, each once.
    pub roots: Vec<Position>,
    /// The positions in those trees, together.
    pub tree_positions: usize,
    /// The logged answers solved again: indices into the log's `jobs`,
    /// in the order they were picked.
    pub sampled: Vec<usize>,
    /// Everything that is wrong, in the order found.
    pub problems: Vec<Problem>,
    /// A torn last line, if there is one (a run killed while writing it:
    /// not a problem, but worth a note).
    pub torn: Option<Damage>,
}

impl CheckReport {
    /// Whether the log checks: no problem found.
    pub fn clean(&self) -> bool {
        self.problems.is_empty()
    }
}

/// The manager of a proof of `root` as `log` leaves it (what `--status`
/// and `--check` read; it is not meant to hand out jobs).
pub fn replay(log: &LogContents, root: Position, all_moves: bool) -> Manager {
    let config = ManagerConfig {
        job_nodes: 1,
        max_job_nodes: 1,
        growth: 2,
        workers: 1,
        all_moves,
        keep_child: true,
    };
    Manager::new(root, config, log)
}

/// Checks `log`: see the module's text. An error only when the solver
/// cannot be made or fails (a problem with the log is in the report).
pub fn check(log: &LogContents, options: CheckOptions) -> Result<CheckReport, SolveError> {
    let mut problems = Vec::new();
    let damaged = log.damaged.iter().filter(|d| !d.torn).count();
    if damaged > 0 {
        problems.push(Problem::Damaged(damaged));
    }
    for (key, question) in log.conflicts() {
        problems.push(Problem::Conflict { key, question });
    }
    // Every root the log names has its own tree (a proof of 1.c4 beside
    // one of 1.b4): each is re-derived from its children.
    let mut roots: Vec<(Position, bool)> = Vec::new();
    for r in log.roots.last().into_iter().chain(&log.roots) {
        if !roots.iter().any(|(p, _)| *p == r.pos) {
            roots.push((r.pos, r.all_moves));
        }
    }
    let mut tree_positions = 0;
    for &(pos, all_moves) in &roots {
        let m = replay(log, pos, all_moves);
        tree_positions += m.size();
        if m.counts.contradictions > 0 {
            problems.push(Problem::Contradictions {
                root: *m.root(),
                count: m.counts.contradictions,
            });
        }
        problems.extend(m.disagreements().into_iter().map(Problem::Disagreement));
    }
    // A random sample of the logged answers, solved again.
    let answered: Vec<usize> = (0..log.jobs.len())
        .filter(|&i| log.jobs[i].answer != Answer::Open)
        .collect();
    let sampled: Vec<usize> = SplitMix64::new(options.seed)
        .sample(answered.len(), options.samples)
        .into_iter()
        .map(|i| answered[i])
        .collect();
    if !sampled.is_empty() {
        let solver = Solver::new(
            solver_config(WorkerConfig {
                locked_reads: false,
                spread_every: false,
                spread_jobs: false,
                pn_init: crate::solve::PnInit::Guided,
                hash_mb: options.hash_mb,
                shared_tt: false,
                method: Method::AlphaBeta,
                warm_entries: 0,
                harvest_plies: 0,
                share_solved: 0,
                share_every: 0,
                share_paths: false,
                share_paths_every: 0,
                threads: 1,
            }),
            None,
        )?;
        for &i in &sampled {
            let j = &log.jobs[i];
            let solved = solver.answer(&j.pos, j.question, None)?;
            if Some(solved) != j.answer.as_bool() {
                problems.push(Problem::SolvedAgain {
                    pos: j.pos,
                    question: j.question,
                    logged: j.answer,
                    solved,
                });
            }
        }
    }
    Ok(CheckReport {
        jobs: log.jobs.len(),
        roots: roots.into_iter().map(|(p, _)| p).collect(),
        tree_positions,
        sampled,
        problems,
        torn: log.damaged.iter().find(|d| d.torn).cloned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prove::log::{JobRecord, LineKind, RootRecord};
    use crate::rules::canonical;
    use crate::rules::{parse_position, Board, Rules};

    fn config() -> CheckOptions {
        CheckOptions {
            samples: 1000,
            seed: 1,
            hash_mb: 1,
        }
    }

    /// A log of the pawn game 4x5 (value only) whose lines are true: both
    /// questions about the start and about every position after one move,
    /// then the root line (`true` answers, as a fresh solver gives them).
    fn true_log() -> LogContents {
        let board: Board = "4x5".parse().unwrap();
        let pos = parse_position("pawngame", Some(board), Rules::default()).unwrap();
        let mut config = crate::solve::SolverConfig::default();
        config.search.hash_mb = 1;
        let solver = Solver::new(config, None).unwrap();
        let mut jobs = Vec::new();
        let mut positions = vec![canonical(&pos)];
        positions.extend(pos.legal_moves().iter().map(|&m| canonical(&pos.play(m))));
        for p in positions {
            for question in [Question::Wins, Question::AvoidsLoss] {
                let answer = solver.answer(&p, question, None).unwrap();
                jobs.push(JobRecord {
                    pos: p,
                    question,
                    answer: Answer::of_bool(answer),
                    nodes: 10,
                    seconds: 0.0,
                    best: None,
                    id: jobs.len() as u64 + 1,
                    dep: 0,
                    kind: LineKind::Job,
                });
            }
        }
        LogContents {
            variant: pos.variant(),
            jobs,
            roots: vec![RootRecord {
                pos,
                all_moves: false,
            }],
            damaged: Vec::new(),
        }
    }

    #[test]
    fn a_true_log_checks() {
        let log = true_log();
        let report = check(&log, config()).unwrap();
        assert!(report.clean(), "{:?}", report.problems);
        assert_eq!(report.jobs, log.jobs.len());
        assert_eq!(report.sampled.len(), log.jobs.len());
        assert_eq!(report.roots, vec![log.roots[0].pos]);
        assert!(report.tree_positions > 0);
        assert!(report.torn.is_none());
    }

    /// A false answer planted on a position after one move, which nothing
    /// else in the log names, is found by solving it again (and only
    /// then: with no sample the log looks clean).
    #[test]
    fn a_planted_false_answer_is_caught() {
        let mut log = true_log();
        let k = log.jobs.len() - 1;
        let planted = &mut log.jobs[k];
        let truth = planted.answer.as_bool().unwrap();
        planted.answer = Answer::of_bool(!truth);
        let (pos, question) = (planted.pos, planted.question);
        let report = check(&log, config()).unwrap();
        assert!(!report.clean());
        assert!(
            report.problems.contains(&Problem::SolvedAgain {
                pos,
                question,
                logged: Answer::of_bool(!truth),
                solved: truth,
            }),
            "{:?}",
            report.problems
        );
        let text = report.problems.last().unwrap().to_string();
        assert!(text.contains(": logged "), "{text}");
        assert!(text.ends_with(&format!("solved again {}", Answer::of_bool(truth).text())));
        let unsampled = check(
            &log,
            CheckOptions {
                samples: 0,
                ..config()
            },
        )
        .unwrap();
        assert!(unsampled.sampled.is_empty());
        assert!(
            !unsampled
                .problems
                .iter()
                .any(|p| matches!(p, Problem::SolvedAgain { .. })),
            "{:?}",
            unsampled.problems
        );
    }

    /// The same line answered both ways is a conflict; a damaged line is
    /// counted, a torn one only noted.
    #[test]
    fn conflicts_and_damage_are_problems_torn_lines_are_not() {
        let mut log = true_log();
        let mut twin = log.jobs[0].clone();
        twin.answer = Answer::of_bool(!twin.answer.as_bool().unwrap());
        twin.id = 100;
        log.jobs.push(twin.clone());
        let damage = |torn| Damage {
            file: "proof.log".into(),
            line: 7,
            why: "checksum".into(),
            torn,
        };
        log.damaged = vec![damage(false), damage(true)];
        let report = check(
            &log,
            CheckOptions {
                samples: 0,
                ..config()
            },
        )
        .unwrap();
        assert_eq!(report.problems[0], Problem::Damaged(1));
        assert_eq!(
            report.problems[1],
            Problem::Conflict {
                key: twin.key(),
                question: twin.question
            }
        );
        assert!(report.torn.as_ref().is_some_and(|d| d.torn));
    }

    /// The sample is the seed's: the same seed picks the same answers,
    /// distinct ones, and other seeds pick others.
    #[test]
    fn the_sample_is_deterministic_for_a_seed() {
        let log = true_log();
        let options = |seed| CheckOptions {
            samples: 3,
            seed,
            hash_mb: 1,
        };
        let picked = |seed| check(&log, options(seed)).unwrap().sampled;
        let first = picked(7);
        assert_eq!(first.len(), 3);
        assert_eq!(picked(7), first);
        let mut distinct = first.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 3);
        assert!((8..20).any(|seed| picked(seed) != first));
    }
}
