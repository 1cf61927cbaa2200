//! Board sizes and rule options: which member of the game family is played.

use crate::rules::bitboard::Bitboard;
use crate::rules::color::Color;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A board `width` files by `height` ranks, 1 <= width <= 8, 4 <= height <= 8.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Board {
    width: u8,
    height: u8,
}

impl Board {
    /// The narrowest board: one file.
    pub const MIN_WIDTH: u8 = 1;
    /// The widest board: eight files.
    pub const MAX_WIDTH: u8 = 8;
    /// The lowest board: four ranks.
    pub const MIN_HEIGHT: u8 = 4;
    /// The highest board: eight ranks.
    pub const MAX_HEIGHT: u8 = 8;
    /// The standard 8x8 board.
    pub const STANDARD: Board = Board {
        width: 8,
        height: 8,
    };

    /// A board of this size, or an error naming the limit it breaks.
    pub fn new(width: u8, height: u8) -> Result<Board, BoardError> {
        if !(Self::MIN_WIDTH..=Self::MAX_WIDTH).contains(&width)
            || !(Self::MIN_HEIGHT..=Self::MAX_HEIGHT).contains(&height)
        {
            return Err(BoardError::OutOfRange { width, height });
        }
        Ok(Board { width, height })
    }

    /// Files, 1 to 8.
    #[inline]
    pub const fn width(self) -> u8 {
        self.width
    }

    /// Ranks, 4 to 8.
    #[inline]
    pub const fn height(self) -> u8 {
        self.height
    }

    /// Every square of the board.
    #[inline]
    pub const fn squares(self) -> Bitboard {
        Bitboard::board(self.width, self.height)
    }

    /// The rank (0 = rank 1) on which `color`'s pawns promote.
    #[inline]
    pub const fn last_rank(self, color: Color) -> u8 {
        match color {
            Color::White => self.height - 1,
            Color::Black => 0,
        }
    }

    /// The rank just before `color`'s last rank.
    #[inline]
    pub const fn second_to_last_rank(self, color: Color) -> u8 {
        match color {
            Color::White => self.height - 2,
            Color::Black => 1,
        }
    }

    /// The rank from which `color`'s pawns may double-step.
    #[inline]
    pub const fn second_rank(self, color: Color) -> u8 {
        match color {
            Color::White => 1,
            Color::Black => self.height - 2,
        }
    }

    /// The rank behind `color`'s pawns, where none may ever stand.
    #[inline]
    pub const fn first_rank(self, color: Color) -> u8 {
        match color {
            Color::White => 0,
            Color::Black => self.height - 1,
        }
    }

    /// All squares of one rank of this board.
    #[inline]
    pub const fn rank_mask(self, rank: u8) -> Bitboard {
        Bitboard::rank(rank, self.width)
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::STANDARD
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for Board {
    type Err = BoardError;

    /// Parses `WxH`, e.g. `8x8` or `4x6`.
    fn from_str(text: &str) -> Result<Board, BoardError> {
        let bad = || BoardError::NotASize(text.to_string());
        let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
        let width: u8 = w.trim().parse().map_err(|_| bad())?;
        let height: u8 = h.trim().parse().map_err(|_| bad())?;
        Board::new(width, height)
    }
}

/// The rule options of the family.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Rules {
    /// En passant captures are allowed (the default).
    pub en_passant: bool,
    /// Moving a pawn onto its second-to-last rank wins at once (not the real rules).
    pub seventh_rank_wins: bool,
}

impl Rules {
    /// Every rule set of the family: en passant on and off, each with the
    /// real end rules and with `--seventh-rank-wins`.
    pub const ALL: [Rules; 4] = [
        Rules {
            en_passant: true,
            seventh_rank_wins: false,
        },
        Rules {
            en_passant: false,
            seventh_rank_wins: false,
        },
        Rules {
            en_passant: true,
            seventh_rank_wins: true,
        },
        Rules {
            en_passant: false,
            seventh_rank_wins: true,
        },
    ];
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            en_passant: true,
            seventh_rank_wins: false,
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.en_passant {
            "en passant"
        } else {
            "no en passant"
        })?;
        if self.seventh_rank_wins {
            f.write_str(", seventh-rank-wins")?;
        }
        Ok(())
    }
}

/// One game of the family: a board and its rules.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Variant {
    /// The board.
    pub board: Board,
    /// The rule options.
    pub rules: Rules,
}

impl Variant {
    /// The game of `board` under `rules`.
    pub const fn new(board: Board, rules: Rules) -> Variant {
        Variant { board, rules }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {}", self.board, self.rules)
    }
}

/// A board size that does not exist.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum BoardError {
    /// The width or the height is outside its limits.
    #[error("board {width}x{height} is out of range: width must be 1..8 and height 4..8")]
    OutOfRange {
        /// The width asked for.
        width: u8,
        /// The height asked for.
        height: u8,
    },
    /// Text that is not of the form `WxH` (held here).
    #[error("'{0}' is not a board size: expected WxH such as 8x8")]
    NotASize(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_text() {
        assert_eq!("8x8".parse::<Board>().unwrap(), Board::STANDARD);
        assert_eq!("3x5".parse::<Board>().unwrap().to_string(), "3x5");
        for bad in ["", "8", "9x8", "8x3", "0x8", "8x9", "axb", "8x8x8", "-1x5"] {
            assert!(bad.parse::<Board>().is_err(), "{bad}");
        }
    }
}
