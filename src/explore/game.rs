//! A game in the terminal: a person against the [`Player`], moves typed
//! in SAN or long form, with `hint`, `undo`, `value` and `quit`; at the
//! end the result and the game's PGN with each move's value as a comment.
//! Input and output are any reader and writer, so a scripted game can be
//! tested without a terminal.

use crate::explore::engine::{Choice, Player};
use crate::explore::oracle::before_move;
use crate::explore::pgn::{result_tag, Game};
use crate::rules::{Color, Move, Position, Value, Wdl};
use crate::solve::Solution;
use std::io::{self, BufRead, Write};
use std::time::Duration;

/// A value in words, from the view of the side it belongs to: "wins in
/// 7", "loses in 4", "draw", "wins" (no DTM known).
pub fn describe(s: Solution) -> String {
    match (s.value, s.wdl) {
        (Some(Value::Win(d)), _) => format!("wins in {d}"),
        (Some(Value::Loss(d)), _) => format!("loses in {d}"),
        (Some(Value::Draw), _) | (None, Wdl::Draw) => "draw".into(),
        (None, Wdl::Win) => "wins".into(),
        (None, Wdl::Loss) => "loses".into(),
    }
}

/// The engine's choice in words: its value and source, or "not proven".
pub fn describe_choice(c: &Choice) -> String {
    match (c.value, c.source) {
        (Some(v), Some(src)) => format!("{} ({src})", describe(v)),
        (Some(v), None) => describe(v),
        _ => "not proven: the best move found in time".into(),
    }
}

/// A finished (or abandoned) game.
#[derive(Clone, Debug)]
pub struct Record {
    /// Where the game began.
    pub start: Position,
    /// The side the person played.
    pub human: Color,
    /// The moves played, both sides, in order.
    pub moves: Vec<Move>,
    /// Per move, the value comment written into the PGN (the engine's
    /// claim for its own moves).
    pub comments: Vec<Option<String>>,
}

impl Record {
    /// The position the moves reach.
    pub fn position(&self) -> Position {
        self.moves.iter().fold(self.start, |p, &m| p.play(m))
    }

    /// The PGN result: `1-0`, `0-1`, `1/2-1/2`, or `*` if unfinished.
    pub fn result(&self) -> &'static str {
        result_tag(&self.start, &self.moves)
    }

    /// The game as PGN, with FEN and Result tags and value comments.
    pub fn pgn(&self) -> String {
        let (white, black) = match self.human {
            Color::White => ("you", "peasant"),
            Color::Black => ("peasant", "you"),
        };
        Game {
            event: "peasant play",
            white,
            black,
            start: self.start,
            moves: &self.moves,
            comments: &self.comments,
        }
        .to_pgn()
    }
}

const HELP: &str = "moves in SAN (e4, bxc5) or long form (e2e4); hint, undo, value, quit";

/// Plays a game from `start` with the person on `human`'s side, reading
/// their lines from `input` and writing to `out`; the engine thinks
/// about `think` per move. Ends when the game is over, on `quit`, or when
/// the input ends.
pub fn play<R: BufRead, W: Write>(
    start: Position,
    human: Color,
    player: &Player<'_>,
    think: Duration,
    mut input: R,
    out: &mut W,
) -> io::Result<Record> {
    let mut rec = Record {
        start,
        human,
        moves: Vec::new(),
        comments: Vec::new(),
    };
    writeln!(out, "you play {human}; {HELP}")?;
    let mut show_board = true;
    loop {
        let pos = rec.position();
        if show_board {
            write!(out, "\n{}", pos.diagram())?;
            show_board = false;
        }
        if let Some(outcome) = pos.outcome() {
            writeln!(out, "game over: {outcome}")?;
            break;
        }
        if pos.turn() != human {
            let c = player.choose(&pos, think);
            // The person's last move has the value of this position for
            // them: the opposite of the engine's best move.
            if let (Some(v), Some(last)) = (c.value, rec.comments.last_mut()) {
                if last.is_none() {
                    *last = Some(describe(before_move(v)));
                }
            }
            writeln!(out, "peasant plays {}: {}", c.mv.san(), describe_choice(&c))?;
            rec.moves.push(c.mv);
            rec.comments.push(Some(match c.value {
                Some(v) => describe(v),
                None => "not proven".into(),
            }));
            show_board = true;
            continue;
        }
        write!(out, "your move ({human})> ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            break;
        }
        let text = line.trim();
        match text {
            "" => continue,
            "quit" | "q" | "exit" => break,
            "help" | "?" => writeln!(out, "{HELP}")?,
            "hint" => {
                let c = player.choose(&pos, think);
                writeln!(out, "hint: {} ({})", c.mv.san(), describe_choice(&c))?;
            }
            "value" => match player.value(&pos, think) {
                Some((v, src)) => writeln!(out, "value: {human} {} ({src})", describe(v))?,
                None => writeln!(out, "value: not proven within the time")?,
            },
            "undo" => {
                // Take back the person's last move and the replies after it.
                let mut p = rec.start;
                let mut last_own = None;
                for (i, &m) in rec.moves.iter().enumerate() {
                    if p.turn() == human {
                        last_own = Some(i);
                    }
                    p = p.play(m);
                }
                match last_own {
                    Some(i) => {
                        rec.moves.truncate(i);
                        rec.comments.truncate(i);
                        writeln!(out, "taken back")?;
                        show_board = true;
                    }
                    None => writeln!(out, "nothing to take back")?,
                }
            }
            _ => match pos.parse_move(text) {
                Ok(m) => {
                    rec.moves.push(m);
                    let after = pos.play(m);
                    rec.comments.push(after.outcome().map(|o| o.to_string()));
                    show_board = true;
                }
                Err(e) => writeln!(out, "{e}")?,
            },
        }
    }
    let result = rec.result();
    writeln!(out, "result: {result}")?;
    Ok(rec)
}
