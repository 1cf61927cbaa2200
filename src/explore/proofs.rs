//! What the proof manager's logs know, for the oracle: every answered
//! question of every finished job, by canonical position. A position whose
//! two questions ("does the side to move win?", "does it avoid losing?")
//! are answered, or one of them decisively, has a proven value; the oracle
//! then names the source `proof`.

use super::oracle::{wdl_only, Knowledge};
use crate::prove::{read_logs, value_of, LogError, LOG_FILE};
use crate::rules::{canonical, position_key, Position, Variant, Wdl};
use crate::solve::{Proven, Question, Solution};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The answers of one game's proof logs.
pub struct ProofLogs {
    variant: Variant,
    /// (canonical key, question) -> answer.
    answers: HashMap<(u128, Question), bool>,
    /// Lines reported damaged while reading (ignored, never believed).
    damaged: usize,
}

impl ProofLogs {
    /// Reads the log of the proof directory `dir` (damaged lines are
    /// counted and ignored).
    pub fn read(dir: &Path) -> Result<ProofLogs, LogError> {
        let log = read_logs(&[dir.to_path_buf()], None)?;
        let mut answers = HashMap::new();
        for job in &log.jobs {
            if let Some(a) = job.answer.as_bool() {
                answers.insert((job.key(), job.question), a);
            }
        }
        Ok(ProofLogs {
            variant: log.variant,
            answers,
            damaged: log.damaged.len(),
        })
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
}

impl Knowledge for ProofLogs {
    fn lookup(&self, pos: &Position) -> Option<Solution> {
        if pos.variant() != self.variant || pos.is_game_over() {
            return None;
        }
        self.wdl(position_key(&canonical(pos))).map(wdl_only)
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
