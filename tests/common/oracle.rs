//! The test oracle: plain minimax to the end of the game, written from the
//! rules alone (no tables, no shortcuts, no canonical forms), with a memo of
//! positions already valued. Everything clever in the library is checked
//! against it on every position of small boards.

use peasant::rules::{Position, Value, Variant, Wdl};
use peasant::solve::PnSolver;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A memo of positions already valued by [`minimax`].
pub type MinimaxMemo = HashMap<Position, Value, BuildHasherDefault<FxHasher>>;

/// The multiply-rotate hash of rustc (FxHash): much faster than the
/// default for the small fixed-size keys of a minimax memo.
#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64);
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Plain minimax to the end of the game: no tables, no rules beyond
/// docs/RULES.md, no shortcuts. Exponential without its memo of positions
/// already valued; for tests on small boards.
pub fn minimax(pos: &Position, memo: &mut MinimaxMemo) -> Value {
    if pos.winner_by_rule().is_some() {
        return Value::Loss(0);
    }
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let mut best: Option<Value> = None;
    for &m in pos.legal_moves().iter() {
        let v = minimax(&pos.play(m), memo).before_move();
        if best.is_none_or(|b| v > b) {
            best = Some(v);
        }
    }
    let v = best.unwrap_or(Value::Draw);
    memo.insert(*pos, v);
    v
}

/// Each proof-number solver gives minimax's win/draw/loss value on every
/// position of `all` (variant `v`), and answers each question on its own
/// accordingly; prints the time taken and returns how many positions.
pub fn pn_agrees_with_minimax(
    v: Variant,
    all: &[Position],
    solvers: &[(&str, PnSolver)],
    memo: &mut MinimaxMemo,
) -> usize {
    let t = std::time::Instant::now();
    for p in all {
        let expected = minimax(p, memo).wdl();
        for (name, s) in solvers {
            assert_eq!(s.wdl(p).unwrap(), expected, "{v} {name}: {p}");
            assert_eq!(s.wins(p).unwrap(), expected == Wdl::Win, "{v} {name}: {p}");
            assert_eq!(
                s.loses(p).unwrap(),
                expected == Wdl::Loss,
                "{v} {name}: {p}"
            );
        }
    }
    eprintln!("pn {v}: {} positions, {:?}", all.len(), t.elapsed());
    all.len()
}
