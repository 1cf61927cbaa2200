//! Table files and the [`Tablebase`] that probes them.
//!
//! Format version 1, one file per material class, little-endian:
//!
//! | bytes | content |
//! |---|---|
//! | 0..8 | magic `PEASANT` + 0x1a |
//! | 8..12 | format version (1) |
//! | 12..16 | header length (64) |
//! | 16, 17 | board width, height |
//! | 18 | rules: bit 0 en passant, bit 1 seventh-rank-wins |
//! | 19, 20 | white pawns, black pawns |
//! | 21 | index scheme (1: [`crate::Index`]) |
//! | 22..24 | reserved, zero |
//! | 24..32 | number of positions N |
//! | 32..64 | reserved, zero |
//! | 64..64+N | one value byte per index number ([`Value::to_byte`]) |
//! | last 8 | CRC-32 of everything before it, then `PEND` |
//!
//! A file is written under a temporary name and renamed only once it is
//! complete, so a file with the final name is whole unless it was damaged
//! afterwards, which the checksum finds.

use crate::eval::TableValues;
use crate::index::Index;
use crate::material::Material;
use crate::position::Position;
use crate::value::Value;
use crate::variant::{Rules, Variant};
use memmap2::Mmap;
use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use thiserror::Error;

pub const MAGIC: [u8; 8] = *b"PEASANT\x1a";
pub const FORMAT_VERSION: u32 = 1;
pub const HEADER_LEN: usize = 64;
const TRAILER: [u8; 4] = *b"PEND";
const TRAILER_LEN: usize = 8;
const INDEX_SCHEME: u8 = 1;

/// Why a table could not be used.
#[derive(Debug, Error)]
pub enum TableError {
    #[error("no table for class {material} of {variant} (expected {path}); generate it with: peasant gen {gen_args}")]
    Missing {
        material: Material,
        variant: Variant,
        path: PathBuf,
        gen_args: String,
    },
    #[error("table {path} is damaged: {why}")]
    Damaged { path: PathBuf, why: String },
    #[error("table {path} is for {found}, not {wanted}")]
    WrongTable {
        path: PathBuf,
        found: String,
        wanted: String,
    },
    #[error("table {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl TableError {
    fn io(path: &Path, source: std::io::Error) -> TableError {
        TableError::Io {
            path: path.to_path_buf(),
            source,
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

/// The command-line flags that select `variant`, for messages.
pub fn variant_flags(variant: Variant) -> String {
    let mut s = format!("--board {}", variant.board);
    if !variant.rules.en_passant {
        s.push_str(" --no-en-passant");
    }
    if variant.rules.seventh_rank_wins {
        s.push_str(" --seventh-rank-wins");
    }
    s
}

fn rules_byte(rules: Rules) -> u8 {
    rules.en_passant as u8 | (rules.seventh_rank_wins as u8) << 1
}

fn header(variant: Variant, material: Material, count: u64) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    h[16] = variant.board.width();
    h[17] = variant.board.height();
    h[18] = rules_byte(variant.rules);
    h[19] = material.white;
    h[20] = material.black;
    h[21] = INDEX_SCHEME;
    h[24..32].copy_from_slice(&count.to_le_bytes());
    h
}

/// Writes a finished table: to `<name>.tmp`, flushed to disk, then renamed.
pub fn write_table(
    dir: &Path,
    variant: Variant,
    material: Material,
    values: &[u8],
) -> Result<PathBuf, TableError> {
    std::fs::create_dir_all(dir).map_err(|e| TableError::io(dir, e))?;
    let path = dir.join(file_name(variant, material));
    let tmp = path.with_extension("ptb.tmp");
    let head = header(variant, material, values.len() as u64);
    let mut crc = crc32fast::Hasher::new();
    crc.update(&head);
    crc.update(values);
    let mut trailer = [0u8; TRAILER_LEN];
    trailer[0..4].copy_from_slice(&crc.finalize().to_le_bytes());
    trailer[4..8].copy_from_slice(&TRAILER);
    let write = || -> std::io::Result<()> {
        let mut f = std::io::BufWriter::new(File::create(&tmp)?);
        f.write_all(&head)?;
        f.write_all(values)?;
        f.write_all(&trailer)?;
        f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, &path)
    };
    write().map_err(|e| TableError::io(&path, e))?;
    Ok(path)
}

/// One class's table, memory-mapped and checked.
pub struct Table {
    index: Index,
    map: Mmap,
    path: PathBuf,
}

impl Table {
    /// Opens and checks a table file: magic, version, that it is the table of
    /// `material` on `variant`, its length, and its checksum.
    pub fn open(path: &Path, variant: Variant, material: Material) -> Result<Table, TableError> {
        let file = File::open(path).map_err(|e| TableError::io(path, e))?;
        // Safety: table files are written once, under a temporary name, and
        // never modified in place; a file replaced or truncated while mapped
        // is outside what this program does (the checksum below catches
        // damage done before opening).
        let map = unsafe { Mmap::map(&file) }.map_err(|e| TableError::io(path, e))?;
        let damaged = |why: String| TableError::Damaged {
            path: path.to_path_buf(),
            why,
        };
        if map.len() < HEADER_LEN + TRAILER_LEN {
            return Err(damaged(format!("only {} bytes long", map.len())));
        }
        if map[0..8] != MAGIC {
            return Err(damaged("not a peasant table (wrong magic bytes)".into()));
        }
        let version = u32::from_le_bytes(map[8..12].try_into().unwrap());
        if version != FORMAT_VERSION {
            return Err(damaged(format!(
                "format version {version}, this program reads version {FORMAT_VERSION}"
            )));
        }
        let expected = header(variant, material, 0);
        if map[16..22] != expected[16..22] {
            let describe = |h: &[u8]| {
                let mut d = format!("{}x{}", h[16], h[17]);
                d.push_str(if h[18] & 1 != 0 {
                    ", en passant"
                } else {
                    ", no en passant"
                });
                if h[18] & 2 != 0 {
                    d.push_str(", seventh-rank-wins");
                }
                format!("{d}, class {}v{}, index scheme {}", h[19], h[20], h[21])
            };
            return Err(TableError::WrongTable {
                path: path.to_path_buf(),
                found: describe(&map[..HEADER_LEN]),
                wanted: describe(&expected),
            });
        }
        let count = u64::from_le_bytes(map[24..32].try_into().unwrap());
        let index = Index::new(variant, material);
        if count != index.len() {
            return Err(damaged(format!(
                "holds {count} positions, the class has {}",
                index.len()
            )));
        }
        if map.len() as u64 != HEADER_LEN as u64 + count + TRAILER_LEN as u64 {
            return Err(damaged(format!(
                "{} bytes long, expected {} (truncated or extended)",
                map.len(),
                HEADER_LEN as u64 + count + TRAILER_LEN as u64
            )));
        }
        let body_end = map.len() - TRAILER_LEN;
        if map[body_end + 4..] != TRAILER {
            return Err(damaged("the end marker is missing".into()));
        }
        let stored = u32::from_le_bytes(map[body_end..body_end + 4].try_into().unwrap());
        if crc32fast::hash(&map[..body_end]) != stored {
            return Err(damaged("checksum mismatch".into()));
        }
        Ok(Table {
            index,
            map,
            path: path.to_path_buf(),
        })
    }

    pub fn index(&self) -> &Index {
        &self.index
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The value bytes, one per index number.
    #[inline]
    pub fn values(&self) -> &[u8] {
        &self.map[HEADER_LEN..self.map.len() - TRAILER_LEN]
    }

    /// The value of a table position of this class.
    #[inline]
    pub fn get(&self, pos: &Position) -> Result<Value, TableError> {
        let byte = self.values()[self.index.rank(pos) as usize];
        Value::from_byte(byte).ok_or_else(|| self.bad_byte())
    }

    #[cold]
    fn bad_byte(&self) -> TableError {
        TableError::Damaged {
            path: self.path.clone(),
            why: "a position has no value".into(),
        }
    }
}

/// The tables of one variant in one directory, opened on first use and
/// shared by all threads.
pub struct Tablebase {
    dir: PathBuf,
    variant: Variant,
    open: RwLock<HashMap<Material, Arc<Table>>>,
}

impl Tablebase {
    pub fn new(dir: impl Into<PathBuf>, variant: Variant) -> Tablebase {
        Tablebase {
            dir: dir.into(),
            variant,
            open: RwLock::new(HashMap::new()),
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path a class's table has in this tablebase.
    pub fn path_of(&self, material: Material) -> PathBuf {
        self.dir.join(file_name(self.variant, material))
    }

    /// The table of `material`, opened and checked on first use.
    pub fn table(&self, material: Material) -> Result<Arc<Table>, TableError> {
        if let Some(t) = self.open.read().unwrap().get(&material) {
            return Ok(t.clone());
        }
        let path = self.path_of(material);
        if !path.exists() {
            return Err(TableError::Missing {
                material,
                variant: self.variant,
                path,
                gen_args: format!("{} --class {material}", variant_flags(self.variant)),
            });
        }
        let table = Arc::new(Table::open(&path, self.variant, material)?);
        self.open.write().unwrap().insert(material, table.clone());
        Ok(table)
    }

    /// The exact value of any position of this tablebase's variant.
    pub fn probe(&self, pos: &Position) -> Result<Value, TableError> {
        crate::eval::value(self, pos)
    }
}

impl TableValues for Tablebase {
    type Error = TableError;

    fn table_value(&self, pos: &Position) -> Result<Value, TableError> {
        self.table(Material::of(pos))?.get(pos)
    }
}
