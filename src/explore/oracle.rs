//! The oracle: a position's value and every move's value, and where the
//! answer came from. In order it asks the tables (when they hold the
//! position and all its moves' positions), any extra source of proven
//! results (the proof manager's logs, through [`Knowledge`]), and last a
//! bounded search: an alpha-beta solve with DTM, then win/draw/loss only,
//! each within a node and time budget. No answer within the budget is an
//! error ([`OracleError::NoAnswer`]), never a guess.
//!
//! [`Oracle::known`] asks only what answers at once (the tables, the
//! proven results and the searches already finished), never a search; a
//! server answers probes from it and runs searches apart. [`Oracle::line`]
//! plays a line of perfect play from the same sources, proofs first, and
//! says where it stops being proven.

use crate::rules::{Move, Position, Value, Variant, Wdl};
use crate::solve::{
    Proven, Question, SearchConfig, Solution, Solve, SolveError, Solver, SolverConfig,
};
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
    /// The retrograde tables (exact, with DTM; win/draw/loss alone from
    /// tables made by `gen --wdl-only`).
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

    /// The bounds (lowest, highest) proven on the value of `pos`, when they
    /// say anything (by default: the proven value, if any).
    fn bounds(&self, pos: &Position) -> Option<(Wdl, Wdl)> {
        self.lookup(pos).map(|s| (s.wdl, s.wdl))
    }

    /// The questions about `pos` that this source answered, with the work
    /// each took (none by default).
    fn questions(&self, _pos: &Position) -> Vec<Answered> {
        Vec::new()
    }

    /// A move of `pos` that this source proved keeps the value `value`
    /// (from the mover's view; a win or a draw), if it knows one.
    fn witness(&self, _pos: &Position, _value: Wdl) -> Option<Move> {
        None
    }
}

/// A question of the proof manager answered about a position, and what
/// it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answered {
    /// The question, asked of the side to move.
    pub question: Question,
    /// The answer.
    pub answer: bool,
    /// Nodes of the job that answered it (0 for an answer a worker handed
    /// on from a bigger job).
    pub nodes: u64,
    /// Nodes of every job that asked it, those that ran out included.
    pub total_nodes: u64,
    /// How many jobs asked it.
    pub jobs: usize,
    /// Whether the answer follows from the answers about the position's
    /// moves (the proof expanded it) rather than from a job of its own.
    pub by_moves: bool,
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
    /// Neither the tables nor the proven results know the position, and no
    /// search was asked for.
    #[error("not in the tables or the proofs: a search answers it (ask with search=1)")]
    Unknown,
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
    /// The legal moves whose value the source does not know (a proof
    /// settles a position without settling every move).
    pub unknown: Vec<Move>,
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
pub fn with_deadline<T>(solver: &dyn Solve, deadline: Option<Instant>, f: impl FnOnce() -> T) -> T {
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

/// How many finished searches an oracle keeps (it forgets them all when
/// full).
pub const SEARCHES_KEPT: usize = 1 << 16;

/// Where a line of perfect play stops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineEnd {
    /// The game is over.
    GameOver,
    /// The line reached the longest length asked for.
    MaxPlies,
    /// Nothing that answers at once knows a move that keeps the value, and
    /// no search was asked for.
    Unproven,
    /// The search ran out of its budget (what the budget was).
    SearchBudget(String),
}

impl LineEnd {
    /// What the end says, in words.
    pub fn text(&self) -> String {
        match self {
            LineEnd::GameOver => "the game is over".into(),
            LineEnd::MaxPlies => "the longest line given".into(),
            LineEnd::Unproven => {
                "no table or proof knows a move that keeps the value here (a search does: ask with search=1)".into()
            }
            LineEnd::SearchBudget(b) => format!("the search ran out of its budget ({b})"),
        }
    }
}

/// A line of perfect play: the start's analysis, each move with the
/// source that knew it keeps the value, and where the line stops.
#[derive(Clone, Debug)]
pub struct Line {
    /// The start's analysis.
    pub analysis: Analysis,
    /// The moves, each with its source.
    pub moves: Vec<(Move, Source)>,
    /// Why the line stops there.
    pub end: LineEnd,
}

/// Answers positions of any variant: tables from one directory (opened per
/// variant on first use), extra knowledge, and a bounded search.
pub struct Oracle {
    tables_dir: Option<PathBuf>,
    tables: Mutex<HashMap<Variant, Arc<Tablebase>>>,
    knowledge: Vec<Arc<dyn Knowledge>>,
    budget: Budget,
    hash_mb: usize,
    searched: Mutex<HashMap<Position, Analysis>>,
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
            searched: Mutex::new(HashMap::new()),
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
    /// from a search already finished, else by a search within the budget.
    pub fn analyse(&self, pos: &Position) -> Result<Analysis, OracleError> {
        match self.known(pos)? {
            Some(a) if a.unknown.is_empty() => Ok(a),
            _ => self.search(pos),
        }
    }

    /// What answers `pos` at once, without a search: the tables, the extra
    /// knowledge (whose analysis may leave some moves [`Analysis::unknown`]),
    /// a search already finished, or the rules for a finished game.
    pub fn known(&self, pos: &Position) -> Result<Option<Analysis>, OracleError> {
        if let Some(a) = game_over_analysis(pos) {
            return Ok(Some(a));
        }
        let tb = self.tablebase(pos.variant());
        if let Some(tb) = &tb {
            if let Some(a) = table_analysis(tb, pos)? {
                return Ok(Some(a));
            }
        }
        let proof = self.knowledge_analysis(pos);
        if proof.as_ref().is_some_and(|a| a.unknown.is_empty()) {
            return Ok(proof);
        }
        let searched = self
            .searched
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(pos)
            .cloned();
        Ok(searched.or(proof))
    }

    /// A search of `pos` within the budget (a search already finished
    /// answers again); its answer is kept for [`Oracle::known`].
    pub fn search(&self, pos: &Position) -> Result<Analysis, OracleError> {
        let deadline = self.budget.time.map(|t| Instant::now() + t);
        self.search_until(pos, deadline)
    }

    fn search_until(
        &self,
        pos: &Position,
        deadline: Option<Instant>,
    ) -> Result<Analysis, OracleError> {
        if let Some(a) = game_over_analysis(pos) {
            return Ok(a);
        }
        if let Some(a) = self
            .searched
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(pos)
        {
            return Ok(a.clone());
        }
        let tb = self.tablebase(pos.variant());
        let a = self.search_analysis(pos, tb.as_deref(), deadline)?;
        let mut kept = self.searched.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() >= SEARCHES_KEPT {
            kept.clear();
        }
        kept.insert(*pos, a.clone());
        Ok(a)
    }

    /// The proven bounds of `pos` from every extra source together.
    fn proven_bounds(&self, pos: &Position) -> Option<(Wdl, Wdl)> {
        let mut out: Option<(Wdl, Wdl)> = None;
        for k in &self.knowledge {
            if let Some((lo, hi)) = k.bounds(pos) {
                let (l, h) = out.unwrap_or((Wdl::Loss, Wdl::Win));
                out = Some((l.max(lo), h.min(hi)));
            }
        }
        out
    }

    /// The questions about `pos` that the extra sources answered.
    pub fn questions(&self, pos: &Position) -> Vec<Answered> {
        self.knowledge
            .iter()
            .flat_map(|k| k.questions(pos))
            .collect()
    }

    fn knowledge_analysis(&self, pos: &Position) -> Option<Analysis> {
        if self.knowledge.is_empty() || pos.is_game_over() {
            return None;
        }
        let ask = |p: &Position| self.knowledge.iter().find_map(|k| k.lookup(p));
        let value = ask(pos)?;
        let mut moves = Vec::new();
        let mut unknown = Vec::new();
        // A move the proof shows keeps the value is worth the value, even
        // where its position is not settled on its own (see `line`).
        let keeps = self
            .knowledge
            .iter()
            .find_map(|k| k.witness(pos, value.wdl))
            .filter(|_| value.wdl != Wdl::Loss);
        for &m in pos.legal_moves().iter() {
            let capped = || {
                let hi = self.proven_bounds(&pos.play(m)).map(|(_, hi)| hi);
                hi.is_some_and(|hi| hi <= value.wdl.before_move())
            };
            match ask(&pos.play(m)) {
                Some(s) => moves.push((m, before_move(s))),
                // A lost position's moves all lose.
                None if value.wdl == Wdl::Loss || keeps == Some(m) || capped() => {
                    moves.push((m, wdl_only(value.wdl)))
                }
                None => unknown.push(m),
            }
        }
        moves.sort_by_key(|(_, s)| std::cmp::Reverse(solution_key(s)));
        Some(Analysis {
            position: *pos,
            value,
            source: Source::Proof,
            moves,
            unknown,
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
        deadline: Option<Instant>,
    ) -> Result<Analysis, OracleError> {
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
                        unknown: Vec::new(),
                    })
                }
                Err(SolveError::Stopped) => continue,
                // Tables without distances serve the win/draw/loss search.
                Err(SolveError::Table(TableError::NoDtm { .. })) if dtm => continue,
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
        let line = self.line(pos, max_plies, true)?;
        match line.end {
            LineEnd::SearchBudget(b) => Err(OracleError::NoAnswer(b)),
            _ => Ok((line.analysis, line.moves.iter().map(|&(m, _)| m).collect())),
        }
    }

    /// A line of perfect play from `pos` (at most `max_plies`): at each
    /// step the tables' best move, else a move the proofs show keeps the
    /// value, else a finished search's best move, else (with `search`) a
    /// new search's; all the searches of one line share the budget's time.
    /// Without `search`, the start must be known at once
    /// ([`OracleError::Unknown`] otherwise).
    ///
    /// Proofs are followed by the value each move keeps: once a position's
    /// value `v` is known, every move's value is at most `v`, so the
    /// position after it is worth at least the opposite of `v` to the
    /// other side; a move whose position the proof caps at that (for a
    /// draw, "the opponent does not win"; for a win, "the opponent loses")
    /// keeps the value. This is how a proof of a draw gives a drawing move
    /// for each side: each side's proof answers the other's questions.
    pub fn line(
        &self,
        pos: &Position,
        max_plies: usize,
        search: bool,
    ) -> Result<Line, OracleError> {
        let deadline = self.budget.time.map(|t| Instant::now() + t);
        let analysis = match self.known(pos)? {
            Some(a) => a,
            None if search => self.search_until(pos, deadline)?,
            None => return Err(OracleError::Unknown),
        };
        let mut moves = Vec::new();
        let mut p = *pos;
        let mut value = analysis.value.wdl;
        let end = loop {
            if p.is_game_over() {
                break LineEnd::GameOver;
            }
            if moves.len() >= max_plies {
                break LineEnd::MaxPlies;
            }
            let step = match self.line_step(&p, value)? {
                Some(step) => step,
                None if search => match self.search_until(&p, deadline) {
                    Ok(a) => match a.moves.first() {
                        Some(&(m, _)) => (m, Source::Search),
                        None => break LineEnd::GameOver,
                    },
                    Err(OracleError::NoAnswer(b)) => break LineEnd::SearchBudget(b),
                    Err(e) => return Err(e),
                },
                None => break LineEnd::Unproven,
            };
            moves.push(step);
            p = p.play(step.0);
            value = value.before_move();
        };
        Ok(Line {
            analysis,
            moves,
            end,
        })
    }

    /// A move of `pos` that keeps its value `value` (from the mover's
    /// view, known already), from what answers at once: the tables' best,
    /// a move the proofs show keeps it, or a finished search's best.
    fn line_step(&self, pos: &Position, value: Wdl) -> Result<Option<(Move, Source)>, OracleError> {
        if let Some(tb) = self.tablebase(pos.variant()) {
            if let Some(a) = table_analysis(&tb, pos)? {
                return Ok(a.moves.first().map(|&(m, _)| (m, Source::Table)));
            }
        }
        if value != Wdl::Loss {
            if let Some(m) = self.knowledge.iter().find_map(|k| k.witness(pos, value)) {
                return Ok(Some((m, Source::Proof)));
            }
        }
        if !self.knowledge.is_empty() {
            // The position after a move that keeps `value` is worth exactly
            // its opposite to the other side; its lower bound follows from
            // `value` itself, so the proof must cap it from above.
            let target = value.before_move();
            let mut fallback = None;
            for &m in pos.legal_moves().iter() {
                let (lo, hi) = self
                    .proven_bounds(&pos.play(m))
                    .unwrap_or((Wdl::Loss, Wdl::Win));
                if hi <= target {
                    // A losing side's moves all keep the value: prefer one
                    // whose position the proof knows on its own.
                    if lo >= target || target != Wdl::Win {
                        return Ok(Some((m, Source::Proof)));
                    }
                    fallback.get_or_insert(m);
                }
            }
            if let Some(m) = fallback.filter(|_| self.proven_bounds(pos).is_some()) {
                return Ok(Some((m, Source::Proof)));
            }
        }
        let searched = self
            .searched
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(pos)
            .and_then(|a| a.moves.first().map(|&(m, _)| (m, Source::Search)));
        Ok(searched)
    }
}

/// The rules' answer for a finished game (no moves), or `None`.
fn game_over_analysis(pos: &Position) -> Option<Analysis> {
    let value = match pos.outcome()? {
        crate::rules::Outcome::Draw => Value::Draw,
        crate::rules::Outcome::Decisive { .. } => Value::Loss(0),
    };
    Some(Analysis {
        position: *pos,
        value: exact(value),
        source: Source::Search,
        moves: Vec::new(),
        unknown: Vec::new(),
    })
}

/// The tables' answer for `pos` and every move, or `None` when some
/// position is missing from them. Where a table on the way holds win,
/// draw or loss only (`gen --wdl-only`), the answer is without distances.
pub fn table_analysis(tb: &Tablebase, pos: &Position) -> Result<Option<Analysis>, TableError> {
    let exact_answer = tb
        .probe(pos)
        .and_then(|v| Ok((exact(v), tb.best_moves(pos)?)))
        .map(|(value, moves)| {
            (
                value,
                moves.into_iter().map(|(m, v)| (m, exact(v))).collect(),
            )
        });
    let wdl_answer = || -> Result<(Solution, Vec<(Move, Solution)>), TableError> {
        let value = wdl_only(tb.probe_wdl(pos)?);
        let moves = tb.best_moves_wdl(pos)?;
        Ok((
            value,
            moves.into_iter().map(|(m, w)| (m, wdl_only(w))).collect(),
        ))
    };
    let answer = match exact_answer {
        Err(TableError::NoDtm { .. }) => wdl_answer(),
        other => other,
    };
    let (value, moves) = match answer {
        Ok(a) => a,
        Err(TableError::Missing { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    Ok(Some(Analysis {
        position: *pos,
        value,
        source: Source::Table,
        moves,
        unknown: Vec::new(),
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

    /// Knowledge as a proof of a draw leaves it: the start's value, and of
    /// every other position only the cap (the side to move does not win,
    /// or does not avoid losing), never the floor.
    struct Capped {
        start: Position,
    }

    impl Knowledge for Capped {
        fn lookup(&self, pos: &Position) -> Option<Solution> {
            let solver = Solver::new(SolverConfig::default(), None).ok()?;
            if *pos != self.start {
                return None;
            }
            Some(wdl_only(solver.solve(pos).ok()?.wdl))
        }

        fn bounds(&self, pos: &Position) -> Option<(Wdl, Wdl)> {
            let solver = Solver::new(SolverConfig::default(), None).ok()?;
            Some((Wdl::Loss, solver.solve(pos).ok()?.wdl))
        }
    }

    /// The line follows a proof's caps alone (each move's position capped
    /// at the opposite of the value; the floor follows from the value) to
    /// the end of the game, and every move keeps the value by the one-thread
    /// search; the probe lists those moves with the value and leaves the
    /// others unknown. Mutants caught: taking a move without checking its
    /// cap, in the line or in the probe (the 5x5 game without en passant
    /// is won by b3, c3, d3, drawn by a3).
    #[test]
    fn the_line_follows_proofs_by_their_caps() {
        for (board, ep) in [("5x5", false), ("4x5", true), ("5x5", true)] {
            let rules = Rules {
                en_passant: ep,
                seventh_rank_wins: false,
            };
            let start = parse_position("pawngame", Some(board.parse().unwrap()), rules).unwrap();
            let oracle =
                Oracle::new(None, Budget::default()).with_knowledge(Arc::new(Capped { start }));
            let line = oracle.line(&start, 100, false).unwrap();
            assert_eq!(line.end, LineEnd::GameOver, "{board}");
            let solver = Solver::new(SolverConfig::default(), None).unwrap();
            let mut p = start;
            for &(m, source) in &line.moves {
                assert_eq!(source, Source::Proof);
                let before = solver.solve(&p).unwrap().wdl;
                p = p.play(m);
                assert_eq!(
                    solver.solve(&p).unwrap().wdl.before_move(),
                    before,
                    "{board}: {m}"
                );
            }
            assert!(p.is_game_over());
            // The probe lists as worth the value exactly the moves that
            // keep it; the others stay unknown.
            let a = oracle.known(&start).unwrap().unwrap();
            let value = solver.solve(&start).unwrap().wdl;
            for (m, s) in &a.moves {
                let after = solver.solve(&start.play(*m)).unwrap().wdl.before_move();
                assert_eq!((s.wdl, after), (value, value), "{board}: {m}");
            }
            for m in &a.unknown {
                let after = solver.solve(&start.play(*m)).unwrap().wdl.before_move();
                assert!(after < value, "{board}: {m}");
            }
            // Without the start's value nothing answers at once.
            let bare = Oracle::new(None, Budget::default());
            assert!(matches!(
                bare.line(&start, 100, false),
                Err(OracleError::Unknown)
            ));
        }
    }
}
