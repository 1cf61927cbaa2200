//! Material classes: how many pawns each side has, written `3v2`.

use crate::rules::color::Color;
use crate::rules::error::MaterialError;
use crate::rules::position::Position;
use std::fmt;
use std::str::FromStr;

/// A material class: `white` pawns against `black` pawns.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Material {
    /// White's pawns.
    pub white: u8,
    /// Black's pawns.
    pub black: u8,
}

impl Material {
    /// The class of `white` white pawns against `black` black pawns.
    pub const fn new(white: u8, black: u8) -> Material {
        Material { white, black }
    }

    /// The class of a position's pawns.
    pub fn of(pos: &Position) -> Material {
        Material {
            white: pos.pawns(Color::White).count() as u8,
            black: pos.pawns(Color::Black).count() as u8,
        }
    }

    /// Pawns of both sides together.
    pub const fn total(self) -> u8 {
        self.white + self.black
    }

    /// The class with the sides exchanged (`3v2` -> `2v3`); a table holds
    /// only white-to-move positions, so black-to-move positions of `3v2` are
    /// found, colour-flipped, in `2v3`.
    pub const fn swapped(self) -> Material {
        Material {
            white: self.black,
            black: self.white,
        }
    }

    /// The class a capture by the side to move leads to, as the tables
    /// store it (the side then to move as white): the opponent, with one
    /// pawn fewer, against this side's pawns. None when the capture takes
    /// the opponent's last pawn (a win by rule, no table).
    pub const fn after_capture(self) -> Option<Material> {
        if self.black >= 2 {
            Some(Material::new(self.black - 1, self.white))
        } else {
            None
        }
    }

    /// The classes that a capture leads to from this class or its
    /// colour-flipped partner (a class pair: each one's moves lead into
    /// the other), `(Y-1)vX` and `(X-1)vY` for `XvY`, without repeats
    /// (one for `XvX`), fewest white pawns last.
    pub fn pair_captures(self) -> Vec<Material> {
        let mut reached: Vec<Material> = [self, self.swapped()]
            .iter()
            .filter_map(|m| m.after_capture())
            .collect();
        reached.sort_by_key(|m| std::cmp::Reverse(m.white));
        reached.dedup();
        reached
    }

    /// Every class with at least one pawn a side and at most `max_total` in
    /// all, in the order they must be generated: by total, then white count.
    pub fn up_to(max_total: u8) -> Vec<Material> {
        let mut out = Vec::new();
        for total in 2..=max_total {
            for white in (1..total).rev() {
                out.push(Material::new(white, total - white));
            }
        }
        out
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.white, self.black)
    }
}

impl FromStr for Material {
    type Err = MaterialError;

    /// Parses `WvB`, e.g. `3v2`; each side needs at least one pawn.
    fn from_str(text: &str) -> Result<Material, MaterialError> {
        let bad = || MaterialError(text.to_string());
        let (w, b) = text.trim().split_once(['v', 'V']).ok_or_else(bad)?;
        let white: u8 = w.parse().map_err(|_| bad())?;
        let black: u8 = b.parse().map_err(|_| bad())?;
        if white == 0 || black == 0 || white > 48 || black > 48 {
            return Err(bad());
        }
        Ok(Material { white, black })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips() {
        for m in Material::up_to(8) {
            assert_eq!(m.to_string().parse::<Material>().unwrap(), m);
        }
        for bad in ["", "3", "0v2", "2v0", "av1", "3v2v1", "99v1"] {
            assert!(bad.parse::<Material>().is_err(), "{bad}");
        }
    }

    /// Every class of one pawn fewer is reached by the captures of one
    /// class pair only, so `gen` keeps none of them from one pair to the
    /// next; and every class of at least one pawn a side is reached.
    #[test]
    fn each_class_is_captured_into_from_one_pair() {
        for total in 3..=16u8 {
            let mut reached: Vec<Material> = Material::up_to(total)
                .into_iter()
                .filter(|m| m.total() == total && m.white >= m.black)
                .flat_map(Material::pair_captures)
                .collect();
            reached.sort();
            let len = reached.len();
            reached.dedup();
            assert_eq!(reached.len(), len, "a class reached from two pairs");
            let below: Vec<Material> = Material::up_to(total - 1)
                .into_iter()
                .filter(|m| m.total() == total - 1)
                .collect();
            assert_eq!(reached.len(), below.len(), "{total}");
        }
    }

    #[test]
    fn order_puts_lower_totals_first() {
        let classes = Material::up_to(4);
        let names: Vec<String> = classes.iter().map(|m| m.to_string()).collect();
        assert_eq!(names, ["1v1", "2v1", "1v2", "3v1", "2v2", "1v3"]);
    }
}
