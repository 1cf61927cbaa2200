//! The perfect-hash index of a material class: every table position gets a
//! number in `0..len()`, and back.
//!
//! Table positions are canonical: white to move (black-to-move positions
//! are colour-flipped first), no en passant right (those are resolved by one
//! ply of search), and no pawn on a second-to-last rank (resolved by rule,
//! docs/RULES.md fact 3). So white pawns stand on ranks 2..H-2 and black pawns on
//! ranks 3..H-1.
//!
//! The index is the combinatorial number system twice over. The white pawns'
//! set picks a block; inside it, the black pawns' set is ranked among the
//! squares black may use that white leaves free, so no number is wasted on
//! two pawns sharing a square. The left-right mirror is folded by keeping
//! only white sets that are no greater than their mirror image; where a white
//! set is its own mirror, both mirror images of the black set keep a number
//! (they are few, and always get equal values).

use crate::index::material::Material;
use crate::rules::bitboard::Bitboard;
use crate::rules::color::{ByColor, Color};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

/// Binomial coefficients `C(n, k)` for `n, k <= 64` (saturating, never
/// reached on a board of 48 usable squares).
static BINOMIAL: [[u64; 65]; 65] = {
    let mut t = [[0u64; 65]; 65];
    let mut n = 0;
    while n <= 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1].saturating_add(if k < n { t[n - 1][k] } else { 0 });
            k += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, k)`, zero when `k > n`.
#[inline]
pub fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        0
    } else {
        BINOMIAL[n as usize][k as usize]
    }
}

/// The `k`-subset of `0..n` with colex rank `r`, as its elements in
/// increasing order in `c[..k]`.
fn unrank_places(mut r: u64, k: u32, n: u32, c: &mut [usize; 64]) {
    let mut p = n;
    for i in (1..=k).rev() {
        // The largest p with C(p, i) <= r.
        p -= 1;
        while binomial(p, i) > r {
            p -= 1;
        }
        r -= binomial(p, i);
        c[i as usize - 1] = p as usize;
    }
}

/// The squares of `mask` as one-square masks, in square order, and how
/// many there are.
fn square_bits(mask: Bitboard) -> ([u64; 64], usize) {
    let mut bits = [0u64; 64];
    let mut n = 0;
    for sq in mask {
        bits[n] = 1u64 << sq.index();
        n += 1;
    }
    (bits, n)
}

/// The subset of `mask` with `k` elements and colex rank `r`.
fn unrank_subset(r: u64, k: u32, mask: Bitboard) -> Bitboard {
    let (bits, n) = square_bits(mask);
    let mut c = [0usize; 64];
    unrank_places(r, k, n as u32, &mut c);
    Bitboard(c[..k as usize].iter().fold(0, |set, &p| set | bits[p]))
}

/// The squares white pawns of a table position may stand on: ranks 2..H-2.
pub fn white_domain(variant: Variant) -> Bitboard {
    let b = variant.board;
    (1..=b.height() - 3).fold(Bitboard::EMPTY, |acc, r| acc | b.rank_mask(r))
}

/// The squares black pawns of a table position may stand on: ranks 3..H-1.
pub fn black_domain(variant: Variant) -> Bitboard {
    white_domain(variant).mirror_ranks(variant.board.height())
}

/// Whether a position is a table position: white to move, no en passant
/// right, every pawn inside its side's domain, at least one pawn a side.
pub fn in_domain(pos: &Position) -> bool {
    let v = pos.variant();
    pos.turn() == Color::White
        && pos.ep_square().is_none()
        && (pos.pawns(Color::White) & !white_domain(v)).is_empty()
        && (pos.pawns(Color::Black) & !black_domain(v)).is_empty()
        && pos.pawns(Color::White).any()
        && pos.pawns(Color::Black).any()
}

const NOT_CANONICAL: u32 = u32::MAX;

/// What a set of white pawns contributes to a position's number.
#[derive(Clone, Copy, Debug)]
pub struct WhiteKey {
    offset: u64,
    white_on_black: u64,
    mirror: bool,
}

/// Counts of an index, for reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexStats {
    /// Numbers the index hands out (`len()`).
    pub len: u64,
    /// Distinct positions up to mirror: `len` less the mirror twins kept.
    pub distinct: u64,
    /// Positions without the mirror fold.
    pub unfolded: u64,
}

/// The index of one material class of one variant.
pub struct Index {
    variant: Variant,
    material: Material,
    black_mask: Bitboard,
    /// Canonical white sets, in index order.
    white_sets: Vec<Bitboard>,
    /// `offsets[i]`: the first number of white set `i`'s block; one extra at the end.
    offsets: Vec<u64>,
    /// Colex rank of a white set among all of `white_mask` -> its block, or NOT_CANONICAL.
    block_of: Vec<u32>,
    /// A square's place among the squares of `white_mask` / `black_mask`.
    white_place: [u8; 64],
    black_place: [u8; 64],
}

/// Each square's place among the squares of `mask` (in square order).
fn places(mask: Bitboard) -> [u8; 64] {
    let mut out = [0u8; 64];
    for (i, slot) in out.iter_mut().enumerate() {
        *slot = (mask.0 & ((1u64 << i) - 1)).count_ones() as u8;
    }
    out
}

impl Index {
    /// Builds the index of `material` on `variant`'s board.
    pub fn new(variant: Variant, material: Material) -> Index {
        let width = variant.board.width();
        let white_mask = white_domain(variant);
        let black_mask = black_domain(variant);
        let (nw, nb) = (material.white as u32, material.black as u32);
        let all_white = binomial(white_mask.count(), nw);
        let mut white_sets = Vec::new();
        let mut offsets = vec![0u64];
        let mut block_of = vec![NOT_CANONICAL; all_white as usize];
        for r in 0..all_white {
            let set = unrank_subset(r, nw, white_mask);
            if set.mirror_files(width) < set {
                continue;
            }
            block_of[r as usize] = white_sets.len() as u32;
            white_sets.push(set);
            let free = (black_mask & !set).count();
            offsets.push(offsets.last().unwrap() + binomial(free, nb));
        }
        Index {
            variant,
            material,
            black_mask,
            white_sets,
            offsets,
            block_of,
            white_place: places(white_mask),
            black_place: places(black_mask),
        }
    }

    /// The game whose positions the index numbers.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The class whose positions the index numbers.
    pub fn material(&self) -> Material {
        self.material
    }

    /// How many numbers the index hands out.
    #[inline]
    pub fn len(&self) -> u64 {
        *self.offsets.last().unwrap()
    }

    /// Whether the index hands out no number at all (`len() == 0`).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The white pawn sets the index keeps (no greater than their mirror
    /// image), in index order.
    pub fn white_sets(&self) -> &[Bitboard] {
        &self.white_sets
    }

    /// Every set of black pawns of this class's size on black's squares
    /// (overlapping some white sets; a position needs the two disjoint).
    pub fn black_sets(&self) -> impl Iterator<Item = Bitboard> + '_ {
        let k = self.material.black as u32;
        (0..binomial(self.black_mask.count(), k)).map(move |r| unrank_subset(r, k, self.black_mask))
    }

    /// Bytes of memory the index itself holds (not the values).
    pub fn memory_bytes(&self) -> u64 {
        (self.white_sets.len() * 8 + self.offsets.len() * 8 + self.block_of.len() * 4) as u64
    }

    /// The number of a table position of this class (see [`in_domain`]).
    /// A position and its mirror image get the same number.
    #[inline]
    pub fn rank(&self, pos: &Position) -> u64 {
        debug_assert!(in_domain(pos) && Material::of(pos) == self.material);
        self.rank_pawns(pos.pawns(Color::White), pos.pawns(Color::Black))
    }

    /// [`Index::rank`] from the two sets of pawns.
    #[inline]
    pub fn rank_pawns(&self, white: Bitboard, black: Bitboard) -> u64 {
        self.rank_black(&self.white_key(white), black)
    }

    /// The part of a number fixed by the white pawns alone: positions that
    /// share their white pawns share it (see [`Index::rank_black`]).
    #[inline]
    pub fn white_key(&self, white: Bitboard) -> WhiteKey {
        let width = self.variant.board.width();
        let mirrored = white.mirror_files(width);
        let (white, mirror) = if mirrored < white {
            (mirrored, true)
        } else {
            (white, false)
        };
        let mut white_rank = 0;
        for (i, sq) in white.enumerate() {
            white_rank += BINOMIAL[self.white_place[sq.index()] as usize][i + 1];
        }
        let block = self.block_of[white_rank as usize];
        debug_assert_ne!(block, NOT_CANONICAL);
        WhiteKey {
            offset: self.offsets[block as usize],
            white_on_black: (white & self.black_mask).0,
            mirror,
        }
    }

    /// The number of the position with `key`'s white pawns and `black`.
    #[inline]
    pub fn rank_black(&self, key: &WhiteKey, black: Bitboard) -> u64 {
        let black = if key.mirror {
            black.mirror_files(self.variant.board.width())
        } else {
            black
        };
        // Black's squares are ranked among those white leaves free.
        let mut black_rank = 0;
        for (i, sq) in black.enumerate() {
            let below = (1u64 << sq.index()) - 1;
            let place =
                self.black_place[sq.index()] as u32 - (key.white_on_black & below).count_ones();
            black_rank += BINOMIAL[place as usize][i + 1];
        }
        key.offset + black_rank
    }

    /// The canonical position with number `index < len()`.
    pub fn unrank(&self, index: u64) -> Position {
        let block = self.offsets.partition_point(|&o| o <= index) - 1;
        let white = self.white_sets[block];
        let free = self.black_mask & !white;
        let black = unrank_subset(
            index - self.offsets[block],
            self.material.black as u32,
            free,
        );
        Position::from_parts_unchecked(self.variant, ByColor { white, black }, Color::White, None)
    }

    /// Calls `f(white, black)` with the pawn sets of the positions numbered
    /// `first .. first + len`, in order: what [`Index::unrank`] gives each
    /// of them, found by stepping from one black set to the next in the
    /// colex order rather than unranking every number anew (a table writer
    /// that stores another order walks the whole class this way).
    pub fn for_each_in_run(&self, first: u64, len: u64, mut f: impl FnMut(Bitboard, Bitboard)) {
        assert!(
            first.checked_add(len).is_some_and(|end| end <= self.len()),
            "positions {first} + {len} outside an index of {}",
            self.len()
        );
        if len == 0 {
            return;
        }
        let k = self.material.black as usize;
        let mut block = self.offsets.partition_point(|&o| o <= first) - 1;
        let mut r = first - self.offsets[block];
        let mut left = len;
        let mut c = [0usize; 64];
        while left > 0 {
            let run = (self.offsets[block + 1] - self.offsets[block] - r).min(left);
            if run == 0 {
                // A white set that leaves black too few squares numbers
                // nothing.
                block += 1;
                continue;
            }
            let white = self.white_sets[block];
            let (bits, n) = square_bits(self.black_mask & !white);
            unrank_places(r, k as u32, n as u32, &mut c);
            let mut black = c[..k].iter().fold(0, |set, &p| set | bits[p]);
            f(white, Bitboard(black));
            for _ in 1..run {
                // The colex successor: the lowest element that can move up
                // one place does, and the elements below it go back to the
                // bottom (`run` ends before the block's last set, so one can).
                let mut t = 0;
                while t + 1 < k && c[t] + 1 == c[t + 1] {
                    t += 1;
                }
                for &p in &c[..=t] {
                    black &= !bits[p];
                }
                c[t] += 1;
                black |= bits[c[t]];
                for (s, place) in c[..t].iter_mut().enumerate() {
                    *place = s;
                    black |= bits[s];
                }
                f(white, Bitboard(black));
            }
            left -= run;
            block += 1;
            r = 0;
        }
    }

    /// Counts for reports: numbers, distinct positions, positions unfolded.
    pub fn stats(&self) -> IndexStats {
        let width = self.variant.board.width();
        let nb = self.material.black as u32;
        let mut twins = 0u64;
        let mut unfolded = 0u64;
        for (i, &set) in self.white_sets.iter().enumerate() {
            let block = self.offsets[i + 1] - self.offsets[i];
            if set.mirror_files(width) == set {
                // Black sets that are their own mirror have no twin.
                let free = self.black_mask & !set;
                let fixed = free.filter(|sq| sq.mirror_file(width) == *sq).count() as u32;
                let pairs = (free.count() - fixed) / 2;
                let symmetric: u64 = (0..=nb / 2)
                    .map(|j| binomial(pairs, j) * binomial(fixed, nb - 2 * j))
                    .sum();
                twins += (block - symmetric) / 2;
                unfolded += block;
            } else {
                unfolded += 2 * block;
            }
        }
        IndexStats {
            len: self.len(),
            distinct: self.len() - twins,
            unfolded,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::square::Square;

    /// Rank of `set` among all subsets of `mask` of the same size (colex order).
    fn rank_subset(set: Bitboard, mask: Bitboard) -> u64 {
        let mut r = 0;
        for (i, sq) in set.enumerate() {
            let below = (1u64 << sq.index()) - 1;
            let pos = (mask.0 & below).count_ones();
            r += BINOMIAL[pos as usize][i + 1];
        }
        r
    }
    use crate::rules::variant::{Board, Rules};

    fn variant(w: u8, h: u8) -> Variant {
        Variant::new(Board::new(w, h).unwrap(), Rules::default())
    }

    #[test]
    fn binomials() {
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(40, 6), 3_838_380);
        assert_eq!(binomial(3, 4), 0);
        assert_eq!(binomial(48, 24), 32_247_603_683_100);
    }

    #[test]
    fn subsets_round_trip() {
        let mask = Bitboard(0x00FF_FF00_0F0F_0F00);
        for k in 0..=4u32 {
            for r in 0..binomial(mask.count(), k) {
                let set = unrank_subset(r, k, mask);
                assert_eq!(set.count(), k);
                assert_eq!(set & !mask, Bitboard::EMPTY);
                assert_eq!(rank_subset(set, mask), r);
            }
        }
    }

    /// Every number unranks to a canonical table position that ranks back to
    /// it, and every table position (mirrored or not) ranks into the index.
    #[test]
    fn rank_unrank_round_trip_on_small_boards() {
        for (w, h) in [(1, 8), (2, 6), (3, 5), (3, 8), (4, 6), (5, 5)] {
            let v = variant(w, h);
            for m in Material::up_to(5) {
                let index = Index::new(v, m);
                for i in 0..index.len() {
                    let pos = index.unrank(i);
                    assert!(in_domain(&pos));
                    assert_eq!(Material::of(&pos), m);
                    assert_eq!(index.rank(&pos), i, "{w}x{h} {m} {pos}");
                    let twin = pos.mirrored();
                    let white = twin.pawns(Color::White);
                    if white.mirror_files(w) == white {
                        // A symmetric white set keeps both mirror twins.
                        assert_eq!(index.unrank(index.rank(&twin)), twin);
                    } else {
                        assert_eq!(index.rank(&twin), i);
                    }
                }
                let stats = index.stats();
                assert!(stats.distinct <= stats.len && stats.len <= stats.unfolded);
            }
        }
    }

    /// Random numbers of the big 8x8 classes (up to 8 pawns) and of 4x8's
    /// biggest, ranked back after unranking.
    #[test]
    fn rank_unrank_round_trip_on_big_classes() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for (w, h, classes) in [
            (8, 8, &["4v3", "3v4", "6v1", "5v2", "4v4"][..]),
            (4, 8, &["7v7", "8v6"][..]),
        ] {
            let v = variant(w, h);
            for m in classes {
                let index = Index::new(v, m.parse().unwrap());
                for _ in 0..20_000 {
                    let i = next() % index.len();
                    let pos = index.unrank(i);
                    assert!(in_domain(&pos));
                    assert_eq!(index.rank(&pos), i, "{w}x{h} {m} {pos}");
                }
            }
        }
    }

    /// Runs of numbers walked in order give what unranking each gives:
    /// whole classes, and runs that start and end inside blocks.
    #[test]
    fn runs_walk_the_unranked_positions() {
        let pawns = |p: Position| (p.pawns(Color::White), p.pawns(Color::Black));
        let mut rng = crate::rng::SplitMix64::new(7);
        for (w, h) in [(1, 8), (3, 5), (4, 6), (5, 8)] {
            let v = variant(w, h);
            for m in Material::up_to(6) {
                let index = Index::new(v, m);
                let mut runs = vec![(0, index.len()), (0, 0)];
                for _ in 0..20 {
                    let first = rng.next_u64() % (index.len() + 1);
                    let len = rng.next_u64() % (index.len() - first + 1).min(5_000);
                    runs.push((first, len));
                }
                for (first, len) in runs {
                    let mut i = first;
                    index.for_each_in_run(first, len, |white, black| {
                        assert_eq!((white, black), pawns(index.unrank(i)), "{w}x{h} {m} {i}");
                        i += 1;
                    });
                    assert_eq!(i, first + len);
                }
            }
        }
    }

    /// A run past the end of the index is refused.
    #[test]
    #[should_panic(expected = "outside an index")]
    fn runs_past_the_end_are_refused() {
        let index = Index::new(variant(3, 5), "2v2".parse().unwrap());
        index.for_each_in_run(index.len() - 1, 2, |_, _| {});
    }

    /// The index counts exactly the distinct table positions up to mirror.
    #[test]
    fn index_is_dense() {
        use std::collections::HashSet;
        for (w, h) in [(2, 6), (3, 6), (4, 5)] {
            let v = variant(w, h);
            let wd = white_domain(v);
            let bd = black_domain(v);
            for m in Material::up_to(4) {
                // Every placement of the class, by brute force over subsets.
                let mut all = HashSet::new();
                let squares: Vec<u32> = (wd | bd).map(|s| s.index() as u32).collect();
                let n = squares.len();
                for bits in 0u64..(1u64 << n) {
                    if bits.count_ones() != m.total() as u32 {
                        continue;
                    }
                    let set = Bitboard(
                        squares
                            .iter()
                            .enumerate()
                            .filter(|(i, _)| bits >> i & 1 == 1)
                            .fold(0, |a, (_, &s)| a | 1u64 << s),
                    );
                    // Split the set into white and black in every way.
                    let members: Vec<Square> = set.collect();
                    for wbits in 0u64..(1u64 << members.len()) {
                        if wbits.count_ones() != m.white as u32 {
                            continue;
                        }
                        let mut white = Bitboard::EMPTY;
                        let mut black = Bitboard::EMPTY;
                        for (i, &sq) in members.iter().enumerate() {
                            if wbits >> i & 1 == 1 {
                                white.set(sq)
                            } else {
                                black.set(sq)
                            }
                        }
                        if (white & !wd).any() || (black & !bd).any() {
                            continue;
                        }
                        let canon = std::cmp::min(
                            (white, black),
                            (white.mirror_files(w), black.mirror_files(w)),
                        );
                        all.insert(canon);
                    }
                }
                let index = Index::new(v, m);
                let stats = index.stats();
                assert_eq!(stats.distinct, all.len() as u64, "{w}x{h} {m}");
                let ranks: HashSet<u64> = all
                    .iter()
                    .map(|&(wh, bl)| index.rank_pawns(wh, bl))
                    .collect();
                assert_eq!(ranks.len() as u64, stats.distinct);
            }
        }
    }
}
