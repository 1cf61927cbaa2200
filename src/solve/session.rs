//! A solve that survives being stopped: a [`Session`] loads what a save
//! file already proves into a solver, runs the solve with a stop flag, a
//! periodic save and progress events, and writes the union of what was
//! loaded and what was proven back to the file (under a temporary name,
//! renamed when complete, so a save file is never half written).
//!
//! Any solver that implements [`Solve`] can run in a session: the
//! alpha-beta [`Solver`] and the proof-number [`PnSolver`] keep the same
//! win/draw/loss save files, so either resumes from what the other saved.

use super::alphabeta::Solver;
use super::pns::PnSolver;
use super::savefile::{load_proven, save_proven_union, ProvenError, ProvenKind};
use super::types::{Proven, Question, RootSolution, Solution, SolveError, SolveStats};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a [`Session`] needs of a solver, whichever search it runs.
pub trait Solve: Sync {
    /// The counters so far, all threads.
    fn stats(&self) -> SolveStats;
    /// Every exactly proven result in the transposition table.
    fn proven(&self) -> Vec<Proven>;
    /// Puts proven results (from a save file) into the transposition table.
    fn load_proven(&self, proven: &[Proven]);
    /// The flag that stops every search of the solver soon with
    /// [`SolveError::Stopped`].
    fn stop_flag(&self) -> Arc<AtomicBool>;
    /// Whether scores are exact values with DTM (else win/draw/loss).
    fn dtm(&self) -> bool;
    /// The value of `pos` and of every move.
    fn solve_root(
        &self,
        pos: &Position,
        progress: &(dyn Fn(Move, Solution) + Sync),
    ) -> Result<RootSolution, SolveError>;
    /// The value of `pos` and one best move (and the moves settled on the
    /// way).
    fn solve_value(
        &self,
        pos: &Position,
        progress: &(dyn Fn(Move, Solution) + Sync),
    ) -> Result<RootSolution, SolveError>;
    /// A line of perfect play from `pos` to the end of the game.
    fn line(&self, pos: &Position) -> Result<Vec<Move>, SolveError>;
    /// The answer to `question` about `pos`, within about `budget` more
    /// nodes if given ([`SolveError::Stopped`] past it); what the search
    /// proved stays in the transposition table for the next question.
    fn answer(
        &self,
        pos: &Position,
        question: Question,
        budget: Option<u64>,
    ) -> Result<bool, SolveError>;
    /// More for a progress line to say (the proof-number search's root
    /// numbers).
    fn note(&self) -> String {
        String::new()
    }
    /// With threads taking turns ([`crate::solve::SolverConfig::turns`],
    /// [`crate::solve::PnConfig::turns`]): the makespan so far in nodes
    /// ([`Solver::makespan`], [`PnSolver::makespan`]).
    fn makespan(&self) -> Option<u64> {
        None
    }
}

impl Solve for Solver<'_> {
    fn stats(&self) -> SolveStats {
        Solver::stats(self)
    }
    fn proven(&self) -> Vec<Proven> {
        Solver::proven(self)
    }
    fn load_proven(&self, proven: &[Proven]) {
        Solver::load_proven(self, proven)
    }
    fn stop_flag(&self) -> Arc<AtomicBool> {
        Solver::stop_flag(self)
    }
    fn dtm(&self) -> bool {
        self.config().dtm
    }
    fn solve_root(
        &self,
        pos: &Position,
        progress: &(dyn Fn(Move, Solution) + Sync),
    ) -> Result<RootSolution, SolveError> {
        Solver::solve_root(self, pos, progress)
    }
    fn solve_value(
        &self,
        pos: &Position,
        progress: &(dyn Fn(Move, Solution) + Sync),
    ) -> Result<RootSolution, SolveError> {
        Solver::solve_value(self, pos, progress)
    }
    fn line(&self, pos: &Position) -> Result<Vec<Move>, SolveError> {
        Solver::line(self, pos)
    }
    fn makespan(&self) -> Option<u64> {
        Solver::makespan(self)
    }
    fn answer(
        &self,
        pos: &Position,
        question: Question,
        budget: Option<u64>,
    ) -> Result<bool, SolveError> {
        Solver::answer(self, pos, question, budget)
    }
}

impl Solve for PnSolver<'_> {
    fn stats(&self) -> SolveStats {
        PnSolver::stats(self)
    }
    fn makespan(&self) -> Option<u64> {
        PnSolver::makespan(self)
    }
    fn proven(&self) -> Vec<Proven> {
        PnSolver::proven(self)
    }
    fn load_proven(&self, proven: &[Proven]) {
        PnSolver::load_proven(self, proven)
    }
    fn stop_flag(&self) -> Arc<AtomicBool> {
        PnSolver::stop_flag(self)
    }
    fn dtm(&self) -> bool {
        false
    }
    fn solve_root(
        &self,
        pos: &Position,
        progress: &(dyn Fn(Move, Solution) + Sync),
    ) -> Result<RootSolution, SolveError> {
        PnSolver::solve_root(self, pos, progress)
    }
    fn solve_value(
        &self,
        pos: &Position,
        progress: &(dyn Fn(Move, Solution) + Sync),
    ) -> Result<RootSolution, SolveError> {
        PnSolver::solve_value(self, pos, progress)
    }
    fn line(&self, pos: &Position) -> Result<Vec<Move>, SolveError> {
        PnSolver::line(self, pos)
    }
    fn answer(
        &self,
        pos: &Position,
        question: Question,
        budget: Option<u64>,
    ) -> Result<bool, SolveError> {
        PnSolver::answer(self, pos, question, budget)
    }
    fn note(&self) -> String {
        let (phi, delta) = self.root_numbers();
        format!(", root pn {phi} dn {delta} (for the side to move)")
    }
}

/// What a session's solve is asked.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Goal {
    /// The value of the position and of every move ([`Solve::solve_root`]).
    EveryMove,
    /// The value and one best move ([`Solve::solve_value`]).
    ValueOnly,
}

/// How a session runs.
#[derive(Clone, Copy, Debug)]
pub struct SessionConfig {
    /// Every move's value or the value only.
    pub goal: Goal,
    /// With a save file: save this often while solving.
    pub save_every: Duration,
    /// Send [`Event::Tick`] this often (`None`: never).
    pub tick_every: Option<Duration>,
}

impl Default for SessionConfig {
    fn default() -> SessionConfig {
        SessionConfig {
            goal: Goal::EveryMove,
            save_every: Duration::from_secs(300),
            tick_every: None,
        }
    }
}

/// What a session reports while it runs; times are seconds since the
/// session began (loading included).
#[derive(Debug)]
pub enum Event<'a> {
    /// A move of the root is settled.
    Move {
        /// The move.
        mv: Move,
        /// Its value, from the view of the side that makes it (the side to move
        /// at the root).
        solution: Solution,
        /// Seconds since the session began.
        seconds: f64,
    },
    /// The counters, every [`SessionConfig::tick_every`].
    Tick {
        /// The solver's counters.
        stats: SolveStats,
        /// Seconds since the session began.
        seconds: f64,
        /// More from the solver ([`Solve::note`]).
        note: String,
    },
    /// A periodic save was written.
    Saved {
        /// Proven positions written.
        positions: usize,
        /// The save file.
        path: &'a Path,
    },
    /// A periodic save failed (the solve goes on; the final save tries
    /// again).
    SaveFailed(&'a ProvenError),
}

/// How a session's solve ended.
#[derive(Debug)]
pub struct Finished {
    /// The root's values and a line of perfect play; `Err` if the solve was
    /// stopped or failed.
    pub result: Result<(RootSolution, Vec<Move>), SolveError>,
    /// Seconds the solve took (loading and final save not included).
    pub seconds: f64,
    /// The final save: positions written, or why it failed; `None` without
    /// a save file.
    pub saved: Option<Result<usize, ProvenError>>,
    /// The solver's counters at the end.
    pub stats: SolveStats,
    /// With threads taking turns: the makespan in nodes ([`Solve::makespan`]).
    pub makespan: Option<u64>,
}

/// A solve with a save file: see the module's documentation.
pub struct Session<'s> {
    solver: &'s dyn Solve,
    file: Option<(PathBuf, ProvenKind)>,
    /// What the file held when loaded, kept even if the transposition
    /// table drops some of it.
    loaded: Vec<Proven>,
    load_seconds: f64,
    start: Instant,
}

impl<'s> Session<'s> {
    /// A session of `solver` on positions of `pos`'s game. With `save`,
    /// the file's proven results are loaded into the solver first if it
    /// exists; a file of another game or mode is refused
    /// ([`ProvenError::WrongKind`]), a damaged one reported.
    pub fn new(
        solver: &'s dyn Solve,
        pos: &Position,
        save: Option<&Path>,
    ) -> Result<Session<'s>, ProvenError> {
        let start = Instant::now();
        let mut session = Session {
            solver,
            file: None,
            loaded: Vec::new(),
            load_seconds: 0.0,
            start,
        };
        if let Some(path) = save {
            let kind = ProvenKind {
                variant: pos.variant(),
                dtm: solver.dtm(),
            };
            if let Some(loaded) = load_proven(path, kind)? {
                solver.load_proven(&loaded);
                session.loaded = loaded;
            }
            session.file = Some((path.to_path_buf(), kind));
        }
        session.load_seconds = start.elapsed().as_secs_f64();
        Ok(session)
    }

    /// How many proven positions the save file held.
    pub fn loaded(&self) -> usize {
        self.loaded.len()
    }

    /// Seconds the loading took.
    pub fn load_seconds(&self) -> f64 {
        self.load_seconds
    }

    /// The save file, if any.
    pub fn path(&self) -> Option<&Path> {
        self.file.as_ref().map(|(p, _)| p.as_path())
    }

    /// The flag that stops the solve (for a signal handler): the session
    /// then saves and [`Session::run`] returns [`SolveError::Stopped`].
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.solver.stop_flag()
    }

    /// Writes what was loaded and what the solver has proven since to the
    /// save file; returns how many positions it holds. Without a save
    /// file, nothing (0).
    pub fn save(&self) -> Result<usize, ProvenError> {
        let Some((path, kind)) = &self.file else {
            return Ok(0);
        };
        // Both lists are sorted by key and streamed to the file together,
        // so a big save needs no third copy of them in memory.
        let mut fresh = self.solver.proven();
        fresh.dedup_by_key(|p| p.key);
        let n = save_proven_union(path, *kind, &fresh, &self.loaded)?;
        Ok(n as usize)
    }

    /// Solves `pos`, saving every `config.save_every` while it runs and
    /// once at the end (stopped or not), with `events` told of progress.
    pub fn run(
        &self,
        pos: &Position,
        config: &SessionConfig,
        events: &(dyn Fn(Event) + Sync),
    ) -> Finished {
        let solve_start = Instant::now();
        let done = AtomicBool::new(false);
        let seconds = || self.start.elapsed().as_secs_f64();
        let result = std::thread::scope(|scope| {
            if let Some(every) = config.tick_every {
                let done = &done;
                scope.spawn(move || {
                    every_until(done, every, || {
                        events(Event::Tick {
                            stats: self.solver.stats(),
                            seconds: seconds(),
                            note: self.solver.note(),
                        })
                    })
                });
            }
            if let Some((path, _)) = &self.file {
                let (done, every) = (&done, config.save_every.max(Duration::from_secs(1)));
                scope.spawn(move || {
                    every_until(done, every, || match self.save() {
                        Ok(positions) => events(Event::Saved { positions, path }),
                        Err(e) => events(Event::SaveFailed(&e)),
                    })
                });
            }
            let progress = |mv: Move, solution: Solution| {
                events(Event::Move {
                    mv,
                    solution,
                    seconds: seconds(),
                })
            };
            let root = match config.goal {
                Goal::EveryMove => self.solver.solve_root(pos, &progress),
                Goal::ValueOnly => self.solver.solve_value(pos, &progress),
            };
            let result = root.and_then(|root| Ok((root, self.solver.line(pos)?)));
            done.store(true, Ordering::Relaxed);
            result
        });
        let seconds = solve_start.elapsed().as_secs_f64();
        let saved = self.file.as_ref().map(|_| self.save());
        Finished {
            result,
            seconds,
            saved,
            stats: self.solver.stats(),
            makespan: self.solver.makespan(),
        }
    }
}

/// Calls `f` every `every` until `done`; ticks missed meanwhile (a slow
/// save) are skipped, not made up in a burst.
fn every_until(done: &AtomicBool, every: Duration, mut f: impl FnMut()) {
    let mut next = Instant::now() + every;
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50).min(every));
        if Instant::now() >= next {
            f();
            while next <= Instant::now() {
                next += every;
            }
        }
    }
}
