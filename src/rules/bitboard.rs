//! Sets of squares as 64-bit masks (`bit = rank * 8 + file`).

use crate::rules::square::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square at all.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// File a of the 8-wide layout.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// File h of the 8-wide layout (the last column of every board layout).
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);

    /// All squares of one rank (0 = rank 1) on a board `width` files wide.
    #[inline]
    pub const fn rank(rank: u8, width: u8) -> Bitboard {
        Bitboard(((1u64 << width) - 1) << (rank * 8))
    }

    /// All squares of one file (0 = a) on a board `height` ranks high.
    #[inline]
    pub const fn file(file: u8, height: u8) -> Bitboard {
        Bitboard(Self::ranks_of_file_a(height) << file)
    }

    /// Every square of a `width` x `height` board.
    #[inline]
    pub const fn board(width: u8, height: u8) -> Bitboard {
        let row = (1u64 << width) - 1;
        // The row's bits times one bit per rank: no two products overlap.
        Bitboard(row.wrapping_mul(Self::ranks_of_file_a(height)))
    }

    /// The squares of file a on the lowest `height` ranks (no loop: these
    /// masks are built at every node).
    #[inline]
    const fn ranks_of_file_a(height: u8) -> u64 {
        if height == 0 {
            0
        } else {
            Self::FILE_A.0 >> (8 * (8 - height as u32))
        }
    }

    /// The set of one square.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u64 << sq.index())
    }

    /// Whether the set holds no square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds at least one square.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1u64 << sq.index()) != 0
    }

    /// Adds `sq` to the set.
    #[inline]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1u64 << sq.index();
    }

    /// Takes `sq` out of the set.
    #[inline]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1u64 << sq.index());
    }

    /// The lowest square of the set.
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros() as u8))
        }
    }

    /// Shifted up by `n` ranks (toward rank 8); squares pushed off vanish.
    #[inline]
    pub const fn up(self, n: u32) -> Bitboard {
        Bitboard(self.0 << (8 * n))
    }

    /// Shifted down by `n` ranks (toward rank 1); squares pushed off vanish.
    #[inline]
    pub const fn down(self, n: u32) -> Bitboard {
        Bitboard(self.0 >> (8 * n))
    }

    /// Every square strictly above some square of `self` on the same file.
    #[inline]
    pub const fn above(self) -> Bitboard {
        let mut x = self.0 << 8;
        x |= x << 8;
        x |= x << 16;
        x |= x << 32;
        Bitboard(x)
    }

    /// Every square strictly below some square of `self` on the same file.
    #[inline]
    pub const fn below(self) -> Bitboard {
        let mut x = self.0 >> 8;
        x |= x >> 8;
        x |= x >> 16;
        x |= x >> 32;
        Bitboard(x)
    }

    /// The files holding some square of `self`, as a mask of bits 0..8
    /// (file a in bit 0).
    #[inline]
    pub const fn files(self) -> u8 {
        let mut x = self.0;
        x |= x >> 32;
        x |= x >> 16;
        x |= x >> 8;
        x as u8
    }

    /// Shifted one file left (toward a); file a vanishes.
    #[inline]
    pub const fn left(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_A.0) >> 1)
    }

    /// Shifted one file right (toward h); file h vanishes.
    #[inline]
    pub const fn right(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_H.0) << 1)
    }

    /// Mirrored left-right on a board `width` files wide.
    #[inline]
    pub fn mirror_files(self, width: u8) -> Bitboard {
        // Reverse the bits within each byte, then slide the used files back to a.
        let mut x = self.0;
        x = ((x >> 1) & 0x5555_5555_5555_5555) | ((x & 0x5555_5555_5555_5555) << 1);
        x = ((x >> 2) & 0x3333_3333_3333_3333) | ((x & 0x3333_3333_3333_3333) << 2);
        x = ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((x & 0x0F0F_0F0F_0F0F_0F0F) << 4);
        Bitboard(x >> (8 - width))
    }

    /// Mirrored top-bottom on a board `height` ranks high.
    #[inline]
    pub fn mirror_ranks(self, height: u8) -> Bitboard {
        Bitboard(self.0.swap_bytes() >> (8 * (8 - height as u32)))
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

macro_rules! bit_ops {
    ($($tr:ident $f:ident $tra:ident $fa:ident $op:tt;)*) => {$(
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
    )*};
}

bit_ops! {
    BitAnd bitand BitAndAssign bitand_assign &;
    BitOr bitor BitOrAssign bitor_assign |;
    BitXor bitxor BitXorAssign bitxor_assign ^;
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn above_and_files_match_square_by_square() {
        let mut rng = crate::rng::SplitMix64::new(3);
        for _ in 0..2000 {
            let b = Bitboard(rng.next_u64() & rng.next_u64() & rng.next_u64());
            let (mut above, mut files) = (0u64, 0u8);
            for sq in 0..64 {
                if b.0 >> sq & 1 == 1 {
                    files |= 1 << (sq % 8);
                    let mut up = sq + 8;
                    while up < 64 {
                        above |= 1 << up;
                        up += 8;
                    }
                }
            }
            assert_eq!(b.above().0, above);
            assert_eq!(b.files(), files);
        }
    }

    #[test]
    fn masks() {
        assert_eq!(Bitboard::board(8, 8).0, u64::MAX);
        assert_eq!(Bitboard::board(3, 5).count(), 15);
        assert_eq!(Bitboard::rank(1, 8).0, 0xFF00);
        assert_eq!(Bitboard::file(2, 8), Bitboard::FILE_A.right().right());
        for w in 1..=8u8 {
            for h in 0..=8u8 {
                let mut bits = 0u64;
                for r in 0..h {
                    for f in 0..w {
                        bits |= 1 << (8 * r + f);
                    }
                    assert_eq!(Bitboard::file(w - 1, h).0 >> (8 * r + w - 1) & 1, 1);
                }
                assert_eq!(Bitboard::board(w, h).0, bits, "{w}x{h}");
                assert_eq!(Bitboard::file(w - 1, h).count(), h as u32);
            }
        }
    }

    #[test]
    fn mirrors_are_involutions() {
        for w in 1..=8u8 {
            for h in 4..=8u8 {
                let board = Bitboard::board(w, h);
                let x = Bitboard(0x9E37_79B9_7F4A_7C15) & board;
                assert_eq!(x.mirror_files(w).mirror_files(w), x);
                assert_eq!(x.mirror_ranks(h).mirror_ranks(h), x);
                assert_eq!(x.mirror_files(w) & !board, Bitboard::EMPTY);
                for sq in x {
                    assert!(x.mirror_files(w).contains(sq.mirror_file(w)));
                    assert!(x.mirror_ranks(h).contains(sq.mirror_rank(h)));
                }
            }
        }
    }
}
