//! The dead-position rule (`peasant::rules::is_dead`) against plain
//! minimax: on every position reachable from every setup of small boards,
//! and from random positions of bigger ones, under every rule set, a
//! position the rule calls dead is a draw. The test also counts how many
//! positions the rule claims, and shows that it catches deliberately
//! unsound variants of the rule (mutants).

use crate::common::{minimax, reachable_positions, MinimaxMemo, RULE_CHECK_BOARDS};
use peasant::rules::*;

/// A deliberately wrong variant of the rule, to show the test can fail.
#[derive(Clone, Copy, Debug)]
enum Mutant {
    /// Only "every pawn has an enemy pawn ahead on its file": forgets that
    /// pawns of files side by side may capture.
    NoCaptures,
    /// Pawns never move: captures checked only from the squares they stand
    /// on now.
    Frozen,
    /// Forgets the en passant right: a double step just made may still be
    /// taken.
    NoEnPassant,
}

/// The mutant's verdict, written from the rule's definition with the one
/// mistake.
fn mutant_dead(pos: &Position, mutant: Mutant) -> bool {
    let (white, black) = (pos.pawns(Color::White).0, pos.pawns(Color::Black).0);
    if !matches!(mutant, Mutant::NoEnPassant) && pos.ep_square().is_some() {
        return false;
    }
    // Every white pawn has a black pawn above it on its file and the other
    // way round.
    let board = pos.board();
    for f in 0..board.width() {
        let file = Bitboard::file(f, board.height()).0;
        let (w, b) = (white & file, black & file);
        let top_white = 63 - w.leading_zeros() as i32;
        let top_black = 63 - b.leading_zeros() as i32;
        let low_white = w.trailing_zeros() as i32;
        let low_black = b.trailing_zeros() as i32;
        if (w != 0 && (b == 0 || top_black < top_white))
            || (b != 0 && (w == 0 || low_white > low_black))
        {
            return false;
        }
    }
    let (reach_w, reach_b) = match mutant {
        Mutant::NoCaptures => return true,
        Mutant::Frozen => (white, black),
        Mutant::NoEnPassant => {
            // Pushes up to the next black pawn, down to the next white one.
            let (mut rw, mut rb) = (white, black);
            for _ in 0..8 {
                rw |= (rw << 8) & !black;
                rb |= (rb >> 8) & !white;
            }
            (rw, rb)
        }
    };
    let up = Bitboard(reach_w).up(1);
    (up.left() | up.right()).0 & reach_b == 0
}

fn variants(w: u8, h: u8) -> Vec<Variant> {
    let board = Board::new(w, h).unwrap();
    Rules::ALL.iter().map(|&r| Variant::new(board, r)).collect()
}

/// Checks the rule on the positions of `v` (every position reachable from
/// its setups if `setups`, and from `randoms` random positions); returns
/// (drawn positions, dead positions, positions on which each mutant is
/// wrong).
fn check(v: Variant, setups: bool, randoms: usize) -> (usize, usize, [usize; 3]) {
    let mut memo = MinimaxMemo::default();
    let all = reachable_positions(v, setups, randoms);
    let mut dead = 0;
    let mut draws = 0;
    let mut caught = [0; 3];
    for p in &all {
        let value = minimax(p, &mut memo);
        draws += (value == Value::Draw) as usize;
        if is_dead(p) {
            assert_eq!(value, Value::Draw, "{v}: {p} called dead");
            dead += 1;
        }
        for (i, m) in [Mutant::NoCaptures, Mutant::Frozen, Mutant::NoEnPassant]
            .into_iter()
            .enumerate()
        {
            if mutant_dead(p, m) && value != Value::Draw {
                caught[i] += 1;
            }
        }
    }
    eprintln!(
        "{v}: {} positions, {draws} draws, {dead} dead ({:.1}% of the draws), mutants wrong on {caught:?}",
        all.len(),
        100.0 * dead as f64 / draws.max(1) as f64
    );
    (draws, dead, caught)
}

#[test]
fn dead_positions_are_draws() {
    let mut total = 0;
    let mut dead = 0;
    let mut caught = [0; 3];
    for (w, h, setups) in RULE_CHECK_BOARDS {
        for v in variants(w, h) {
            let (n, d, c) = check(v, setups, 300);
            total += n;
            dead += d;
            for (x, y) in caught.iter_mut().zip(c) {
                *x += y;
            }
        }
    }
    eprintln!("all: {total} draws, {dead} dead, mutants wrong on {caught:?}");
    // The rule claims a real share of the drawn positions (7%).
    assert!(
        dead * 20 > total,
        "only {dead} of {total} drawn positions dead"
    );
    // Each mutant is wrong somewhere: the comparison can fail.
    for (m, c) in ["no captures", "frozen", "no en passant"]
        .iter()
        .zip(caught)
    {
        assert!(c > 0, "the mutant '{m}' was not caught");
    }
}
