//! What the integration tests share: the minimax oracle, temporary
//! directories, table generation, reachable positions and random samples.

#![allow(dead_code)]

pub mod oracle;
pub use oracle::{minimax, FxHasher, MinimaxMemo};

use peasant::{generate, GenConfig, Target, Variant};
use std::path::PathBuf;

/// A fresh, empty directory under the system's temporary directory, unique
/// to this test process and `name`.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("peasant-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Generates every class of `variant` up to `max_pawns` into `temp_dir(name)`.
pub fn gen(variant: Variant, max_pawns: u8, name: &str) -> PathBuf {
    let dir = temp_dir(name);
    let config = GenConfig::new(variant, dir.clone());
    generate(&config, Target::MaxPawns(max_pawns), &|_| {}).unwrap();
    dir
}

use peasant::{
    file_char, parse_position, Bitboard, ByColor, Color, Position, Setup, SplitMix64, Square,
};
use std::collections::HashSet;
use std::hash::BuildHasherDefault;

pub type Seen = HashSet<Position, BuildHasherDefault<FxHasher>>;

/// Every position reachable from `pos` (itself included) into `seen`.
pub fn collect(pos: Position, seen: &mut Seen) {
    if !seen.insert(pos) {
        return;
    }
    for &m in pos.legal_moves().iter() {
        collect(pos.play(m), seen);
    }
}

/// A random legal position with a few pawns, often with empty files.
pub fn random_position(v: Variant, rng: &mut SplitMix64) -> Option<Position> {
    let (w, h) = (v.board.width(), v.board.height());
    let mut pawns = ByColor {
        white: Bitboard::EMPTY,
        black: Bitboard::EMPTY,
    };
    let n = 2 + rng.below(2 * w as u64 + 2);
    for _ in 0..n {
        let sq = Square::new(rng.below(w as u64) as u8, 1 + rng.below(h as u64 - 2) as u8);
        if rng.below(2) == 0 {
            pawns.white.set(sq);
        } else {
            pawns.black.set(sq);
        }
    }
    pawns.black &= !pawns.white;
    let setup = Setup {
        board: v.board,
        pawns,
        turn: if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        },
        ep_square: None,
    };
    Position::from_setup(&setup, v).ok()
}

/// Every position reachable from the setups of `v` (the pawn game, Peasants'
/// Chess where the height allows, every Pawn Race gap pair) if `setups`,
/// and from `randoms` random positions; sorted.
pub fn reachable_positions(v: Variant, setups: bool, randoms: usize) -> Vec<Position> {
    let mut seen = Seen::default();
    let (w, h) = (v.board.width(), v.board.height());
    let mut names = Vec::new();
    if setups {
        names.push("pawngame".to_string());
        if h >= 6 {
            names.push("peasants".into());
        }
        for x in 0..w {
            for y in 0..w {
                names.push(format!("pawnrace:{}:{}", file_char(x), file_char(y)));
            }
        }
    }
    for name in names {
        if let Ok(p) = parse_position(&name, Some(v.board), v.rules) {
            collect(p, &mut seen);
        }
    }
    let mut rng = SplitMix64::new(w as u64 * 131 + h as u64);
    for _ in 0..randoms {
        if let Some(p) = random_position(v, &mut rng) {
            collect(p, &mut seen);
        }
    }
    let mut out: Vec<Position> = seen.into_iter().collect();
    out.sort();
    out
}
