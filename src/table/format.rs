//! Table file format version 2: the header, the sections, and the encoder.
//! `docs/FORMAT.md` describes the layout in words.

use crate::index::material::Material;
use crate::index::Index;
use crate::rules::color::{ByColor, Color};
use crate::rules::position::Position;
use crate::rules::value::{Value, Wdl, DRAW_BYTE};
use crate::rules::variant::{Rules, Variant};
use rayon::prelude::*;
use std::io::{Seek, SeekFrom, Write};

pub const MAGIC: [u8; 8] = *b"PEASANT\x1a";
/// The table format this library writes and reads (`docs/FORMAT.md`).
pub const FORMAT_VERSION: u32 = 2;
pub const HEADER_LEN: usize = 128;
pub const TRAILER: [u8; 4] = *b"PEND";
pub const TRAILER_LEN: usize = 8;
/// Positions numbered by the class's [`Index`]: white pawns first.
pub const INDEX_WHITE_FIRST: u8 = 1;
/// Positions numbered black pawns first: by the [`Index`] of the partner
/// class applied to the colour-flipped pawns (see [`StoreIndex`]).
pub const INDEX_BLACK_FIRST: u8 = 2;
/// Value encoding 1: a WDL and a DTM section, one byte per position in each.
pub const ENCODING_WDL_DTM: u8 = 1;
/// Value encoding 2: a WDL section only (the DTM section is empty), as
/// `peasant gen --wdl-only` writes.
pub const ENCODING_WDL_ONLY: u8 = 2;
pub const SECTION_WDL: usize = 0;
pub const SECTION_DTM: usize = 1;

/// The WDL section's byte of a result.
#[inline]
pub const fn wdl_byte(w: Wdl) -> u8 {
    match w {
        Wdl::Loss => 0,
        Wdl::Draw => 1,
        Wdl::Win => 2,
    }
}

#[inline]
pub const fn wdl_from_byte(b: u8) -> Option<Wdl> {
    match b {
        0 => Some(Wdl::Loss),
        1 => Some(Wdl::Draw),
        2 => Some(Wdl::Win),
        _ => None,
    }
}

/// Where a section lies and how it is cut.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SectionHeader {
    /// Offset of the section from the start of the file.
    pub offset: u64,
    /// Its length in bytes.
    pub len: u64,
    /// Length of the zstd dictionary at its start (0: none).
    pub dict_len: u32,
    /// Number of compressed blocks.
    pub blocks: u32,
}

impl SectionHeader {
    /// Bytes of the section before the first block: the dictionary, the
    /// block offsets, the block checksums and the checksum over these.
    pub fn meta_len(&self) -> u64 {
        self.dict_len as u64 + 8 * (self.blocks as u64 + 1) + 4 * self.blocks as u64 + 4
    }
}

/// Everything the header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Board width in files.
    pub width: u8,
    /// Board height in ranks.
    pub height: u8,
    /// The rule options: bit 0 en passant, bit 1 seventh-rank-wins.
    pub rules: u8,
    /// White pawns of the class.
    pub white: u8,
    /// Black pawns of the class.
    pub black: u8,
    /// How positions are numbered: 1 white pawns first, 2 black pawns first
    /// ([`StoreIndex`]).
    pub index_scheme: u8,
    /// How values are stored: 1 ([`ENCODING_WDL_DTM`]), one byte per
    /// position in each section; 2 ([`ENCODING_WDL_ONLY`]), the WDL section
    /// only.
    pub encoding: u8,
    /// Positions N the file stores, in its own numbering.
    pub positions: u64,
    /// Positions per block (the last block may hold fewer).
    pub block_len: u32,
    /// The zstd level the writer used (for information only).
    pub level: i32,
    /// Wins of white (to move), over the class's own numbering (white pawns
    /// first), don't-care positions included.
    pub wins: u64,
    /// Draws, over the class's own numbering.
    pub draws: u64,
    /// Losses of white (to move), over the class's own numbering.
    pub losses: u64,
    /// The longest DTM in plies (don't-care wins in 1 included).
    pub max_dtm: u32,
    /// Positions stored as "don't care" (wins in 1, resolved when probed).
    pub dont_care: u64,
    /// Where the WDL section and the DTM section lie, in that order.
    pub sections: [SectionHeader; 2],
}

pub fn rules_byte(rules: Rules) -> u8 {
    rules.en_passant as u8 | (rules.seventh_rank_wins as u8) << 1
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

impl Header {
    /// The header of `material`'s table on `variant`: white pawns first, counts
    /// and sections still zero.
    pub fn new(variant: Variant, material: Material) -> Header {
        Header {
            width: variant.board.width(),
            height: variant.board.height(),
            rules: rules_byte(variant.rules),
            white: material.white,
            black: material.black,
            index_scheme: INDEX_WHITE_FIRST,
            encoding: ENCODING_WDL_DTM,
            positions: 0,
            block_len: 0,
            level: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            max_dtm: 0,
            dont_care: 0,
            sections: [SectionHeader::default(); 2],
        }
    }

    /// The words for what a header's table is for, in messages.
    pub fn describe(&self) -> String {
        let mut d = format!("{}x{}", self.width, self.height);
        d.push_str(if self.rules & 1 != 0 {
            ", en passant"
        } else {
            ", no en passant"
        });
        if self.rules & 2 != 0 {
            d.push_str(", seventh-rank-wins");
        }
        format!("{d}, class {}v{}", self.white, self.black)
    }

    /// Whether the table holds distances to mate (value encoding 1) and not
    /// only win, draw or loss.
    pub fn has_dtm(&self) -> bool {
        self.encoding == ENCODING_WDL_DTM
    }

    /// Whether two headers are for the same board, rules and class.
    pub fn same_table(&self, other: &Header) -> bool {
        (self.width, self.height, self.rules, self.white, self.black)
            == (
                other.width,
                other.height,
                other.rules,
                other.white,
                other.black,
            )
    }

    /// The header's 128 bytes, its checksum included.
    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(&MAGIC);
        h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        h[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
        h[16] = self.width;
        h[17] = self.height;
        h[18] = self.rules;
        h[19] = self.white;
        h[20] = self.black;
        h[21] = self.index_scheme;
        h[22] = self.encoding;
        h[24..32].copy_from_slice(&self.positions.to_le_bytes());
        h[32..36].copy_from_slice(&self.block_len.to_le_bytes());
        h[36..40].copy_from_slice(&self.level.to_le_bytes());
        h[40..48].copy_from_slice(&self.wins.to_le_bytes());
        h[48..56].copy_from_slice(&self.draws.to_le_bytes());
        h[56..64].copy_from_slice(&self.losses.to_le_bytes());
        h[64..68].copy_from_slice(&self.max_dtm.to_le_bytes());
        h[68..76].copy_from_slice(&self.dont_care.to_le_bytes());
        for (s, at) in self.sections.iter().zip([76, 100]) {
            h[at..at + 8].copy_from_slice(&s.offset.to_le_bytes());
            h[at + 8..at + 16].copy_from_slice(&s.len.to_le_bytes());
            h[at + 16..at + 20].copy_from_slice(&s.dict_len.to_le_bytes());
            h[at + 20..at + 24].copy_from_slice(&s.blocks.to_le_bytes());
        }
        let crc = crc32fast::hash(&h[..124]);
        h[124..128].copy_from_slice(&crc.to_le_bytes());
        h
    }

    /// Reads a header; the error says what is wrong in words.
    pub fn decode(b: &[u8]) -> Result<Header, String> {
        if b.len() < 16 {
            return Err(format!("only {} bytes long", b.len()));
        }
        if b[0..8] != MAGIC {
            return Err("not a peasant table (wrong magic bytes)".into());
        }
        let version = u32_at(b, 8);
        if version != FORMAT_VERSION {
            return Err(format!(
                "format version {version}, this program reads version {FORMAT_VERSION}"
            ));
        }
        if b.len() < HEADER_LEN || u32_at(b, 12) as usize != HEADER_LEN {
            return Err("the header is cut short or has the wrong length".into());
        }
        if crc32fast::hash(&b[..124]) != u32_at(b, 124) {
            return Err("header checksum mismatch".into());
        }
        let section = |at: usize| SectionHeader {
            offset: u64_at(b, at),
            len: u64_at(b, at + 8),
            dict_len: u32_at(b, at + 16),
            blocks: u32_at(b, at + 20),
        };
        Ok(Header {
            width: b[16],
            height: b[17],
            rules: b[18],
            white: b[19],
            black: b[20],
            index_scheme: b[21],
            encoding: b[22],
            positions: u64_at(b, 24),
            block_len: u32_at(b, 32),
            level: u32_at(b, 36) as i32,
            wins: u64_at(b, 40),
            draws: u64_at(b, 48),
            losses: u64_at(b, 56),
            max_dtm: u32_at(b, 64),
            dont_care: u64_at(b, 68),
            sections: [section(76), section(100)],
        })
    }
}

/// How a table is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Positions (bytes before compression) per block.
    pub block_len: u32,
    /// zstd level.
    pub level: i32,
    /// Train a zstd dictionary per section on sample blocks, of this many
    /// bytes (0: no dictionary).
    pub dict_bytes: usize,
    /// Fill don't-care positions of the WDL section with the byte before
    /// them (true) or with their true value, a win (false). The DTM section
    /// always repeats the byte before.
    pub wdl_fill_previous: bool,
    /// Number positions black pawns first (`Some(true)`), white pawns first
    /// (`Some(false)`), or by [`StoreIndex::best_order`] (`None`).
    pub black_first: Option<bool>,
}

impl Default for WriteOptions {
    /// The choice measured in `docs/FORMAT.md`.
    fn default() -> WriteOptions {
        WriteOptions {
            block_len: 64 * 1024,
            level: 19,
            dict_bytes: 0,
            wdl_fill_previous: false,
            black_first: None,
        }
    }
}

/// The order in which a table stores its positions.
///
/// White pawns first is the class's own [`Index`]. Black pawns first is
/// the [`Index`] of the partner class (`2v3` for `3v2`) applied to the
/// colour-flipped pawn sets: the flipped black pawns are its white pawns,
/// so the outer loop runs over black's sets. Both number every table
/// position of the class (mirror twins share a number), so a value is
/// found by either; they differ only in how well the values compress.
pub struct StoreIndex {
    index: Index,
    black_first: bool,
}

impl StoreIndex {
    /// The numbering of `material`'s table positions, black pawns first or
    /// white pawns first.
    pub fn new(variant: Variant, material: Material, black_first: bool) -> StoreIndex {
        let m = if black_first {
            material.swapped()
        } else {
            material
        };
        StoreIndex {
            index: Index::new(variant, m),
            black_first,
        }
    }

    /// The order that compresses best as measured on 8x8 classes: the side
    /// with fewer pawns outside (black first when black has fewer or as
    /// many pawns).
    pub fn best_order(material: Material) -> bool {
        material.black <= material.white
    }

    /// Whether positions are numbered black pawns first.
    pub fn black_first(&self) -> bool {
        self.black_first
    }

    /// The header's index scheme byte: 1 white pawns first, 2 black pawns
    /// first.
    pub fn scheme(&self) -> u8 {
        if self.black_first {
            INDEX_BLACK_FIRST
        } else {
            INDEX_WHITE_FIRST
        }
    }

    /// How many numbers the order hands out: the table's positions.
    #[inline]
    pub fn len(&self) -> u64 {
        self.index.len()
    }

    /// Whether the order hands out no number at all.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The number of a table position of the class.
    #[inline]
    pub fn rank(&self, pos: &Position) -> u64 {
        if self.black_first {
            let h = pos.board().height();
            self.index.rank_pawns(
                pos.pawns(Color::Black).mirror_ranks(h),
                pos.pawns(Color::White).mirror_ranks(h),
            )
        } else {
            self.index.rank(pos)
        }
    }

    /// The numbers in `own` (the class's own [`Index`], white pawns first)
    /// of the positions this order numbers `first .. first + len`, appended
    /// to `out`: what `own.rank(&self.unrank(j))` gives for each, found by
    /// walking the run ([`Index::for_each_in_run`]), not by unranking
    /// each number.
    pub fn own_numbers(&self, own: &Index, first: u64, len: u64, out: &mut Vec<u64>) {
        debug_assert!(first + len <= self.len());
        if !self.black_first {
            out.extend(first..first + len);
            return;
        }
        let h = own.variant().board.height();
        // The stored white pawns are black's, flipped, and the stored black
        // pawns white's.
        self.index
            .for_each_in_run(first, len, |stored_white, stored_black| {
                out.push(
                    own.rank_pawns(stored_black.mirror_ranks(h), stored_white.mirror_ranks(h)),
                );
            });
    }

    /// `byte(i)` for the own number `i` (in `own`, see
    /// [`StoreIndex::own_numbers`]) of each position this order numbers
    /// `first .. first + len`: a run of a section in the stored order. The
    /// numbers are found [`LOOKUP_RUN`] at a time before the bytes are
    /// read, so that the reads, all over the class, are in flight
    /// together.
    fn stored_bytes(
        &self,
        own: &Index,
        first: u64,
        len: usize,
        byte: impl Fn(u64) -> u8,
    ) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(len);
        let mut numbers = Vec::with_capacity(LOOKUP_RUN.min(len));
        let end = first + len as u64;
        for start in (first..end).step_by(LOOKUP_RUN) {
            numbers.clear();
            let n = (end - start).min(LOOKUP_RUN as u64);
            self.own_numbers(own, start, n, &mut numbers);
            bytes.extend(numbers.iter().map(|&i| byte(i)));
        }
        bytes
    }

    /// The table position with number `i`.
    pub fn unrank(&self, i: u64) -> Position {
        let p = self.index.unrank(i);
        if !self.black_first {
            return p;
        }
        let h = p.board().height();
        let pawns = ByColor {
            white: p.pawns(Color::Black).mirror_ranks(h),
            black: p.pawns(Color::White).mirror_ranks(h),
        };
        Position::from_parts_unchecked(p.variant(), pawns, Color::White, None)
    }
}

/// Positions whose numbers in the class's own index a writer finds
/// before it reads their values ([`StoreIndex::stored_bytes`]). Small,
/// so that the numbers are never a big allocation (with 64 Ki of them
/// the process grew by a fifth).
const LOOKUP_RUN: usize = 4096;

/// The two byte streams of a class: WDL and DTM, one byte per position.
/// In the DTM stream don't-care positions (wins in 1) and draws repeat the
/// byte before them; in the WDL stream don't-care positions repeat the byte
/// before them or keep their value (`wdl_fill_previous`).
pub fn split_values(values: &[u8], wdl_fill_previous: bool) -> (Vec<u8>, Vec<u8>, u64) {
    let mut wdl = Vec::with_capacity(values.len());
    let mut dtm = Vec::with_capacity(values.len());
    let (mut last_wdl, mut last_dtm) = (wdl_byte(Wdl::Win), 1u8);
    let mut dont_care = 0;
    for &b in values {
        let v = Value::from_byte(b).expect("every position has a value");
        if v == Value::Win(1) {
            dont_care += 1;
            wdl.push(if wdl_fill_previous {
                last_wdl
            } else {
                wdl_byte(Wdl::Win)
            });
            dtm.push(last_dtm);
            continue;
        }
        last_wdl = wdl_byte(v.wdl());
        wdl.push(last_wdl);
        if b != DRAW_BYTE {
            last_dtm = b;
        }
        dtm.push(last_dtm);
    }
    (wdl, dtm, dont_care)
}

/// How many compressed blocks a writer holds at once: it compresses them in
/// parallel, writes them in order and frees them, so writing a table takes
/// at most this many blocks of memory (64 MiB at the default 64 KiB
/// blocks), not the file's size, which on the largest classes is
/// gigabytes.
pub const WINDOW_BLOCKS: u64 = 1024;

/// The most memory a table's writer holds besides the values it reads:
/// [`WINDOW_BLOCKS`] compressed blocks of `opts.block_len` positions
/// (zstd's bound on a block's compressed size) and the numbers of every
/// block's place and checksum.
pub fn write_memory_bound(positions: u64, opts: &WriteOptions) -> u64 {
    let block = zstd::zstd_safe::compress_bound(opts.block_len as usize) as u64;
    let blocks = positions.div_ceil(opts.block_len.max(1) as u64);
    WINDOW_BLOCKS.min(blocks) * block + 12 * blocks
}

/// Where a section's positions come from: `block(first, len)` gives the
/// bytes of positions `first .. first + len`, asked for in parallel, so a
/// section is never held whole uncompressed. `None` is the empty section of
/// a win/draw/loss-only table: no dictionary, no blocks, no bytes.
type Blocks<'a> = Option<(u64, &'a (dyn Fn(u64, usize) -> Vec<u8> + Sync))>;

/// Writes one compressed section of `n` positions at `w`'s position, which
/// is `offset` bytes into the file: the dictionary, the blocks' places and
/// checksums, their checksum, then the blocks, [`WINDOW_BLOCKS`] at a time
/// (the places are written once all blocks are: `w` seeks back to them and
/// then to the section's end). Gives the section's header and the checksum
/// state of its bytes, for the whole file's checksum.
fn write_section<W: Write + Seek>(
    w: &mut W,
    offset: u64,
    n: u64,
    block: &(dyn Fn(u64, usize) -> Vec<u8> + Sync),
    opts: &WriteOptions,
) -> std::io::Result<(SectionHeader, crc32fast::Hasher)> {
    let block_len = opts.block_len as u64;
    let count = n.div_ceil(block_len);
    let range = |k: u64| (k * block_len, block_len.min(n - k * block_len) as usize);
    let dict = if opts.dict_bytes > 0 && count > 8 {
        // Up to 1000 samples spread over the section.
        let step = count.div_ceil(1000);
        let samples: Vec<Vec<u8>> = (0..count)
            .step_by(step as usize)
            .map(|k| {
                let (first, len) = range(k);
                block(first, len)
            })
            .collect();
        zstd::dict::from_samples(&samples, opts.dict_bytes).unwrap_or_default()
    } else {
        Vec::new()
    };
    // The places (count + 1 offsets) and checksums of the blocks, and the
    // checksum of all before them, are known once the blocks are written:
    // their room is kept.
    let head_len = dict.len() as u64 + (count + 1) * 8 + count * 4 + 4;
    w.write_all(&vec![0u8; head_len as usize])?;
    let mut places = Vec::with_capacity(count as usize + 1);
    let mut crcs = Vec::with_capacity(count as usize);
    let mut blocks_crc = crc32fast::Hasher::new();
    let mut at = 0u64;
    for window in (0..count).step_by(WINDOW_BLOCKS as usize) {
        let compressed: Vec<Vec<u8>> = (window..count.min(window + WINDOW_BLOCKS))
            .into_par_iter()
            .map_init(
                || {
                    zstd::bulk::Compressor::with_dictionary(opts.level, &dict)
                        .expect("zstd context")
                },
                |c, k| {
                    let (first, len) = range(k);
                    c.compress(&block(first, len)).expect("zstd compresses")
                },
            )
            .collect();
        for b in &compressed {
            places.push(at);
            at += b.len() as u64;
            crcs.push(crc32fast::hash(b));
            blocks_crc.update(b);
            w.write_all(b)?;
        }
    }
    places.push(at);
    let mut head = dict;
    let dict_len = head.len() as u32;
    for p in &places {
        head.extend_from_slice(&p.to_le_bytes());
    }
    for c in &crcs {
        head.extend_from_slice(&c.to_le_bytes());
    }
    let crc = crc32fast::hash(&head);
    head.extend_from_slice(&crc.to_le_bytes());
    debug_assert_eq!(head.len() as u64, head_len);
    w.seek(SeekFrom::Start(offset))?;
    w.write_all(&head)?;
    w.seek(SeekFrom::Start(offset + head_len + at))?;
    let mut section_crc = crc32fast::Hasher::new();
    section_crc.update(&head);
    section_crc.combine(&blocks_crc);
    let header = SectionHeader {
        offset,
        len: head_len + at,
        dict_len,
        blocks: count as u32,
    };
    Ok((header, section_crc))
}

/// Writes a whole table file to `w`, from its start: the header (written
/// last, once the sections' places are known; its room kept first), the
/// two sections and the trailer, the checksum of every byte before it.
fn write_file_to<W: Write + Seek>(
    w: &mut W,
    mut header: Header,
    sections: [Blocks; 2],
    opts: &WriteOptions,
) -> std::io::Result<()> {
    w.write_all(&[0u8; HEADER_LEN])?;
    let mut offset = HEADER_LEN as u64;
    let mut crcs = Vec::new();
    for (i, s) in sections.into_iter().enumerate() {
        let (sh, crc) = match s {
            Some((n, block)) => write_section(w, offset, n, block, opts)?,
            None => (
                SectionHeader {
                    offset,
                    ..SectionHeader::default()
                },
                crc32fast::Hasher::new(),
            ),
        };
        header.sections[i] = sh;
        offset += sh.len;
        crcs.push(crc);
    }
    let head = header.encode();
    w.seek(SeekFrom::Start(0))?;
    w.write_all(&head)?;
    w.seek(SeekFrom::Start(offset))?;
    let mut file_crc = crc32fast::Hasher::new();
    file_crc.update(&head);
    for c in &crcs {
        file_crc.combine(c);
    }
    w.write_all(&file_crc.finalize().to_le_bytes())?;
    w.write_all(&TRAILER)
}

/// The bytes `write` writes, in memory.
fn in_memory(write: impl FnOnce(&mut std::io::Cursor<Vec<u8>>) -> std::io::Result<()>) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    write(&mut out).expect("writing to memory cannot fail");
    out.into_inner()
}

/// The header of a table written with `opts` (order, blocks, level;
/// counts and sections still zero) and the order it stores positions in.
fn layout(variant: Variant, material: Material, opts: &WriteOptions) -> (Header, StoreIndex) {
    let black_first = opts
        .black_first
        .unwrap_or_else(|| StoreIndex::best_order(material));
    let store = StoreIndex::new(variant, material, black_first);
    let mut header = Header::new(variant, material);
    header.index_scheme = store.scheme();
    header.positions = store.len();
    header.block_len = opts.block_len;
    header.level = opts.level;
    (header, store)
}

/// The bytes of a table file for `values` (one [`Value::to_byte`] byte per
/// index number of `material`).
pub fn encode_table(
    variant: Variant,
    material: Material,
    values: &[u8],
    opts: &WriteOptions,
) -> Vec<u8> {
    in_memory(|w| write_table_to(w, variant, material, values, opts))
}

/// Writes the table file [`encode_table`] makes to `w`, from its start,
/// holding [`write_memory_bound`] of compressed bytes at most.
pub fn write_table_to<W: Write + Seek>(
    w: &mut W,
    variant: Variant,
    material: Material,
    values: &[u8],
    opts: &WriteOptions,
) -> std::io::Result<()> {
    with_table(variant, material, values, opts, |header, sections| {
        write_file_to(w, header, sections, opts)
    })
}

/// The header and sections of the table of `values` (as [`encode_table`]
/// takes them), handed to `write`.
fn with_table<R>(
    variant: Variant,
    material: Material,
    values: &[u8],
    opts: &WriteOptions,
    write: impl FnOnce(Header, [Blocks; 2]) -> R,
) -> R {
    let index = Index::new(variant, material);
    assert_eq!(values.len() as u64, index.len());
    let (mut header, store) = layout(variant, material, opts);
    let black_first = store.black_first();
    for &b in values {
        match Value::from_byte(b) {
            Some(Value::Win(d)) => {
                header.wins += 1;
                header.max_dtm = header.max_dtm.max(d as u32);
            }
            Some(Value::Loss(d)) => {
                header.losses += 1;
                header.max_dtm = header.max_dtm.max(d as u32);
            }
            Some(Value::Draw) => header.draws += 1,
            None => panic!("a position of {material} has no value"),
        }
    }
    header.dont_care = values.iter().filter(|&&b| b == 1).count() as u64;
    let stored: Vec<u8>;
    let values = if black_first {
        // The two orders fold mirror twins apart on different sides, so
        // they need not hand out the same count of numbers.
        let mut out = vec![0u8; store.len() as usize];
        out.par_chunks_mut(LOOKUP_RUN)
            .enumerate()
            .for_each(|(c, chunk)| {
                let first = (c * LOOKUP_RUN) as u64;
                let bytes = store.stored_bytes(&index, first, chunk.len(), |i| values[i as usize]);
                chunk.copy_from_slice(&bytes);
            });
        stored = out;
        &stored[..]
    } else {
        values
    };
    let (wdl, dtm, _) = split_values(values, opts.wdl_fill_previous);
    let wdl_block = |first: u64, len: usize| wdl[first as usize..first as usize + len].to_vec();
    let dtm_block = |first: u64, len: usize| dtm[first as usize..first as usize + len].to_vec();
    write(
        header,
        [
            Some((wdl.len() as u64, &wdl_block)),
            Some((dtm.len() as u64, &dtm_block)),
        ],
    )
}

/// The bytes of a win/draw/loss-only table file (value encoding 2,
/// `peasant gen --wdl-only`): `wdl(i)` is the result of index number `i`
/// of `material` (white pawns first) for white to move. Its WDL section is
/// the one [`encode_table`] writes for the same values with the default
/// `wdl_fill_previous` (a win in 1 stored as the win it is), byte for byte;
/// its DTM section is empty, and the header counts no don't-care positions
/// and no DTM.
pub fn encode_wdl_table(
    variant: Variant,
    material: Material,
    wdl: &(dyn Fn(u64) -> Wdl + Sync),
    opts: &WriteOptions,
) -> Vec<u8> {
    in_memory(|w| write_wdl_table_to(w, variant, material, wdl, opts))
}

/// Writes the table file [`encode_wdl_table`] makes to `w`, from its
/// start, holding [`write_memory_bound`] of compressed bytes at most.
pub fn write_wdl_table_to<W: Write + Seek>(
    w: &mut W,
    variant: Variant,
    material: Material,
    wdl: &(dyn Fn(u64) -> Wdl + Sync),
    opts: &WriteOptions,
) -> std::io::Result<()> {
    with_wdl_table(variant, material, wdl, opts, |header, sections| {
        write_file_to(w, header, sections, opts)
    })
}

/// The header and sections of the win/draw/loss-only table of `wdl` (as
/// [`encode_wdl_table`] takes it), handed to `write`.
fn with_wdl_table<R>(
    variant: Variant,
    material: Material,
    wdl: &(dyn Fn(u64) -> Wdl + Sync),
    opts: &WriteOptions,
    write: impl FnOnce(Header, [Blocks; 2]) -> R,
) -> R {
    let index = Index::new(variant, material);
    let (mut header, store) = layout(variant, material, opts);
    header.encoding = ENCODING_WDL_ONLY;
    (header.wins, header.draws, header.losses) = (0..index.len())
        .into_par_iter()
        .map(|i| match wdl(i) {
            Wdl::Win => (1, 0, 0),
            Wdl::Draw => (0, 1, 0),
            Wdl::Loss => (0, 0, 1),
        })
        .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    let block =
        |first: u64, len: usize| store.stored_bytes(&index, first, len, |i| wdl_byte(wdl(i)));
    // The empty DTM section: no dictionary, no blocks, no bytes.
    write(header, [Some((store.len(), &block)), None])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use crate::rules::variant::Board;

    /// A section as the encoder built it before it streamed: every block
    /// compressed, then the section in memory (its bytes from the
    /// dictionary on, the dictionary's length, the number of blocks).
    fn section_in_memory(
        n: u64,
        block: &(dyn Fn(u64, usize) -> Vec<u8> + Sync),
        opts: &WriteOptions,
    ) -> (Vec<u8>, u32, u32) {
        let block_len = opts.block_len as u64;
        let count = n.div_ceil(block_len);
        let range = |k: u64| (k * block_len, block_len.min(n - k * block_len) as usize);
        let dict = if opts.dict_bytes > 0 && count > 8 {
            let step = count.div_ceil(1000);
            let samples: Vec<Vec<u8>> = (0..count)
                .step_by(step as usize)
                .map(|k| block(range(k).0, range(k).1))
                .collect();
            zstd::dict::from_samples(&samples, opts.dict_bytes).unwrap_or_default()
        } else {
            Vec::new()
        };
        let mut c = zstd::bulk::Compressor::with_dictionary(opts.level, &dict).unwrap();
        let blocks: Vec<Vec<u8>> = (0..count)
            .map(|k| c.compress(&block(range(k).0, range(k).1)).unwrap())
            .collect();
        let mut out = dict.clone();
        let mut offset = 0u64;
        for b in &blocks {
            out.extend_from_slice(&offset.to_le_bytes());
            offset += b.len() as u64;
        }
        out.extend_from_slice(&offset.to_le_bytes());
        for b in &blocks {
            out.extend_from_slice(&crc32fast::hash(b).to_le_bytes());
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        for b in &blocks {
            out.extend_from_slice(b);
        }
        (out, dict.len() as u32, blocks.len() as u32)
    }

    /// The whole file as the encoder built it before it streamed.
    fn file_in_memory(mut header: Header, sections: [Blocks; 2], opts: &WriteOptions) -> Vec<u8> {
        let sections = sections.map(|s| match s {
            Some((n, block)) => section_in_memory(n, block, opts),
            None => (Vec::new(), 0, 0),
        });
        let mut offset = HEADER_LEN as u64;
        for (i, s) in sections.iter().enumerate() {
            header.sections[i] = SectionHeader {
                offset,
                len: s.0.len() as u64,
                dict_len: s.1,
                blocks: s.2,
            };
            offset += s.0.len() as u64;
        }
        let mut out = header.encode().to_vec();
        for s in &sections {
            out.extend_from_slice(&s.0);
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out.extend_from_slice(&TRAILER);
        out
    }

    /// The streaming writer, which holds a window of compressed blocks at
    /// a time and fills the blocks' places, the header and the checksums
    /// in afterwards, writes the bytes the whole-file encoder wrote: for
    /// win/draw/loss-only and DTM tables, with and without a dictionary,
    /// in blocks small enough that a section spans several windows (the
    /// last of them part full), and into a file as into memory.
    #[test]
    fn streamed_tables_are_the_tables_built_in_memory() {
        let v = Variant::new(Board::new(4, 8).unwrap(), Rules::default());
        let m = Material::new(3, 3);
        let n = Index::new(v, m).len();
        let mut rng = SplitMix64::new(5);
        // Values with runs, as tables have: a value kept for a while.
        let mut wdl = Vec::with_capacity(n as usize);
        let mut bytes = Vec::with_capacity(n as usize);
        let mut w = Wdl::Draw;
        for _ in 0..n {
            if rng.below(20) == 0 {
                w = [Wdl::Win, Wdl::Draw, Wdl::Loss][rng.below(3) as usize];
            }
            wdl.push(w);
            bytes.push(match w {
                Wdl::Win => Value::Win(3).to_byte(),
                Wdl::Draw => DRAW_BYTE,
                Wdl::Loss => Value::Loss(2).to_byte(),
            });
        }
        let f = |i: u64| wdl[i as usize];
        let dir = std::env::temp_dir().join(format!("peasant-stream-{}", std::process::id()));
        // Blocks of 32 positions: more than two windows of them, the last
        // part full.
        assert!(
            n > (WINDOW_BLOCKS * 2 + 1) * 32,
            "{n} positions make too few blocks"
        );
        assert_ne!(n.div_ceil(32) % WINDOW_BLOCKS, 0);
        for (block_len, dict_bytes) in [(32, 0), (32, 4096), (64, 0), (65536, 0)] {
            let opts = WriteOptions {
                block_len,
                level: 3,
                dict_bytes,
                ..WriteOptions::default()
            };
            let want = with_wdl_table(v, m, &f, &opts, |h, s| file_in_memory(h, s, &opts));
            assert_eq!(
                encode_wdl_table(v, m, &f, &opts),
                want,
                "{block_len} {dict_bytes}"
            );
            let want_dtm = with_table(v, m, &bytes, &opts, |h, s| file_in_memory(h, s, &opts));
            assert_eq!(encode_table(v, m, &bytes, &opts), want_dtm, "{block_len}");
            let path = crate::table::write_wdl_table_with(&dir, v, m, &f, &opts).expect("writes");
            assert_eq!(
                std::fs::read(&path).unwrap(),
                want,
                "{block_len} {dict_bytes}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A run's numbers in the class's own index are what ranking each
    /// unranked position gives, in both orders, for runs that start and
    /// end anywhere (the two orders' lengths differ on some classes).
    #[test]
    fn own_numbers_are_the_ranks_of_the_stored_positions() {
        let mut rng = SplitMix64::new(11);
        for (w, h) in [(3, 5), (4, 6), (5, 8)] {
            let v = Variant::new(Board::new(w, h).unwrap(), Rules::default());
            for m in Material::up_to(5) {
                let own = Index::new(v, m);
                for black_first in [false, true] {
                    let store = StoreIndex::new(v, m, black_first);
                    let n = store.len();
                    let mut runs = vec![(0, n)];
                    for _ in 0..10 {
                        let first = rng.below(n + 1);
                        runs.push((first, rng.below((n - first).min(3_000) + 1)));
                    }
                    for (first, len) in runs {
                        let mut numbers = Vec::new();
                        store.own_numbers(&own, first, len, &mut numbers);
                        let want: Vec<u64> = (first..first + len)
                            .map(|j| own.rank(&store.unrank(j)))
                            .collect();
                        assert_eq!(numbers, want, "{w}x{h} {m} {black_first} {first}+{len}");
                    }
                }
            }
        }
    }
}
