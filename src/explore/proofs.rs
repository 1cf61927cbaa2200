//! What the proof manager's logs know, for the oracle: every answered
//! question of every finished job, by canonical position. A position whose
//! two questions ("does the side to move win?", "does it avoid losing?")
//! are answered, or one of them decisively, has a proven value; so has a
//! position the proof expanded, whose value follows from its children's
//! (as the manager derived it). The oracle then names the
//! source `proof`. The logs also tell which questions were answered about
//! a position and with how many nodes ([`Knowledge::questions`]), and the
//! move of each "yes", which the line of perfect play follows
//! ([`Knowledge::witness`]).

use super::oracle::{wdl_only, Answered, Knowledge};
use crate::prove::{read_logs, value_of, LogContents, LogError, LOG_FILE};
use crate::rules::{canonical, position_key, Move, Position, Variant, Wdl};
use crate::solve::{Proven, Question, Solution};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The answers of one game's proof logs.
pub struct ProofLogs {
    variant: Variant,
    /// (canonical key, question) -> answer.
    answers: HashMap<(u128, Question), bool>,
    /// (canonical key, question) -> the jobs that asked it.
    work: HashMap<(u128, Question), Answered>,
    /// (canonical key, question) -> the move of a "yes" (in SAN, of the
    /// canonical position).
    best: HashMap<(u128, Question), (Position, String)>,
    /// Lines reported damaged while reading (ignored, never believed).
    damaged: usize,
    /// Every position the proof asked about (answered or open) and every
    /// root: the only ones whose value may be derived from their children.
    asked: HashSet<u128>,
    /// Bounds derived from children, by canonical key.
    derived: Mutex<HashMap<u128, (Wdl, Wdl)>>,
}

impl ProofLogs {
    /// Reads the log of the proof directory `dir` (damaged lines are
    /// counted and ignored).
    pub fn read(dir: &Path) -> Result<ProofLogs, LogError> {
        Ok(ProofLogs::from_log(read_logs(&[dir.to_path_buf()], None)?))
    }

    /// What a log read already knows.
    pub fn from_log(log: LogContents) -> ProofLogs {
        let mut answers = HashMap::new();
        // Roots are expanded without a job of their own.
        let asked = log
            .jobs
            .iter()
            .map(|j| j.key())
            .chain(log.roots.iter().map(|r| position_key(&canonical(&r.pos))))
            .collect();
        let mut work: HashMap<(u128, Question), Answered> = HashMap::new();
        let mut best = HashMap::new();
        for job in &log.jobs {
            let w = work
                .entry((job.key(), job.question))
                .or_insert_with(|| Answered {
                    question: job.question,
                    answer: false,
                    nodes: 0,
                    total_nodes: 0,
                    jobs: 0,
                    by_moves: false,
                });
            w.total_nodes += job.nodes;
            w.jobs += 1;
            if let Some(a) = job.answer.as_bool() {
                answers.insert((job.key(), job.question), a);
                w.answer = a;
                w.nodes = job.nodes;
                if let (true, Some(m)) = (a, &job.best) {
                    best.insert((job.key(), job.question), (canonical(&job.pos), m.clone()));
                }
            }
        }
        ProofLogs {
            variant: log.variant,
            answers,
            work,
            best,
            damaged: log.damaged.len(),
            asked,
            derived: Mutex::new(HashMap::new()),
        }
    }

    /// Every proof directory at `dir`: `dir` itself if it holds a log,
    /// else each of its subdirectories that does (`results/` holds one per
    /// game).
    pub fn read_all(dir: &Path) -> Result<Vec<ProofLogs>, LogError> {
        if dir.join(LOG_FILE).exists() {
            return Ok(vec![ProofLogs::read(dir)?]);
        }
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|source| LogError::Io {
                path: dir.to_path_buf(),
                source,
            })?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.join(LOG_FILE).exists())
            .collect();
        dirs.sort();
        dirs.iter().map(|d| ProofLogs::read(d)).collect()
    }

    /// The game the logs are of.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// How many questions the logs answer.
    pub fn len(&self) -> usize {
        self.answers.len()
    }

    /// Whether the logs answer nothing.
    pub fn is_empty(&self) -> bool {
        self.answers.is_empty()
    }

    /// Lines that were damaged and ignored.
    pub fn damaged(&self) -> usize {
        self.damaged
    }

    fn wdl(&self, key: u128) -> Option<Wdl> {
        let get = |q| self.answers.get(&(key, q)).copied();
        value_of(get(Question::Wins), get(Question::AvoidsLoss))
    }

    /// The bounds (lowest, highest) the logged answers put on the value
    /// of `pos`: its own answers ("wins: no" caps it at a draw, "avoids
    /// loss: yes" raises it to one, and so on), and for a position the
    /// proof asked about or started from, what its children's bounds
    /// imply (the best move's value lies between the best of the
    /// children's lows and the best of their highs). A proof of a draw
    /// leaves most children known only as bounds, which is why values are
    /// combined this way. The work is bounded by the proof's size: only
    /// asked positions are expanded.
    fn bounds(&self, pos: &Position) -> (Wdl, Wdl) {
        if pos.winner_by_rule().is_some() {
            return (Wdl::Loss, Wdl::Loss);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return (Wdl::Draw, Wdl::Draw);
        }
        let key = position_key(&canonical(pos));
        let get = |q| self.answers.get(&(key, q)).copied();
        let (mut lo, mut hi) = (Wdl::Loss, Wdl::Win);
        match get(Question::Wins) {
            Some(true) => lo = Wdl::Win,
            Some(false) => hi = hi.min(Wdl::Draw),
            None => {}
        }
        match get(Question::AvoidsLoss) {
            Some(true) => lo = lo.max(Wdl::Draw),
            Some(false) => hi = Wdl::Loss,
            None => {}
        }
        if lo == hi || !self.asked.contains(&key) {
            return (lo, hi);
        }
        let memo = self
            .derived
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .copied();
        if let Some(b) = memo {
            return b;
        }
        // Acyclic (every move advances a pawn), so the recursion ends.
        let (mut best_lo, mut best_hi) = (Wdl::Loss, Wdl::Loss);
        for &m in moves.iter() {
            let (c_lo, c_hi) = self.bounds(&pos.play(m));
            best_lo = best_lo.max(c_hi.before_move());
            best_hi = best_hi.max(c_lo.before_move());
        }
        let b = (lo.max(best_lo), hi.min(best_hi));
        self.derived
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, b);
        b
    }
}

impl Knowledge for ProofLogs {
    fn lookup(&self, pos: &Position) -> Option<Solution> {
        if pos.variant() != self.variant || pos.is_game_over() {
            return None;
        }
        let (lo, hi) = self.bounds(pos);
        (lo == hi).then(|| wdl_only(lo))
    }

    fn bounds(&self, pos: &Position) -> Option<(Wdl, Wdl)> {
        if pos.variant() != self.variant || pos.is_game_over() {
            return None;
        }
        Some(ProofLogs::bounds(self, pos)).filter(|&b| b != (Wdl::Loss, Wdl::Win))
    }

    fn questions(&self, pos: &Position) -> Vec<Answered> {
        if pos.variant() != self.variant || pos.is_game_over() {
            return Vec::new();
        }
        let key = position_key(&canonical(pos));
        let (lo, hi) = ProofLogs::bounds(self, pos);
        let mut out = Vec::new();
        for q in [Question::Wins, Question::AvoidsLoss] {
            let logged = self.work.get(&(key, q)).cloned();
            if logged.is_some() && self.answers.contains_key(&(key, q)) {
                out.extend(logged);
                continue;
            }
            // Not answered by a job: answered by the moves' answers?
            let answer = match q {
                Question::Wins if lo == Wdl::Win => Some(true),
                Question::Wins if hi < Wdl::Win => Some(false),
                Question::AvoidsLoss if lo >= Wdl::Draw => Some(true),
                Question::AvoidsLoss if hi == Wdl::Loss => Some(false),
                _ => None,
            };
            if let Some(answer) = answer {
                let tried = logged.unwrap_or(Answered {
                    question: q,
                    answer,
                    nodes: 0,
                    total_nodes: 0,
                    jobs: 0,
                    by_moves: true,
                });
                out.push(Answered {
                    answer,
                    nodes: 0,
                    by_moves: true,
                    ..tried
                });
            }
        }
        out
    }

    fn witness(&self, pos: &Position, value: Wdl) -> Option<Move> {
        if pos.variant() != self.variant || pos.is_game_over() {
            return None;
        }
        let question = match value {
            Wdl::Win => Question::Wins,
            Wdl::Draw => Question::AvoidsLoss,
            Wdl::Loss => return None,
        };
        let key = position_key(&canonical(pos));
        let (logged, san) = self.best.get(&(key, question))?;
        let m = logged.parse_move(san).ok()?;
        // The logged move is of the canonical position: the same move of
        // `pos` leads to the same position up to the symmetries.
        let target = position_key(&canonical(&logged.play(m)));
        pos.legal_moves()
            .iter()
            .copied()
            .find(|&m| position_key(&canonical(&pos.play(m))) == target)
    }

    fn proven(&self, variant: Variant, dtm: bool) -> Vec<Proven> {
        if dtm || variant != self.variant {
            return Vec::new();
        }
        let mut keys: Vec<u128> = self.answers.keys().map(|&(k, _)| k).collect();
        keys.sort_unstable();
        keys.dedup();
        keys.into_iter()
            .filter_map(|key| {
                let score = match self.wdl(key)? {
                    Wdl::Win => 1,
                    Wdl::Draw => 0,
                    Wdl::Loss => -1,
                };
                Some(Proven {
                    key,
                    score,
                    best: 0,
                    work: 0,
                })
            })
            .collect()
    }
}
