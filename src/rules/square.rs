//! Squares, files and ranks.
//!
//! Squares are numbered as on an 8x8 board whatever the variant's size:
//! `index = rank * 8 + file`, with `a1 = 0`. A smaller board simply leaves
//! the files and ranks past its edge unused, so every board shares one
//! bitboard layout and one set of shifts.

use std::fmt;

/// One square of the (at most 8x8) board.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0 = a) and `rank` (0 = rank 1).
    ///
    /// # Panics
    /// If `file` or `rank` is 8 or more.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        assert!(file < 8 && rank < 8);
        Square(rank * 8 + file)
    }

    /// The square with this index (`rank * 8 + file`).
    ///
    /// # Panics
    /// If `index` is 64 or more.
    #[inline]
    pub const fn from_index(index: u8) -> Square {
        assert!(index < 64);
        Square(index)
    }

    /// The square's index, `rank * 8 + file` (its bit in a
    /// [`Bitboard`](crate::rules::Bitboard)), on every board size.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, 0 = a.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank, 0 = rank 1.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The square one rank up (`delta = 1`) or down (`delta = -1`), same file.
    #[inline]
    pub const fn offset(self, delta: i8) -> Option<Square> {
        let i = self.0 as i8 + delta;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Parses a square name such as `e4`.
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = file_from_char(b[0] as char)?;
        let rank = match b[1] {
            b'1'..=b'8' => b[1] - b'1',
            _ => return None,
        };
        Some(Square::new(file, rank))
    }

    /// The square mirrored left-right on a board `width` files wide.
    #[inline]
    pub const fn mirror_file(self, width: u8) -> Square {
        Square::new(width - 1 - self.file(), self.rank())
    }

    /// The square mirrored top-bottom on a board `height` ranks high.
    #[inline]
    pub const fn mirror_rank(self, height: u8) -> Square {
        Square::new(self.file(), height - 1 - self.rank())
    }
}

/// The letter of a file, `0 -> 'a'`.
#[inline]
pub fn file_char(file: u8) -> char {
    (b'a' + file) as char
}

/// The file of a letter, `'a' -> 0`, for files a..h.
#[inline]
pub fn file_from_char(c: char) -> Option<u8> {
    match c {
        'a'..='h' => Some(c as u8 - b'a'),
        _ => None,
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", file_char(self.file()), self.rank() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for i in 0..64 {
            let sq = Square::from_index(i);
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("a1"), Some(Square::new(0, 0)));
        assert_eq!(Square::parse("h8"), Some(Square::new(7, 7)));
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a"), None);
    }

    #[test]
    fn mirrors() {
        let e2 = Square::parse("e2").unwrap();
        assert_eq!(e2.mirror_file(8).to_string(), "d2");
        assert_eq!(e2.mirror_rank(8).to_string(), "e7");
        assert_eq!(e2.mirror_file(5).to_string(), "a2");
    }
}
