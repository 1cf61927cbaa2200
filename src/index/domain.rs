//! What every position's value comes down to: the end rules, the rule for
//! second-to-last-rank pawns, one ply of search for en passant rights, the
//! colour flip, and otherwise a table position (see [`super::in_domain`]).
//!
//! The generator and the prober share this code; they differ only in where
//! a table position's value comes from ([`TableValues`]).

use crate::rules::color::Color;
use crate::rules::position::Position;
use crate::rules::shortcuts::resolve_by_rule;
use crate::rules::value::{Value, Wdl};

/// A source of values for table positions (see [`super::in_domain`]).
pub trait TableValues {
    /// Why a table value could not be had (a missing or damaged table, say).
    type Error;

    /// The value of a table position: white to move, no en passant right,
    /// no pawn on a second-to-last rank, at least one pawn a side.
    fn table_value(&self, pos: &Position) -> Result<Value, Self::Error>;
}

/// A value whose win, draw or loss is right and whose distance is not
/// kept, for a [`TableValues`] of win/draw/loss only (the generator and the
/// checker of `gen --wdl-only` tables). [`value`] and [`search_one_ply`]
/// only compare values and step them back a move, and under [`Value`]'s
/// order every win is above every draw and every draw above every loss,
/// so the win, draw or loss of what they give is right whatever the
/// distances; only that may be used.
pub(crate) const fn stand_in(w: Wdl) -> Value {
    match w {
        Wdl::Win => Value::Win(3),
        Wdl::Draw => Value::Draw,
        Wdl::Loss => Value::Loss(2),
    }
}

/// The exact value of any position, from the side to move's view.
/// A position whose game is over by rule is `Loss(0)` (the side that just
/// moved has won); a stalemate is a draw.
pub fn value<T: TableValues + ?Sized>(tables: &T, pos: &Position) -> Result<Value, T::Error> {
    if pos.winner_by_rule().is_some() {
        return Ok(Value::Loss(0));
    }
    let pos = if pos.turn() == Color::Black {
        pos.flipped()
    } else {
        *pos
    };
    // En passant first: on a board of height 5 a double step lands on the
    // second-to-last rank, and only then can such a pawn still be captured.
    if pos.ep_square().is_some() {
        return search_one_ply(tables, &pos);
    }
    if let Some(v) = resolve_by_rule(&pos) {
        return Ok(v);
    }
    tables.table_value(&pos)
}

/// The best value over the moves of `pos`, each valued by [`value`];
/// a draw if there is none (stalemate).
pub fn search_one_ply<T: TableValues + ?Sized>(
    tables: &T,
    pos: &Position,
) -> Result<Value, T::Error> {
    let mut best: Option<Value> = None;
    for &m in pos.legal_moves().iter() {
        let v = value(tables, &pos.play(m))?.before_move();
        if best.is_none_or(|b| v > b) {
            best = Some(v);
            if v == Value::Win(1) {
                break;
            }
        }
    }
    Ok(best.unwrap_or(Value::Draw))
}
