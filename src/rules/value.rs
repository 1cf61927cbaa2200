//! Game values from the side to move's view: win, draw or loss, with the
//! distance to mate (DTM, docs/RULES.md: plies until the game ends under optimal
//! play, the winning move counting as one).

use std::cmp::Ordering;
use std::fmt;

/// Win, draw or loss, from the side to move's view.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Wdl {
    /// The side to move loses under best play.
    Loss,
    /// Neither side can force a win: best play ends in stalemate.
    Draw,
    /// The side to move wins under best play.
    Win,
}

impl Wdl {
    /// `loss`, `draw` or `win`, as in output.
    pub const fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        }
    }

    /// The value for the side that moved into a position of this value.
    #[inline]
    pub const fn before_move(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An exact value: the result and, for a decisive game, its DTM in plies.
/// A win always has an odd DTM and a loss an even one (0: already lost).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Value {
    /// The side to move wins in this many plies (DTM, odd), its own winning
    /// move included.
    Win(u8),
    /// Neither side can force a win: best play ends in stalemate.
    Draw,
    /// The side to move loses in this many plies (DTM, even; 0: the game is
    /// already lost).
    Loss(u8),
}

impl Value {
    /// Win, draw or loss, without the DTM.
    #[inline]
    pub const fn wdl(self) -> Wdl {
        match self {
            Value::Win(_) => Wdl::Win,
            Value::Draw => Wdl::Draw,
            Value::Loss(_) => Wdl::Loss,
        }
    }

    /// Plies to the end of the game, none for a draw.
    #[inline]
    pub const fn dtm(self) -> Option<u32> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d as u32),
            Value::Draw => None,
        }
    }

    /// The value for the side that moved into a position of this value.
    #[inline]
    pub const fn before_move(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Draw => Value::Draw,
            Value::Loss(d) => Value::Win(d + 1),
        }
    }

    /// A key that orders values from the mover's point of view: faster
    /// wins first, then draws, then slower losses.
    #[inline]
    const fn key(self) -> i32 {
        match self {
            Value::Win(d) => 1000 - d as i32,
            Value::Draw => 0,
            Value::Loss(d) => -1000 + d as i32,
        }
    }

    /// The byte a table stores: the DTM itself (odd: win, even: loss), 255
    /// for a draw; 0 means "not known" and never decodes.
    #[inline]
    pub const fn to_byte(self) -> u8 {
        match self {
            Value::Win(d) | Value::Loss(d) => d,
            Value::Draw => DRAW_BYTE,
        }
    }

    /// The value a table byte stands for (`None` for 0, "not known").
    #[inline]
    pub const fn from_byte(b: u8) -> Option<Value> {
        match b {
            0 => None,
            DRAW_BYTE => Some(Value::Draw),
            d if d % 2 == 1 => Some(Value::Win(d)),
            d => Some(Value::Loss(d)),
        }
    }
}

/// The table byte of a draw.
pub const DRAW_BYTE: u8 = 255;

impl Ord for Value {
    /// Greater is better for the side to move.
    fn cmp(&self, other: &Value) -> Ordering {
        self.key().cmp(&other.key())
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Draw => f.write_str("draw"),
            Value::Loss(d) => write!(f, "loss in {d}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip() {
        for v in [
            Value::Win(1),
            Value::Win(77),
            Value::Loss(2),
            Value::Loss(254),
            Value::Draw,
        ] {
            assert_eq!(Value::from_byte(v.to_byte()), Some(v));
        }
        assert_eq!(Value::from_byte(0), None);
    }

    #[test]
    fn order_prefers_fast_wins_and_slow_losses() {
        let mut vs = vec![
            Value::Loss(2),
            Value::Win(5),
            Value::Draw,
            Value::Win(1),
            Value::Loss(8),
        ];
        vs.sort();
        assert_eq!(
            vs,
            [
                Value::Loss(2),
                Value::Loss(8),
                Value::Draw,
                Value::Win(5),
                Value::Win(1)
            ]
        );
        assert_eq!(Value::Loss(0).before_move(), Value::Win(1));
    }

    #[test]
    fn a_value_before_the_move_is_the_movers() {
        assert_eq!(Wdl::Win.before_move(), Wdl::Loss);
        assert_eq!(Wdl::Draw.before_move(), Wdl::Draw);
        assert_eq!(Wdl::Loss.before_move(), Wdl::Win);
        for v in [Value::Win(3), Value::Draw, Value::Loss(4)] {
            assert_eq!(v.before_move().wdl(), v.wdl().before_move());
        }
    }
}
