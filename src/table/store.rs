//! Table files and the [`Tablebase`] that probes them.

use super::cache::{BlockCache, BlockKey};
use super::format::{
    wdl_from_byte, write_table_to, write_wdl_table_to, Header, StoreIndex, WriteOptions,
    ENCODING_WDL_DTM, ENCODING_WDL_ONLY, HEADER_LEN, INDEX_BLACK_FIRST, INDEX_WHITE_FIRST,
    SECTION_DTM, SECTION_WDL, TRAILER, TRAILER_LEN,
};
use crate::index::material::Material;
use crate::index::Index;
use crate::memory::{ZeroValid, ZeroedMap};
use crate::rules::canonical::canonical;
use crate::rules::color::{ByColor, Color};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::value::{Value, Wdl, DRAW_BYTE};
use crate::rules::variant::{Board, Variant};
use crate::{index::domain::TableValues, rules::shortcuts::resolve_by_rule};
use memmap2::Mmap;
use rayon::prelude::*;
use std::fs::File;
use std::io::BufWriter;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};
use thiserror::Error;

/// Why a table could not be used.
#[derive(Debug, Error)]
pub enum TableError {
    /// The class's table file is not in the directory.
    #[error("no table for class {material} of {variant} (expected {path})")]
    Missing {
        /// The class asked for.
        material: Material,
        /// The game asked for.
        variant: Variant,
        /// Where the file was looked for.
        path: PathBuf,
    },
    /// The file is damaged: a wrong magic, version, layout, length, checksum or
    /// value.
    #[error("table {path} is damaged: {why}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// The file's header is for another board, rules or class than the table
    /// asked for (whose name the file has).
    #[error("table {path} is for {found}, not {wanted}")]
    WrongTable {
        /// The file.
        path: PathBuf,
        /// What the header says the table is for.
        found: String,
        /// What the table was expected to be for.
        wanted: String,
    },
    /// A distance to mate was asked of a table that holds win, draw or loss
    /// only (value encoding 2, written by `peasant gen --wdl-only`).
    #[error(
        "table {path} holds win/draw/loss only (made by gen --wdl-only), not distances to mate; generate it without --wdl-only"
    )]
    NoDtm {
        /// The file.
        path: PathBuf,
    },
    /// The file could not be opened or read.
    #[error("table {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system reported.
        #[source]
        source: std::io::Error,
    },
}

impl TableError {
    pub(crate) fn io(path: &Path, source: std::io::Error) -> TableError {
        TableError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            TableError::Missing { path, .. }
            | TableError::Damaged { path, .. }
            | TableError::WrongTable { path, .. }
            | TableError::NoDtm { path }
            | TableError::Io { path, .. } => path,
        }
    }
}

/// The file name of a class's table: `8x8-3v2.ptb`, with `-noep` and `-srw`
/// after the board for the other rule sets.
pub fn file_name(variant: Variant, material: Material) -> String {
    let mut name = variant.board.to_string();
    if !variant.rules.en_passant {
        name.push_str("-noep");
    }
    if variant.rules.seventh_rank_wins {
        name.push_str("-srw");
    }
    format!("{name}-{material}.ptb")
}

/// Writes a finished table with the default [`WriteOptions`].
pub fn write_table(
    dir: &Path,
    variant: Variant,
    material: Material,
    values: &[u8],
) -> Result<PathBuf, TableError> {
    write_table_with(dir, variant, material, values, &WriteOptions::default())
}

/// Writes a finished table: to `<name>.tmp`, flushed to disk, then renamed.
/// `values` holds one [`Value::to_byte`] byte per index number.
pub fn write_table_with(
    dir: &Path,
    variant: Variant,
    material: Material,
    values: &[u8],
    opts: &WriteOptions,
) -> Result<PathBuf, TableError> {
    write_file(dir, variant, material, |w| {
        write_table_to(w, variant, material, values, opts)
    })
}

/// Writes a finished win/draw/loss-only table ([`super::encode_wdl_table`]) the
/// same way: `wdl(i)` is the result of index number `i`.
pub fn write_wdl_table_with(
    dir: &Path,
    variant: Variant,
    material: Material,
    wdl: &(dyn Fn(u64) -> Wdl + Sync),
    opts: &WriteOptions,
) -> Result<PathBuf, TableError> {
    write_file(dir, variant, material, |w| {
        write_wdl_table_to(w, variant, material, wdl, opts)
    })
}

/// Streams the table file `write` writes to `<name>.tmp` (a window of
/// compressed blocks at a time, [`crate::table::WINDOW_BLOCKS`]), flushes
/// it to disk and renames it; on failure nothing is left, not even the
/// temporary file.
fn write_file(
    dir: &Path,
    variant: Variant,
    material: Material,
    write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> Result<PathBuf, TableError> {
    std::fs::create_dir_all(dir).map_err(|e| TableError::io(dir, e))?;
    let path = dir.join(file_name(variant, material));
    let tmp = path.with_extension("ptb.tmp");
    let attempt = || -> std::io::Result<()> {
        let mut w = BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        write(&mut w)?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        std::fs::rename(&tmp, &path)
    };
    attempt().map_err(|e| {
        // Never leave a part of a file behind, not even under the temporary name.
        let _ = std::fs::remove_file(&tmp);
        TableError::io(&path, e)
    })?;
    Ok(path)
}

/// Whether white, to move in a table position, wins at once: captures
/// black's last pawn, promotes (a double step onto the last rank of a board
/// of height 4), or, under `--seventh-rank-wins`, steps onto its
/// second-to-last rank. Exactly these positions are worth `Win(1)`; tables
/// store them as "don't care" and probes resolve them here.
#[inline]
pub fn wins_at_once(pos: &Position) -> bool {
    debug_assert_eq!(pos.turn(), Color::White);
    // From a table position (white pawns on ranks 2..H-2) white can only
    // promote on a board of height 4, and one capture leaves black a pawn
    // unless black has one.
    if pos.pawns(Color::Black).count() > 1
        && !pos.variant().rules.seventh_rank_wins
        && pos.board().height() > 4
    {
        return false;
    }
    pos.legal_moves()
        .iter()
        .any(|&m| pos.play(m).winner_by_rule() == Some(Color::White))
}

/// The bytes of a table file: read into memory, or memory-mapped.
enum Bytes {
    Owned(Vec<u8>),
    Mapped(Mmap),
}

impl Deref for Bytes {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Owned(v) => v,
            Bytes::Mapped(m) => m,
        }
    }
}

/// One class's table: checked when opened, its blocks decompressed on
/// first use (and checked then) into a shared [`BlockCache`].
pub struct Table {
    header: Header,
    index: Index,
    store: StoreIndex,
    bytes: Bytes,
    path: PathBuf,
    id: u64,
    cache: Arc<BlockCache>,
    dicts: [Option<zstd::dict::DecoderDictionary<'static>>; 2],
    /// The WDL section unpacked into memory at 2 bits a position (32 to a
    /// word), once [`Table::hold_wdl`] has been asked to and it fit: a probe
    /// then reads one word instead of a cached block.
    packed_wdl: OnceLock<ZeroedMap<u64>>,
}

/// Bytes the WDL section of `positions` positions takes held in memory at
/// 2 bits a position.
pub fn packed_wdl_bytes(positions: u64) -> u64 {
    positions.div_ceil(32) * 8
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

impl Table {
    /// Reads a table file into memory and checks it: magic, version, that it
    /// is the table of `material` on `variant`, its layout, the checksums of
    /// its header and block indexes, and the checksum of the whole file.
    /// Each block's own checksum is checked when the block is first read.
    pub fn open(path: &Path, variant: Variant, material: Material) -> Result<Table, TableError> {
        let bytes = std::fs::read(path).map_err(|e| TableError::io(path, e))?;
        Table::from_bytes(
            path,
            bytes,
            variant,
            material,
            Arc::new(BlockCache::new(64)),
            true,
        )
    }

    /// Like [`Table::open`], but maps the file into memory instead of
    /// reading it, and shares `cache`.
    ///
    /// # Safety
    ///
    /// The file must not be modified or truncated while the table (or
    /// anything holding it) lives: the mapping would change under the
    /// reader, which Rust's aliasing rules forbid, and a truncation makes
    /// reads fault (SIGBUS). Table files are written once under a temporary
    /// name and renamed; a program that only writes them that way and never
    /// edits them in place keeps this promise.
    pub unsafe fn open_mmap(
        path: &Path,
        variant: Variant,
        material: Material,
        cache: Arc<BlockCache>,
    ) -> Result<Table, TableError> {
        let file = File::open(path).map_err(|e| TableError::io(path, e))?;
        // Safety: the caller promises the file stays as it is while mapped.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| TableError::io(path, e))?;
        Table::from_source(path, Bytes::Mapped(map), variant, material, cache, true)
    }

    /// A table from bytes already in memory, named `path` in messages.
    /// With `check_whole_file` false the whole-file checksum is skipped
    /// (every block is still checked when read).
    pub fn from_bytes(
        path: &Path,
        bytes: Vec<u8>,
        variant: Variant,
        material: Material,
        cache: Arc<BlockCache>,
        check_whole_file: bool,
    ) -> Result<Table, TableError> {
        Table::from_source(
            path,
            Bytes::Owned(bytes),
            variant,
            material,
            cache,
            check_whole_file,
        )
    }

    fn from_source(
        path: &Path,
        bytes: Bytes,
        variant: Variant,
        material: Material,
        cache: Arc<BlockCache>,
        check_whole_file: bool,
    ) -> Result<Table, TableError> {
        let damaged = |why: String| TableError::Damaged {
            path: path.to_path_buf(),
            why,
        };
        let header = Header::decode(&bytes).map_err(damaged)?;
        let wanted = Header::new(variant, material);
        if !header.same_table(&wanted) {
            return Err(TableError::WrongTable {
                path: path.to_path_buf(),
                found: header.describe(),
                wanted: wanted.describe(),
            });
        }
        if header.encoding != ENCODING_WDL_DTM && header.encoding != ENCODING_WDL_ONLY {
            return Err(damaged(format!(
                "unknown value encoding {}",
                header.encoding
            )));
        }
        let black_first = match header.index_scheme {
            INDEX_WHITE_FIRST => false,
            INDEX_BLACK_FIRST => true,
            s => return Err(damaged(format!("unknown index scheme {s}"))),
        };
        let index = Index::new(variant, material);
        let store = StoreIndex::new(variant, material, black_first);
        if header.positions != store.len() {
            return Err(damaged(format!(
                "holds {} positions, the class has {}",
                header.positions,
                store.len()
            )));
        }
        let len = bytes.len() as u64;
        let s = header.sections;
        let end = s[1].offset.checked_add(s[1].len);
        if s[0].offset != HEADER_LEN as u64
            || s[0].offset.checked_add(s[0].len) != Some(s[1].offset)
            || end.and_then(|e| e.checked_add(TRAILER_LEN as u64)) != Some(len)
        {
            return Err(damaged(format!(
                "{len} bytes long, its header says {} (truncated or extended)",
                end.map_or("more".into(), |e| (e + TRAILER_LEN as u64).to_string())
            )));
        }
        if bytes[bytes.len() - 4..] != TRAILER {
            return Err(damaged("the end marker is missing".into()));
        }
        if check_whole_file {
            let body = bytes.len() - TRAILER_LEN;
            if crc32fast::hash(&bytes[..body]) != u32_at(&bytes, body) {
                return Err(damaged("whole-file checksum mismatch".into()));
            }
        }
        let block_len = header.block_len as u64;
        if block_len == 0 {
            return Err(damaged("block length 0".into()));
        }
        let mut dicts = [None, None];
        let sections = if header.has_dtm() { 2 } else { 1 };
        if !header.has_dtm() && (s[1].len, s[1].dict_len, s[1].blocks) != (0, 0, 0) {
            return Err(damaged(
                "a win/draw/loss-only table with a DTM section".into(),
            ));
        }
        for (i, sec) in s.iter().enumerate().take(sections) {
            let name = ["WDL", "DTM"][i];
            if sec.blocks as u64 != header.positions.div_ceil(block_len) || sec.meta_len() > sec.len
            {
                return Err(damaged(format!("{name} section: bad block count")));
            }
            let start = sec.offset as usize;
            let meta = &bytes[start..start + sec.meta_len() as usize];
            let (meta, crc) = meta.split_at(meta.len() - 4);
            if crc32fast::hash(meta) != u32_at(crc, 0) {
                return Err(damaged(format!("{name} section: index checksum mismatch")));
            }
            let offs = &meta[sec.dict_len as usize..];
            let data_len = sec.len - sec.meta_len();
            let mut last = 0;
            for b in 0..=sec.blocks as usize {
                let o = u64_at(offs, 8 * b);
                if o < last || (b == 0 && o != 0) || (b == sec.blocks as usize && o != data_len) {
                    return Err(damaged(format!("{name} section: bad block index")));
                }
                last = o;
            }
            if sec.dict_len > 0 {
                dicts[i] = Some(zstd::dict::DecoderDictionary::copy(
                    &meta[..sec.dict_len as usize],
                ));
            }
        }
        Ok(Table {
            header,
            index,
            store,
            bytes,
            path: path.to_path_buf(),
            id: super::cache::next_table_id(),
            cache,
            dicts,
            packed_wdl: OnceLock::new(),
        })
    }

    /// Holds the WDL section in memory at 2 bits a position if
    /// [`packed_wdl_bytes`] fit in `budget` (bytes, taken from it) and in
    /// half the memory the system has available: every block is
    /// decompressed and checked once, and later probes of the WDL read the
    /// packed words. True if the section is held (now or before); false,
    /// and nothing taken, if it does not fit.
    pub fn hold_wdl(&self, budget: &AtomicU64) -> Result<bool, TableError> {
        if self.packed_wdl.get().is_some() {
            return Ok(true);
        }
        // A block holds a whole number of words (the writer's block
        // lengths are multiples of 32; a table whose are not is read
        // through the cache).
        if !(self.header.block_len as u64).is_multiple_of(32) {
            return Ok(false);
        }
        let bytes = packed_wdl_bytes(self.header.positions);
        if crate::memory::available().is_some_and(|a| bytes > a / 2) {
            return Ok(false);
        }
        if budget
            .fetch_update(Relaxed, Relaxed, |left| left.checked_sub(bytes))
            .is_err()
        {
            return Ok(false);
        }
        let words = match self.packed_wdl_words() {
            Ok(words) => words,
            Err(e) => {
                budget.fetch_add(bytes, Relaxed);
                return Err(e);
            }
        };
        if self.packed_wdl.set(words).is_err() {
            // Another thread held it first.
            budget.fetch_add(bytes, Relaxed);
        }
        Ok(true)
    }

    /// The class's own index (white pawns first); the file's order is
    /// [`Table::store_index`].
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// The table's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The order the file stores positions in.
    pub fn store_index(&self) -> &StoreIndex {
        &self.store
    }

    /// The file's header: the class, the counts, the sections.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Size of the file in bytes.
    pub fn file_len(&self) -> u64 {
        self.bytes.len() as u64
    }

    #[cold]
    pub(crate) fn damaged(&self, why: impl Into<String>) -> TableError {
        TableError::Damaged {
            path: self.path.clone(),
            why: why.into(),
        }
    }

    /// Decompresses and checks one block of a section.
    fn read_block(&self, section: usize, block: u32) -> Result<Vec<u8>, TableError> {
        let mut d = self.decompressor(section)?;
        let mut out = Vec::new();
        self.read_block_into(section, block, &mut d, &mut out)?;
        Ok(out)
    }

    /// A decompressor for `section`'s blocks (with its dictionary).
    fn decompressor(&self, section: usize) -> Result<zstd::bulk::Decompressor<'_>, TableError> {
        match &self.dicts[section] {
            Some(dict) => zstd::bulk::Decompressor::with_prepared_dictionary(dict),
            None => zstd::bulk::Decompressor::new(),
        }
        .map_err(|e| TableError::io(&self.path, e))
    }

    /// [`Table::read_block`] into `out`, with a decompressor and a buffer
    /// that a reader of many blocks keeps from one to the next.
    fn read_block_into(
        &self,
        section: usize,
        block: u32,
        d: &mut zstd::bulk::Decompressor<'_>,
        out: &mut Vec<u8>,
    ) -> Result<(), TableError> {
        let sec = &self.header.sections[section];
        let name = ["WDL", "DTM"][section];
        let start = sec.offset as usize;
        let offs = start + sec.dict_len as usize;
        let data = start + sec.meta_len() as usize;
        let from = u64_at(&self.bytes, offs + 8 * block as usize) as usize;
        let to = u64_at(&self.bytes, offs + 8 * (block as usize + 1)) as usize;
        let crcs = offs + 8 * (sec.blocks as usize + 1);
        let compressed = &self.bytes[data + from..data + to];
        if crc32fast::hash(compressed) != u32_at(&self.bytes, crcs + 4 * block as usize) {
            return Err(self.damaged(format!("{name} block {block}: checksum mismatch")));
        }
        let block_len = self.header.block_len as u64;
        let first = block as u64 * block_len;
        let n = block_len.min(self.header.positions - first) as usize;
        out.resize(n, 0);
        let got = d
            .decompress_to_buffer(compressed, &mut out[..])
            .map_err(|e| self.damaged(format!("{name} block {block}: {e}")))?;
        if got != n {
            return Err(self.damaged(format!("{name} block {block}: {got} values, not {n}")));
        }
        let valid = if section == SECTION_WDL {
            wdl_bytes_valid(out)
        } else {
            out.iter().all(|&b| b != 0 && b != DRAW_BYTE)
        };
        if !valid {
            return Err(self.damaged(format!("{name} block {block}: a value out of range")));
        }
        Ok(())
    }

    #[inline]
    fn byte_at(&self, section: usize, i: u64) -> Result<u8, TableError> {
        let block_len = self.header.block_len as u64;
        let block = (i / block_len) as u32;
        let key = BlockKey {
            table: self.id,
            section: section as u8,
            block,
        };
        let data = self
            .cache
            .get_or_load(key, || self.read_block(section, block))?;
        Ok(data[(i % block_len) as usize])
    }

    /// Whether the table holds distances to mate, not only win, draw or loss
    /// (tables of `peasant gen --wdl-only` do not).
    pub fn has_dtm(&self) -> bool {
        self.header.has_dtm()
    }

    /// Whether the WDL section is held in memory ([`Table::hold_wdl`]).
    pub fn holds_wdl(&self) -> bool {
        self.packed_wdl.get().is_some()
    }

    /// The WDL byte of position `i` (in the file's order): from the words
    /// held in memory, else from the block cache.
    #[inline]
    fn wdl_at(&self, i: u64) -> Result<u8, TableError> {
        match self.packed_wdl.get() {
            Some(words) => Ok(unpack_wdl(words, i)),
            None => self.byte_at(SECTION_WDL, i),
        }
    }

    /// Win, draw or loss of a table position of this class (reads the WDL
    /// section only).
    #[inline]
    pub fn probe_wdl(&self, pos: &Position) -> Result<Wdl, TableError> {
        if wins_at_once(pos) {
            return Ok(Wdl::Win);
        }
        let b = self.wdl_at(self.store.rank(pos))?;
        Ok(wdl_from_byte(b).expect("checked when the block was read"))
    }

    /// The exact value of a table position of this class
    /// ([`TableError::NoDtm`] from a win/draw/loss-only table).
    #[inline]
    pub fn get(&self, pos: &Position) -> Result<Value, TableError> {
        if !self.has_dtm() {
            return Err(TableError::NoDtm {
                path: self.path.clone(),
            });
        }
        if wins_at_once(pos) {
            return Ok(Value::Win(1));
        }
        let i = self.store.rank(pos);
        let wdl = wdl_from_byte(self.wdl_at(i)?).expect("checked");
        if wdl == Wdl::Draw {
            return Ok(Value::Draw);
        }
        let d = self.byte_at(SECTION_DTM, i)?;
        match (wdl, d % 2) {
            (Wdl::Win, 1) if d > 1 => Ok(Value::Win(d)),
            (Wdl::Loss, 0) => Ok(Value::Loss(d)),
            _ => Err(self.damaged(format!("position #{i}: WDL says {wdl} but DTM byte is {d}"))),
        }
    }

    /// Every block of a section, decompressed and checked, in order.
    fn read_section(&self, section: usize) -> Result<Vec<u8>, TableError> {
        let blocks: Vec<Vec<u8>> = (0..self.header.sections[section].blocks)
            .into_par_iter()
            .map(|b| self.read_block(section, b))
            .collect::<Result<_, _>>()?;
        Ok(blocks.concat())
    }

    /// The whole table decompressed into memory, for the generator and the
    /// verifier (bypasses the block cache): one byte a position with the
    /// DTM, or 2 bits a position from a win/draw/loss-only table.
    pub fn to_dense(&self) -> Result<DenseTable, TableError> {
        if !self.has_dtm() {
            return self.to_dense_wdl();
        }
        let (wdl, dtm) = rayon::join(
            || self.read_section(SECTION_WDL),
            || self.read_section(SECTION_DTM),
        );
        let (wdl, dtm) = (wdl?, dtm?);
        let mut values = self.zeroed(wdl.len())?;
        values
            .par_iter_mut()
            .zip(wdl.par_iter().zip(dtm.par_iter()))
            .for_each(|(v, (&w, &d))| {
                *v = match (w, d % 2) {
                    (1, _) => DRAW_BYTE,
                    (2, 1) | (0, 0) => d,
                    // A don't-care position (or damage, reported when
                    // probed).
                    _ => 0,
                }
            });
        Ok(self.dense(DenseValues::Bytes(values)))
    }

    /// The table's win, draw or loss decompressed into memory at 2 bits a
    /// position (the WDL section only; a DTM table's distances are left on
    /// disk), for the generator of win/draw/loss-only tables.
    pub fn to_dense_wdl(&self) -> Result<DenseTable, TableError> {
        Ok(self.dense(DenseValues::Wdl(self.packed_wdl_words()?)))
    }

    /// The WDL section packed by [`pack_wdl_into`], every block checked.
    fn packed_wdl_words(&self) -> Result<ZeroedMap<u64>, TableError> {
        let block_len = self.header.block_len as usize;
        let mut words = self.zeroed(self.header.positions.div_ceil(32) as usize)?;
        if !block_len.is_multiple_of(32) {
            // Blocks of a length that is not a multiple of 32 (none the
            // writer makes) share words: pack the whole section.
            pack_wdl_into(&self.read_section(SECTION_WDL)?, &mut words);
            return Ok(words);
        }
        // Each block fills its own words, in place; a decompressor and a
        // buffer serve every block of a rayon job.
        words
            .par_chunks_mut(block_len / 32)
            .enumerate()
            .try_for_each_init(
                // The buffer grows to a block's length at its first block
                // (a damaged header's block length is not trusted ahead).
                || (None, Vec::new()),
                |(d, bytes), (b, out)| {
                    if d.is_none() {
                        *d = Some(self.decompressor(SECTION_WDL)?);
                    }
                    let d = d.as_mut().expect("made above");
                    self.read_block_into(SECTION_WDL, b as u32, d, bytes)?;
                    pack_wdl_into(bytes, out);
                    Ok::<(), TableError>(())
                },
            )?;
        Ok(words)
    }

    /// `len` zero values in memory of their own ([`ZeroedMap`]), or the
    /// system's refusal named with the table.
    fn zeroed<T: ZeroValid>(&self, len: usize) -> Result<ZeroedMap<T>, TableError> {
        ZeroedMap::new(len).map_err(|e| TableError::io(&self.path, e))
    }

    fn dense(&self, values: DenseValues) -> DenseTable {
        let (variant, material) = (self.index.variant(), self.index.material());
        DenseTable {
            index: Index::new(variant, material),
            store: StoreIndex::new(variant, material, self.store.black_first()),
            values,
            path: self.path.clone(),
        }
    }
}

/// WDL bytes (0 loss, 1 draw, 2 win) packed 2 bits a position, 32 to a
/// word, the first in the lowest bits.
#[cfg(test)]
fn pack_wdl(bytes: &[u8]) -> Vec<u64> {
    let mut words = vec![0u64; bytes.len().div_ceil(32)];
    pack_wdl_into(bytes, &mut words);
    words
}

/// WDL bytes (0 loss, 1 draw, 2 win) packed 2 bits a position into
/// `words` (one word for each 32 bytes or part of 32), 32 to a word, the
/// first in the lowest bits.
fn pack_wdl_into(bytes: &[u8], words: &mut [u64]) {
    for (w, c) in words.iter_mut().zip(bytes.chunks(32)) {
        *w = if c.len() == 32 {
            // Eight bytes at a time, their low two bits gathered.
            (0..4).fold(0u64, |w, k| {
                let x = u64::from_le_bytes(c[8 * k..8 * k + 8].try_into().unwrap());
                w | gather_wdl_bits(x) << (16 * k)
            })
        } else {
            c.iter()
                .enumerate()
                .fold(0u64, |w, (i, &v)| w | (v as u64) << (2 * i))
        };
    }
}

/// The low two bits of each of the eight bytes of `x`, side by side in
/// the low 16 bits (byte 0's lowest).
#[inline]
fn gather_wdl_bits(x: u64) -> u64 {
    let x = x & 0x0303_0303_0303_0303;
    let x = (x | x >> 6) & 0x000F_000F_000F_000F;
    let x = (x | x >> 12) & 0x0000_00FF_0000_00FF;
    (x | x >> 24) & 0xFFFF
}

/// Whether every byte is a WDL byte (0, 1 or 2): no byte with a bit
/// above the lowest two, and none with both of them set.
fn wdl_bytes_valid(bytes: &[u8]) -> bool {
    const LOW: u64 = 0x0101_0101_0101_0101;
    let mut words = bytes.chunks_exact(8);
    let bad = words.by_ref().fold(0u64, |bad, c| {
        let x = u64::from_le_bytes(c.try_into().unwrap());
        bad | (x & !(3 * LOW)) | (x & x >> 1 & LOW)
    });
    bad == 0 && words.remainder().iter().all(|&b| b <= 2)
}

/// The WDL byte of position `i` from words packed by [`pack_wdl_into`].
#[inline]
fn unpack_wdl(words: &[u64], i: u64) -> u8 {
    ((words[(i / 32) as usize] >> (2 * (i % 32))) & 3) as u8
}

/// How a [`DenseTable`] holds its values.
enum DenseValues {
    /// One [`Value::to_byte`] byte a position.
    Bytes(ZeroedMap<u8>),
    /// The WDL bytes packed by [`pack_wdl_into`].
    Wdl(ZeroedMap<u64>),
}

/// A class's values fully in memory, in storage order: one
/// [`Value::to_byte`] byte a position, or win/draw/loss at 2 bits a
/// position ([`Table::to_dense_wdl`], and any win/draw/loss-only table);
/// don't-care positions hold any value and are resolved by
/// [`wins_at_once`].
pub struct DenseTable {
    index: Index,
    store: StoreIndex,
    values: DenseValues,
    path: PathBuf,
}

impl DenseTable {
    /// The class's own index (white pawns first); the values' order is
    /// [`DenseTable::store_index`].
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// The file the values were read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The order of the values.
    pub fn store_index(&self) -> &StoreIndex {
        &self.store
    }

    /// Whether the values include distances to mate.
    pub fn has_dtm(&self) -> bool {
        matches!(self.values, DenseValues::Bytes(_))
    }

    /// Bytes the values take in memory.
    pub fn values_bytes(&self) -> u64 {
        match &self.values {
            DenseValues::Bytes(v) => v.len() as u64,
            DenseValues::Wdl(w) => 8 * w.len() as u64,
        }
    }

    /// The stored bytes in storage order (don't-care positions unresolved),
    /// `None` for values held at 2 bits a position.
    pub fn raw_values(&self) -> Option<&[u8]> {
        match &self.values {
            DenseValues::Bytes(v) => Some(v),
            DenseValues::Wdl(_) => None,
        }
    }

    /// The exact value of a table position of this class
    /// ([`TableError::NoDtm`] where only win, draw or loss is held).
    #[inline]
    pub fn get(&self, pos: &Position) -> Result<Value, TableError> {
        let DenseValues::Bytes(values) = &self.values else {
            return Err(TableError::NoDtm {
                path: self.path.clone(),
            });
        };
        if wins_at_once(pos) {
            return Ok(Value::Win(1));
        }
        let i = self.store.rank(pos);
        match Value::from_byte(values[i as usize]) {
            Some(v) if v != Value::Win(1) => Ok(v),
            _ => Err(TableError::Damaged {
                path: self.path.clone(),
                why: format!("position #{i}: WDL and DTM sections disagree"),
            }),
        }
    }

    /// Win, draw or loss of a table position of this class.
    #[inline]
    pub fn get_wdl(&self, pos: &Position) -> Result<Wdl, TableError> {
        if wins_at_once(pos) {
            return Ok(Wdl::Win);
        }
        let i = self.store.rank(pos);
        match &self.values {
            DenseValues::Wdl(words) => {
                Ok(wdl_from_byte(unpack_wdl(words, i)).expect("checked when the block was read"))
            }
            DenseValues::Bytes(_) => self.get(pos).map(Value::wdl),
        }
    }
}

/// The tables of one variant in one directory, opened on first use and
/// shared by all threads, with one [`BlockCache`] for all of them.
///
/// Tables of narrower boards of the same height and rules in the same
/// directory answer too: a position whose pawns all stand on its first `w`
/// files is the same game on a board `w` files wide, because a pawn only
/// ever changes file by capturing onto a square that holds a pawn, so
/// files without pawns on the right of the board are never entered. So the
/// complete 4x8 tables answer every 8x8 position whose pawns (after the
/// walls of [`crate::rules::canonical`] have packed them to the left) fit in four
/// files.
pub struct Tablebase {
    dir: PathBuf,
    variant: Variant,
    mmap: bool,
    cache: Arc<BlockCache>,
    /// Per class (`white * 64 + black`): its table once opened. Read
    /// without a lock, for a search that probes at every node.
    classes: Vec<OnceLock<Arc<Table>>>,
    /// Per class: its file was found absent by [`Tablebase::has_table`]
    /// (which then answers so without looking again; [`Tablebase::table`]
    /// looks again, for a generator writes tables as it goes).
    absent: Vec<AtomicBool>,
    /// Bytes left for WDL sections held in memory ([`Table::hold_wdl`]),
    /// shared with the narrower boards' tablebases; `None`: none held.
    wdl_memory: Option<Arc<AtomicU64>>,
    /// The tablebases of the boards 1, 2, ... files wide (same height,
    /// rules, directory and cache), made on first use.
    narrow: OnceLock<Vec<Tablebase>>,
    /// Per class (`white * 64 + black`): bit `w - 1` set when a board `w`
    /// files wide (this one or a narrower) has its table; looked up once.
    widths: Vec<OnceLock<u8>>,
}

/// Blocks the cache of a [`Tablebase`] holds by default (32 MiB of the
/// default 64 KiB blocks).
pub const DEFAULT_CACHE_BLOCKS: usize = 512;

impl Tablebase {
    /// A tablebase that reads each table file into memory when first used.
    pub fn new(dir: impl Into<PathBuf>, variant: Variant) -> Tablebase {
        Tablebase {
            dir: dir.into(),
            variant,
            mmap: false,
            cache: Arc::new(BlockCache::new(DEFAULT_CACHE_BLOCKS)),
            classes: (0..64 * 64).map(|_| OnceLock::new()).collect(),
            absent: (0..64 * 64).map(|_| AtomicBool::new(false)).collect(),
            wdl_memory: None,
            narrow: OnceLock::new(),
            widths: (0..64 * 64).map(|_| OnceLock::new()).collect(),
        }
    }

    /// A tablebase that memory-maps each table file when first used.
    ///
    /// # Safety
    ///
    /// No table file under `dir` may be modified or truncated while this
    /// tablebase lives (see [`Table::open_mmap`]).
    pub unsafe fn new_mmap(dir: impl Into<PathBuf>, variant: Variant) -> Tablebase {
        Tablebase {
            mmap: true,
            ..Tablebase::new(dir, variant)
        }
    }

    /// The same tablebase with a cache of about `mib` MiB of decompressed
    /// blocks of the default size.
    pub fn with_cache_mib(self, mib: usize) -> Tablebase {
        let block = WriteOptions::default().block_len as usize;
        self.with_cache_blocks(mib.saturating_mul(1 << 20).div_ceil(block).max(1))
    }

    /// The same tablebase with a cache of `blocks` decompressed blocks.
    pub fn with_cache_blocks(self, blocks: usize) -> Tablebase {
        Tablebase {
            cache: Arc::new(BlockCache::new(blocks)),
            ..self
        }
    }

    /// The game the tables are for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The directory the tables are read from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The cache of decompressed blocks its tables share.
    pub fn cache(&self) -> &BlockCache {
        &self.cache
    }

    /// The path a class's table has in this tablebase.
    pub fn path_of(&self, material: Material) -> PathBuf {
        self.dir.join(file_name(self.variant, material))
    }

    /// The same tablebase holding the WDL sections of the tables it opens
    /// in memory at 2 bits a position ([`Table::hold_wdl`]), while they fit
    /// in `mib` MiB together (tables of narrower boards included); later
    /// tables are read through the block cache. For searches, which probe
    /// millions of times: a probe then costs a word read, not a lookup in
    /// the cache of blocks. 0 holds none.
    pub fn with_wdl_memory_mib(self, mib: usize) -> Tablebase {
        self.with_wdl_memory((mib as u64) << 20)
    }

    /// [`Tablebase::with_wdl_memory_mib`] in bytes.
    pub fn with_wdl_memory(self, bytes: u64) -> Tablebase {
        Tablebase {
            wdl_memory: (bytes > 0).then(|| Arc::new(AtomicU64::new(bytes))),
            ..self
        }
    }

    /// The place of `material` in `classes` and `absent`.
    fn slot(material: Material) -> Option<usize> {
        let (w, b) = (material.white as usize, material.black as usize);
        (w < 64 && b < 64).then_some(w * 64 + b)
    }

    /// The table of `material` if its file exists, opened, checked and
    /// (with [`Tablebase::with_wdl_memory_mib`]) its WDL section held on
    /// first use; `None` if the file is absent (then remembered as such
    /// when `remember_absent`).
    fn class_table(
        &self,
        material: Material,
        remember_absent: bool,
    ) -> Result<Option<&Arc<Table>>, TableError> {
        let Some(i) = Tablebase::slot(material) else {
            return Ok(None);
        };
        if let Some(t) = self.classes[i].get() {
            return Ok(Some(t));
        }
        if remember_absent && self.absent[i].load(Relaxed) {
            return Ok(None);
        }
        let table = match self.open_once(material) {
            Ok(t) => Arc::new(t),
            Err(TableError::Missing { .. }) => {
                if remember_absent {
                    self.absent[i].store(true, Relaxed);
                }
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        self.absent[i].store(false, Relaxed);
        // Threads that opened the class at once keep the first table, and
        // hold its section once.
        let table = self.classes[i].get_or_init(|| table);
        if let Some(budget) = &self.wdl_memory {
            table.hold_wdl(budget)?;
        }
        Ok(Some(table))
    }

    /// The table of `material`, opened and checked now and not kept by the
    /// tablebase: for a caller that needs a class once, as the generator
    /// does each class it finds present (kept, a run over every class of a
    /// board held them all till its end: 150 MB of 5x8's tables of up to
    /// 10 pawns in a run that made none).
    pub fn open_once(&self, material: Material) -> Result<Table, TableError> {
        let path = self.path_of(material);
        if !path.exists() {
            return Err(TableError::Missing {
                material,
                variant: self.variant,
                path,
            });
        }
        if self.mmap {
            // Safety: promised by the caller of `new_mmap`.
            unsafe { Table::open_mmap(&path, self.variant, material, self.cache.clone()) }
        } else {
            let bytes = std::fs::read(&path).map_err(|e| TableError::io(&path, e))?;
            Table::from_bytes(
                &path,
                bytes,
                self.variant,
                material,
                self.cache.clone(),
                true,
            )
        }
    }

    /// The table of `material`, opened and checked on first use.
    pub fn table(&self, material: Material) -> Result<Arc<Table>, TableError> {
        match self.class_table(material, false)? {
            Some(t) => Ok(t.clone()),
            None => Err(TableError::Missing {
                material,
                variant: self.variant,
                path: self.path_of(material),
            }),
        }
    }

    /// Whether the table of `material` exists (looked up once per class).
    pub fn has_table(&self, material: Material) -> Result<bool, TableError> {
        Ok(self.class_table(material, true)?.is_some())
    }

    /// The tablebases of the narrower boards.
    fn narrow(&self) -> &[Tablebase] {
        self.narrow.get_or_init(|| {
            let (w, h) = (self.variant.board.width(), self.variant.board.height());
            (1..w)
                .map(|n| Tablebase {
                    mmap: self.mmap,
                    cache: self.cache.clone(),
                    wdl_memory: self.wdl_memory.clone(),
                    ..Tablebase::new(
                        self.dir.clone(),
                        Variant::new(
                            Board::new(n, h).expect("a narrower board of a valid height"),
                            self.variant.rules,
                        ),
                    )
                })
                .collect()
        })
    }

    /// The table that holds `pos` (white to move, no en passant right, not
    /// resolved by rule) and `pos` as that table's board sees it: this
    /// board's table of its class, else the narrowest board with a table
    /// on which its canonical form ([`crate::rules::canonical`]: pawns packed to
    /// the left between walls, frozen islands shrunk) fits; `None` if there
    /// is no such table.
    pub fn locate(&self, pos: &Position) -> Result<Option<(Arc<Table>, Position)>, TableError> {
        Ok(self.locate_ref(pos)?.map(|(t, p)| (t.clone(), p)))
    }

    /// [`Tablebase::locate`], borrowing the table.
    fn locate_ref(&self, pos: &Position) -> Result<Option<(&Arc<Table>, Position)>, TableError> {
        if let Some(t) = self.class_table(Material::of(pos), true)? {
            return Ok(Some((t, *pos)));
        }
        let pos = canonical(pos);
        let material = Material::of(&pos);
        if let Some(t) = self.class_table(material, true)? {
            return Ok(Some((t, pos)));
        }
        let used = used_width(&pos);
        for tb in self.narrow().iter().skip(used.max(1) as usize - 1) {
            if let Some(t) = tb.class_table(material, true)? {
                let p = Position::from_parts_unchecked(
                    tb.variant,
                    ByColor {
                        white: pos.pawns(Color::White),
                        black: pos.pawns(Color::Black),
                    },
                    pos.turn(),
                    pos.ep_square(),
                );
                return Ok(Some((t, p)));
            }
        }
        Ok(None)
    }

    /// Whether [`Tablebase::locate`] finds a table for `pos`, a canonical
    /// position (a search's; for others it may answer `false` where
    /// `locate` would find one): after the first look at each class, a few
    /// instructions and no lock, for a search that asks at every node.
    pub fn covers(&self, pos: &Position) -> Result<bool, TableError> {
        let m = Material::of(pos);
        let (w, b) = (m.white as usize, m.black as usize);
        if w >= 64 || b >= 64 {
            return Ok(false);
        }
        let cell = &self.widths[w * 64 + b];
        let widths = match cell.get() {
            Some(&widths) => widths,
            None => {
                let mut widths = 0u8;
                for tb in self.narrow() {
                    if tb.has_table(m)? {
                        widths |= 1 << (tb.variant.board.width() - 1);
                    }
                }
                if self.has_table(m)? {
                    widths |= 1 << (self.variant.board.width() - 1);
                }
                *cell.get_or_init(|| widths)
            }
        };
        Ok(widths >> (used_width(pos).max(1) - 1) != 0)
    }

    /// [`Tablebase::locate`], or this board's "missing table" error.
    fn located(&self, pos: &Position) -> Result<(&Arc<Table>, Position), TableError> {
        match self.locate_ref(pos)? {
            Some(found) => Ok(found),
            None => Err(self.table(Material::of(pos)).err().expect("no table")),
        }
    }

    /// The exact value of any position of this tablebase's variant.
    pub fn probe(&self, pos: &Position) -> Result<Value, TableError> {
        crate::index::domain::value(self, pos)
    }

    /// The exact value with its DTM (the same as [`Tablebase::probe`]).
    pub fn probe_dtm(&self, pos: &Position) -> Result<Value, TableError> {
        self.probe(pos)
    }

    /// Win, draw or loss of any position; reads only WDL sections.
    pub fn probe_wdl(&self, pos: &Position) -> Result<Wdl, TableError> {
        if pos.winner_by_rule().is_some() {
            return Ok(Wdl::Loss);
        }
        let pos = if pos.turn() == Color::Black {
            pos.flipped()
        } else {
            *pos
        };
        if pos.ep_square().is_some() {
            let mut best: Option<Wdl> = None;
            for &m in pos.legal_moves().iter() {
                let w = self.probe_wdl(&pos.play(m))?.before_move();
                best = best.max(Some(w));
                if w == Wdl::Win {
                    break;
                }
            }
            return Ok(best.unwrap_or(Wdl::Draw));
        }
        if let Some(v) = resolve_by_rule(&pos) {
            return Ok(v.wdl());
        }
        let (table, pos) = self.located(&pos)?;
        table.probe_wdl(&pos)
    }

    /// Every legal move of `pos` with its value from the mover's view, best
    /// first (faster wins, then draws, then slower losses; ties in move
    /// generation order).
    pub fn best_moves(&self, pos: &Position) -> Result<Vec<(Move, Value)>, TableError> {
        moves_by(pos, |p| Ok(self.probe(p)?.before_move()))
    }

    /// The line of perfect play from `pos` to the end of the game: the
    /// first of [`Tablebase::best_moves`] at every step.
    pub fn principal_line(&self, pos: &Position) -> Result<Vec<Move>, TableError> {
        line_by(pos, |p| self.best_moves(p))
    }

    /// Every legal move of `pos` with its win, draw or loss from the
    /// mover's view, wins first, then draws, then losses (ties in move
    /// generation order). Reads WDL sections only, so tables without
    /// distances (`gen --wdl-only`) serve.
    pub fn best_moves_wdl(&self, pos: &Position) -> Result<Vec<(Move, Wdl)>, TableError> {
        moves_by(pos, |p| Ok(self.probe_wdl(p)?.before_move()))
    }

    /// A line from `pos` to the end of the game in which each side plays
    /// the first of [`Tablebase::best_moves_wdl`], so every move keeps the
    /// value. Not the fastest win or the longest loss, which need
    /// distances; it ends all the same, since every move is a pawn's and
    /// none can be undone.
    pub fn value_keeping_line(&self, pos: &Position) -> Result<Vec<Move>, TableError> {
        line_by(pos, |p| self.best_moves_wdl(p))
    }
}

/// Every legal move of `pos` with `value` of the position it leads to,
/// best first (ties in move generation order).
fn moves_by<V: Ord + Copy>(
    pos: &Position,
    value: impl Fn(&Position) -> Result<V, TableError>,
) -> Result<Vec<(Move, V)>, TableError> {
    let mut moves = Vec::new();
    for &m in pos.legal_moves().iter() {
        moves.push((m, value(&pos.play(m))?));
    }
    moves.sort_by_key(|m| std::cmp::Reverse(m.1));
    Ok(moves)
}

/// The line from `pos` to the end of the game that plays the first of
/// `best` at every step.
fn line_by<V>(
    pos: &Position,
    best: impl Fn(&Position) -> Result<Vec<(Move, V)>, TableError>,
) -> Result<Vec<Move>, TableError> {
    let mut line = Vec::new();
    let mut p = *pos;
    while let Some((m, _)) = best(&p)?.into_iter().next() {
        line.push(m);
        p = p.play(m);
    }
    Ok(line)
}

impl TableValues for Tablebase {
    type Error = TableError;

    fn table_value(&self, pos: &Position) -> Result<Value, TableError> {
        let (table, pos) = self.located(pos)?;
        table.get(&pos)
    }
}

/// The number of files from file a up to the last one holding a pawn:
/// of a canonical position, the narrowest board whose tables answer it.
pub(crate) fn used_width(pos: &Position) -> u8 {
    let files = (pos.pawns(Color::White) | pos.pawns(Color::Black)).files();
    8 - files.leading_zeros() as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// The word-at-a-time packing and check against a byte at a time, on
    /// every length up to 100 (whole words and a part), bytes mostly
    /// valid and now and then anything.
    #[test]
    fn packing_and_checking_match_a_byte_at_a_time() {
        let mut rng = SplitMix64::new(5);
        for len in 0..100usize {
            for round in 0..200 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        if round % 2 == 0 || rng.below(16) != 0 {
                            rng.below(3) as u8
                        } else {
                            rng.below(256) as u8
                        }
                    })
                    .collect();
                assert_eq!(
                    wdl_bytes_valid(&bytes),
                    bytes.iter().all(|&b| b <= 2),
                    "{bytes:?}"
                );
                if !bytes.iter().all(|&b| b <= 2) {
                    continue;
                }
                let words = pack_wdl(&bytes);
                assert_eq!(words.len(), len.div_ceil(32));
                for (i, &b) in bytes.iter().enumerate() {
                    assert_eq!(unpack_wdl(&words, i as u64), b);
                }
                // Nothing set past the last byte.
                if len % 32 != 0 {
                    assert_eq!(words[len / 32] >> (2 * (len % 32)), 0);
                }
            }
        }
    }
}
