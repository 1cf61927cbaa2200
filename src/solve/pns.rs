//! Depth-first proof-number search (df-pn, Nagai 2002) for the binary
//! questions "does this side win?", with the best child searched until the
//! node's own threshold ([`PnEpsilon::Stick`]; the 1+ε trick of Pawlewicz
//! and Lew as the alternative) and a transposition table keyed by the whole
//! canonical position and the question. Decisive results have small proof
//! trees; this finds them where alpha-beta ([`crate::solve::Solver`]) would have
//! to refute every alternative to the same depth.
//!
//! The search is written in negamax form over canonical positions (always
//! white to move, see [`crate::rules::canonical`]). A question fixes an attacker,
//! who wants to win; the defender wants not to lose (a draw is a failure of
//! the attacker). At every node the side to move has a goal (win if it is
//! the attacker, not lose if it is the defender) and the node carries two
//! numbers: φ, the proof number of "the side to move reaches its goal", and
//! δ, the proof number of "it does not" (φ = 0: reached; δ = 0: failed).
//! Then φ(n) = min δ(child) and δ(n) = Σ φ(child).
//!
//! The game is acyclic (every move advances a pawn), so there is no
//! graph-history interaction; transpositions only make sums count a shared
//! subtree twice, which costs efficiency, never correctness. Two moves that
//! lead to the same canonical position are one child.
//!
//! Leaves are those of the alpha-beta solver in win/draw/loss mode: a move
//! that ends the game by rule (the mover wins), stalemate (a draw), and
//! [`PnSolver::settled`]: fact 3's rule when there is no en passant right,
//! the shortcuts switched on (pure races, free runners, dead positions),
//! the tables of this board or a narrower one that hold the position. Only
//! the one-sided bound differs ([`crate::solve::Shortcuts::bound`]: here it
//! only disproves an attacker to move, and is off by default). Children
//! are tried in the order of [`crate::solve::order`].

use crate::rules::bound::may_win;
use crate::rules::canonical::{canonical_with, position_key};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::shortcuts::{stalemated_after_any_move, stalemates_at_once};
use crate::rules::value::Wdl;
use crate::solve::config::{PnConfig, PnEpsilon, PnInit};
use crate::solve::heaviest::Heaviest;
use crate::solve::keyset::{KeyHash, KeySet};
use crate::solve::leaf::{leaf_value, Counters, LeafValue, Tally};
use crate::solve::oracle::StartDeltas;
use crate::solve::order::{attacked_squares, guess_cost, pn_order, tuned_cost, weighted_cost};
use crate::solve::profile::{self, End};
use crate::solve::ternary;
use crate::solve::tt::{WordTt, Words, Writer, Zeroed};
use crate::solve::turns::{hand_in, Turns};
use crate::solve::types::{Proven, Question, RootSolution, Solution, SolveError, SolveStats};
use crate::table::Tablebase;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

/// A proof or disproof number; [`INF`] means the other number is 0.
type Number = u32;
/// Proven (as φ: the side to move cannot reach its goal; as δ: it has).
const INF: Number = Number::MAX;
/// The largest number of an unsolved node: sums saturate here.
const BIG: Number = INF - 1;
/// Slots of a bucket that hold any entry, open or solved: 20 bytes each.
const WIDE: usize = 2;
/// Slots of a bucket that hold solved entries only: 12 bytes each.
const NARROW: usize = 6;
/// The entries a bucket holds.
const BUCKET: usize = WIDE + NARROW;

/// One bucket's slots as 32-bit words: two wide slots of five words and
/// six narrow ones of three, 112 bytes, two cache lines with the lock
/// (room for a seventh narrow slot, but a ninth tag would have to be of
/// seven bits, and tags of seven bits let twice as many probes through to
/// the bucket for nothing: on 6x8-a in 256 MiB nine entries a bucket
/// searched 1.6% fewer nodes than eight and took 7% to 9% longer).
/// A slot's first three words are its key's ([`words`]), the third with
/// the work below the entry in its bits 18 to 31 ([`work_bits`]); a wide
/// slot's fourth and fifth are φ and δ, a narrow slot's entry is solved
/// and its third word's bit 17 says which way (1: φ = 0, the side to move
/// reaches its goal; 0: δ = 0). All zero: empty. Searches of one thread
/// leave nearly every entry solved (a child's search returns when it is),
/// so most of a table is narrow slots: eight entries where 28-byte entries
/// fitted four.
#[derive(Clone, Copy)]
#[repr(C)]
struct Bucket {
    words: [u32; 5 * WIDE + 3 * NARROW],
}

/// Where a key's own bits end in a slot's third word: its code's top 16
/// and the question.
const KEY_BITS: u32 = (1 << 17) - 1;
/// A narrow slot's bit of which way its entry is solved.
const REACHED: u32 = 1 << 17;

/// A key as the words a slot keeps: its code's three words, the third
/// with the question bit; `None` for a key no searched position has
/// ([`ternary::pack`]), which the table does not keep.
#[inline]
fn words(key: u128) -> Option<[u32; 3]> {
    let code = ternary::pack(key & !1)?;
    Some([
        code as u32,
        (code >> 32) as u32,
        (code >> 64) as u32 | (key as u32 & 1) << 16,
    ])
}

/// A count of nodes in the 14 bits a slot has for it: below 512 the
/// count itself; above, a mantissa of 9 bits (256 to 511) and the shift
/// that scales it (1 to 31), so counts keep their order and lose less
/// than a 256th, up to 511 x 2^31 (where they stay).
#[inline]
fn work_bits(work: u64) -> u32 {
    let shift = (64 - work.leading_zeros()).saturating_sub(9);
    if shift > 31 {
        return (31 << 9) | 511;
    }
    shift << 9 | (work >> shift) as u32
}

/// The count [`work_bits`] keeps.
#[inline]
fn work_of(bits: u32) -> u64 {
    u64::from(bits & 511) << (bits >> 9)
}

impl Bucket {
    /// The first word of slot `i`: the wide slots first.
    #[inline]
    fn at(i: usize) -> usize {
        if i < WIDE {
            5 * i
        } else {
            5 * WIDE + 3 * (i - WIDE)
        }
    }

    /// The entry in slot `i` (empty: [`Entry::is_empty`]).
    #[inline]
    fn entry(&self, i: usize) -> Entry {
        let w = &self.words[Self::at(i)..];
        let top = w[2];
        let (phi, delta) = if i < WIDE {
            (w[3], w[4])
        } else if top & REACHED != 0 {
            (0, INF)
        } else {
            (INF, 0)
        };
        Entry {
            key: [w[0], w[1], top & KEY_BITS],
            phi,
            delta,
            work: work_of(top >> 18),
        }
    }

    /// Every slot's entry, the wide ones first.
    #[inline]
    fn entries(&self) -> [Entry; BUCKET] {
        std::array::from_fn(|i| self.entry(i))
    }

    /// Which of the slots `among` holds the key whose words are `k`
    /// ([`words`]).
    #[inline]
    fn find(&self, mut among: impl Iterator<Item = usize>, k: [u32; 3]) -> Option<usize> {
        among.find(|&i| {
            let w = &self.words[Self::at(i)..];
            w[0] == k[0] && w[1] == k[1] && w[2] & KEY_BITS == k[2]
        })
    }

    /// What the entry in slot `i` keeps ([`Entry::keep`]).
    #[inline]
    fn keep_at(&self, i: usize) -> u64 {
        self.entry(i).keep()
    }

    /// The slot a new entry takes: of the slots that can hold it (any for
    /// a solved entry, a wide one for an open entry), the one that keeps
    /// least ([`Entry::keep`]; empty slots keep nothing), a narrow one
    /// where a solved entry has the choice.
    #[inline]
    fn lightest(&self, solved: bool) -> usize {
        // A solved entry looks at the narrow slots first: where they have
        // room, the wide ones stay for open entries.
        let narrow = if solved { WIDE..BUCKET } else { 0..0 };
        let (mut least, mut slot) = (u64::MAX, 0);
        for i in narrow.chain(0..WIDE) {
            let keep = self.keep_at(i);
            if keep < least {
                (least, slot) = (keep, i);
                if keep == 0 {
                    break;
                }
            }
        }
        slot
    }

    /// Writes `e` into slot `i` of the locked bucket: a narrow slot only
    /// takes a solved entry.
    #[inline]
    fn write(w: &Writer<'_, Bucket, 1>, i: usize, e: &Entry) {
        let at = Self::at(i);
        let flag = if i < WIDE {
            w.set(0, at + 3, e.phi);
            w.set(0, at + 4, e.delta);
            0
        } else {
            debug_assert!(e.solved(), "a narrow slot holds solved entries");
            if e.phi == 0 {
                REACHED
            } else {
                0
            }
        };
        w.set(0, at, e.key[0]);
        w.set(0, at + 1, e.key[1]);
        w.set(0, at + 2, e.key[2] | flag | work_bits(e.work) << 18);
    }
}

/// An entry as read from its slot, or to be written to one.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// The key's words ([`words`]); all zero for an empty slot (no code
    /// is 0).
    key: [u32; 3],
    phi: Number,
    delta: Number,
    /// Nodes searched below this entry ([`work_bits`] keeps them): what
    /// replacement keeps.
    work: u64,
}

impl Entry {
    #[inline]
    fn key(&self) -> u128 {
        let code = self.key[0] as u128
            | (self.key[1] as u128) << 32
            | ((self.key[2] & 0xffff) as u128) << 64;
        ternary::unpack(code).expect("entries hold codes of keys") | self.attacker_to_move() as u128
    }

    /// Whether the side to move is the attacker (the key's bit 0).
    #[inline]
    fn attacker_to_move(&self) -> bool {
        self.key[2] >> 16 & 1 == 1
    }

    /// Whether both entries are of one position (of either question).
    #[inline]
    fn same_position(&self, other: &Entry) -> bool {
        self.key[..2] == other.key[..2] && self.key[2] & 0xffff == other.key[2] & 0xffff
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.key == [0; 3]
    }

    #[inline]
    fn solved(&self) -> bool {
        self.phi == 0 || self.delta == 0
    }

    /// The entry as it leaves the transposition table.
    #[inline]
    fn to_pn(self) -> PnEntry {
        PnEntry {
            key: self.key(),
            phi: self.phi,
            delta: self.delta,
            work: self.work.min(u32::MAX as u64) as u32,
        }
    }

    /// What replacement keeps: big subtrees, and solved entries over
    /// unsolved ones of similar size.
    #[inline]
    fn keep(&self) -> u64 {
        if self.is_empty() {
            0
        } else if self.solved() {
            4 * self.work + 1
        } else {
            self.work + 1
        }
    }
}

// Safety: integers only; all zero is empty slots.
unsafe impl Zeroed for [Bucket; 1] {
    const SLOTS: usize = BUCKET;
}
// Safety: `Bucket` is `repr(C)` of 31 `u32`s, with no padding; any
// words are a valid (if meaningless) bucket, all zero an empty one.
unsafe impl Words for Bucket {}

/// One entry of a proof-number transposition table as it leaves the
/// process: the top of a search that ran out of budget
/// ([`PnSolver::heaviest`]), kept so that a later search of the same
/// question, in another transposition table, another process or another
/// sitting, starts where this one stopped ([`PnSolver::load_entries`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PnEntry {
    /// The question about a canonical position ([`position_key`] with bit
    /// 0 set when the side to move is the attacker).
    pub key: u128,
    /// Proof number (0: the side to move reaches its goal).
    pub phi: u32,
    /// Disproof number (0: it does not).
    pub delta: u32,
    /// Nodes searched below it.
    pub work: u32,
}

/// One position of a proof ([`PnSolver::proof`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofStep {
    /// The canonical position (white to move).
    pub pos: Position,
    /// Whether the side to move is the question's attacker (its goal is
    /// to win; the defender's is not to lose).
    pub attacker_to_move: bool,
    /// What the proof shows: whether the side to move reaches its goal.
    pub reaches: bool,
    /// Whether the proof ends here: decided by the rules (stalemate, a
    /// move that wins at once) or by the leaf knowledge, without children.
    pub leaf: bool,
}

/// The key of a question about a canonical position: its
/// [`position_key`], with bit 0 (square a1, where no white pawn can stand)
/// set when the side to move is the attacker.
#[inline]
pub(crate) fn tt_key(pos: &Position, attacker_to_move: bool) -> u128 {
    let k = position_key(pos);
    debug_assert_eq!(k & 1, 0, "a white pawn on a1");
    k | attacker_to_move as u128
}

/// The proof-number search's view of the shared [`Tt`]. Both questions
/// about a position share a bucket (the bucket is chosen by the key
/// without its question bit), so each answers the other where it can. A
/// probe compares the whole key: no collision can give a wrong answer.
struct TranspositionTable(WordTt<Bucket, 1>);

impl TranspositionTable {
    /// A transposition table of about `mb` MiB; 0 gives one bucket (for
    /// tests of replacement).
    fn new(mb: usize) -> Result<TranspositionTable, SolveError> {
        Ok(TranspositionTable(WordTt::with_mib(mb)?))
    }

    /// Starts loading the tags of `key`'s bucket into the cache: the probes
    /// of a node's children then wait for memory once, not once each.
    #[inline]
    fn prefetch(&self, key: u128) {
        self.0.prefetch(key & !1);
    }

    /// Starts loading `key`'s tags and bucket into the cache, for a probe
    /// of a key the transposition table most likely holds (a team's
    /// thread reading its children again where others are near).
    #[inline]
    fn prefetch_probe(&self, key: u128) {
        self.0.prefetch(key & !1);
        self.0.prefetch_bucket(key & !1);
    }

    /// Starts loading `key`'s bucket into the cache, for the store that
    /// ends a node's search: most nodes are searched in less time than
    /// the memory takes to answer.
    #[inline]
    fn prefetch_store(&self, key: u128) {
        self.0.prefetch_bucket(key & !1);
    }

    /// The numbers of `key`, from its own entry or, where that says less,
    /// from the other question about the same position: if the side to
    /// move wins, it does not lose; if it loses, it does not win.
    /// With `lock_free`, the bucket is read without its lock
    /// ([`WordTt::read`]).
    #[inline]
    fn probe(&self, key: u128, lock_free: bool) -> Option<(Number, Number)> {
        // The key's words, found where a slot's tag is the key's (most
        // probes end at the tags) and once for the reads again.
        let packed = std::cell::OnceCell::new();
        // The numbers of both questions about the position: the keys
        // differ in the question bit only.
        let (own, other) = self.0.read(key & !1, lock_free, |b| {
            let (mut own, mut other) = (None, None);
            let Some(k) = *packed.get_or_init(|| words(key)) else {
                return (own, other);
            };
            // Only the entries whose tag is the key's: both questions
            // about the position share it.
            for i in b.candidates() {
                let first = Bucket::at(i);
                let at = |w: usize| b.word(0, first + w);
                if at(0) != k[0] || at(1) != k[1] {
                    continue;
                }
                let word = at(2);
                let top = word & KEY_BITS;
                if top | 1 << 16 != k[2] | 1 << 16 {
                    continue;
                }
                let numbers = if i < WIDE {
                    (at(3), at(4))
                } else if word & REACHED != 0 {
                    (0, INF)
                } else {
                    (INF, 0)
                };
                if top == k[2] {
                    own = Some(numbers);
                } else {
                    other = Some(numbers);
                }
            }
            (own, other)
        })?;
        if let Some((phi, delta)) = own {
            if phi == 0 || delta == 0 {
                return own;
            }
        }
        if let Some((o_phi, o_delta)) = other {
            let attacker_to_move = key & 1 == 1;
            // The other question has the other attacker, the same mover.
            if attacker_to_move && o_delta == 0 {
                // The mover, defending, fails not to lose: it cannot win.
                return Some((INF, 0));
            }
            if !attacker_to_move && o_phi == 0 {
                // The mover, attacking, wins: it does not lose.
                return Some((0, INF));
            }
        }
        own
    }

    /// Stores `e` unless the transposition table already holds its key
    /// (whatever it holds is at least as recent).
    fn insert_absent(&self, e: &PnEntry) {
        let Some(k) = words(e.key) else {
            return;
        };
        self.0.update(e.key & !1, |b, w| {
            let b = &b[0];
            if b.find(w.candidates(), k).is_some() {
                return None;
            }
            let new = Entry {
                key: k,
                phi: e.phi,
                delta: e.delta,
                work: e.work.into(),
            };
            let i = b.lightest(new.solved());
            (b.keep_at(i) < new.keep()).then(|| {
                Bucket::write(w, i, &new);
                i
            })
        })
    }

    /// Calls `f` with the entries of every bucket, one bucket at a time
    /// (see [`WordTt::for_each_bucket`]), empty slots among them.
    fn for_each_bucket(&self, mut f: impl FnMut(&[Entry; BUCKET])) {
        self.0.for_each_bucket(|b| f(&b[0].entries()));
    }

    /// Stores every one of `entries` the transposition table does not hold
    /// yet.
    fn load(&self, entries: &[PnEntry]) {
        // Each entry's bucket and tags are most likely out of every cache:
        // asked for a few entries ahead, their misses overlap instead of
        // following one another.
        const AHEAD: usize = 8;
        for (i, e) in entries.iter().enumerate() {
            if let Some(next) = entries.get(i + AHEAD) {
                self.0.prefetch(next.key & !1);
                self.0.prefetch_bucket(next.key & !1);
            }
            self.insert_absent(e);
        }
    }

    /// Stores a node's numbers; where its bucket was full of other keys'
    /// entries, the work of the one given up for them.
    fn store(&self, key: u128, phi: Number, delta: Number, work: u64) -> Option<u64> {
        // A key no searched position has is not kept.
        let k = words(key)?;
        let mut replaced = None;
        self.0.update(key & !1, |b, w| {
            let b = &b[0];
            if let Some(i) = b.find(w.candidates(), k) {
                let mut e = b.entry(i);
                // A solved entry stays solved (another thread may have
                // solved it meanwhile; a narrow slot holds no other);
                // else the newest numbers are the best.
                if !e.solved() {
                    e.phi = phi;
                    e.delta = delta;
                }
                e.work = e.work.saturating_add(work);
                Bucket::write(w, i, &e);
                return Some(i);
            }
            let new = Entry {
                key: k,
                phi,
                delta,
                work,
            };
            let i = b.lightest(new.solved());
            if b.keep_at(i) > 0 {
                replaced = Some(b.entry(i).work);
            }
            Bucket::write(w, i, &new);
            Some(i)
        });
        replaced
    }
}

/// What one thread keeps to itself while searching.
#[derive(Default)]
pub(crate) struct Worker<'t> {
    tally: Tally,
    /// Children lists of finished [`PnSolver::mid`] calls, kept for the
    /// next ones (one allocation per depth instead of one per node).
    spare: Vec<Vec<Child>>,
    /// The threads searching the same question with this one, if any.
    team: Option<&'t Team>,
    /// With a team: the keys of the nodes this thread is in, root first.
    path: Vec<u128>,
    /// With a team: the depth on [`Worker::path`] of a node another thread
    /// has solved, up to which this thread goes back.
    unwind_to: Option<usize>,
    /// Searches one thread at a time even where the configuration has
    /// several ([`PnSolver::solve_root`]'s threads share the moves).
    solo: bool,
    /// Plies below the question's root of the node being searched (for
    /// `solve --profile`).
    depth: usize,
    /// The nodes other ranks' searches were in, which this search keeps
    /// clear of ([`PnSolver::steer_clear_of`]).
    clear_of: Option<Arc<KeySet>>,
    /// Whether the path it stops in is kept, for [`PnSolver::stopped_path`]
    /// ([`Worker::path`], which a team's thread keeps anyway).
    track: bool,
    /// The path the search was in when it stopped, root first.
    stopped: Option<Vec<u128>>,
    /// Nodes this thread solved by search while the solver records them
    /// ([`PnSolver::record_solved`]), until the next flush.
    solved: Vec<PnEntry>,
    /// With threads taking turns ([`PnConfig::turns`]): the turns and this
    /// thread's number among them, and its node count when its turn began.
    turns: Option<(&'t Turns, usize)>,
    turn_began: u64,
}

impl Worker<'static> {
    pub(crate) fn new() -> Worker<'static> {
        Worker::default()
    }
}

impl<'t> Worker<'t> {
    fn in_team(team: &'t Team) -> Worker<'t> {
        Worker {
            team: Some(team),
            ..Worker::default()
        }
    }
}

/// How often (in a thread's own nodes) a thread of a team looks up its path
/// for a node another thread has solved.
const LOOK_UP_EVERY: u64 = 1024;

/// What the threads searching one question together share besides the
/// transposition table (SPDFPN, Pawlewicz and Hayward 2013; Kaneko 2010):
/// how many of them are in each node, so that each steers away from the
/// children others are searching, and whether one of them failed.
struct Team {
    /// Threads in each node, by a hash of its key (a collision only makes a
    /// node look busier than it is: an order, never a value).
    busy: Vec<AtomicU16>,
    /// Whether the children others are in look worse ([`PnConfig::spread`]).
    spread: bool,
    /// Set when the team's threads are to stop: one of them failed, or
    /// the answer to its question is no longer needed.
    called_off: AtomicBool,
}

impl Team {
    const BITS: u32 = 18;

    fn new(spread: bool) -> Team {
        Team {
            busy: (0..1 << Self::BITS).map(|_| AtomicU16::new(0)).collect(),
            spread,
            called_off: AtomicBool::new(false),
        }
    }

    #[inline]
    fn slot(&self, key: u128) -> &AtomicU16 {
        let h = ((key as u64) ^ ((key >> 64) as u64)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.busy[(h >> (64 - Self::BITS)) as usize]
    }

    #[inline]
    fn enter(&self, key: u128) {
        // At most 65,535 threads (the command line allows 1,024).
        self.slot(key).fetch_add(1, Relaxed);
    }

    #[inline]
    fn leave(&self, key: u128) {
        self.slot(key).fetch_sub(1, Relaxed);
    }

    /// Whether a thread in node `key`, between two of its children's
    /// searches, may find their numbers changed by the others: another
    /// thread is in the node (besides the one asking, if `counted` in
    /// it) or in one of the children (a collision of the counters'
    /// hashes only makes it read them again).
    #[inline]
    fn others_near(&self, key: u128, counted: bool, children: &[Child]) -> bool {
        self.slot(key).load(Relaxed) > counted as u16
            || children.iter().any(|c| self.slot(c.key).load(Relaxed) > 0)
    }

    /// Whether a thread steers away from the others at a node with these
    /// children: only once one of the node's moves has failed for its
    /// mover (a child solved for the child's mover, φ 0), unless `every`
    /// ([`PnConfig::spread_every`]). Such a node is likely one whose proof needs every
    /// move searched, the mover's failure, and there the threads search
    /// its moves side by side; at a node none of whose moves has failed
    /// the mover's first good move is likely all its proof needs, and the
    /// threads follow one thread's order. Sixteen threads taking turns on
    /// one question (docs/SCALING.md): Peasants' Chess 6x7 13.2x one solve
    /// against 6.9x spreading at every node, 5x8 13.6x against 9.8x, the
    /// win of Pawn Race d:d 12.8x against 11.0x.
    #[inline]
    fn spreads_at(&self, children: &[Child], every: bool) -> bool {
        self.spread && (every || children.iter().any(|c| c.phi == 0))
    }

    /// δ of a child as the choice of the next child to search sees it: an
    /// unsolved child other threads are in counts once more for each.
    #[inline]
    fn virtual_delta(&self, c: &Child) -> Number {
        if !self.spread || c.delta == 0 || c.delta >= BIG {
            return c.delta;
        }
        let b = self.slot(c.key).load(Relaxed) as u64;
        (c.delta as u64 * (1 + b)).min(BIG as u64) as Number
    }
}

/// A thread of a team counted into a node ([`Team::enter`]) until this is
/// dropped, however the node's search ends.
struct Inside<'t> {
    team: &'t Team,
    key: u128,
}

impl<'t> Inside<'t> {
    fn enter(team: &'t Team, key: u128) -> Inside<'t> {
        team.enter(key);
        Inside { team, key }
    }
}

impl Drop for Inside<'_> {
    fn drop(&mut self) {
        self.team.leave(self.key);
    }
}

/// What [`PnSolver::known_or_node`] finds.
enum Known {
    /// The answer, without search.
    Answer(bool),
    /// The canonical position to search, and its key.
    Search(Position, u128),
}

/// A child of a node being searched.
struct Child {
    pos: Position,
    key: u128,
    phi: Number,
    delta: Number,
}

/// The numbers of a node whose side to move has reached its goal (`true`)
/// or has failed.
#[inline]
fn solved(reached: bool) -> (Number, Number) {
    if reached {
        (0, INF)
    } else {
        (INF, 0)
    }
}

/// Whether the side to move reaches its goal in a position of value `v`:
/// the attacker must win, the defender must not lose.
#[inline]
pub(crate) fn reaches(v: Wdl, attacker_to_move: bool) -> bool {
    if attacker_to_move {
        v == Wdl::Win
    } else {
        v != Wdl::Loss
    }
}

/// The child a thread of a team searches next, and the second-smallest δ
/// beside it, both by [`Team::virtual_delta`]: the child with the smallest
/// virtual δ among those whose real δ is below `th_phi` (the one with the
/// smallest real δ is, so there is always one; a child at or above it would
/// come back at once, with nothing searched).
fn team_choice(children: &[Child], th_phi: Number, team: &Team) -> (usize, Number) {
    choose(children, th_phi, |c| team.virtual_delta(c))
}

/// The child to search next and the second-smallest δ beside it, both by
/// `virtual_delta` (at least a child's real δ), as [`team_choice`]
/// describes: the chosen child's own δ is at most the second-best that its
/// threshold is made from.
fn choose(
    children: &[Child],
    th_phi: Number,
    virtual_delta: impl Fn(&Child) -> Number,
) -> (usize, Number) {
    let (mut best, mut v1, mut d2) = (usize::MAX, INF, INF);
    for (i, c) in children.iter().enumerate() {
        let v = virtual_delta(c);
        if c.delta < th_phi && (best == usize::MAX || v < v1) {
            if best != usize::MAX {
                d2 = d2.min(v1);
            }
            (best, v1) = (i, v);
        } else {
            d2 = d2.min(v);
        }
    }
    (best, d2)
}

/// How many times its δ an open child counts in the choice of the child to
/// search where other ranks' searches are in it
/// ([`PnSolver::steer_clear_of`]): enough that it is taken only where every
/// other child looks a thousand times as hard. Sixteen emulated ranks of
/// one with tables of their own (docs/SCALING.md): on Peasants' Chess 5x7
/// and 4x8, 8.52x one solve on average with 1,000, 8.30x with 4, 5.71x
/// without; on 6x7 7.01x with 1,000 (4.13x without), slower with 4.
const CLEAR_OF: u64 = 1000;

/// `delta`, a child's δ as the choice of child sees it, made [`CLEAR_OF`]
/// times as large where the child is open and in `clear_of`.
#[inline]
fn cleared(c: &Child, delta: Number, clear_of: &KeySet) -> Number {
    if c.delta != 0 && c.delta < BIG && clear_of.contains(&c.key) {
        (delta as u64 * CLEAR_OF).min(BIG as u64) as Number
    } else {
        delta
    }
}

/// The threads of one search of a canonical position: a [`Team`] for each
/// of its questions (`keys`), each question's answer once a thread has
/// found it (taken from the thread, not the table, whose entry may be
/// replaced meanwhile) and the first failure that was not a stop.
struct Teams<'s, 'a> {
    solver: &'s PnSolver<'a>,
    pos: Position,
    keys: Vec<u128>,
    teams: Vec<Team>,
    answers: Vec<std::sync::OnceLock<bool>>,
    error: std::sync::Mutex<Option<SolveError>>,
    /// With [`PnConfig::turns`]: the threads' turns, the virtual time (a
    /// thread's nodes, [`Seat::nodes`]) of the latest answer, and the
    /// longest a thread searched (the run's time where none answered).
    turns: Option<Turns>,
    span: AtomicU64,
    longest: AtomicU64,
}

/// A thread of a [`Teams`] run: its number, and the nodes it has searched
/// in the run, with turns its virtual time.
struct Seat {
    id: usize,
    nodes: u64,
}

impl<'s, 'a> Teams<'s, 'a> {
    fn new(solver: &'s PnSolver<'a>, pos: Position, keys: &[u128]) -> Teams<'s, 'a> {
        Teams {
            solver,
            pos,
            keys: keys.to_vec(),
            teams: keys
                .iter()
                .map(|_| Team::new(solver.config.spread))
                .collect(),
            answers: keys.iter().map(|_| std::sync::OnceLock::new()).collect(),
            error: std::sync::Mutex::new(None),
            // A budget of fewer nodes than a round's turns (a step of an
            // emulated worker's job, `JobSolver::in_turns`) shortens them:
            // every thread has a turn of the same length.
            turns: (solver.config.turns)
                .filter(|_| solver.config.search.threads > 1)
                .map(|every| {
                    let threads = solver.config.search.threads;
                    let share = solver.counters.left().div_ceil(threads as u64);
                    Turns::new(every.min(share), threads)
                }),
            span: AtomicU64::new(0),
            longest: AtomicU64::new(0),
        }
    }

    /// Runs `job(seat, threads)` on each of the configuration's threads
    /// (the calling thread is the first) and waits for them all. With
    /// turns, one thread searches at a time, each round's turns kept apart
    /// ([`PnSolver::keep_turns_apart`]), and the run's work and makespan
    /// join the solver's ([`PnSolver::makespan`]).
    fn run(&self, job: impl Fn(&mut Seat, usize) + Sync) {
        let solver = self.solver;
        let threads = solver.config.search.threads;
        let before = self.turns.as_ref().map(|_| {
            solver.keep_turns_apart();
            solver.stats().nodes
        });
        let seated = |id: usize| {
            let mut seat = Seat { id, nodes: 0 };
            if let Some(turns) = &self.turns {
                turns.begin(id, || solver.end_round());
            }
            job(&mut seat, threads);
            self.longest.fetch_max(seat.nodes, Relaxed);
            if let Some(turns) = &self.turns {
                solver.end_turn();
                turns.leave(id);
            }
        };
        let seated = &seated;
        std::thread::scope(|s| {
            let others: Vec<_> = (1..threads).map(|i| s.spawn(move || seated(i))).collect();
            seated(0);
            for h in others {
                h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            }
        });
        if let Some(before) = before {
            solver.end_step();
            let work = solver.stats().nodes.saturating_sub(before);
            solver.team_work.fetch_add(work, Relaxed);
            // The answer's virtual time, and never less than the run's
            // nodes spread over its threads: threads that had not yet
            // seen the answer went on searching (a turn begun before it,
            // the nodes before a look up the path), and side by side
            // they search no more than their number at a time.
            let span = match self.span.load(Relaxed) {
                0 => self.longest.load(Relaxed),
                answered => answered,
            };
            let span = span.max(work.div_ceil(threads as u64));
            solver.team_span.fetch_add(span, Relaxed);
        }
    }

    /// Searches question `q` in its team until it is answered; the answer,
    /// or `None` if this thread stopped first. A thread that fails stops
    /// its team, and a failure that is not a stop stops every team (no
    /// answer alone gives what was asked).
    fn play(&self, q: usize, seat: &mut Seat) -> Option<bool> {
        let mut w = Worker {
            turns: self.turns.as_ref().map(|t| (t, seat.id)),
            ..Worker::in_team(&self.teams[q])
        };
        let r = self
            .solver
            .mid(&mut w, &self.pos, self.keys[q], INF, INF, true);
        self.solver.flush(&mut w);
        seat.nodes += w.tally.total;
        match r {
            Ok((phi, _)) => {
                if self.answers[q].set(phi == 0).is_ok() {
                    self.span.fetch_max(seat.nodes, Relaxed);
                }
                Some(phi == 0)
            }
            Err(e) => {
                self.call_off(q);
                if !matches!(e, SolveError::Stopped) {
                    (0..self.teams.len()).for_each(|t| self.call_off(t));
                    self.error
                        .lock()
                        .expect("no thread panics holding it")
                        .get_or_insert(e);
                }
                None
            }
        }
    }

    /// Stops every thread of question `q`'s team at its next look up its
    /// path.
    fn call_off(&self, q: usize) {
        self.teams[q].called_off.store(true, Relaxed);
    }

    fn answer(&self, q: usize) -> Option<bool> {
        self.answers[q].get().copied()
    }

    /// Why no answer came: the first failure, else a stop.
    fn error(&self) -> SolveError {
        self.error
            .lock()
            .expect("no thread panics holding it")
            .take()
            .unwrap_or(SolveError::Stopped)
    }
}

/// The `max` entries of `tt` (with `solved_only`, of its solved ones) with
/// the most work below them, largest first ([`PnSolver::heaviest`]): by
/// [`Entry::keep`], the lightest kept on top of a heap that the table's
/// entries pass through in its order, each pushing out the lightest once
/// the heap is full if it is heavier (among entries of equal weight at
/// the cut, those the table's order meets first, then the largest).
///
/// Two reads of the table instead of one. The first counts the entries by
/// a coarse measure of their weight ([`weight_class`]), which finds the
/// lightest class some of the `max` heaviest fall in; the second passes
/// only the entries of that class and heavier through the heap. The
/// answer is the same: an entry lighter than that class never stays, and
/// until the heap holds `max` entries at least as heavy as the cut, which
/// such entries do not hasten, every entry of the cut's weight is pushed
/// (unit test against the heap over every entry). Over every entry, the
/// heap of the million heaviest that a job's end asks for in an exchange
/// of every solved entry filled with light ones first and then traded
/// them away one by one, a cache miss at every level of every trade: at
/// every 10,000 nodes on Peasants' Chess 6x8, half of an emulation's
/// time.
fn heaviest_where(tt: &TranspositionTable, max: usize, solved_only: bool) -> Vec<PnEntry> {
    let [kept] = heaviest_of(tt, [(max, solved_only)]);
    kept
}

/// [`heaviest_where`] for several selections, each `(max, solved_only)`, in
/// the same two reads of the table: a job that runs out wants its warm
/// start (the heaviest entries) and its heaviest solved ones, and each
/// read of a table of gigabytes takes a rank tens of milliseconds. Each
/// selection gets what [`heaviest_where`] alone gives it (a unit test).
fn heaviest_of<const N: usize>(
    tt: &TranspositionTable,
    selections: [(usize, bool); N],
) -> [Vec<PnEntry>; N] {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let live: Vec<usize> = (0..N).filter(|&i| selections[i].0 > 0).collect();
    if live.is_empty() {
        return std::array::from_fn(|_| Vec::new());
    }
    let mut counts = [[0usize; N]; WEIGHT_CLASSES];
    tt.for_each_bucket(|b| {
        for e in b.iter().filter(|e| !e.is_empty()) {
            let class = &mut counts[weight_class(e.keep())];
            let solved = e.solved();
            for &i in &live {
                if solved || !selections[i].1 {
                    class[i] += 1;
                }
            }
        }
    });
    // For each selection, the lightest class that, with the heavier ones,
    // holds its `max` (or every class, if they hold fewer), and the
    // entries of those classes.
    let mut lightest = [0usize; N];
    let mut above = [0usize; N];
    for &i in &live {
        for (class, n) in counts.iter().enumerate().rev() {
            above[i] += n[i];
            if above[i] >= selections[i].0 {
                lightest[i] = class;
                break;
            }
        }
    }
    let floor = live.iter().map(|&i| lightest[i]).min().unwrap_or(0);
    // For each, the lightest kept so far on top, to be pushed out.
    let mut heaps: [BinaryHeap<Reverse<(u64, PnEntry)>>; N] =
        std::array::from_fn(|i| BinaryHeap::with_capacity(above[i].min(selections[i].0)));
    tt.for_each_bucket(|b| {
        for e in b.iter().filter(|e| !e.is_empty()) {
            let keep = e.keep();
            let class = weight_class(keep);
            if class < floor {
                continue;
            }
            let solved = e.solved();
            for &i in &live {
                let (max, solved_only) = selections[i];
                if class < lightest[i] || (solved_only && !solved) {
                    continue;
                }
                let heap = &mut heaps[i];
                if heap.len() == max {
                    if heap.peek().is_some_and(|Reverse(top)| top.0 >= keep) {
                        continue;
                    }
                    heap.pop();
                }
                heap.push(Reverse((keep, e.to_pn())));
            }
        }
    });
    // Largest first, as `into_sorted_vec` of the reversed pairs gives
    // them, but by a sort that reads the vector in order: the heap's own
    // sort missed the cache at every step.
    heaps.map(|heap| {
        let mut kept = heap.into_vec();
        kept.sort_unstable();
        kept.into_iter().map(|Reverse((_, e))| e).collect()
    })
}

/// The number of [`weight_class`]es.
const WEIGHT_CLASSES: usize = 2048 + 53 * 64;

/// A coarse measure of an entry's weight ([`Entry::keep`]), in the same
/// order: the weight itself below 2,048, above it its power of two and the
/// six bits that follow the leading one (a sixty-fourth of an octave).
#[inline]
fn weight_class(keep: u64) -> usize {
    if keep < 2048 {
        keep as usize
    } else {
        let e = 63 - keep.leading_zeros() as usize;
        2048 + (e - 11) * 64 + ((keep >> (e - 6)) & 63) as usize
    }
}

/// A proof-number transposition table several [`PnSolver`]s share (see
/// [`PnSolver::with_tt`]), the team their searches form with
/// [`PnConfig::spread_jobs`], and the last read of its heaviest entries
/// ([`PnSolver::heaviest_for_jobs`]).
#[derive(Clone)]
pub struct SharedPnTt(Arc<TranspositionTable>, Arc<Team>, Arc<TableReads>);

/// What the jobs on one shared table read of it at their ends
/// ([`PnSolver::heaviest_for_jobs`]): the nodes every solver on it has
/// searched, and the last read.
struct TableReads {
    /// The solvers the table is shared by (the read is shared only among
    /// several).
    workers: usize,
    /// Nodes searched on the table, all its solvers together, added as
    /// each [`PnSolver::answer`] returns.
    nodes: AtomicU64,
    last: Mutex<Option<LastRead>>,
}

/// One read of a shared table's heaviest entries.
struct LastRead {
    /// [`TableReads::nodes`] when it was read.
    at: u64,
    /// How many of the heaviest entries it kept.
    max: usize,
    /// The table's `max` heaviest entries, largest first.
    heaviest: Vec<PnEntry>,
    /// How many of the heaviest solved entries it kept.
    max_solved: usize,
    /// The table's `max_solved` heaviest solved entries, largest first.
    solved: Vec<PnEntry>,
}

impl SharedPnTt {
    /// An empty transposition table of `mb` MiB; [`SolveError::Memory`] if
    /// it does not fit in memory.
    pub fn new(mb: usize) -> Result<SharedPnTt, SolveError> {
        SharedPnTt::for_workers(mb, 1)
    }

    /// [`SharedPnTt::new`] for `workers` solvers, whose jobs' ends share
    /// their reads of it when there are several
    /// ([`PnSolver::heaviest_for_jobs`]).
    pub fn for_workers(mb: usize, workers: usize) -> Result<SharedPnTt, SolveError> {
        Ok(SharedPnTt(
            Arc::new(TranspositionTable::new(mb)?),
            Arc::new(Team::new(true)),
            Arc::new(TableReads {
                workers: workers.max(1),
                nodes: AtomicU64::new(0),
                last: Mutex::new(None),
            }),
        ))
    }

    /// Calls `f` with every entry the transposition table holds, one bucket
    /// at a time (no copy of the transposition table is made). Safe while
    /// searches run, though a snapshot is meant to be taken after they
    /// stop.
    pub fn for_each_entry(&self, mut f: impl FnMut(PnEntry)) {
        self.0.for_each_bucket(|b| {
            for e in b.iter().filter(|e| !e.is_empty()) {
                f(e.to_pn());
            }
        });
    }

    /// Stores `entries` whose keys the transposition table does not hold
    /// yet, as [`PnSolver::load_entries`] does.
    pub fn load_entries(&self, entries: &[PnEntry]) {
        self.0.load(entries);
    }

    /// Its `max` entries with the most work below them, largest first, as
    /// [`PnSolver::heaviest`] gives them.
    pub fn heaviest(&self, max: usize) -> Vec<PnEntry> {
        heaviest_where(&self.0, max, false)
    }
}

/// Solves the binary questions of one variant by proof-number search, with
/// tables where they exist.
pub struct PnSolver<'a> {
    config: PnConfig,
    tables: Option<&'a Tablebase>,
    tt: Arc<TranspositionTable>,
    counters: Counters,
    /// [`PnSolver::root_numbers`], φ in the high half.
    root: AtomicU64,
    /// Whether searched nodes that end solved are kept in `recent`.
    recording: AtomicBool,
    /// The nodes solved by search since [`PnSolver::take_recent_solved`].
    recent: Mutex<Vec<PnEntry>>,
    /// The heaviest nodes solved while recording, lightest on top (work,
    /// key), as [`PnSolver::take_recent_solved`] last left them.
    top: Mutex<Heaviest>,
    /// While recording: the least work of a solved node that can still
    /// join `top` (its lightest when the last take left it full, else 0).
    /// Lighter nodes are not kept in `recent`: `top` only ever trades its
    /// lightest for a heavier one, so they would not join at the next
    /// take. Without it a worker kept every node it solved between two
    /// exchanges, megabytes each.
    floor: AtomicU32,
    /// With [`PnConfig::spread_jobs`] on a shared table: the team of every
    /// solver on it, whose searches see where the others are.
    jobs_team: Option<Arc<Team>>,
    /// The nodes other ranks' searches were in ([`PnSolver::steer_clear_of`]).
    clear_of: Mutex<Option<Arc<KeySet>>>,
    /// Whether a search keeps its path ([`PnSolver::track_path`]).
    track: AtomicBool,
    /// The path of the last search that stopped ([`PnSolver::stopped_path`]).
    stopped: Mutex<Vec<u128>>,
    /// On a shared table: its nodes and last read, which every solver on
    /// it shares ([`PnSolver::heaviest_for_jobs`]).
    reads: Option<Arc<TableReads>>,
    /// With [`PnSolver::keep_turns_apart`]: what the running turn stored
    /// (which it reads back), and what the step's earlier turns stored
    /// (which no turn of the step reads: the table gets it at the step's
    /// end, [`PnSolver::end_step`]).
    apart: Mutex<TurnStores>,
    /// Whether stores go to `apart` (read without its lock by every probe
    /// and store).
    apart_on: AtomicBool,
    /// With [`PnConfig::turns`]: the nodes of the searches by teams of
    /// threads in turns, and the sum of their makespans
    /// ([`PnSolver::makespan`]).
    team_work: AtomicU64,
    team_span: AtomicU64,
    /// With [`PnSolver::with_start_deltas`]: the children's starting δ,
    /// in place of the guided guess.
    start_deltas: Option<Arc<StartDeltas>>,
}

/// The stores of the turns of one step, kept from one another
/// ([`PnSolver::keep_turns_apart`]): the running turn's in a map hashed
/// by [`KeyHash`] (with the standard library's SipHash, hashing them took
/// a seventh of the time of sixteen threads in turns, `solve
/// --emulate-turns` on Peasants' Chess 6x7), the step's earlier turns'
/// in a list. Both stay allocated from turn to turn: dropping a round's
/// list of some 16,000 stores and making it anew cost an eighth of that
/// time, the kernel zeroing its pages again.
#[derive(Default)]
struct TurnStores {
    turn: HashMap<u128, (Number, Number, u64), KeyHash>,
    step: Vec<(u128, (Number, Number, u64))>,
}

impl TurnStores {
    /// Ends the running turn: its stores join the step's ([`hand_in`]).
    fn end_turn(&mut self) {
        hand_in(&mut self.turn, &mut self.step);
    }

    /// Puts the step's stores into `tt` in the order they were made, each
    /// bucket asked for some stores ahead of its store (in a table of
    /// gigabytes nearly every one is a miss of the cache), counted in
    /// `stats`.
    fn flush(&mut self, tt: &TranspositionTable, stats: &mut SolveStats) {
        const AHEAD: usize = 16;
        for i in 0..self.step.len() {
            if let Some(&(key, _)) = self.step.get(i + AHEAD) {
                tt.prefetch_store(key);
            }
            let (key, (phi, delta, work)) = self.step[i];
            stats.table.count(tt.store(key, phi, delta, work));
        }
        self.step.clear();
    }
}

impl<'a> PnSolver<'a> {
    /// A solver with an empty transposition table of `config.search.hash_mb` MiB;
    /// [`SolveError::Memory`] if that does not fit in memory.
    pub fn new(
        config: PnConfig,
        tables: Option<&'a Tablebase>,
    ) -> Result<PnSolver<'a>, SolveError> {
        Ok(PnSolver {
            config,
            tables,
            tt: Arc::new(TranspositionTable::new(config.search.hash_mb)?),
            counters: Counters::new(config.search.max_nodes),
            root: AtomicU64::new(0),
            recording: AtomicBool::new(false),
            recent: Mutex::new(Vec::new()),
            top: Mutex::new(Heaviest::default()),
            floor: AtomicU32::new(0),
            jobs_team: None,
            clear_of: Mutex::new(None),
            track: AtomicBool::new(false),
            stopped: Mutex::new(Vec::new()),
            reads: None,
            apart: Mutex::default(),
            apart_on: AtomicBool::new(false),
            team_work: AtomicU64::new(0),
            team_span: AtomicU64::new(0),
            start_deltas: None,
        })
    }

    /// A solver that stores into and probes `tt` (whose size replaces
    /// `config.search.hash_mb`), with node counts, budget and stop flag of
    /// its own: the local workers of the proof manager share one
    /// transposition table.
    pub fn with_tt(
        config: PnConfig,
        tables: Option<&'a Tablebase>,
        tt: &SharedPnTt,
    ) -> PnSolver<'a> {
        PnSolver {
            config,
            tables,
            tt: Arc::clone(&tt.0),
            counters: Counters::new(config.search.max_nodes),
            root: AtomicU64::new(0),
            recording: AtomicBool::new(false),
            recent: Mutex::new(Vec::new()),
            top: Mutex::new(Heaviest::default()),
            floor: AtomicU32::new(0),
            // Threads on one question have a team of their own.
            jobs_team: (config.spread_jobs && config.search.threads <= 1)
                .then(|| Arc::clone(&tt.1)),
            clear_of: Mutex::new(None),
            track: AtomicBool::new(false),
            stopped: Mutex::new(Vec::new()),
            reads: Some(Arc::clone(&tt.2)),
            apart: Mutex::default(),
            apart_on: AtomicBool::new(false),
            team_work: AtomicU64::new(0),
            team_span: AtomicU64::new(0),
            start_deltas: None,
        }
    }

    /// The solver ordering every child by `deltas` (an oracle's,
    /// [`crate::solve::ProofOracle::start_deltas`]) instead of the guided
    /// guess: what a move order could save, measured.
    pub fn with_start_deltas(mut self, deltas: Arc<StartDeltas>) -> PnSolver<'a> {
        self.start_deltas = Some(deltas);
        self
    }

    /// The configuration the solver was built with.
    pub fn config(&self) -> &PnConfig {
        &self.config
    }

    /// Asks every search of this solver to stop soon with
    /// [`SolveError::Stopped`] (safe from any thread).
    pub fn stop(&self) {
        self.counters.stop();
    }

    /// The flag [`PnSolver::stop`] sets, for a signal handler that must own it.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.counters.stop_flag()
    }

    /// The number of nodes searched so far, readable from another thread
    /// while a search runs (see [`crate::solve::Solver::node_counter`]).
    pub fn node_counter(&self) -> Arc<AtomicU64> {
        self.counters.node_counter()
    }

    /// The counters so far (updated every few thousand nodes while running).
    /// `nodes` counts expanded nodes.
    pub fn stats(&self) -> SolveStats {
        self.counters.stats()
    }

    fn flush(&self, w: &mut Worker) {
        self.counters.flush(&mut w.tally.stats);
        profile::flush();
        if !w.solved.is_empty() {
            let mut recent = self.recent.lock().expect("the recent entries");
            recent.append(&mut w.solved);
        }
    }

    /// From now on (`on`), keeps every node a search solves below its
    /// root for [`PnSolver::take_recent_solved`], or no longer (and drops
    /// what it kept). The takes of one recording must all ask for the same
    /// `max`: a node too light for the heaviest `max` kept is not kept.
    pub fn record_solved(&self, on: bool) {
        self.recording.store(on, Relaxed);
        if !on {
            self.floor.store(0, Relaxed);
            self.recent.lock().expect("the recent entries").clear();
            self.top.lock().expect("the heaviest solved").clear();
        }
    }

    /// The nodes solved by search since the last call (while recording,
    /// [`PnSolver::record_solved`]) that join the `max` heaviest solved
    /// since recording began, largest first: what [`PnSolver::heaviest_solved`]
    /// would add to its answer since the last call, found without reading
    /// the whole table (the proof manager's `--share-every` exchanges).
    /// The rest are forgotten.
    pub fn take_recent_solved(&self, max: usize) -> Vec<PnEntry> {
        let mut recent = std::mem::take(&mut *self.recent.lock().expect("the recent entries"));
        let mut top = self.top.lock().expect("the heaviest solved");
        // Heaviest first: once one is too light to join, so are the rest,
        // and one that joined is never pushed out by a later one (the same
        // heaviest `max` as in any order).
        recent.sort_unstable_by_key(|e| std::cmp::Reverse((e.work, e.key)));
        let mut joined = Vec::new();
        for e in recent {
            if !top.offer(e.work, e.key, max) {
                break;
            }
            joined.push(e);
        }
        // Asked only of a full heaviest: asked while it fills, its
        // lightest work would be sorted, and sorted again each time a
        // lighter one came in.
        let floor = if top.len() >= max {
            top.lightest().map_or(0, |(work, _)| work)
        } else {
            0
        };
        self.floor.store(floor, Relaxed);
        joined.sort_unstable_by(|a, b| b.work.cmp(&a.work).then(a.key.cmp(&b.key)));
        joined
    }

    /// The value of `pos` known without search ([`known`]), win/draw/loss.
    pub(crate) fn leaf_wdl(
        &self,
        w: &mut Worker,
        pos: &Position,
    ) -> Result<Option<Wdl>, SolveError> {
        let k = leaf_value(
            pos,
            &self.config.search.shortcuts,
            self.tables,
            false,
            &mut w.tally.stats,
        )?;
        Ok(k.map(LeafValue::wdl))
    }

    /// Whether the side to move in the canonical `pos` reaches its goal,
    /// if known without search: by [`Self::leaf`], or (with
    /// [`crate::solve::Shortcuts::bound`]) disproven for an attacker to
    /// move that can never win, or (with
    /// [`crate::solve::Shortcuts::stalemate`]) proven for a defender to move
    /// that can leave the attacker without a move, and disproven for an
    /// attacker to move each of whose moves lets the defender do so.
    /// (Proving a defender whose opponent can never win as well cost more
    /// nodes still: Peasants' Chess 4x8 3.27 M.)
    pub(crate) fn settled(
        &self,
        w: &mut Worker,
        pos: &Position,
        attacker_to_move: bool,
    ) -> Result<Option<bool>, SolveError> {
        if let Some(v) = self.leaf_wdl(w, pos)? {
            return Ok(Some(reaches(v, attacker_to_move)));
        }
        if self.config.search.shortcuts.bound && attacker_to_move && !may_win(pos, pos.turn()) {
            w.tally.stats.bound_hits += 1;
            profile::end(End::Bound);
            return Ok(Some(false));
        }
        if self.config.search.shortcuts.stalemate && !attacker_to_move && stalemates_at_once(pos) {
            profile::end(End::Stalemate);
            return Ok(Some(true));
        }
        if self.config.search.shortcuts.stalemate
            && attacker_to_move
            && stalemated_after_any_move(pos)
        {
            profile::end(End::Stalemate);
            return Ok(Some(false));
        }
        Ok(None)
    }

    /// The starting numbers of a canonical child not in the transposition
    /// table, reached by a move of [`guess_cost`] `cost`.
    fn init(
        &self,
        w: &mut Worker,
        pos: &Position,
        attacker_to_move: bool,
        cost: Number,
    ) -> Result<(Number, Number), SolveError> {
        // The child's class, for the knowledge that may settle it.
        profile::enter(pos, w.depth + 1);
        if let Some(r) = self.settled(w, pos, attacker_to_move)? {
            return Ok(solved(r));
        }
        Ok(match self.config.init {
            PnInit::One => (1, 1),
            PnInit::Mobility | PnInit::Guided | PnInit::Tuned | PnInit::Weights(_) => {
                match pos.count_moves() {
                    0 => {
                        profile::end(End::Stalemate);
                        solved(reaches(Wdl::Draw, attacker_to_move))
                    }
                    n if self.config.init != PnInit::Mobility => (1, n + cost),
                    n => (1, n),
                }
            }
        })
    }

    /// The numbers the transposition table holds for `key`. A search on one
    /// thread reads without the bucket's lock (unless the configuration
    /// says otherwise): probes of positions that several workers' jobs
    /// share then leave their cache lines shared. Threads searching one
    /// question together lock: they write the nodes they read soon after,
    /// and found lock-free reads slower (docs/SCALING.md).
    #[inline]
    fn probe(&self, key: u128) -> Option<(Number, Number)> {
        if self.apart_on.load(Relaxed) {
            if let Some(&(phi, delta, _)) = self.apart.lock().expect("apart").turn.get(&key) {
                return Some((phi, delta));
            }
        }
        let lock_free = self.config.lock_free_reads && self.config.search.threads <= 1;
        self.tt.probe(key, lock_free)
    }

    /// Stores a node's numbers: in the table, or with
    /// [`PnSolver::keep_turns_apart`] for the running turn alone.
    #[inline]
    fn put(&self, w: &mut Worker, key: u128, phi: Number, delta: Number, work: u64) {
        if self.apart_on.load(Relaxed) {
            let mut stores = self.apart.lock().expect("apart");
            stores.turn.insert(key, (phi, delta, work));
            return;
        }
        w.tally
            .stats
            .table
            .count(self.tt.store(key, phi, delta, work));
    }

    /// Threads taking turns on one question ([`PnConfig::turns`]) as side
    /// by side: from now on a turn's stores are read back by that turn
    /// alone, and go into the table when its round ends
    /// ([`PnSolver::end_round`]; the last round's at [`PnSolver::end_step`]).
    /// Without it a turn reads what the turns before it in the same round
    /// stored, and a thread that follows another goes on from where that
    /// one stopped, which threads side by side cannot (docs/SCALING.md,
    /// "What a turn sees").
    fn keep_turns_apart(&self) {
        self.apart_on.store(true, Relaxed);
    }

    /// Ends a run of turns kept apart: every turn's stores go into the
    /// table, in the order they were made, and stores go straight to the
    /// table again.
    fn end_step(&self) {
        self.apart_on.store(false, Relaxed);
        let mut stores = self.apart.lock().expect("apart");
        stores.end_turn();
        let mut stats = SolveStats::default();
        stores.flush(&self.tt, &mut stats);
        self.counters.flush(&mut stats);
    }

    /// Ends a round of turns kept apart ([`PnConfig::turns`]): the stores
    /// of its turns go into the table, in the order they were made, and
    /// the next round's turns are kept apart as well.
    fn end_round(&self) {
        let mut stats = SolveStats::default();
        self.apart
            .lock()
            .expect("apart")
            .flush(&self.tt, &mut stats);
        self.counters.flush(&mut stats);
    }

    /// Ends a turn kept apart: its stores wait for the step's end.
    fn end_turn(&self) {
        self.apart.lock().expect("apart").end_turn();
    }

    /// Expands a canonical node: its children with their numbers, or its
    /// numbers if the node is decided by the rules of play (a move that
    /// wins at once, no move at all).
    fn expand(
        &self,
        w: &mut Worker,
        pos: &Position,
        attacker_to_move: bool,
        children: &mut Vec<Child>,
    ) -> Result<Option<(Number, Number)>, SolveError> {
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return Ok(Some(solved(reaches(Wdl::Draw, attacker_to_move))));
        }
        let attacked = attacked_squares(pos);
        pn_order(pos, moves.as_mut_slice(), attacked);
        // An oracle's start deltas order the moves themselves (after the
        // loop), on the guided costs.
        let init = match self.start_deltas {
            None => self.config.init,
            Some(_) => PnInit::Guided,
        };
        for &m in moves.iter() {
            let child = pos.play(m);
            if child.winner_by_rule().is_some() {
                return Ok(Some(solved(true)));
            }
            // The move's guess cost until the numbers are known (an
            // oracle's order puts its rank before it, after the loop).
            let cost = match &init {
                PnInit::Tuned => tuned_cost(pos, m, attacked, &child),
                PnInit::Weights(w) => weighted_cost(pos, m, attacked, &child, w),
                PnInit::One | PnInit::Mobility | PnInit::Guided => guess_cost(pos, m, attacked),
            };
            let c = canonical_with(&child, self.config.search.canonical);
            let key = tt_key(&c, !attacker_to_move);
            if children.iter().any(|x| x.key == key) {
                continue;
            }
            self.tt.prefetch(key);
            children.push(Child {
                pos: c,
                key,
                phi: 0,
                delta: cost,
            });
        }
        if let Some(d) = &self.start_deltas {
            for c in children.iter_mut() {
                c.delta = d.start(c.key, c.delta);
            }
        }
        for c in children.iter_mut() {
            (c.phi, c.delta) = match self.probe(c.key) {
                Some(pd) => {
                    w.tally.stats.tt_hits += 1;
                    pd
                }
                None => self.init(w, &c.pos, !attacker_to_move, c.delta)?,
            };
        }
        Ok(None)
    }

    /// The multiple-iterative-deepening step of df-pn: searches the
    /// canonical node until φ ≥ `th_phi` or δ ≥ `th_delta` and returns
    /// its numbers (also stored in the transposition table). A thread of a
    /// team also comes back early where another thread has solved the node
    /// or one above it.
    fn mid(
        &self,
        w: &mut Worker,
        pos: &Position,
        key: u128,
        th_phi: Number,
        th_delta: Number,
        root: bool,
    ) -> Result<(Number, Number), SolveError> {
        let Some(team) = w.team else {
            if !w.track {
                return self.mid_node(w, pos, key, th_phi, th_delta, root);
            }
            w.path.push(key);
            let r = self.mid_node(w, pos, key, th_phi, th_delta, root);
            if r.is_err() && w.stopped.is_none() {
                w.stopped = Some(w.path.clone());
            }
            w.path.pop();
            return r;
        };
        w.path.push(key);
        let mut r = Ok(());
        if let Some((turns, id)) = w.turns {
            if w.tally.total - w.turn_began >= turns.every {
                // Its nodes counted before it passes the turn, and the
                // budget looked at when the turn comes back: the others'
                // turns may have spent it meanwhile.
                self.counters.flush(&mut w.tally.stats);
                self.end_turn();
                turns.next_turn(id, || self.end_round());
                w.turn_began = w.tally.total;
                r = w.tally.look(&self.counters);
            }
        }
        let r = r.and_then(|()| {
            if w.tally.total.is_multiple_of(LOOK_UP_EVERY) {
                self.look_up_path(w, team)
            } else {
                Ok(())
            }
        });
        let r = r.and_then(|()| self.mid_node(w, pos, key, th_phi, th_delta, root));
        if w.track && r.is_err() && w.stopped.is_none() {
            w.stopped = Some(w.path.clone());
        }
        w.path.pop();
        r
    }

    /// A thread of a team looks up its path, root first, for a node that
    /// another thread has solved, and if it finds one goes back to it
    /// ([`Worker::unwind_to`]). Stops the thread if its team is called
    /// off.
    fn look_up_path(&self, w: &mut Worker, team: &Team) -> Result<(), SolveError> {
        if team.called_off.load(Relaxed) {
            return Err(SolveError::Stopped);
        }
        for (depth, &k) in w.path.iter().enumerate() {
            if matches!(self.probe(k), Some((phi, delta)) if phi == 0 || delta == 0) {
                w.unwind_to = Some(depth);
                break;
            }
        }
        Ok(())
    }

    /// [`PnSolver::mid`] of one node.
    fn mid_node(
        &self,
        w: &mut Worker,
        pos: &Position,
        key: u128,
        th_phi: Number,
        th_delta: Number,
        root: bool,
    ) -> Result<(Number, Number), SolveError> {
        w.tally.node(&self.counters)?;
        self.tt.prefetch_store(key);
        let class = profile::enter(pos, w.depth);
        let attacker_to_move = key & 1 == 1;
        let before = w.tally.total;
        let mut children = w.spare.pop().unwrap_or_default();
        children.clear();
        if let Some((phi, delta)) = self.expand(w, pos, attacker_to_move, &mut children)? {
            w.spare.push(children);
            if profile::enabled() {
                let end = match pos.count_moves() {
                    0 => End::Stalemate,
                    _ => End::WinNow,
                };
                profile::end_with(class, end);
            }
            self.put(w, key, phi, delta, 1);
            return Ok((phi, delta));
        }
        let (mut phi, mut delta);
        // A thread of a team counts itself into the node from its first
        // descent to a child until it leaves the node (the guard's drop):
        // a node it only expands is never counted, which saves two writes
        // to a counter's cache line, one another core may hold, for a
        // node no other thread would be steered by.
        let mut inside: Option<Inside> = None;
        loop {
            // What the other threads have found meanwhile, where they may
            // have changed it: where another thread is in this node or in
            // one of its children. Elsewhere the children's numbers are as
            // fresh as one thread alone keeps them, and a node another
            // thread has solved is found by the look-up of the path
            // (every LOOK_UP_EVERY nodes). Reading every child's bucket at
            // every turn cost a thread a fifth of its speed on sixteen
            // cores, the node's own a twentieth on one (docs/SCALING.md).
            if w.team
                .is_some_and(|t| t.others_near(key, inside.is_some(), &children))
            {
                if let Some((p, d)) = self.probe(key).filter(|&(p, d)| p == 0 || d == 0) {
                    (phi, delta) = (p, d);
                    break;
                }
                // Their tags and buckets all at once, not one miss after
                // another.
                for c in children.iter() {
                    self.tt.prefetch_probe(c.key);
                }
                for c in children.iter_mut() {
                    if let Some(pd) = self.probe(c.key) {
                        (c.phi, c.delta) = pd;
                    }
                }
            }
            // φ = min δ(child) with the best child and the second-best δ;
            // δ = Σ φ(child), saturating below INF unless a child is lost.
            let (mut best, mut d1, mut d2) = (0, INF, INF);
            let (mut sum, mut max, mut open): (u64, Number, u64) = (0, 0, 0);
            for (i, c) in children.iter().enumerate() {
                if c.delta < d1 {
                    d2 = d1;
                    d1 = c.delta;
                    best = i;
                } else if c.delta < d2 {
                    d2 = c.delta;
                }
                sum += c.phi as u64;
                max = max.max(c.phi);
                open += (c.phi != 0) as u64;
            }
            phi = d1;
            delta = if children.iter().any(|c| c.phi == INF) {
                INF
            } else {
                if self.config.weak && open > 0 {
                    sum = max as u64 + open - 1;
                }
                sum.min(BIG as u64) as Number
            };
            if phi == 0 {
                delta = INF;
            }
            if root {
                self.root.store((phi as u64) << 32 | delta as u64, Relaxed);
            }
            if phi >= th_phi || delta >= th_delta {
                break;
            }
            match (
                w.team.filter(|t| {
                    let every = self.config.spread_every
                        || (self.config.spread_attacker && attacker_to_move);
                    t.spreads_at(&children, every)
                }),
                &w.clear_of,
            ) {
                (Some(team), None) => (best, d2) = team_choice(&children, th_phi, team),
                (Some(team), Some(clear_of)) => {
                    (best, d2) = choose(&children, th_phi, |c| {
                        cleared(c, team.virtual_delta(c), clear_of)
                    });
                }
                (None, Some(clear_of)) => {
                    (best, d2) = choose(&children, th_phi, |c| cleared(c, c.delta, clear_of));
                }
                (None, None) => {}
            }
            let c = &children[best];
            let child_th_phi =
                (th_delta as u64 - delta as u64 + c.phi as u64).min(INF as u64) as Number;
            let child_th_delta = match self.config.epsilon {
                PnEpsilon::Stick => th_phi,
                PnEpsilon::Plain => th_phi.min(d2.saturating_add(1)),
                PnEpsilon::Shift(s) => {
                    let grow = d2.checked_shr(s).unwrap_or(0).max(1);
                    th_phi.min(d2.saturating_add(grow))
                }
            };
            if let (None, Some(team)) = (&inside, w.team) {
                inside = Some(Inside::enter(team, key));
            }
            w.depth += 1;
            let r = self.mid(w, &c.pos, c.key, child_th_phi, child_th_delta, false);
            w.depth -= 1;
            let (cp, cd) = r?;
            let c = &mut children[best];
            c.phi = cp;
            c.delta = cd;
            if let Some(depth) = w.unwind_to {
                // Another thread solved this node or one above it.
                if w.path.len() - 1 > depth {
                    break;
                }
                w.unwind_to = None;
            }
        }
        w.spare.push(children);
        let work = w.tally.total - before;
        self.put(w, key, phi, delta, work);
        let work = work.min(u32::MAX as u64) as u32;
        if (phi == 0 || delta == 0)
            && self.recording.load(Relaxed)
            && work >= self.floor.load(Relaxed)
        {
            w.solved.push(PnEntry {
                key,
                phi,
                delta,
                work,
            });
        }
        profile::end_with(class, End::Searched);
        Ok((phi, delta))
    }

    /// Whether the side to move in `pos` reaches its goal: wins if it is
    /// the attacker, does not lose if it is the defender.
    fn reaches_goal(
        &self,
        w: &mut Worker,
        pos: &Position,
        attacker_to_move: bool,
    ) -> Result<bool, SolveError> {
        let (c, key) = match self.known_or_node(w, pos, attacker_to_move)? {
            Known::Answer(r) => return Ok(r),
            Known::Search(c, key) => (c, key),
        };
        if self.teams(w) {
            return self.mid_team(&c, key);
        }
        let (phi, delta) = self.mid(w, &c, key, INF, INF, true)?;
        debug_assert!(phi == 0 || delta == 0);
        Ok(phi == 0)
    }

    /// Whether a search by `w` runs on the configuration's threads as a
    /// team (several threads, and `w` is not one of a team or of the
    /// root's shared-out moves already).
    fn teams(&self, w: &Worker) -> bool {
        self.config.search.threads > 1 && w.team.is_none() && !w.solo
    }

    /// The answer to a question about `pos` if known without search (the
    /// rules, a solved entry, the leaf knowledge), else the canonical node
    /// to search and its key.
    fn known_or_node(
        &self,
        w: &mut Worker,
        pos: &Position,
        attacker_to_move: bool,
    ) -> Result<Known, SolveError> {
        if pos.winner_by_rule().is_some() {
            return Ok(Known::Answer(reaches(Wdl::Loss, attacker_to_move)));
        }
        if pos.count_moves() == 0 {
            return Ok(Known::Answer(reaches(Wdl::Draw, attacker_to_move)));
        }
        let c = canonical_with(pos, self.config.search.canonical);
        let key = tt_key(&c, attacker_to_move);
        if let Some((phi, delta)) = self.probe(key) {
            w.tally.stats.tt_hits += 1;
            if phi == 0 || delta == 0 {
                return Ok(Known::Answer(phi == 0));
            }
        }
        profile::enter(&c, w.depth);
        if let Some(r) = self.settled(w, &c, attacker_to_move)? {
            return Ok(Known::Answer(r));
        }
        Ok(Known::Search(c, key))
    }

    /// The win/draw/loss value of `pos` on the configuration's threads:
    /// both questions at once, half the threads on each, where both are
    /// needed (the answer is then a draw or a loss unless the side to move
    /// wins, and a loss needs only "does it avoid losing?"). A thread whose
    /// question is answered joins the other's team if that answer is still
    /// needed, and calls the other team off if not.
    fn wdl_teams(&self, w: &mut Worker, pos: &Position) -> Result<Wdl, SolveError> {
        let wins = self.known_or_node(w, pos, true)?;
        if matches!(wins, Known::Answer(true)) {
            return Ok(Wdl::Win);
        }
        let avoids = self.known_or_node(w, pos, false)?;
        let draw_or_loss = |avoids| if avoids { Wdl::Draw } else { Wdl::Loss };
        let (c, keys) = match (wins, avoids) {
            (Known::Answer(_), Known::Answer(a)) => return Ok(draw_or_loss(a)),
            (Known::Answer(_), Known::Search(c, k)) => {
                return Ok(draw_or_loss(self.mid_team(&c, k)?));
            }
            (Known::Search(..), Known::Answer(false)) => return Ok(Wdl::Loss),
            (Known::Search(c, k), Known::Answer(true)) => {
                let win = self.mid_team(&c, k)?;
                return Ok(if win { Wdl::Win } else { Wdl::Draw });
            }
            (Known::Search(c, kw), Known::Search(_, ka)) => (c, [kw, ka]),
        };
        let teams = Teams::new(self, c, &keys);
        teams.run(|seat, threads| {
            let q = (seat.id >= threads.div_ceil(2)) as usize;
            if let Some(reached) = teams.play(q, seat) {
                // "Wins?" answered no, or "avoids losing?" yes: the other
                // question decides between the two values left.
                let other_needed = if q == 0 { !reached } else { reached };
                if other_needed {
                    teams.play(1 - q, seat);
                } else {
                    teams.call_off(1 - q);
                }
            }
        });
        match (teams.answer(0), teams.answer(1)) {
            (Some(true), _) => Ok(Wdl::Win),
            (Some(false), Some(true)) => Ok(Wdl::Draw),
            (_, Some(false)) => Ok(Wdl::Loss),
            _ => Err(teams.error()),
        }
    }

    /// Whether the side to move in the canonical node `key` of `pos`
    /// reaches its goal, searched to the end on `config.search.threads`
    /// threads sharing the transposition table: each a df-pn search from
    /// this node that steers away from the nodes the others are in
    /// ([`Team`]) and goes back where another has solved a node above it.
    /// The first to solve the node ends every search.
    fn mid_team(&self, pos: &Position, key: u128) -> Result<bool, SolveError> {
        let team = Teams::new(self, *pos, &[key]);
        team.run(|seat, _| {
            team.play(0, seat);
        });
        team.answer(0).ok_or_else(|| team.error())
    }

    /// With threads taking turns ([`PnConfig::turns`]): the solve's
    /// makespan so far in nodes, what its threads side by side would take
    /// in time: every node searched outside a team of threads, and of each
    /// team's search the virtual time of its last answer (the nodes of the
    /// thread that found it, every thread having had a turn of the same
    /// length each round). `None` without turns.
    pub fn makespan(&self) -> Option<u64> {
        if self.config.turns.is_none() || self.config.search.threads <= 1 {
            return None;
        }
        let (work, span) = (self.team_work.load(Relaxed), self.team_span.load(Relaxed));
        Some(self.stats().nodes.saturating_sub(work) + span)
    }

    /// The proof and disproof numbers (φ, δ) of the latest question's root
    /// as its search last came back to the root, from the side to move's
    /// view (φ counts toward its goal, δ against it): how far a long search
    /// has got.
    pub fn root_numbers(&self) -> (u32, u32) {
        let r = self.root.load(Relaxed);
        ((r >> 32) as u32, r as u32)
    }

    /// Whether the side to move wins `pos` (a game over by rule is lost
    /// for the side to move, a stalemate drawn).
    pub fn wins(&self, pos: &Position) -> Result<bool, SolveError> {
        let mut w = Worker::new();
        let r = self.reaches_goal(&mut w, pos, true);
        self.flush(&mut w);
        r
    }

    /// The answer to `question` about `pos` (a game over by rule is lost
    /// for the side to move, a stalemate drawn), as
    /// [`crate::solve::Solver::answer`] gives it. With `budget`, the search stops
    /// with [`SolveError::Stopped`] after about that many more nodes; what
    /// it proved on the way stays in the transposition table for the next
    /// question.
    pub fn answer(
        &self,
        pos: &Position,
        question: Question,
        budget: Option<u64>,
    ) -> Result<bool, SolveError> {
        self.counters.set_budget(budget);
        // A job's thread on a table it shares with other jobs' (their team)
        // keeps its path and steers as a thread alone does; a search on
        // several threads of its own (`mid_team`) does neither.
        let track = self.track.load(Relaxed);
        let mut w = Worker {
            team: self.jobs_team.as_deref(),
            clear_of: self.clear_of.lock().expect("clear_of").clone(),
            track,
            ..Worker::new()
        };
        let r = self.search_counted(&mut w, pos, question);
        if track {
            *self.stopped.lock().expect("stopped") = w.stopped.take().unwrap_or_default();
        }
        r
    }

    /// `w`'s search for the answer to `question` about `pos`, its nodes
    /// flushed into the solver's counts and, on a shared table, added to
    /// the nodes its solvers searched ([`TableReads`]).
    fn search_counted(
        &self,
        w: &mut Worker,
        pos: &Position,
        question: Question,
    ) -> Result<bool, SolveError> {
        let before = self.stats().nodes;
        let r = self.reaches_goal(w, pos, question == Question::Wins);
        self.flush(w);
        if let Some(reads) = &self.reads {
            let searched = self.stats().nodes.saturating_sub(before);
            reads.nodes.fetch_add(searched, Relaxed);
        }
        r
    }

    /// Keeps the searches of [`PnSolver::answer`] from here on clear of
    /// the nodes in `keys` (none: steers no more): where a node's search
    /// chooses the child to go on with, an open child in `keys` counts
    /// a thousand times its δ. Ranks of a cluster, whose tables are their
    /// own, tell one another where their searches are
    /// ([`PnSolver::stopped_path`]) so that two of them do not prove the
    /// same positions side by side, each unaware of the other until the
    /// next exchange. A choice of child only: no answer changes. A job
    /// whose solver searches as one team with the other jobs on its table
    /// ([`PnConfig::spread_jobs`]) steers by both; a search on several
    /// threads of its own neither steers nor keeps a path.
    pub fn steer_clear_of(&self, keys: Option<Arc<KeySet>>) {
        *self.clear_of.lock().expect("clear_of") = keys.filter(|k| !k.is_empty());
    }

    /// The nodes [`PnSolver::steer_clear_of`] last gave (none: it steers
    /// by none).
    #[cfg(test)]
    pub(crate) fn steering(&self) -> Option<Arc<KeySet>> {
        self.clear_of.lock().expect("clear_of").clone()
    }

    /// Whether [`PnSolver::answer`]'s searches keep the path they are in,
    /// for [`PnSolver::stopped_path`] (a stack of keys: off by default).
    pub fn track_path(&self, on: bool) {
        self.track.store(on, Relaxed);
    }

    /// With [`PnSolver::track_path`]: the keys of the nodes the last
    /// [`PnSolver::answer`] was in when it stopped (its budget spent, or
    /// its stop flag set), the question's root first; empty if it ended
    /// with an answer.
    pub fn stopped_path(&self) -> Vec<u128> {
        self.stopped.lock().expect("stopped").clone()
    }

    /// The answer to `question` about `pos` if this solver knows it
    /// without searching: proven in its transposition table (by an earlier
    /// search, of either question), or decided by the rules of play or its
    /// leaf knowledge; `None` if it would have to search. How the proof
    /// manager keeps what an `open` job proved below its position.
    pub fn known_answer(&self, pos: &Position, question: Question) -> Option<bool> {
        // A throwaway worker: the leaf rules' counts are not the search's,
        // nor are their ends the profile's.
        let mut w = Worker::new();
        let known =
            profile::unrecorded(|| self.known_or_node(&mut w, pos, question == Question::Wins));
        match known {
            Ok(Known::Answer(r)) => Some(r),
            _ => None,
        }
    }

    /// Whether the side to move loses `pos`.
    pub fn loses(&self, pos: &Position) -> Result<bool, SolveError> {
        let mut w = Worker::new();
        let r = self.reaches_goal(&mut w, pos, false).map(|holds| !holds);
        self.flush(&mut w);
        r
    }

    fn wdl_with(&self, w: &mut Worker, pos: &Position) -> Result<Wdl, SolveError> {
        if self.teams(w) {
            return self.wdl_teams(w, pos);
        }
        Ok(if self.reaches_goal(w, pos, true)? {
            Wdl::Win
        } else if !self.reaches_goal(w, pos, false)? {
            Wdl::Loss
        } else {
            Wdl::Draw
        })
    }

    /// Win if "the side to move wins" is proven, else loss if "the
    /// opponent wins" is proven, else draw.
    pub fn wdl(&self, pos: &Position) -> Result<Wdl, SolveError> {
        let mut w = Worker::new();
        let r = self.wdl_with(&mut w, pos);
        self.flush(&mut w);
        r
    }

    /// The win/draw/loss value of any position, as [`crate::solve::Solver::solve`]
    /// gives it (without DTM).
    pub fn solve(&self, pos: &Position) -> Result<Solution, SolveError> {
        Ok(Solution {
            wdl: self.wdl(pos)?,
            value: None,
        })
    }

    /// The value of `pos` and of every move, the moves searched in parallel
    /// on `config.search.threads` threads sharing the transposition table;
    /// `progress` is told of each move as it is solved.
    pub fn solve_root(
        &self,
        pos: &Position,
        progress: &(dyn Fn(Move, Solution) + Sync),
    ) -> Result<RootSolution, SolveError> {
        if let Some(outcome) = pos.outcome() {
            return Err(SolveError::GameOver(outcome));
        }
        let mut moves: Vec<Move> = pos.legal_moves().to_vec();
        pn_order(pos, &mut moves, attacked_squares(pos));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.config.search.threads)
            .build()
            .map_err(|e| SolveError::Threads(self.config.search.threads, e.to_string()))?;
        let rated: Result<Vec<(Move, Wdl)>, SolveError> = pool.install(|| {
            moves
                .par_iter()
                .with_max_len(1)
                .map(|&m| {
                    let mut w = Worker {
                        solo: true,
                        ..Worker::new()
                    };
                    let v = self.wdl_with(&mut w, &pos.play(m)).map(Wdl::before_move);
                    self.flush(&mut w);
                    let v = v?;
                    progress(
                        m,
                        Solution {
                            wdl: v,
                            value: None,
                        },
                    );
                    Ok((m, v))
                })
                .collect()
        });
        let mut rated = rated?;
        rated.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        let solution = |wdl| Solution { wdl, value: None };
        Ok(RootSolution {
            value: solution(rated[0].1),
            moves: rated.into_iter().map(|(m, v)| (m, solution(v))).collect(),
        })
    }

    /// A line of perfect play from `pos` to the end of the game: at each
    /// step the first move (in this solver's order) that keeps the value.
    /// Winning lines win, but not necessarily fastest.
    pub fn line(&self, pos: &Position) -> Result<Vec<Move>, SolveError> {
        let mut w = Worker::new();
        let mut line = Vec::new();
        let mut p = *pos;
        let result = (|| {
            while !p.is_game_over() {
                let value = self.wdl_with(&mut w, &p)?;
                let m = self.keeping_move(&mut w, &p, value)?;
                line.push(m);
                p = p.play(m);
            }
            Ok(())
        })();
        self.flush(&mut w);
        result.map(|()| line)
    }

    /// A move of `p`, whose value is `value`, that keeps that value: the
    /// first (in this solver's order) whose child's answers are known
    /// without search (solved entries, the leaf knowledge), else the first
    /// that a search shows keeps it. The search that found the value
    /// proved such a move (a win's winning move, a draw's hold against
    /// the opponent's win), and it is most often in the table: asking the
    /// moves in order instead searched each losing one's refutation first
    /// (Peasants' Chess 6x8-d, a win: 57.1 M nodes where the value took
    /// 47.1 M; docs/SOLVE.md).
    fn keeping_move(&self, w: &mut Worker, p: &Position, value: Wdl) -> Result<Move, SolveError> {
        let mut moves = p.legal_moves();
        pn_order(p, moves.as_mut_slice(), attacked_squares(p));
        let known_to_keep = |child: &Position| match value {
            Wdl::Win => self.known_answer(child, Question::AvoidsLoss) == Some(false),
            Wdl::Loss => true,
            Wdl::Draw => {
                self.known_answer(child, Question::Wins) == Some(false)
                    && self.known_answer(child, Question::AvoidsLoss) == Some(true)
            }
        };
        if let Some(&m) = moves.iter().find(|&&m| known_to_keep(&p.play(m))) {
            return Ok(m);
        }
        for &m in moves.iter() {
            let child = p.play(m);
            // The move keeps the value if the child has the opposite one:
            // ask only what that needs.
            let keeps = match value {
                Wdl::Win => !self.reaches_goal(w, &child, false)?,
                Wdl::Loss => true,
                Wdl::Draw => {
                    !self.reaches_goal(w, &child, true)? && self.reaches_goal(w, &child, false)?
                }
            };
            if keeps {
                return Ok(m);
            }
        }
        unreachable!("some move keeps the value of a position")
    }

    /// The value of `pos` and one best move, as [`crate::solve::Solver::solve_value`]
    /// gives them: one proof-number search of the position itself instead
    /// of one per move.
    pub fn solve_value(
        &self,
        pos: &Position,
        progress: &(dyn Fn(Move, Solution) + Sync),
    ) -> Result<RootSolution, SolveError> {
        if let Some(outcome) = pos.outcome() {
            return Err(SolveError::GameOver(outcome));
        }
        let mut w = Worker::new();
        let r = self
            .wdl_with(&mut w, pos)
            .and_then(|v| Ok((self.keeping_move(&mut w, pos, v)?, v)));
        self.flush(&mut w);
        let (m, wdl) = r?;
        let value = Solution { wdl, value: None };
        progress(m, value);
        Ok(RootSolution {
            value,
            moves: vec![(m, value)],
        })
    }

    /// The `max` entries of the transposition table with the most work
    /// below them (a solved entry counts as four times its work, as
    /// replacement counts it), largest first. Taken when a job runs out of
    /// budget, they carry much of its progress: a search of the same
    /// question in a fresh transposition table seeded with them
    /// ([`PnSolver::load_entries`]) goes on from there instead of starting
    /// again (`examples/warm_rounds.rs` measures how much).
    pub fn heaviest(&self, max: usize) -> Vec<PnEntry> {
        heaviest_where(&self.tt, max, false)
    }

    /// The `max` solved entries of the transposition table (proven or
    /// disproven) with the most work below them, largest first: the
    /// proofs of this table that would save another table the most
    /// search. A proof manager hands them to workers with tables of their
    /// own (`prove --share-solved`), which load them
    /// ([`PnSolver::load_entries`]) before their next job.
    pub fn heaviest_solved(&self, max: usize) -> Vec<PnEntry> {
        heaviest_where(&self.tt, max, true)
    }

    /// [`PnSolver::heaviest`] of `max` and [`PnSolver::heaviest_solved`]
    /// of `max_solved` (either 0: none), in the two reads of the table
    /// that each of them alone takes: what a job that runs out hands back.
    pub fn heaviest_and_solved(
        &self,
        max: usize,
        max_solved: usize,
    ) -> (Vec<PnEntry>, Vec<PnEntry>) {
        let [all, solved] = heaviest_of(&self.tt, [(max, false), (max_solved, true)]);
        (all, solved)
    }

    /// What a job's end on this solver hands back: its `max` heaviest
    /// entries (a warm start) and its `max_solved` heaviest solved ones,
    /// as [`PnSolver::heaviest_and_solved`] gives them, but on a table
    /// several solvers share ([`SharedPnTt::for_workers`], a rank's jobs)
    /// read once for all their jobs that end close together. A read keeps
    /// the `keep` heaviest entries (at least `max`) and the `max_solved`
    /// heaviest solved ones; a job that ends before the table's solvers
    /// have searched `fresh` nodes times their number since takes those
    /// (the first `max` of the heaviest) as they were read. Reading a
    /// table of many GiB takes its rank's thread a good part of a second
    /// or more, and every job of the rank would read nearly the same
    /// entries. With one solver on the table, `fresh` 0 or `max` above
    /// `keep`, it reads as [`PnSolver::heaviest_and_solved`] does.
    pub fn heaviest_for_jobs(
        &self,
        max: usize,
        max_solved: usize,
        keep: usize,
        fresh: u64,
    ) -> (Vec<PnEntry>, Vec<PnEntry>) {
        let reads = match &self.reads {
            Some(r) if r.workers > 1 && fresh > 0 && max <= keep => r,
            _ => return self.heaviest_and_solved(max, max_solved),
        };
        // Held through the read: the jobs that end meanwhile wait for it
        // and take it, rather than read the table beside it.
        let mut last = reads.last.lock().expect("the last read");
        let now = reads.nodes.load(Relaxed);
        let window = fresh.saturating_mul(reads.workers as u64);
        let first = |v: &[PnEntry], n: usize| v[..n.min(v.len())].to_vec();
        if let Some(l) = last.as_ref() {
            if now.saturating_sub(l.at) < window && l.max >= max && l.max_solved >= max_solved {
                return (first(&l.heaviest, max), first(&l.solved, max_solved));
            }
        }
        let (heaviest, solved) = self.heaviest_and_solved(keep, max_solved);
        let warm = first(&heaviest, max);
        *last = Some(LastRead {
            at: now,
            max: keep,
            heaviest,
            max_solved,
            solved: solved.clone(),
        });
        (warm, solved)
    }

    /// A proof of the answer to `question` about `pos` (a
    /// [`PnSolver::answer`] without budget), read from the transposition
    /// table: the canonical positions it needs, each once, the first of
    /// them `pos`'s (none if the game is over in `pos`). Where the side to
    /// move reaches its goal, one child that fails it (one already in the
    /// proof if the transposition table shows one, else one the
    /// transposition table shows failing, else the first a search finds
    /// failing); where it fails, every child. Positions the rules or the
    /// leaf knowledge decide end it. Entries the transposition table has
    /// lost are searched again. Against the nodes the search visited, its
    /// size says how much of the search went into what the proof needs (the
    /// proof found, not the smallest one; `examples/proof_size.rs`).
    pub fn proof(&self, pos: &Position, question: Question) -> Result<Vec<ProofStep>, SolveError> {
        use std::collections::HashSet;
        let mut w = Worker::new();
        let mut seen: HashSet<u128> = HashSet::new();
        let mut out = Vec::new();
        let mut stack = vec![(*pos, question == Question::Wins)];
        while let Some((p, attacker_to_move)) = stack.pop() {
            if p.winner_by_rule().is_some() {
                continue;
            }
            let c = canonical_with(&p, self.config.search.canonical);
            if !seen.insert(tt_key(&c, attacker_to_move)) {
                continue;
            }
            let mut step = ProofStep {
                pos: c,
                attacker_to_move,
                reaches: false,
                leaf: true,
            };
            if let Some(r) = self.settled(&mut w, &c, attacker_to_move)? {
                step.reaches = r;
                out.push(step);
                continue;
            }
            let mut moves = c.legal_moves();
            pn_order(&c, moves.as_mut_slice(), attacked_squares(&c));
            let children: Vec<Position> = moves.iter().map(|&m| c.play(m)).collect();
            if children.is_empty() || children.iter().any(|ch| ch.winner_by_rule().is_some()) {
                // Stalemate (a draw) or a move that wins at once.
                step.reaches = if children.is_empty() {
                    reaches(Wdl::Draw, attacker_to_move)
                } else {
                    true
                };
                out.push(step);
                continue;
            }
            step.leaf = false;
            step.reaches = self.reaches_goal(&mut w, &c, attacker_to_move)?;
            out.push(step);
            if step.reaches {
                let mut failing = None;
                for ch in &children {
                    let k = tt_key(
                        &canonical_with(ch, self.config.search.canonical),
                        !attacker_to_move,
                    );
                    if self.probe(k).is_some_and(|(_, delta)| delta == 0) {
                        if seen.contains(&k) {
                            failing = Some(*ch);
                            break;
                        }
                        failing = failing.or(Some(*ch));
                    }
                }
                if failing.is_none() {
                    for ch in &children {
                        if !self.reaches_goal(&mut w, ch, !attacker_to_move)? {
                            failing = Some(*ch);
                            break;
                        }
                    }
                }
                let ch = failing.expect("a position that reaches its goal has a child that fails");
                stack.push((ch, !attacker_to_move));
            } else {
                stack.extend(children.into_iter().map(|ch| (ch, !attacker_to_move)));
            }
        }
        self.flush(&mut w);
        Ok(out)
    }

    /// Puts entries [`PnSolver::heaviest`] gave (of this game and rule set:
    /// the keys are positions, the numbers this game's) into the
    /// transposition table, where it holds nothing of their keys and has
    /// room for them.
    pub fn load_entries(&self, entries: &[PnEntry]) {
        self.tt.load(entries);
    }

    /// Every position whose win/draw/loss value the transposition table
    /// proves, with its score as [`crate::solve::Solver::proven`] gives them in
    /// win/draw/loss mode (1 win, 0 draw, -1 loss; no best move), sorted by
    /// key: a file of them seeds either solver. Safe while a search runs.
    pub fn proven(&self) -> Vec<Proven> {
        let mut out = Vec::new();
        self.tt.for_each_bucket(|b| {
            for e in b.iter().filter(|e| !e.is_empty() && e.solved()) {
                let attacker_to_move = e.attacker_to_move();
                let o = b.iter().find(|o| {
                    o.same_position(e) && o.attacker_to_move() != attacker_to_move && o.solved()
                });
                let score = match (attacker_to_move, e.phi == 0) {
                    (true, true) => 1,
                    (false, false) => -1,
                    // A draw needs both questions, and is listed once.
                    (true, false) => match o {
                        Some(o) if o.phi == 0 => 0,
                        _ => continue,
                    },
                    (false, true) => continue,
                };
                let work = b
                    .iter()
                    .filter(|x| x.same_position(e))
                    .map(|x| x.work)
                    .max()
                    .unwrap_or(0);
                out.push(Proven {
                    key: e.key() & !1,
                    score,
                    best: 0,
                    work: (64 - work.leading_zeros()) as u8,
                });
            }
        });
        out.sort_unstable();
        out.dedup_by_key(|p| p.key);
        out
    }

    /// Puts proven win/draw/loss results (scores 1, 0, -1, as
    /// [`crate::solve::Solver::proven`] gives them in win/draw/loss mode and
    /// [`PnSolver::proven`] does) into the transposition table.
    pub fn load_proven(&self, proven: &[Proven]) {
        for p in proven {
            let work = 1u64 << p.work.min(40);
            let (attacking, defending) = match p.score.signum() {
                1 => (solved(true), solved(true)),
                0 => (solved(false), solved(true)),
                _ => (solved(false), solved(false)),
            };
            self.tt.store(p.key | 1, attacking.0, attacking.1, work);
            self.tt.store(p.key & !1, defending.0, defending.1, work);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// While recording, a take hands out the nodes solved since that join
    /// the heaviest `max` so far, heaviest first, and only those: with
    /// the same searches, a take of 4 is the first 4 of a take of all
    /// (entries of equal work in either order); a
    /// take with nothing solved since is empty; not recording, nothing.
    #[test]
    fn recent_solved_nodes_join_the_heaviest_once() {
        let pos = crate::rules::parse::test_position("pawngame", "5x5");
        let solver = |record| {
            let s = PnSolver::new(PnConfig::default(), None).unwrap();
            s.record_solved(record);
            s.answer(&pos, Question::Wins, None).unwrap();
            s
        };
        let all = solver(true).take_recent_solved(usize::MAX);
        assert!(all.len() > 4);
        assert!(all.iter().all(|e| e.phi == 0 || e.delta == 0));
        // The first 4 of all, but for the order of entries of equal work.
        let four = solver(true);
        let got = four.take_recent_solved(4);
        let works = |v: &[PnEntry]| v.iter().map(|e| e.work).collect::<Vec<_>>();
        assert_eq!(works(&got), works(&all[..4]));
        assert!(got.iter().all(|e| all.contains(e)));
        assert!(four.take_recent_solved(4).is_empty());
        assert!(solver(false).take_recent_solved(usize::MAX).is_empty());
    }

    /// The heaviest entries of a table, solved or any, are what a heap
    /// that every entry passes through in the table's order keeps (the
    /// lightest on top, pushed out by a heavier one), in the same order,
    /// and their weights those a plain sort of all the entries puts first,
    /// for every count asked: on a searched table (small weights, many
    /// ties), on one loaded with random entries (weights up to 2^34, every
    /// weight class), on one whose entries all weigh the same and on one
    /// whose open entries outweigh every solved one; both selections taken
    /// in the same reads ([`PnSolver::heaviest_and_solved`]) give the same.
    /// Classes out of the weights' order, a class at the cut left out, the
    /// reads' floor at the higher cut of two, or the solved selection's
    /// cut counted over every entry, fail it.
    #[test]
    fn the_heaviest_are_what_a_heap_over_every_entry_keeps() {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let heap_over_all = |s: &PnSolver, max: usize, solved_only: bool| {
            let mut heap: BinaryHeap<Reverse<(u64, PnEntry)>> = BinaryHeap::new();
            s.tt.for_each_bucket(|b| {
                for e in b
                    .iter()
                    .filter(|e| !e.is_empty() && (!solved_only || e.solved()))
                {
                    let keep = e.keep();
                    if max == 0 || heap.len() == max && heap.peek().unwrap().0 .0 >= keep {
                        continue;
                    }
                    if heap.len() == max {
                        heap.pop();
                    }
                    heap.push(Reverse((keep, e.to_pn())));
                }
            });
            heap.into_sorted_vec()
                .into_iter()
                .map(|Reverse((_, e))| e)
                .collect::<Vec<_>>()
        };
        let check = |s: &PnSolver| {
            let mut all: Vec<(u64, u128, bool)> = Vec::new();
            s.tt.for_each_bucket(|b| {
                for e in b.iter().filter(|e| !e.is_empty()) {
                    all.push((e.keep(), e.key(), e.solved()));
                }
            });
            let weight: std::collections::HashMap<u128, u64> =
                all.iter().map(|&(keep, key, _)| (key, keep)).collect();
            all.sort_unstable_by_key(|&(keep, _, _)| Reverse(keep));
            assert!(all.len() > 600, "{}", all.len());
            for max in [0, 1, 2, 17, 500, all.len() - 1, all.len(), usize::MAX] {
                for solved_only in [false, true] {
                    let got = if solved_only {
                        s.heaviest_solved(max)
                    } else {
                        s.heaviest(max)
                    };
                    assert_eq!(got, heap_over_all(s, max, solved_only), "max {max}");
                    let weights: Vec<u64> = got.iter().map(|e| weight[&e.key]).collect();
                    let want: Vec<u64> = all
                        .iter()
                        .filter(|x| !solved_only || x.2)
                        .take(max)
                        .map(|x| x.0)
                        .collect();
                    assert_eq!(weights, want, "max {max}");
                }
                // Both selections in the same reads give what each gives
                // alone, whatever the other's size.
                for other in [0, 3, 500, usize::MAX] {
                    assert_eq!(
                        s.heaviest_and_solved(max, other),
                        (s.heaviest(max), s.heaviest_solved(other)),
                        "max {max}, solved {other}"
                    );
                    assert_eq!(
                        s.heaviest_and_solved(other, max),
                        (s.heaviest(other), s.heaviest_solved(max)),
                        "max {other}, solved {max}"
                    );
                }
            }
        };
        let searched = PnSolver::new(PnConfig::default(), None).unwrap();
        let pos = crate::rules::parse::test_position("pawngame", "5x6");
        searched.answer(&pos, Question::Wins, None).unwrap();
        check(&searched);
        let loaded = PnSolver::new(PnConfig::default(), None).unwrap();
        let mut rng = crate::rng::SplitMix64::new(3);
        let entries: Vec<PnEntry> = (0..5000)
            .map(|_| {
                let solved = rng.below(2) == 0;
                // White pawns on ranks 2 to 4, black ones on 5 to 7.
                let x = rng.next_u64();
                PnEntry {
                    key: u128::from(x & 0xff_ffff) << 8 | u128::from(x >> 40) << 96,
                    phi: if solved { 0 } else { 1 + rng.below(9) as u32 },
                    delta: 1 + rng.below(9) as u32,
                    work: match rng.below(3) {
                        0 => rng.below(8) as u32,
                        1 => rng.below(5000) as u32,
                        _ => rng.next_u64() as u32,
                    },
                }
            })
            .collect();
        loaded.load_entries(&entries);
        check(&loaded);
        // One weight for all: the class at the cut is the whole table.
        let flat = PnSolver::new(PnConfig::default(), None).unwrap();
        let same: Vec<PnEntry> = entries.iter().map(|&e| PnEntry { work: 3, ..e }).collect();
        flat.load_entries(&same);
        check(&flat);
        // Open entries far heavier than every solved one: the solved
        // selection's cut is counted among the solved alone.
        let skewed = PnSolver::new(PnConfig::default(), None).unwrap();
        let skew: Vec<PnEntry> = entries
            .iter()
            .map(|&e| PnEntry {
                work: if e.phi == 0 {
                    e.work % 8
                } else {
                    100_000 + e.work % 5000
                },
                ..e
            })
            .collect();
        skewed.load_entries(&skew);
        check(&skewed);
        // The classes follow the weights, within their number.
        let mut last = 0;
        let keeps =
            (1..70_000u64).chain((17..64).flat_map(|i| [3u64 << (i - 2), !0 >> (64 - i), 1 << i]));
        for keep in keeps.chain([u64::MAX]) {
            let c = weight_class(keep);
            assert!(c < WEIGHT_CLASSES && c >= last, "{keep}");
            last = c;
        }
    }

    /// Takes of random batches (works from a small range, so ties are
    /// broken by key; some keys again with the same work) against the
    /// plain reading of [`PnSolver::take_recent_solved`]: of everything
    /// put in since recording began, the heaviest `max`, and of those the
    /// ones the take's batch brought, heaviest first, ties by key; the
    /// floor is the lightest of them once there are `max`. A take that
    /// kept the batch in the order it came and stopped at the first that
    /// did not join, or sent one that was pushed out, fails it.
    #[test]
    fn takes_hand_out_the_heaviest_as_a_plain_sort_finds_them() {
        let mut rng = crate::rng::SplitMix64::new(7);
        for max in [1, 5, 64, 1000] {
            let s = PnSolver::new(PnConfig::default(), None).unwrap();
            s.record_solved(true);
            let mut all: Vec<(u32, u128)> = Vec::new();
            for _ in 0..40 {
                let batch: Vec<PnEntry> = (0..rng.below(60))
                    .map(|_| {
                        let (work, key) = match all.len() {
                            n if n > 0 && rng.below(8) == 0 => all[rng.index(n)],
                            _ => (rng.below(40) as u32, u128::from(rng.below(1 << 20)) << 1),
                        };
                        PnEntry {
                            key,
                            phi: 0,
                            delta: u32::MAX,
                            work,
                        }
                    })
                    .collect();
                all.extend(batch.iter().map(|e| (e.work, e.key)));
                s.recent.lock().unwrap().extend_from_slice(&batch);
                let got: Vec<(u32, u128)> = s
                    .take_recent_solved(max)
                    .iter()
                    .map(|e| (e.work, e.key))
                    .collect();
                let mut top = all.clone();
                top.sort_unstable_by(|a, b| b.cmp(a));
                top.truncate(max);
                let lightest = *top.last().unwrap_or(&(0, 0));
                // The batch's entries above the cut, and at the cut as
                // many copies as the heaviest `max` has room for.
                let mut room = top.iter().filter(|&&t| t == lightest).count();
                room -= all[..all.len() - batch.len()]
                    .iter()
                    .filter(|&&t| t == lightest)
                    .count()
                    .min(room);
                let mut want: Vec<(u32, u128)> = Vec::new();
                let mut sorted: Vec<(u32, u128)> = batch.iter().map(|e| (e.work, e.key)).collect();
                sorted.sort_unstable_by(|a, b| b.cmp(a));
                for t in sorted {
                    if t > lightest || (t == lightest && room > 0) {
                        room -= usize::from(t == lightest);
                        want.push(t);
                    }
                }
                want.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                assert_eq!(got, want, "max {max}");
                let floor = if top.len() >= max { lightest.0 } else { 0 };
                assert_eq!(s.floor.load(Relaxed), floor, "max {max}");
            }
        }
    }

    /// A search stopped by its budget leaves the path it was in, root
    /// first (with [`PnSolver::track_path`]; without, or after an answer,
    /// none), and a search steered clear of that path goes into another
    /// child of the root: one that ignored [`PnSolver::steer_clear_of`]
    /// would take the same line again; so does a job's solver in a team
    /// with the other jobs on its table. Steering by nothing, or by an
    /// empty set, changes nothing.
    #[test]
    fn a_steered_search_leaves_the_path_another_is_in() {
        let pos = crate::rules::parse::test_position("pawngame", "6x6");
        let stopped = |track: bool, clear_of: Option<Arc<KeySet>>| {
            let s = PnSolver::new(PnConfig::default(), None).unwrap();
            s.track_path(track);
            s.steer_clear_of(clear_of);
            let r = s.answer(&pos, Question::Wins, Some(2_000));
            assert!(matches!(r, Err(SolveError::Stopped)));
            s.stopped_path()
        };
        let first = stopped(true, None);
        assert!(first.len() >= 4, "{first:?}");
        assert!(stopped(false, None).is_empty());
        assert_eq!(stopped(true, Some(Arc::new(KeySet::default()))), first);
        let keys: KeySet = first.iter().copied().collect();
        let second = stopped(true, Some(Arc::new(keys)));
        assert_eq!(second[0], first[0], "the same root");
        assert_ne!(second[1], first[1], "another child of the root");
        // A job's solver in a team with the other jobs on its table
        // (spread_jobs) keeps its path and steers as well.
        let team = |clear_of: Option<Arc<KeySet>>| {
            let config = PnConfig {
                spread_jobs: true,
                ..PnConfig::default()
            };
            let tt = SharedPnTt::new(16).unwrap();
            let s = PnSolver::with_tt(config, None, &tt);
            assert!(s.jobs_team.is_some());
            s.track_path(true);
            s.steer_clear_of(clear_of);
            let r = s.answer(&pos, Question::Wins, Some(2_000));
            assert!(matches!(r, Err(SolveError::Stopped)));
            s.stopped_path()
        };
        let in_team = team(None);
        assert_eq!(in_team[0], first[0]);
        let keys: KeySet = in_team.iter().copied().collect();
        assert_ne!(team(Some(Arc::new(keys)))[1], in_team[1]);
        let small = crate::rules::parse::test_position("pawngame", "4x4");
        let s = PnSolver::new(PnConfig::default(), None).unwrap();
        s.track_path(true);
        s.answer(&small, Question::Wins, None).unwrap();
        assert!(s.stopped_path().is_empty());
    }

    /// The jobs on a table several solvers share read it once while it
    /// is fresh ([`PnSolver::heaviest_for_jobs`]): a second job's end
    /// before the solvers have searched `fresh` nodes each takes the
    /// first read's heaviest and heaviest solved entries, though the
    /// table changed; after, it reads anew. One solver on a table, or no
    /// window, always reads. Caught: a read taken however stale (the
    /// third read), a read never shared (the second), a shared read
    /// that hands on no solved entries (the second).
    #[test]
    fn jobs_on_one_table_share_a_fresh_read() {
        let pos = crate::rules::parse::test_position("pawngame", "7x6");
        let fresh = 5_000;
        // A read of the table as `heaviest_for_jobs` makes one: the 100
        // heaviest kept, the first `max` handed on.
        let read = |s: &PnSolver, max: usize| {
            let (all, solved) = s.heaviest_and_solved(100, 40);
            (all[..max.min(all.len())].to_vec(), solved)
        };
        for workers in [1, 2] {
            let tt = SharedPnTt::for_workers(16, workers).unwrap();
            let a = PnSolver::with_tt(PnConfig::default(), None, &tt);
            let b = PnSolver::with_tt(PnConfig::default(), None, &tt);
            let _ = a.answer(&pos, Question::Wins, Some(3_000));
            let first = read(&a, 60);
            assert!(!first.1.is_empty(), "a search of 3,000 nodes solves some");
            let (warm, solved) = a.heaviest_for_jobs(50, 40, 100, fresh);
            if workers == 1 {
                assert_eq!((warm, solved), a.heaviest_and_solved(50, 40));
            } else {
                assert_eq!((warm, solved), (first.0[..50].to_vec(), first.1.clone()));
            }
            // The other job ends after 4,000 nodes, fewer than 5,000 a
            // solver: the read is fresh, though the table changed.
            let _ = b.answer(&pos, Question::AvoidsLoss, Some(4_000));
            let now = read(&b, 60);
            assert_ne!(now.0, first.0, "the table changed since the read");
            let shared = b.heaviest_for_jobs(60, 40, 100, fresh);
            if workers == 1 {
                assert_eq!(shared, b.heaviest_and_solved(60, 40));
                continue;
            }
            assert_eq!(shared, first);
            // Past the window (two solvers, 5,000 nodes each), a read anew.
            let since = a.stats().nodes;
            let _ = a.answer(&pos, Question::Wins, Some(7_000));
            assert!(a.stats().nodes - since > 6_000, "searched on");
            let now = read(&b, 60);
            assert_eq!(b.heaviest_for_jobs(60, 40, 100, fresh), now);
            // No window, or more than a read keeps: always a read.
            assert_eq!(
                a.heaviest_for_jobs(60, 40, 100, 0),
                a.heaviest_and_solved(60, 40)
            );
            assert_eq!(
                a.heaviest_for_jobs(200, 40, 100, fresh),
                a.heaviest_and_solved(200, 40)
            );
        }
    }

    /// Once a take leaves the heaviest `max` full, the nodes lighter than
    /// the lightest of them are not kept at all, and the next take hands
    /// out what it would have handed out had they been kept: the nodes of
    /// the second search that are among the heaviest `max` of both
    /// searches, heaviest first.
    #[test]
    fn nodes_too_light_for_the_heaviest_are_not_kept() {
        let root = crate::rules::parse::test_position("pawngame", "5x6");
        let child = root.play(root.parse_move("c3").unwrap());
        // The same two searches, with takes of `first` and `second` after
        // each (a take does not change the table, so the searches are
        // the same whatever is taken).
        let run = |first: usize, second: usize| {
            let s = PnSolver::new(PnConfig::default(), None).unwrap();
            s.record_solved(true);
            s.answer(&child, Question::Wins, None).unwrap();
            let a = s.take_recent_solved(first);
            s.answer(&root, Question::Wins, None).unwrap();
            let kept = s.recent.lock().unwrap().len();
            (a, kept, s.take_recent_solved(second))
        };
        let (all_first, _, all_second) = run(usize::MAX, usize::MAX);
        // A take of 8 leaves the heaviest full after the first search; one
        // of 500 does not, and keeps everything.
        assert!(all_first.len() > 8 && all_first.len() < 500);
        assert!(all_first.len() + all_second.len() >= 500);
        for max in [8, 500] {
            let (_, kept, second) = run(max, max);
            // The heaviest `max` of both searches.
            let mut both: Vec<(u32, u128)> = all_first
                .iter()
                .chain(&all_second)
                .map(|e| (e.work, e.key))
                .collect();
            both.sort_unstable_by(|a, b| b.cmp(a));
            let lightest = both[max - 1];
            let expected: Vec<PnEntry> = all_second
                .iter()
                .filter(|e| (e.work, e.key) >= lightest)
                .copied()
                .collect();
            assert!(!expected.is_empty());
            assert_eq!(second, expected, "max {max}");
            if max == 8 {
                // Most of the second search's nodes were too light to keep.
                assert!(
                    kept < all_second.len() / 2,
                    "{kept} of {}",
                    all_second.len()
                );
            } else {
                assert_eq!(kept, all_second.len());
            }
        }
    }

    /// The child a thread of a team searches next: the smallest δ when no
    /// other thread is anywhere, the next one where others are in it
    /// (seen as (k+1)·δ), never a child at or above the threshold (it
    /// would come back with nothing searched), and solved children as
    /// they are.
    #[test]
    fn a_team_thread_steers_away_from_busy_children() {
        let pos = crate::rules::parse::test_position("pawngame", "4x4");
        let child = |key: u128, delta: Number| Child {
            pos,
            key,
            phi: 1,
            delta,
        };
        let children = [child(2, 5), child(4, 8), child(6, 30)];
        let team = Team::new(true);
        assert_eq!(team_choice(&children, INF, &team), (0, 8));
        // One thread in the first child: 10 > 8.
        team.enter(2);
        assert_eq!(team_choice(&children, INF, &team), (1, 10));
        // Below the threshold 8 only the first child qualifies.
        assert_eq!(team_choice(&children, 8, &team).0, 0);
        // Two threads in the second child too: 5·2 = 10 < 8·3 = 24.
        team.enter(4);
        team.enter(4);
        assert_eq!(team_choice(&children, INF, &team), (0, 24));
        team.leave(2);
        team.leave(4);
        team.leave(4);
        assert_eq!(team_choice(&children, INF, &team), (0, 8));
        // Without spreading, the others are not seen.
        let blind = Team::new(false);
        blind.enter(2);
        assert_eq!(team_choice(&children, INF, &blind), (0, 8));
        // A solved child's δ (0 or INF) is never inflated.
        let solved = [child(2, 0), child(4, INF)];
        team.enter(2);
        team.enter(4);
        assert_eq!(team.virtual_delta(&solved[0]), 0);
        assert_eq!(team.virtual_delta(&solved[1]), INF);
    }

    /// A team's thread steers away from the others only at a node one of
    /// whose moves has already failed for its mover (a child with φ 0),
    /// or at every node with `spread_every`; never without spreading.
    #[test]
    fn a_team_thread_spreads_only_where_a_move_has_failed() {
        let pos = crate::rules::parse::test_position("pawngame", "4x4");
        let child = |key: u128, phi: Number, delta: Number| Child {
            pos,
            key,
            phi,
            delta,
        };
        let open = [child(2, 3, 5), child(4, 1, 8)];
        // The third move is lost for the mover: its child is proven for
        // the child's mover.
        let failed = [child(2, 3, 5), child(4, 1, 8), child(6, 0, INF)];
        // A won move (δ 0) is no failure.
        let won = [child(2, 3, 5), child(4, INF, 0)];
        let team = Team::new(true);
        assert!(!team.spreads_at(&open, false));
        assert!(team.spreads_at(&failed, false));
        assert!(!team.spreads_at(&won, false));
        assert!(team.spreads_at(&open, true));
        assert!(!Team::new(false).spreads_at(&failed, true));
    }

    /// A team's thread reads its children's numbers again between two of
    /// their searches only where another thread is in its node or in one
    /// of the children: alone in the node (its own count) and with every
    /// child empty it keeps the numbers it has.
    #[test]
    fn a_team_thread_reads_its_children_again_only_near_others() {
        let pos = crate::rules::parse::test_position("pawngame", "4x4");
        let child = |key: u128| Child {
            pos,
            key,
            phi: 1,
            delta: 1,
        };
        let (node, children) = (10, [child(2), child(4), child(6)]);
        let team = Team::new(true);
        // The asking thread, not yet counted in the node, then counted.
        assert!(!team.others_near(node, false, &children));
        let inside = Inside::enter(&team, node);
        assert!(!team.others_near(node, true, &children));
        // Another thread in a child.
        team.enter(6);
        assert!(team.others_near(node, true, &children));
        team.leave(6);
        assert!(!team.others_near(node, true, &children));
        // Another thread in the node itself.
        team.enter(node);
        assert!(team.others_near(node, true, &children));
        drop(inside);
        assert!(team.others_near(node, false, &children));
        team.leave(node);
        assert!(!team.others_near(node, false, &children));
        // A thread elsewhere is not near.
        team.enter(8);
        assert!(!team.others_near(node, false, &children));
    }

    /// On one thread a read without the bucket's lock finds what a read
    /// under it finds: the same search, node for node, with a table of one
    /// bucket (replaced all the time) and a normal one.
    #[test]
    fn reads_without_the_lock_search_as_reads_under_it() {
        let pos = crate::rules::parse::test_position("peasants", "5x6");
        for mb in [0, 1] {
            let run = |lock_free_reads| {
                let s = PnSolver::new(
                    PnConfig {
                        lock_free_reads,
                        search: crate::solve::SearchConfig {
                            hash_mb: mb,
                            ..PnConfig::default().search
                        },
                        ..PnConfig::default()
                    },
                    None,
                )
                .unwrap();
                let answers = [Question::Wins, Question::AvoidsLoss]
                    .map(|q| s.answer(&pos, q, None).unwrap());
                (answers, s.stats().nodes)
            };
            let (answers, nodes) = run(true);
            assert!(nodes > 500, "{nodes}");
            assert_eq!((answers, nodes), run(false), "{mb} MiB");
        }
    }

    /// One bucket: a store into room or onto its own key gives up
    /// nothing; one into the full bucket gives up the entry that keeps
    /// least among the slots that can hold it (an open entry weighs its
    /// work, a solved one four times its work; an open entry takes a wide
    /// slot) and says its work, which `solve` counts. Mutants: nothing
    /// said, or the new entry's work said instead.
    #[test]
    fn a_full_bucket_says_what_it_gave_up() {
        let tt = TranspositionTable::new(0).unwrap();
        // White pawns on rank 2, black ones on rank 3.
        let key = |i: u128| (i << 8) | (i << 80);
        for i in 1..=BUCKET as u128 {
            // Solved, with work 10 to 80: the narrow slots first, then
            // the wide ones (keys 7 and 8).
            assert_eq!(tt.store(key(i), 0, INF, 10 * i as u64), None, "{i}");
        }
        assert_eq!(tt.store(key(8), 0, INF, 5), None, "its own key");
        // Of the wide slots, key 7 (work 70) keeps less than key 8 (85).
        assert_eq!(tt.store(key(20), 3, 4, 10), Some(70));
        // Now the open entry of work 10 keeps less than key 8.
        assert_eq!(tt.store(key(21), 3, 4, 1), Some(10));
        assert_eq!(tt.store(key(22), 3, 4, 7), Some(1));
        assert!(tt.probe(key(7), false).is_none());
        // A solved entry gives up the lightest of all slots: the open
        // key 22 (work 7), then key 1 (work 10) in a narrow slot.
        assert_eq!(tt.store(key(23), INF, 0, 50), Some(7));
        assert!(tt.probe(key(22), false).is_none());
        assert_eq!(tt.store(key(24), INF, 0, 50), Some(10));
        assert!(tt.probe(key(1), false).is_none());
        // An open entry (in place of key 23, work 50) that is solved
        // stays in its wide slot.
        assert_eq!(tt.store(key(25), 3, 4, 1), Some(50));
        assert_eq!(tt.store(key(25), 0, INF, 1), None);
        assert_eq!(tt.probe(key(25), false), Some((0, INF)));
        assert_eq!(tt.probe(key(24), false), Some((INF, 0)));
        assert_eq!(tt.probe(key(8), false), Some((0, INF)));
        let mut stats = SolveStats::default();
        stats.table.count(Some(7));
        stats.table.count(None);
        stats.table.count(Some(3));
        let t = stats.table;
        assert_eq!((t.stores, t.replaced, t.replaced_max_work), (3, 2, 7));
    }

    /// Work counts keep their order, exact below 512 and within a 256th
    /// above, up to where they stay. Mutant: a mantissa of 8 bits (or the
    /// shift misread) fails it.
    #[test]
    fn work_counts_keep_their_order_in_fourteen_bits() {
        let mut rng = crate::rng::SplitMix64::new(15);
        let mut last = (0, 0);
        let mut counts: Vec<u64> = (0..2048).collect();
        counts.extend((0..20_000).map(|_| rng.next_u64() >> rng.below(64)));
        counts.extend([u64::MAX, 511 << 31, (511 << 31) - 1, 1 << 40]);
        counts.sort_unstable();
        for w in counts {
            let bits = work_bits(w);
            assert!(bits < 1 << 14, "{w}");
            let kept = work_of(bits);
            assert!(kept <= w, "{w}");
            if w < 512 {
                assert_eq!(kept, w);
            } else if w <= 511 << 31 {
                assert!(w - kept < w / 256, "{w} kept as {kept}");
            } else {
                assert_eq!(kept, 511 << 31, "{w}");
            }
            assert!(bits >= last.1 && kept >= last.0, "{w}: order");
            last = (kept, bits);
        }
    }

    /// The table gives back every key it kept, both questions of a
    /// position apart, and every number, open ones and both ways of
    /// solved ones: keys that differ only in the code's top bits (black
    /// pawns on rank 7, an en passant mark) or in the question are not
    /// taken for one another, and a key no searched position has is not
    /// kept. Mutants: the top word or the question left out of the
    /// compares, or a narrow slot's way of being solved misread, fail it.
    #[test]
    fn entries_keep_whole_keys_and_their_numbers() {
        let tt = TranspositionTable::new(64).unwrap();
        let mut rng = crate::rng::SplitMix64::new(20);
        let mut kept = HashMap::new();
        let b2 = 1u128 << 9;
        // Rank 7's black pawns and the marks are the code's top digits.
        let mut keys = vec![
            b2,
            b2 | 1 << 118,
            b2 | 1 << 119,
            b2 | 1 << 123,
            b2 | 1 << 124,
        ];
        // Few enough that no bucket overflows: five positions' solved
        // questions in one bucket, or two open positions, are not
        // expected (and the seed gives none).
        for _ in 0..10_000 {
            let x = rng.next_u64();
            let white = (x & rng.next_u64() & 0x00ff_ffff_ffff_ff00) as u128;
            let black = (rng.next_u64() & rng.next_u64() & 0x00ff_ffff_ffff_ff00) as u128 & !white;
            let mark = if x.is_multiple_of(5) {
                1 << (56 + x % 8)
            } else {
                0
            };
            keys.push(white | (black | mark) << 64);
        }
        for (n, &key) in keys.iter().enumerate() {
            if key == 0 {
                continue;
            }
            for question in [0, 1] {
                // One position in a hundred open, the rest solved either
                // way.
                let (phi, delta) = if n % 100 == 7 {
                    (n as u32 * 2 + question as u32 + 1, 7)
                } else if (n + question as usize).is_multiple_of(2) {
                    (0, INF)
                } else {
                    (INF, 0)
                };
                let work = rng.below(1 << 20);
                assert_eq!(tt.store(key | question, phi, delta, work), None, "{n}");
                kept.insert(key | question, (phi, delta, work));
            }
        }
        let mut seen = 0;
        for (&key, &(phi, delta, _)) in &kept {
            assert_eq!(tt.probe(key, false), Some((phi, delta)), "{key:#x}");
        }
        // As `SharedPnTt::for_each_entry` and the heaviest give them out.
        tt.for_each_bucket(|b| {
            for e in b.iter().filter(|e| !e.is_empty()).map(|e| e.to_pn()) {
                let (phi, delta, work) = kept[&e.key];
                assert_eq!((e.phi, e.delta), (phi, delta), "{:#x}", e.key);
                assert_eq!(u64::from(e.work), work_of(work_bits(work)));
                seen += 1;
            }
        });
        assert_eq!(seen, kept.len(), "no entry given up in 64 MiB");
        // A white pawn on rank 8 is no searched position: not kept.
        assert_eq!(tt.store(1 << 57, 1, 1, 1), None);
        assert_eq!(tt.probe(1 << 57, false), None);
    }

    #[test]
    fn buckets_are_two_cache_lines() {
        assert_eq!(std::mem::size_of::<Bucket>(), 112);
        assert_eq!(crate::solve::tt::bucket_bytes::<[Bucket; 1]>(), 128);
    }
}
