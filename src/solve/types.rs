//! What both searches share: the questions they answer, the values,
//! statistics and errors they hand back, and the proven results that save
//! files carry between runs.

use crate::rules::moves::Move;
use crate::rules::position::Outcome;
use crate::rules::value::{Value, Wdl};
use crate::table::TableError;
use thiserror::Error;

/// Why a solve could not finish.
#[derive(Debug, Error)]
pub enum SolveError {
    /// A table the search probes could not be read.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The position's game is already over: it has no move to solve.
    #[error("the game is already over ({0}): there is nothing to solve")]
    GameOver(Outcome),
    /// The solver's thread pool of this many threads could not be started, for
    /// the reason given.
    #[error("could not start {0} threads: {1}")]
    Threads(usize, String),
    /// [`super::Solver::stop`] was called or the node budget
    /// ([`super::SearchConfig::max_nodes`]) ran out: what was proven so far is in
    /// [`super::Solver::proven`].
    #[error("stopped before the end")]
    Stopped,
    /// The transposition table does not fit in memory.
    #[error("a transposition table of {mib} MiB does not fit in memory{}", match .available_mib {
        Some(a) => format!(" ({a} MiB available)"),
        None => String::new(),
    })]
    Memory {
        /// The size asked for, MiB.
        mib: usize,
        /// The memory available, MiB, when the system says.
        available_mib: Option<u64>,
    },
}

/// A binary question about a position, the unit of work of a proof: two
/// of them make its win/draw/loss value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Question {
    /// Does the side to move win?
    Wins,
    /// Does the side to move avoid losing (a win or a draw)?
    AvoidsLoss,
}

impl Question {
    /// The other question: after a move, the mover's answer to one is
    /// "no" to the other asked of the opponent ("does white win?" is "does
    /// black not avoid losing?" once white has moved).
    pub fn other(self) -> Question {
        match self {
            Question::Wins => Question::AvoidsLoss,
            Question::AvoidsLoss => Question::Wins,
        }
    }
}

/// A solved value: always win/draw/loss, and the exact value with its DTM
/// when the solver knows it (DTM mode).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Solution {
    /// Win, draw or loss, from the side to move's view.
    pub wdl: Wdl,
    /// The exact value with its DTM, in DTM mode; `None` in win/draw/loss mode.
    pub value: Option<Value>,
}

impl Solution {
    /// The DTM in plies, when the value is known exactly and is not a draw.
    pub fn dtm(&self) -> Option<u32> {
        self.value.and_then(Value::dtm)
    }
}

impl std::fmt::Display for Solution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.value {
            Some(v) => write!(f, "{v}"),
            None => write!(f, "{}", self.wdl),
        }
    }
}

/// Counters of one solve (all threads).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct SolveStats {
    /// Positions searched (each canonical position entered).
    pub nodes: u64,
    /// Leaves answered by a table.
    pub table_hits: u64,
    /// Leaves resolved by the second-to-last-rank rule.
    pub rule_hits: u64,
    /// Leaves resolved as pure races.
    pub race_hits: u64,
    /// Leaves won by a free runner.
    pub runner_hits: u64,
    /// Leaves drawn as dead positions (no capture and no promotion can
    /// ever happen).
    pub dead_hits: u64,
    /// Nodes settled by the one-sided bound (a side that can never win:
    /// neither can, or the window asks beyond a draw for it).
    pub bound_hits: u64,
    /// Transposition-table entries found.
    pub tt_hits: u64,
    /// What the search's stores did to its transposition table.
    pub table: TableUse,
}

/// What a search's stores did to its transposition table: a search whose
/// table is too small for it searches again what it gave up. A proof's
/// job carries its own ([`crate::prove::JobResult`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableUse {
    /// Stores into the table (about one a node).
    pub stores: u64,
    /// Those that gave up another position's entry (the bucket full):
    /// what a larger `--hash-mb` would have kept.
    pub replaced: u64,
    /// The most nodes searched below one of the entries given up, as it
    /// kept them (the proof-number search's exact count; alpha-beta keeps
    /// the log2 of it, and the power of two below is counted): a search
    /// that meets that position again searches it again.
    pub replaced_max_work: u64,
}

impl TableUse {
    /// Counts a store, and the entry it gave up for its own with the
    /// nodes below it, if any.
    #[inline]
    pub(crate) fn count(&mut self, replaced_work: Option<u64>) {
        self.stores += 1;
        if let Some(work) = replaced_work {
            self.replaced += 1;
            self.replaced_max_work = self.replaced_max_work.max(work);
        }
    }

    /// `self` and `other` together: the stores of both, the larger most.
    pub fn add(&mut self, other: TableUse) {
        self.stores += other.stores;
        self.replaced += other.replaced;
        self.replaced_max_work = self.replaced_max_work.max(other.replaced_max_work);
    }

    /// What was counted since `before` (counts of the same search, taken
    /// earlier); the largest given up is the whole search's so far.
    pub fn since(self, before: TableUse) -> TableUse {
        TableUse {
            stores: self.stores - before.stores,
            replaced: self.replaced - before.replaced,
            replaced_max_work: self.replaced_max_work,
        }
    }
}

/// The value of a position and of each of its moves.
#[derive(Clone, Debug)]
pub struct RootSolution {
    /// The value of the position, from the side to move's view.
    pub value: Solution,
    /// Every legal move with its value from the mover's view, best first.
    pub moves: Vec<(Move, Solution)>,
}

/// A proven result, as [`super::Solver::proven`] gives and [`super::Solver::load_proven`]
/// takes: the exact score of a canonical position (its
/// [`crate::rules::position_key`]) from the side to move's view, in the solver's mode
/// (win/draw/loss: 1, 0, -1; DTM: `1000 - d` for a win in `d`, 0 for a
/// draw, `-1000 + d` for a loss in `d`), its best move and the log2 of the
/// nodes its search took.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Proven {
    /// The canonical position's [`position_key`](crate::rules::position_key).
    pub key: u128,
    /// The exact score, in the solver's mode as above.
    pub score: i16,
    /// The best move, `1 + from * 64 + to` (squares as indices); 0 for none.
    pub best: u16,
    /// log2 of the nodes its search took: a full transposition table drops
    /// entries of least work first.
    pub work: u8,
}
