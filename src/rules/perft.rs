//! Perft: the number of move sequences of a given length, the standard check
//! of a move generator. A line that ends the game early counts nothing.
//!
//! [`perft`] does not play [`Move`]s: below the root it works on raw
//! bitboards (see [`fast`]), counts the last ply in bulk, and counts the last
//! two plies without making the last position at all. The plain recursive
//! definition, through [`Position::legal_moves`] and [`Position::play`], is
//! what the tests hold it to.

use crate::rules::moves::Move;
use crate::rules::position::Position;
use rayon::prelude::*;

/// The number of legal move sequences of exactly `depth` plies.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        // Bulk counting: the moves of the last ply are counted, not played.
        1 => pos.count_moves() as u64,
        _ => fast::perft(pos, depth, fast::popcnt_available()),
    }
}

/// Subtrees this shallow are counted on one thread: [`perft`] of depth 5
/// takes tens of microseconds on 8x8, so the tasks stay many enough to
/// share out and big enough that splitting costs next to nothing.
const SERIAL_DEPTH: u32 = 5;

/// [`perft`] spread over rayon's threads by the moves of the first plies.
pub fn perft_parallel(pos: &Position, depth: u32) -> u64 {
    if depth <= SERIAL_DEPTH {
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

/// Perft on bare bitboards.
///
/// A node is `(own, opp, ep)`: the pawns of the side to move, the opponent's,
/// and the en passant target as a one-bit mask (0 if none; as in
/// [`Position`], set only when a capture onto it is possible). The side to
/// move is a type ([`White`] or [`Black`]), so every shift is a constant.
///
/// Invariant of every node the recursion visits: neither side has a pawn on
/// its goal squares (its last rank, plus its second-to-last with
/// `--seventh-rank-wins`). Then a move ends the game exactly when it lands on
/// a goal square or takes the opponent's last pawn, and such a move counts 1
/// at the last ply and nothing below it.
mod fast {
    use crate::rules::bitboard::Bitboard;
    use crate::rules::color::Color;
    use crate::rules::position::Position;

    const NOT_FILE_A: u64 = !Bitboard::FILE_A.0;
    const NOT_FILE_H: u64 = !Bitboard::FILE_H.0;

    /// What the recursion needs of the variant, computed once per call.
    pub(super) struct Masks {
        /// Landing here ends the game, by side (index: [`Side::INDEX`]).
        goal: [u64; 2],
        /// Squares a single step lands on from which a double step goes on.
        double_via: [u64; 2],
        en_passant: bool,
    }

    impl Masks {
        fn new(pos: &Position) -> Masks {
            let variant = pos.variant();
            let board = variant.board;
            let goal = |c: Color| {
                let mut g = board.rank_mask(board.last_rank(c)).0;
                if variant.rules.seventh_rank_wins {
                    g |= board.rank_mask(board.second_to_last_rank(c)).0;
                }
                g
            };
            Masks {
                goal: [goal(Color::White), goal(Color::Black)],
                double_via: [board.rank_mask(2).0, board.rank_mask(board.height() - 3).0],
                en_passant: variant.rules.en_passant,
            }
        }
    }

    /// The side to move, as a type.
    pub(super) trait Side {
        const INDEX: usize;
        type Other: Side;
        /// One rank forward.
        fn fwd(b: u64) -> u64;
        /// One rank back.
        fn back(b: u64) -> u64;
        /// Capture targets toward file a.
        fn cap_a(b: u64) -> u64;
        /// Capture targets toward file h.
        fn cap_h(b: u64) -> u64;
        /// Origin of a capture toward file a landing on `t`.
        fn from_cap_a(t: u64) -> u64;
        /// Origin of a capture toward file h landing on `t`.
        fn from_cap_h(t: u64) -> u64;
    }

    pub(super) struct White;
    pub(super) struct Black;

    impl Side for White {
        const INDEX: usize = 0;
        type Other = Black;
        #[inline(always)]
        fn fwd(b: u64) -> u64 {
            b << 8
        }
        #[inline(always)]
        fn back(b: u64) -> u64 {
            b >> 8
        }
        #[inline(always)]
        fn cap_a(b: u64) -> u64 {
            (b & NOT_FILE_A) << 7
        }
        #[inline(always)]
        fn cap_h(b: u64) -> u64 {
            (b & NOT_FILE_H) << 9
        }
        #[inline(always)]
        fn from_cap_a(t: u64) -> u64 {
            t >> 7
        }
        #[inline(always)]
        fn from_cap_h(t: u64) -> u64 {
            t >> 9
        }
    }

    impl Side for Black {
        const INDEX: usize = 1;
        type Other = White;
        #[inline(always)]
        fn fwd(b: u64) -> u64 {
            b >> 8
        }
        #[inline(always)]
        fn back(b: u64) -> u64 {
            b << 8
        }
        #[inline(always)]
        fn cap_a(b: u64) -> u64 {
            (b & NOT_FILE_A) >> 9
        }
        #[inline(always)]
        fn cap_h(b: u64) -> u64 {
            (b & NOT_FILE_H) >> 7
        }
        #[inline(always)]
        fn from_cap_a(t: u64) -> u64 {
            t << 9
        }
        #[inline(always)]
        fn from_cap_h(t: u64) -> u64 {
            t << 7
        }
    }

    /// The squares beside `t` on its rank.
    #[inline(always)]
    fn beside(t: u64) -> u64 {
        ((t & NOT_FILE_A) >> 1) | ((t & NOT_FILE_H) << 1)
    }

    /// The move targets of side `S`: (single and double steps, captures toward
    /// file a, captures toward file h). Steps and double steps never share a
    /// target (a double step's target has an empty square behind it).
    #[inline(always)]
    fn targets<S: Side>(m: &Masks, own: u64, opp: u64, ep: u64) -> (u64, u64, u64, u64) {
        let empty = !(own | opp);
        let push = S::fwd(own) & empty;
        let double = S::fwd(push & m.double_via[S::INDEX]) & empty;
        let prey = opp | ep;
        (push, double, S::cap_a(own) & prey, S::cap_h(own) & prey)
    }

    /// The number of moves of side `S` (the caller knows the game goes on).
    #[inline(always)]
    fn count<S: Side>(m: &Masks, own: u64, opp: u64, ep: u64) -> u64 {
        let (push, double, a, h) = targets::<S>(m, own, opp, ep);
        ((push | double).count_ones() + a.count_ones() + h.count_ones()) as u64
    }

    /// The en passant mask after side `S` double-steps onto `t`.
    #[inline(always)]
    fn ep_after_double<S: Side>(m: &Masks, t: u64, opp: u64) -> u64 {
        if m.en_passant && beside(t) & opp != 0 {
            S::back(t)
        } else {
            0
        }
    }

    /// Calls `f(own', opp', ep')` for every move of side `S` that does not
    /// end the game, with the child's pawns and en passant mask. A capture
    /// of the last pawn is passed on: a side without pawns has no moves, so
    /// it counts 0 below, as it should.
    #[inline(always)]
    fn for_each_child<S: Side>(
        m: &Masks,
        own: u64,
        opp: u64,
        ep: u64,
        mut f: impl FnMut(u64, u64, u64),
    ) {
        let (push, double, a, h) = targets::<S>(m, own, opp, ep);
        let live = !m.goal[S::INDEX];
        let mut pushes = push & live;
        while pushes != 0 {
            let t = pushes & pushes.wrapping_neg();
            pushes &= pushes - 1;
            f(own ^ t ^ S::back(t), opp, 0);
        }
        let mut doubles = double & live;
        while doubles != 0 {
            let t = doubles & doubles.wrapping_neg();
            doubles &= doubles - 1;
            f(
                own ^ t ^ S::back(S::back(t)),
                opp,
                ep_after_double::<S>(m, t, opp),
            );
        }
        let mut caps = a & live;
        while caps != 0 {
            let t = caps & caps.wrapping_neg();
            caps &= caps - 1;
            let taken = if t == ep { S::back(t) } else { t };
            f(own ^ t ^ S::from_cap_a(t), opp ^ taken, 0);
        }
        let mut caps = h & live;
        while caps != 0 {
            let t = caps & caps.wrapping_neg();
            caps &= caps - 1;
            let taken = if t == ep { S::back(t) } else { t };
            f(own ^ t ^ S::from_cap_h(t), opp ^ taken, 0);
        }
    }

    /// Perft of depth 2: the moves of every child that goes on, counted
    /// without making the child.
    #[inline(always)]
    fn perft2<S: Side>(m: &Masks, own: u64, opp: u64, ep: u64) -> u64 {
        let mut total = 0;
        for_each_child::<S>(m, own, opp, ep, |own2, opp2, ep2| {
            total += count::<S::Other>(m, opp2, own2, ep2);
        });
        total
    }

    /// Generates `node` (perft of depth >= 2 of a node under the invariant),
    /// once with and once without target features, so that `count_ones` is
    /// one instruction where the CPU has one.
    macro_rules! node_fn {
        ($name:ident $(, $feature:literal)?) => {
            $(#[target_feature(enable = $feature)])?
            pub(super) fn $name<S: Side>(m: &Masks, own: u64, opp: u64, ep: u64, depth: u32) -> u64 {
                if depth == 2 {
                    return perft2::<S>(m, own, opp, ep);
                }
                let mut total = 0;
                for_each_child::<S>(m, own, opp, ep, |own2, opp2, ep2| {
                    total += $name::<S::Other>(m, opp2, own2, ep2, depth - 1);
                });
                total
            }
        };
    }

    node_fn!(node_plain);
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    node_fn!(node_popcnt, "popcnt");

    /// Whether the CPU counts bits in one instruction.
    #[inline]
    pub(super) fn popcnt_available() -> bool {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        {
            std::is_x86_feature_detected!("popcnt")
        }
        #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
        {
            false
        }
    }

    /// Perft of `pos` to `depth` >= 2; `popcnt` picks the code compiled for
    /// CPUs with a bit-count instruction (the caller has checked it exists).
    pub(super) fn perft(pos: &Position, depth: u32, popcnt: bool) -> u64 {
        debug_assert!(depth >= 2);
        if pos.winner_by_rule().is_some() {
            return 0;
        }
        let m = Masks::new(pos);
        let turn = pos.turn();
        let own = pos.pawns(turn).0;
        let opp = pos.pawns(!turn).0;
        // A pawn of the side to move already on a goal square (possible
        // with --seventh-rank-wins in a given position): every move ends
        // the game.
        if own & m.goal[turn.index()] != 0 {
            return 0;
        }
        let ep = pos.ep_square().map_or(0, |s| Bitboard::from_square(s).0);
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        if popcnt {
            // SAFETY: the caller checked that the CPU has popcnt.
            return unsafe {
                match turn {
                    Color::White => node_popcnt::<White>(&m, own, opp, ep, depth),
                    Color::Black => node_popcnt::<Black>(&m, own, opp, ep, depth),
                }
            };
        }
        let _ = popcnt;
        match turn {
            Color::White => node_plain::<White>(&m, own, opp, ep, depth),
            Color::Black => node_plain::<Black>(&m, own, opp, ep, depth),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse::parse_position;
    use crate::rules::parse::test_position as pos;
    use crate::rules::variant::{Board, Rules};

    #[test]
    fn one_file_peasants_is_stalemated_after_four_plies() {
        // docs/RULES.md: a4 a5 a3 a6 is forced, then white has no move.
        let p = pos("peasants", "1x8");
        let counts: Vec<u64> = (1..=5).map(|d| perft(&p, d)).collect();
        assert_eq!(counts, [1, 1, 1, 1, 0]);
    }

    #[test]
    fn parallel_agrees_with_serial() {
        let p = pos("peasants", "4x8");
        for d in 0..=SERIAL_DEPTH + 3 {
            assert_eq!(perft(&p, d), perft_parallel(&p, d));
            let total: u64 = divide(&p, d).iter().map(|x| x.1).sum();
            assert_eq!(total, if d == 0 { 0 } else { perft(&p, d) });
        }
    }

    /// The plain definition: play every legal move, count to the last ply.
    fn naive(p: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return p.legal_moves().len() as u64;
        }
        p.legal_moves()
            .iter()
            .map(|&m| naive(&p.play(m), depth - 1))
            .sum()
    }

    fn boards() -> impl Iterator<Item = Board> {
        (1..=8u8).flat_map(|w| (4..=8u8).map(move |h| Board::new(w, h).unwrap()))
    }

    /// Checks every counting path against [`naive`] at depths 0..=`max_depth`.
    fn check(p: &Position, max_depth: u32) {
        for depth in 0..=max_depth {
            let want = naive(p, depth);
            assert_eq!(
                perft(p, depth),
                want,
                "perft({depth}) of {p} ({})",
                p.variant()
            );
            if depth >= 2 {
                assert_eq!(
                    fast::perft(p, depth, false),
                    want,
                    "portable perft({depth}) of {p} ({})",
                    p.variant()
                );
                if fast::popcnt_available() {
                    assert_eq!(
                        fast::perft(p, depth, true),
                        want,
                        "popcnt perft({depth}) of {p} ({})",
                        p.variant()
                    );
                }
            }
        }
    }

    #[test]
    fn fast_perft_agrees_with_naive_on_random_playouts() {
        let mut rng = crate::SplitMix64::new(0x5EED_0001);
        let mut checked = 0;
        let mut ep_seen = 0;
        let mut over_seen = 0;
        for board in boards() {
            let w = board.width();
            for rules in Rules::ALL {
                let mut names = vec!["pawngame".to_string(), "peasants".to_string()];
                for _ in 0..2 {
                    let x = crate::rules::square::file_char(rng.below(w as u64) as u8);
                    let y = crate::rules::square::file_char(rng.below(w as u64) as u8);
                    names.push(format!("pawnrace:{x}:{y}"));
                }
                for name in names {
                    let Ok(start) = parse_position(&name, Some(board), rules) else {
                        continue; // peasants below 6 ranks, pawnrace:a:a on one file
                    };
                    for _ in 0..4 {
                        let mut p = start;
                        for _ in 0..rng.below(24) {
                            let moves = p.legal_moves();
                            if moves.is_empty() {
                                break;
                            }
                            p = p.play(moves[rng.below(moves.len() as u64) as usize]);
                        }
                        ep_seen += p.ep_square().is_some() as u32;
                        over_seen += p.is_game_over() as u32;
                        check(&p, 5);
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1500, "{checked} positions");
        assert!(
            ep_seen > 10,
            "only {ep_seen} positions with an en passant right"
        );
        assert!(over_seen > 10, "only {over_seen} finished positions");
    }

    #[test]
    fn fast_perft_agrees_with_naive_on_random_placements() {
        use crate::rules::bitboard::Bitboard;
        use crate::rules::color::{ByColor, Color};
        use crate::rules::setup::Setup;
        use crate::rules::square::Square;
        use crate::rules::variant::Variant;
        let mut rng = crate::SplitMix64::new(0x5EED_0002);
        let mut checked = 0;
        let mut ep_seen = 0;
        for board in boards() {
            let (w, h) = (board.width(), board.height());
            for rules in Rules::ALL {
                let mut found = 0;
                for _ in 0..2000 {
                    if found == 25 {
                        break;
                    }
                    // Pawns of each side on its ranks 2..H-1, at a random density.
                    let density = 1 + rng.below(5);
                    let mut pawns = ByColor::<Bitboard>::default();
                    for rank in 1..h - 1 {
                        for file in 0..w {
                            let sq = Square::new(file, rank);
                            match rng.below(10) {
                                r if r < density => pawns.white.set(sq),
                                r if r < 2 * density => pawns.black.set(sq),
                                _ => {}
                            }
                        }
                    }
                    let turn = if rng.below(2) == 0 {
                        Color::White
                    } else {
                        Color::Black
                    };
                    // A third of the time, stage a double step of the side that
                    // just moved, with a capturer beside it half of those times.
                    let ep_square = if rng.below(3) == 0 && h >= 5 {
                        let (origin, skipped, arrival) = match turn {
                            Color::White => (h - 2, h - 3, h - 4),
                            Color::Black => (1, 2, 3),
                        };
                        let file = rng.below(w as u64) as u8;
                        let (mover, taker) = match turn {
                            Color::White => (&mut pawns.black, &mut pawns.white),
                            Color::Black => (&mut pawns.white, &mut pawns.black),
                        };
                        for rank in [origin, skipped] {
                            mover.clear(Square::new(file, rank));
                            taker.clear(Square::new(file, rank));
                        }
                        taker.clear(Square::new(file, arrival));
                        mover.set(Square::new(file, arrival));
                        let side = if rng.below(2) == 0 {
                            file.wrapping_sub(1)
                        } else {
                            file + 1
                        };
                        if side < w && rng.below(2) == 0 {
                            mover.clear(Square::new(side, arrival));
                            taker.set(Square::new(side, arrival));
                        }
                        Some(Square::new(file, skipped))
                    } else {
                        None
                    };
                    let setup = Setup {
                        board,
                        pawns,
                        turn,
                        ep_square,
                    };
                    let Ok(p) = Position::from_setup(&setup, Variant::new(board, rules)) else {
                        continue;
                    };
                    ep_seen += p.ep_square().is_some() as u32;
                    check(&p, 3);
                    found += 1;
                    checked += 1;
                }
            }
        }
        assert!(checked > 3000, "{checked} positions");
        assert!(
            ep_seen > 10,
            "only {ep_seen} positions with an en passant right"
        );
    }
}
