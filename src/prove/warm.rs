//! Warm starts: the top of a proof-number job's search, kept in the proof
//! directory so that the next job on the same question goes on from where
//! the last one stopped instead of starting again in an empty transposition
//! table.
//!
//! A proof-number worker whose job runs out of budget, or is interrupted
//! when the run ends (`--max-seconds`, `--max-jobs` with jobs in flight,
//! Ctrl-C), hands back the entries of its transposition table with the most
//! work below them ([`PnSolver::heaviest`](crate::solve::PnSolver::heaviest)). The
//! manager gives them to the pair's next job, which loads them into its
//! transposition table before it starts: in this run (its worker's
//! transposition table may have lost them, an MPI rank or an emulated
//! worker never had them) and in later runs, which read them from
//! `DIR/warm/`. One file per pair (position and question), replaced by the
//! pair's newest; a file of a pair that is answered, or expanded, is
//! removed at the end of a run.
//!
//! The entries' proven numbers are believed as the log's answers are:
//! each file is checksummed (CRC-32) and names its game, and a file that
//! fails either is reported and ignored. Unproven numbers only steer the
//! search, they never decide an answer.

use crate::prove::log::{variant_tag, LogError};
use crate::prove::pair::Pair;
use crate::rules::Variant;
use crate::solve::{PnEntry, Question};
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The folder of warm starts inside a proof directory.
pub const WARM_DIR: &str = "warm";

/// The first line of a warm-start file (before the game's tag).
const MAGIC: &str = "peasant-warm 1";

/// The most entries a warm start may hold (`--warm-entries` refuses
/// more; a damaged count must not allocate without end): 2^22, 117 MB.
pub const MAX_ENTRIES: u64 = 1 << 22;

/// Bytes of one entry: key (16), φ, δ, work (4 each), little-endian.
pub(crate) const ENTRY_BYTES: usize = 28;

/// A pair's warm start: the entries, shared by the jobs that load them.
pub type Warm = Arc<[PnEntry]>;

/// The warm starts of one proof directory.
pub struct WarmStore {
    dir: PathBuf,
    variant: Variant,
}

/// What [`WarmStore::load`] found.
#[derive(Default)]
pub struct WarmFiles {
    /// Each pair's entries.
    pub pairs: HashMap<Pair, Warm>,
    /// One line for each file that was not believed.
    pub damaged: Vec<String>,
}

/// The file name of a pair.
fn file_name(pair: Pair) -> String {
    let q = match pair.question {
        Question::Wins => "wins",
        Question::AvoidsLoss => "avoids-loss",
    };
    format!("{:032x}-{q}.pnw", pair.key)
}

/// The pair a file name names, if it is one.
fn parse_name(name: &str) -> Option<Pair> {
    let stem = name.strip_suffix(".pnw")?;
    let (key, q) = stem.split_once('-')?;
    if key.len() != 32 {
        return None;
    }
    let q = match q {
        "wins" => Question::Wins,
        "avoids-loss" => Question::AvoidsLoss,
        _ => return None,
    };
    Some(Pair::new(u128::from_str_radix(key, 16).ok()?, q))
}

/// A warm start as bytes: zstd of the header line (magic, game, key,
/// question: 0 "wins", 1 "avoids loss", count), the entries and a CRC-32
/// of all that.
pub fn encode(variant: Variant, pair: Pair, entries: &[PnEntry]) -> Vec<u8> {
    let q = match pair.question {
        Question::Wins => 0,
        Question::AvoidsLoss => 1,
    };
    let mut raw = format!(
        "{MAGIC} {} {:032x} {q} {}\n",
        variant_tag(variant),
        pair.key,
        entries.len()
    )
    .into_bytes();
    raw.reserve(entries.len() * ENTRY_BYTES + 4);
    for e in entries {
        put_entry(&mut raw, e);
    }
    let crc = crc32fast::hash(&raw);
    raw.extend_from_slice(&crc.to_le_bytes());
    zstd::encode_all(&raw[..], 3).expect("compressing into memory")
}

/// The pair and entries of a warm start [`encode`] wrote for `variant`;
/// a line saying what is wrong otherwise. Reads no more than the header's
/// count of entries says (at most [`MAX_ENTRIES`]), so a damaged file
/// cannot make it decompress without end.
pub fn decode(variant: Variant, bytes: &[u8]) -> Result<(Pair, Vec<PnEntry>), String> {
    let mut z =
        zstd::Decoder::new(bytes).map_err(|e| format!("not a compressed warm start ({e})"))?;
    let unreadable = |e: std::io::Error| format!("damaged ({e})");
    // The header line: at most 200 bytes.
    let mut raw = Vec::new();
    let mut byte = [0u8; 1];
    loop {
        z.read_exact(&mut byte).map_err(unreadable)?;
        raw.push(byte[0]);
        if byte[0] == b'\n' {
            break;
        }
        if raw.len() > 200 {
            return Err("damaged (no header)".into());
        }
    }
    let header = std::str::from_utf8(&raw[..raw.len() - 1]).map_err(|_| "damaged (header)")?;
    let f: Vec<&str> = header.split(' ').collect();
    if f.len() != 6 || f[0..2] != MAGIC.split(' ').collect::<Vec<_>>()[..] {
        return Err("not a warm start of this version".into());
    }
    let tag = variant_tag(variant);
    if f[2] != tag {
        return Err(format!(
            "a warm start of another game ({}, not {tag})",
            f[2]
        ));
    }
    let bad = || "damaged (header)".to_string();
    if f[3].len() != 32 {
        return Err(bad());
    }
    let key = u128::from_str_radix(f[3], 16).map_err(|_| bad())?;
    let question = match f[4] {
        "0" => Question::Wins,
        "1" => Question::AvoidsLoss,
        _ => return Err(bad()),
    };
    let count: u64 = f[5].parse().map_err(|_| bad())?;
    if count > MAX_ENTRIES {
        return Err("damaged (entry count)".into());
    }
    // The entries and the checksum, and nothing after them.
    let body = count * ENTRY_BYTES as u64 + 4;
    let start = raw.len();
    (&mut z)
        .take(body + 1)
        .read_to_end(&mut raw)
        .map_err(unreadable)?;
    if (raw.len() - start) as u64 != body {
        return Err("damaged (entry count)".into());
    }
    let (checked, crc) = raw.split_at(raw.len() - 4);
    if crc32fast::hash(checked).to_le_bytes() != crc {
        return Err("damaged (checksum mismatch)".into());
    }
    let entries = entries_from_bytes(&checked[start..]);
    Ok((Pair::new(key, question), entries))
}

/// The pair a message of solved entries names in its header: key 0,
/// which no position has ([`crate::rules::position_key`] is never zero).
const SOLVED_PAIR: Pair = Pair {
    key: 0,
    question: Question::Wins,
};

/// Solved transposition-table entries as bytes (the solved positions a
/// proof-number worker sends out, `prove --share-solved`): the
/// checksummed form of a warm-start file ([`WarmStore`]) of a pair no position
/// has.
pub fn encode_solved(variant: Variant, entries: &[PnEntry]) -> Vec<u8> {
    encode(variant, SOLVED_PAIR, entries)
}

/// The entries [`encode_solved`] wrote for `variant`; `None` if the bytes
/// are damaged, of another game, a warm start, or hold an entry that is
/// not solved (every one of them is believed).
pub fn decode_solved(variant: Variant, bytes: &[u8]) -> Option<Vec<PnEntry>> {
    let (pair, entries) = decode(variant, bytes).ok()?;
    let solved = entries.iter().all(|e| e.phi == 0 || e.delta == 0);
    (pair == SOLVED_PAIR && solved).then_some(entries)
}

#[cfg(any(feature = "mpi", test))]
/// The pair a path sent with an exchange names in its header: key 0, as
/// [`SOLVED_PAIR`], with the other question.
const PATH_PAIR: Pair = Pair {
    key: 0,
    question: Question::AvoidsLoss,
};

/// A running job's exchange with rank 0 as bytes (`prove --share-every`
/// under mpirun), both ways: the job's number, a byte that says whether
/// solved entries follow (0) or the path alone (1, an exchange of
/// `--share-paths-every` and its answer), with entries their byte length
/// and the entries ([`encode_solved`]: the job's new ones, or rank 0's
/// answer of the other ranks'), then keys of a search path in the same
/// checksummed form, as entries of no numbers (the job's path, or in the
/// answer the paths of the ranks before it to steer clear of, unless
/// `--no-share-paths`; empty then).
#[cfg(any(feature = "mpi", test))]
pub fn encode_exchange(
    variant: Variant,
    id: u64,
    solved: Option<&[PnEntry]>,
    path: &[u128],
) -> Vec<u8> {
    let path: Vec<PnEntry> = path
        .iter()
        .map(|&key| PnEntry {
            key,
            phi: 1,
            delta: 1,
            work: 0,
        })
        .collect();
    let mut out = id.to_le_bytes().to_vec();
    match solved {
        Some(solved) => {
            let solved = encode_solved(variant, solved);
            out.push(0);
            out.extend_from_slice(&(solved.len() as u64).to_le_bytes());
            out.extend(solved);
        }
        None => out.push(1),
    }
    out.extend(encode(variant, PATH_PAIR, &path));
    out
}

/// What an exchange carries ([`encode_exchange`]): the job's number, its
/// solved entries (none for an exchange of the path alone) and the keys
/// of a path.
#[cfg(any(feature = "mpi", test))]
pub type Exchange = (u64, Option<Vec<PnEntry>>, Vec<u128>);

/// The job number, solved entries and path keys [`encode_exchange`] wrote
/// for `variant`; `None` if any part is damaged or of another game.
#[cfg(any(feature = "mpi", test))]
pub fn decode_exchange(variant: Variant, bytes: &[u8]) -> Option<Exchange> {
    let word = |at: usize| Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?));
    let id = word(0)?;
    let (solved, end) = match bytes.get(8)? {
        0 => {
            let len = usize::try_from(word(9)?).ok()?;
            let end = 17usize.checked_add(len)?;
            (Some(decode_solved(variant, bytes.get(17..end)?)?), end)
        }
        1 => (None, 9),
        _ => return None,
    };
    let (pair, path) = decode(variant, bytes.get(end..)?).ok()?;
    (pair == PATH_PAIR).then(|| (id, solved, path.iter().map(|e| e.key).collect()))
}

/// Appends `e` as [`ENTRY_BYTES`] bytes: key, φ, δ, work, little-endian.
pub(crate) fn put_entry(out: &mut Vec<u8>, e: &PnEntry) {
    out.extend_from_slice(&e.key.to_le_bytes());
    out.extend_from_slice(&e.phi.to_le_bytes());
    out.extend_from_slice(&e.delta.to_le_bytes());
    out.extend_from_slice(&e.work.to_le_bytes());
}

/// The entries in `bytes`, 28 bytes each as [`encode`] writes them
/// (a shorter tail is ignored).
pub fn entries_from_bytes(bytes: &[u8]) -> Vec<PnEntry> {
    let word = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("four bytes"));
    bytes
        .chunks_exact(ENTRY_BYTES)
        .map(|c| PnEntry {
            key: u128::from_le_bytes(c[0..16].try_into().expect("sixteen bytes")),
            phi: word(&c[16..20]),
            delta: word(&c[20..24]),
            work: word(&c[24..28]),
        })
        .collect()
}

impl WarmStore {
    /// The warm starts of the proof in `dir` (a game of `variant`).
    pub fn new(dir: &Path, variant: Variant) -> WarmStore {
        WarmStore {
            dir: dir.join(WARM_DIR),
            variant,
        }
    }

    /// Writes a pair's warm start, replacing the pair's older one: to a
    /// temporary file renamed when complete, so that no half-written file
    /// ever has a final name.
    pub fn save(&self, pair: Pair, entries: &[PnEntry]) -> Result<(), LogError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| LogError::Io { path, source }
        };
        std::fs::create_dir_all(&self.dir).map_err(io(&self.dir))?;
        let path = self.dir.join(file_name(pair));
        let tmp = path.with_extension("pnw.tmp");
        let bytes = encode(self.variant, pair, entries);
        let written = std::fs::write(&tmp, &bytes).and_then(|()| std::fs::rename(&tmp, &path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            return Err(io(&path)(e));
        }
        Ok(())
    }

    /// Removes a pair's warm start, if there is one.
    pub fn remove(&self, pair: Pair) {
        let _ = std::fs::remove_file(self.dir.join(file_name(pair)));
    }

    /// The pairs that have a warm start file.
    pub fn pairs(&self) -> Vec<Pair> {
        let Ok(dir) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        dir.filter_map(|e| parse_name(e.ok()?.file_name().to_str()?))
            .collect()
    }

    /// Reads every warm start; a file that is damaged, of another game, or
    /// whose name is not the pair it holds is reported, never believed.
    pub fn load(&self) -> WarmFiles {
        let mut found = WarmFiles::default();
        for pair in self.pairs() {
            let path = self.dir.join(file_name(pair));
            let read = std::fs::read(&path)
                .map_err(|e| e.to_string())
                .and_then(|b| decode(self.variant, &b));
            match read {
                Ok((named, entries)) if named == pair => {
                    found.pairs.insert(pair, entries.into());
                }
                Ok(_) => found
                    .damaged
                    .push(format!("{}: not the pair its name says", path.display())),
                Err(e) => found.damaged.push(format!("{}: {e}", path.display())),
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board, Rules};

    /// The pair of `key` and question 0 (wins) or 1 (avoids loss), as the
    /// files number them.
    fn pair(key: u128, q: u8) -> Pair {
        let q = if q == 0 {
            Question::Wins
        } else {
            Question::AvoidsLoss
        };
        Pair::new(key, q)
    }

    fn variant(w: u8, h: u8, en_passant: bool) -> Variant {
        Variant::new(
            Board::new(w, h).unwrap(),
            Rules {
                en_passant,
                seventh_rank_wins: false,
            },
        )
    }

    fn entries() -> Vec<PnEntry> {
        (0..1000u32)
            .map(|i| PnEntry {
                key: (i as u128) << 70 | (i as u128 * 7919) << 1 | (i as u128 & 1),
                phi: if i % 5 == 0 { 0 } else { i + 1 },
                delta: if i % 5 == 0 { u32::MAX } else { 3 * i + 2 },
                work: 1_000_000 - i,
            })
            .collect()
    }

    #[test]
    fn warm_starts_survive_their_bytes() {
        let v = variant(6, 8, true);
        let e = entries();
        let bytes = encode(v, pair(0xabc << 4, 1), &e);
        assert_eq!(decode(v, &bytes), Ok((pair(0xabc << 4, 1), e.clone())));
        let empty = encode(v, pair(2, 0), &[]);
        assert_eq!(decode(v, &empty), Ok((pair(2, 0), Vec::new())));
        assert_eq!(
            parse_name(&file_name(pair(0xabc << 4, 1))),
            Some(pair(0xabc << 4, 1))
        );
        assert_eq!(
            parse_name(&file_name(pair(u128::MAX, 0))),
            Some(pair(u128::MAX, 0))
        );
        for bad in [
            "x.pnw",
            "0-wins.pnw",
            &file_name(pair(5, 0)).replace("wins", "draws"),
        ] {
            assert_eq!(parse_name(bad), None, "{bad}");
        }
    }

    /// The solved ones of [`entries`].
    fn solved_entries() -> Vec<PnEntry> {
        entries()
            .into_iter()
            .filter(|e| e.phi == 0 || e.delta == 0)
            .collect()
    }

    /// Solved entries as sent out between workers: they survive their
    /// bytes; damaged bytes, another game's, a warm start's, or an entry
    /// that is not solved are refused.
    #[test]
    fn solved_entries_survive_their_bytes_and_nothing_else_passes() {
        let v = variant(6, 8, true);
        let solved = solved_entries();
        assert_eq!(solved.len(), 200);
        let bytes = encode_solved(v, &solved);
        assert_eq!(decode_solved(v, &bytes), Some(solved.clone()));
        assert_eq!(decode_solved(v, &encode_solved(v, &[])), Some(Vec::new()));
        assert_eq!(decode_solved(variant(6, 8, false), &bytes), None);
        assert_eq!(decode_solved(v, &bytes[..bytes.len() - 3]), None);
        assert_eq!(decode_solved(v, &encode(v, pair(6, 0), &solved)), None);
        // One open entry among them: not a message of solved entries.
        let mut mixed = solved.clone();
        mixed[7].phi = 5;
        mixed[7].delta = 5;
        assert_eq!(decode_solved(v, &encode_solved(v, &mixed)), None);
    }

    /// A running job's exchange: its number, solved entries and path keys
    /// survive their bytes; a cut, another game, a message of solved
    /// entries in place of the path, or a length past the end are
    /// refused.
    #[test]
    fn exchanges_survive_their_bytes_and_nothing_else_passes() {
        let v = variant(6, 8, true);
        let solved = solved_entries();
        let path: Vec<u128> = (1..40u128).map(|k| k << 70 | k).collect();
        let bytes = encode_exchange(v, 77, Some(&solved), &path);
        assert_eq!(
            decode_exchange(v, &bytes),
            Some((77, Some(solved.clone()), path.clone()))
        );
        let empty = encode_exchange(v, 3, Some(&[]), &[]);
        assert_eq!(
            decode_exchange(v, &empty),
            Some((3, Some(Vec::new()), Vec::new()))
        );
        // A path alone (--share-paths-every), and an answer of no paths.
        let alone = encode_exchange(v, 78, None, &path);
        assert_eq!(decode_exchange(v, &alone), Some((78, None, path.clone())));
        let nothing = encode_exchange(v, 4, None, &[]);
        assert_eq!(decode_exchange(v, &nothing), Some((4, None, Vec::new())));
        assert_eq!(decode_exchange(variant(6, 8, false), &bytes), None);
        assert_eq!(decode_exchange(variant(6, 8, false), &alone), None);
        for cut in [0, 7, 8, 9, 16, 17, 40, bytes.len() - 3] {
            assert_eq!(decode_exchange(v, &bytes[..cut]), None, "cut at {cut}");
        }
        for cut in [8, 9, 20, alone.len() - 1] {
            assert_eq!(decode_exchange(v, &alone[..cut]), None, "cut at {cut}");
        }
        // A kind that is neither, and a path alone that says it has entries.
        let mut odd = alone.clone();
        odd[8] = 2;
        assert_eq!(decode_exchange(v, &odd), None);
        odd[8] = 0;
        assert_eq!(decode_exchange(v, &odd), None);
        // A solved-entries message where the path belongs.
        let blob = encode_solved(v, &solved);
        let mut wrong = 77u64.to_le_bytes().to_vec();
        wrong.push(0);
        wrong.extend((blob.len() as u64).to_le_bytes());
        wrong.extend(&blob);
        let right = [wrong.clone(), encode(v, PATH_PAIR, &[])].concat();
        assert_eq!(
            decode_exchange(v, &right),
            Some((77, Some(solved), Vec::new()))
        );
        wrong.extend(encode_solved(v, &[]));
        assert_eq!(decode_exchange(v, &wrong), None);
        // A length past the end.
        let mut long = bytes.clone();
        long[9..17].copy_from_slice(&u64::MAX.to_le_bytes());
        assert_eq!(decode_exchange(v, &long), None);
    }

    #[test]
    fn damaged_or_foreign_warm_starts_are_refused() {
        let v = variant(6, 8, true);
        let e = entries();
        let bytes = encode(v, pair(4, 0), &e);
        // Another game, the same game without en passant, another board.
        for other in [variant(6, 8, false), variant(5, 8, true)] {
            let err = decode(other, &bytes).unwrap_err();
            assert!(err.contains("another game"), "{err}");
        }
        // Every change of one byte inside the checksummed data is caught.
        let mut raw = zstd::decode_all(&bytes[..]).unwrap();
        for i in (0..raw.len()).step_by(97) {
            raw[i] ^= 0x10;
            let damaged = zstd::encode_all(&raw[..], 3).unwrap();
            assert!(decode(v, &damaged).is_err(), "byte {i} flipped");
            raw[i] ^= 0x10;
        }
        // Cut short, not compressed, nothing at all.
        assert!(decode(v, &bytes[..bytes.len() / 2]).is_err());
        assert!(decode(v, &raw).is_err());
        assert!(decode(v, &[]).is_err());
        // A count bigger than the most a warm start holds, and a stream
        // that goes on past its checksum (a decompression bomb): refused
        // without reading it all.
        let huge = format!("{MAGIC} 6x8 {:032x} 0 {}\n", 4, MAX_ENTRIES + 1);
        let huge = zstd::encode_all(huge.as_bytes(), 3).unwrap();
        assert_eq!(decode(v, &huge).unwrap_err(), "damaged (entry count)");
        let mut bomb = raw.clone();
        bomb.resize(bomb.len() + (64 << 20), 0);
        let bomb = zstd::encode_all(&bomb[..], 3).unwrap();
        assert!(bomb.len() < 1 << 20);
        assert_eq!(decode(v, &bomb).unwrap_err(), "damaged (entry count)");
        // A count that does not match the entries, with a good checksum.
        let mut short = raw[..raw.len() - 4 - ENTRY_BYTES].to_vec();
        let crc = crc32fast::hash(&short);
        short.extend_from_slice(&crc.to_le_bytes());
        let short = zstd::encode_all(&short[..], 3).unwrap();
        assert_eq!(decode(v, &short).unwrap_err(), "damaged (entry count)");
    }

    #[test]
    fn a_store_keeps_one_file_per_pair_and_reports_damage() {
        let dir = std::env::temp_dir().join(format!("peasant-warm-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let v = variant(4, 8, true);
        let store = WarmStore::new(&dir, v);
        assert!(store.load().pairs.is_empty());
        let e = entries();
        store.save(pair(8, 0), &e[..10]).unwrap();
        store.save(pair(8, 0), &e[..20]).unwrap();
        store.save(pair(8, 1), &e[..5]).unwrap();
        store.save(pair(10, 1), &e[..1]).unwrap();
        let found = store.load();
        assert!(found.damaged.is_empty());
        assert_eq!(found.pairs.len(), 3);
        assert_eq!(&found.pairs[&pair(8, 0)][..], &e[..20]);
        store.remove(pair(8, 1));
        // A file under another pair's name, and a damaged one.
        let good = std::fs::read(dir.join(WARM_DIR).join(file_name(pair(10, 1)))).unwrap();
        std::fs::write(dir.join(WARM_DIR).join(file_name(pair(12, 1))), &good).unwrap();
        std::fs::write(dir.join(WARM_DIR).join(file_name(pair(14, 0))), b"junk").unwrap();
        let found = store.load();
        let mut pairs: Vec<_> = found.pairs.keys().copied().collect();
        pairs.sort_by_key(|p| p.key);
        assert_eq!(pairs, [pair(8, 0), pair(10, 1)]);
        assert_eq!(found.damaged.len(), 2, "{:?}", found.damaged);
        // No temporary file is left behind.
        let names: Vec<String> = std::fs::read_dir(dir.join(WARM_DIR))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(names.iter().all(|n| n.ends_with(".pnw")), "{names:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
