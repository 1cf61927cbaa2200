//! The checks behind the fuzz targets of `fuzz/` (run with `cargo fuzz`),
//! shared with the test that replays their corpus on a stable toolchain
//! (`tests/suite/fuzz_corpus.rs`). Each takes arbitrary bytes and panics
//! only if the library breaks a promise on them: a reader panicked, a
//! position text did not survive a round trip, a damaged table gave a
//! value.

use crate::index::material::Material;
use crate::index::Index;
use crate::rules::parse::parse_position;
use crate::rules::position::Position;
use crate::rules::setup::Setup;
use crate::rules::value::Value;
use crate::rules::variant::{Board, Rules, Variant};
use crate::solve::savefile::{decode_proven, encode_proven, ProvenKind};
use crate::solve::types::Proven;
use crate::table::{encode_table, BlockCache, Table, WriteOptions};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The rule sets, by the low two bits of a selector byte.
fn rules(selector: u8) -> Rules {
    Rules {
        en_passant: selector & 1 == 0,
        seventh_rank_wins: selector & 2 != 0,
    }
}

/// Everything a position promises: its text reads back as itself (through
/// the library's entry point and through `fen::parse` + `from_setup`), its
/// setup makes it again, every legal move plays, the flipped and mirrored
/// positions are legal positions too.
fn check_position(pos: &Position) {
    let text = pos.to_string();
    let rules = pos.variant().rules;
    let again = parse_position(&text, Some(pos.board()), rules)
        .unwrap_or_else(|e| panic!("{text} does not read back: {e}"));
    assert_eq!(again, *pos, "{text} reads back as {again}");
    let setup = crate::rules::fen::parse(&text).expect("a written text parses");
    assert_eq!(crate::rules::fen::write(&setup), text);
    let from_setup = Position::from_setup(&setup, pos.variant()).expect("its own setup is legal");
    assert_eq!(from_setup, *pos);
    assert_eq!(
        Position::from_setup(&pos.to_setup(), pos.variant()).ok(),
        Some(*pos)
    );
    let moves = pos.legal_moves();
    assert_eq!(
        pos.is_game_over(),
        moves.is_empty() || pos.winner_by_rule().is_some()
    );
    for &m in moves.iter() {
        let next = pos.play(m);
        assert_ne!(next.turn(), pos.turn());
        assert_eq!(pos.parse_move(&m.san()).ok(), Some(m), "{text}: {m}");
        assert_eq!(
            pos.parse_move(&m.uci()).ok(),
            Some(m),
            "{text}: {}",
            m.uci()
        );
    }
    for other in [pos.flipped(), pos.mirrored()] {
        let t = other.to_string();
        let back = parse_position(&t, Some(other.board()), rules)
            .unwrap_or_else(|e| panic!("{text} flipped or mirrored, {t}, is refused: {e}"));
        assert_eq!(back, other);
    }
    let _ = crate::rules::canonical::canonical(pos);
}

/// Position text: `data` as a position argument (a setup name or a position
/// text) under each rule set, with and without a `--board` (the one the
/// first byte picks). Reading never panics; what it accepts passes
/// `check_position`; what `fen::parse` accepts but `from_setup` refuses
/// is refused by `parse_position` too.
pub fn position_text(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let board = Board::new(1 + (selector >> 2) % 8, 4 + (selector >> 5) % 5).ok();
    let rules = rules(selector);
    for b in [None, board] {
        if let Ok(pos) = parse_position(text, b, rules) {
            check_position(&pos);
        }
    }
    if let Ok(setup) = crate::rules::fen::parse(text) {
        let variant = Variant::new(setup.board, rules);
        let direct = Position::from_setup(&setup, variant);
        if text.contains('/') {
            let via = parse_position(text, None, rules);
            assert_eq!(
                direct.as_ref().ok(),
                via.as_ref().ok(),
                "{text}: from_setup and parse_position disagree"
            );
        }
        if let Ok(pos) = direct {
            check_position(&pos);
        }
        // The writer's text of any parsed setup parses to the same setup.
        let written = crate::rules::fen::write(&setup);
        let again: Setup = crate::rules::fen::parse(&written)
            .unwrap_or_else(|e| panic!("{text}: written as {written}, which is refused: {e}"));
        assert_eq!(crate::rules::fen::write(&again), written);
    }
}

/// Positions for the move-text target, each with moves of every kind
/// (pushes, double steps, captures, en passant, moves that end the game).
const MOVE_POSITIONS: &[&str] = &[
    "8/pppppppp/8/8/8/8/PPPPPPPP/8 w -",
    "8/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/8 w -",
    "8/p1p5/8/1P1P4/8/8/8/8 b -",
    "8/8/8/2pP4/8/8/8/8 w c6",
    "8/8/8/8/2Pp4/8/8/8 b c3",
    "4/1p2/P3/4 w -",
    "5/pppp1/5/1PPPP/5 b -",
    "3/ppp/3/3/PPP/3 w -",
    "1/p/1/1/P/1 b -",
    "8/1P6/8/8/8/8/6p1/8 w -",
    "8/1P6/8/8/8/8/6p1/8 b -",
];

/// Move text: the first byte picks a position and a rule set, the rest is
/// the text. Parsing never panics; a move it accepts is legal and its SAN
/// and long form name it again; a refusal names the text.
pub fn move_text(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let fen = MOVE_POSITIONS[selector as usize % MOVE_POSITIONS.len()];
    let Ok(pos) = parse_position(fen, None, rules(selector / 16)) else {
        return;
    };
    match pos.parse_move(text) {
        Ok(m) => {
            assert!(
                pos.legal_moves().contains(&m),
                "{fen}: {text:?} gave {m}, not legal"
            );
            assert_eq!(pos.parse_move(&m.san()).ok(), Some(m));
            assert_eq!(pos.parse_move(&m.uci()).ok(), Some(m));
            let _ = pos.play(m);
        }
        Err(e) => {
            let msg = e.to_string();
            assert!(!msg.is_empty());
        }
    }
}

/// A real table with many small blocks, its positions and their values.
pub struct ReferenceTable {
    pub variant: Variant,
    pub material: Material,
    pub bytes: Vec<u8>,
    /// The same values in a win/draw/loss-only table (`gen --wdl-only`).
    pub wdl_only_bytes: Vec<u8>,
    pub positions: Vec<Position>,
    pub values: Vec<Value>,
}

/// The reference table of the table-bytes target: class 2v2 of 4x5 with
/// blocks of 64 positions and a zstd dictionary, its values from the
/// generator (which the test suite checks against minimax). Made once per
/// process, in a temporary directory that is removed again.
pub fn reference_table() -> &'static ReferenceTable {
    static REFERENCE: OnceLock<ReferenceTable> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let variant = Variant::new(Board::new(4, 5).expect("4x5"), Rules::default());
        let material = Material::new(2, 2);
        let dir = std::env::temp_dir().join(format!("peasant-fuzz-ref-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let config = crate::generate::GenConfig::new(variant, dir.clone());
        crate::generate::generate(&config, crate::generate::Target::MaxPawns(4), &|_| {})
            .expect("the reference tables generate");
        let table = Table::open(
            &dir.join(crate::table::file_name(variant, material)),
            variant,
            material,
        )
        .expect("the reference table opens");
        let index = Index::new(variant, material);
        let positions: Vec<Position> = (0..index.len()).map(|i| index.unrank(i)).collect();
        let values: Vec<Value> = positions
            .iter()
            .map(|p| table.get(p).expect("the reference table reads"))
            .collect();
        let _ = std::fs::remove_dir_all(&dir);
        let bytes: Vec<u8> = values.iter().map(|v| v.to_byte()).collect();
        let opts = WriteOptions {
            block_len: 64,
            dict_bytes: 4096,
            level: 3,
            ..WriteOptions::default()
        };
        let wdl = |i: u64| values[i as usize].wdl();
        ReferenceTable {
            variant,
            material,
            bytes: encode_table(variant, material, &bytes, &opts),
            wdl_only_bytes: crate::table::encode_wdl_table(variant, material, &wdl, &opts),
            positions,
            values,
        }
    })
}

/// Opens `bytes` as the reference class's table (with and without the
/// whole-file checksum) and probes every position: never a panic, and
/// every value it gives is the reference's (a file that passes every
/// checksum with other values would be another table, not damage; edits
/// of the reference that do that are not expected of a fuzzer).
fn probe_all(bytes: Vec<u8>, must_match: bool) {
    let r = reference_table();
    let path = Path::new("fuzz.ptb");
    for whole in [true, false] {
        let cache = Arc::new(BlockCache::new(4));
        let table =
            match Table::from_bytes(path, bytes.clone(), r.variant, r.material, cache, whole) {
                Ok(t) => t,
                Err(e) => {
                    assert!(e.to_string().contains("fuzz.ptb"), "{e}");
                    continue;
                }
            };
        for (p, &want) in r.positions.iter().zip(&r.values) {
            match table.get(p) {
                Ok(got) if must_match => assert_eq!(got, want, "{p}: a damaged table gave a value"),
                Ok(_) => {}
                Err(e) => assert!(e.to_string().contains("fuzz.ptb"), "{e}"),
            }
            match table.probe_wdl(p) {
                Ok(got) if must_match => assert_eq!(got, want.wdl(), "{p}: WDL"),
                _ => {}
            }
        }
        if let Ok(dense) = table.to_dense() {
            for (p, &want) in r.positions.iter().zip(&r.values) {
                match dense.get(p) {
                    Ok(got) if must_match => assert_eq!(got, want, "{p}: dense"),
                    _ => {}
                }
                match dense.get_wdl(p) {
                    Ok(got) if must_match => assert_eq!(got, want.wdl(), "{p}: dense WDL"),
                    _ => {}
                }
            }
        }
    }
}

/// Table file bytes. First byte even: the rest is a whole file, opened as
/// the reference class's table and probed everywhere (no panic). First
/// byte odd: the rest is a list of edits of the reference table (3 bytes
/// each: a 16-bit offset and a byte to xor there; a final short edit cuts
/// the file at its offset or, odd, appends bytes), and every value the
/// damaged table still gives must be the true one; with bit 1 of the first
/// byte set, of the reference's win/draw/loss-only table.
pub fn table_bytes(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode % 2 == 0 {
        probe_all(rest.to_vec(), false);
        return;
    }
    let r = reference_table();
    let mut bytes = if mode & 2 == 0 {
        r.bytes.clone()
    } else {
        r.wdl_only_bytes.clone()
    };
    let mut edits = rest.chunks(3);
    for e in edits.by_ref() {
        if bytes.is_empty() {
            break;
        }
        let at = u16::from_le_bytes([e[0], *e.get(1).unwrap_or(&0)]) as usize % bytes.len();
        match e.get(2) {
            Some(&x) => bytes[at] ^= x,
            None if e[0] % 2 == 0 => bytes.truncate(at),
            None => bytes.extend_from_slice(&[e[0]; 5]),
        }
    }
    // An edit list that cancels out leaves the reference table itself.
    probe_all(bytes, true);
}

/// Save files (`solve --save`). First byte selects the kind wanted (board
/// from a short list, rules, mode) and a mode: even, the rest is a whole
/// file; odd, the rest is the body after the 24-byte header of a file of
/// that kind, whose count and checksum are filled in, so that the entries
/// themselves are read. Decoding never panics; what it accepts is sorted,
/// has no key twice, only squares of the board and scores in range, and
/// encodes to a file that decodes to the same entries.
pub fn save_file(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let boards = [(4, 5), (5, 5), (4, 8), (8, 8), (1, 4)];
    let (w, h) = boards[(selector >> 4) as usize % boards.len()];
    let kind = ProvenKind {
        variant: Variant::new(
            Board::new(w, h).expect("a board of the list"),
            rules(selector >> 1),
        ),
        dtm: selector & 8 != 0,
    };
    let path = Path::new("fuzz.save");
    let bytes = if selector & 1 == 0 {
        rest.to_vec()
    } else {
        let mut file = encode_proven(kind, &[]);
        file.truncate(16);
        let n = (rest.len() / 21) as u64;
        file.extend_from_slice(&n.to_le_bytes());
        file.extend_from_slice(rest);
        let crc = crc32fast::hash(&file);
        file.extend_from_slice(&crc.to_le_bytes());
        file
    };
    let proven: Vec<Proven> = match decode_proven(path, &bytes, kind) {
        Ok(p) => p,
        Err(e) => {
            assert!(e.to_string().contains("fuzz.save"), "{e}");
            return;
        }
    };
    let squares = kind.variant.board.squares().0 as u128;
    let squares = squares | squares << 64;
    let limit = if kind.dtm { 999 } else { 1 };
    for p in &proven {
        assert!(p.key != 0 && p.key & !squares == 0, "key {:x}", p.key);
        assert!((p.score as i32).abs() <= limit, "score {}", p.score);
    }
    assert!(proven.windows(2).all(|w| w[0].key < w[1].key), "not sorted");
    let again =
        decode_proven(path, &encode_proven(kind, &proven), kind).expect("an encoded file decodes");
    assert_eq!(again, proven);
}

/// Warm-start files of the proof manager (`DIR/warm/*.pnw`). First byte
/// selects the game (board from a short list, rules) and a mode: even, the
/// rest is a whole file; odd, the rest is the entries after a header of
/// that game naming as many entries as the rest holds, with the checksum
/// filled in and compressed, so that the entries themselves are read.
/// Decoding never panics; what it accepts is within the entry limit,
/// encodes to a file that decodes to the same pair and entries, and loads
/// into a proof-number table (of one bucket: every entry competes for it).
pub fn warm_file(data: &[u8]) {
    use crate::prove::warm::{decode, encode, entries_from_bytes, MAX_ENTRIES};
    use crate::prove::Pair;
    use crate::solve::{PnConfig, PnSolver, SearchConfig};
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let boards = [(4, 5), (4, 8), (6, 8), (8, 8)];
    let (w, h) = boards[(selector >> 4) as usize % boards.len()];
    let variant = Variant::new(
        Board::new(w, h).expect("a board of the list"),
        rules(selector >> 1),
    );
    let bytes = if selector & 1 == 0 {
        rest.to_vec()
    } else {
        let entries = entries_from_bytes(rest);
        let question = if (selector >> 3) & 1 == 0 {
            crate::solve::Question::Wins
        } else {
            crate::solve::Question::AvoidsLoss
        };
        encode(variant, Pair::new(selector as u128, question), &entries)
    };
    let Ok((pair, entries)) = decode(variant, &bytes) else {
        return;
    };
    assert!(entries.len() as u64 <= MAX_ENTRIES);
    let again = decode(variant, &encode(variant, pair, &entries)).expect("an encoded file decodes");
    assert_eq!(again, (pair, entries.clone()));
    let solver = PnSolver::new(
        PnConfig {
            search: SearchConfig {
                hash_mb: 0,
                ..PnConfig::default().search
            },
            ..PnConfig::default()
        },
        None,
    )
    .expect("a table of one bucket");
    solver.load_entries(&entries);
    assert!(solver.heaviest(8).len() <= 4);
}

/// A real proof log: its game, its bytes and its lines, and lines of the
/// same jobs written for the other rule sets of its board (foreign lines).
pub struct ReferenceLog {
    pub variant: Variant,
    pub bytes: Vec<u8>,
    pub lines: Vec<String>,
    pub foreign: Vec<String>,
}

/// The reference log of the proof-log target: a proof of the pawn game on
/// 5x5 (every first move) by jobs of 40 nodes, each expanding its position
/// when it runs out (so the log has `open`, `yes` and `no` answers, best
/// moves, dependencies and `known` answers; 16 jobs, 11 `known` lines).
/// Made once per process;
/// the seconds are replaced by nodes / 10^6, so that the bytes are the
/// same every time.
pub fn reference_log() -> &'static ReferenceLog {
    use crate::prove::log::{header_line, job_line, root_line};
    use crate::prove::{
        read_dir_log, run, LogWriter, Manager, ManagerConfig, RootRecord, RunOptions,
        ThreadWorkers, WorkerConfig,
    };
    static REFERENCE: OnceLock<ReferenceLog> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let variant = Variant::new(Board::new(5, 5).expect("5x5"), Rules::default());
        let root =
            parse_position("pawngame", Some(variant.board), variant.rules).expect("the pawn game");
        let dir = std::env::temp_dir().join(format!("peasant-fuzz-log-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut writer = LogWriter::open(&dir, variant).expect("a log in a fresh directory");
        let record = RootRecord {
            pos: root,
            all_moves: true,
        };
        writer.append_root(&record).expect("the root line");
        let config = WorkerConfig {
            locked_reads: false,
            spread_every: false,
            spread_jobs: false,
            pn_init: crate::solve::PnInit::Guided,
            hash_mb: 1,
            shared_tt: true,
            method: Default::default(),
            warm_entries: 0,
            harvest_plies: 2,
            share_solved: 0,
            share_every: 0,
            share_paths: false,
            share_paths_every: 0,
            threads: 1,
        };
        let mut workers = ThreadWorkers::new(1, config, None).expect("one worker");
        let config = ManagerConfig {
            job_nodes: 40,
            max_job_nodes: 40,
            growth: 4,
            workers: 1,
            all_moves: true,
            keep_child: true,
        };
        let log = read_dir_log(&dir, variant).expect("the fresh log");
        let mut manager = Manager::new(root, config, &log);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let options = RunOptions {
            stop: &stop,
            progress: None,
            max_jobs: Some(40),
            max_time: None,
            drain_after: None,
            max_virtual: None,
            warm: None,
            announce: None,
        };
        run(&mut manager, &mut workers, &mut writer, &options).expect("the reference proof");
        drop((writer, workers));
        let log = read_dir_log(&dir, variant).expect("the reference log");
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            log.damaged.is_empty() && log.jobs.len() >= 10,
            "{} jobs, damage {:?}",
            log.jobs.len(),
            log.damaged
        );
        let mut text = header_line(variant) + &root_line(variant, &record);
        let mut foreign = vec![];
        for job in &log.jobs {
            let mut job = job.clone();
            job.seconds = job.nodes as f64 / 1e6;
            text += &job_line(variant, &job);
            for r in Rules::ALL.iter().filter(|&&r| r != variant.rules) {
                let other = Variant::new(variant.board, *r);
                foreign.push(job_line(other, &job));
            }
        }
        for (w, h) in [(4, 4), (4, 5)] {
            let other = Variant::new(Board::new(w, h).expect("a board"), Rules::default());
            let pos = parse_position("pawngame", Some(other.board), other.rules).expect("pawns");
            foreign.push(header_line(other));
            foreign.push(root_line(
                other,
                &RootRecord {
                    pos,
                    all_moves: false,
                },
            ));
        }
        let strip = |l: &str| l.trim_end_matches('\n').to_string();
        ReferenceLog {
            variant,
            lines: text.lines().map(strip).collect(),
            bytes: text.into_bytes(),
            foreign: foreign.iter().map(|l| strip(l)).collect(),
        }
    })
}

/// Applies edits to the reference log: returns the bytes and the lines
/// made with a good checksum (which may be believed, being well formed).
/// Each edit is an op byte and its arguments: flip a byte (offset u16,
/// xor); cut the file (offset u16); insert a foreign line (which, where);
/// insert a reference line with one field replaced by given bytes and
/// its checksum made good (line, field, length, bytes, where); insert a
/// whole line of given bytes with a good checksum (length, bytes, where);
/// delete, repeat or move a line (which, where). Edits stop once the log
/// is longer than 64 KiB.
fn edit_log(r: &ReferenceLog, edits: &[u8]) -> (Vec<u8>, Vec<String>) {
    let mut bytes = r.bytes.clone();
    let mut crafted = Vec::new();
    let mut it = edits.iter().copied();
    let starts = |b: &[u8]| -> Vec<usize> {
        let mut s = vec![0];
        s.extend(
            b.iter()
                .enumerate()
                .filter(|&(_, &c)| c == b'\n')
                .map(|(i, _)| i + 1),
        );
        s
    };
    let with_crc = |body: &str| format!("{body}\t{:08x}", crc32fast::hash(body.as_bytes()));
    // Inserts `line` (no newline) before line `at` (modulo the lines).
    let insert = |bytes: &mut Vec<u8>, at: u8, line: &str| {
        let s = starts(bytes);
        let pos = s[at as usize % s.len()];
        let mut text = line.as_bytes().to_vec();
        text.push(b'\n');
        bytes.splice(pos..pos, text);
    };
    let line_range = |bytes: &[u8], which: u8| {
        let s = starts(bytes);
        let i = which as usize % s.len();
        let end = s.get(i + 1).copied().unwrap_or(bytes.len());
        s[i]..end
    };
    // Repeating a long line doubles the log: edits stop at 64 KiB.
    while let Some(op) = it.next().filter(|_| bytes.len() <= 1 << 16) {
        let mut arg = || it.next().unwrap_or(0);
        match op % 8 {
            0 | 1 if bytes.is_empty() => {}
            0 => {
                let at = u16::from_le_bytes([arg(), arg()]) as usize % bytes.len();
                bytes[at] ^= arg().max(1);
            }
            1 => {
                let at = u16::from_le_bytes([arg(), arg()]) as usize % (bytes.len() + 1);
                bytes.truncate(at);
            }
            2 => {
                let line = &r.foreign[arg() as usize % r.foreign.len()];
                insert(&mut bytes, arg(), line);
            }
            3 => {
                let line = &r.lines[arg() as usize % r.lines.len()];
                let mut fields: Vec<String> = line.split('\t').map(str::to_string).collect();
                fields.pop();
                let k = arg() as usize % fields.len();
                let n = arg() as usize % 24;
                let new: Vec<u8> = (0..n).map(|_| arg()).collect();
                fields[k] = String::from_utf8_lossy(&new).into_owned();
                let line = with_crc(&fields.join("\t"));
                insert(&mut bytes, arg(), &line);
                crafted.push(line);
            }
            4 => {
                let n = arg() as usize % 96;
                let new: Vec<u8> = (0..n).map(|_| arg()).collect();
                let line = with_crc(&String::from_utf8_lossy(&new));
                insert(&mut bytes, arg(), &line);
                crafted.push(line);
            }
            5 => {
                let range = line_range(&bytes, arg());
                bytes.drain(range);
            }
            6 | 7 => {
                let range = line_range(&bytes, arg());
                let line: Vec<u8> = bytes[range.clone()].to_vec();
                if op % 8 == 7 {
                    bytes.drain(range);
                }
                let s = starts(&bytes);
                let pos = s[arg() as usize % s.len()];
                bytes.splice(pos..pos, line);
            }
            _ => unreachable!(),
        }
    }
    (bytes, crafted)
}

/// Proof logs (`DIR/proof.log`). First byte even: the rest is a whole log;
/// odd: the rest is a list of edits of a real log (`edit_log`). Read as
/// the log of any game and of the reference game: never a panic; an error
/// names the file; every line is either believed or reported (with its
/// number); a believed line is written again as the very same text (so
/// its checksum is good and it says what it was written to say); after
/// edits, only lines of the real log or lines made with a good checksum
/// are believed (never a flipped, cut or foreign one). What reads a log's
/// contents (the manager replaying it, the explorer's knowledge, the
/// simulator) takes any log that was read without a panic.
pub fn proof_log(data: &[u8]) {
    use crate::prove::log::{header_line, job_line, parse_log, root_line};
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let r = reference_log();
    let (bytes, crafted) = if mode % 2 == 0 {
        (rest.to_vec(), None)
    } else {
        let (b, c) = edit_log(r, rest);
        (b, Some(c))
    };
    let path = Path::new("fuzz.log");
    for wanted in [None, Some(r.variant)] {
        let log = match parse_log(path, &bytes, wanted) {
            Ok(log) => log,
            Err(e) => {
                assert!(e.to_string().contains("fuzz.log"), "{e}");
                continue;
            }
        };
        if let Some(w) = wanted {
            assert_eq!(log.variant, w);
        }
        // The lines as the reader splits them (the last one torn if it
        // has no newline).
        let text = String::from_utf8_lossy(&bytes);
        let mut lines: Vec<&str> = text.split('\n').collect();
        if text.ends_with('\n') || text.is_empty() {
            lines.pop();
        }
        let torn = !text.is_empty() && !text.ends_with('\n');
        let mut count: HashMap<&str, usize> = HashMap::new();
        for (i, l) in lines.iter().enumerate() {
            if !(torn && i + 1 == lines.len()) {
                *count.entry(l).or_default() += 1;
            }
        }
        let mut believed: Vec<String> = log
            .jobs
            .iter()
            .map(|j| job_line(j.pos.variant(), j))
            .chain(log.roots.iter().map(|ro| root_line(ro.pos.variant(), ro)))
            .collect();
        for j in &log.jobs {
            assert_eq!(j.pos.variant(), log.variant, "a job of another game");
            assert!(!j.pos.is_game_over());
            assert!(j.seconds.is_finite() && j.seconds >= 0.0);
        }
        for ro in &log.roots {
            assert_eq!(ro.pos.variant(), log.variant, "a root of another game");
        }
        let header = header_line(log.variant);
        let headers = count.get(header.trim_end()).copied().unwrap_or(0);
        for line in &mut believed {
            line.pop();
            let n = count.get_mut(line.as_str());
            let n = n.unwrap_or_else(|| panic!("believed {line:?}, which the log does not hold"));
            assert!(*n > 0, "{line:?} believed more often than the log holds it");
            *n -= 1;
            if let Some(crafted) = &crafted {
                // A log of the reference game believes its own lines; one
                // whose first header is a foreign one (the real header cut
                // or damaged) believes that game's lines.
                let own = if log.variant == r.variant {
                    &r.lines
                } else {
                    &r.foreign
                };
                assert!(
                    own.contains(line) || crafted.contains(line),
                    "an edit made {line:?}, which was believed"
                );
            }
        }
        assert_eq!(
            believed.len() + headers + log.damaged.len(),
            lines.len(),
            "every line is believed or reported: {:?}",
            log.damaged
        );
        for d in &log.damaged {
            assert!(d.line >= 1 && d.line <= lines.len() && d.file == path);
            assert!(!d.why.is_empty());
            assert_eq!(d.torn, torn && d.line == lines.len());
        }
        read_contents(log);
    }
}

/// Everything that reads a log's contents, on a log read without a panic.
fn read_contents(log: crate::prove::LogContents) {
    use crate::explore::Knowledge;
    use crate::prove::{simulate, Manager, ManagerConfig};
    let _ = log.conflicts();
    let _ = simulate::work_and_span(&log.jobs);
    let _ = simulate::simulate(&log.jobs, 3);
    if let Some(root) = log.roots.last() {
        let config = ManagerConfig {
            job_nodes: 1,
            max_job_nodes: 1,
            growth: 2,
            workers: 1,
            all_moves: root.all_moves,
            keep_child: true,
        };
        let mut manager = Manager::new(root.pos, config, &log);
        let _ = (manager.value(), manager.move_values(), manager.complete());
        let _ = manager.open_leaves();
        let _ = manager.disagreements();
        let _ = manager.tree(3);
        // A resumed run's view: logged attempts continued where they may be.
        let config = ManagerConfig {
            max_job_nodes: u64::MAX / 8,
            growth: 4,
            workers: 2,
            ..config
        };
        let mut resumed = Manager::new(root.pos, config, &log);
        for _ in 0..3 {
            if let Some(job) = resumed.next_job() {
                assert!((1..=config.max_job_nodes).contains(&job.budget));
            }
        }
    }
    let roots: Vec<Position> = log.roots.iter().map(|r| r.pos).collect();
    let knowledge = crate::explore::ProofLogs::from_log(log);
    for pos in roots.iter().take(2) {
        let _ = knowledge.lookup(pos);
        for &m in pos.legal_moves().iter() {
            let _ = knowledge.lookup(&pos.play(m));
        }
    }
}

/// Request paths for the serve-query target's selector.
#[cfg(feature = "serve")]
const SERVE_PATHS: &[&str] = &[
    "/api/probe?",
    "/api/mainline?",
    "/board.svg?",
    "/api/probe?board=4x5&fen=",
    "/api/mainline?board=4x4&fen=",
    "/board.svg?fen=pawngame&board=3x4&",
    "/api/probe?fen=",
    "",
];

/// The explorer's request reader (`peasant serve`): the first byte picks
/// a method and a start of the URL (or none), the rest is the URL's text.
/// Reading never panics; a refusal is 400, 404 or 405 with a JSON
/// `{"error"}` of one line; an accepted request is answered (no tables, a
/// search budget of 2,000 nodes) with 200 and the right answer, or 404
/// when the budget does not reach one: a probe names the position asked,
/// every legal move once, and a value that is the best of the moves'; a
/// main line is legal from the position and ends the game; a picture is
/// an SVG document. A request the reader accepts, written again as a
/// URL, reads as the same request.
#[cfg(feature = "serve")]
pub fn serve_query(data: &[u8]) {
    use crate::explore::{Budget, Oracle};
    use crate::serve::{answer, parse_request, request_url, Reply, Request, MAX_LINE};
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let method = match selector >> 6 {
        0 | 1 => "GET",
        2 => "HEAD",
        _ => "POST",
    };
    let url = format!(
        "{}{text}",
        SERVE_PATHS[selector as usize % SERVE_PATHS.len()]
    );
    let is_error = |r: &Reply| {
        let j: serde_json::Value = serde_json::from_str(&r.body)
            .unwrap_or_else(|e| panic!("{url}: an error that is not JSON ({e}): {}", r.body));
        let obj = j.as_object().expect("an object");
        let msg = obj["error"].as_str().expect("an error message");
        assert!(obj.len() == 1 && !msg.is_empty() && !msg.contains('\n'));
        assert_eq!(r.content_type, "application/json");
    };
    let request = match parse_request(method, &url) {
        Ok(r) => r,
        Err(reply) => {
            assert!(
                matches!(reply.status, 400 | 404 | 405),
                "{url}: {}",
                reply.status
            );
            is_error(&reply);
            return;
        }
    };
    assert!(method != "POST");
    let again = request_url(&request);
    assert_eq!(
        parse_request("GET", &again).as_ref().ok(),
        Some(&request),
        "{url} written again as {again}"
    );
    static ORACLE: OnceLock<Oracle> = OnceLock::new();
    let oracle = ORACLE.get_or_init(|| {
        Oracle::new(
            None,
            Budget {
                nodes: Some(2000),
                time: None,
            },
        )
    });
    let reply = answer(oracle, &request);
    if reply.status != 200 {
        assert!(
            reply.status == 404
                && matches!(
                    request,
                    Request::Probe(_)
                        | Request::Mainline(_)
                        | Request::ProbeSearch(_)
                        | Request::MainlineSearch(_)
                ),
            "{url}: {} {}",
            reply.status,
            reply.body
        );
        is_error(&reply);
        return;
    }
    let json = || -> serde_json::Value {
        assert_eq!(reply.content_type, "application/json");
        serde_json::from_str(&reply.body).expect("a JSON answer")
    };
    let rank = |v: &serde_json::Value| match v.as_str() {
        Some("loss") => 0,
        Some("draw") => 1,
        Some("win") => 2,
        other => panic!("{url}: value {other:?}"),
    };
    match &request {
        Request::Page => assert!(reply.body.contains("<html")),
        Request::Probe(pos) | Request::ProbeSearch(pos) => {
            let j = json();
            assert_eq!(j["fen"], pos.to_string());
            let moves = j["moves"].as_array().expect("moves");
            let mut ucis: Vec<String> = moves
                .iter()
                .map(|m| m["uci"].as_str().expect("uci").to_string())
                .collect();
            let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.uci()).collect();
            ucis.sort();
            legal.sort();
            assert_eq!(ucis, legal, "{url}");
            let best = moves.iter().map(|m| rank(&m["value"])).max();
            if let Some(best) = best {
                assert_eq!(rank(&j["value"]), best, "{url}: {j}");
            } else {
                assert!(pos.is_game_over());
            }
        }
        Request::Mainline(pos) | Request::MainlineSearch(pos) => {
            let j = json();
            assert_eq!(j["fen"], pos.to_string());
            let line = j["line_uci"].as_array().expect("a line");
            let mut p = *pos;
            for m in line {
                let m = p
                    .parse_move(m.as_str().expect("a move"))
                    .unwrap_or_else(|e| panic!("{url}: {e}"));
                p = p.play(m);
            }
            let stopped = j["complete"] == false;
            assert!(
                p.is_game_over() || line.len() == MAX_LINE || stopped,
                "{url}: {j}"
            );
        }
        Request::Solved | Request::Game(..) => assert!(json().is_object()),
        Request::Board(..) => {
            assert_eq!(reply.content_type, "image/svg+xml");
            assert!(reply.body.starts_with("<svg") && reply.body.trim_end().ends_with("</svg>"));
        }
    }
}
