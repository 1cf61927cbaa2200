//! What the two solvers ([`crate::solve::Solver`], [`crate::solve::PnSolver`]) share: the
//! knowledge they apply to a node before searching it, and the counters,
//! stop flag and node budget of a solve.

use crate::rules::color::Color;
use crate::rules::dead::is_dead;
use crate::rules::moves::{Move, MoveKind};
use crate::rules::position::Position;
use crate::rules::shortcuts::{
    resolve_by_rule, resolve_opponent_rule_ahead, resolve_opponent_runner, resolve_race,
    resolve_rule_ahead, resolve_rule_two_ahead, resolve_runner,
};
use crate::rules::value::{Value, Wdl};
use crate::solve::config::Shortcuts;
use crate::solve::profile::{self, End};
use crate::solve::types::{SolveError, SolveStats, TableUse};
use crate::table::Tablebase;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// Nodes a worker searches between two looks at the shared counters.
const CHECK_EVERY: u64 = 4096;

/// Leaf knowledge: a position's value known without search (from the
/// rules, the shortcuts or the tables).
#[derive(Clone, Copy)]
pub(crate) enum LeafValue {
    /// With its DTM.
    Exact(Value),
    /// Win/draw/loss only (a table probe that read only the WDL section).
    Wdl(Wdl),
}

impl LeafValue {
    pub(crate) fn wdl(self) -> Wdl {
        match self {
            LeafValue::Exact(v) => v.wdl(),
            LeafValue::Wdl(w) => w,
        }
    }
}

/// Every piece of knowledge beyond the rules of play, in one place: the
/// value of a canonical position (white to move, game not over) if it is
/// known without search, counted in `stats`: the rule of fact 3, the
/// `shortcuts` switched on (all but the bound, which the solvers apply
/// themselves), then the tables. `exact`: a table probe reads the DTM too
/// (else only the WDL section, half the blocks to decompress), and the
/// rules that know a value but not its distance (fact 3 a move and two
/// moves ahead, either side's free runner, the rules past an en passant
/// right, every move lost) are left out.
pub(crate) fn leaf_value(
    pos: &Position,
    shortcuts: &Shortcuts,
    tables: Option<&Tablebase>,
    exact: bool,
    stats: &mut SolveStats,
) -> Result<Option<LeafValue>, SolveError> {
    // En passant first, as the tables' `index::domain::value` does: with
    // a right to capture en passant the rule of fact 3 may not hold
    // (height 5). Such a position is searched, unless the rules settle it
    // from the same pawns without the right: the right only adds moves.
    if pos.ep_square().is_some() {
        if exact {
            return Ok(None);
        }
        if shortcuts.past_en_passant {
            if let Some(v) = past_en_passant(pos, shortcuts, stats) {
                return Ok(Some(LeafValue::Wdl(v)));
            }
        }
        let lost = shortcuts.every_move_lost && every_move_lost(pos, shortcuts, stats);
        return Ok(lost.then_some(LeafValue::Wdl(Wdl::Loss)));
    }
    if let Some(v) = resolve_by_rule(pos) {
        stats.rule_hits += 1;
        profile::end(End::Rule);
        return Ok(Some(LeafValue::Exact(v)));
    }
    if shortcuts.rule_ahead && !exact && resolve_rule_ahead(pos) {
        stats.rule_hits += 1;
        profile::end(End::Rule);
        return Ok(Some(LeafValue::Wdl(Wdl::Win)));
    }
    if shortcuts.race {
        if let Some(v) = resolve_race(pos) {
            stats.race_hits += 1;
            profile::end(End::Race);
            return Ok(Some(LeafValue::Exact(v)));
        }
    }
    if shortcuts.runner && !exact && resolve_runner(pos) {
        stats.runner_hits += 1;
        profile::end(End::Runner);
        return Ok(Some(LeafValue::Wdl(Wdl::Win)));
    }
    if shortcuts.opponent_runner && !exact && resolve_opponent_runner(pos) {
        stats.runner_hits += 1;
        profile::end(End::Runner);
        return Ok(Some(LeafValue::Wdl(Wdl::Loss)));
    }
    if shortcuts.rule_ahead && !exact && resolve_opponent_rule_ahead(pos) {
        stats.rule_hits += 1;
        profile::end(End::Rule);
        return Ok(Some(LeafValue::Wdl(Wdl::Loss)));
    }
    if shortcuts.two_ahead && !exact && resolve_rule_two_ahead(pos) {
        stats.rule_hits += 1;
        profile::end(End::Rule);
        return Ok(Some(LeafValue::Wdl(Wdl::Win)));
    }
    if shortcuts.every_move_lost && !exact && every_move_lost(pos, shortcuts, stats) {
        return Ok(Some(LeafValue::Wdl(Wdl::Loss)));
    }
    if shortcuts.dead && is_dead(pos) {
        stats.dead_hits += 1;
        profile::end(End::Dead);
        return Ok(Some(LeafValue::Exact(Value::Draw)));
    }
    if let Some(tb) = tables {
        if tb.covers(pos)? {
            stats.table_hits += 1;
            profile::end(End::Table);
            return Ok(Some(if exact {
                LeafValue::Exact(tb.probe(pos)?)
            } else {
                LeafValue::Wdl(tb.probe_wdl(pos)?)
            }));
        }
    }
    Ok(None)
}

/// The value of `pos`, a position with white to move whose game is not
/// over and that has an en passant right, where the rules settle it
/// (win/draw/loss only), counted in `stats`. The position has every move
/// of the same pawns without the right, and the captures en passant
/// besides: a win the rules prove for the pawns without it is a win
/// ([`wins_by_rule`]), and a loss they prove for them is a loss where
/// every capture en passant loses too, its position won by rule for the
/// opponent. Their draws are not asked (a dead position's capture).
fn past_en_passant(pos: &Position, shortcuts: &Shortcuts, stats: &mut SolveStats) -> Option<Wdl> {
    if wins_by_rule(pos, shortcuts, stats) {
        return Some(Wdl::Win);
    }
    let plain = pos.without_en_passant();
    let loses = matches!(resolve_by_rule(&plain), Some(Value::Loss(_)))
        || shortcuts.race && matches!(resolve_race(&plain), Some(Value::Loss(_)))
        || shortcuts.opponent_runner && resolve_opponent_runner(&plain)
        || shortcuts.rule_ahead && resolve_opponent_rule_ahead(&plain);
    if !loses {
        return None;
    }
    let captures_lose = pos
        .legal_moves()
        .iter()
        .filter(|m| m.kind == MoveKind::EnPassant)
        .all(|&m| won_by_rule_after(pos, m, shortcuts));
    if !captures_lose {
        return None;
    }
    stats.rule_hits += 1;
    profile::end(End::Rule);
    Some(Wdl::Loss)
}

/// Whether white, to move in `pos` (its game not over), loses because
/// every white move reaches a position that the rules of a win for the
/// side to move ([`wins_by_rule`]) call won for black, counted in
/// `stats`: white must have a move (else the game is drawn), and none may
/// win at once. Asked only where a black pawn stands near its goal (the
/// filter below, for the cost).
fn every_move_lost(pos: &Position, shortcuts: &Shortcuts, stats: &mut SolveStats) -> bool {
    // The filter: a black pawn on its second-, third- or fourth-to-last
    // rank (or on height 6 on its second, whence a double step lands on
    // the third-to-last). Where none is, the rules of a win found no
    // child won for black on Peasants' Chess 5x7 and 6x7 (asked without
    // the filter, the same nodes), and asking them costs a look at
    // every move.
    let board = pos.board();
    let mut near = board.rank_mask(1) | board.rank_mask(2) | board.rank_mask(3);
    if board.height() == 6 {
        near |= board.rank_mask(4);
    }
    if !(pos.pawns(Color::Black) & near).any() {
        return false;
    }
    let moves = pos.legal_moves();
    let lost = !moves.is_empty() && moves.iter().all(|&m| won_by_rule_after(pos, m, shortcuts));
    if lost {
        stats.rule_hits += 1;
        profile::end(End::Rule);
    }
    lost
}

/// Whether white's move `m` in `pos` reaches a position that the rules of
/// a win ([`wins_by_rule`]) call won for black, the game going on after
/// it. Their counts and profile ends are not the search's: the position
/// after `m` is a reply the search does not visit.
fn won_by_rule_after(pos: &Position, m: Move, shortcuts: &Shortcuts) -> bool {
    let child = pos.play(m);
    child.winner_by_rule().is_none()
        && profile::unrecorded(|| {
            wins_by_rule(&child.flipped(), shortcuts, &mut SolveStats::default())
        })
}

/// Whether the rules that prove a win for the side to move (win/draw/loss
/// only) prove one for `pos`, a position with white to move whose game is
/// not over, counted in `stats`: fact 3, fact 3 a move ahead, the race and
/// the free runner asked of the same pawns without an en passant right
/// (the right only adds moves), and fact 3 two moves ahead, which plays
/// the capture en passant too; the ones `shortcuts` switches on.
fn wins_by_rule(pos: &Position, shortcuts: &Shortcuts, stats: &mut SolveStats) -> bool {
    let plain = pos.without_en_passant();
    let end = if matches!(resolve_by_rule(&plain), Some(Value::Win(_)))
        || shortcuts.rule_ahead && resolve_rule_ahead(&plain)
        || shortcuts.two_ahead && resolve_rule_two_ahead(pos)
    {
        stats.rule_hits += 1;
        End::Rule
    } else if shortcuts.race && matches!(resolve_race(&plain), Some(Value::Win(_))) {
        stats.race_hits += 1;
        End::Race
    } else if shortcuts.runner && resolve_runner(&plain) {
        stats.runner_hits += 1;
        End::Runner
    } else {
        return false;
    };
    profile::end(end);
    true
}

/// One thread's counts since its last flush into [`Counters`], and the
/// nodes it has searched in all (never reset: what a subtree cost).
#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) stats: SolveStats,
    /// At this many unflushed nodes, flush and look at the stop flag and
    /// the node budget.
    check_at: u64,
    pub(crate) total: u64,
}

impl Tally {
    /// Counts one node; every few thousand, flushes into `counters` and
    /// stops if the solve is stopped or its node budget spent.
    #[inline]
    pub(crate) fn node(&mut self, counters: &Counters) -> Result<(), SolveError> {
        self.stats.nodes += 1;
        self.total += 1;
        if self.stats.nodes >= self.check_at {
            self.check_at = counters.checkpoint(&mut self.stats)?;
        }
        Ok(())
    }

    /// Flushes into `counters` and looks at the stop flag and the node
    /// budget now, as [`Tally::node`] does every few thousand nodes: a
    /// thread taking turns does it when its turn comes back, since the
    /// others' turns may have spent the budget meanwhile.
    pub(crate) fn look(&mut self, counters: &Counters) -> Result<(), SolveError> {
        self.check_at = counters.checkpoint(&mut self.stats)?;
        Ok(())
    }
}

/// The counters of a solve, shared by its threads, with its stop flag and
/// node budget. Each thread counts in its own [`SolveStats`] and adds them
/// here every few thousand nodes ([`Counters::checkpoint`]).
pub(crate) struct Counters {
    /// Nodes flushed so far; shared with [`Counters::node_counter`]'s
    /// readers (a proof's progress line).
    nodes: Arc<AtomicU64>,
    table_hits: AtomicU64,
    rule_hits: AtomicU64,
    race_hits: AtomicU64,
    runner_hits: AtomicU64,
    dead_hits: AtomicU64,
    bound_hits: AtomicU64,
    tt_hits: AtomicU64,
    tt_replaced: AtomicU64,
    tt_replaced_max_work: AtomicU64,
    tt_stores: AtomicU64,
    stop: Arc<AtomicBool>,
    /// Stop when `nodes` reaches this (`u64::MAX`: no budget).
    max_nodes: AtomicU64,
    /// Nodes a thread searches between two looks at the counters.
    check_every: u64,
}

impl Counters {
    pub(crate) fn new(max_nodes: Option<u64>) -> Counters {
        Counters {
            nodes: Arc::new(AtomicU64::new(0)),
            table_hits: AtomicU64::new(0),
            rule_hits: AtomicU64::new(0),
            race_hits: AtomicU64::new(0),
            runner_hits: AtomicU64::new(0),
            dead_hits: AtomicU64::new(0),
            bound_hits: AtomicU64::new(0),
            tt_hits: AtomicU64::new(0),
            tt_replaced: AtomicU64::new(0),
            tt_replaced_max_work: AtomicU64::new(0),
            tt_stores: AtomicU64::new(0),
            stop: Arc::new(AtomicBool::new(false)),
            max_nodes: AtomicU64::new(max_nodes.unwrap_or(u64::MAX)),
            check_every: CHECK_EVERY,
        }
    }

    /// Threads look at the counters at least every `nodes` nodes (never
    /// less often than every [`CHECK_EVERY`]).
    pub(crate) fn check_every(&mut self, nodes: u64) {
        self.check_every = nodes.clamp(1, CHECK_EVERY);
    }

    /// A new node budget counted from now: `nodes` more (`None`: no
    /// budget). The stop flag is left as it is.
    pub(crate) fn set_budget(&self, nodes: Option<u64>) {
        let max = nodes.map_or(u64::MAX, |n| self.nodes.load(Relaxed).saturating_add(n));
        self.max_nodes.store(max, Relaxed);
    }

    /// The nodes left of the budget, as far as the threads have flushed
    /// (`u64::MAX` without one).
    pub(crate) fn left(&self) -> u64 {
        (self.max_nodes.load(Relaxed)).saturating_sub(self.nodes.load(Relaxed))
    }

    pub(crate) fn stop(&self) {
        self.stop.store(true, Relaxed);
    }

    pub(crate) fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// The count of nodes searched, as flushed every few thousand nodes,
    /// readable from any thread while a search runs.
    pub(crate) fn node_counter(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.nodes)
    }

    pub(crate) fn stats(&self) -> SolveStats {
        SolveStats {
            nodes: self.nodes.load(Relaxed),
            table_hits: self.table_hits.load(Relaxed),
            rule_hits: self.rule_hits.load(Relaxed),
            race_hits: self.race_hits.load(Relaxed),
            runner_hits: self.runner_hits.load(Relaxed),
            dead_hits: self.dead_hits.load(Relaxed),
            bound_hits: self.bound_hits.load(Relaxed),
            tt_hits: self.tt_hits.load(Relaxed),
            table: TableUse {
                stores: self.tt_stores.load(Relaxed),
                replaced: self.tt_replaced.load(Relaxed),
                replaced_max_work: self.tt_replaced_max_work.load(Relaxed),
            },
        }
    }

    /// Adds a thread's counts and resets them.
    pub(crate) fn flush(&self, stats: &mut SolveStats) {
        let s = std::mem::take(stats);
        self.nodes.fetch_add(s.nodes, Relaxed);
        self.table_hits.fetch_add(s.table_hits, Relaxed);
        self.rule_hits.fetch_add(s.rule_hits, Relaxed);
        self.race_hits.fetch_add(s.race_hits, Relaxed);
        self.runner_hits.fetch_add(s.runner_hits, Relaxed);
        self.dead_hits.fetch_add(s.dead_hits, Relaxed);
        self.bound_hits.fetch_add(s.bound_hits, Relaxed);
        self.tt_hits.fetch_add(s.tt_hits, Relaxed);
        self.tt_stores.fetch_add(s.table.stores, Relaxed);
        self.tt_replaced.fetch_add(s.table.replaced, Relaxed);
        self.tt_replaced_max_work
            .fetch_max(s.table.replaced_max_work, Relaxed);
    }

    /// Flushes a thread's counts, then stops if asked to or if the node
    /// budget is spent; else returns how many nodes the thread may count
    /// before it looks again.
    pub(crate) fn checkpoint(&self, stats: &mut SolveStats) -> Result<u64, SolveError> {
        self.flush(stats);
        if self.stop.load(Relaxed) {
            return Err(SolveError::Stopped);
        }
        let max = self.max_nodes.load(Relaxed);
        let done = self.nodes.load(Relaxed);
        if done >= max {
            // The budget is spent: every thread stops at its next check,
            // and a new budget lets the same solver go on.
            return Err(SolveError::Stopped);
        }
        Ok(self.check_every.min(max - done))
    }
}
