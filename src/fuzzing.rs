//! The checks behind the fuzz targets of `fuzz/` (run with `cargo fuzz`),
//! shared with the test that replays their corpus on a stable toolchain
//! (`tests/fuzz_corpus.rs`). Each takes arbitrary bytes and panics only if
//! the library breaks a promise on them: a reader panicked, a position
//! text did not survive a round trip, a damaged table gave a value.

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
        ReferenceTable {
            variant,
            material,
            bytes: encode_table(variant, material, &bytes, &opts),
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
            }
        }
    }
}

/// Table file bytes. First byte even: the rest is a whole file, opened as
/// the reference class's table and probed everywhere (no panic). First
/// byte odd: the rest is a list of edits of the reference table (3 bytes
/// each: a 16-bit offset and a byte to xor there; a final short edit cuts
/// the file at its offset or, odd, appends bytes), and every value the
/// damaged table still gives must be the true one.
pub fn table_bytes(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode % 2 == 0 {
        probe_all(rest.to_vec(), false);
        return;
    }
    let r = reference_table();
    let mut bytes = r.bytes.clone();
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
