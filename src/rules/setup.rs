//! What a position is before the rules check it ([`Setup`]), and the named
//! setups (`peasants`, `pawngame`, `pawnrace:X:Y`).

use crate::rules::bitboard::Bitboard;
use crate::rules::color::{ByColor, Color};
use crate::rules::error::PositionError;
use crate::rules::square::file_from_char;
use crate::rules::square::Square;
use crate::rules::variant::Board;

/// What a position text says, before it is checked: pawns, side to move and
/// the claimed en passant square, on a board of the text's own size.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    /// The board the text is written for.
    pub board: Board,
    /// Each side's pawns, as the text places them.
    pub pawns: ByColor<Bitboard>,
    /// The side to move.
    pub turn: Color,
    /// The en passant square the text claims: the square a double step has just
    /// skipped.
    pub ep_square: Option<Square>,
}

/// The start position of a named setup on `board`, or `None` if `name` is
/// not a setup name. A setup that does not fit the board is an error.
pub fn named_setup(name: &str, board: Board) -> Option<Result<Setup, PositionError>> {
    let lower = name.trim().to_ascii_lowercase();
    let (w, h) = (board.width(), board.height());
    let rank = |r: u8| board.rank_mask(r);
    let misfit = |why: String| {
        Err(PositionError::SetupDoesNotFit {
            setup: name.trim().to_string(),
            board,
            why,
        })
    };
    let pawns = match lower.as_str() {
        "peasants" => {
            // White fills ranks 2 and 3, black ranks H-1 and H-2.
            if h < 6 {
                return Some(misfit(
                    "Peasants' Chess needs a board of 6 ranks or more, so that the armies do not overlap".into(),
                ));
            }
            ByColor {
                white: rank(1) | rank(2),
                black: rank(h - 2) | rank(h - 3),
            }
        }
        "pawngame" => ByColor {
            white: rank(1),
            black: rank(h - 2),
        },
        _ => {
            let rest = lower.strip_prefix("pawnrace")?;
            let parts: Vec<&str> = rest.split(':').collect();
            let gap = |s: &str| {
                let mut chars = s.chars();
                match (chars.next().and_then(file_from_char), chars.next()) {
                    (Some(f), None) if f < w => Some(f),
                    _ => None,
                }
            };
            let (x, y) = match parts.as_slice() {
                ["", x, y] => match (gap(x), gap(y)) {
                    (Some(x), Some(y)) => (x, y),
                    _ => {
                        return Some(misfit(format!(
                            "the gaps must be files a..{} of this board, as in pawnrace:h:a",
                            crate::rules::square::file_char(w - 1)
                        )))
                    }
                },
                _ => {
                    return Some(misfit(
                        "write the gaps as pawnrace:X:Y, white's gap file then black's, e.g. pawnrace:h:a".into(),
                    ))
                }
            };
            ByColor {
                white: rank(1) & !Bitboard::file(x, h),
                black: rank(h - 2) & !Bitboard::file(y, h),
            }
        }
    };
    Some(Ok(Setup {
        board,
        pawns,
        turn: Color::White,
        ep_square: None,
    }))
}
