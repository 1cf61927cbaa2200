//! A second, deliberately naive implementation of the rules of docs/RULES.md, to
//! check the engine against.
//!
//! It shares no code with the engine: a board is a plain array of squares,
//! moves are found by looping over every square, the en passant right is
//! remembered from the last double step (and only tested when a pawn wants to
//! use it), the end of the game is decided from the move just played, and
//! perft plays every move down to depth 0 (no bulk counting). Position text is
//! read and written by its own small parser. Squares are `(file, rank)` with
//! `(0, 0)` = a1.
#![allow(dead_code)]

use std::collections::HashMap;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// +1 for white (up the board), -1 for black.
    pub fn dir(self) -> i32 {
        match self {
            Side::White => 1,
            Side::Black => -1,
        }
    }
}

/// The rule options of docs/RULES.md.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Opts {
    pub en_passant: bool,
    pub seventh_rank_wins: bool,
}

impl Opts {
    /// All four combinations of the two options.
    pub const ALL: [Opts; 4] = [
        Opts {
            en_passant: true,
            seventh_rank_wins: false,
        },
        Opts {
            en_passant: false,
            seventh_rank_wins: false,
        },
        Opts {
            en_passant: true,
            seventh_rank_wins: true,
        },
        Opts {
            en_passant: false,
            seventh_rank_wins: true,
        },
    ];
}

/// A move: from and to squares, and what kind it is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct NMove {
    pub from: (usize, usize),
    pub to: (usize, usize),
    pub capture: bool,
    pub en_passant: bool,
    pub double_step: bool,
}

fn square_name(sq: (usize, usize)) -> String {
    format!("{}{}", (b'a' + sq.0 as u8) as char, sq.1 + 1)
}

impl NMove {
    /// `e4`, or `dxe5` for a capture (en passant too).
    pub fn san(&self) -> String {
        if self.capture {
            format!(
                "{}x{}",
                (b'a' + self.from.0 as u8) as char,
                square_name(self.to)
            )
        } else {
            square_name(self.to)
        }
    }

    /// `e2e4`.
    pub fn long(&self) -> String {
        format!("{}{}", square_name(self.from), square_name(self.to))
    }
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum End {
    Won(Side),
    Drawn,
}

/// Pawns (rank by rank), side to move, usable en passant square, winner.
type Key = (
    Vec<Option<Side>>,
    Side,
    Option<(usize, usize)>,
    Option<Side>,
);

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Game {
    pub width: usize,
    pub height: usize,
    /// `cells[rank][file]`, rank 0 = rank 1.
    pub cells: [[Option<Side>; 8]; 8],
    pub to_move: Side,
    /// The square the last move's double step skipped (whether or not
    /// anybody can capture onto it).
    pub skipped: Option<(usize, usize)>,
    pub opts: Opts,
    /// Set when the game was won.
    pub winner: Option<Side>,
}

impl Game {
    pub fn empty(width: usize, height: usize, opts: Opts) -> Game {
        assert!((1..=8).contains(&width) && (4..=8).contains(&height));
        Game {
            width,
            height,
            cells: [[None; 8]; 8],
            to_move: Side::White,
            skipped: None,
            opts,
            winner: None,
        }
    }

    pub fn at(&self, file: i32, rank: i32) -> Option<Side> {
        if file < 0 || rank < 0 || file >= self.width as i32 || rank >= self.height as i32 {
            None
        } else {
            self.cells[rank as usize][file as usize]
        }
    }

    pub fn on_board(&self, file: i32, rank: i32) -> bool {
        file >= 0 && rank >= 0 && file < self.width as i32 && rank < self.height as i32
    }

    pub fn count(&self, side: Side) -> usize {
        let mut n = 0;
        for rank in 0..self.height {
            for file in 0..self.width {
                if self.cells[rank][file] == Some(side) {
                    n += 1;
                }
            }
        }
        n
    }

    /// The rank (0-based) a side's pawns double-step from.
    pub fn second_rank(&self, side: Side) -> usize {
        match side {
            Side::White => 1,
            Side::Black => self.height - 2,
        }
    }

    pub fn last_rank(&self, side: Side) -> usize {
        match side {
            Side::White => self.height - 1,
            Side::Black => 0,
        }
    }

    pub fn second_to_last_rank(&self, side: Side) -> usize {
        match side {
            Side::White => self.height - 2,
            Side::Black => 1,
        }
    }

    /// Whether a pawn of `side` arriving on `rank` wins at once.
    fn is_goal(&self, side: Side, rank: usize) -> bool {
        rank == self.last_rank(side)
            || (self.opts.seventh_rank_wins && rank == self.second_to_last_rank(side))
    }

    /// Decides, for a position given from outside (not reached by a move
    /// here), whether the side that just moved has already won: it has a
    /// pawn on a winning rank, or the side to move has no pawns left.
    pub fn settle(&mut self) {
        let mover = self.to_move.other();
        let mut won = self.count(self.to_move) == 0;
        for rank in 0..self.height {
            for file in 0..self.width {
                if self.cells[rank][file] == Some(mover) && self.is_goal(mover, rank) {
                    won = true;
                }
            }
        }
        self.winner = if won { Some(mover) } else { None };
    }

    /// Every legal move of the side to move, found square by square.
    pub fn moves(&self) -> Vec<NMove> {
        let mut out = Vec::new();
        if self.winner.is_some() {
            return out;
        }
        let me = self.to_move;
        let them = me.other();
        let d = me.dir();
        for rank in 0..self.height as i32 {
            for file in 0..self.width as i32 {
                if self.at(file, rank) != Some(me) {
                    continue;
                }
                let from = (file as usize, rank as usize);
                let ahead = rank + d;
                if !self.on_board(file, ahead) {
                    continue; // cannot happen in a legal position
                }
                // One step forward.
                if self.at(file, ahead).is_none() {
                    out.push(NMove {
                        from,
                        to: (file as usize, ahead as usize),
                        capture: false,
                        en_passant: false,
                        double_step: false,
                    });
                    // Two steps from the second rank, both squares empty.
                    let two = rank + 2 * d;
                    if rank as usize == self.second_rank(me)
                        && self.on_board(file, two)
                        && self.at(file, two).is_none()
                    {
                        out.push(NMove {
                            from,
                            to: (file as usize, two as usize),
                            capture: false,
                            en_passant: false,
                            double_step: true,
                        });
                    }
                }
                // Diagonal captures, and en passant.
                for side_step in [-1, 1] {
                    let tf = file + side_step;
                    if !self.on_board(tf, ahead) {
                        continue;
                    }
                    let to = (tf as usize, ahead as usize);
                    if self.at(tf, ahead) == Some(them) {
                        out.push(NMove {
                            from,
                            to,
                            capture: true,
                            en_passant: false,
                            double_step: false,
                        });
                    } else if self.opts.en_passant
                        && self.skipped == Some(to)
                        && self.at(tf, rank) == Some(them)
                        && self.at(tf, ahead).is_none()
                    {
                        out.push(NMove {
                            from,
                            to,
                            capture: true,
                            en_passant: true,
                            double_step: false,
                        });
                    }
                }
            }
        }
        out
    }

    /// The position after `m` (a move from [`Game::moves`]).
    pub fn play(&self, m: &NMove) -> Game {
        let me = self.to_move;
        let mut next = self.clone();
        next.cells[m.from.1][m.from.0] = None;
        if m.en_passant {
            // The captured pawn stands beside the capturer, on the target file.
            assert_eq!(next.cells[m.from.1][m.to.0], Some(me.other()));
            next.cells[m.from.1][m.to.0] = None;
        }
        next.cells[m.to.1][m.to.0] = Some(me);
        next.skipped = if m.double_step {
            Some((m.from.0, (m.from.1 + m.to.1) / 2))
        } else {
            None
        };
        next.to_move = me.other();
        next.winner = if self.is_goal(me, m.to.1) || next.count(me.other()) == 0 {
            Some(me)
        } else {
            None
        };
        next
    }

    /// The end of the game, if it has ended.
    pub fn outcome(&self) -> Option<End> {
        if let Some(w) = self.winner {
            Some(End::Won(w))
        } else if self.moves().is_empty() {
            Some(End::Drawn)
        } else {
            None
        }
    }

    /// The en passant square as the engine should report it: set only when
    /// the rule is on and some pawn can really capture onto it.
    pub fn capturable_ep(&self) -> Option<(usize, usize)> {
        self.moves().iter().find(|m| m.en_passant).map(|m| m.to)
    }

    /// Plain perft: every line of `depth` plies is played out to the end.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|m| self.play(m).perft(depth - 1))
            .sum()
    }

    /// Builds a named setup of docs/RULES.md, or `None` if the name is unknown or
    /// the setup does not fit the board.
    pub fn setup(name: &str, width: usize, height: usize, opts: Opts) -> Option<Game> {
        let mut g = Game::empty(width, height, opts);
        let fill = |g: &mut Game, rank: usize, side: Side, except: Option<usize>| {
            for file in 0..width {
                if Some(file) != except {
                    g.cells[rank][file] = Some(side);
                }
            }
        };
        if name == "peasants" {
            if height < 6 {
                return None;
            }
            fill(&mut g, 1, Side::White, None);
            fill(&mut g, 2, Side::White, None);
            fill(&mut g, height - 2, Side::Black, None);
            fill(&mut g, height - 3, Side::Black, None);
        } else if name == "pawngame" {
            fill(&mut g, 1, Side::White, None);
            fill(&mut g, height - 2, Side::Black, None);
        } else if let Some(gaps) = name.strip_prefix("pawnrace:") {
            let b = gaps.as_bytes();
            if b.len() != 3 || b[1] != b':' {
                return None;
            }
            let x = (b[0] as i32 - b'a' as i32) as usize;
            let y = (b[2] as i32 - b'a' as i32) as usize;
            if x >= width || y >= width {
                return None;
            }
            fill(&mut g, 1, Side::White, Some(x));
            fill(&mut g, height - 2, Side::Black, Some(y));
        } else {
            return None;
        }
        // A setup without pawns, or where black (the side that "just moved")
        // has none, is not a legal position.
        if g.count(Side::White) + g.count(Side::Black) == 0 || g.count(Side::Black) == 0 {
            return None;
        }
        g.settle();
        Some(g)
    }

    /// Reads position text (docs/RULES.md), for boards it describes itself.
    /// Returns `None` for anything malformed or illegal.
    pub fn from_fen(text: &str, opts: Opts) -> Option<Game> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        // Pawns, side to move, en passant field, and at most two numeric
        // move counters.
        if fields.len() < 2
            || fields.len() > 5
            || fields.iter().skip(3).any(|c| c.parse::<u32>().is_err())
        {
            return None;
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        let height = rows.len();
        if !(4..=8).contains(&height) {
            return None;
        }
        let mut cells = [[None; 8]; 8];
        let mut width = None;
        for (i, row) in rows.iter().enumerate() {
            let rank = height - 1 - i;
            let mut file = 0;
            for c in row.chars() {
                if let Some(n) = c.to_digit(10) {
                    if !(1..=8).contains(&n) {
                        return None;
                    }
                    file += n as usize;
                } else {
                    let side = match c {
                        'P' => Side::White,
                        'p' => Side::Black,
                        _ => return None,
                    };
                    if file >= 8 {
                        return None;
                    }
                    cells[rank][file] = Some(side);
                    file += 1;
                }
                if file > 8 {
                    return None;
                }
            }
            if width.is_some() && width != Some(file) {
                return None;
            }
            width = Some(file);
        }
        let width = width?;
        if width == 0 {
            return None;
        }
        let mut g = Game::empty(width, height, opts);
        g.cells = cells;
        g.to_move = match fields[1] {
            "w" => Side::White,
            "b" => Side::Black,
            _ => return None,
        };
        // Pawns on their own first rank or on their last rank are illegal.
        for file in 0..width {
            if g.cells[0][file].is_some() || g.cells[height - 1][file].is_some() {
                return None;
            }
        }
        if g.count(Side::White) + g.count(Side::Black) == 0 || g.count(g.to_move.other()) == 0 {
            return None;
        }
        if let Some(ep) = fields.get(2).filter(|s| **s != "-") {
            let b = ep.as_bytes();
            if b.len() != 2 {
                return None;
            }
            let file = b[0] as i32 - b'a' as i32;
            let rank = b[1] as i32 - b'1' as i32;
            if !g.on_board(file, rank) {
                return None;
            }
            // The side that just moved double-stepped over this square.
            let mover = g.to_move.other();
            let d = mover.dir();
            let origin = g.second_rank(mover) as i32;
            if rank != origin + d
                || g.at(file, rank + d) != Some(mover)
                || g.at(file, rank).is_some()
                || g.at(file, origin).is_some()
            {
                return None;
            }
            g.skipped = Some((file as usize, rank as usize));
        }
        g.settle();
        Some(g)
    }

    /// Position text, with the skipped square of the last double step (if
    /// any) in the en passant field, as chess FEN does.
    pub fn fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..self.height).rev() {
            let mut run = 0;
            for file in 0..self.width {
                match self.cells[rank][file] {
                    None => run += 1,
                    Some(side) => {
                        if run > 0 {
                            out += &run.to_string();
                            run = 0;
                        }
                        out.push(if side == Side::White { 'P' } else { 'p' });
                    }
                }
            }
            if run > 0 {
                out += &run.to_string();
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out += if self.to_move == Side::White {
            " w "
        } else {
            " b "
        };
        match self.skipped {
            Some(sq) => out += &square_name(sq),
            None => out.push('-'),
        }
        out
    }

    /// A key that identifies the position for play (the en passant right
    /// only when it can be used).
    fn key(&self) -> Key {
        let mut cells = Vec::new();
        for rank in 0..self.height {
            cells.extend_from_slice(&self.cells[rank][..self.width]);
        }
        (cells, self.to_move, self.capturable_ep(), self.winner)
    }

    /// Exhaustive minimax: the value from the side to move's view and the
    /// DTM (plies to the end under optimal play; the winner hurries, the
    /// loser delays). `None` is a draw. A positive number is a win in that
    /// many plies, a negative one a loss.
    pub fn solve(&self) -> Option<i32> {
        let mut memo = HashMap::new();
        self.solve_memo(&mut memo)
    }

    fn solve_memo(&self, memo: &mut HashMap<Key, Option<i32>>) -> Option<i32> {
        let key = self.key();
        if let Some(v) = memo.get(&key) {
            return *v;
        }
        let value = match self.outcome() {
            // The side that just moved won: the side to move has lost, now.
            Some(End::Won(_)) => Some(0),
            Some(End::Drawn) => None,
            None => {
                let mut best_win: Option<i32> = None; // fastest win
                let mut draw = false;
                let mut worst_loss: i32 = 0; // slowest loss
                for m in self.moves() {
                    match self.play(&m).solve_memo(memo) {
                        // The opponent loses in n plies (n = 0: now).
                        Some(n) if n <= 0 => {
                            let plies = -n + 1;
                            best_win = Some(best_win.map_or(plies, |b| b.min(plies)));
                        }
                        Some(n) => worst_loss = worst_loss.max(n + 1),
                        None => draw = true,
                    }
                }
                if best_win.is_some() {
                    best_win
                } else if draw {
                    None
                } else {
                    Some(-worst_loss)
                }
            }
        };
        memo.insert(key, value);
        value
    }
}

/// A tiny fixed-seed pseudo-random generator (splitmix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next() % den < num
    }
}

/// A random position: pawns placed at random on the ranks where they may
/// stand, a random side to move (which may have no pawns left, a finished
/// game), and sometimes the en passant right of a double step that could
/// have just been played. Under `--seventh-rank-wins` the side to move has
/// no pawn on its second-to-last rank (such a position cannot arise).
pub fn random_game(rng: &mut Rng, width: usize, height: usize, opts: Opts) -> Game {
    loop {
        let mut g = Game::empty(width, height, opts);
        g.to_move = if rng.chance(1, 2) {
            Side::White
        } else {
            Side::Black
        };
        // Density between sparse and crowded.
        let density = 1 + rng.below(7); // out of 10
        for rank in 1..height - 1 {
            for file in 0..width {
                if rng.below(10) < density {
                    let side = if rng.chance(1, 2) {
                        Side::White
                    } else {
                        Side::Black
                    };
                    // Under --seventh-rank-wins, a pawn on its second-to-last
                    // rank is never the side to move's and seldom the other's
                    // (the game would be over).
                    if opts.seventh_rank_wins
                        && rank == g.second_to_last_rank(side)
                        && (side == g.to_move || rng.chance(3, 4))
                    {
                        continue;
                    }
                    g.cells[rank][file] = Some(side);
                }
            }
        }
        // Often give the side to move the right to capture en passant: make
        // a pawn of the other side one that has just double-stepped, with
        // (usually) a pawn of the side to move beside it.
        if rng.chance(1, 2) {
            let mover = g.to_move.other();
            let d = mover.dir();
            let origin = g.second_rank(mover) as i32;
            let arrival = origin + 2 * d;
            let f = rng.below(width) as i32;
            if g.on_board(f, arrival) && arrival as usize != g.last_rank(mover) {
                g.cells[arrival as usize][f as usize] = Some(mover);
                g.cells[(origin + d) as usize][f as usize] = None;
                g.cells[origin as usize][f as usize] = None;
                let beside = if rng.chance(1, 2) { f - 1 } else { f + 1 };
                if g.on_board(beside, arrival) && rng.chance(4, 5) {
                    g.cells[arrival as usize][beside as usize] = Some(g.to_move);
                }
                g.skipped = Some((f as usize, (origin + d) as usize));
            }
        }
        if g.count(g.to_move.other()) == 0 {
            continue;
        }
        g.settle();
        return g;
    }
}
