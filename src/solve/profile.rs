//! Where the nodes of a solve go (`peasant solve --profile`): every node
//! the alpha-beta search enters (the proof-number search: every node it
//! expands, and every child its leaf knowledge settles before expansion,
//! classed by the child) is counted by its number of pawns, its
//! number of wall-separated segments, its depth (plies below the root),
//! what ended it, and whether it is dead ([`crate::rules::is_dead`]), holds
//! a dead segment, a file that looks quiet, or a frozen segment,
//! whether the side to move or its opponent can never win
//! ([`crate::rules::can_win`]), and whether its canonical form fits a
//! narrower board (whose tables then answer it; by pawns in a table of
//! its own); and how many nodes the one-sided bound
//! settles (or, with it switched off, would settle) in their window.
//!
//! Off unless [`enable`] is called: then each hook costs one relaxed load
//! of a flag. Counts are kept per thread and merged into one [`Profile`]
//! every million nodes, when a worker's share of a solve is done, and by
//! [`take`].

use crate::rules::bitboard::Bitboard;
use crate::rules::bound::can_win;
use crate::rules::canonical::canonical;
use crate::rules::color::Color;
use crate::rules::dead::{can_meet, dead_segments, is_dead, quiet_reach};
use crate::rules::position::Position;
use crate::table::store::used_width;
use std::cell::{Cell, RefCell};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Mutex;

static ENABLED: AtomicBool = AtomicBool::new(false);
static GLOBAL: Mutex<Option<Box<Profile>>> = Mutex::new(None);

thread_local! {
    static LOCAL: RefCell<Option<Box<Profile>>> = const { RefCell::new(None) };
    /// The class of the node being entered (see [`enter`]).
    static CURRENT: Cell<u32> = const { Cell::new(0) };
    /// Set while knowledge is read outside the search ([`unrecorded`]).
    static MUTED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with nothing recorded on this thread: the leaf knowledge read
/// outside the search (as the value-only move reads it) is not the
/// search's, and its counts are not kept either.
pub(crate) fn unrecorded<R>(f: impl FnOnce() -> R) -> R {
    let was = MUTED.with(|m| m.replace(true));
    let r = f();
    MUTED.with(|m| m.set(was));
    r
}

/// What ended a node.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum End {
    /// The second-to-last-rank rule.
    Rule,
    /// The pure-race rule.
    Race,
    /// The free-runner rule.
    Runner,
    /// The dead-position rule.
    Dead,
    /// The one-sided bound: neither side can win, or the window asks
    /// beyond what the side that can never win may reach.
    Bound,
    /// A table.
    Table,
    /// The transposition table (a bound or the exact value).
    Transposition,
    /// Enhanced transposition cutoff: a child's entry cut.
    Etc,
    /// A move wins at once (found while building the children).
    WinNow,
    /// No legal move: stalemate.
    Stalemate,
    /// Searched: its children were searched.
    Searched,
}

const ENDS: usize = 11;
/// The profile tables' columns after "nodes" and "%", one per [`End`], in
/// its order.
pub const END_NAMES: [&str; ENDS] = [
    "rule",
    "race",
    "runner",
    "dead",
    "bound",
    "table",
    "tt",
    "etc",
    "win-now",
    "stalemate",
    "searched",
];
const DEPTHS: usize = 128;

/// Flags of a node's class.
const DEAD: u32 = 1;
const DEAD_SEGMENT: u32 = 2;
const QUIET_FILE: u32 = 4;
const FROZEN_SEGMENT: u32 = 8;
const MOVER_CANNOT_WIN: u32 = 16;
const OTHER_CANNOT_WIN: u32 = 32;
/// The position's canonical form ([`canonical`]: segments packed one
/// empty file apart, frozen ones made one island) fits a narrower board,
/// whose tables answer it ([`crate::table::Tablebase`] probes it there).
const NARROW: u32 = 64;
const FLAGS: usize = 8;
const FLAG_NAMES: [&str; FLAGS] = [
    "all nodes",
    "dead (no capture or promotion can ever happen)",
    "some wall-separated segment dead on its own, not the whole position",
    "some file quiet (approx.: neighbours assumed to keep to their files)",
    "some frozen segment (no move in it)",
    "the side to move can never win",
    "the opponent can never win",
    "fits a narrower board (its tables answer it)",
];

/// The counts of a profile.
#[derive(Clone)]
pub struct Profile {
    by_pawns: [[u64; ENDS]; 33],
    /// The nodes of [`NARROW`] positions, by pawns: what the tables of
    /// a narrower board with that many pawns would answer.
    by_pawns_narrow: [[u64; ENDS]; 33],
    by_segments: [[u64; ENDS]; 9],
    by_depth: [[u64; ENDS]; DEPTHS],
    by_flag: [[u64; ENDS]; FLAGS],
    /// Nodes the one-sided bound settled (or would settle, switched off)
    /// in their window, after the transposition table.
    bound_settles: u64,
    /// Nodes with some quiet file, by how many files are quiet.
    by_quiet_files: [u64; 9],
    recorded: u64,
}

impl Default for Profile {
    fn default() -> Profile {
        Profile {
            by_pawns: [[0; ENDS]; 33],
            by_pawns_narrow: [[0; ENDS]; 33],
            by_segments: [[0; ENDS]; 9],
            by_depth: [[0; ENDS]; DEPTHS],
            by_flag: [[0; ENDS]; FLAGS],
            bound_settles: 0,
            by_quiet_files: [0; 9],
            recorded: 0,
        }
    }
}

impl Profile {
    fn add(&mut self, other: &Profile) {
        fn add_rows<const N: usize>(a: &mut [[u64; ENDS]; N], b: &[[u64; ENDS]; N]) {
            for (x, y) in a.iter_mut().zip(b) {
                for (u, v) in x.iter_mut().zip(y) {
                    *u += v;
                }
            }
        }
        add_rows(&mut self.by_pawns, &other.by_pawns);
        add_rows(&mut self.by_pawns_narrow, &other.by_pawns_narrow);
        add_rows(&mut self.by_segments, &other.by_segments);
        add_rows(&mut self.by_depth, &other.by_depth);
        add_rows(&mut self.by_flag, &other.by_flag);
        for (u, v) in self.by_quiet_files.iter_mut().zip(&other.by_quiet_files) {
            *u += v;
        }
        self.recorded += other.recorded;
        self.bound_settles += other.bound_settles;
    }

    /// Nodes counted.
    pub fn nodes(&self) -> u64 {
        self.by_flag[0].iter().sum()
    }

    fn record(&mut self, class: u32, end: End) {
        let e = end as usize;
        let pawns = (class & 63) as usize;
        let segments = (class >> 6 & 15) as usize;
        let depth = (class >> 10 & 127) as usize;
        let flags = (class >> 17 & 15) | (class >> 25 & 7) << 4;
        let quiet = (class >> 21 & 15) as usize;
        self.by_pawns[pawns.min(32)][e] += 1;
        if flags & NARROW != 0 {
            self.by_pawns_narrow[pawns.min(32)][e] += 1;
        }
        self.by_segments[segments.min(8)][e] += 1;
        self.by_depth[depth][e] += 1;
        self.by_flag[0][e] += 1;
        for bit in 0..FLAGS - 1 {
            if flags >> bit & 1 != 0 {
                self.by_flag[1 + bit][e] += 1;
            }
        }
        if quiet > 0 {
            self.by_quiet_files[quiet.min(8)] += 1;
        }
        self.recorded += 1;
    }
}

/// Turns profiling on for every solve from now on.
pub fn enable() {
    ENABLED.store(true, Relaxed);
}

#[inline]
pub(crate) fn enabled() -> bool {
    ENABLED.load(Relaxed)
}

/// The class of a node: pawns, segments, depth, flags and quiet files
/// packed in one word. Kept out of line: the searches call [`enter`] at
/// every node, and with profiling off its body must stay small there.
#[cold]
#[inline(never)]
fn classify(pos: &Position, ply: usize) -> u32 {
    let (white, black) = (pos.pawns(Color::White).0, pos.pawns(Color::Black).0);
    let pawns = (white | black).count_ones();
    let files = pos.occupied().files() as u32;
    let segments = (files & !(files << 1)).count_ones();
    let mut flags = 0;
    if is_dead(pos) {
        flags |= DEAD;
    }
    let dead = dead_segments(pos) as u32;
    if dead != 0 && dead != files {
        flags |= DEAD_SEGMENT;
    }
    // Frozen segments: dead ones in which no pawn can move at all.
    let mut f = 0;
    while f < 8 {
        if dead >> f & 1 == 0 {
            f += 1;
            continue;
        }
        let start = f;
        while f < 8 && dead >> f & 1 != 0 {
            f += 1;
        }
        let mask = ((((1u32 << (f - start)) - 1) << start) as u64).wrapping_mul(Bitboard::FILE_A.0);
        if let Some((rw, rb)) = quiet_reach(white & mask, black & mask) {
            if rw == white & mask && rb == black & mask {
                flags |= FROZEN_SEGMENT;
            }
        }
    }
    // Quiet files (approximate): a file whose pawns never promote and never
    // meet the pawns of the files beside, those taken to keep to their
    // files too.
    let all_w = fill(white, !black, true);
    let all_b = fill(black, !white, false);
    let mut quiet = 0;
    for f in 0..8 {
        let mask = Bitboard::FILE_A.0 << f;
        if (white | black) & mask == 0 {
            continue;
        }
        if let Some((rw, rb)) = quiet_reach(white & mask, black & mask) {
            if !can_meet(rw, all_b) && !can_meet(all_w, rb) {
                quiet += 1;
            }
        }
    }
    if quiet > 0 {
        flags |= QUIET_FILE;
    }
    let (white_may, black_may) = can_win(pos);
    let (mover_may, other_may) = match pos.turn() {
        Color::White => (white_may, black_may),
        Color::Black => (black_may, white_may),
    };
    if !mover_may {
        flags |= MOVER_CANNOT_WIN;
    }
    if !other_may {
        flags |= OTHER_CANNOT_WIN;
    }
    // The width of the canonical form (segments packed one empty file
    // apart, frozen ones made one island), as the tables locate it.
    if used_width(&canonical(pos)) < pos.board().width() {
        flags |= NARROW;
    }
    pawns
        | segments << 6
        | (ply.min(DEPTHS - 1) as u32) << 10
        | (flags & 15) << 17
        | quiet << 21
        | (flags >> 4) << 25
}

/// Pushes from `from` through `open`, up (white) or down (black).
fn fill(from: u64, open: u64, up: bool) -> u64 {
    let mut x = from;
    for _ in 0..7 {
        x |= open & if up { x << 8 } else { x >> 8 };
    }
    x
}

/// Counts a node entered at `ply`; returns its class for [`end_with`].
#[inline]
pub(crate) fn enter(pos: &Position, ply: usize) -> u32 {
    if !enabled() {
        return 0;
    }
    let class = classify(pos, ply);
    CURRENT.with(|c| c.set(class));
    class
}

/// The node entered last ended by `end`.
#[inline]
pub(crate) fn end(end: End) {
    if enabled() {
        record(CURRENT.with(|c| c.get()), end);
    }
}

/// The node of class `class` ([`enter`]) ended by `end`.
#[inline]
pub(crate) fn end_with(class: u32, end: End) {
    if enabled() {
        record(class, end);
    }
}

/// The one-sided bound settled (or would settle) the node entered last.
#[inline]
pub(crate) fn bound_settles() {
    if enabled() {
        LOCAL.with(|l| {
            l.borrow_mut()
                .get_or_insert_with(Box::default)
                .bound_settles += 1;
        });
    }
}

#[cold]
#[inline(never)]
fn record(class: u32, end: End) {
    if MUTED.with(|m| m.get()) {
        return;
    }
    LOCAL.with(|l| {
        let mut l = l.borrow_mut();
        let p = l.get_or_insert_with(Box::default);
        p.record(class, end);
        if p.recorded >= 1 << 20 {
            merge(p);
        }
    });
}

fn merge(p: &mut Profile) {
    let mut g = GLOBAL.lock().unwrap_or_else(|e| e.into_inner());
    g.get_or_insert_with(Box::default).add(p);
    *p = Profile::default();
}

/// Merges this thread's counts into the profile (a worker thread's, when
/// its work is done).
#[inline]
pub(crate) fn flush() {
    if enabled() {
        LOCAL.with(|l| {
            if let Some(p) = l.borrow_mut().as_mut() {
                merge(p);
            }
        });
    }
}

/// The profile so far (this thread's counts merged first), and a fresh
/// start.
pub fn take() -> Profile {
    LOCAL.with(|l| {
        if let Some(p) = l.borrow_mut().as_mut() {
            merge(p);
        }
    });
    let mut g = GLOBAL.lock().unwrap_or_else(|e| e.into_inner());
    g.take().map(|b| *b).unwrap_or_default()
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.nodes().max(1);
        let pct = |n: u64| 100.0 * n as f64 / total as f64;
        let header = |f: &mut fmt::Formatter<'_>, first: &str| -> fmt::Result {
            write!(f, "| {first} | nodes | % |")?;
            for n in END_NAMES {
                write!(f, " {n} |")?;
            }
            writeln!(f)?;
            write!(f, "|---|---|---|")?;
            for _ in END_NAMES {
                write!(f, "---|")?;
            }
            writeln!(f)
        };
        let row = |f: &mut fmt::Formatter<'_>, name: &str, r: &[u64; ENDS]| -> fmt::Result {
            let n: u64 = r.iter().sum();
            write!(f, "| {name} | {n} | {:.2} |", pct(n))?;
            for x in r {
                write!(f, " {x} |")?;
            }
            writeln!(f)
        };
        writeln!(f, "nodes profiled: {}", self.nodes())?;
        writeln!(
            f,
            "settled by the one-sided bound in their window (or would be): {} ({:.2}%)",
            self.bound_settles,
            pct(self.bound_settles)
        )?;
        writeln!(f)?;
        header(f, "class")?;
        for (name, r) in FLAG_NAMES.iter().zip(&self.by_flag) {
            row(f, name, r)?;
        }
        writeln!(f)?;
        header(f, "pawns")?;
        for (i, r) in self.by_pawns.iter().enumerate() {
            if r.iter().any(|&x| x > 0) {
                row(f, &i.to_string(), r)?;
            }
        }
        writeln!(f)?;
        header(f, "pawns, fitting a narrower board")?;
        for (i, r) in self.by_pawns_narrow.iter().enumerate() {
            if r.iter().any(|&x| x > 0) {
                row(f, &i.to_string(), r)?;
            }
        }
        writeln!(f)?;
        header(f, "segments")?;
        for (i, r) in self.by_segments.iter().enumerate() {
            if r.iter().any(|&x| x > 0) {
                row(f, &i.to_string(), r)?;
            }
        }
        writeln!(f)?;
        header(f, "depth")?;
        for (i, r) in self.by_depth.iter().enumerate() {
            if r.iter().any(|&x| x > 0) {
                row(f, &i.to_string(), r)?;
            }
        }
        writeln!(f)?;
        writeln!(f, "| quiet files | nodes | % |")?;
        writeln!(f, "|---|---|---|")?;
        for (i, &n) in self.by_quiet_files.iter().enumerate().skip(1) {
            if n > 0 {
                writeln!(f, "| {i} | {n} | {:.2} |", pct(n))?;
            }
        }
        Ok(())
    }
}
