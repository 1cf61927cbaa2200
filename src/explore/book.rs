//! Books of proven moves: for the side that wins a start position, one
//! winning move in every position its strategy reaches within a number of
//! plies, whatever the other side plays. A player that follows its book
//! needs no search until the book ends, and every book move is proven: the
//! proof-number search that built the book answered "does the opponent
//! avoid losing after this move?" with no, and [`check`] asks it again.
//!
//! The text form, one section per start position:
//!
//! ```text
//! # comments and blank lines are skipped
//! start black 4 8x8 pawnrace:c:c
//! a4 a5
//! a4 a5 b4 b5
//! ```
//!
//! A section's header names the side the book is for, its depth in plies,
//! the game (board and rules, as the proof logs write them: `8x8`,
//! `6x6-noep`) and the start position (a setup name or a position text).
//! Each line below it is a game from the start whose last move is the
//! book's move for the side it is for; the moves before it are the book's
//! own and the other side's. A book of depth N holds a move for every
//! position of its strategy at plies 1 to N from the start (the other
//! side's moves at every one of its turns, every position once: a position
//! reached by two orders is listed under the first).
//!
//! A book also answers the mirror image (files reversed) of each of its
//! positions, so a Pawn Race setup and its mirror share one section.

use crate::prove::log::{parse_variant_tag, variant_tag};
use crate::rules::{parse_position, Color, Move, Outcome, Position, Wdl};
use crate::solve::{PnSolver, Question, SolveError};
use std::collections::HashMap;
use std::fmt;

/// One start position's part of a book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The start position as written in the header (a setup name or a
    /// position text).
    pub start_text: String,
    /// The start position.
    pub start: Position,
    /// The side the book is for (the side that wins the start position).
    pub side: Color,
    /// How many plies from the start the book covers.
    pub plies: u32,
    /// The book's lines: games from the start, each ending with the move
    /// for `side`.
    pub lines: Vec<Vec<Move>>,
}

impl Section {
    /// The book's positions (before its move, as the game reaches them)
    /// and its move in each, in the order of the lines.
    pub fn entries(&self) -> impl Iterator<Item = (Position, Move)> + '_ {
        self.lines.iter().map(|line| {
            let (&last, before) = line.split_last().expect("lines are never empty");
            let pos = before.iter().fold(self.start, |p, &m| p.play(m));
            (pos, last)
        })
    }
}

/// A book: sections, and every position's move looked up in one step.
#[derive(Clone, Debug, Default)]
pub struct Book {
    sections: Vec<Section>,
    moves: HashMap<Position, Move>,
}

/// Why a book's text was refused, or why a book could not be built or
/// checked.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The text is not a book (line number from 1).
    #[error("book line {line}: {reason}")]
    Text {
        /// The line (from 1).
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// The start position is not won by either side.
    #[error("{0}: no side wins it (a book is for the side that wins)")]
    NotWon(String),
    /// A book move was not proven to win, or a move of the other side has
    /// no answer in the book.
    #[error("{0}")]
    Unproven(String),
    /// The search stopped or failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

fn mirror_move(pos: &Position, m: Move) -> Move {
    let w = pos.board().width();
    let mirrored = pos.mirrored();
    *mirrored
        .legal_moves()
        .iter()
        .find(|n| n.from == m.from.mirror_file(w) && n.to == m.to.mirror_file(w))
        .expect("the mirror image of a legal move is legal in the mirrored position")
}

impl Book {
    /// A book of `sections`.
    pub fn new(sections: Vec<Section>) -> Book {
        let mut book = Book {
            sections: Vec::new(),
            moves: HashMap::new(),
        };
        for s in sections {
            book.add(s);
        }
        book
    }

    /// Adds a section (its positions' moves join the lookup; a position
    /// already in the book keeps its first move).
    pub fn add(&mut self, section: Section) {
        for (pos, m) in section.entries() {
            self.moves.entry(pos).or_insert(m);
        }
        for (pos, m) in section.entries() {
            let mirror = pos.mirrored();
            if mirror != pos {
                self.moves
                    .entry(mirror)
                    .or_insert_with(|| mirror_move(&pos, m));
            }
        }
        self.sections.push(section);
    }

    /// The book's move in `pos`, if it has one (or has one for its mirror
    /// image).
    pub fn reply(&self, pos: &Position) -> Option<Move> {
        self.moves.get(pos).copied()
    }

    /// The sections, in order.
    pub fn sections(&self) -> &[Section] {
        &self.sections
    }

    /// How many book moves the sections hold (mirror images not counted).
    pub fn len(&self) -> usize {
        self.sections.iter().map(|s| s.lines.len()).sum()
    }

    /// Whether the book holds no move.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads a book's text form (see the module's documentation).
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut sections: Vec<Section> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let bad = |reason: String| BookError::Text {
                line: i + 1,
                reason,
            };
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(rest) = line.strip_prefix("start ") {
                sections.push(parse_header(rest).map_err(bad)?);
                continue;
            }
            let section = sections
                .last_mut()
                .ok_or_else(|| bad("a line of moves before any 'start' line".into()))?;
            let mut pos = section.start;
            let mut moves = Vec::new();
            for word in line.split_whitespace() {
                if pos.is_game_over() {
                    return Err(bad(format!("'{word}' comes after the end of the game")));
                }
                let m = pos
                    .parse_move(word)
                    .map_err(|_| bad(format!("'{word}' is not a legal move here")))?;
                moves.push(m);
                pos = pos.play(m);
            }
            if moves.len() as u32 > section.plies {
                return Err(bad(format!(
                    "{} moves in a book of {} plies",
                    moves.len(),
                    section.plies
                )));
            }
            let mover = if moves.len() % 2 == 1 {
                section.start.turn()
            } else {
                !section.start.turn()
            };
            if mover != section.side {
                return Err(bad(format!(
                    "the last move is {}'s, the book is {}'s",
                    mover.name(),
                    section.side.name()
                )));
            }
            section.lines.push(moves);
        }
        Ok(Book::new(sections))
    }
}

fn parse_header(rest: &str) -> Result<Section, String> {
    let mut words = rest.splitn(4, ' ');
    let mut next = |what: &str| {
        words
            .next()
            .map(str::trim)
            .filter(|w| !w.is_empty())
            .ok_or_else(|| {
                format!("'start' needs a side, plies, a game and a position: {what} missing")
            })
    };
    let side = match next("the side")? {
        "white" => Color::White,
        "black" => Color::Black,
        other => return Err(format!("'{other}' is not a side (white or black)")),
    };
    let plies_text = next("the plies")?;
    let plies: u32 = plies_text
        .parse()
        .map_err(|_| format!("'{plies_text}' is not a number of plies"))?;
    let tag = next("the game")?;
    let variant = parse_variant_tag(tag)
        .ok_or_else(|| format!("'{tag}' is not a game (such as 8x8, 6x6-noep)"))?;
    let start_text = next("the position")?.to_string();
    let start = parse_position(&start_text, Some(variant.board), variant.rules)
        .map_err(|e| format!("'{start_text}': {e}"))?;
    Ok(Section {
        start_text,
        start,
        side,
        plies,
        lines: Vec::new(),
    })
}

impl fmt::Display for Book {
    /// The text form, which [`Book::parse`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.sections.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            writeln!(
                f,
                "start {} {} {} {}",
                s.side.name(),
                s.plies,
                variant_tag(s.start.variant()),
                s.start_text
            )?;
            for line in &s.lines {
                let words: Vec<String> = line.iter().map(|m| m.san()).collect();
                writeln!(f, "{}", words.join(" "))?;
            }
        }
        Ok(())
    }
}

/// Whether `m` ends the game with a win for the side to move of `pos`.
fn wins_at_once(pos: &Position, m: Move) -> bool {
    matches!(pos.play(m).outcome(), Some(Outcome::Decisive { winner }) if winner == pos.turn())
}

/// Whether `m` wins for the side to move of `pos`: the opponent does not
/// avoid losing after it.
fn proven_win(solver: &PnSolver, pos: &Position, m: Move) -> Result<bool, SolveError> {
    let child = pos.play(m);
    if child.is_game_over() {
        return Ok(wins_at_once(pos, m));
    }
    Ok(!solver.answer(&child, Question::AvoidsLoss, None)?)
}

/// Builds the book of `start` (`start_text` is how the header names it)
/// to `plies` plies for the side that wins it, proving each move with
/// `solver`, whose transposition table carries what one proof learns to
/// the next; like every solver, `solver` must be of `start`'s game (board
/// and rules). `on_line` is told of each line as it is found.
pub fn build(
    solver: &PnSolver,
    start_text: &str,
    start: &Position,
    plies: u32,
    on_line: &mut dyn FnMut(&[Move]),
) -> Result<Section, BookError> {
    let side = match solver.wdl(start)? {
        Wdl::Win => start.turn(),
        Wdl::Loss => !start.turn(),
        Wdl::Draw => return Err(BookError::NotWon(start_text.to_string())),
    };
    let mut section = Section {
        start_text: start_text.to_string(),
        start: *start,
        side,
        plies,
        lines: Vec::new(),
    };
    let mut grower = Grower {
        solver,
        section: &mut section,
        expanded: HashMap::new(),
        chosen: HashMap::new(),
        on_line,
    };
    grower.grow(*start, &mut Vec::new())?;
    Ok(section)
}

/// Whether a walk of the strategy expands `pos` at `ply`: the first time
/// it is reached, or again when reached nearer the start (a double step
/// and two single steps reach one position at different plies, and
/// nearer the start more of the book lies below it).
fn expand_at(expanded: &mut HashMap<Position, u32>, pos: Position, ply: u32) -> bool {
    match expanded.get(&pos) {
        Some(&p) if p <= ply => false,
        _ => {
            expanded.insert(pos, ply);
            true
        }
    }
}

struct Grower<'s, 'a, 'f> {
    solver: &'s PnSolver<'a>,
    section: &'s mut Section,
    /// The ply at which each position was expanded.
    expanded: HashMap<Position, u32>,
    /// The book's move in each of its side's positions so far.
    chosen: HashMap<Position, Move>,
    on_line: &'f mut dyn FnMut(&[Move]),
}

impl Grower<'_, '_, '_> {
    fn grow(&mut self, pos: Position, path: &mut Vec<Move>) -> Result<(), BookError> {
        let ply = path.len() as u32;
        if ply >= self.section.plies
            || pos.is_game_over()
            || !expand_at(&mut self.expanded, pos, ply)
        {
            return Ok(());
        }
        let moves: Vec<Move> = if pos.turn() == self.section.side {
            let m = match self.chosen.get(&pos) {
                Some(&m) => m,
                None => {
                    let m = winning_move(self.solver, &pos)?.ok_or_else(|| {
                        BookError::Unproven(format!(
                            "{pos}: no move proven to win for {}",
                            self.section.side.name()
                        ))
                    })?;
                    self.chosen.insert(pos, m);
                    path.push(m);
                    self.section.lines.push(path.clone());
                    (self.on_line)(path);
                    path.pop();
                    m
                }
            };
            vec![m]
        } else {
            pos.legal_moves().to_vec()
        };
        for m in moves {
            path.push(m);
            self.grow(pos.play(m), path)?;
            path.pop();
        }
        Ok(())
    }
}

/// A move of the side to move of `pos` proven to win: one that ends the
/// game with a win, else the one the solver's own line takes.
fn winning_move(solver: &PnSolver, pos: &Position) -> Result<Option<Move>, SolveError> {
    if let Some(&m) = pos.legal_moves().iter().find(|&&m| wins_at_once(pos, m)) {
        return Ok(Some(m));
    }
    let root = solver.solve_value(pos, &|_, _| {})?;
    let (m, value) = root.moves[0];
    Ok((value.wdl == Wdl::Win && proven_win(solver, pos, m)?).then_some(m))
}

/// What [`check`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Book moves proven to win (none when checked without a solver).
    pub moves: usize,
    /// Positions of the other side whose every move the book answers.
    pub covered: usize,
}

/// Checks `section`: with a solver (of the section's game), proves every
/// book move again; in any
/// case checks that the book is whole: at every position of the other side
/// that it reaches within its plies, each move leads to the end of the
/// game, to the end of the book, or to a position the book answers.
pub fn check(solver: Option<&PnSolver>, section: &Section) -> Result<CheckReport, BookError> {
    let mut report = CheckReport::default();
    let mut answers: HashMap<Position, Move> = HashMap::new();
    for (pos, m) in section.entries() {
        if let Some(solver) = solver {
            if !proven_win(solver, &pos, m)? {
                return Err(BookError::Unproven(format!(
                    "{pos}: the book's {} does not win for {}",
                    m.san(),
                    section.side.name()
                )));
            }
            report.moves += 1;
        }
        answers.entry(pos).or_insert(m);
    }
    // Walk the strategy: the book's move at its turns, every move at the
    // other side's.
    let mut expanded = HashMap::new();
    let mut stack = vec![(section.start, 0u32)];
    while let Some((pos, ply)) = stack.pop() {
        if ply >= section.plies || pos.is_game_over() || !expand_at(&mut expanded, pos, ply) {
            continue;
        }
        if pos.turn() == section.side {
            let m = answers.get(&pos).ok_or_else(|| {
                BookError::Unproven(format!(
                    "{pos}: reached at ply {} but the book has no move for it",
                    ply + 1
                ))
            })?;
            stack.push((pos.play(*m), ply + 1));
        } else {
            for &m in pos.legal_moves().iter() {
                stack.push((pos.play(m), ply + 1));
            }
        }
    }
    report.covered = expanded.keys().filter(|p| p.turn() != section.side).count();
    Ok(report)
}
