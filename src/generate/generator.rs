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

use crate::index::domain::{value, TableValues};
use crate::index::material::Material;
use crate::index::{Index, IndexStats};
use crate::memory::peak as peak_memory;
use crate::rules::bitboard::Bitboard;
use crate::rules::color::{ByColor, Color};
use crate::rules::moves::MoveKind;
use crate::rules::position::Position;
use crate::rules::value::Value;
use crate::rules::variant::Variant;
use crate::table::{write_table_with, DenseTable, Table, TableError, Tablebase, WriteOptions};
use rayon::prelude::*;
use std::collections::HashMap;
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
    /// The longest DTM of the class, in plies.
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
    // The classes one pawn below the class pair being solved, decompressed
    // into memory once (random access while solving must be fast).
    let mut dense: HashMap<Material, Arc<DenseTable>> = HashMap::new();
    // Classes the board cannot hold (on 4x5, 9v1) have no table.
    let class_pairs = plan(target)
        .into_iter()
        .filter(|class_pair| has_positions(config.variant.board, class_pair[0]));
    for class_pair in class_pairs {
        let present: Vec<Option<Arc<Table>>> = class_pair
            .iter()
            .map(|&m| match tablebase.table(m) {
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
        dense.retain(|m, _| m.total() == below);
        for m in Material::up_to(below)
            .into_iter()
            .filter(|&m| m.total() == below && has_positions(config.variant.board, m))
        {
            if let std::collections::hash_map::Entry::Vacant(e) = dense.entry(m) {
                e.insert(Arc::new(tablebase.table(m)?.to_dense()?));
            }
        }
        let lower: Vec<Arc<DenseTable>> = dense.values().cloned().collect();
        if below >= 2 {
            log(&format!(
                "classes of {below} pawns decompressed in {:.2} s",
                load.elapsed().as_secs_f64()
            ));
        }
        reports.extend(generate_class_pair(config, lower, &class_pair, events)?);
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
    let mut r = count_values(material, &[]);
    r.positions = h.positions;
    r.wins = h.wins;
    r.draws = h.draws;
    r.losses = h.losses;
    r.max_dtm = h.max_dtm;
    r.index = table.index().stats();
    r.path = table.path().to_path_buf();
    r.skipped = true;
    r
}

fn count_values(material: Material, values: &[u8]) -> ClassReport {
    let (wins, draws, losses, max_dtm) = values
        .par_chunks(1 << 16)
        .map(|chunk| {
            let mut c = (0u64, 0u64, 0u64, 0u32);
            for &b in chunk {
                match Value::from_byte(b) {
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
            }
            c
        })
        .reduce(
            || (0, 0, 0, 0),
            |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3.max(b.3)),
        );
    ClassReport {
        material,
        path: PathBuf::new(),
        skipped: false,
        positions: values.len() as u64,
        index: IndexStats {
            len: values.len() as u64,
            distinct: values.len() as u64,
            unfolded: values.len() as u64,
        },
        wins,
        draws,
        losses,
        max_dtm,
        init_seconds: 0.0,
        solve_seconds: 0.0,
        write_seconds: 0.0,
        memory: 0,
    }
}

/// The values of a class pair while they are being found.
struct PairSolver<'a> {
    classes: Vec<(Material, &'a Index, &'a [AtomicU8])>,
    lower: Vec<Arc<DenseTable>>,
}

impl PairSolver<'_> {
    /// The slot of class `m` of the class pair, if it is one.
    #[inline]
    fn class(&self, m: Material) -> Option<(&Index, &[AtomicU8])> {
        self.classes
            .iter()
            .find(|c| c.0 == m)
            .map(|&(_, index, values)| (index, values))
    }

    /// The value of a table position of the class pair, known or found now.
    #[inline]
    fn lookup(
        &self,
        values: &[AtomicU8],
        slot: u64,
        pos: impl FnOnce() -> Position,
    ) -> Result<Value, TableError> {
        let slot = &values[slot as usize];
        if let Some(v) = Value::from_byte(slot.load(Ordering::Relaxed)) {
            return Ok(v);
        }
        let v = self.solve(&pos())?;
        slot.store(v.to_byte(), Ordering::Relaxed);
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
        let board = pos.board();
        let h = board.height();
        let past_table = board.rank_mask(h - 2) | board.rank_mask(h - 1);
        let partner = Material::of(pos).swapped();
        let (p_index, p_values) = self.class(partner).expect("the partner is in the pair");
        let key = p_index.white_key(pos.pawns(Color::Black).mirror_ranks(h));
        let mut best: Option<Value> = None;
        for &m in pos.legal_moves().iter() {
            let quiet = matches!(m.kind, MoveKind::Push | MoveKind::DoublePush);
            let child = pos.play(m);
            let v = if quiet && !past_table.contains(m.to) && child.ep_square().is_none() {
                let black = child.pawns(Color::White).mirror_ranks(h);
                let slot = p_index.rank_black(&key, black);
                self.lookup(p_values, slot, || child.flipped())?
            } else {
                value(self, &child)?
            }
            .before_move();
            if best.is_none_or(|b| v > b) {
                best = Some(v);
                if v == Value::Win(1) {
                    break;
                }
            }
        }
        Ok(best.unwrap_or(Value::Draw))
    }
}

impl TableValues for PairSolver<'_> {
    type Error = TableError;

    #[inline]
    fn table_value(&self, pos: &Position) -> Result<Value, TableError> {
        let m = Material::of(pos);
        if let Some((index, values)) = self.class(m) {
            let slot = index.rank(pos);
            return self.lookup(values, slot, || *pos);
        }
        match self.lower.iter().find(|t| t.index().material() == m) {
            Some(t) => t.get(pos),
            None => unreachable!("class {m} is neither in the pair nor one pawn below it"),
        }
    }
}

/// A class's pawn sets by advancement (the number of steps its pawns have
/// made from their second rank), to visit positions layer by layer.
struct Layers {
    /// Canonical white sets (those the index keeps), by advancement.
    white: Vec<Vec<Bitboard>>,
    /// Every black set with its advancement.
    black_sets: Vec<(Bitboard, u32)>,
}

impl Layers {
    fn new(index: &Index) -> Layers {
        let board = index.variant().board;
        let h = board.height() as u32;
        let mut white: Vec<Vec<Bitboard>> = Vec::new();
        for &set in index.white_sets() {
            let adv: u32 = set.map(|sq| sq.rank() as u32 - 1).sum();
            if white.len() <= adv as usize {
                white.resize(adv as usize + 1, Vec::new());
            }
            white[adv as usize].push(set);
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

    fn white_by_advance(&self, adv: u32) -> &[Bitboard] {
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

/// A byte slice seen as atomics, so both threads may fill it.
fn as_atomic(bytes: &mut [u8]) -> &[AtomicU8] {
    // Safety: AtomicU8 has the same size, alignment and bit validity as u8,
    // and the exclusive borrow keeps every other access out while the
    // returned slice lives.
    unsafe { &*(bytes as *mut [u8] as *const [AtomicU8]) }
}

fn generate_class_pair(
    config: &GenConfig,
    lower: Vec<Arc<DenseTable>>,
    class_pair: &[Material],
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
    // The class pair's values and indexes, and the classes one pawn below
    // held decompressed (with their indexes) while the class pair is
    // solved.
    let memory = total
        + indexes.iter().map(|i| i.memory_bytes()).sum::<u64>()
        + lower
            .iter()
            .map(|t| t.raw_values().len() as u64 + t.index().memory_bytes())
            .sum::<u64>();
    if memory > config.memory_limit {
        return Err(GenError::OutOfMemory {
            classes: names,
            need: memory >> 20,
            have: config.memory_limit >> 20,
        });
    }
    let mut values: Vec<Vec<u8>> = sizes.iter().map(|&n| vec![0u8; n as usize]).collect();
    let init_seconds = start.elapsed().as_secs_f64();
    log(&format!(
        "{names}: {total} positions, about {} MiB; init {init_seconds:.2} s",
        (memory >> 20).max(1)
    ));

    // solve: one pass over both classes.
    let t = Instant::now();
    {
        let atomics: Vec<&[AtomicU8]> = values.iter_mut().map(|v| as_atomic(v)).collect();
        let solver = PairSolver {
            classes: class_pair
                .iter()
                .zip(&indexes)
                .zip(&atomics)
                .map(|((&m, i), &a)| (m, i, a))
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
        // which stays in cache.
        let layers: Vec<Layers> = indexes.iter().map(Layers::new).collect();
        let top = layers.iter().map(|l| l.max_advance()).max().unwrap_or(0);
        for advance in (0..=top).rev() {
            for (c, index) in indexes.iter().enumerate() {
                let l = &layers[c];
                l.black_sets
                    .par_iter()
                    .try_for_each(|&(black, black_adv)| {
                        if black_adv > advance {
                            return Ok(());
                        }
                        let mut done = 0;
                        for &white in l.white_by_advance(advance - black_adv) {
                            if (white & black).is_empty() {
                                let pos = Position::from_parts_unchecked(
                                    index.variant(),
                                    ByColor { white, black },
                                    Color::White,
                                    None,
                                );
                                solver.table_value(&pos)?;
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
    for ((&m, v), index) in class_pair.iter().zip(&values).zip(&indexes) {
        debug_assert!(
            v.iter().all(|&b| b != 0),
            "a position of {m} was left without a value"
        );
        let opts = WriteOptions {
            level: config.zstd_level,
            ..WriteOptions::default()
        };
        let path = write_table_with(&config.out, config.variant, m, v, &opts)?;
        let mut r = count_values(m, v);
        r.index = index.stats();
        r.path = path;
        reports.push(r);
    }
    let write_seconds = t.elapsed().as_secs_f64();
    for r in &mut reports {
        r.init_seconds = init_seconds;
        r.solve_seconds = solve_seconds;
        r.write_seconds = write_seconds;
        r.memory = memory;
        log(&format!(
            "{}: {} positions, {} wins, {} draws, {} losses, longest DTM {}; write {write_seconds:.2} s -> {}",
            r.material,
            r.positions,
            r.wins,
            r.draws,
            r.losses,
            r.max_dtm,
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
