//! Named setups (`peasants`, `pawngame`, `pawnrace:X:Y`) and the one entry
//! point that turns any position argument into a checked [`Position`].

use crate::rules::bitboard::Bitboard;
use crate::rules::color::{ByColor, Color};
use crate::rules::error::Error;
use crate::rules::fen;
use crate::rules::position::{Position, Setup};
use crate::rules::square::file_from_char;
use crate::rules::variant::{Board, Rules, Variant};

/// The start position of a named setup on `board`, or `None` if `name` is
/// not a setup name. A setup that does not fit the board is an error.
pub fn named_setup(name: &str, board: Board) -> Option<Result<Setup, Error>> {
    let lower = name.trim().to_ascii_lowercase();
    let (w, h) = (board.width(), board.height());
    let rank = |r: u8| board.rank_mask(r);
    let misfit = |why: String| {
        Err(Error::SetupDoesNotFit {
            setup: name.trim().to_string(),
            board: board.to_string(),
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

/// Reads a position argument: a setup name (sized by `board`, default 8x8) or
/// a position text (sized by itself; if `board` is given it must agree).
pub fn parse_position(text: &str, board: Option<Board>, rules: Rules) -> Result<Position, Error> {
    let setup = match named_setup(text, board.unwrap_or_default()) {
        Some(setup) => setup?,
        None if text.contains('/') => {
            let setup = fen::parse(text)?;
            if let Some(b) = board {
                if b != setup.board {
                    return Err(Error::BoardMismatch {
                        fen_board: setup.board.to_string(),
                        board: b.to_string(),
                    });
                }
            }
            setup
        }
        None => return Err(Error::UnknownPosition(text.trim().to_string())),
    };
    Position::from_setup(&setup, Variant::new(setup.board, rules))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str, board: &str) -> Result<Position, Error> {
        parse_position(text, Some(board.parse().unwrap()), Rules::default())
    }

    #[test]
    fn setups_match_their_texts() {
        assert_eq!(
            pos("peasants", "8x8").unwrap().to_string(),
            "8/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/8 w -"
        );
        assert_eq!(
            pos("pawngame", "4x4").unwrap().to_string(),
            "4/pppp/PPPP/4 w -"
        );
        assert_eq!(
            pos("pawnrace:h:a", "8x8").unwrap().to_string(),
            "8/1ppppppp/8/8/8/8/PPPPPPP1/8 w -"
        );
        assert_eq!(
            pos("peasants", "1x8").unwrap().to_string(),
            "1/p/p/1/1/P/P/1 w -"
        );
        assert_eq!(
            pos("PawnGame", "5x5").unwrap().to_string(),
            "5/ppppp/5/PPPPP/5 w -"
        );
    }

    #[test]
    fn refuses_misfits() {
        assert!(matches!(
            pos("peasants", "8x5"),
            Err(Error::SetupDoesNotFit { .. })
        ));
        assert!(matches!(
            pos("pawnrace:h:a", "4x8"),
            Err(Error::SetupDoesNotFit { .. })
        ));
        assert!(matches!(
            pos("pawnrace:a", "8x8"),
            Err(Error::SetupDoesNotFit { .. })
        ));
        assert!(matches!(pos("pawnrace:a:a", "1x8"), Err(Error::NoPawns)));
        assert!(matches!(
            pos("kings", "8x8"),
            Err(Error::UnknownPosition(_))
        ));
        assert!(matches!(
            pos("4/pppp/PPPP/4 w -", "8x8"),
            Err(Error::BoardMismatch { .. })
        ));
    }
}
