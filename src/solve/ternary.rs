//! A canonical position's key ([`crate::rules::canonical::position_key`])
//! in 80 bits, for the proof-number search's transposition table, whose
//! entries then take 20 bytes instead of 28 (six to a bucket of two cache
//! lines instead of four: 1.45 times the positions in the same memory).
//!
//! A searched position has pawns only on ranks 2 to 7 of the widest
//! board (bits 8 to 55 of each colour's half of the key), never a white
//! and a black pawn on one square, and at most one en passant mark, on
//! rank 8 of black's half (on a lower board the mark stands on black's
//! last rank, where no black pawn can, and counts as a black digit). So
//! each of the 48 squares is a digit in base 3 (0 empty, 1 white, 2
//! black), and the mark one digit in base 9 (0 none, else its file plus
//! one): 3^48 x 9 < 2^80 keys. The code is that number plus one, so that
//! 0 stays an empty slot's.

/// `TERNARY[b]`: the sum of 3^k over the bits k of `b`, a rank's byte
/// read as base-3 digits of 0 and 1.
const TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let (mut k, mut p, mut sum) = (0, 1u16, 0u16);
        while k < 8 {
            if b & (1 << k) != 0 {
                sum += p;
            }
            p *= 3;
            k += 1;
        }
        t[b] = sum;
        b += 1;
    }
    t
};

/// 3^8: the codes of one rank.
const RANK: u64 = 6561;
/// 3^24: the codes of three ranks.
const THREE_RANKS: u64 = RANK * RANK * RANK;
/// The largest code, 3^48 x 9.
pub(crate) const MAX_CODE: u128 = (THREE_RANKS as u128) * (THREE_RANKS as u128) * 9;
const _: () = assert!(MAX_CODE < 1 << 80);

/// The code of `key` (its bit 0, which the proof-number search gives the
/// question, must be clear), in 1..=[`MAX_CODE`]; `None` for a key no
/// searched position has (a pawn off ranks 2 to 7, a white and a black
/// pawn on one square, two en passant marks, or no pawn at all).
#[inline]
pub(crate) fn pack(key: u128) -> Option<u128> {
    let (white, black) = (key as u64, (key >> 64) as u64);
    let mark = black >> 56;
    if white & 0xff00_0000_0000_00ff | black & 0xff | white & black != 0
        || mark & mark.wrapping_sub(1) != 0
        || key == 0
    {
        return None;
    }
    let rank = |r: u32| {
        u64::from(TERNARY[(white >> (8 * r)) as u8 as usize])
            + 2 * u64::from(TERNARY[(black >> (8 * r)) as u8 as usize])
    };
    let low = rank(1) + RANK * (rank(2) + RANK * rank(3));
    let high = rank(4) + RANK * (rank(5) + RANK * rank(6));
    let mark = if mark == 0 {
        0
    } else {
        1 + u64::from(mark.trailing_zeros())
    };
    // (high x 3^24 + low) x 9 + mark + 1, with one wide product.
    Some(high as u128 * (THREE_RANKS * 9) as u128 + (low * 9 + mark + 1) as u128)
}

/// The key whose code is `code` (the inverse of [`pack`]); `None` for a
/// number that is no code (0 or more than [`MAX_CODE`]).
pub(crate) fn unpack(code: u128) -> Option<u128> {
    if code == 0 || code > MAX_CODE {
        return None;
    }
    let n = code - 1;
    let mark = (n % 9) as u32;
    let squares = n / 9;
    let mut low = (squares % THREE_RANKS as u128) as u64;
    let mut high = (squares / THREE_RANKS as u128) as u64;
    let (mut white, mut black) = (0u64, 0u64);
    for r in 1..=6 {
        let half = if r <= 3 { &mut low } else { &mut high };
        let mut digits = *half % RANK;
        *half /= RANK;
        for f in 0..8 {
            match digits % 3 {
                1 => white |= 1 << (8 * r + f),
                2 => black |= 1 << (8 * r + f),
                _ => {}
            }
            digits /= 3;
        }
    }
    if mark > 0 {
        black |= 1 << (56 + mark - 1);
    }
    Some(white as u128 | (black as u128) << 64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use crate::rules::canonical::position_key;

    /// A key as a searched position could have: every square of ranks 2
    /// to 7 empty, white or black, and at most one mark.
    fn random_key(rng: &mut SplitMix64) -> u128 {
        let (mut white, mut black) = (0u64, 0u64);
        let density = rng.next_u64() % 4;
        for sq in 8..56 {
            match rng.next_u64() % (3 + 3 * density) {
                0 => white |= 1 << sq,
                1 => black |= 1 << sq,
                _ => {}
            }
        }
        if rng.next_u64().is_multiple_of(3) {
            black |= 1 << (56 + rng.next_u64() % 8);
        }
        white as u128 | (black as u128) << 64
    }

    #[test]
    fn codes_round_trip_and_stay_within_80_bits() {
        let mut rng = SplitMix64::new(32);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200_000 {
            let key = random_key(&mut rng);
            if key == 0 {
                continue;
            }
            let code = pack(key).expect("a key of a searched position");
            assert!((1..=MAX_CODE).contains(&code), "{key:#x}");
            assert_eq!(unpack(code), Some(key), "{key:#x}");
            seen.insert((code, key));
        }
        // Distinct keys, distinct codes.
        let codes: std::collections::HashSet<_> = seen.iter().map(|&(c, _)| c).collect();
        assert_eq!(codes.len(), seen.len());
        // The extremes: every square black and the last file's mark, and
        // a single white pawn on b2.
        let full = (0x00ff_ffff_ffff_ff00u64 | 1 << 63) as u128;
        assert_eq!(pack(full << 64), Some(MAX_CODE));
        assert_eq!(unpack(MAX_CODE), Some(full << 64));
        assert_eq!(pack(1 << 9), Some(9 * 3 + 1));
    }

    /// Every position of a small board's game, and of its first plies,
    /// packs and unpacks to its own key, en passant marks included.
    #[test]
    fn every_searched_position_has_a_code() {
        use crate::rules::parse::test_position;
        for (name, board) in [
            ("peasants", "4x6"),
            ("pawngame", "5x5"),
            ("pawngame", "6x8"),
        ] {
            let start = test_position(name, board);
            let mut frontier = vec![start];
            let mut marks = 0;
            for _ in 0..5 {
                let mut next = Vec::new();
                for pos in &frontier {
                    let canon = crate::rules::canonical::canonical(pos);
                    let key = position_key(&canon);
                    let mark_rank = 8 * (pos.board().height() as u32 - 1);
                    marks += (key >> 64 >> mark_rank & 0xff != 0) as usize;
                    let code = pack(key).expect("a searched position packs");
                    assert_eq!(unpack(code), Some(key));
                    for m in pos.legal_moves().iter() {
                        next.push(pos.play(*m));
                    }
                }
                next.sort_unstable_by_key(|p| position_key(&crate::rules::canonical::canonical(p)));
                next.dedup_by_key(|p| position_key(&crate::rules::canonical::canonical(p)));
                frontier = next;
            }
            // The pawn game's first double steps give marks: on 5x5 on
            // black's last rank, on 6x8 on rank 8.
            assert!(name != "pawngame" || marks > 0, "{board}: no marks met");
        }
    }

    /// Keys no searched position has are refused, not packed into another
    /// key's code; numbers that are no code are refused too.
    #[test]
    fn keys_off_the_board_are_refused() {
        let b2 = 1u128 << 9;
        for bad in [
            0,
            1,             // the question bit
            b2 | b2 << 64, // white and black on b2
            1 << 57,       // a white pawn on rank 8
            1 << 70,       // a black pawn on rank 1
            b2 | 3 << 120, // two marks
            b2 | 1 << 7,   // a white pawn on rank 1
        ] {
            assert_eq!(pack(bad), None, "{bad:#x}");
        }
        assert_eq!(unpack(0), None);
        assert_eq!(unpack(MAX_CODE + 1), None);
    }
}
