//! The table generator.
//!
//! Classes are solved in order of total material, a class `WvB` together
//! with its colour-flipped partner `BvW`, a class pair (white's moves in
//! one lead to black-to-move positions, stored colour-flipped in the
//! other). Captures lead to a class of one pawn fewer, whose finished table
//! is read from disk.
//!
//! Because every move advances a pawn (docs/RULES.md fact 1) there are no
//! cycles, so one pass suffices: each position is valued from its moves'
//! values, and a move into a position of the class pair not yet valued
//! values that position first (depth-first; the depth is bounded by the
//! game's length). Both cores take positions in parallel; two threads
//! valuing the same position at once store the same byte, so no locking is
//! needed.
//!
//! Phases, each timed: `init` (index, memory, lower tables), `solve` (the
//! pass), `write` (checksummed files, written under a temporary name).

use crate::index::domain::{stand_in, value, TableValues};
use crate::index::material::Material;
use crate::index::{Index, IndexStats, WhiteKey};
use crate::memory::{peak as peak_memory, ZeroedMap};
use crate::rules::bitboard::Bitboard;
use crate::rules::color::{ByColor, Color};
use crate::rules::moves::MoveKind;
use crate::rules::position::Position;
use crate::rules::value::{Value, Wdl};
use crate::rules::variant::Variant;
use crate::table::{
    write_memory_bound, write_table_with, write_wdl_table_with, DenseTable, Table, TableError,
    Tablebase, WriteOptions,
};
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Which classes to generate.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    /// Every class with at most this many pawns in all.
    MaxPawns(u8),
    /// One class, its colour-flipped partner, and every class below them.
    Class(Material),
}

/// How a generation run is set up.
pub struct GenConfig {
    /// The game whose tables are generated.
    pub variant: Variant,
    /// The directory the tables are written to, and where present tables are
    /// looked for.
    pub out: PathBuf,
    /// Report progress while solving ([`GenEvent::Progress`]).
    pub progress: bool,
    /// Refuse a class pair whose estimated memory exceeds this many bytes.
    pub memory_limit: u64,
    /// zstd level of the written tables (readers do not care which): 19
    /// for the smallest files; on 8x8 up to 5 pawns, 15 wrote 3x faster for
    /// files 1.6% bigger and 3 wrote 11x faster for files 2.3x bigger.
    pub zstd_level: i32,
    /// Win/draw/loss only (`gen --wdl-only`): values held at 2 bits a
    /// position while solving, tables written without a DTM section
    /// (value encoding 2). Tables with the DTM already present serve as
    /// they are; without it, win/draw/loss-only tables present are made
    /// again with the DTM.
    pub wdl_only: bool,
}

impl GenConfig {
    /// Tables of `variant` into `out`: no progress events, no memory limit, the
    /// default encoding.
    pub fn new(variant: Variant, out: impl Into<PathBuf>) -> GenConfig {
        GenConfig {
            variant,
            out: out.into(),
            progress: false,
            memory_limit: u64::MAX,
            zstd_level: WriteOptions::default().level,
            wdl_only: false,
        }
    }
}

/// What generating (or skipping) one class came to.
#[derive(Clone, Debug)]
pub struct ClassReport {
    /// The class.
    pub material: Material,
    /// Its table file (for a skipped class, the file already present).
    pub path: PathBuf,
    /// The class was present and verified, and left as it was.
    pub skipped: bool,
    /// Table positions: one per number of the class's index (for a skipped
    /// class, the file's count N, in the file's own numbering).
    pub positions: u64,
    /// The index's counts: distinct positions and the size without the mirror fold.
    pub index: IndexStats,
    /// Positions the side to move (white) wins.
    pub wins: u64,
    /// Positions that are draws.
    pub draws: u64,
    /// Positions the side to move (white) loses.
    pub losses: u64,
    /// The table holds distances to mate (false: win/draw/loss only).
    pub has_dtm: bool,
    /// The longest DTM of the class, in plies (0 for a win/draw/loss-only
    /// table).
    pub max_dtm: u32,
    /// Seconds of the class pair's `init` phase: indexes, memory check,
    /// tables one pawn below (shared by both classes of a class pair; 0 for
    /// a skipped class).
    pub init_seconds: f64,
    /// Seconds of the class pair's `solve` phase, the one pass over both
    /// classes (shared; 0 for a skipped class).
    pub solve_seconds: f64,
    /// Seconds of the class pair's `write` phase, both checksummed files
    /// (shared; 0 for a skipped class).
    pub write_seconds: f64,
    /// Estimated peak memory of the class pair, bytes.
    pub memory: u64,
}

/// The class pairs to generate for a target, lowest total first; a class
/// pair whose classes are the same (`2v2`) has one class.
pub fn plan(target: Target) -> Vec<Vec<Material>> {
    let (max_total, only) = match target {
        Target::MaxPawns(n) => (n, None),
        Target::Class(m) => (m.total(), Some(m)),
    };
    let mut class_pairs = Vec::new();
    for m in Material::up_to(max_total) {
        if m.white < m.black {
            continue;
        }
        if m.total() == max_total {
            if let Some(only) = only {
                if m != only && m != only.swapped() {
                    continue;
                }
            }
        }
        let mut class_pair = vec![m];
        if m.swapped() != m {
            class_pair.push(m.swapped());
        }
        class_pairs.push(class_pair);
    }
    class_pairs
}

/// The classes of one pawn fewer that the positions of a class pair reach
/// by a capture ([`Material::pair_captures`]) and the board can hold:
/// the only ones held while the class pair is solved (on 5x8, 9v4 + 4v9
/// reaches 8v4 and 3v9 of the eleven classes of 12 pawns).
pub fn captured_classes(
    board: crate::rules::variant::Board,
    class_pair: &[Material],
) -> Vec<Material> {
    class_pair[0]
        .pair_captures()
        .into_iter()
        .filter(|&m| has_positions(board, m))
        .collect()
}

/// Whether the board has positions of the class `m` with the game in
/// progress (a table's positions): white pawns stand on ranks 2..H-2, black
/// pawns on ranks 3..H-1, one pawn a square, so each side has at most
/// W(H-3) pawns and both together at most W(H-2) (and any such counts fit).
pub fn has_positions(board: crate::rules::variant::Board, m: Material) -> bool {
    let (w, h) = (board.width() as u32, board.height() as u32);
    let side = w * h.saturating_sub(3);
    m.white as u32 <= side && m.black as u32 <= side && m.total() as u32 <= w * (h - 2)
}

/// What a generation run reports as it goes.
#[derive(Clone, Copy, Debug)]
pub enum GenEvent<'a> {
    /// A line for the log: a class skipped or written, a phase's time.
    Line(&'a str),
    /// Solving the class pair `what`: `done` of `total` positions (sent
    /// each thousandth of the work, with [`GenConfig::progress`] only).
    Progress {
        /// The class pair being solved, as in `solve 3v2 + 2v3`.
        what: &'a str,
        /// Positions of the class pair valued so far.
        done: u64,
        /// Positions of the class pair in all.
        total: u64,
    },
}

/// Generates the tables of `target` into `config.out`, skipping classes
/// already present and verified; `events` hears of each step.
pub fn generate(
    config: &GenConfig,
    target: Target,
    events: &(dyn Fn(GenEvent) + Sync),
) -> Result<Vec<ClassReport>, GenError> {
    let log = &|line: &str| events(GenEvent::Line(line));
    let tablebase = Tablebase::new(&config.out, config.variant);
    let mut reports = Vec::new();
    // Classes the board cannot hold (on 4x5, 9v1) have no table.
    let class_pairs = plan(target)
        .into_iter()
        .filter(|class_pair| has_positions(config.variant.board, class_pair[0]));
    for class_pair in class_pairs {
        let present: Vec<Option<Arc<Table>>> = class_pair
            .iter()
            // Opened for this pair alone: the tablebase keeps none of them.
            .map(|&m| match tablebase.open_once(m).map(Arc::new) {
                Ok(t) if !config.wdl_only && !t.has_dtm() => {
                    log(&format!(
                        "{}: win/draw/loss only; generating it again with the DTM",
                        t.path().display()
                    ));
                    None
                }
                Ok(t) => Some(t),
                Err(TableError::Missing { .. }) => None,
                Err(e) => {
                    log(&format!("{e}; generating it again"));
                    None
                }
            })
            .collect();
        if present.iter().all(|t| t.is_some()) {
            for (&m, t) in class_pair.iter().zip(present) {
                let t = t.unwrap();
                log(&format!("{m}: present and verified, skipped"));
                reports.push(skipped_report(m, &t));
            }
            continue;
        }
        let load = Instant::now();
        let below = class_pair[0].total() - 1;
        // The classes one pawn below that the pair's captures reach,
        // decompressed into memory (random access while solving must be
        // fast). Each is reached from this pair alone, so none is kept for
        // the next. Opened afresh: the tablebase may hold a table of such a
        // class that the run has since made again.
        let lower = captured_classes(config.variant.board, &class_pair)
            .into_iter()
            .map(|m| {
                let table = Table::open(&tablebase.path_of(m), config.variant, m)?;
                Ok(Arc::new(if config.wdl_only {
                    table.to_dense_wdl()?
                } else {
                    table.to_dense()?
                }))
            })
            .collect::<Result<Vec<Arc<DenseTable>>, TableError>>()?;
        if below >= 2 {
            log(&format!(
                "classes of {below} pawns decompressed in {:.2} s",
                load.elapsed().as_secs_f64()
            ));
        }
        let mut made = if config.wdl_only {
            generate_class_pair::<PackedSlots>(config, lower, &class_pair, &present, events)?
        } else {
            generate_class_pair::<ByteSlots>(config, lower, &class_pair, &[], events)?
        };
        reports.append(&mut made);
        // What the pair's threads freed, before the next pair's peak.
        crate::memory::release_freed();
    }
    Ok(reports)
}

/// Why generation stopped.
#[derive(Debug, thiserror::Error)]
pub enum GenError {
    /// A table one pawn below could not be read, or a new table not written.
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(
        "class {classes} needs about {need} MiB of memory and {have} MiB may be used; not started"
    )]
    /// The class pair's estimated memory exceeds
    /// [`GenConfig::memory_limit`]; nothing was done for it.
    OutOfMemory {
        /// The class pair, as in `3v2 + 2v3`.
        classes: String,
        /// MiB the class pair needs, estimated.
        need: u64,
        /// MiB the memory limit allows.
        have: u64,
    },
}

fn skipped_report(material: Material, table: &Table) -> ClassReport {
    let h = table.header();
    let mut r = empty_report(material);
    r.positions = h.positions;
    r.wins = h.wins;
    r.draws = h.draws;
    r.losses = h.losses;
    r.max_dtm = h.max_dtm;
    r.has_dtm = h.has_dtm();
    r.index = table.index().stats();
    r.path = table.path().to_path_buf();
    r.skipped = true;
    r
}

fn empty_report(material: Material) -> ClassReport {
    ClassReport {
        material,
        path: PathBuf::new(),
        skipped: false,
        positions: 0,
        index: IndexStats {
            len: 0,
            distinct: 0,
            unfolded: 0,
        },
        wins: 0,
        draws: 0,
        losses: 0,
        has_dtm: true,
        max_dtm: 0,
        init_seconds: 0.0,
        solve_seconds: 0.0,
        write_seconds: 0.0,
        memory: 0,
    }
}

/// A report of the solved values of one class.
fn count_values<S: Slots>(material: Material, values: &S) -> ClassReport {
    let (wins, draws, losses, max_dtm) = (0..values.len())
        .into_par_iter()
        .fold(
            || (0u64, 0u64, 0u64, 0u32),
            |mut c, i| {
                match values.get(i) {
                    Some(Value::Win(d)) => {
                        c.0 += 1;
                        c.3 = c.3.max(d as u32);
                    }
                    Some(Value::Loss(d)) => {
                        c.2 += 1;
                        c.3 = c.3.max(d as u32);
                    }
                    _ => c.1 += 1,
                }
                c
            },
        )
        .reduce(
            || (0, 0, 0, 0),
            |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3.max(b.3)),
        );
    let n = values.len();
    ClassReport {
        positions: n,
        index: IndexStats {
            len: n,
            distinct: n,
            unfolded: n,
        },
        wins,
        draws,
        losses,
        has_dtm: !S::WDL_ONLY,
        max_dtm: if S::WDL_ONLY { 0 } else { max_dtm },
        ..empty_report(material)
    }
}

/// The values of one class while its class pair is solved, one slot per
/// index number. Every slot starts unknown and is set once; two threads
/// valuing the same position at once set the same value.
trait Slots: Sync + Sized {
    /// Win, draw or loss only: [`Slots::get`] gives [`stand_in`] values.
    const WDL_ONLY: bool;
    /// `n` unknown slots, in memory asked for huge pages (the solver
    /// reads and sets them at random); `None` if the system refuses it.
    fn new(n: u64) -> Option<Self>;
    /// Bytes `n` slots take.
    fn bytes(n: u64) -> u64;
    /// Bytes the writer of a class of `n` slots holds besides them.
    fn write_bytes(n: u64, opts: &WriteOptions) -> u64;
    fn len(&self) -> u64;
    fn get(&self, i: u64) -> Option<Value>;
    fn set(&self, i: u64, v: Value);
    /// The value of a table position of a class one pawn below.
    fn lower(table: &DenseTable, pos: &Position) -> Result<Value, TableError>;
    /// Writes the class's table file.
    fn write(
        self,
        config: &GenConfig,
        material: Material,
        opts: &WriteOptions,
    ) -> Result<PathBuf, TableError>;
}

/// One [`Value::to_byte`] byte a slot, 0 unknown: the DTM generator.
struct ByteSlots(ZeroedMap<AtomicU8>);

impl Slots for ByteSlots {
    const WDL_ONLY: bool = false;

    fn new(n: u64) -> Option<ByteSlots> {
        ZeroedMap::new(usize::try_from(n).ok()?).ok().map(ByteSlots)
    }

    fn bytes(n: u64) -> u64 {
        n
    }

    /// The values in the stored order and split into their two sections,
    /// a byte a position each ([`crate::table::encode_table`]).
    fn write_bytes(n: u64, opts: &WriteOptions) -> u64 {
        3 * n + write_memory_bound(n, opts)
    }

    fn len(&self) -> u64 {
        self.0.len() as u64
    }

    #[inline]
    fn get(&self, i: u64) -> Option<Value> {
        Value::from_byte(self.0[i as usize].load(Ordering::Relaxed))
    }

    #[inline]
    fn set(&self, i: u64, v: Value) {
        self.0[i as usize].store(v.to_byte(), Ordering::Relaxed);
    }

    #[inline]
    fn lower(table: &DenseTable, pos: &Position) -> Result<Value, TableError> {
        table.get(pos)
    }

    fn write(
        self,
        config: &GenConfig,
        material: Material,
        opts: &WriteOptions,
    ) -> Result<PathBuf, TableError> {
        let values = self.0.into_plain();
        debug_assert!(
            values.iter().all(|&b| b != 0),
            "a position of {material} was left without a value"
        );
        write_table_with(&config.out, config.variant, material, &values, opts)
    }
}

/// Win, draw or loss at 2 bits a slot, 32 to a word: 0 unknown, 1 loss,
/// 2 draw, 3 win. The win/draw/loss-only generator.
struct PackedSlots {
    words: ZeroedMap<AtomicU64>,
    len: u64,
}

impl PackedSlots {
    #[inline]
    fn code(&self, i: u64) -> u64 {
        (self.words[(i / 32) as usize].load(Ordering::Relaxed) >> (2 * (i % 32))) & 3
    }
}

impl Slots for PackedSlots {
    const WDL_ONLY: bool = true;

    fn new(n: u64) -> Option<PackedSlots> {
        Some(PackedSlots {
            words: ZeroedMap::new(usize::try_from(n.div_ceil(32)).ok()?).ok()?,
            len: n,
        })
    }

    fn bytes(n: u64) -> u64 {
        n.div_ceil(32) * 8
    }

    fn write_bytes(n: u64, opts: &WriteOptions) -> u64 {
        write_memory_bound(n, opts)
    }

    fn len(&self) -> u64 {
        self.len
    }

    #[inline]
    fn get(&self, i: u64) -> Option<Value> {
        match self.code(i) {
            0 => None,
            1 => Some(stand_in(Wdl::Loss)),
            2 => Some(stand_in(Wdl::Draw)),
            _ => Some(stand_in(Wdl::Win)),
        }
    }

    #[inline]
    fn set(&self, i: u64, v: Value) {
        let code = match v.wdl() {
            Wdl::Loss => 1u64,
            Wdl::Draw => 2,
            Wdl::Win => 3,
        };
        // The other slots of the word may be set at the same time: one
        // atomic or sets these two bits alone. A slot is set from unknown
        // (0), or again to the same value.
        let shift = 2 * (i % 32);
        let old = self.words[(i / 32) as usize].fetch_or(code << shift, Ordering::Relaxed);
        let before = (old >> shift) & 3;
        debug_assert!(before == 0 || before == code, "slot {i} set to two values");
    }

    #[inline]
    fn lower(table: &DenseTable, pos: &Position) -> Result<Value, TableError> {
        table.get_wdl(pos).map(stand_in)
    }

    fn write(
        self,
        config: &GenConfig,
        material: Material,
        opts: &WriteOptions,
    ) -> Result<PathBuf, TableError> {
        let wdl = |i: u64| match self.code(i) {
            1 => Wdl::Loss,
            2 => Wdl::Draw,
            3 => Wdl::Win,
            _ => panic!("a position of {material} was left without a value"),
        };
        write_wdl_table_with(&config.out, config.variant, material, &wdl, opts)
    }
}

/// The values of a class pair while they are being found.
struct PairSolver<'a, S> {
    classes: Vec<(Material, &'a Index, &'a S)>,
    lower: Vec<Arc<DenseTable>>,
}

impl<S: Slots> PairSolver<'_, S> {
    /// The slot of class `m` of the class pair, if it is one.
    #[inline]
    fn class(&self, m: Material) -> Option<(&Index, &S)> {
        self.classes
            .iter()
            .find(|c| c.0 == m)
            .map(|&(_, index, values)| (index, values))
    }

    /// The value in `slot` of `values`, known or found now by `solve`.
    #[inline]
    fn lookup(
        values: &S,
        slot: u64,
        solve: impl FnOnce() -> Result<Value, TableError>,
    ) -> Result<Value, TableError> {
        if let Some(v) = values.get(slot) {
            return Ok(v);
        }
        let v = solve()?;
        values.set(slot, v);
        Ok(v)
    }

    /// The value of a table position of the class pair from its moves'
    /// values.
    ///
    /// A quiet move that leaves the pawn below rank H-1 ends nothing and
    /// gives black no en passant right unless it is a double step beside a
    /// black pawn, so (colour-flipped) it leads straight to a table position
    /// of the partner class whose white pawns are this position's black
    /// pawns: their part of the number is found once for all such moves.
    /// Every other move goes through the general [`value`].
    fn solve(&self, pos: &Position) -> Result<Value, TableError> {
        let partner = self.partner(Material::of(pos));
        let h = pos.board().height();
        let key = partner.0.white_key(pos.pawns(Color::Black).mirror_ranks(h));
        self.solve_keyed(pos, partner, &key)
    }

    /// The index and values of the partner of class `m` (its colours
    /// swapped), which holds the positions after its quiet moves.
    #[inline]
    fn partner(&self, m: Material) -> (&Index, &S) {
        self.class(m.swapped()).expect("the partner is in the pair")
    }

    /// [`PairSolver::solve`] given the partner's index and values and the
    /// part of the partner's numbers that `pos`'s black pawns fix (the
    /// same for every position with those black pawns: the pass finds it
    /// once for each black set).
    fn solve_keyed(
        &self,
        pos: &Position,
        (p_index, p_values): (&Index, &S),
        key: &WhiteKey,
    ) -> Result<Value, TableError> {
        let board = pos.board();
        let h = board.height();
        let past_table = board.rank_mask(h - 2) | board.rank_mask(h - 1);
        let mut best: Option<Value> = None;
        for &m in pos.legal_moves().iter() {
            let quiet = matches!(m.kind, MoveKind::Push | MoveKind::DoublePush);
            let child = pos.play(m);
            let v = if quiet && !past_table.contains(m.to) && child.ep_square().is_none() {
                let black = child.pawns(Color::White).mirror_ranks(h);
                let slot = p_index.rank_black(key, black);
                Self::lookup(p_values, slot, || self.solve(&child.flipped()))?
            } else {
                value(self, &child)?
            }
            .before_move();
            if best.is_none_or(|b| v > b) {
                best = Some(v);
                // No better value than a win in 1; without distances, no
                // better one than any win.
                if v == Value::Win(1) || (S::WDL_ONLY && v.wdl() == Wdl::Win) {
                    break;
                }
            }
        }
        Ok(best.unwrap_or(Value::Draw))
    }
}

impl<S: Slots> TableValues for PairSolver<'_, S> {
    type Error = TableError;

    #[inline]
    fn table_value(&self, pos: &Position) -> Result<Value, TableError> {
        let m = Material::of(pos);
        if let Some((index, values)) = self.class(m) {
            let slot = index.rank(pos);
            return Self::lookup(values, slot, || self.solve(pos));
        }
        match self.lower.iter().find(|t| t.index().material() == m) {
            Some(t) => S::lower(t, pos),
            None => unreachable!("class {m} is neither in the pair nor one pawn below it"),
        }
    }
}

/// A class's pawn sets by advancement (the number of steps its pawns have
/// made from their second rank), to visit positions layer by layer.
struct Layers {
    /// Canonical white sets (those the index keeps), by advancement, each
    /// with its part of the index's numbers (found once, not once for
    /// each of its positions: a lookup that misses the cache).
    white: Vec<Vec<(Bitboard, WhiteKey)>>,
    /// Every black set with its advancement.
    black_sets: Vec<(Bitboard, u32)>,
}

impl Layers {
    fn new(index: &Index) -> Layers {
        let board = index.variant().board;
        let h = board.height() as u32;
        let mut white: Vec<Vec<(Bitboard, WhiteKey)>> = Vec::new();
        for &set in index.white_sets() {
            let adv: u32 = set.map(|sq| sq.rank() as u32 - 1).sum();
            if white.len() <= adv as usize {
                white.resize(adv as usize + 1, Vec::new());
            }
            white[adv as usize].push((set, index.white_key(set)));
        }
        let black_sets = index
            .black_sets()
            .map(|set| (set, set.map(|sq| h - 2 - sq.rank() as u32).sum()))
            .collect();
        Layers { white, black_sets }
    }

    fn max_advance(&self) -> u32 {
        let black = self.black_sets.iter().map(|b| b.1).max().unwrap_or(0);
        self.white.len().saturating_sub(1) as u32 + black
    }

    fn white_by_advance(&self, adv: u32) -> &[(Bitboard, WhiteKey)] {
        self.white.get(adv as usize).map_or(&[], |v| v.as_slice())
    }
}

/// Counts a class pair's solved positions across threads and reports each
/// thousandth of the work as a [`GenEvent::Progress`].
struct Progress<'a> {
    what: String,
    total: u64,
    done: AtomicU64,
    events: Option<&'a (dyn Fn(GenEvent) + Sync)>,
}

impl Progress<'_> {
    fn add(&self, n: u64) {
        let Some(events) = self.events else {
            return;
        };
        if n == 0 {
            return;
        }
        let before = self.done.fetch_add(n, Ordering::Relaxed);
        let step = |x: u64| x * 1000 / self.total.max(1);
        if step(before + n) > step(before) {
            events(GenEvent::Progress {
                what: &self.what,
                done: before + n,
                total: self.total,
            });
        }
    }
}

/// Solves a class pair and writes its tables, but for the classes whose
/// table in `keep` is present (the partner of a missing class, solved
/// with it): those are left as they are and reported as skipped.
fn generate_class_pair<S: Slots>(
    config: &GenConfig,
    lower: Vec<Arc<DenseTable>>,
    class_pair: &[Material],
    keep: &[Option<Arc<Table>>],
    events: &(dyn Fn(GenEvent) + Sync),
) -> Result<Vec<ClassReport>, GenError> {
    let log = |line: &str| events(GenEvent::Line(line));
    let names: Vec<String> = class_pair.iter().map(|m| m.to_string()).collect();
    let names = names.join(" + ");
    let start = Instant::now();

    // init: indexes, the memory check, the tables one pawn below.
    let indexes: Vec<Index> = class_pair
        .iter()
        .map(|&m| Index::new(config.variant, m))
        .collect();
    let sizes: Vec<u64> = indexes.iter().map(|i| i.len()).collect();
    let total: u64 = sizes.iter().sum();
    let opts = WriteOptions {
        level: config.zstd_level,
        ..WriteOptions::default()
    };
    // The class pair's values and indexes, and beside them the classes one
    // pawn below held decompressed (with their indexes) while the class
    // pair is solved, or what a class's writer holds once they are gone.
    let held = lower
        .iter()
        .map(|t| t.values_bytes() + t.index().memory_bytes())
        .sum::<u64>();
    let writer = sizes.iter().map(|&n| S::write_bytes(n, &opts)).max();
    let memory = sizes.iter().map(|&n| S::bytes(n)).sum::<u64>()
        + indexes.iter().map(|i| i.memory_bytes()).sum::<u64>()
        + held.max(writer.unwrap_or(0));
    if memory > config.memory_limit {
        return Err(GenError::OutOfMemory {
            classes: names,
            need: memory >> 20,
            have: config.memory_limit >> 20,
        });
    }
    let values: Vec<S> = sizes
        .iter()
        .map(|&n| S::new(n))
        .collect::<Option<_>>()
        .ok_or_else(|| GenError::OutOfMemory {
            classes: names.clone(),
            need: memory >> 20,
            have: crate::memory::available().unwrap_or(config.memory_limit) >> 20,
        })?;
    let init_seconds = start.elapsed().as_secs_f64();
    log(&format!(
        "{names}: {total} positions, about {} MiB; init {init_seconds:.2} s",
        (memory >> 20).max(1)
    ));

    // solve: one pass over both classes.
    let t = Instant::now();
    {
        let solver = PairSolver {
            classes: class_pair
                .iter()
                .zip(&indexes)
                .zip(&values)
                .map(|((&m, i), v)| (m, i, v))
                .collect(),
            lower,
        };
        let progress = Progress {
            what: format!("solve {names}"),
            total,
            done: AtomicU64::new(0),
            events: config.progress.then_some(events),
        };
        // Layers of equal advancement, the most advanced first: every move
        // advances a pawn, so a position's successors in the class pair lie
        // in layers already solved. (Were one not, the solver would value
        // it first, depth-first: the order is for speed, not correctness.)
        // Within a layer, positions are grouped by black's pawns: all quiet
        // successors of a group then share one block of the partner class,
        // which stays in cache. The part of a position's number that its
        // white pawns fix, and the part of its quiet successors' numbers
        // that its black pawns fix, are found once for each set rather
        // than for each position.
        let layers: Vec<Layers> = indexes.iter().map(Layers::new).collect();
        let top = layers.iter().map(|l| l.max_advance()).max().unwrap_or(0);
        let h = config.variant.board.height();
        for advance in (0..=top).rev() {
            for (c, index) in indexes.iter().enumerate() {
                let l = &layers[c];
                let own = &values[c];
                let partner = solver.partner(class_pair[c]);
                l.black_sets
                    .par_iter()
                    .try_for_each(|&(black, black_adv)| {
                        if black_adv > advance {
                            return Ok(());
                        }
                        let key = partner.0.white_key(black.mirror_ranks(h));
                        let mut done = 0;
                        for (white, white_key) in l.white_by_advance(advance - black_adv) {
                            if (*white & black).is_empty() {
                                let slot = index.rank_black(white_key, black);
                                PairSolver::lookup(own, slot, || {
                                    let pos = Position::from_parts_unchecked(
                                        index.variant(),
                                        ByColor {
                                            white: *white,
                                            black,
                                        },
                                        Color::White,
                                        None,
                                    );
                                    solver.solve_keyed(&pos, partner, &key)
                                })?;
                                done += 1;
                            }
                        }
                        progress.add(done);
                        Ok::<(), TableError>(())
                    })?;
            }
        }
    }
    let solve_seconds = t.elapsed().as_secs_f64();
    log(&format!(
        "{names}: solve {solve_seconds:.2} s, {:.0} positions/s, peak memory of the process so far {} MiB",
        total as f64 / solve_seconds.max(1e-9),
        peak_memory().unwrap_or(0) >> 20
    ));

    // write: checksummed files under temporary names, then renamed.
    let t = Instant::now();
    let mut reports = Vec::new();
    for (k, ((&m, v), index)) in class_pair.iter().zip(values).zip(&indexes).enumerate() {
        if let Some(Some(t)) = keep.get(k) {
            log(&format!(
                "{m}: present and verified, kept ({} solved with its partner)",
                if t.has_dtm() {
                    "its distances are not overwritten;"
                } else {
                    "the same values;"
                }
            ));
            reports.push(skipped_report(m, t));
            continue;
        }
        let mut r = count_values(m, &v);
        r.index = index.stats();
        r.path = v.write(config, m, &opts)?;
        reports.push(r);
    }
    let write_seconds = t.elapsed().as_secs_f64();
    for r in reports.iter_mut().filter(|r| !r.skipped) {
        r.init_seconds = init_seconds;
        r.solve_seconds = solve_seconds;
        r.write_seconds = write_seconds;
        r.memory = memory;
        let longest = if S::WDL_ONLY {
            "win/draw/loss only".to_string()
        } else {
            format!("longest DTM {}", r.max_dtm)
        };
        log(&format!(
            "{}: {} positions, {} wins, {} draws, {} losses, {longest}; write {write_seconds:.2} s -> {}",
            r.material,
            r.positions,
            r.wins,
            r.draws,
            r.losses,
            r.path.display()
        ));
    }
    Ok(reports)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `has_positions` is the index's word: a class has positions exactly
    /// when its index is not empty (every small board, every class up to
    /// one pawn more than the board holds).
    #[test]
    fn classes_with_positions_are_those_the_index_counts() {
        use crate::rules::variant::{Board, Rules};
        for (w, h) in [
            (1, 4),
            (2, 4),
            (3, 4),
            (4, 4),
            (1, 5),
            (2, 5),
            (3, 5),
            (4, 5),
            (2, 6),
            (3, 6),
            (1, 8),
            (2, 8),
        ] {
            let board = Board::new(w, h).unwrap();
            let variant = Variant::new(board, Rules::default());
            let most = w as u32 * (h as u32 - 2);
            for m in Material::up_to(most as u8 + 1) {
                let len = Index::new(variant, m).len();
                assert_eq!(
                    has_positions(board, m),
                    len > 0,
                    "{board} {m}: {len} positions"
                );
            }
        }
    }

    /// The classes held while a class pair is solved are exactly those
    /// its positions' captures reach (from white's view, as `value` asks
    /// the tables): none missing, which would stop the generator, and none
    /// spare, which would hold memory for nothing. Every position of every
    /// class pair up to 8 pawns on small boards, with and without en
    /// passant (an en passant capture takes a pawn of the same class as any
    /// capture by its side).
    #[test]
    fn held_classes_are_those_captures_reach() {
        use crate::rules::variant::{Board, Rules};
        use std::collections::BTreeSet;
        for (w, h, ep) in [(3, 5, true), (4, 5, false), (3, 6, true), (2, 8, true)] {
            let board = Board::new(w, h).unwrap();
            let rules = Rules {
                en_passant: ep,
                ..Rules::default()
            };
            let variant = Variant::new(board, rules);
            for class_pair in plan(Target::MaxPawns(8))
                .into_iter()
                .filter(|p| has_positions(board, p[0]))
            {
                let mut met = BTreeSet::new();
                for &m in &class_pair {
                    let index = Index::new(variant, m);
                    for i in 0..index.len() {
                        let pos = index.unrank(i);
                        for &mv in pos.legal_moves().iter() {
                            let child = pos.play(mv).flipped();
                            let c = Material::of(&child);
                            if c.total() < m.total() && c.white > 0 && c.black > 0 {
                                met.insert(c);
                            }
                        }
                    }
                }
                let held: BTreeSet<Material> =
                    captured_classes(board, &class_pair).into_iter().collect();
                assert_eq!(held, met, "{board} en passant {ep}: {class_pair:?}");
            }
        }
    }

    #[test]
    fn plan_orders_pairs_by_total() {
        let names: Vec<String> = plan(Target::MaxPawns(4))
            .iter()
            .map(|p| {
                p.iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join("+")
            })
            .collect();
        assert_eq!(names, ["1v1", "2v1+1v2", "3v1+1v3", "2v2"]);
        let names: Vec<String> = plan(Target::Class("2v3".parse().unwrap()))
            .iter()
            .map(|p| {
                p.iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join("+")
            })
            .collect();
        assert_eq!(names, ["1v1", "2v1+1v2", "3v1+1v3", "2v2", "3v2+2v3"]);
    }
}
