//! Move text with move numbers: `1. e4 d5 2. exd5`, the form PGN, the
//! proof manager's job lines and the command line's lines share.

use crate::rules::{Color, Move, Position};

/// The moves of `line` from `pos` in SAN with move numbers (`1. e4 d5`,
/// or `1... d5` when black moves first).
pub fn numbered_moves(pos: &Position, line: &[Move]) -> String {
    let comments: Vec<Option<String>> = vec![None; line.len()];
    numbered_with_comments(pos, line, &comments)
}

/// [`numbered_moves`] with a `{comment}` after each move that has one
/// (a move number is repeated after a comment, as PGN writers do).
pub fn numbered_with_comments(
    pos: &Position,
    line: &[Move],
    comments: &[Option<String>],
) -> String {
    let mut out = Vec::new();
    let mut number = 1;
    let mut turn = pos.turn();
    let mut after_comment = false;
    for (i, m) in line.iter().enumerate() {
        match turn {
            Color::White => out.push(format!("{number}. {}", m.san())),
            Color::Black if i == 0 || after_comment => out.push(format!("{number}... {}", m.san())),
            Color::Black => out.push(m.san()),
        }
        after_comment = false;
        if let Some(Some(c)) = comments.get(i) {
            // Braces end a comment: keep them out of its text.
            out.push(format!("{{{}}}", c.replace(['{', '}'], "")));
            after_comment = true;
        }
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    out.join(" ")
}
