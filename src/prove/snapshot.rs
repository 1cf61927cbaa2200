//! Transposition-table snapshots: the whole transposition table of a run's
//! proof-number workers, saved when the run ends and loaded when the next
//! one starts (`peasant prove --table-file PATH`), so that a job cut off by
//! the end of a sitting goes on where it stopped instead of from its warm
//! start.
//!
//! A warm start ([`crate::prove::WarmStore`]) keeps a few hundred thousand
//! entries and is small enough to commit; it saves part of a cut job's work
//! (Peasants' Chess 5x8, "does white win?" cut after 25 M nodes: the next
//! job took 53.7 M nodes from an empty transposition table, 40.9 M with
//! 262,144 warm entries, 34.9 M with 4,194,304, and 28.7 M when the run
//! went on in its own transposition table). A snapshot keeps everything:
//! gigabytes, for the machine that runs the proof, never for the
//! repository.
//!
//! The file is a zstd stream: a header line (magic and game), then blocks
//! of at most [`BLOCK`] entries, each a little-endian count, the entries
//! (28 bytes each, as a warm start's) and a CRC-32 of the count and the
//! entries, then an empty block and the total number of entries. A block
//! is loaded only once its checksum holds, so a damaged or truncated file
//! loads the blocks before the damage, every one of them genuine, and is
//! reported; proven numbers are believed as the log's answers are.

use crate::prove::log::variant_tag;
use crate::prove::warm::{entries_from_bytes, put_entry, ENTRY_BYTES};
use crate::rules::Variant;
use crate::solve::SharedPnTt;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

/// The first line's start (before the game's tag).
const MAGIC: &str = "peasant-pn-table 1";

/// The most entries in one block (small in tests, so that a small board's
/// transposition table makes many blocks).
pub const BLOCK: usize = if cfg!(test) { 1 << 10 } else { 1 << 16 };

/// What [`load`] read.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// Entries offered to the transposition table (those it already held
    /// are kept).
    pub entries: u64,
    /// What is wrong with the file, if anything: the entries before the
    /// damage are loaded, nothing after it.
    pub damage: Option<String>,
}

/// Writes one block (count, entries, checksum) of the entries in `buf`.
fn write_block(w: &mut impl Write, count: usize, buf: &mut Vec<u8>) -> std::io::Result<()> {
    let mut head = (count as u32).to_le_bytes().to_vec();
    head.append(buf);
    let crc = crc32fast::hash(&head);
    w.write_all(&head)?;
    w.write_all(&crc.to_le_bytes())
}

/// Saves every entry of `tt` (a game of `variant`) to `path`: written
/// to `path` with `.tmp` added and renamed when complete and synced, so
/// that no half-written snapshot ever has the final name. Returns the
/// number of entries.
pub fn save(path: &Path, variant: Variant, tt: &SharedPnTt) -> std::io::Result<u64> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    let written = (|| {
        let file = File::create(&tmp)?;
        let mut z = zstd::Encoder::new(BufWriter::with_capacity(1 << 20, file), 1)?;
        z.write_all(format!("{MAGIC} {}\n", variant_tag(variant)).as_bytes())?;
        let (mut total, mut count) = (0u64, 0usize);
        let mut buf = Vec::with_capacity(BLOCK * ENTRY_BYTES + 8);
        let mut failed = None;
        tt.for_each_entry(|e| {
            if failed.is_some() {
                return;
            }
            put_entry(&mut buf, &e);
            count += 1;
            total += 1;
            if count == BLOCK {
                if let Err(err) = write_block(&mut z, count, &mut buf) {
                    failed = Some(err);
                }
                count = 0;
            }
        });
        if let Some(err) = failed {
            return Err(err);
        }
        if count > 0 {
            write_block(&mut z, count, &mut buf)?;
        }
        write_block(&mut z, 0, &mut total.to_le_bytes().to_vec())?;
        let file = z.finish()?.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)?;
        Ok(total)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Loads the snapshot at `path` into `tt` (entries whose keys the
/// transposition table holds are skipped). An error (nothing loaded) if the
/// file cannot be read or is not a snapshot of `variant`'s game; damage
/// after a good start is reported in [`Loaded::damage`], with the good
/// blocks loaded.
pub fn load(path: &Path, variant: Variant, tt: &SharedPnTt) -> Result<Loaded, String> {
    let file = File::open(path).map_err(|e| e.to_string())?;
    let mut z = zstd::Decoder::new(BufReader::with_capacity(1 << 20, file))
        .map_err(|e| format!("not a table snapshot ({e})"))?;
    // The header line: at most 200 bytes.
    let mut header = Vec::new();
    let mut byte = [0u8; 1];
    loop {
        z.read_exact(&mut byte)
            .map_err(|_| "not a table snapshot".to_string())?;
        if byte[0] == b'\n' {
            break;
        }
        header.push(byte[0]);
        if header.len() > 200 {
            return Err("not a table snapshot".into());
        }
    }
    let header = String::from_utf8(header).map_err(|_| "not a table snapshot")?;
    let tag = variant_tag(variant);
    match header.strip_prefix(MAGIC).and_then(|t| t.strip_prefix(' ')) {
        Some(t) if t == tag => {}
        Some(t) => return Err(format!("a table snapshot of another game ({t}, not {tag})")),
        None => return Err("not a table snapshot of this version".into()),
    }
    let mut loaded = Loaded::default();
    let mut entries = Vec::with_capacity(BLOCK);
    let mut buf = vec![0u8; 4 + BLOCK * ENTRY_BYTES + 4];
    loop {
        let damaged = |what: &str| format!("damaged ({what})");
        if z.read_exact(&mut buf[..4]).is_err() {
            loaded.damage = Some(damaged("cut short"));
            return Ok(loaded);
        }
        let count = u32::from_le_bytes(buf[..4].try_into().expect("four bytes")) as usize;
        if count > BLOCK {
            loaded.damage = Some(damaged("block size"));
            return Ok(loaded);
        }
        // The end block holds the total (8 bytes) where entries would be.
        let body = if count == 0 { 8 } else { count * ENTRY_BYTES };
        if z.read_exact(&mut buf[4..4 + body + 4]).is_err() {
            loaded.damage = Some(damaged("cut short"));
            return Ok(loaded);
        }
        let (checked, crc) = buf[..4 + body + 4].split_at(4 + body);
        if crc32fast::hash(checked).to_le_bytes() != crc {
            loaded.damage = Some(damaged("checksum mismatch"));
            return Ok(loaded);
        }
        if count == 0 {
            let total = u64::from_le_bytes(checked[4..12].try_into().expect("eight bytes"));
            if total != loaded.entries {
                loaded.damage = Some(damaged("entry count"));
            } else if z.read(&mut byte).map_or(true, |n| n != 0) {
                loaded.damage = Some(damaged("bytes after the end"));
            }
            return Ok(loaded);
        }
        entries.clear();
        entries.extend(entries_from_bytes(&checked[4..]));
        tt.load_entries(&entries);
        loaded.entries += count as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{parse_position, Board, Rules};
    use crate::solve::{PnConfig, PnEntry, PnSolver, Question};

    fn variant() -> Variant {
        Variant::new(Board::new(3, 8).unwrap(), Rules::default())
    }

    /// A scratch folder of this test, emptied.
    fn scratch(name: &str) -> std::path::PathBuf {
        let d =
            std::env::temp_dir().join(format!("peasant-snapshot-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// A transposition table filled by a real search of Peasants' Chess
    /// 3x8.
    fn searched() -> SharedPnTt {
        let table = SharedPnTt::new(16).unwrap();
        let s = PnSolver::with_tt(PnConfig::default(), None, &table);
        let pos = parse_position("peasants", Some(variant().board), Rules::default()).unwrap();
        s.answer(&pos, Question::Wins, None).unwrap();
        table
    }

    fn entries(t: &SharedPnTt) -> Vec<PnEntry> {
        let mut v = Vec::new();
        t.for_each_entry(|e| v.push(e));
        v.sort();
        v
    }

    #[test]
    fn a_snapshot_round_trips_and_leaves_no_temporary_file() {
        let dir = scratch("round");
        let path = dir.join("t.pnt");
        let table = searched();
        let n = save(&path, variant(), &table).unwrap();
        let want = entries(&table);
        assert!(n > 1000 && n as usize == want.len(), "{n}");
        let fresh = SharedPnTt::new(16).unwrap();
        let loaded = load(&path, variant(), &fresh).unwrap();
        assert_eq!(
            loaded,
            Loaded {
                entries: n,
                damage: None
            }
        );
        assert_eq!(entries(&fresh), want);
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(names.len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn damaged_or_foreign_snapshots_load_only_genuine_entries() {
        let dir = scratch("damaged");
        let path = dir.join("t.pnt");
        let table = searched();
        save(&path, variant(), &table).unwrap();
        let want = entries(&table);
        let raw = zstd::decode_all(&std::fs::read(&path).unwrap()[..]).unwrap();
        let rewrite =
            |raw: &[u8]| std::fs::write(&path, zstd::encode_all(raw, 1).unwrap()).unwrap();
        // Another game: refused, nothing loaded.
        let rules = Rules {
            en_passant: false,
            ..Rules::default()
        };
        let other = Variant::new(variant().board, rules);
        let fresh = SharedPnTt::new(16).unwrap();
        let e = load(&path, other, &fresh).unwrap_err();
        assert!(e.contains("another game"), "{e}");
        assert!(entries(&fresh).is_empty());
        // A flipped byte in the second block: the first block loads, then
        // the damage is named; every loaded entry is one of the
        // transposition table's.
        let second =
            raw.iter().position(|&b| b == b'\n').unwrap() + 1 + 4 + BLOCK * ENTRY_BYTES + 4;
        for at in [second + 10, raw.len() / 2, raw.len() - 3] {
            let mut bad = raw.clone();
            bad[at] ^= 0x40;
            rewrite(&bad);
            let fresh = SharedPnTt::new(16).unwrap();
            let l = load(&path, variant(), &fresh).unwrap();
            assert!(l.damage.is_some(), "a flip at {at} went unnoticed");
            let got = entries(&fresh);
            assert!(got.iter().all(|e| want.binary_search(e).is_ok()));
            assert_eq!(got.len() as u64, l.entries);
        }
        // Cut short: reported.
        rewrite(&raw[..raw.len() - 5]);
        let l = load(&path, variant(), &SharedPnTt::new(16).unwrap()).unwrap();
        assert_eq!(l.damage.as_deref(), Some("damaged (cut short)"));
        // Bytes after the end: reported.
        let mut long = raw.clone();
        long.push(0);
        rewrite(&long);
        let l = load(&path, variant(), &SharedPnTt::new(16).unwrap()).unwrap();
        assert_eq!(l.damage.as_deref(), Some("damaged (bytes after the end)"));
        // Not a snapshot at all.
        std::fs::write(&path, b"hello").unwrap();
        assert!(load(&path, variant(), &SharedPnTt::new(16).unwrap()).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
