//! Files of proven results: what a stopped solve keeps so that a later
//! solve resumes from it (`peasant solve --save FILE`). Such a file is a
//! small table of canonical positions: loaded into the solver's
//! transposition table ([`crate::solve::Solver::load_proven`]), its positions are
//! leaves of the search.
//!
//! Layout, little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 8 | magic `PSNTPROV` |
//! | 2 | format version (1) |
//! | 1, 1 | board width, height |
//! | 1, 1 | en passant (0/1), seventh-rank-wins (0/1) |
//! | 1 | mode: 0 win/draw/loss, 1 DTM |
//! | 1 | reserved (0) |
//! | 8 | number of entries N |
//! | 21 N | entries sorted by key, no key twice: the whole 128-bit key (16), score (i16), best move (u16), work (u8) |
//! | 4 | CRC-32 of everything before |
//!
//! Files are streamed (a save of 10^8 positions needs no second copy of
//! them in memory) to a temporary file in the same directory and renamed
//! over the old one, so a write that is interrupted leaves the old file (or
//! none), never a part of one; the length and checksum catch any other damage.

use crate::rules::variant::{Board, Rules, Variant};
use crate::solve::types::Proven;
use std::io::Write;
use std::path::{Path, PathBuf};
use thiserror::Error;

const MAGIC: &[u8; 8] = b"PSNTPROV";
const VERSION: u16 = 1;
const HEADER: usize = 24;
const ENTRY: usize = 21;

/// What a proven-results file is for: the game and the solver's mode.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ProvenKind {
    /// The game the results belong to.
    pub variant: Variant,
    /// Exact DTM scores (else win/draw/loss).
    pub dtm: bool,
}

impl std::fmt::Display for ProvenKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mode = if self.dtm { "DTM" } else { "win/draw/loss" };
        write!(f, "{}, {mode}", self.variant)
    }
}

/// Why a proven-results file could not be read or written.
#[derive(Debug, Error)]
pub enum ProvenError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system reported.
        #[source]
        source: std::io::Error,
    },
    /// The file is damaged (wrong magic, version, length, checksum, header or
    /// entry) and is not used.
    #[error("{path} is damaged ({why}): not used; delete it to start afresh")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// The file holds results of another game or mode than the solve's.
    #[error("{path} holds results for {found}, not for this solve ({wanted})")]
    WrongKind {
        /// The file.
        path: PathBuf,
        /// The game and mode the file's results are for.
        found: String,
        /// The game and mode of the solve.
        wanted: String,
    },
}

fn io(path: &Path, source: std::io::Error) -> ProvenError {
    ProvenError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// `proven` sorted by key without duplicates: borrowed if it already is
/// (as [`crate::solve::Solver::proven`] gives it: no copy, which for big solves is
/// large), else a sorted copy.
fn sorted(proven: &[Proven]) -> std::borrow::Cow<'_, [Proven]> {
    if proven.windows(2).all(|w| w[0].key < w[1].key) {
        std::borrow::Cow::Borrowed(proven)
    } else {
        let mut v = proven.to_vec();
        v.sort_unstable();
        v.dedup_by_key(|p| p.key);
        std::borrow::Cow::Owned(v)
    }
}

/// The union of two lists sorted by key without duplicates, in key order;
/// on a key in both, the first list's entry.
#[derive(Clone)]
struct Union<'a> {
    a: &'a [Proven],
    b: &'a [Proven],
}

impl<'a> Iterator for Union<'a> {
    type Item = &'a Proven;

    fn next(&mut self) -> Option<&'a Proven> {
        let take_a = match (self.a.first(), self.b.first()) {
            (None, None) => return None,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(x), Some(y)) => {
                if x.key == y.key {
                    self.b = &self.b[1..];
                }
                x.key <= y.key
            }
        };
        let list = if take_a { &mut self.a } else { &mut self.b };
        let (first, rest) = list.split_first()?;
        *list = rest;
        Some(first)
    }
}

/// A writer that keeps the CRC-32 of what went through it.
struct Crc<W> {
    inner: W,
    crc: crc32fast::Hasher,
}

impl<W: Write> Write for Crc<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Writes a file of `entries` (in key order, no key twice) for `kind` to
/// `out` as it goes, without building it in memory; returns the number of
/// entries.
fn write_proven<'a>(
    out: impl Write,
    kind: ProvenKind,
    entries: impl Iterator<Item = &'a Proven> + Clone,
) -> std::io::Result<u64> {
    let n = entries.clone().count() as u64;
    let mut w = Crc {
        inner: out,
        crc: crc32fast::Hasher::new(),
    };
    w.write_all(MAGIC)?;
    w.write_all(&VERSION.to_le_bytes())?;
    let v = kind.variant;
    w.write_all(&[
        v.board.width(),
        v.board.height(),
        v.rules.en_passant as u8,
        v.rules.seventh_rank_wins as u8,
        kind.dtm as u8,
        0,
    ])?;
    w.write_all(&n.to_le_bytes())?;
    let mut e = [0u8; ENTRY];
    for p in entries {
        e[..16].copy_from_slice(&p.key.to_le_bytes());
        e[16..18].copy_from_slice(&p.score.to_le_bytes());
        e[18..20].copy_from_slice(&p.best.to_le_bytes());
        e[20] = p.work;
        w.write_all(&e)?;
    }
    let crc = w.crc.finalize();
    w.inner.write_all(&crc.to_le_bytes())?;
    w.inner.flush()?;
    Ok(n)
}

/// The bytes of a file of `proven` (sorted here) for `kind`.
pub fn encode_proven(kind: ProvenKind, proven: &[Proven]) -> Vec<u8> {
    let sorted = sorted(proven);
    let mut out = Vec::with_capacity(HEADER + ENTRY * sorted.len() + 4);
    write_proven(&mut out, kind, sorted.iter()).expect("writing to memory");
    out
}

/// Reads the bytes of a file (named `path` in errors) made for `wanted`.
pub fn decode_proven(
    path: &Path,
    bytes: &[u8],
    wanted: ProvenKind,
) -> Result<Vec<Proven>, ProvenError> {
    let damaged = |why: &str| ProvenError::Damaged {
        path: path.to_path_buf(),
        why: why.to_string(),
    };
    if bytes.len() < HEADER + 4 || &bytes[..8] != MAGIC {
        return Err(damaged("not a peasant proven-results file, or cut short"));
    }
    let (body, tail) = bytes.split_at(bytes.len() - 4);
    let crc = u32::from_le_bytes(tail.try_into().expect("4 bytes"));
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    let n = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
    // The length first: a cut file says so even if its tail is checked.
    if Some(bytes.len() as u64) != n.checked_mul(ENTRY as u64).map(|e| e + HEADER as u64 + 4) {
        return Err(damaged(&format!(
            "{} bytes where {n} entries need {}",
            bytes.len(),
            (HEADER + 4) as u128 + n as u128 * ENTRY as u128
        )));
    }
    if crc32fast::hash(body) != crc {
        return Err(damaged("checksum mismatch"));
    }
    if version != VERSION {
        return Err(damaged(&format!(
            "format version {version}, this program reads {VERSION}"
        )));
    }
    let h = &bytes[10..16];
    let flag = |b: u8| match b {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(damaged("bad header")),
    };
    let board = Board::new(h[0], h[1]).map_err(|_| damaged("bad board size"))?;
    let found = ProvenKind {
        variant: Variant::new(
            board,
            Rules {
                en_passant: flag(h[2])?,
                seventh_rank_wins: flag(h[3])?,
            },
        ),
        dtm: flag(h[4])?,
    };
    if found != wanted {
        return Err(ProvenError::WrongKind {
            path: path.to_path_buf(),
            found: found.to_string(),
            wanted: wanted.to_string(),
        });
    }
    let limit = if found.dtm { 999 } else { 1 };
    let squares = board.squares().0 as u128 | (board.squares().0 as u128) << 64;
    let mut out = Vec::with_capacity(n as usize);
    for e in body[HEADER..].chunks_exact(ENTRY) {
        let p = Proven {
            key: u128::from_le_bytes(e[..16].try_into().expect("16 bytes")),
            score: i16::from_le_bytes([e[16], e[17]]),
            best: u16::from_le_bytes([e[18], e[19]]),
            work: e[20],
        };
        if p.key & !squares != 0 || p.key == 0 || (p.score as i32).abs() > limit {
            return Err(damaged("an entry that no position of this board can have"));
        }
        out.push(p);
    }
    // Files are written in key order; one that is not (an older writer)
    // is put in order, as saving alongside it needs.
    if !out.windows(2).all(|w| w[0].key < w[1].key) {
        out.sort_unstable();
        out.dedup_by_key(|p| p.key);
    }
    Ok(out)
}

/// Writes `proven` to `path` for `kind`: to a temporary file beside it,
/// synced, then renamed over `path`.
pub fn save_proven(path: &Path, kind: ProvenKind, proven: &[Proven]) -> Result<(), ProvenError> {
    save_proven_union(path, kind, &sorted(proven), &[]).map(|_| ())
}

/// Writes the union of `fresh` and `old` to `path` for `kind` as
/// [`save_proven`] does, streamed to the file (no copy of the lists is
/// made): each list sorted by key without duplicates, and on a key in both
/// `fresh`'s entry kept. Returns the number of entries written. A resumed
/// solve saves what it proved with what it loaded this way, so that
/// entries its transposition table dropped are not lost.
pub fn save_proven_union(
    path: &Path,
    kind: ProvenKind,
    fresh: &[Proven],
    old: &[Proven],
) -> Result<u64, ProvenError> {
    debug_assert!(fresh.windows(2).all(|w| w[0].key < w[1].key));
    debug_assert!(old.windows(2).all(|w| w[0].key < w[1].key));
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let write = || -> std::io::Result<u64> {
        let f = std::fs::File::create(&tmp)?;
        let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
        let n = write_proven(&mut w, kind, Union { a: fresh, b: old })?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        Ok(n)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(path, e)
    })
}

/// The results saved in `path` for `wanted`; `None` if there is no file.
pub fn load_proven(path: &Path, wanted: ProvenKind) -> Result<Option<Vec<Proven>>, ProvenError> {
    // A device would be read without end (a link to /dev/zero).
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        let e = std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file");
        return Err(io(path, e));
    }
    match std::fs::read(path) {
        Ok(bytes) => decode_proven(path, &bytes, wanted).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io(path, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(dtm: bool) -> ProvenKind {
        ProvenKind {
            variant: Variant::new(Board::new(5, 5).unwrap(), Rules::default()),
            dtm,
        }
    }

    fn sample() -> Vec<Proven> {
        vec![
            Proven {
                key: 0x100 | 0x2_0000 << 64,
                score: 995,
                best: 1 + 8 * 64 + 16,
                work: 7,
            },
            Proven {
                key: 0x200,
                score: -998,
                best: 0,
                work: 0,
            },
        ]
    }

    #[test]
    fn round_trip_sorted() {
        let path = Path::new("x.proven");
        let bytes = encode_proven(kind(true), &sample());
        let mut expected = sample();
        expected.sort();
        assert_eq!(decode_proven(path, &bytes, kind(true)).unwrap(), expected);
        assert_eq!(
            decode_proven(path, &encode_proven(kind(false), &[]), kind(false)).unwrap(),
            vec![]
        );
    }

    /// Saving two sorted lists together writes the file of their union
    /// (the first list's entry where both have a key), byte for byte the
    /// one encoded from the merged list.
    #[test]
    fn union_saves_the_merged_list() {
        let mut rng = crate::rng::SplitMix64::new(11);
        let mut keys = |n: usize, span: u64| {
            let mut v: Vec<Proven> = (0..n)
                .map(|_| Proven {
                    key: ((rng.next_u64() % span) as u128 + 1) << 8,
                    score: (rng.next_u64() % 3) as i16 - 1,
                    best: (rng.next_u64() % 4096) as u16,
                    work: (rng.next_u64() % 40) as u8,
                })
                .collect();
            v.sort_unstable();
            v.dedup_by_key(|p| p.key);
            v
        };
        let dir = std::env::temp_dir().join(format!("peasant-union-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("u.proven");
        let kind = ProvenKind {
            variant: Variant::new(Board::new(8, 8).unwrap(), Rules::default()),
            dtm: false,
        };
        for (na, nb, span) in [
            (0, 0, 8),
            (5, 0, 8),
            (0, 5, 8),
            (40, 60, 64),
            (300, 200, 400),
        ] {
            let (a, b) = (keys(na, span), keys(nb, span));
            let mut merged = a.clone();
            merged.extend(b.iter().filter(|p| !a.iter().any(|q| q.key == p.key)));
            merged.sort_unstable();
            let n = save_proven_union(&path, kind, &a, &b).unwrap();
            assert_eq!(n as usize, merged.len());
            let bytes = std::fs::read(&path).unwrap();
            assert_eq!(bytes, encode_proven(kind, &merged));
            assert_eq!(decode_proven(&path, &bytes, kind).unwrap(), merged);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A file whose entries are out of order (as an older writer could
    /// leave) is read back in key order.
    #[test]
    fn unsorted_files_are_read_in_order() {
        let mut entries = sample();
        entries.sort();
        entries.reverse();
        let mut out = Vec::new();
        write_proven(&mut out, kind(true), entries.iter()).unwrap();
        let read = decode_proven(Path::new("x"), &out, kind(true)).unwrap();
        entries.reverse();
        assert_eq!(read, entries);
    }

    /// A save file's name that is a device is refused without reading it
    /// (a link to /dev/zero or /dev/full would be read for ever).
    #[test]
    fn a_device_is_not_a_save_file() {
        let path = Path::new("/dev/null");
        if path.exists() {
            let e = load_proven(path, kind(false)).unwrap_err();
            assert!(matches!(&e, ProvenError::Io { .. }), "{e}");
            assert!(e.to_string().contains("not a regular file"), "{e}");
        }
    }

    #[test]
    fn damage_and_wrong_kind_are_refused() {
        let path = Path::new("x.proven");
        let bytes = encode_proven(kind(true), &sample());
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x10;
            assert!(
                matches!(
                    decode_proven(path, &b, kind(true)),
                    Err(ProvenError::Damaged { .. })
                ),
                "byte {i}"
            );
        }
        for len in 0..bytes.len() {
            assert!(matches!(
                decode_proven(path, &bytes[..len], kind(true)),
                Err(ProvenError::Damaged { .. })
            ));
        }
        let e = decode_proven(path, &bytes, kind(false)).unwrap_err();
        assert!(matches!(e, ProvenError::WrongKind { .. }));
        assert!(e.to_string().contains("x.proven"), "{e}");
    }
}
