//! Canonical forms of positions (docs/RULES.md facts 2, 5 and 6): one
//! representative for every class of positions that play alike, so that a
//! transposition table or a table probe serves them all.
//!
//! - **Colour flip**: black to move becomes white to move, board turned
//!   upside down (values from the side to move's view are unchanged).
//! - **Mirror**: the board mirrored left-right.
//! - **Walls** (fact 5): a file without pawns stays empty forever and
//!   nothing crosses it, so the position is a list of independent
//!   segments (maximal runs of files holding pawns). Each segment is
//!   mirrored on its own, the segments are sorted and packed to the left,
//!   one empty file apart.
//! - **Frozen islands** (fact 6): a segment in which neither side has a
//!   move can never change again; all it still does is keep a pawn of each
//!   side on the board. Every such segment is replaced by one smallest
//!   island: a white pawn on rank 2 blocked by a black pawn on rank 3.
//!
//! Every rule is checked against plain minimax on every reachable position
//! of small boards (tests below and `tests/suite/solver_vs_minimax.rs`).
//! The game trees of a position and of its canonical form are isomorphic,
//! so the DTM is kept too.

use crate::rules::bitboard::Bitboard;
use crate::rules::color::{ByColor, Color};
use crate::rules::error::SettingError;
use crate::rules::position::Position;
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use std::fmt;
use std::str::FromStr;

/// Which of the rules beyond the colour flip and the whole-board mirror
/// [`canonical_with`] applies.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CanonicalRules {
    /// Empty files are walls: segments mirrored and sorted independently.
    pub walls: bool,
    /// Frozen segments replaced by one smallest frozen island (needs walls).
    pub islands: bool,
}

impl CanonicalRules {
    /// Every rule.
    pub const ALL: CanonicalRules = CanonicalRules {
        walls: true,
        islands: true,
    };
    /// Only the colour flip and the mirror of the whole board.
    pub const FLIP_MIRROR: CanonicalRules = CanonicalRules {
        walls: false,
        islands: false,
    };
}

impl Default for CanonicalRules {
    fn default() -> CanonicalRules {
        CanonicalRules::ALL
    }
}

impl fmt::Display for CanonicalRules {
    /// `all`, `walls` (walls without frozen islands) or `flip` (no walls:
    /// islands need them), as [`CanonicalRules::from_str`] reads them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match (self.walls, self.islands) {
            (false, _) => "flip",
            (true, false) => "walls",
            (true, true) => "all",
        })
    }
}

impl FromStr for CanonicalRules {
    type Err = SettingError;

    /// `all` ([`CanonicalRules::ALL`]), `walls` (no frozen islands) or
    /// `flip` ([`CanonicalRules::FLIP_MIRROR`]).
    fn from_str(text: &str) -> Result<CanonicalRules, SettingError> {
        match text {
            "all" => Ok(CanonicalRules::ALL),
            "walls" => Ok(CanonicalRules {
                walls: true,
                islands: false,
            }),
            "flip" => Ok(CanonicalRules::FLIP_MIRROR),
            _ => Err(SettingError {
                expected: "all, walls or flip",
            }),
        }
    }
}

/// A file's contents packed in one word: bit `r` white pawn on rank `r`,
/// bit `8 + r` black pawn, bit `16 + r` the en passant square.
type Column = u32;

/// Whether neither side has a move among the files `first..first + len`.
#[inline]
fn frozen(pos: &Position, first: u8, len: u8) -> bool {
    let row = ((1u64 << len) - 1) << first;
    let mask = Bitboard(row.wrapping_mul(Bitboard::FILE_A.0)) & pos.board().squares();
    if pos.ep_square().is_some_and(|s| mask.contains(s)) {
        return false;
    }
    let white = pos.pawns(Color::White) & mask;
    let black = pos.pawns(Color::Black) & mask;
    let empty = pos.board().squares() & !pos.occupied();
    let moves = (white.up(1) & empty)
        | (black.down(1) & empty)
        | ((white.left() | white.right()).up(1) & black)
        | ((black.left() | black.right()).down(1) & white);
    moves.is_empty()
}

/// The smallest frozen island: a white pawn on rank 2 blocked by a black
/// pawn on rank 3.
const ISLAND: Column = (1 << 1) | (1 << (8 + 2));

/// The canonical form of `pos` under every rule (see the module text).
#[inline]
pub fn canonical(pos: &Position) -> Position {
    canonical_with(pos, CanonicalRules::ALL)
}

/// The canonical form of `pos` under the colour flip, the mirror and the
/// chosen further rules. Always white to move; same variant.
///
/// The position's columns are taken for all files at once (`Columns`),
/// and the form is put together from its own bitboards, each segment
/// shifted (and mirrored) into place with its en passant square, if it
/// has one. The tests hold it to a column-by-column construction.
#[inline]
pub fn canonical_with(pos: &Position, rules: CanonicalRules) -> Position {
    let p = if pos.turn() == Color::Black {
        pos.flipped()
    } else {
        *pos
    };
    let w = p.board().width() as usize;
    let cols = Columns::of(&p);
    // Without walls, or when every file holds a pawn (one segment) that is
    // not frozen: the position or its mirror image, whichever is smaller.
    let files = p.occupied().files() as u64;
    if !rules.walls || (files == (1 << w) - 1 && !(rules.islands && frozen(&p, 0, w as u8))) {
        return if cols.mirrored_smaller(0, w) {
            p.mirrored()
        } else {
            p
        };
    }
    // Segments (maximal runs of files holding pawns), each oriented;
    // frozen ones counted and replaced by one island. At most four runs
    // fit eight files, and the island.
    let mut segs = [Segment::ISLAND; 5];
    let mut n = 0;
    let mut islands = 0;
    let mut rest = files;
    while rest != 0 {
        let start = rest.trailing_zeros() as usize;
        let len = (!(rest >> start)).trailing_zeros() as usize;
        rest &= !(((1u64 << len) - 1) << start);
        if rules.islands && frozen(&p, start as u8, len as u8) {
            islands += 1;
            continue;
        }
        segs[n] = Segment {
            start,
            len,
            mirrored: cols.mirrored_smaller(start, len),
        };
        n += 1;
    }
    if islands > 0 {
        segs[n] = Segment::ISLAND;
        n += 1;
    }
    segs[..n].sort_unstable_by(|a, b| cols.compare(a, b));
    let (white, black) = (p.pawns(Color::White).0, p.pawns(Color::Black).0);
    // A frozen segment has no en passant square (`frozen`), so the square
    // stays in the segment that holds it and moves with it.
    let ep = p.ep_square().map_or(0, |s| 1u64 << s.index());
    let (mut out_white, mut out_black, mut out_ep) = (0u64, 0u64, 0u64);
    let mut at = 0;
    for s in &segs[..n] {
        if s.start == Segment::ISLAND.start {
            out_white |= 1 << (8 + at);
            out_black |= 1 << (16 + at);
        } else {
            out_white |= s.moved(white, at);
            out_black |= s.moved(black, at);
            if ep != 0 {
                out_ep |= s.moved(ep, at);
            }
        }
        at += s.len + 1;
    }
    Position::from_parts_unchecked(
        p.variant(),
        ByColor {
            white: Bitboard(out_white),
            black: Bitboard(out_black),
        },
        Color::White,
        (out_ep != 0).then(|| Square::from_index(out_ep.trailing_zeros() as u8)),
    )
}

/// A segment of a position's files as [`canonical_with`] sorts them.
#[derive(Clone, Copy)]
struct Segment {
    /// Its first file (8, past every board, for the island standing for
    /// the frozen segments) and how many files it spans.
    start: usize,
    len: usize,
    /// Whether it is oriented from its last file.
    mirrored: bool,
}

impl Segment {
    /// The smallest frozen island, as the segment that replaces every
    /// frozen one ([`Columns`] holds its column at 8).
    const ISLAND: Segment = Segment {
        start: 8,
        len: 1,
        mirrored: false,
    };

    /// The segment's squares of `pawns`, oriented, moved to start at file
    /// `at`.
    #[inline]
    fn moved(&self, pawns: u64, at: usize) -> u64 {
        let rows = ((1u64 << self.len) - 1) << self.start;
        let mine = pawns & rows.wrapping_mul(Bitboard::FILE_A.0);
        if self.mirrored {
            // File f to file 7 - f; the segment then starts at 8 - start - len.
            Bitboard(mine).mirror_files(8).0 >> (8 - self.start - self.len) << at
        } else {
            mine >> self.start << at
        }
    }
}

/// The columns of a white-to-move position file by file (each a
/// [`Column`]: white's pawns in the low byte, black's in the next, the en
/// passant square in the third), all taken at once from the bitboards
/// turned about their diagonal, and the island's column after them.
struct Columns([Column; 9]);

impl Columns {
    #[inline]
    fn of(p: &Position) -> Columns {
        let white = transpose(p.pawns(Color::White).0);
        let black = transpose(p.pawns(Color::Black).0);
        let mut cols = [0 as Column; 9];
        for (f, c) in cols.iter_mut().enumerate().take(8) {
            *c = ((white >> (8 * f)) & 0xff | ((black >> (8 * f)) & 0xff) << 8) as Column;
        }
        if let Some(s) = p.ep_square() {
            cols[s.file() as usize] |= 1 << (16 + s.rank());
        }
        cols[8] = ISLAND;
        Columns(cols)
    }

    /// Whether files `start..start + len` read from the last are smaller
    /// than from the first.
    #[inline]
    fn mirrored_smaller(&self, start: usize, len: usize) -> bool {
        let c = &self.0[start..start + len];
        for i in 0..len / 2 {
            let (a, b) = (c[len - 1 - i], c[i]);
            if a != b {
                return a < b;
            }
        }
        false
    }

    /// The `i`th column of segment `s`, oriented.
    #[inline]
    fn at(&self, s: &Segment, i: usize) -> Column {
        if s.mirrored {
            self.0[s.start + s.len - 1 - i]
        } else {
            self.0[s.start + i]
        }
    }

    /// Two segments' oriented columns in the order of their slices.
    #[inline]
    fn compare(&self, a: &Segment, b: &Segment) -> std::cmp::Ordering {
        for i in 0..a.len.min(b.len) {
            let (x, y) = (self.at(a, i), self.at(b, i));
            if x != y {
                return x.cmp(&y);
            }
        }
        a.len.cmp(&b.len)
    }
}

/// The 8x8 bit matrix of a board turned about its a1-h8 diagonal: the
/// square of rank r and file f (bit 8r + f) goes to bit 8f + r, so byte f
/// of the result is file f, bit r rank r. Its own inverse.
#[inline]
fn transpose(mut x: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// The whole of a white-to-move position as one number, for keys of
/// transposition tables: white's pawns in the low half, black's in the high
/// half, and the en passant square marked on black's first rank (where no
/// black pawn can stand). Never zero.
#[inline]
pub fn position_key(pos: &Position) -> u128 {
    debug_assert_eq!(pos.turn(), Color::White);
    let mut black = pos.pawns(Color::Black).0;
    if let Some(s) = pos.ep_square() {
        black |= 1u64 << (8 * (pos.board().height() as u32 - 1) + s.file() as u32);
    }
    pos.pawns(Color::White).0 as u128 | (black as u128) << 64
}

/// The white-to-move position of `variant` whose [`position_key`] is
/// `key` (bit 0, which no key sets, ignored): white's pawns from the low
/// half, black's from the high half, an en passant square from its mark
/// on black's first rank (the square black's pawn skipped, on its third
/// rank). For keys that [`position_key`] made.
pub fn position_from_key(key: u128, variant: Variant) -> Position {
    let (w, h) = (variant.board.width(), variant.board.height());
    let top = Bitboard::rank(h - 1, w);
    let black = Bitboard((key >> 64) as u64);
    let ep = (black & top).first().map(|s| Square::new(s.file(), h - 3));
    let pawns = ByColor {
        white: Bitboard(key as u64 & !1),
        black: black & !top,
    };
    Position::from_parts_unchecked(variant, pawns, Color::White, ep)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{parse_position, Board, Rules};

    /// Keys give back their positions: every canonical position of the
    /// first six plies of Peasants' Chess 5x6 and of the pawn game 6x6
    /// (en passant rights among them), both question bits.
    #[test]
    fn positions_come_back_from_their_keys() {
        let (mut checked, mut with_ep) = (0, 0);
        for (name, board) in [("peasants", "5x6"), ("pawngame", "6x6")] {
            let board: Board = board.parse().unwrap();
            let start = parse_position(name, Some(board), Rules::default()).unwrap();
            let mut layer = vec![start];
            for _ in 0..6 {
                let mut next = Vec::new();
                for p in &layer {
                    let c = canonical(p);
                    let key = position_key(&c);
                    for bit in [0, 1] {
                        assert_eq!(position_from_key(key | bit, c.variant()), c, "{c}");
                    }
                    checked += 1;
                    with_ep += c.ep_square().is_some() as usize;
                    next.extend(p.legal_moves().iter().map(|&m| p.play(m)));
                }
                next.retain(|p| !p.is_game_over());
                next.sort();
                next.dedup();
                layer = next;
            }
        }
        assert!(
            checked > 10_000 && with_ep > 100,
            "{checked} positions, {with_ep} en passant"
        );
    }

    #[test]
    fn rules_names_round_trip() {
        for name in ["all", "walls", "flip"] {
            let rules: CanonicalRules = name.parse().unwrap();
            assert_eq!(rules.to_string(), name);
        }
        assert!(!"walls".parse::<CanonicalRules>().unwrap().islands);
        let e = "none".parse::<CanonicalRules>().unwrap_err();
        assert_eq!(e.to_string(), "expected all, walls or flip");
    }

    /// The 8 bits of file `file` of `bb` as one byte (bit `r`: rank `r`).
    #[inline]
    fn file_byte(bb: u64, file: u8) -> u32 {
        // Each file-a bit 8r times 2^(56 - 7r) lands on bit 56 + r; no two
        // partial products meet, so nothing carries into the top byte.
        (((bb >> file) & Bitboard::FILE_A.0).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
    }

    /// The inverse of [`file_byte`] for file a: bit `r` of `byte` to bit `8r`.
    const SPREAD: [u64; 256] = {
        let mut t = [0u64; 256];
        let mut b = 0;
        while b < 256 {
            let mut r = 0;
            while r < 8 {
                if b & (1 << r) != 0 {
                    t[b] |= 1u64 << (8 * r);
                }
                r += 1;
            }
            b += 1;
        }
        t
    };

    #[inline]
    fn column(pos: &Position, file: u8) -> Column {
        let ep = pos.ep_square().map_or(0u64, |s| 1u64 << s.index());
        file_byte(pos.pawns(Color::White).0, file)
            | file_byte(pos.pawns(Color::Black).0, file) << 8
            | file_byte(ep, file) << 16
    }

    /// Builds a white-to-move position from columns laid out from file a.
    fn from_columns(pos: &Position, cols: &[Column]) -> Position {
        let mut white = 0u64;
        let mut black = 0u64;
        let mut ep = None;
        for (f, &c) in cols.iter().enumerate() {
            white |= SPREAD[(c & 0xff) as usize] << f;
            black |= SPREAD[((c >> 8) & 0xff) as usize] << f;
            let e = (c >> 16) & 0xff;
            if e != 0 {
                ep = Some(Square::new(f as u8, e.trailing_zeros() as u8));
            }
        }
        Position::from_parts_unchecked(
            pos.variant(),
            ByColor {
                white: Bitboard(white),
                black: Bitboard(black),
            },
            Color::White,
            ep,
        )
    }

    /// The smaller of a run of columns and its mirror image, written into `out`.
    #[inline]
    fn orient(cols: &[Column], out: &mut [Column]) {
        let n = cols.len();
        let mirrored_smaller = cols.iter().rev().lt(cols.iter());
        for i in 0..n {
            out[i] = if mirrored_smaller {
                cols[n - 1 - i]
            } else {
                cols[i]
            };
        }
    }

    /// [`canonical_with`] for a white-to-move position, column by column
    /// (the construction the project used before the columns were taken at
    /// once): the reference the tests hold the fast form to.
    fn canonical_by_columns(p: &Position, rules: CanonicalRules) -> Position {
        let p = *p;
        let w = p.board().width() as usize;
        let mut cols = [0 as Column; 8];
        for (f, c) in cols.iter_mut().enumerate().take(w) {
            *c = column(&p, f as u8);
        }
        // Without walls, or when every file holds a pawn (one segment) that is
        // not frozen: the position or its mirror image, whichever is smaller.
        let files = p.occupied().files() as u64;
        if !rules.walls || (files == (1 << w) - 1 && !(rules.islands && frozen(&p, 0, w as u8))) {
            let cols = &cols[..w];
            return if cols.iter().rev().lt(cols.iter()) {
                p.mirrored()
            } else {
                p
            };
        }
        let mut out = [0 as Column; 8];
        // Segments: maximal runs of files holding pawns, each oriented.
        let mut segs = [[0 as Column; 8]; 8];
        let mut lens = [0usize; 8];
        let mut n = 0;
        let mut islands = 0;
        let mut f = 0;
        while f < w {
            if cols[f] == 0 {
                f += 1;
                continue;
            }
            let start = f;
            while f < w && cols[f] != 0 {
                f += 1;
            }
            let len = f - start;
            if rules.islands && frozen(&p, start as u8, len as u8) {
                islands += 1;
                continue;
            }
            orient(&cols[start..f], &mut segs[n][..len]);
            lens[n] = len;
            n += 1;
        }
        if islands > 0 {
            segs[n][0] = ISLAND;
            lens[n] = 1;
            n += 1;
        }
        let mut order = [0usize; 8];
        for (i, o) in order.iter_mut().enumerate().take(n) {
            *o = i;
        }
        order[..n].sort_unstable_by(|&a, &b| segs[a][..lens[a]].cmp(&segs[b][..lens[b]]));
        let mut at = 0;
        for &i in &order[..n] {
            out[at..at + lens[i]].copy_from_slice(&segs[i][..lens[i]]);
            at += lens[i] + 1;
        }
        from_columns(&p, &out[..w])
    }

    fn pos(text: &str) -> Position {
        parse_position(text, None, Rules::default()).unwrap()
    }

    #[test]
    fn walls_pack_and_sort_segments() {
        // Two segments (files a-b and e), oriented, sorted and packed: e moves to d.
        let p = pos("5/1p2p/p4/P3P/1P3/5 w -");
        let c = canonical(&p);
        assert_eq!(c.to_string(), "5/1p1p1/p4/P2P1/1P3/5 w -");
        assert_eq!(canonical(&c), c);
        assert_eq!(canonical(&p.mirrored()), c);
        assert_eq!(canonical(&p.flipped()), c);
    }

    #[test]
    fn frozen_islands_become_one() {
        // Files a and c are frozen; file e is not.
        let p = pos("5/5/p1p1p/P1P2/4P/5 w -");
        let c = canonical(&p);
        assert_eq!(
            c.pawns(Color::White).count() + c.pawns(Color::Black).count(),
            4
        );
        assert_eq!(canonical(&c), c);
    }

    /// Random positions without an en passant square, some of their files
    /// emptied (walls) and some of their pawns thinned out, either side to
    /// move.
    fn random_positions(seed: u64, count: usize) -> Vec<Position> {
        let mut rng = crate::rng::SplitMix64::new(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let (w, h) = (1 + rng.below(8) as u8, 4 + rng.below(5) as u8);
            let board = Board::new(w, h).unwrap();
            let inner = board.squares().0 & !board.rank_mask(0).0 & !board.rank_mask(h - 1).0;
            let walls = (rng.next_u64() & rng.next_u64()) as u8;
            let open = (0..8)
                .filter(|f| walls & (1 << f) == 0)
                .fold(0u64, |m, f| m | Bitboard::FILE_A.0 << f);
            let thin = if rng.below(2) == 0 {
                !0
            } else {
                rng.next_u64()
            };
            let (a, b) = (
                rng.next_u64() & inner & open & thin,
                rng.next_u64() & inner & open,
            );
            let turn = if rng.below(2) == 0 {
                Color::White
            } else {
                Color::Black
            };
            let setup = crate::rules::Setup {
                board,
                pawns: ByColor {
                    white: Bitboard(a & !b),
                    black: Bitboard(b & !a),
                },
                turn,
                ep_square: None,
            };
            if let Ok(p) =
                Position::from_setup(&setup, crate::rules::Variant::new(board, Rules::default()))
            {
                out.push(p);
            }
        }
        out
    }

    /// Positions with an en passant square: the children by a double step
    /// of random positions, where an enemy pawn stands beside the landing
    /// square (on boards wider than one file, the only ones that have them).
    fn random_ep_positions(seed: u64, count: usize) -> Vec<Position> {
        let mut out = Vec::new();
        let mut round = 0;
        while out.len() < count {
            for p in random_positions(seed + 1000 * round, 20_000) {
                // Only a double step sets the square (`Position::play`).
                for &m in p.legal_moves().iter() {
                    let child = p.play(m);
                    if child.ep_square().is_some() {
                        out.push(child);
                    }
                }
            }
            round += 1;
        }
        out.truncate(count);
        out
    }

    /// The columns taken at once give the form the column-by-column way
    /// gives, under every rule set, on random boards of every size (walls,
    /// frozen segments, islands, en passant squares and the whole-board
    /// shortcut among them).
    #[test]
    fn columns_at_once_match_column_by_column() {
        let mut segments = 0;
        let mut ep_moved = 0;
        let positions = random_positions(3, 200_000);
        let with_ep = random_ep_positions(4, 50_000);
        for p in positions.into_iter().chain(with_ep) {
            let white = if p.turn() == Color::Black {
                p.flipped()
            } else {
                p
            };
            for rules in [
                CanonicalRules::ALL,
                "walls".parse().unwrap(),
                CanonicalRules::FLIP_MIRROR,
            ] {
                let c = canonical_with(&p, rules);
                assert_eq!(c, canonical_by_columns(&white, rules), "{p} {rules}");
                assert_eq!(canonical_with(&c, rules), c, "{p} {rules}");
                assert_eq!(c.ep_square().is_some(), p.ep_square().is_some(), "{p}");
                ep_moved += (c.ep_square().map(|s| s.file()) != white.ep_square().map(|s| s.file()))
                    as usize;
            }
            let files = p.occupied().files();
            segments += (files != (1u16 << p.board().width()).wrapping_sub(1) as u8) as usize;
        }
        assert!(segments > 10_000, "{segments}");
        // En passant squares carried to another file, by the mirror or
        // with their segment.
        assert!(ep_moved > 1_000, "{ep_moved}");
    }

    /// The general path (segments built from columns) gives the same form
    /// as the shortcut for positions whose files all hold pawns.
    #[test]
    fn one_segment_shortcut_matches_segments() {
        let mut rng = crate::rng::SplitMix64::new(3);
        let mut checked = 0;
        for _ in 0..200_000 {
            let (w, h) = (1 + rng.below(8) as u8, 4 + rng.below(5) as u8);
            let board = Board::new(w, h).unwrap();
            let inner = board.squares().0 & !board.rank_mask(0).0 & !board.rank_mask(h - 1).0;
            let (a, b) = (rng.next_u64() & inner, rng.next_u64() & inner);
            let setup = crate::rules::Setup {
                board,
                pawns: ByColor {
                    white: Bitboard(a & !b),
                    black: Bitboard(b & !a),
                },
                turn: Color::White,
                ep_square: None,
            };
            let Ok(p) =
                Position::from_setup(&setup, crate::rules::Variant::new(board, Rules::default()))
            else {
                continue;
            };
            for rules in [CanonicalRules::ALL, CanonicalRules::FLIP_MIRROR] {
                let cols: Vec<Column> = (0..w).map(|f| column(&p, f)).collect();
                let mut out = vec![0; w as usize];
                orient(&cols, &mut out);
                let by_columns = from_columns(&p, &out);
                let c = canonical_with(&p, rules);
                if cols.iter().all(|&c| c != 0) && !frozen(&p, 0, w) || !rules.walls {
                    assert_eq!(c, by_columns, "{p}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000);
    }

    /// The transpose against `file_byte`, and its own inverse.
    #[test]
    fn transpose_is_file_bytes() {
        let mut rng = crate::rng::SplitMix64::new(5);
        for _ in 0..10_000 {
            let x = rng.next_u64();
            let t = transpose(x);
            for f in 0..8u8 {
                assert_eq!((t >> (8 * f)) & 0xff, file_byte(x, f) as u64);
            }
            assert_eq!(transpose(t), x);
        }
    }

    #[test]
    fn keys_tell_en_passant_apart() {
        let board = Board::new(3, 6).unwrap();
        let with_ep = parse_position("3/3/3/1pP/3/3 w b4", Some(board), Rules::default());
        let without = parse_position("3/3/3/1pP/3/3 w -", Some(board), Rules::default());
        let (a, b) = (with_ep.unwrap(), without.unwrap());
        assert!(a.ep_square().is_some());
        assert_ne!(position_key(&a), position_key(&b));
    }
}
