//! Threads of one question taking turns, one at a time: the emulation of
//! many threads side by side on a machine of few cores, node for node the
//! same on every run (`solve --emulate-turns`), for both searches.

use std::collections::HashMap;
use std::sync::{Condvar, Mutex};

/// Threads of one question taking turns of about `every` nodes each, in
/// the order of their numbers, only one searching at a time: what many
/// threads do side by side, emulated node for node the same on any
/// machine ([`crate::solve::SolverConfig::turns`], [`crate::solve::PnConfig::turns`]). A round of turns stands for one
/// stretch of time in which every thread searches side by side: what a
/// thread stores in its turn it sees at once, the others only from the
/// next round on (else each thread would go on from where the one before
/// it stopped in the same stretch, a sequential search counted as a
/// parallel one).
pub(crate) struct Turns {
    /// The nodes of a turn.
    pub(crate) every: u64,
    state: Mutex<TurnState>,
    /// Each thread's signal that its turn has come.
    wake: Vec<Condvar>,
}

struct TurnState {
    /// Whose turn it is.
    current: usize,
    /// The threads still searching.
    live: Vec<bool>,
    /// Whether the turn that began last began a round.
    new_round: bool,
}

impl Turns {
    /// `threads` threads about to begin, thread 0's turn first.
    pub(crate) fn new(every: u64, threads: usize) -> Turns {
        Turns {
            every: every.max(1),
            state: Mutex::new(TurnState {
                current: 0,
                live: vec![true; threads],
                new_round: false,
            }),
            wake: (0..threads).map(|_| Condvar::new()).collect(),
        }
    }

    /// Waits for thread `id`'s first turn; `round_ends` runs first if it
    /// begins a round (the round before it has ended: its stores go into
    /// the table).
    pub(crate) fn begin(&self, id: usize, round_ends: impl FnOnce()) {
        if self.wait(id) {
            round_ends();
        }
    }

    /// Thread `id` ends its turn and waits where it is for its next, as
    /// [`Turns::begin`] does.
    pub(crate) fn next_turn(&self, id: usize, round_ends: impl FnOnce()) {
        self.pass(id, false);
        self.begin(id, round_ends);
    }

    /// Thread `id` ends its last turn: the others go on without it.
    pub(crate) fn leave(&self, id: usize) {
        self.pass(id, true);
    }

    /// Waits for thread `id`'s turn; whether it begins a round.
    fn wait(&self, id: usize) -> bool {
        let mut s = self.state.lock().unwrap();
        while s.current != id {
            s = self.wake[id].wait(s).unwrap();
        }
        std::mem::take(&mut s.new_round)
    }

    /// Thread `id` ends its turn (and with `leaving`, its search): the
    /// next thread still searching takes its turn.
    fn pass(&self, id: usize, leaving: bool) {
        let mut s = self.state.lock().unwrap();
        let n = s.live.len();
        if leaving {
            s.live[id] = false;
        }
        if s.current == id {
            if let Some(next) = (1..=n).map(|d| (id + d) % n).find(|&j| s.live[j]) {
                s.current = next;
                s.new_round = next <= id;
                self.wake[next].notify_one();
            }
        }
    }
}

/// Moves what a thread stored in a turn that ends from `turn` to the end of
/// its round's stores, in the order of their keys: the table gets them the
/// same way on every run, whatever the map's own order. Both searches'
/// turns keep their stores apart so (`PnSolver`'s turn stores, the
/// alpha-beta team's pending stores).
pub(crate) fn hand_in<V, S>(turn: &mut HashMap<u128, V, S>, round: &mut Vec<(u128, V)>) {
    let from = round.len();
    round.extend(turn.drain());
    round[from..].sort_unstable_by_key(|e| e.0);
}
