//! PGN text of games of the family: the standard seven tags, `Variant`,
//! `SetUp` and `FEN` tags for the start position, numbered SAN moves with
//! optional `{comments}`, and the result.

use crate::rules::notation::numbered_with_comments;
use crate::rules::{Color, Move, Outcome, Position};

/// The PGN result of the game at the end of `line` from `pos`: `1-0`,
/// `0-1`, `1/2-1/2`, or `*` while it goes on.
pub fn result_tag(pos: &Position, line: &[Move]) -> &'static str {
    let end = line.iter().fold(*pos, |p, &m| p.play(m));
    match end.outcome() {
        Some(Outcome::Decisive {
            winner: Color::White,
        }) => "1-0",
        Some(Outcome::Decisive {
            winner: Color::Black,
        }) => "0-1",
        Some(Outcome::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// The variant as the `Variant` tag says it: `pawns 5x5`, with
/// `no-en-passant` and `seventh-rank-wins` where they apply.
fn variant_tag(pos: &Position) -> String {
    let v = pos.variant();
    let mut variant = format!("pawns {}", v.board);
    if !v.rules.en_passant {
        variant.push_str(" no-en-passant");
    }
    if v.rules.seventh_rank_wins {
        variant.push_str(" seventh-rank-wins");
    }
    variant
}

/// A whole PGN game: tags, then the moves from `pos` with their comments,
/// then the result (`result` overrides the one the moves reach, e.g. when a
/// player resigned or quit: `*`).
pub struct Game<'a> {
    /// The Event tag.
    pub event: &'a str,
    /// The White tag: who played white.
    pub white: &'a str,
    /// The Black tag: who played black.
    pub black: &'a str,
    /// The start position (its FEN goes in the FEN tag).
    pub start: Position,
    /// The moves, in order.
    pub moves: &'a [Move],
    /// A comment per move (`None`: none), written after it in braces.
    pub comments: &'a [Option<String>],
}

impl Game<'_> {
    /// The game as PGN text.
    pub fn to_pgn(&self) -> String {
        let result = result_tag(&self.start, self.moves);
        let moves = numbered_with_comments(&self.start, self.moves, self.comments);
        let sep = if moves.is_empty() { "" } else { " " };
        format!(
            "[Event \"{}\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"-\"]\n\
             [White \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n[Variant \"{}\"]\n\
             [SetUp \"1\"]\n[FEN \"{}\"]\n\n{moves}{sep}{result}\n",
            self.event.replace('"', "'"),
            self.white.replace('"', "'"),
            self.black.replace('"', "'"),
            variant_tag(&self.start),
            self.start
        )
    }
}

/// A PGN game of a line from `pos`, named by `value` in its Event tag
/// (what `probe --pgn` prints: the line of perfect play, or from
/// win/draw/loss-only tables a line that keeps the value).
pub fn line_pgn(pos: &Position, value: impl std::fmt::Display, line: &[Move]) -> String {
    Game {
        event: &format!("peasant probe: {value}"),
        white: "peasant",
        black: "peasant",
        start: *pos,
        moves: line,
        comments: &[],
    }
    .to_pgn()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::numbered_moves;
    use crate::rules::{parse_position, Board, Rules, Value};

    #[test]
    fn numbers_comments_and_result() {
        let pos = parse_position(
            "pawngame",
            Some(Board::new(4, 4).unwrap()),
            Rules::default(),
        )
        .unwrap();
        let a = pos.parse_move("axb3").unwrap();
        let p1 = pos.play(a);
        let b = p1.parse_move("c1").unwrap_or_else(|_| p1.legal_moves()[0]);
        let line = [a, b];
        assert_eq!(result_tag(&pos, &line[..1]), "*");
        let text = numbered_with_comments(
            &pos,
            &line,
            &[Some("loses in 2".into()), Some("wins {in} 1".into())],
        );
        assert_eq!(
            text,
            format!("1. axb3 {{loses in 2}} 1... {} {{wins in 1}}", b.san())
        );
        let black_first = p1;
        assert_eq!(
            numbered_moves(&black_first, &line[1..]),
            format!("1... {}", b.san())
        );
        let pgn = line_pgn(&pos, Value::Loss(2), &[]);
        assert!(pgn.contains("[Variant \"pawns 4x4\"]"));
        assert!(pgn.ends_with("\n\n*\n"));
    }
}
