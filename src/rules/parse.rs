//! The one entry point that turns any position argument, a setup name or
//! position text, followed or not by the moves played from it, into a
//! checked [`Position`].

use crate::rules::error::PositionError;
use crate::rules::fen;
use crate::rules::position::Position;
use crate::rules::setup::named_setup;
use crate::rules::variant::{Board, Rules, Variant};

/// Reads a position argument: a setup name (sized by `board`, default 8x8) or
/// a position text (sized by itself; if `board` is given it must agree),
/// then, after the word `moves`, the moves played from it, as UCI's
/// `position ... moves` has them: `peasants moves c4 d5 cxd5`. Each move is
/// in algebraic notation or long form ([`Position::parse_move`]); move
/// numbers (`1.c4 f5 2.f4`, `1...f5`) are skipped, so a line copied from a
/// game record reads as it is.
pub fn parse_position(
    text: &str,
    board: Option<Board>,
    rules: Rules,
) -> Result<Position, PositionError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if let Some(at) = words.iter().position(|&w| w == "moves") {
        let mut pos = parse_start(&words[..at].join(" "), board, rules)?;
        for word in &words[at + 1..] {
            let Some(played) = move_word(word) else {
                continue;
            };
            let m = pos
                .parse_move(played)
                .map_err(|error| PositionError::Move {
                    after: pos.to_string(),
                    error,
                })?;
            pos = pos.play(m);
        }
        return Ok(pos);
    }
    parse_start(text, board, rules)
}

/// A word of a move list without its move number (`1.c4` -> `c4`,
/// `2...f5` -> `f5`); None for a word that is a move number alone (`1.`).
fn move_word(word: &str) -> Option<&str> {
    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
    let played = if rest.len() < word.len() && rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        word
    };
    (!played.is_empty()).then_some(played)
}

/// A setup name or a position text, with no moves after it.
fn parse_start(text: &str, board: Option<Board>, rules: Rules) -> Result<Position, PositionError> {
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
    use crate::rules::error::{IllegalPosition, MoveError};

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

    #[test]
    fn moves_after_a_start_are_played() {
        // A double step, the en passant right it gives, and the capture.
        let line = pos("pawngame moves e4 a6 e5 d5", "8x8").unwrap();
        assert_eq!(line.to_string(), "8/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/8 w d6");
        let taken = pos("pawngame moves e4 a6 e5 d5 exd6", "8x8").unwrap();
        assert_eq!(taken.to_string(), "8/1pp1pppp/p2P4/8/8/8/PPPP1PPP/8 b -");
        // Move numbers and long form read the same; a position text starts too.
        assert_eq!(
            pos("pawngame moves 1.e4 a6 2.e4e5 2...d7d5 3.exd6", "8x8").unwrap(),
            taken
        );
        assert_eq!(
            pos(
                "8/pppppppp/8/8/8/8/PPPPPPPP/8 w - moves e4 a6 e5 d5 e5d6",
                "8x8"
            )
            .unwrap(),
            taken
        );
        // No moves after the word: the start itself.
        assert_eq!(
            pos("peasants moves", "6x8").unwrap(),
            pos("peasants", "6x8").unwrap()
        );
    }

    #[test]
    fn a_move_that_is_not_legal_is_named() {
        let e = pos("peasants moves c4 c5 c5", "6x8").unwrap_err();
        let PositionError::Move { after, error } = &e else {
            panic!("{e:?}");
        };
        assert_eq!(after, "6/pppppp/pp1ppp/2p3/2P3/PP1PPP/PPPPPP/6 w -");
        assert!(matches!(error, MoveError::NotLegal { text, .. } if text == "c5"));
        assert!(e.to_string().contains("'c5' is not a legal move"), "{e}");
        // A move in a position whose game is over (the 1x4 pawns block each other).
        assert!(matches!(
            pos("1/p/P/1 w - moves a3", "1x4"),
            Err(PositionError::Move {
                error: MoveError::GameOver { .. },
                ..
            })
        ));
        assert!(matches!(
            pos("kings moves e4", "8x8"),
            Err(PositionError::Unknown(_))
        ));
    }
}
