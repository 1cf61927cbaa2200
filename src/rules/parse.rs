//! The one entry point that turns any position argument, a setup name or
//! position text, into a checked [`Position`].

use crate::rules::error::PositionError;
use crate::rules::fen;
use crate::rules::position::Position;
use crate::rules::setup::named_setup;
use crate::rules::variant::{Board, Rules, Variant};

/// Reads a position argument: a setup name (sized by `board`, default 8x8) or
/// a position text (sized by itself; if `board` is given it must agree).
pub fn parse_position(
    text: &str,
    board: Option<Board>,
    rules: Rules,
) -> Result<Position, PositionError> {
    let setup = match named_setup(text, board.unwrap_or_default()) {
        Some(setup) => setup?,
        None if text.contains('/') => {
            let setup = fen::parse(text)?;
            if let Some(b) = board {
                if b != setup.board {
                    return Err(PositionError::BoardMismatch {
                        text: setup.board,
                        asked: b,
                    });
                }
            }
            setup
        }
        None => return Err(PositionError::Unknown(text.trim().to_string())),
    };
    Ok(Position::from_setup(
        &setup,
        Variant::new(setup.board, rules),
    )?)
}

/// `text` (a setup name or a position text) on `board` ("5x6") under the
/// default rules: the positions of the library's unit tests.
#[cfg(test)]
pub(crate) fn test_position(text: &str, board: &str) -> Position {
    parse_position(text, Some(board.parse().unwrap()), Rules::default()).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::error::IllegalPosition;

    fn pos(text: &str, board: &str) -> Result<Position, PositionError> {
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
            Err(PositionError::SetupDoesNotFit { .. })
        ));
        assert!(matches!(
            pos("pawnrace:h:a", "4x8"),
            Err(PositionError::SetupDoesNotFit { .. })
        ));
        assert!(matches!(
            pos("pawnrace:a", "8x8"),
            Err(PositionError::SetupDoesNotFit { .. })
        ));
        assert!(matches!(
            pos("pawnrace:a:a", "1x8"),
            Err(PositionError::Illegal(IllegalPosition::NoPawns))
        ));
        assert!(matches!(
            pos("kings", "8x8"),
            Err(PositionError::Unknown(_))
        ));
        assert!(matches!(
            pos("4/pppp/PPPP/4 w -", "8x8"),
            Err(PositionError::BoardMismatch { .. })
        ));
    }
}
