//! Perft: the number of move sequences of a given length, the standard check
//! of a move generator. A line that ends the game early counts nothing.

use crate::moves::Move;
use crate::position::Position;
use rayon::prelude::*;

/// The number of legal move sequences of exactly `depth` plies.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        // Bulk counting: the moves of the last ply are counted, not played.
        1 => pos.count_moves() as u64,
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| perft(&pos.play(m), depth - 1))
            .sum(),
    }
}

/// [`perft`] spread over rayon's threads by the moves of the first ply(s).
pub fn perft_parallel(pos: &Position, depth: u32) -> u64 {
    if depth < 4 {
        return perft(pos, depth);
    }
    pos.legal_moves()
        .par_iter()
        .map(|&m| perft_parallel(&pos.play(m), depth - 1))
        .sum()
}

/// The perft count below each legal move, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .par_iter()
        .map(|&m| (m, perft_parallel(&pos.play(m), depth - 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::parse_position;
    use crate::variant::{Board, Rules};

    fn pos(text: &str, board: &str) -> Position {
        parse_position(
            text,
            Some(board.parse::<Board>().unwrap()),
            Rules::default(),
        )
        .unwrap()
    }

    #[test]
    fn one_file_peasants_is_stalemated_after_four_plies() {
        // RULES.md: a4 a5 a3 a6 is forced, then white has no move.
        let p = pos("peasants", "1x8");
        let counts: Vec<u64> = (1..=5).map(|d| perft(&p, d)).collect();
        assert_eq!(counts, [1, 1, 1, 1, 0]);
    }

    #[test]
    fn parallel_agrees_with_serial() {
        let p = pos("peasants", "4x8");
        for d in 0..=6 {
            assert_eq!(perft(&p, d), perft_parallel(&p, d));
            let total: u64 = divide(&p, d).iter().map(|x| x.1).sum();
            assert_eq!(total, if d == 0 { 0 } else { perft(&p, d) });
        }
    }
}
