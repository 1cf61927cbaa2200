//! The heaviest solved nodes a worker has sent, kept as a bucket queue:
//! the proof manager's exchanges ([`crate::solve::PnSolver::take_recent_solved`])
//! ask of every node a search solves whether it joins the heaviest `max`
//! (by work below it, ties by key) and, once they are full, trade the
//! lightest for it.
//!
//! A binary heap of a million such nodes misses the cache at every level
//! of every trade, and a worker that exchanges every 10,000 nodes makes
//! millions of trades (on Peasants' Chess 6x8, a fifth of an emulation's
//! time went to them). Works are small numbers shared by
//! many nodes, so here the nodes are kept by their work: the keys of each
//! work above the lightest in a plain vector, pushed in any order, and
//! those of the lightest work sorted once, lightest last, with a small
//! heap beside them for keys of that work that join later. A trade is
//! then a pop from the end of a vector and a push onto another; each work
//! is sorted once, when it becomes the lightest. What it holds, and so
//! what joins, is exactly what the binary heap held
//! (`tests` below, and `take_recent_solved`'s own tests).

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// The lightest work's keys: sorted, lightest last, and those that joined
/// since it was sorted.
#[derive(Debug, Default)]
struct Lightest {
    work: u32,
    sorted: Vec<u128>,
    joined: BinaryHeap<Reverse<u128>>,
}

impl Lightest {
    fn min(&self) -> Option<u128> {
        match (self.sorted.last(), self.joined.peek()) {
            (Some(&a), Some(&Reverse(b))) => Some(a.min(b)),
            (Some(&a), None) => Some(a),
            (None, Some(&Reverse(b))) => Some(b),
            (None, None) => None,
        }
    }

    /// Drops the lightest key ([`Lightest::min`]).
    fn pop(&mut self) {
        let sorted_last = self.sorted.last().copied();
        if self
            .joined
            .peek()
            .is_some_and(|&Reverse(b)| sorted_last.is_none_or(|a| b < a))
        {
            self.joined.pop();
        } else {
            self.sorted.pop();
        }
    }

    fn is_empty(&self) -> bool {
        self.sorted.is_empty() && self.joined.is_empty()
    }

    fn into_keys(self) -> Vec<u128> {
        let mut keys = self.sorted;
        keys.extend(self.joined.into_iter().map(|Reverse(k)| k));
        keys
    }
}

/// A multiset of (work, key) pairs, at most `max` of them the heaviest
/// offered ([`Heaviest::offer`]), as a binary heap of the lightest on top
/// would keep them.
#[derive(Debug, Default)]
pub(crate) struct Heaviest {
    /// The keys of each work above the lightest's, unsorted.
    above: BTreeMap<u32, Vec<u128>>,
    /// The lightest work's keys, made from `above` when first asked for
    /// (boxed: a solver holds a `Heaviest`, and its size counts).
    lightest: Option<Box<Lightest>>,
    len: usize,
}

impl Heaviest {
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn clear(&mut self) {
        *self = Heaviest::default();
    }

    /// Offers `(work, key)`: kept while fewer than `max` are held, else in
    /// place of the lightest if heavier than it (ties by key), else not.
    /// Whether it was kept.
    pub(crate) fn offer(&mut self, work: u32, key: u128, max: usize) -> bool {
        if self.len < max {
            self.insert(work, key);
            return true;
        }
        match self.lightest() {
            Some(min) if (work, key) > min => {
                let l = self.lightest.as_mut().expect("made by lightest()");
                l.pop();
                self.len -= 1;
                if l.is_empty() {
                    self.lightest = None;
                }
                self.insert(work, key);
                true
            }
            _ => false,
        }
    }

    /// The lightest pair held, if any.
    pub(crate) fn lightest(&mut self) -> Option<(u32, u128)> {
        if self.lightest.is_none() {
            let (work, mut sorted) = self.above.pop_first()?;
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            self.lightest = Some(Box::new(Lightest {
                work,
                sorted,
                joined: BinaryHeap::new(),
            }));
        }
        let l = self.lightest.as_ref().expect("made above");
        Some((l.work, l.min().expect("a lightest work holds keys")))
    }

    fn insert(&mut self, work: u32, key: u128) {
        self.len += 1;
        match self.lightest.as_mut() {
            Some(l) if l.work == work => l.joined.push(Reverse(key)),
            Some(l) if l.work > work => {
                // Lighter than the lightest (only while not full): the
                // lightest becomes a work like the others again.
                let l = self.lightest.take().expect("matched");
                self.above.insert(l.work, l.into_keys());
                self.above.entry(work).or_default().push(key);
            }
            _ => self.above.entry(work).or_default().push(key),
        }
    }

    /// Everything held, in no order (for tests).
    #[cfg(test)]
    fn pairs(&self) -> Vec<(u32, u128)> {
        let mut out: Vec<(u32, u128)> = self
            .above
            .iter()
            .flat_map(|(&w, keys)| keys.iter().map(move |&k| (w, k)))
            .collect();
        if let Some(l) = &self.lightest {
            out.extend(l.sorted.iter().map(|&k| (l.work, k)));
            out.extend(l.joined.iter().map(|&Reverse(k)| (l.work, k)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// Random offers (small works and keys, so ties and repeats are
    /// common), each answered as a binary heap of the lightest on top
    /// answers it, with the same pairs held and the same lightest after
    /// every offer; lighter pairs offered while not full, and a clear,
    /// included. A queue that traded its lightest by work alone, or kept
    /// a lighter pair's work apart, fails it.
    #[test]
    fn offers_are_answered_as_a_binary_heap_answers_them() {
        let mut rng = SplitMix64::new(11);
        for max in [0, 1, 2, 7, 100, 5000] {
            let mut h = Heaviest::default();
            let mut heap: BinaryHeap<Reverse<(u32, u128)>> = BinaryHeap::new();
            for round in 0..20_000 {
                if round == 10_000 {
                    h.clear();
                    heap.clear();
                }
                let (work, key) = (rng.below(30) as u32, u128::from(rng.below(50)));
                let want = if heap.len() < max {
                    heap.push(Reverse((work, key)));
                    true
                } else if heap.peek().is_some_and(|Reverse(t)| (work, key) > *t) {
                    heap.pop();
                    heap.push(Reverse((work, key)));
                    true
                } else {
                    false
                };
                assert_eq!(h.offer(work, key, max), want, "max {max}, round {round}");
                assert_eq!(h.len(), heap.len());
                if round % 97 == 0 {
                    assert_eq!(h.lightest(), heap.peek().map(|Reverse(t)| *t));
                    let mut got = h.pairs();
                    got.sort_unstable();
                    let mut held: Vec<(u32, u128)> = heap.iter().map(|Reverse(t)| *t).collect();
                    held.sort_unstable();
                    assert_eq!(got, held, "max {max}, round {round}");
                }
            }
        }
    }
}
