//! Files of proven results: what a stopped solve keeps so that a later
//! solve resumes from it (`peasant solve --save FILE`). Such a file is a
//! small table of canonical positions: loaded into the solver's
//! transposition table ([`crate::Solver::load_proven`]), its positions are
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
//! | 21 N | entries sorted by key: the whole 128-bit key (16), score (i16), best move (u16), work (u8) |
//! | 4 | CRC-32 of everything before |
//!
//! Files are written to a temporary file in the same directory and renamed
//! over the old one, so a write that is interrupted leaves the old file (or
//! none), never a part of one; the length and checksum catch any other damage.

use crate::solver::Proven;
use crate::variant::{Board, Rules, Variant};
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
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} is damaged ({why}): not used; delete it to start afresh")]
    Damaged { path: PathBuf, why: String },
    #[error("{path} holds results for {found}, not for this solve ({wanted})")]
    WrongKind {
        path: PathBuf,
        found: String,
        wanted: String,
    },
}

fn io(path: &Path, source: std::io::Error) -> ProvenError {
    ProvenError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The bytes of a file of `proven` (sorted here) for `kind`.
pub fn encode_proven(kind: ProvenKind, proven: &[Proven]) -> Vec<u8> {
    // Sorted by key without duplicates already (as `Solver::proven` and
    // the command give them): no copy, which for big solves is large.
    let sorted: std::borrow::Cow<[Proven]> = if proven.windows(2).all(|w| w[0].key < w[1].key) {
        std::borrow::Cow::Borrowed(proven)
    } else {
        let mut v = proven.to_vec();
        v.sort_unstable();
        v.dedup_by_key(|p| p.key);
        std::borrow::Cow::Owned(v)
    };
    let mut out = Vec::with_capacity(HEADER + ENTRY * sorted.len() + 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let v = kind.variant;
    out.extend_from_slice(&[
        v.board.width(),
        v.board.height(),
        v.rules.en_passant as u8,
        v.rules.seventh_rank_wins as u8,
        kind.dtm as u8,
        0,
    ]);
    out.extend_from_slice(&(sorted.len() as u64).to_le_bytes());
    for p in sorted.iter() {
        out.extend_from_slice(&p.key.to_le_bytes());
        out.extend_from_slice(&p.score.to_le_bytes());
        out.extend_from_slice(&p.best.to_le_bytes());
        out.push(p.work);
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
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
    Ok(out)
}

/// Writes `proven` to `path` for `kind`: to a temporary file beside it,
/// synced, then renamed over `path`.
pub fn save_proven(path: &Path, kind: ProvenKind, proven: &[Proven]) -> Result<(), ProvenError> {
    let bytes = encode_proven(kind, proven);
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(path, e)
    })
}

/// The results saved in `path` for `wanted`; `None` if there is no file.
pub fn load_proven(path: &Path, wanted: ProvenKind) -> Result<Option<Vec<Proven>>, ProvenError> {
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
