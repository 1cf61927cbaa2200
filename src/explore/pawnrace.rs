//! The Pawn Race tournament's line protocol (8x8, one gap each side,
//! black chooses both gaps, 5 seconds a move).
//!
//! Playing black, the program first writes the gaps as two uppercase
//! letters, white's gap file then black's (`AH`); then it reads one line,
//! the confirmed gaps, in the same form. Playing white, it only reads that
//! line. Then the moves follow one per line in short algebraic notation
//! (`a4`, `bxc6`, en passant captures written the same way), white first.
//! The program stops when the game is over or its input ends; a move it
//! cannot read or that is illegal is an error naming it.
//!
//! It plays from its book of proven winning moves ([`book`]) while the
//! game is in it, then searches within its time.

use crate::explore::book::Book;
use crate::explore::engine::{Player, PlayerConfig};
use crate::rules::{file_char, file_from_char, parse_position, Board, Color, Position, Rules};
use crate::table::Tablebase;
use std::io::{self, BufRead, Write};
use std::sync::OnceLock;
use std::time::Duration;

/// A gap pair: white's gap file, black's gap file (0 = file a).
pub type Gaps = (u8, u8);

/// The gap pairs where black, choosing, wins on 8x8 (README's solved grid;
/// each stands for itself and its mirror image), easiest to prove first
/// (nodes of the whole solve: c:c 63 M, a:f 311 M, a:g 356 M, b:f 414 M,
/// b:d 442 M).
pub const BLACK_WINS: [Gaps; 5] = [(2, 2), (0, 5), (0, 6), (1, 5), (1, 3)];

/// The gap pairs that are draws on 8x8 (a:a and its mirror h:h).
pub const DRAWS: [Gaps; 1] = [(0, 0)];

/// The mirror image of a gap pair on the 8x8 board.
pub fn mirror(g: Gaps) -> Gaps {
    (7 - g.0, 7 - g.1)
}

/// The 32 setups of the 8x8 board: every gap pair up to its mirror image,
/// each as the one with white's gap on files a to d.
pub fn setups() -> impl Iterator<Item = Gaps> {
    (0..4u8).flat_map(|w| (0..8u8).map(move |b| (w, b)))
}

/// Whether the gaps are directly opposite each other (the same file), which
/// the tournament allows black to choose once a round.
pub fn opposite(g: Gaps) -> bool {
    g.0 == g.1
}

/// Whether two gap pairs are the same setup up to the mirror image.
pub fn same_setup(a: Gaps, b: Gaps) -> bool {
    a == b || a == mirror(b)
}

/// Two letters, white's gap file then black's (`CC`, also lowercase).
pub fn parse_gaps(text: &str) -> Option<Gaps> {
    let t = text.trim();
    let mut chars = t.chars();
    let (w, b) = (chars.next()?, chars.next()?);
    if chars.next().is_some() {
        return None;
    }
    let file = |c: char| file_from_char(c.to_ascii_lowercase()).filter(|&f| f < 8);
    Some((file(w)?, file(b)?))
}

/// The gap pair in the protocol's form, two uppercase letters.
pub fn gaps_text(g: Gaps) -> String {
    format!(
        "{}{}",
        file_char(g.0).to_ascii_uppercase(),
        file_char(g.1).to_ascii_uppercase()
    )
}

/// Black's choice of gaps, as the tournament's rules allow it across a
/// round given the setups black has chosen in it so far (`avoid`): never
/// the same setup twice (mirror images count as the same), and at most
/// one setup with opposite gaps. The first gap pair so allowed where black
/// wins; else a draw; else any allowed gap pair; else c:c.
pub fn choose_gaps(avoid: &[Gaps]) -> Gaps {
    let opposite_used = avoid.iter().any(|&a| opposite(a));
    // Not chosen before in the round, and not a second opposite setup.
    let used = |g: Gaps| avoid.iter().any(|&a| same_setup(a, g));
    let free = |g: &Gaps| !used(*g) && (!opposite_used || !opposite(*g));
    let all = (0..8u8).flat_map(|w| (0..8u8).map(move |b| (w, b)));
    BLACK_WINS
        .into_iter()
        .chain(DRAWS)
        .chain(all)
        .find(free)
        .unwrap_or(BLACK_WINS[0])
}

/// The start position of a gap pair on 8x8.
pub fn start_position(g: Gaps, rules: Rules) -> Position {
    let name = format!("pawnrace:{}:{}", file_char(g.0), file_char(g.1));
    parse_position(&name, Some(Board::STANDARD), rules).expect("every gap pair is a position")
}

/// The book of proven winning moves (results/pawnrace-book.txt, built
/// by tools/pawnrace_book.sh with `peasant book`, checked by `peasant
/// book --check`): for black, every setup black wins to 6 plies (a
/// winning reply to every white move at plies 2, 4 and 6); for white,
/// every setup white wins to 5 plies (a winning first move, and a winning
/// move against every black reply at plies 3 and 5). Each setup stands
/// for itself and its mirror image.
pub const BOOK_TEXT: &str = include_str!("../../results/pawnrace-book.txt");

/// The book, read once.
pub fn book() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| Book::parse(BOOK_TEXT).expect("the committed Pawn Race book reads"))
}

/// The book's move in `pos`, if it has one (real rules, 8x8 only).
pub fn book_reply(pos: &Position) -> Option<crate::rules::Move> {
    if pos.variant().rules != Rules::default() || pos.board() != Board::STANDARD {
        return None;
    }
    book().reply(pos)
}

/// How one side plays the protocol.
#[derive(Clone, Debug)]
pub struct ProtocolConfig {
    /// The side `peasant` plays.
    pub color: Color,
    /// Black's gaps instead of its own choice.
    pub gaps: Option<Gaps>,
    /// Gap pairs not to choose (mirror images count as the same).
    pub avoid: Vec<Gaps>,
    /// Thinking time per move.
    pub think: Duration,
    /// The rule options (the tournament plays the real rules).
    pub rules: Rules,
    /// Transposition table per solver, MiB.
    pub hash_mb: usize,
    /// The search that proves moves past the book.
    pub method: crate::solve::Method,
}

/// Why the protocol stopped early.
#[derive(Debug, thiserror::Error)]
pub enum ProtocolError {
    /// Reading or writing a line failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// The other side sent something that is not a legal move or gap pair.
    #[error("{0}")]
    BadInput(String),
    /// The engine could not start (its transposition table does not fit).
    #[error(transparent)]
    Solve(#[from] crate::solve::SolveError),
}

/// How a protocol game ended.
#[derive(Clone, Debug)]
pub struct ProtocolGame {
    /// The start position of the agreed gaps.
    pub start: Position,
    /// The moves played, both sides, in order.
    pub moves: Vec<crate::rules::Move>,
    /// The final position's outcome; `None` when the input ended first.
    pub outcome: Option<crate::rules::Outcome>,
}

/// Plays one game of the protocol on `input`/`out`.
pub fn run<R: BufRead, W: Write>(
    config: &ProtocolConfig,
    tables: Option<&Tablebase>,
    mut input: R,
    out: &mut W,
) -> Result<ProtocolGame, ProtocolError> {
    let player = Player::new(
        PlayerConfig {
            dtm: false,
            hash_mb: config.hash_mb,
            method: config.method,
            ..PlayerConfig::default()
        },
        tables,
    )?;
    let mut proposed = (2, 2);
    if config.color == Color::Black {
        proposed = config.gaps.unwrap_or_else(|| choose_gaps(&config.avoid));
        writeln!(out, "{}", gaps_text(proposed))?;
        out.flush()?;
    }
    let mut line = String::new();
    let read = |input: &mut R, line: &mut String| -> io::Result<bool> {
        loop {
            line.clear();
            if input.read_line(line)? == 0 {
                return Ok(false);
            }
            if !line.trim().is_empty() {
                return Ok(true);
            }
        }
    };
    if !read(&mut input, &mut line)? {
        // The input ended before the game began.
        return Ok(ProtocolGame {
            start: start_position(proposed, config.rules),
            moves: Vec::new(),
            outcome: None,
        });
    }
    let gaps = parse_gaps(&line).ok_or_else(|| {
        ProtocolError::BadInput(format!(
            "'{}' is not a gap pair: expected two letters A-H, white's gap then black's",
            line.trim()
        ))
    })?;
    let start = start_position(gaps, config.rules);
    let mut game = ProtocolGame {
        start,
        moves: Vec::new(),
        outcome: None,
    };
    let mut pos = start;
    loop {
        if let Some(o) = pos.outcome() {
            game.outcome = Some(o);
            return Ok(game);
        }
        let m = if pos.turn() == config.color {
            let mv = match book_reply(&pos) {
                Some(m) => m,
                None => player.choose(&pos, config.think).mv,
            };
            writeln!(out, "{}", mv.san())?;
            out.flush()?;
            mv
        } else {
            if !read(&mut input, &mut line)? {
                return Ok(game);
            }
            pos.parse_move(line.trim()).map_err(|e| {
                let e = e.to_string();
                ProtocolError::BadInput(format!(
                    "move {} of the game: {}",
                    game.moves.len() + 1,
                    e.split("; legal moves").next().unwrap_or(&e)
                ))
            })?
        };
        game.moves.push(m);
        pos = pos.play(m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_are_chosen_avoided_and_mirrored() {
        assert_eq!(choose_gaps(&[]), (2, 2));
        assert_eq!(gaps_text(choose_gaps(&[])), "CC");
        // f:f is c:c's mirror image.
        assert_eq!(choose_gaps(&[parse_gaps("FF").unwrap()]), (0, 5));
        // c:c used up the round's one setup with opposite gaps: neither
        // d:d nor the draw a:a may follow it.
        let every_win: Vec<Gaps> = BLACK_WINS.iter().map(|&g| mirror(g)).collect();
        let next = choose_gaps(&every_win);
        assert!(!opposite(next) && !every_win.iter().any(|&w| same_setup(w, next)));
        assert_eq!(next, (0, 1));
        // The other wins used, c:c (opposite gaps) is still allowed; once
        // an opposite setup is used, black wins no setup left and draws
        // none it may choose (a:a is opposite too).
        assert_eq!(choose_gaps(&every_win[1..]), (2, 2));
        let others: Vec<Gaps> = every_win[1..].to_vec();
        assert_eq!(
            choose_gaps(&[others.clone(), vec![(2, 2)]].concat()),
            (0, 1)
        );
        assert_eq!(choose_gaps(&[others, vec![(1, 1)]].concat()), (0, 1));
        assert_eq!(parse_gaps("ah"), Some((0, 7)));
        assert_eq!(parse_gaps("AI"), None);
        assert_eq!(parse_gaps("ABC"), None);
        // Each listed pair is a black win in the README grid: white's
        // gap row, black's gap column.
        for g in BLACK_WINS {
            let p = start_position(g, Rules::default());
            assert_eq!(p.pawns(Color::White).count(), 7);
            assert_eq!(p.turn(), Color::White);
        }
    }
}
