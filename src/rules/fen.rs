//! Position text: the FEN subset of docs/RULES.md.
//!
//! `8/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/8 w -`: ranks from the top
//! down separated by `/`, `P` and `p` for pawns, digits for runs of empty
//! squares; the side to move; the en passant square or `-`. Chess FEN's two
//! move counters may follow and are ignored. The board's size is the text's.

use crate::rules::bitboard::Bitboard;
use crate::rules::color::{ByColor, Color};
use crate::rules::error::FenError;
use crate::rules::setup::Setup;
use crate::rules::square::Square;
use crate::rules::variant::Board;

/// Reads a position text into an unchecked [`Setup`].
pub fn parse(text: &str) -> Result<Setup, FenError> {
    let fail = |why: String| Err(FenError { why });
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() {
        return fail("the text is empty".into());
    }
    if fields.len() < 2 {
        return fail("the side to move (w or b) is missing after the pawns".into());
    }
    if fields.len() > 5 {
        return fail(format!("too many fields ({}): expected pawns, side to move, en passant square and at most two move counters", fields.len()));
    }
    for counter in fields.iter().skip(3) {
        if counter.parse::<u32>().is_err() {
            return fail(format!("'{counter}' is not a move counter"));
        }
    }

    let rows: Vec<&str> = fields[0].split('/').collect();
    let height = rows.len();
    if !(Board::MIN_HEIGHT as usize..=Board::MAX_HEIGHT as usize).contains(&height) {
        return fail(format!("{height} ranks: a board has 4 to 8 ranks"));
    }
    let mut pawns = ByColor::<Bitboard>::default();
    let mut width = None;
    for (i, row) in rows.iter().enumerate() {
        let rank = (height - 1 - i) as u8;
        let mut file = 0usize;
        for c in row.chars() {
            match c {
                '1'..='8' => file += c as usize - '0' as usize,
                'P' | 'p' => {
                    if file < 8 {
                        let color = if c == 'P' { Color::White } else { Color::Black };
                        pawns.get_mut(color).set(Square::new(file as u8, rank));
                    }
                    file += 1;
                }
                _ => {
                    return fail(format!(
                        "'{c}' on rank {} is not a pawn (P, p) or a count of empty squares",
                        rank + 1
                    ))
                }
            }
            if file > Board::MAX_WIDTH as usize {
                return fail(format!("rank {} is more than 8 squares wide", rank + 1));
            }
        }
        match width {
            None => width = Some(file),
            Some(w) if w != file => {
                return fail(format!(
                    "rank {} is {file} squares wide but rank {} is {w}",
                    rank + 1,
                    height
                ))
            }
            _ => {}
        }
    }
    let width = width.unwrap_or(0);
    if width == 0 {
        return fail("the ranks are 0 squares wide".into());
    }
    let board =
        Board::new(width as u8, height as u8).map_err(|e| FenError { why: e.to_string() })?;

    let turn = match fields[1] {
        "w" | "W" => Color::White,
        "b" | "B" => Color::Black,
        other => return fail(format!("side to move '{other}' is neither w nor b")),
    };
    let ep_square = match fields.get(2) {
        None | Some(&"-") => None,
        Some(s) => match Square::parse(s) {
            Some(sq) => Some(sq),
            None => return fail(format!("'{s}' is not a square (en passant field)")),
        },
    };
    Ok(Setup {
        board,
        pawns,
        turn,
        ep_square,
    })
}

/// Writes a setup as position text.
pub fn write(setup: &Setup) -> String {
    let board = setup.board;
    let mut out = String::new();
    for rank in (0..board.height()).rev() {
        let mut empty = 0;
        for file in 0..board.width() {
            let sq = Square::new(file, rank);
            let c = if setup.pawns.white.contains(sq) {
                'P'
            } else if setup.pawns.black.contains(sq) {
                'p'
            } else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                out.push_str(&empty.to_string());
                empty = 0;
            }
            out.push(c);
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(setup.turn.char());
    out.push(' ');
    match setup.ep_square {
        Some(sq) => out.push_str(&sq.to_string()),
        None => out.push('-'),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for text in [
            "8/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/8 w -",
            "3/2p/ppP/3/3 b -",
            "4/pppp/PPPP/4 w -",
            "8/8/8/3pP3/8/8/8/8 w d6",
            "1/p/p/1/1/P/P/1 b -",
        ] {
            assert_eq!(write(&parse(text).unwrap()), text);
        }
    }

    #[test]
    fn counters_are_ignored() {
        let a = parse("4/pppp/PPPP/4 w - 0 1").unwrap();
        assert_eq!(a, parse("4/pppp/PPPP/4 w -").unwrap());
    }

    #[test]
    fn refuses_malformed_text() {
        for bad in [
            "",
            "4/pppp/PPPP/4",
            "4/pppp/PPPP/4 x -",
            "4/pppp/PPP/4 w -",
            "4/pppp/PPPP w -",
            "4/ppkp/PPPP/4 w -",
            "9/9/9/9 w -",
            "4/pppp/PPPP/4 w z9",
            "4/pppp/PPPP/4 w - a b",
            "4/pppp/PPPP/4 w - 0 1 2",
            "/// w -",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} should be refused");
        }
    }
}
