//! The oracle: a position's value and every move's value, and where the
//! answer came from. In order it asks the tables (when they hold the
//! position and all its moves' positions), any extra source of proven
//! results (the proof manager's logs, through [`Knowledge`]), and last a
//! bounded search: an alpha-beta solve with DTM, then win/draw/loss only,
//! each within a node and time budget. No answer within the budget is an
//! error ([`OracleError::NoAnswer`]), never a guess.

use crate::rules::{Move, Position, Value, Variant, Wdl};
use crate::solve::{Proven, SearchConfig, Solution, SolveError, Solver, SolverConfig};
use crate::table::{TableError, Tablebase};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Where an answer came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// The retrograde tables (exact, with DTM).
    Table,
    /// Proven results of an extra [`Knowledge`] source (the proof logs).
    Proof,
    /// A search that finished within its budget (exact; with DTM when the
    /// DTM search finished, else win/draw/loss).
    Search,
}

impl Source {
    /// The source's name in the API: `table`, `proof` or `search`.
    pub const fn name(self) -> &'static str {
        match self {
            Source::Table => "table",
            Source::Proof => "proof",
            Source::Search => "search",
        }
    }
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An extra source of proven values, such as the proof manager's logs.
/// The oracle asks it after the tables and before searching.
pub trait Knowledge: Send + Sync {
    /// The proven value of `pos` (from the side to move's view), if known.
    fn lookup(&self, pos: &Position) -> Option<Solution>;

    /// Proven results to seed a search of `variant` with (the solver takes
    /// them as leaves, [`Solver::load_proven`]); `dtm` says which mode
    /// the scores must be in. None by default.
    fn proven(&self, _variant: Variant, _dtm: bool) -> Vec<Proven> {
        Vec::new()
    }
}

/// How much a search may spend: nodes and wall time (either may be
/// unbounded; both unbounded is a full solve).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Nodes a search may take (`None`: no limit).
    pub nodes: Option<u64>,
    /// Wall time a search may take (`None`: no limit).
    pub time: Option<Duration>,
}

/// Why the oracle has no answer.
#[derive(Debug, thiserror::Error)]
pub enum OracleError {
    /// A table could not be read (damaged, unreadable).
    #[error(transparent)]
    Table(#[from] TableError),
    #[error("no answer within the search budget ({0})")]
    /// Nothing knows the position and the search ran out of budget.
    NoAnswer(String),
    /// The search could not start (its transposition table does not fit).
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// A position's value and every legal move's value (from the mover's
/// view, best first), and their source.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The position analysed.
    pub position: Position,
    /// Its value from the side to move's view.
    pub value: Solution,
    /// Who knew it.
    pub source: Source,
    /// Every legal move with its value from the mover's view, best first.
    pub moves: Vec<(Move, Solution)>,
}

/// An exact value as a [`Solution`].
pub fn exact(v: Value) -> Solution {
    Solution {
        wdl: v.wdl(),
        value: Some(v),
    }
}

/// A win/draw/loss value without DTM as a [`Solution`].
pub fn wdl_only(w: Wdl) -> Solution {
    Solution {
        wdl: w,
        value: None,
    }
}

/// The value of a move for its mover, from the value of the position it
/// leads to.
pub fn before_move(s: Solution) -> Solution {
    Solution {
        wdl: s.wdl.before_move(),
        value: s.value.map(Value::before_move),
    }
}

/// Orders solutions from the mover's view: wins (faster first, a win
/// without DTM after every win with one), draws, losses (slower first).
pub fn solution_key(s: &Solution) -> i32 {
    match (s.wdl, s.value) {
        (_, Some(v)) => match v {
            Value::Win(d) => 2000 - d as i32,
            Value::Draw => 0,
            Value::Loss(d) => -2000 + d as i32,
        },
        (Wdl::Win, None) => 1000,
        (Wdl::Draw, None) => 0,
        (Wdl::Loss, None) => -1000,
    }
}

/// Runs `f` with `solver` stopped at `deadline` (if any): a timer thread
/// raises the stop flag then, unless `f` returns first. The flag is
/// lowered again afterwards so the solver (and its transposition table)
/// can be used again.
pub fn with_deadline<T>(
    solver: &Solver<'_>,
    deadline: Option<Instant>,
    f: impl FnOnce() -> T,
) -> T {
    let Some(deadline) = deadline else {
        return f();
    };
    let flag = solver.stop_flag();
    let (done, wait) = mpsc::channel::<()>();
    let timer = {
        let flag = Arc::clone(&flag);
        std::thread::spawn(move || {
            let left = deadline.saturating_duration_since(Instant::now());
            if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(left) {
                flag.store(true, Ordering::Relaxed);
            }
        })
    };
    let out = f();
    drop(done);
    let _ = timer.join();
    flag.store(false, Ordering::Relaxed);
    out
}

/// Answers positions of any variant: tables from one directory (opened per
/// variant on first use), extra knowledge, and a bounded search.
pub struct Oracle {
    tables_dir: Option<PathBuf>,
    tables: Mutex<HashMap<Variant, Arc<Tablebase>>>,
    knowledge: Vec<Arc<dyn Knowledge>>,
    budget: Budget,
    hash_mb: usize,
}

impl Oracle {
    /// An oracle with tables from `tables_dir` (if any) and this search
    /// budget per question.
    pub fn new(tables_dir: Option<PathBuf>, budget: Budget) -> Oracle {
        Oracle {
            tables_dir,
            tables: Mutex::new(HashMap::new()),
            knowledge: Vec::new(),
            budget,
            hash_mb: 16,
        }
    }

    /// Adds a source of proven results, asked after the tables.
    pub fn with_knowledge(mut self, k: Arc<dyn Knowledge>) -> Oracle {
        self.knowledge.push(k);
        self
    }

    /// The transposition table size of each search, in MiB.
    pub fn with_hash_mb(mut self, mb: usize) -> Oracle {
        self.hash_mb = mb.max(1);
        self
    }

    /// What each search may spend.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// The tablebase of `variant`, if a directory was given.
    pub fn tablebase(&self, variant: Variant) -> Option<Arc<Tablebase>> {
        let dir = self.tables_dir.as_ref()?;
        let mut tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        Some(Arc::clone(tables.entry(variant).or_insert_with(|| {
            // Safety: table files are written once under a temporary name
            // and renamed into place, never changed in place; a file
            // replaced while mapped keeps its old contents for this map.
            Arc::new(unsafe { Tablebase::new_mmap(dir.clone(), variant) })
        })))
    }

    /// The value of `pos` and of each move, from the tables if they hold
    /// them all, else from the extra knowledge if it holds them all, else
    /// by a search within the budget.
    pub fn analyse(&self, pos: &Position) -> Result<Analysis, OracleError> {
        let tb = self.tablebase(pos.variant());
        if let Some(tb) = &tb {
            if let Some(a) = table_analysis(tb, pos)? {
                return Ok(a);
            }
        }
        if let Some(a) = self.knowledge_analysis(pos) {
            return Ok(a);
        }
        self.search_analysis(pos, tb.as_deref())
    }

    fn knowledge_analysis(&self, pos: &Position) -> Option<Analysis> {
        if self.knowledge.is_empty() || pos.is_game_over() {
            return None;
        }
        let ask = |p: &Position| self.knowledge.iter().find_map(|k| k.lookup(p));
        let value = ask(pos)?;
        let mut moves = Vec::new();
        for &m in pos.legal_moves().iter() {
            moves.push((m, before_move(ask(&pos.play(m))?)));
        }
        moves.sort_by_key(|(_, s)| std::cmp::Reverse(solution_key(s)));
        Some(Analysis {
            position: *pos,
            value,
            source: Source::Proof,
            moves,
        })
    }

    /// A solver of `pos`'s variant in DTM or win/draw/loss mode, with the
    /// node budget and the extra knowledge loaded.
    pub fn solver<'t>(
        &self,
        pos: &Position,
        tables: Option<&'t Tablebase>,
        dtm: bool,
    ) -> Result<Solver<'t>, SolveError> {
        let solver = Solver::new(
            SolverConfig {
                search: SearchConfig {
                    hash_mb: self.hash_mb,
                    threads: 1,
                    max_nodes: self.budget.nodes,
                    ..SolverConfig::default().search
                },
                dtm,
                ..SolverConfig::default()
            },
            tables,
        )?;
        for k in &self.knowledge {
            solver.load_proven(&k.proven(pos.variant(), dtm));
        }
        Ok(solver)
    }

    fn search_analysis(
        &self,
        pos: &Position,
        tables: Option<&Tablebase>,
    ) -> Result<Analysis, OracleError> {
        if let Some(outcome) = pos.outcome() {
            let value = match outcome {
                crate::rules::Outcome::Draw => Value::Draw,
                crate::rules::Outcome::Decisive { .. } => Value::Loss(0),
            };
            return Ok(Analysis {
                position: *pos,
                value: exact(value),
                source: Source::Search,
                moves: Vec::new(),
            });
        }
        let start = Instant::now();
        let deadline = self.budget.time.map(|t| start + t);
        // DTM first; if it runs out of budget, win/draw/loss with what is left.
        for dtm in [true, false] {
            let solver = self.solver(pos, tables, dtm)?;
            let result = with_deadline(&solver, deadline, || solver.solve_root(pos, &|_, _| {}));
            match result {
                Ok(root) => {
                    return Ok(Analysis {
                        position: *pos,
                        value: root.value,
                        source: Source::Search,
                        moves: root.moves,
                    })
                }
                Err(SolveError::Stopped) => continue,
                Err(SolveError::Table(e)) => return Err(e.into()),
                Err(e) => return Err(OracleError::NoAnswer(e.to_string())),
            }
        }
        Err(OracleError::NoAnswer(self.budget_text()))
    }

    fn budget_text(&self) -> String {
        let mut parts = Vec::new();
        if let Some(n) = self.budget.nodes {
            parts.push(format!("{n} nodes"));
        }
        if let Some(t) = self.budget.time {
            parts.push(format!("{:.1} s", t.as_secs_f64()));
        }
        if parts.is_empty() {
            parts.push("unbounded".into());
        }
        parts.join(", ")
    }

    /// A line of perfect play from `pos` to the end of the game (at most
    /// `max_plies`), with the position's analysis: the best move at each
    /// step. The source is the weakest used along the line.
    pub fn mainline(
        &self,
        pos: &Position,
        max_plies: usize,
    ) -> Result<(Analysis, Vec<Move>), OracleError> {
        let first = self.analyse(pos)?;
        let mut line = Vec::new();
        let mut p = *pos;
        let mut a = first.clone();
        while let Some(&(m, _)) = a.moves.first() {
            if line.len() >= max_plies {
                break;
            }
            line.push(m);
            p = p.play(m);
            if p.is_game_over() {
                break;
            }
            a = self.analyse(&p)?;
        }
        Ok((first, line))
    }
}

/// The tables' answer for `pos` and every move, or `None` when some
/// position is missing from them.
pub fn table_analysis(tb: &Tablebase, pos: &Position) -> Result<Option<Analysis>, TableError> {
    let value = match tb.probe(pos) {
        Ok(v) => v,
        Err(TableError::Missing { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    let moves = match tb.best_moves(pos) {
        Ok(m) => m,
        Err(TableError::Missing { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    Ok(Some(Analysis {
        position: *pos,
        value: exact(value),
        source: Source::Table,
        moves: moves.into_iter().map(|(m, v)| (m, exact(v))).collect(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{parse_position, Board, Rules};

    /// A stand-in for the proof logs: win/draw/loss from a search.
    struct Searched;

    impl Knowledge for Searched {
        fn lookup(&self, pos: &Position) -> Option<Solution> {
            let solver = Solver::new(SolverConfig::default(), None).ok()?;
            let s = solver.solve(pos).ok()?;
            Some(wdl_only(s.wdl))
        }
    }

    #[test]
    fn extra_knowledge_answers_as_proof() {
        let pos = parse_position(
            "pawngame",
            Some(Board::new(4, 5).unwrap()),
            Rules::default(),
        )
        .unwrap();
        let searched = Oracle::new(None, Budget::default()).analyse(&pos).unwrap();
        assert_eq!(searched.source, Source::Search);
        let proof = Oracle::new(None, Budget::default())
            .with_knowledge(Arc::new(Searched))
            .analyse(&pos)
            .unwrap();
        assert_eq!(proof.source, Source::Proof);
        assert_eq!(proof.value.wdl, searched.value.wdl);
        assert_eq!(proof.moves.len(), searched.moves.len());
        for (m, s) in &proof.moves {
            let same = searched.moves.iter().find(|(n, _)| n == m).unwrap();
            assert_eq!(s.wdl, same.1.wdl, "{m}");
            assert_eq!(s.value, None);
        }
        // Best first.
        assert!(proof
            .moves
            .windows(2)
            .all(|w| solution_key(&w[0].1) >= solution_key(&w[1].1)));
    }
}
