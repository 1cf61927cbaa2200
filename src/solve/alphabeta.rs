//! The forward solver: negamax with alpha-beta over canonical positions
//! (see [`crate::rules::canonical`]), a transposition table keyed by the
//! whole canonical position, and leaves wherever the value is known
//! without search: games over by rule or stalemated, second-to-last-rank
//! positions resolved by rule (docs/RULES.md fact 3), the proven shortcuts
//! switched on in [`crate::solve::Shortcuts`] (pure races, free runners in
//! win/draw/loss mode, dead positions, and the one-sided bound, which
//! settles a draw or narrows the window), and positions whose class has a
//! table. Moves are tried in the order of [`crate::solve::order`]'s keys.
//!
//! At each node the children's canonical forms are built first and their
//! transposition table buckets (one cache line each, in huge pages)
//! prefetched; then every child is looked up before any is searched
//! (enhanced transposition cutoff), which halves the nodes of the pawn game
//! 7x7 and more.
//!
//! Two modes: win/draw/loss only (the default, far cheaper: any win cuts),
//! or exact values with DTM ([`SolverConfig::dtm`]).
//!
//! Scores are integers from the side to move's view. Win/draw/loss mode:
//! 1, 0, -1. DTM mode: `1000 - d` for a win in `d`, 0 for a draw,
//! `-1000 + d` for a loss in `d`; a parent's score is then
//! `-s + signum(s)` of its child's.

use crate::rules::bound::may_win;
use crate::rules::canonical::{canonical_with, position_key};
use crate::rules::dead::is_dead;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::value::{Value, Wdl};
use crate::solve::config::SolverConfig;
use crate::solve::keyset::KeyHash;
use crate::solve::leaf::{leaf_value, Counters, LeafValue, Tally};
use crate::solve::order::{alpha_beta_order, code, NO_MOVE};
use crate::solve::profile::{self, End};
use crate::solve::tt::{Tt, Zeroed};
use crate::solve::turns::{self, Turns};
use crate::solve::types::{Proven, Question, RootSolution, Solution, SolveError, SolveStats};
use crate::table::Tablebase;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

const INF: i32 = 30_000;

/// What a probe finds: the bounds of the score, the best move and the
/// work (log2 of the nodes) the search took.
#[derive(Clone, Copy)]
struct Entry {
    lower: i16,
    upper: i16,
    /// The best move found, `1 + from * 64 + to`; 0 for none.
    best: u16,
    /// log2 of the nodes its search took: what replacement keeps.
    work: u8,
}

/// What two entries of one position say together, as the table's store
/// merges them: the narrower bounds, the newer best move, the more work.
fn merged(a: Entry, b: Entry) -> Entry {
    Entry {
        lower: a.lower.max(b.lower),
        upper: a.upper.min(b.upper),
        best: if b.best != NO_MOVE { b.best } else { a.best },
        work: a.work.max(b.work),
    }
}

/// A canonical key packed losslessly into 13 bytes: a searched position has
/// pawns only on ranks 2..H-1 (index 1..=6 on the widest board), so white's
/// half of [`position_key`] fits 48 bits from bit 8, and black's (with its
/// en passant mark on rank H) 56 bits from bit 8. `None` for a key that
/// does not fit (never for a searched position; such keys are not stored).
#[inline]
fn pack(key: u128) -> Option<([u32; 3], u8)> {
    let (white, black) = (key as u64, (key >> 64) as u64);
    if white & 0xff00_0000_0000_00ff != 0 || black & 0xff != 0 || key == 0 {
        return None;
    }
    // 48 bits of white (ranks 2..7), 56 of black (ranks 2..8): 104 bits.
    let lo = (white >> 8) | (black >> 8) << 48;
    let hi = black >> 24;
    Some(([lo as u32, (lo >> 32) as u32, hi as u32], (hi >> 32) as u8))
}

/// The inverse of [`pack`].
#[inline]
fn unpack(k: [u32; 3], top: u8) -> u128 {
    let lo = k[0] as u64 | (k[1] as u64) << 32;
    let hi = k[2] as u64 | (top as u64) << 32;
    let white = (lo & 0xffff_ffff_ffff) << 8;
    let black = ((lo >> 48) | hi << 16) << 8;
    white as u128 | (black as u128) << 64
}

/// One slot of a bucket, 20 bytes: the packed key (all zero: empty) and
/// what is known of its position. Three make a bucket of one cache line
/// with its lock.
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Slot {
    key: [u32; 3],
    key_top: u8,
    work: u8,
    best: u16,
    lower: i16,
    upper: i16,
}

impl Slot {
    #[inline]
    fn is_empty(&self) -> bool {
        self.key == [0; 3] && self.key_top == 0
    }

    #[inline]
    fn entry(&self) -> Entry {
        Entry {
            lower: self.lower,
            upper: self.upper,
            best: self.best,
            work: self.work,
        }
    }
}

const SLOTS: usize = 3;

// Safety: integers only; all zero is three empty slots.
unsafe impl Zeroed for [Slot; SLOTS] {}

/// The alpha-beta search's view of the shared [`Tt`]: a probe compares
/// the whole 128-bit key (packed losslessly, [`pack`]); a store narrows the
/// bounds of a known position or replaces the slot whose search took the
/// least work.
struct TranspositionTable(Tt<[Slot; SLOTS]>);

impl TranspositionTable {
    fn new(mb: usize) -> Result<TranspositionTable, SolveError> {
        Ok(TranspositionTable(Tt::with_mib(mb.max(1))?))
    }

    /// Starts loading `key`'s tags into the cache, for a probe soon after.
    #[inline]
    fn prefetch(&self, key: u128) {
        self.0.prefetch(key);
    }

    /// The entry of `key`; the bucket is read only where a slot's tag is
    /// `key`'s.
    #[inline]
    fn probe(&self, key: u128) -> Option<Entry> {
        let (k, top) = pack(key)?;
        self.0
            .probe(key, |slots| {
                slots
                    .iter()
                    .find(|e| e.key == k && e.key_top == top)
                    .map(Slot::entry)
            })
            .flatten()
    }

    /// Stores what a search found; where the bucket was full of other
    /// keys' entries, the work of the one given up for it (the power of
    /// two below its nodes: a slot keeps their log2).
    fn store(&self, key: u128, lower: i32, upper: i32, best: u16, work: u8) -> Option<u64> {
        let (k, top) = pack(key)?;
        let mut replaced = None;
        // A new key's slot gets its tag from the table; a known key's has it.
        self.0.store(key, |slots| {
            if let Some(e) = slots.iter_mut().find(|e| e.key == k && e.key_top == top) {
                e.lower = e.lower.max(lower as i16);
                e.upper = e.upper.min(upper as i16);
                if best != NO_MOVE {
                    e.best = best;
                }
                e.work = e.work.max(work);
                return None;
            }
            let i = (0..SLOTS)
                .min_by_key(|&i| match slots[i] {
                    e if e.is_empty() => -1,
                    e => e.work as i32,
                })
                .expect("buckets are not empty");
            if !slots[i].is_empty() {
                replaced = Some(1u64 << slots[i].work.min(63));
            }
            slots[i] = Slot {
                key: k,
                key_top: top,
                work,
                best,
                lower: lower as i16,
                upper: upper as i16,
            };
            Some(i)
        });
        replaced
    }

    /// Calls `f` with every entry (key and what is known), one bucket at
    /// a time under its lock.
    fn for_each_entry(&self, mut f: impl FnMut(u128, Entry)) {
        self.0.for_each_bucket(|slots| {
            for e in slots.iter().filter(|e| !e.is_empty()) {
                f(unpack(e.key, e.key_top), e.entry());
            }
        });
    }
}

/// What one thread keeps to itself while searching.
struct Worker {
    killers: Vec<[u16; 2]>,
    /// Per ply, the moves being searched with their children's canonical
    /// forms and keys (kept to spare allocations).
    children: Vec<Vec<(Move, Position, u128)>>,
    tally: Tally,
    /// Its number among the threads of one question ([`Team`]); `None`
    /// for a search on its own.
    teammate: Option<usize>,
    /// With threads taking turns: the turns, its node count when its
    /// turn began, and what it stored in its turn (the others see it from
    /// the next round on, [`Turns`]), hashed by [`KeyHash`] (SipHash took
    /// an eighth of sixteen threads' turns on the pawn game 7x7).
    turns: Option<Arc<Turns>>,
    turn_began: u64,
    stored: HashMap<u128, Entry, KeyHash>,
    /// The best move its last search of a root (ply 0) stored.
    root_best: u16,
    /// In a team: the key and window of each node on its path, root
    /// first, and the ply it goes back to where another thread has
    /// settled a node on the path ([`Solver::team_checkpoint`]).
    path: Vec<(u128, i32, i32)>,
    unwind_to: Option<usize>,
}

impl Worker {
    fn new() -> Worker {
        Worker {
            killers: vec![[NO_MOVE; 2]; 256],
            children: Vec::new(),
            tally: Tally::default(),
            teammate: None,
            turns: None,
            turn_began: 0,
            stored: HashMap::default(),
            root_best: NO_MOVE,
            path: Vec::new(),
            unwind_to: None,
        }
    }
}

/// Slots of [`Team::busy`] (a power of two): far more than the nodes
/// sixteen threads are in at once within [`SolverConfig::defer_plies`].
const BUSY_SLOTS: usize = 1 << 15;

/// What the threads of one question share beside the transposition
/// table (ABDADA, Weill 1996, in the simplified form of Kerrigan's
/// engines): which positions a thread is searching, so that another
/// thread at the same parent puts that move off and searches the next
/// one, and whether the question is answered.
struct Team {
    /// A slot for each position being searched, by its key's hash: the
    /// hash (never 0) while a thread is in it, 0 when none is known to
    /// be. Two positions that share a slot only put a move off that need
    /// not be: a move's value never depends on it.
    busy: Box<[AtomicU64]>,
    /// Set by the first thread to finish the question: the others stop at
    /// their next look at the counters.
    done: AtomicBool,
    /// Nodes of the team's searches so far: all threads' (`work`), and the
    /// finishing thread's own (`makespan`, with turns its virtual time).
    work: AtomicU64,
    makespan: AtomicU64,
    /// With turns: what the threads stored in this round's turns, for the
    /// table at the round's end.
    pending: Mutex<Vec<(u128, Entry)>>,
}

impl Team {
    fn new() -> Team {
        Team {
            busy: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
            done: AtomicBool::new(false),
            work: AtomicU64::new(0),
            makespan: AtomicU64::new(0),
            pending: Mutex::new(Vec::new()),
        }
    }

    /// The slot and the mark of a position.
    #[inline]
    fn slot(&self, key: u128) -> (&AtomicU64, u64) {
        let h = ((key as u64) ^ (key >> 64) as u64 ^ (key >> 101) as u64)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (&self.busy[(h >> 49) as usize & (BUSY_SLOTS - 1)], h | 1)
    }

    /// Whether another thread is (as far as is known) searching `key`.
    #[inline]
    fn is_busy(&self, key: u128) -> bool {
        let (slot, mark) = self.slot(key);
        slot.load(Relaxed) == mark
    }

    /// Marks `key` as searched; [`Team::leave`] clears the mark after.
    #[inline]
    fn enter(&self, key: u128) {
        let (slot, mark) = self.slot(key);
        if slot.load(Relaxed) != mark {
            slot.store(mark, Relaxed);
        }
    }

    /// Clears `key`'s mark, unless the slot has gone to another position.
    #[inline]
    fn leave(&self, key: u128) {
        let (slot, mark) = self.slot(key);
        let _ = slot.compare_exchange(mark, 0, Relaxed, Relaxed);
    }
}

/// What the thread that answered a team's question found: the score, the
/// best move it stored at the root and its own nodes.
type Answered = (i32, u16, u64);

/// The counters of a solver of `config`: with threads taking turns, they
/// look at the counters (and pass the turn) at least every turn.
fn counters(config: &SolverConfig) -> Counters {
    let mut c = Counters::new(config.search.max_nodes);
    if let Some(k) = config.turns {
        c.check_every(k);
    }
    c
}

/// The team of a solver of `config`: with several threads.
fn team(config: &SolverConfig) -> Option<Team> {
    (config.search.threads > 1).then(Team::new)
}

/// Solves positions of one variant by search, with tables where they exist.
pub struct Solver<'a> {
    config: SolverConfig,
    tables: Option<&'a Tablebase>,
    tt: Arc<TranspositionTable>,
    counters: Counters,
    /// With `config.search.threads` > 1: the threads of one question.
    team: Option<Team>,
}

/// A transposition table several [`Solver`]s share, each with its own
/// node counts, budget and stop flag: the local workers of the proof
/// manager, so that what one worker's job proved serves the next job on
/// any of them.
#[derive(Clone)]
pub struct SharedTt {
    tt: Arc<TranspositionTable>,
    dtm: bool,
}

impl SharedTt {
    /// An empty transposition table of `config.search.hash_mb` MiB for
    /// solvers scoring as `config` does; [`SolveError::Memory`] if it does
    /// not fit in memory.
    pub fn new(config: &SolverConfig) -> Result<SharedTt, SolveError> {
        Ok(SharedTt {
            tt: Arc::new(TranspositionTable::new(config.search.hash_mb)?),
            dtm: config.dtm,
        })
    }
}

impl<'a> Solver<'a> {
    /// A solver with an empty transposition table of `config.search.hash_mb` MiB;
    /// [`SolveError::Memory`] if that does not fit in memory.
    pub fn new(
        config: SolverConfig,
        tables: Option<&'a Tablebase>,
    ) -> Result<Solver<'a>, SolveError> {
        Ok(Solver {
            config,
            tables,
            tt: Arc::new(TranspositionTable::new(config.search.hash_mb)?),
            counters: counters(&config),
            team: team(&config),
        })
    }

    /// A solver that stores into and probes `tt` (whose size replaces
    /// `config.search.hash_mb`, and whose scoring, DTM or not, replaces
    /// `config.dtm`: entries of both kinds must never mix).
    pub fn with_tt(
        config: SolverConfig,
        tables: Option<&'a Tablebase>,
        tt: &SharedTt,
    ) -> Solver<'a> {
        Solver {
            config: SolverConfig {
                dtm: tt.dtm,
                ..config
            },
            tables,
            tt: Arc::clone(&tt.tt),
            counters: counters(&config),
            team: team(&config),
        }
    }

    /// Asks every search of this solver to stop soon with
    /// [`SolveError::Stopped`] (safe from any thread).
    pub fn stop(&self) {
        self.counters.stop();
    }

    /// The flag [`Solver::stop`] sets, for a signal handler that must own it.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.counters.stop_flag()
    }

    /// The number of nodes searched so far (as [`Solver::stats`] counts
    /// them, a few thousand behind), readable from another thread while
    /// a search runs: for progress reports of long jobs.
    pub fn node_counter(&self) -> Arc<AtomicU64> {
        self.counters.node_counter()
    }

    /// The range of every score a searched position can have.
    fn score_range(&self) -> (i32, i32) {
        if self.config.dtm {
            (-999, 999)
        } else {
            (-1, 1)
        }
    }

    /// Every transposition-table entry whose value is proven exactly (not
    /// only an alpha-beta bound), sorted by key. Safe while a search runs.
    pub fn proven(&self) -> Vec<Proven> {
        let (lo, hi) = self.score_range();
        // A bound at the end of the range is exact (a win is stored as "at
        // least a win").
        let exact = |e: &Entry| {
            let (lower, upper) = ((e.lower as i32).max(lo), (e.upper as i32).min(hi));
            (lower == upper).then_some(lower as i16)
        };
        // Counted first so that the list is allocated once, at its size (a
        // search running meanwhile may add a few more).
        let mut n = 0;
        self.tt
            .for_each_entry(|_, e| n += exact(&e).is_some() as usize);
        let mut out = Vec::with_capacity(n + n / 64);
        self.tt.for_each_entry(|key, e| {
            if let Some(score) = exact(&e) {
                out.push(Proven {
                    key,
                    score,
                    best: e.best,
                    work: e.work,
                });
            }
        });
        out.sort_unstable();
        out
    }

    /// Puts proven results (of this solver's mode) into the
    /// transposition table: the search then takes them as leaves. Entries
    /// beyond the transposition table's room replace others as any store
    /// does.
    pub fn load_proven(&self, proven: &[Proven]) {
        for p in proven {
            let s = p.score as i32;
            self.tt.store(p.key, s, s, p.best, p.work);
        }
    }

    /// The configuration the solver was built with.
    pub fn config(&self) -> &SolverConfig {
        &self.config
    }

    /// The counters so far (updated every few thousand nodes while running).
    pub fn stats(&self) -> SolveStats {
        self.counters.stats()
    }

    fn flush(&self, w: &mut Worker) {
        self.counters.flush(&mut w.tally.stats);
        profile::flush();
    }

    /// The score of a win/draw/loss in win/draw/loss mode.
    #[inline]
    fn score_of_wdl(&self, v: Wdl) -> i32 {
        debug_assert!(!self.config.dtm);
        match v {
            Wdl::Win => 1,
            Wdl::Draw => 0,
            Wdl::Loss => -1,
        }
    }

    #[inline]
    fn score_of(&self, v: Value) -> i32 {
        match (self.config.dtm, v) {
            (false, v) => self.score_of_wdl(v.wdl()),
            (true, Value::Win(d)) => 1000 - d as i32,
            (true, Value::Draw) => 0,
            (true, Value::Loss(d)) => -1000 + d as i32,
        }
    }

    fn solution_of(&self, s: i32) -> Solution {
        let wdl = match s.signum() {
            1 => Wdl::Win,
            0 => Wdl::Draw,
            _ => Wdl::Loss,
        };
        let value = self.config.dtm.then(|| match wdl {
            Wdl::Win => Value::Win((1000 - s) as u8),
            Wdl::Draw => Value::Draw,
            Wdl::Loss => Value::Loss((s + 1000) as u8),
        });
        Solution { wdl, value }
    }

    /// The score of a win in one: nothing is better.
    #[inline]
    fn win_now(&self) -> i32 {
        if self.config.dtm {
            999
        } else {
            1
        }
    }

    /// The widest window worth searching.
    #[inline]
    fn full_window(&self) -> (i32, i32) {
        if self.config.dtm {
            (-INF, INF)
        } else {
            (-1, 1)
        }
    }

    /// A child's score seen from its parent.
    #[inline]
    fn to_parent(&self, s: i32) -> i32 {
        if self.config.dtm {
            -s + s.signum()
        } else {
            -s
        }
    }

    /// A parent's window bound seen from the child (inverse of `to_parent`).
    #[inline]
    fn to_child(&self, p: i32) -> i32 {
        if self.config.dtm {
            -(p + p.signum())
        } else {
            -p
        }
    }

    /// The canonical form the search works on.
    #[inline]
    fn canonical(&self, pos: &Position) -> Position {
        canonical_with(pos, self.config.search.canonical)
    }

    /// The table's entry of `key` as thread `w` sees it: with turns, what
    /// it stored in its turn as well.
    #[inline]
    fn probe(&self, w: &Worker, key: u128) -> Option<Entry> {
        let e = self.tt.probe(key);
        if w.turns.is_none() {
            return e;
        }
        match (e, w.stored.get(&key)) {
            (Some(a), Some(b)) => Some(merged(a, *b)),
            (a, b) => a.or(b.copied()),
        }
    }

    /// Stores what thread `w` found of `key`; with turns, for the others
    /// only from the next round on.
    #[inline]
    fn store(&self, w: &mut Worker, key: u128, lower: i32, upper: i32, best: u16, work: u8) {
        if w.turns.is_none() {
            let replaced = self.tt.store(key, lower, upper, best, work);
            return w.tally.stats.table.count(replaced);
        }
        let e = Entry {
            lower: lower as i16,
            upper: upper as i16,
            best,
            work,
        };
        w.stored
            .entry(key)
            .and_modify(|a| *a = merged(*a, e))
            .or_insert(e);
    }

    /// Hands what thread `w` stored in its turn to its team, for the
    /// table at the round's end.
    fn hand_in(&self, w: &mut Worker) {
        if let Some(team) = &self.team {
            turns::hand_in(&mut w.stored, &mut team.pending.lock().unwrap());
        }
    }

    /// Puts what the team's threads stored in the round's turns into the
    /// table.
    fn round_ends(&self, team: &Team) {
        let mut stats = SolveStats::default();
        for (key, e) in team.pending.lock().unwrap().drain(..) {
            let replaced = self
                .tt
                .store(key, e.lower as i32, e.upper as i32, e.best, e.work);
            stats.table.count(replaced);
        }
        self.counters.flush(&mut stats);
    }

    /// Orders `moves` of `pos`: best guesses first.
    fn order(&self, w: &Worker, pos: &Position, moves: &mut [Move], tt_best: u16, ply: usize) {
        if !self.config.ordering {
            return;
        }
        let killers = w.killers.get(ply).copied().unwrap_or([NO_MOVE; 2]);
        alpha_beta_order(pos, moves, tt_best, killers, self.config.safe_landing);
    }

    /// The legal moves of `pos` in the order the search tries them there,
    /// the transposition table's best move first: after a search of `pos`
    /// (a job of the proof manager), the move it found or tried first.
    pub fn ordered_moves(&self, pos: &Position) -> Vec<Move> {
        let mut moves = pos.legal_moves().to_vec();
        // Table moves belong to the canonical form the search stores.
        let tt_best = if self.canonical(pos) == *pos {
            self.tt.probe(position_key(pos)).map_or(NO_MOVE, |e| e.best)
        } else {
            NO_MOVE
        };
        if self.config.ordering {
            alpha_beta_order(
                pos,
                &mut moves,
                tt_best,
                [NO_MOVE; 2],
                self.config.safe_landing,
            );
        }
        moves
    }

    /// Negamax with alpha-beta, fail-soft, on a canonical position (white
    /// to move, game not over by rule).
    fn search(
        &self,
        w: &mut Worker,
        pos: &Position,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Result<i32, SolveError> {
        w.tally.node(&self.counters)?;
        // Right after a look at the counters (which zeroes the thread's
        // count), a thread of a team looks at its team.
        if w.tally.stats.nodes == 0 {
            if let Some(id) = w.teammate {
                self.team_checkpoint(w, id, ply)?;
            }
        }
        let class = profile::enter(pos, ply);
        match leaf_value(
            pos,
            &self.config.search.shortcuts,
            self.tables,
            self.config.dtm,
            &mut w.tally.stats,
        )? {
            Some(LeafValue::Exact(v)) => return Ok(self.score_of(v)),
            Some(LeafValue::Wdl(v)) => return Ok(self.score_of_wdl(v)),
            None => {}
        }
        let key = position_key(pos);
        // For the store that ends the node's search (most nodes are
        // searched in less time than the memory takes to answer).
        self.tt.0.prefetch_bucket(key);
        let (mut alpha, mut beta) = (alpha, beta);
        let (mut lower, mut upper) = (-INF, INF);
        let mut tt_best = NO_MOVE;
        if let Some(e) = self.probe(w, key) {
            w.tally.stats.tt_hits += 1;
            lower = e.lower as i32;
            upper = e.upper as i32;
            tt_best = e.best;
            if lower >= beta || lower == upper {
                profile::end(End::Transposition);
                return Ok(lower);
            }
            if upper <= alpha {
                profile::end(End::Transposition);
                return Ok(upper);
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        // The one-sided bound: a mover that can never win scores at most a
        // draw (exactly a draw if its opponent can never win either). Only
        // the mover's side of it: a lower bound from an opponent that can
        // never win, returned on its own, costs more nodes than it saves
        // (pawn game 7x7, Peasants' Chess 4x8), for a searched position's
        // fail-soft score is often a stronger bound.
        if (self.config.search.shortcuts.bound || profile::enabled()) && !may_win(pos, pos.turn()) {
            let settles = alpha >= 0 || !may_win(pos, !pos.turn());
            if settles {
                profile::bound_settles();
            }
            if self.config.search.shortcuts.bound {
                if settles {
                    w.tally.stats.bound_hits += 1;
                    profile::end(End::Bound);
                    return Ok(0);
                }
                upper = upper.min(0);
                beta = beta.min(0);
            }
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            profile::end(End::Stalemate);
            return Ok(0);
        }
        self.order(w, pos, moves.as_mut_slice(), tt_best, ply);
        let (a0, b0) = (alpha, beta);
        if w.teammate.is_some() {
            w.path.truncate(ply);
            w.path.push((key, a0, b0));
        }
        let nodes_before = w.tally.total;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        // The children's canonical forms first, each one's bucket fetched
        // into the cache meanwhile; a move that wins at once ends the node.
        if w.children.len() <= ply {
            w.children.resize_with(ply + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut w.children[ply]);
        children.clear();
        for &m in moves.iter() {
            let child = pos.play(m);
            if child.winner_by_rule().is_some() {
                profile::end(End::WinNow);
                best = self.win_now();
                best_move = code(m);
                children.clear();
                break;
            }
            let c = self.canonical(&child);
            let k = position_key(&c);
            self.tt.prefetch(k);
            children.push((m, c, k));
        }
        // Enhanced transposition cutoff: a child already known to be bad
        // enough for the opponent cuts before any search.
        if self.config.etc && best == -INF {
            for &(m, c, k) in children.iter() {
                // A dead child is a draw: as good as an exact entry (its
                // value is never stored, being a leaf).
                let upper = if self.config.search.shortcuts.dead && is_dead(&c) {
                    Some(0)
                } else {
                    self.probe(w, k)
                        .map(|e| e.upper as i32)
                        .filter(|&u| u != INF)
                };
                if let Some(u) = upper {
                    let s = self.to_parent(u);
                    if s > best {
                        best = s;
                        best_move = code(m);
                        if s >= beta {
                            break;
                        }
                    }
                }
            }
            if best >= beta {
                profile::end(End::Etc);
                children.clear();
            } else {
                // Only a proof of the cut counts; the searches below
                // find the true best.
                best = -INF;
                best_move = NO_MOVE;
            }
        }
        if !children.is_empty() {
            profile::end_with(class, End::Searched);
        }
        // A thread of a team puts off the moves (but the first) that
        // another thread is searching, and searches them after the others
        // (ABDADA): on a node whose every move must be searched, the
        // threads take its moves side by side; after a cut, the moves put
        // off are not searched at all. One thread alone makes one pass.
        let team = self.team.as_ref().filter(|_| {
            w.teammate.is_some() && ply < self.config.defer_plies && children.len() > 1
        });
        let mut deferred: u64 = 0;
        'passes: for pass in 0..2 {
            for (i, &(m, c, k)) in children.iter().enumerate() {
                if pass == 1 && !(i < 64 && deferred >> i & 1 == 1) {
                    continue;
                }
                if let Some(team) = team {
                    if pass == 0 && (1..64).contains(&i) && team.is_busy(k) {
                        deferred |= 1 << i;
                        continue;
                    }
                    team.enter(k);
                }
                let searched =
                    self.search(w, &c, self.to_child(beta), self.to_child(alpha), ply + 1);
                if let Some(team) = team {
                    team.leave(k);
                }
                let cs = match searched {
                    Ok(cs) => cs,
                    Err(e) => {
                        w.children[ply] = children;
                        if w.unwind_to == Some(ply) {
                            // Another thread settled this node meanwhile.
                            w.unwind_to = None;
                            return match self.settled(w, key, a0, b0) {
                                Some(s) => Ok(s),
                                // Gone from the table since: search again.
                                None => self.search(w, pos, a0, b0, ply),
                            };
                        }
                        return Err(e);
                    }
                };
                let s = self.to_parent(cs);
                if s > best {
                    best = s;
                    best_move = code(m);
                    if s > alpha {
                        alpha = s;
                    }
                    if alpha >= beta || s >= self.win_now() {
                        if let Some(k) = w.killers.get_mut(ply) {
                            if k[0] != best_move {
                                k[1] = k[0];
                                k[0] = best_move;
                            }
                        }
                        break 'passes;
                    }
                }
            }
            if deferred == 0 {
                break;
            }
        }
        w.children[ply] = children;
        if best <= a0 {
            upper = upper.min(best);
        } else if best >= b0 {
            lower = lower.max(best);
        } else {
            lower = best;
            upper = best;
        }
        let work = 64 - (w.tally.total - nodes_before).leading_zeros();
        self.store(w, key, lower, upper, best_move, work as u8);
        if ply == 0 {
            w.root_best = best_move;
        }
        Ok(best)
    }

    /// The score of `m` in `pos` from the mover's view.
    fn move_score(&self, w: &mut Worker, pos: &Position, m: Move) -> Result<i32, SolveError> {
        let child = pos.play(m);
        if let Some(s) = self.game_over_score(&child) {
            return Ok(s);
        }
        let c = self.canonical(&child);
        Ok(self.to_parent(self.search_exact(w, &c, 1)?))
    }

    /// The score, from the mover's view, of a move that ends the game in
    /// `child` (a win by rule, or a stalemate); `None` if the game goes on.
    fn game_over_score(&self, child: &Position) -> Option<i32> {
        if child.winner_by_rule().is_some() {
            Some(self.win_now())
        } else if child.count_moves() == 0 {
            Some(0)
        } else {
            None
        }
    }

    /// The score of `m` in `pos` from the mover's view, searched with the
    /// window `alpha..beta` (fail-soft: at or below `alpha` an upper bound,
    /// at or above `beta` a lower bound, exact between).
    fn move_score_in(
        &self,
        w: &mut Worker,
        pos: &Position,
        m: Move,
        alpha: i32,
        beta: i32,
    ) -> Result<i32, SolveError> {
        let child = pos.play(m);
        if let Some(s) = self.game_over_score(&child) {
            return Ok(s);
        }
        let c = self.canonical(&child);
        let s = self.search(w, &c, self.to_child(beta), self.to_child(alpha), 1)?;
        Ok(self.to_parent(s))
    }

    /// The exact score of a canonical position: one search with the full
    /// window, or (win/draw/loss mode with [`SolverConfig::null_window`])
    /// first "is it a win?", then if not "is it at least a draw?".
    fn search_exact(&self, w: &mut Worker, pos: &Position, ply: usize) -> Result<i32, SolveError> {
        if self.config.dtm || !self.config.null_window {
            let (lo, hi) = self.full_window();
            return self.search(w, pos, lo, hi, ply);
        }
        // Fail-soft: a result at or below alpha is an upper bound, at or
        // above beta a lower bound.
        let s = self.search(w, pos, 0, 1, ply)?;
        if s >= 1 || s <= -1 {
            return Ok(s);
        }
        let s = self.search(w, pos, -1, 0, ply)?;
        Ok(if s >= 0 { 0 } else { -1 })
    }

    /// The value of any position (a game over by rule is lost for the side
    /// to move, a stalemate drawn).
    pub fn solve(&self, pos: &Position) -> Result<Solution, SolveError> {
        let mut w = Worker::new();
        let s = if pos.winner_by_rule().is_some() {
            self.score_of(Value::Loss(0))
        } else if pos.count_moves() == 0 {
            0
        } else {
            self.search_exact(&mut w, &self.canonical(pos), 0)?
        };
        self.flush(&mut w);
        Ok(self.solution_of(s))
    }

    /// The answer to one [`Question`] about any position, by a null-window
    /// search: cheaper than its value. With `budget`, the search stops with
    /// [`SolveError::Stopped`] after about that many more nodes (what it
    /// proved stays in the transposition table for the next question).
    pub fn answer(
        &self,
        pos: &Position,
        question: Question,
        budget: Option<u64>,
    ) -> Result<bool, SolveError> {
        let s = if pos.winner_by_rule().is_some() {
            -1
        } else if pos.count_moves() == 0 {
            0
        } else {
            self.counters.set_budget(budget);
            let (alpha, beta) = match question {
                Question::Wins => (0, 1),
                Question::AvoidsLoss => (-1, 0),
            };
            let c = self.canonical(pos);
            if self.team.is_some() {
                self.on_team(|w| self.search(w, &c, alpha, beta, 0))?.0
            } else {
                let mut w = Worker::new();
                let s = self.search(&mut w, &c, alpha, beta, 0);
                self.flush(&mut w);
                s?
            }
        };
        // Scores above 0 are wins (in either mode), below 0 losses.
        Ok(match question {
            Question::Wins => s >= 1,
            Question::AvoidsLoss => s >= 0,
        })
    }

    /// The answer to `question` about `pos` if this solver knows it
    /// without searching: its transposition table's bounds decide it (a
    /// bound an earlier search proved), or the rules of play or the leaf
    /// knowledge do; `None` if it would have to search. How the proof
    /// manager keeps what an `open` job proved below its position.
    pub fn known_answer(&self, pos: &Position, question: Question) -> Option<bool> {
        let (lower, upper) = if pos.winner_by_rule().is_some() {
            (-1, -1)
        } else if pos.count_moves() == 0 {
            (0, 0)
        } else {
            let c = self.canonical(pos);
            let mut stats = SolveStats::default();
            match leaf_value(
                &c,
                &self.config.search.shortcuts,
                self.tables,
                self.config.dtm,
                &mut stats,
            )
            .ok()
            .flatten()
            {
                Some(LeafValue::Exact(v)) => (self.score_of(v), self.score_of(v)),
                Some(LeafValue::Wdl(v)) => (self.score_of_wdl(v), self.score_of_wdl(v)),
                None => {
                    let e = self.tt.probe(position_key(&c))?;
                    (e.lower as i32, e.upper as i32)
                }
            }
        };
        // Scores above 0 are wins (in either mode), below 0 losses.
        let (yes, no) = match question {
            Question::Wins => (lower >= 1, upper <= 0),
            Question::AvoidsLoss => (lower >= 0, upper <= -1),
        };
        if yes {
            Some(true)
        } else if no {
            Some(false)
        } else {
            None
        }
    }

    /// The value of `pos` and of every move, the moves searched in parallel
    /// on `config.search.threads` threads sharing the transposition table;
    /// `progress` is told of each move as it is solved.
    pub fn solve_root(
        &self,
        pos: &Position,
        progress: &(dyn Fn(Move, Solution) + Sync),
    ) -> Result<RootSolution, SolveError> {
        let mut w = Worker::new();
        let moves = self.root_moves(&w, pos)?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.config.search.threads)
            .build()
            .map_err(|e| SolveError::Threads(self.config.search.threads, e.to_string()))?;
        let rated: Result<Vec<(Move, i32)>, SolveError> = pool.install(|| {
            moves
                .par_iter()
                .with_max_len(1)
                .map(|&m| {
                    let mut w = Worker::new();
                    let s = self.move_score(&mut w, pos, m);
                    self.flush(&mut w);
                    let s = s?;
                    progress(m, self.solution_of(s));
                    Ok((m, s))
                })
                .collect()
        });
        self.flush(&mut w);
        Ok(self.root_solution(rated?))
    }

    /// The legal moves of a root, in the solver's order (the biggest
    /// subtrees first); an error if the game is over.
    fn root_moves(&self, w: &Worker, pos: &Position) -> Result<Vec<Move>, SolveError> {
        if let Some(outcome) = pos.outcome() {
            return Err(SolveError::GameOver(outcome));
        }
        let mut moves: Vec<Move> = pos.legal_moves().to_vec();
        self.order(w, pos, &mut moves, NO_MOVE, 0);
        Ok(moves)
    }

    /// Moves with exact scores (at least one, a best one among them) as a
    /// root's solution, best first.
    fn root_solution(&self, mut rated: Vec<(Move, i32)>) -> RootSolution {
        rated.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        RootSolution {
            value: self.solution_of(rated[0].1),
            moves: rated
                .into_iter()
                .map(|(m, s)| (m, self.solution_of(s)))
                .collect(),
        }
    }

    /// The value of `pos` without the exact value of every move: cheaper
    /// than [`Solver::solve_root`]. The moves are searched one after
    /// another in the solver's order, each only as far as it could beat
    /// the best so far (win/draw/loss mode: after a drawing move only "does
    /// this one win?", and nothing after a winning move). `moves` holds the
    /// moves whose exact value the search established, best first; the
    /// first is always a best move. `progress` is told of each of them.
    pub fn solve_value(
        &self,
        pos: &Position,
        progress: &(dyn Fn(Move, Solution) + Sync),
    ) -> Result<RootSolution, SolveError> {
        let mut w = Worker::new();
        let moves = self.root_moves(&w, pos)?;
        if self.team.is_some() {
            return self.solve_value_on_team(pos, &moves, progress);
        }
        let (lo, hi) = self.full_window();
        let mut exact: Vec<(Move, i32)> = Vec::new();
        let result = (|| -> Result<(), SolveError> {
            let mut best: Option<i32> = None;
            for &m in &moves {
                let s = match best {
                    // Nothing beats a win in win/draw/loss mode.
                    Some(b) if b >= hi => break,
                    Some(b) => self.move_score_in(&mut w, pos, m, b, hi)?,
                    None => self.move_score_in(&mut w, pos, m, lo, hi)?,
                };
                // Fail-soft: above the best so far the score is exact; at
                // or below it only a bound, unless it is the first or the
                // lowest score there is.
                let is_exact = best.is_none_or(|b| s > b) || (!self.config.dtm && s <= lo);
                if is_exact {
                    progress(m, self.solution_of(s));
                    exact.push((m, s));
                }
                if best.is_none_or(|b| s > b) {
                    best = Some(s);
                }
            }
            Ok(())
        })();
        self.flush(&mut w);
        result?;
        Ok(self.root_solution(exact))
    }

    /// [`Solver::solve_value`] by the threads of one question: the
    /// position's value by its two null-window questions, each searched
    /// by all the threads together, and the best move the finishing thread
    /// found (or, where the table settled the root at once, the first
    /// move whose child the table proves as good).
    fn solve_value_on_team(
        &self,
        pos: &Position,
        moves: &[Move],
        progress: &(dyn Fn(Move, Solution) + Sync),
    ) -> Result<RootSolution, SolveError> {
        let root = self.canonical(pos);
        let (s, best) = self.on_team(|w| self.search_exact(w, &root, 0))?;
        // The finishing thread's best move belongs to the canonical root:
        // the position's own move is the one to the same canonical child.
        let target = (best != NO_MOVE)
            .then(|| {
                root.legal_moves()
                    .iter()
                    .find(|&&m| code(m) == best)
                    .map(|&m| self.canonical(&root.play(m)))
            })
            .flatten();
        let chosen = moves.iter().copied().find(|&m| {
            let child = pos.play(m);
            match target {
                Some(t) => self.canonical(&child) == t,
                None => self.proves_child(&child, s),
            }
        });
        let m = match chosen {
            Some(m) => m,
            // No move matched (a stored best move from an earlier search
            // of another window): ask each move on one thread.
            None => {
                let mut w = Worker::new();
                let mut found = None;
                for &m in moves {
                    let r = self.move_score_in(&mut w, pos, m, s - 1, s);
                    if r.as_ref().is_ok_and(|&r| r >= s) || r.is_err() {
                        found = Some(r.map(|_| m));
                        break;
                    }
                }
                self.flush(&mut w);
                found.expect("some move keeps the value")?
            }
        };
        progress(m, self.solution_of(s));
        Ok(self.root_solution(vec![(m, s)]))
    }

    /// Whether the table (or the rules) prove that the move to `child`
    /// scores at least `s` for the side that made it.
    fn proves_child(&self, child: &Position, s: i32) -> bool {
        if let Some(g) = self.game_over_score(child) {
            return g >= s;
        }
        let c = self.canonical(child);
        self.tt
            .probe(position_key(&c))
            .is_some_and(|e| self.to_parent(e.upper as i32) >= s)
    }

    /// Runs `search` (of one question from the root) on the team's
    /// threads, each with a worker of its own; the first to finish calls
    /// the others off. Its score and the best move it stored at the root;
    /// an error only if no thread finished (a budget spent, a stop).
    fn on_team(
        &self,
        search: impl Fn(&mut Worker) -> Result<i32, SolveError> + Sync,
    ) -> Result<(i32, u16), SolveError> {
        let team = self.team.as_ref().expect("a solver of several threads");
        let threads = self.config.search.threads;
        team.done.store(false, Relaxed);
        let turns = self
            .config
            .turns
            .map(|every| Arc::new(Turns::new(every, threads)));
        let found: Mutex<Option<Result<Answered, SolveError>>> = Mutex::new(None);
        let work_before = self.counters.stats().nodes;
        std::thread::scope(|scope| {
            for id in 0..threads {
                let (search, found) = (&search, &found);
                let turns = turns.clone();
                scope.spawn(move || {
                    let mut w = Worker::new();
                    w.teammate = Some(id);
                    w.turns = turns.clone();
                    if let Some(turns) = &turns {
                        turns.begin(id, || self.round_ends(team));
                    }
                    let r = search(&mut w);
                    self.flush(&mut w);
                    self.hand_in(&mut w);
                    let called_off = team.done.swap(true, Relaxed);
                    let mut f = found.lock().unwrap();
                    match r {
                        // The first answer stands; an answer replaces an
                        // error (a thread stopped by the budget while
                        // another finished).
                        Ok(s) if !matches!(*f, Some(Ok(_))) => {
                            *f = Some(Ok((s, w.root_best, w.tally.total)));
                        }
                        Err(e)
                            if f.is_none() && !(called_off && matches!(e, SolveError::Stopped)) =>
                        {
                            *f = Some(Err(e));
                        }
                        _ => {}
                    }
                    drop(f);
                    if let Some(turns) = &turns {
                        turns.leave(id);
                    }
                });
            }
        });
        self.round_ends(team);
        let found = found.into_inner().unwrap().expect("every thread ended");
        let work = self.counters.stats().nodes - work_before;
        team.work.fetch_add(work, Relaxed);
        if let Ok((_, _, nodes)) = found {
            team.makespan.fetch_add(nodes, Relaxed);
        }
        found.map(|(s, best, _)| (s, best))
    }

    /// The score the table gives `key` searched with the window
    /// `alpha..beta` (fail-soft), if its bounds settle it.
    fn settled(&self, w: &Worker, key: u128, alpha: i32, beta: i32) -> Option<i32> {
        let e = self.probe(w, key)?;
        let (lower, upper) = (e.lower as i32, e.upper as i32);
        if lower >= beta || lower == upper {
            Some(lower)
        } else if upper <= alpha {
            Some(upper)
        } else {
            None
        }
    }

    /// A thread of a team, right after its look at the counters (in the
    /// node `ply` plies below the root, not yet on its path): with turns,
    /// passes the turn once it has searched its share and waits for the
    /// next; stops if another thread has answered the question; goes back
    /// to the highest node on its path that another thread has settled
    /// meanwhile (where it is, it searches for nothing).
    fn team_checkpoint(&self, w: &mut Worker, id: usize, ply: usize) -> Result<(), SolveError> {
        let team = self.team.as_ref().expect("a teammate has a team");
        if let Some(turns) = w.turns.clone() {
            if w.tally.total - w.turn_began >= turns.every {
                self.hand_in(w);
                turns.next_turn(id, || self.round_ends(team));
                w.turn_began = w.tally.total;
            }
        }
        if team.done.load(Relaxed) {
            return Err(SolveError::Stopped);
        }
        let on_path = ply.min(w.path.len());
        if let Some(p) = (0..on_path).find(|&p| {
            let (key, alpha, beta) = w.path[p];
            self.settled(w, key, alpha, beta).is_some()
        }) {
            w.unwind_to = Some(p);
            return Err(SolveError::Stopped);
        }
        Ok(())
    }

    /// With threads taking turns ([`SolverConfig::turns`]): the solve's
    /// makespan so far in nodes, what sixteen threads side by side take
    /// in time: every node of the one-thread parts (a line after a
    /// value), and of each search by the team the finishing thread's
    /// nodes. `None` without turns.
    pub fn makespan(&self) -> Option<u64> {
        let team = self.team.as_ref().filter(|_| self.config.turns.is_some())?;
        let (work, span) = (team.work.load(Relaxed), team.makespan.load(Relaxed));
        Some(self.stats().nodes.saturating_sub(work) + span)
    }

    /// A line of perfect play from `pos` to the end of the game: at each
    /// step the first move in the solver's order that keeps the position's
    /// value (each move asked only "does it keep it?", a null window). In
    /// win/draw/loss mode a winning line wins but not necessarily fastest;
    /// in DTM mode it is the shortest win and the longest loss.
    pub fn line(&self, pos: &Position) -> Result<Vec<Move>, SolveError> {
        let mut w = Worker::new();
        let mut line = Vec::new();
        let result = (|| -> Result<(), SolveError> {
            if pos.is_game_over() {
                return Ok(());
            }
            let mut p = *pos;
            let mut value = self.search_exact(&mut w, &self.canonical(&p), 0)?;
            while !p.is_game_over() {
                let mut moves = p.legal_moves();
                self.order(&w, &p, moves.as_mut_slice(), NO_MOVE, 0);
                let mut chosen = None;
                for &m in moves.iter() {
                    // No move scores above the value: at least it is equal.
                    if self.move_score_in(&mut w, &p, m, value - 1, value)? >= value {
                        chosen = Some(m);
                        break;
                    }
                }
                let m = chosen.expect("some move keeps the value");
                line.push(m);
                p = p.play(m);
                value = self.to_child(value);
            }
            Ok(())
        })();
        self.flush(&mut w);
        result.map(|()| line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_one_cache_line() {
        assert_eq!(std::mem::size_of::<Slot>(), 20);
        assert_eq!(crate::solve::tt::bucket_bytes::<[Slot; SLOTS]>(), 64);
    }

    #[test]
    fn keys_pack_losslessly() {
        let mut rng = crate::rng::SplitMix64::new(7);
        for _ in 0..100_000 {
            let white = rng.next_u64() & 0x00ff_ffff_ffff_ff00;
            let black = rng.next_u64() & 0xffff_ffff_ffff_ff00;
            let key = white as u128 | (black as u128) << 64;
            if key == 0 {
                continue;
            }
            let (k, top) = pack(key).unwrap();
            assert_eq!(unpack(k, top), key);
        }
        assert!(pack(1).is_none());
        assert!(pack(1 << 56).is_none());
        assert!(pack(1 << 64).is_none());
        assert!(pack(0).is_none());
    }

    /// One bucket: every key lands in it. Each store replaces the slot of
    /// least work, so the three of most work stay, and a probe finds each
    /// of them (through its tag) and none of the others. A store that
    /// leaves a slot's tag unset, or sets another slot's, fails this. A
    /// store into a full bucket gives the work of the entry it gave up
    /// (what `solve` counts as given up), one into room or onto its own
    /// key none.
    #[test]
    fn table_keeps_full_keys_apart() {
        let tt = TranspositionTable(Tt::with_buckets(1).unwrap());
        let keys: Vec<u128> = (1..=5u128).map(|i| (i << 8) | (i << 72)).collect();
        for (i, &k) in keys.iter().enumerate() {
            let replaced = tt.store(k, i as i32, i as i32, NO_MOVE, i as u8);
            // Key j, of work 2^j (kept as its log2, j), given up.
            let expected = i.checked_sub(SLOTS).map(|j| 1u64 << j);
            assert_eq!(replaced, expected, "key {i}");
        }
        assert_eq!(tt.store(keys[4], 4, 4, NO_MOVE, 9), None);
        let mut stats = SolveStats::default();
        stats.table.count(Some(32));
        stats.table.count(None);
        let t = stats.table;
        assert_eq!((t.stores, t.replaced, t.replaced_max_work), (2, 1, 32));
        for (i, &k) in keys.iter().enumerate() {
            let found = tt.probe(k).map(|e| e.lower as usize);
            assert_eq!(found, (i >= keys.len() - SLOTS).then_some(i), "key {i}");
        }
        let mut n = 0;
        tt.for_each_entry(|_, _| n += 1);
        assert_eq!(n, SLOTS);
    }
}
