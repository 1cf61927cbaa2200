//! The table store: damage of every kind is detected and reported naming the
//! file, never a wrong value; don't-care positions are exactly those that
//! probing resolves; WDL-only probes, parallel probes and `--check` agree
//! with the values.

use crate::common::{self, gen, minimax, temp_dir, MinimaxMemo, TempDir};
use peasant::{index::*, rules::*, table::*};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn variant(w: u8, h: u8) -> Variant {
    Variant::new(Board::new(w, h).unwrap(), Rules::default())
}

/// Every table position of `m` with its value from minimax.
fn truth(v: Variant, m: Material) -> Vec<(Position, Value)> {
    let index = Index::new(v, m);
    let mut memo = MinimaxMemo::default();
    (0..index.len())
        .map(|i| {
            let p = index.unrank(i);
            (p, minimax(&p, &mut memo))
        })
        .collect()
}

fn assert_names_file(e: &TableError, path: &Path) {
    assert!(
        e.to_string().contains(&path.display().to_string()),
        "the message names the file: {e}"
    );
}

#[test]
fn dont_care_positions_are_exactly_the_wins_in_one() {
    for (w, h, srw) in [(4, 5, false), (4, 5, true), (3, 4, false), (5, 5, false)] {
        let v = Variant::new(
            Board::new(w, h).unwrap(),
            Rules {
                en_passant: true,
                seventh_rank_wins: srw,
            },
        );
        let dir = gen(v, 5, &format!("dc-{w}{h}{srw}"));
        let tb = Tablebase::new(&dir, v);
        // Classes the board cannot hold (4v1 on 3x4) have no table.
        let classes = Material::up_to(5).into_iter();
        for m in classes.filter(|&m| peasant::generate::has_positions(v.board, m)) {
            let t = tb.table(m).unwrap();
            let mut wins_in_one = 0;
            for (p, value) in truth(v, m) {
                assert_eq!(wins_at_once(&p), value == Value::Win(1), "{p}");
                wins_in_one += (value == Value::Win(1)) as u64;
                assert_eq!(t.get(&p).unwrap(), value, "{p}");
                assert_eq!(t.probe_wdl(&p).unwrap(), value.wdl(), "{p}");
            }
            assert_eq!(t.header().dont_care, wins_in_one, "{v} {m}");
        }
    }
}

#[test]
fn wdl_probes_and_best_moves_agree_with_full_probes() {
    let v = variant(4, 6);
    let dir = gen(v, 6, "wdl");
    let tb = Tablebase::new(&dir, v);
    let mut memo = MinimaxMemo::default();
    for m in Material::up_to(5) {
        let index = Index::new(v, m);
        for i in 0..index.len() {
            let p = index.unrank(i);
            for child in p.legal_moves().iter().map(|&mv| p.play(mv)) {
                let full = tb.probe(&child).unwrap();
                assert_eq!(tb.probe_wdl(&child).unwrap(), full.wdl(), "{child}");
                if child.is_game_over() {
                    continue;
                }
                let moves = tb.best_moves(&child).unwrap();
                if let Some(&(_, best)) = moves.first() {
                    assert_eq!(best, full, "{child}");
                    assert!(moves.windows(2).all(|w| w[0].1 >= w[1].1));
                }
                if i % 7 == 0 {
                    assert_eq!(full, minimax(&child, &mut memo), "{child}");
                }
            }
        }
    }
}

/// Every position one move after a table position of `v` with up to
/// `max_pawns` pawns.
fn table_successors(v: Variant, max_pawns: u8) -> Vec<Position> {
    let mut positions = Vec::new();
    for m in Material::up_to(max_pawns) {
        let index = Index::new(v, m);
        for i in 0..index.len() {
            let p = index.unrank(i);
            positions.extend(p.legal_moves().iter().map(|&mv| p.play(mv)));
        }
    }
    positions
}

#[test]
fn parallel_probes_equal_serial_probes() {
    let v = variant(4, 6);
    let dir = gen(v, 6, "par");
    let positions = table_successors(v, 6);
    let serial: Vec<Value> = {
        let tb = Tablebase::new(&dir, v);
        positions.iter().map(|p| tb.probe(p).unwrap()).collect()
    };
    // A cache far smaller than the tables, so threads evict each other's
    // blocks all the time.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let tb = unsafe { Tablebase::new_mmap(&dir, v) }.with_cache_blocks(4);
    let parallel: Vec<Value> =
        pool.install(|| positions.par_iter().map(|p| tb.probe(p).unwrap()).collect());
    assert_eq!(serial, parallel);
    let wdl: Vec<Wdl> = pool.install(|| {
        positions
            .par_iter()
            .map(|p| tb.probe_wdl(p).unwrap())
            .collect()
    });
    assert!(serial.iter().zip(&wdl).all(|(v, w)| v.wdl() == *w));
    assert!(tb.cache().misses() > 0 && tb.cache().hits() > 0);
}

#[test]
fn wdl_held_in_memory_gives_the_probes_of_the_cache() {
    // The WDL sections held at 2 bits a position answer every probe as
    // the block cache does: all of them held, or as many as a small
    // budget takes (the others read through the cache).
    let v = variant(4, 6);
    let dir = gen(v, 6, "wdl-memory");
    let positions = table_successors(v, 6);
    let probes = |tb: &Tablebase| -> Vec<Wdl> {
        positions.iter().map(|p| tb.probe_wdl(p).unwrap()).collect()
    };
    let plain = Tablebase::new(&dir, v);
    let cached = probes(&plain);
    let sizes: Vec<(Material, u64)> = Material::up_to(6)
        .into_iter()
        .map(|m| {
            let positions = plain.table(m).unwrap().header().positions;
            (m, packed_wdl_bytes(positions))
        })
        .collect();
    let all: u64 = sizes.iter().map(|s| s.1).sum();
    let largest = sizes.iter().map(|s| s.1).max().unwrap();
    for budget in [all, largest] {
        let tb = Tablebase::new(&dir, v).with_wdl_memory(budget);
        assert_eq!(probes(&tb), cached, "budget {budget}");
        // Every table opened, held or not as the budget allowed.
        let held: Vec<bool> = sizes
            .iter()
            .map(|&(m, _)| tb.table(m).unwrap().holds_wdl())
            .collect();
        if budget == all {
            assert!(held.iter().all(|&h| h), "{held:?}");
        } else {
            assert!(
                held.iter().any(|&h| h) && held.iter().any(|&h| !h),
                "{held:?}"
            );
        }
    }
    // A budget of 0 holds none.
    let tb = Tablebase::new(&dir, v).with_wdl_memory(0);
    assert_eq!(probes(&tb), cached);
    assert!(sizes
        .iter()
        .all(|&(m, _)| !tb.table(m).unwrap().holds_wdl()));
}

/// A table with small blocks (many of them) in a temporary directory (the
/// guard, removed when dropped), its path and its bytes.
fn small_block_table(
    v: Variant,
    m: Material,
    name: &str,
) -> (TempDir, PathBuf, Vec<u8>, Vec<Value>) {
    let dir = temp_dir(name);
    let truth = truth(v, m);
    let values: Vec<u8> = truth.iter().map(|t| t.1.to_byte()).collect();
    let opts = WriteOptions {
        block_len: 256,
        ..WriteOptions::default()
    };
    let path = write_table_with(&dir, v, m, &values, &opts).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    (dir, path, bytes, truth.into_iter().map(|t| t.1).collect())
}

#[test]
fn damage_of_every_kind_is_reported_naming_the_file() {
    let v = variant(4, 6);
    let m = Material::new(2, 2);
    let (_dir, path, bytes, _) = small_block_table(v, m, "kinds");
    let open = |b: &[u8]| {
        std::fs::write(&path, b).unwrap();
        Table::open(&path, v, m).err().expect("damage is detected")
    };
    assert!(Table::open(&path, v, m).is_ok());
    // A flipped byte anywhere: header, block index, data, trailer.
    for at in [3, 20, 130, bytes.len() / 2, bytes.len() - 6] {
        let mut b = bytes.clone();
        b[at] ^= 0x10;
        let e = open(&b);
        assert!(matches!(e, TableError::Damaged { .. }), "{at}: {e}");
        assert_names_file(&e, &path);
    }
    // Truncated, and extended.
    for len in [0, 10, 100, bytes.len() / 2, bytes.len() - 1] {
        let e = open(&bytes[..len]);
        assert!(matches!(e, TableError::Damaged { .. }), "{len}: {e}");
        assert_names_file(&e, &path);
    }
    let mut longer = bytes.clone();
    longer.extend_from_slice(b"junk");
    assert_names_file(&open(&longer), &path);
    // Wrong magic, wrong version (a version 1 file).
    let mut b = bytes.clone();
    b[0] = b'X';
    let e = open(&b);
    assert!(e.to_string().contains("magic"), "{e}");
    assert_names_file(&e, &path);
    let mut b = bytes.clone();
    b[8] = 1;
    let e = open(&b);
    assert!(e.to_string().contains("format version 1"), "{e}");
    assert_names_file(&e, &path);
    // The table of another class, board or rule set under this name.
    std::fs::write(&path, &bytes).unwrap();
    for (other_v, other_m) in [
        (v, Material::new(3, 1)),
        (variant(5, 6), m),
        (
            Variant::new(
                v.board,
                Rules {
                    en_passant: false,
                    seventh_rank_wins: false,
                },
            ),
            m,
        ),
    ] {
        let e = Table::open(&path, other_v, other_m)
            .err()
            .expect("a wrong table is refused");
        assert!(matches!(e, TableError::WrongTable { .. }), "{e}");
        assert_names_file(&e, &path);
    }
    // Through a tablebase: the probe reports the damage.
    let mut b = bytes.clone();
    b[bytes.len() / 2] ^= 1;
    std::fs::write(&path, &b).unwrap();
    let tb = Tablebase::new(path.parent().unwrap(), v);
    let pos = Index::new(v, m).unrank(0);
    let e = tb.probe(&pos).expect_err("damage is reported");
    assert_names_file(&e, &path);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// Random damage to a real table: with only per-block checks (the
/// whole-file checksum skipped), every probe answers correctly or reports
/// damage; with the whole-file check, opening fails.
#[test]
fn random_damage_never_gives_a_wrong_value() {
    let v = variant(4, 6);
    let m = Material::new(2, 2);
    let (_dir, path, bytes, truth) = small_block_table(v, m, "fuzz");
    let index = Index::new(v, m);
    let positions: Vec<Position> = (0..index.len()).map(|i| index.unrank(i)).collect();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut answered, mut refused, mut unopened) = (0u64, 0u64, 0u64);
    for round in 0..300 {
        let mut b = bytes.clone();
        let flips = 1 + next() % 4;
        for _ in 0..flips {
            let at = (next() % b.len() as u64) as usize;
            b[at] ^= 1 + (next() % 255) as u8;
        }
        if round % 10 == 0 {
            let cut = (next() % b.len() as u64) as usize;
            b.truncate(cut);
        }
        let checked = Table::from_bytes(&path, b.clone(), v, m, Arc::new(BlockCache::new(8)), true);
        assert!(checked.is_err(), "round {round}: whole-file check missed");
        let table = match Table::from_bytes(&path, b, v, m, Arc::new(BlockCache::new(8)), false) {
            Ok(t) => t,
            Err(e) => {
                assert_names_file(&e, &path);
                unopened += 1;
                continue;
            }
        };
        for (p, &want) in positions.iter().zip(&truth) {
            match table.get(p) {
                Ok(got) => {
                    assert_eq!(got, want, "round {round}: {p}");
                    answered += 1;
                }
                Err(e) => {
                    assert_names_file(&e, &path);
                    refused += 1;
                }
            }
            match table.probe_wdl(p) {
                Ok(got) => assert_eq!(got, want.wdl(), "round {round}: {p}"),
                Err(e) => assert_names_file(&e, &path),
            }
        }
    }
    assert!(answered > 0 && refused > 0 && unopened > 0);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn check_passes_good_tables_and_finds_wrong_values() {
    let v = variant(4, 5);
    let dir = gen(v, 6, "check");
    let report = verify_tables(&dir, v, &|_| {}).unwrap();
    assert!(report.is_ok());
    assert_eq!(report.classes.len(), Material::up_to(6).len());
    // A table with consistent checksums but one wrong value.
    let m = Material::new(2, 2);
    let truth = truth(v, m);
    let mut values: Vec<u8> = truth.iter().map(|t| t.1.to_byte()).collect();
    let i = truth
        .iter()
        .position(|t| t.1 == Value::Draw)
        .expect("a draw");
    values[i] = Value::Loss(2).to_byte();
    write_table(&dir, v, m, &values).unwrap();
    let report = verify_tables(&dir, v, &|_| {}).unwrap();
    let bad: Vec<_> = report.classes.iter().filter(|c| c.mismatches > 0).collect();
    assert!(!bad.is_empty() && bad[0].material == m);
    // A damaged table is an error naming it.
    let path = dir.join(file_name(v, m));
    let mut b = std::fs::read(&path).unwrap();
    let n = b.len();
    b[n / 2] ^= 4;
    std::fs::write(&path, b).unwrap();
    let report = verify_tables(&dir, v, &|_| {}).unwrap();
    let damaged: Vec<_> = report.damaged().collect();
    assert_eq!(damaged.len(), 1, "{}", report.summary());
    assert_eq!(damaged[0].path, path);
    assert!(damaged[0].line().contains(&path.display().to_string()));
}

#[test]
fn probe_command_prints_value_moves_line_json_and_pgn() {
    let v = variant(4, 4);
    let dir = gen(v, 8, "cli");
    let run = |extra: &[&str]| {
        let mut c = common::peasant_command(["probe", "pawngame", "--board", "4x4", "--tables"]);
        c.arg(&dir).args(extra);
        let out = common::output_of(c);
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run(&[]);
    assert!(text.contains("value:  loss in 2"), "{text}");
    assert!(text.contains("dtm:    2 plies"), "{text}");
    assert!(text.contains("line:   1. "), "{text}");
    let json: serde_json::Value = serde_json::from_str(&run(&["--json"])).unwrap();
    assert_eq!(json["value"], "loss");
    assert_eq!(json["dtm"], 2);
    assert_eq!(json["result"], "0-1");
    let moves = json["moves"].as_array().unwrap();
    assert!(!moves.is_empty() && moves.iter().all(|m| m["value"] == "loss"));
    assert_eq!(json["line"].as_array().unwrap().len(), 2);
    let pgn = run(&["--pgn"]);
    assert!(pgn.contains("[FEN \"pppp/4/4/PPPP w -\"]") || pgn.contains("[FEN \""));
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.trim_end().ends_with("0-1"), "{pgn}");
    // A damaged table: exit status 1 and a message naming the file.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let p = entry.unwrap().path();
        let mut b = std::fs::read(&p).unwrap();
        b[0] = 0;
        std::fs::write(&p, b).unwrap();
    }
    let mut c = common::peasant_command(["probe", "pawngame", "--board", "4x4", "--tables"]);
    c.arg(&dir);
    let out = common::output_of(c);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(".ptb") && err.contains("damaged"), "{err}");
}

#[test]
fn both_storage_orders_give_the_same_values() {
    for (w, h) in [(4, 6), (5, 5), (3, 8)] {
        let v = variant(w, h);
        for m in [
            Material::new(3, 1),
            Material::new(1, 3),
            Material::new(2, 2),
            Material::new(3, 2),
        ] {
            let truth = truth(v, m);
            let values: Vec<u8> = truth.iter().map(|t| t.1.to_byte()).collect();
            for black_first in [false, true] {
                let dir = temp_dir(&format!("order-{w}{h}-{m}-{black_first}"));
                let opts = WriteOptions {
                    block_len: 1024,
                    black_first: Some(black_first),
                    ..WriteOptions::default()
                };
                let path = write_table_with(&dir, v, m, &values, &opts).unwrap();
                let t = Table::open(&path, v, m).unwrap();
                assert_eq!(t.store_index().black_first(), black_first);
                let dense = t.to_dense().unwrap();
                for (p, value) in &truth {
                    assert_eq!(t.get(p).unwrap(), *value, "{m} {p}");
                    assert_eq!(t.get(&p.mirrored()).unwrap(), *value, "{m} {p}");
                    assert_eq!(dense.get(p).unwrap(), *value, "{m} {p}");
                }
            }
        }
    }
}

/// A win/draw/loss-only table (`gen --wdl-only`) of `m` with small blocks,
/// from minimax's values.
fn small_block_wdl_table(v: Variant, m: Material, name: &str) -> (TempDir, PathBuf, Vec<Value>) {
    let dir = temp_dir(name);
    let truth: Vec<Value> = truth(v, m).into_iter().map(|t| t.1).collect();
    let opts = WriteOptions {
        block_len: 256,
        ..WriteOptions::default()
    };
    let path = write_wdl_table_with(&dir, v, m, &|i| truth[i as usize].wdl(), &opts).unwrap();
    (dir, path, truth)
}

/// A table file's bytes with its header edited and both the header's and
/// the whole file's checksums made good again.
fn with_header(bytes: &[u8], edit: &dyn Fn(&mut Header)) -> Vec<u8> {
    let mut h = Header::decode(bytes).unwrap();
    edit(&mut h);
    let mut b = bytes.to_vec();
    b[..128].copy_from_slice(&h.encode());
    let n = b.len() - 8;
    let crc = crc32fast::hash(&b[..n]);
    b[n..n + 4].copy_from_slice(&crc.to_le_bytes());
    b
}

#[test]
fn wdl_only_tables_refuse_the_dtm_and_report_damage() {
    let v = variant(4, 6);
    let m = Material::new(2, 2);
    let (_dir, path, truth) = small_block_wdl_table(v, m, "wdl-kinds");
    let bytes = std::fs::read(&path).unwrap();
    let table = Table::open(&path, v, m).unwrap();
    assert!(!table.has_dtm());
    let index = Index::new(v, m);
    for i in 0..index.len() {
        let p = index.unrank(i);
        assert_eq!(table.probe_wdl(&p).unwrap(), truth[i as usize].wdl(), "{p}");
        let e = table.get(&p).expect_err("no DTM");
        assert!(matches!(e, TableError::NoDtm { .. }), "{e}");
        assert_names_file(&e, &path);
    }
    let dense = table.to_dense().unwrap();
    assert!(!dense.has_dtm() && dense.raw_values().is_none());
    for i in 0..index.len() {
        let p = index.unrank(i);
        assert_eq!(dense.get_wdl(&p).unwrap(), truth[i as usize].wdl(), "{p}");
    }
    // Blocks whose length is not a multiple of 32, of either encoding, are
    // held at 2 bits a position too.
    let odd = WriteOptions {
        block_len: 100,
        ..WriteOptions::default()
    };
    let bytes_of: Vec<u8> = truth.iter().map(|v| v.to_byte()).collect();
    let d2 = temp_dir("wdl-odd");
    for path in [
        write_wdl_table_with(&d2, v, m, &|i| truth[i as usize].wdl(), &odd).unwrap(),
        write_table_with(&d2, v, m, &bytes_of, &odd).unwrap(),
    ] {
        let d = Table::open(&path, v, m).unwrap().to_dense_wdl().unwrap();
        for i in 0..index.len() {
            let p = index.unrank(i);
            assert_eq!(d.get_wdl(&p).unwrap(), truth[i as usize].wdl(), "{p}");
        }
    }
    assert!(matches!(
        dense.get(&index.unrank(0)),
        Err(TableError::NoDtm { .. })
    ));
    // Through a tablebase: WDL probes answer, exact ones are refused.
    let tb = Tablebase::new(path.parent().unwrap(), v);
    let p = index.unrank(index.len() / 2);
    assert_eq!(
        tb.probe_wdl(&p).unwrap(),
        truth[index.len() as usize / 2].wdl()
    );
    assert!(matches!(tb.probe(&p), Err(TableError::NoDtm { .. })));
    let open = |b: &[u8]| {
        std::fs::write(&path, b).unwrap();
        Table::open(&path, v, m).err().expect("damage is detected")
    };
    // A flipped byte anywhere, a cut, a longer file.
    for at in [3, 22, 101, 130, bytes.len() / 2, bytes.len() - 6] {
        let mut b = bytes.clone();
        b[at] ^= 0x10;
        let e = open(&b);
        assert!(matches!(e, TableError::Damaged { .. }), "{at}: {e}");
        assert_names_file(&e, &path);
    }
    for len in [0, 100, bytes.len() / 2, bytes.len() - 1] {
        assert_names_file(&open(&bytes[..len]), &path);
    }
    // A DTM section where there must be none, and an unknown encoding,
    // each with the header's checksum made good again.
    let e = open(&with_header(&bytes, &|h| h.sections[1].blocks = 1));
    assert!(e.to_string().contains("DTM section"), "{e}");
    let e = open(&with_header(&bytes, &|h| h.encoding = 3));
    assert!(e.to_string().contains("encoding 3"), "{e}");
    // A DTM table read as if it had no DTM section is damaged too.
    let (_d2, dtm_path, dtm_bytes, _) = small_block_table(v, m, "wdl-kinds-dtm");
    let b = with_header(&dtm_bytes, &|h| h.encoding = ENCODING_WDL_ONLY);
    std::fs::write(&dtm_path, &b).unwrap();
    let e = Table::open(&dtm_path, v, m).err().expect("refused");
    assert!(matches!(e, TableError::Damaged { .. }), "{e}");
}

/// Random damage to a win/draw/loss-only table never gives a wrong WDL.
#[test]
fn random_damage_never_gives_a_wrong_wdl_only_value() {
    let v = variant(4, 6);
    let m = Material::new(2, 2);
    let (_dir, path, truth) = small_block_wdl_table(v, m, "wdl-fuzz");
    let bytes = std::fs::read(&path).unwrap();
    let index = Index::new(v, m);
    let mut rng = peasant::SplitMix64::new(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next_u64();
    let (mut answered, mut refused) = (0u64, 0u64);
    for round in 0..300 {
        let mut b = bytes.clone();
        for _ in 0..1 + next() % 4 {
            let at = (next() % b.len() as u64) as usize;
            b[at] ^= 1 + (next() % 255) as u8;
        }
        let Ok(table) = Table::from_bytes(&path, b, v, m, Arc::new(BlockCache::new(8)), false)
        else {
            continue;
        };
        for i in 0..index.len() {
            let p = index.unrank(i);
            match table.probe_wdl(&p) {
                Ok(got) => {
                    assert_eq!(got, truth[i as usize].wdl(), "round {round}: {p}");
                    answered += 1;
                }
                Err(e) => {
                    assert_names_file(&e, &path);
                    refused += 1;
                }
            }
        }
        if let Ok(dense) = table.to_dense_wdl() {
            for i in 0..index.len() {
                let p = index.unrank(i);
                assert_eq!(dense.get_wdl(&p).unwrap(), truth[i as usize].wdl());
            }
        }
    }
    assert!(answered > 0 && refused > 0);
}

/// `gen --check` finds a wrong value in a win/draw/loss-only table, and
/// checks a DTM table whose successors hold win/draw/loss only as "not
/// checked", naming them.
#[test]
fn check_finds_wrong_values_in_wdl_only_tables() {
    let v = variant(4, 5);
    let dir = gen(v, 4, "wdl-check");
    let m = Material::new(2, 2);
    let truth: Vec<Value> = truth(v, m).into_iter().map(|t| t.1).collect();
    let i = truth
        .iter()
        .position(|t| *t == Value::Draw)
        .expect("a draw");
    let wrong = |j: u64| {
        if j == i as u64 {
            Wdl::Win
        } else {
            truth[j as usize].wdl()
        }
    };
    let opts = WriteOptions::default();
    write_wdl_table_with(&dir, v, m, &|j| truth[j as usize].wdl(), &opts).unwrap();
    assert!(verify_tables(&dir, v, &|_| {}).unwrap().is_ok());
    write_wdl_table_with(&dir, v, m, &wrong, &opts).unwrap();
    let report = verify_tables(&dir, v, &|_| {}).unwrap();
    let bad: Vec<_> = report.wrong().collect();
    assert_eq!(bad.len(), 1, "{}", report.summary());
    assert_eq!((bad[0].material, bad[0].mismatches), (m, 1));
    // With 2v1 win/draw/loss only, 3v1's distances (it captures into 2v1)
    // cannot be checked.
    let m21 = Material::new(2, 1);
    let t21: Vec<Value> = self::truth(v, m21).into_iter().map(|t| t.1).collect();
    write_wdl_table_with(&dir, v, m21, &|j| t21[j as usize].wdl(), &opts).unwrap();
    let report = verify_tables(&dir, v, &|_| {}).unwrap();
    let unchecked: Vec<_> = report.unchecked().collect();
    assert!(
        unchecked.iter().any(|c| c.material == Material::new(3, 1)
            && c.line().contains("win/draw/loss only")
            && c.line().contains(&file_name(v, m21))),
        "{}",
        report.summary()
    );
}

/// From win/draw/loss-only tables, every move's value is the one the
/// tables with distances give, best first, and the line that keeps the
/// value does: every move of it keeps the mover's value, and it ends
/// where the game does. On every table position of 4x5 up to 4 pawns,
/// and each one's colour-flipped twin (black to move).
#[test]
fn wdl_only_tables_give_moves_and_a_line_that_keeps_the_value() {
    use peasant::generate::{generate, GenConfig, Target};
    let v = variant(4, 5);
    let exact_dir = gen(v, 4, "wdl-moves-dtm");
    let exact = Tablebase::new(exact_dir.path(), v);
    let dir = temp_dir("wdl-moves");
    let config = GenConfig {
        wdl_only: true,
        ..GenConfig::new(v, dir.path())
    };
    generate(&config, Target::MaxPawns(4), &|_| {}).unwrap();
    let tb = Tablebase::new(dir.path(), v);
    let mut lines = 0;
    for m in Material::up_to(4) {
        let index = Index::new(v, m);
        for i in 0..index.len() {
            let p = index.unrank(i);
            for pos in [p, p.flipped()] {
                let want: Vec<(Move, Wdl)> = exact
                    .best_moves(&pos)
                    .unwrap()
                    .into_iter()
                    .map(|(m, v)| (m, v.wdl()))
                    .collect();
                let got = tb.best_moves_wdl(&pos).unwrap();
                assert!(got.windows(2).all(|w| w[0].1 >= w[1].1), "{pos}");
                let sorted = |mut l: Vec<(Move, Wdl)>| {
                    l.sort_by_key(|&(m, _)| m.san());
                    l
                };
                assert_eq!(sorted(got), sorted(want), "{pos}");
                if i % 7 != 0 {
                    continue;
                }
                let value = exact.probe(&pos).unwrap().wdl();
                let mut p = pos;
                let mut mover_value = value;
                for &mv in &tb.value_keeping_line(&pos).unwrap() {
                    p = p.play(mv);
                    let after = exact.probe(&p).unwrap().wdl();
                    assert_eq!(after.before_move(), mover_value, "{pos}: {mv}");
                    mover_value = after;
                }
                assert!(p.legal_moves().is_empty(), "{pos}: the line stops at {p}");
                lines += 1;
            }
        }
    }
    assert!(lines > 100);
}

/// The explorer's and `play`'s oracle on win/draw/loss-only tables: the
/// tables answer without distances, with the values the tables with
/// distances give; a position beyond the tables is searched in
/// win/draw/loss (its search with distances cannot read them) to the
/// same value as with the full tables; its line keeps the value.
#[test]
fn the_oracle_answers_from_wdl_only_tables() {
    use peasant::explore::{Budget, Oracle, Source};
    use peasant::generate::{generate, GenConfig, Target};
    let v = variant(4, 5);
    let exact_dir = gen(v, 4, "oracle-dtm");
    let dir = temp_dir("oracle-wdl");
    let config = GenConfig {
        wdl_only: true,
        ..GenConfig::new(v, dir.path())
    };
    generate(&config, Target::MaxPawns(4), &|_| {}).unwrap();
    let exact = Oracle::new(Some(exact_dir.path().to_path_buf()), Budget::default());
    let wdl = Oracle::new(Some(dir.path().to_path_buf()), Budget::default());
    let wdls = |a: &peasant::explore::Analysis| {
        let mut m: Vec<(String, Wdl)> = a.moves.iter().map(|(m, s)| (m.san(), s.wdl)).collect();
        m.sort();
        (a.value.wdl, m)
    };
    for fen in [
        "4/pp2/4/P1P1/4 w -",
        "4/1pp1/p3/P3/4 b -",
        "4/2pp/4/PP2/4 w -",
    ] {
        let pos = parse_position(fen, Some(v.board), v.rules).unwrap();
        let (a, b) = (exact.analyse(&pos).unwrap(), wdl.analyse(&pos).unwrap());
        assert_eq!(
            (a.source, b.source),
            (Source::Table, Source::Table),
            "{fen}"
        );
        assert!(a.value.value.is_some() && b.value.value.is_none(), "{fen}");
        assert_eq!(wdls(&a), wdls(&b), "{fen}");
    }
    // Six pawns: beyond the tables, searched.
    let pos = parse_position("4/ppp1/4/PPP1/4 w -", Some(v.board), v.rules).unwrap();
    let (a, b) = (exact.analyse(&pos).unwrap(), wdl.analyse(&pos).unwrap());
    assert_eq!((a.source, b.source), (Source::Search, Source::Search));
    assert!(b.value.value.is_none());
    assert_eq!(a.value.wdl, b.value.wdl);
    // Every move of its line keeps the value, by the full tables' oracle
    // (a search beyond them).
    let line = wdl.line(&pos, 40, true).unwrap();
    assert!(!line.moves.is_empty());
    let mut p = pos;
    let mut mover = a.value.wdl;
    for &(m, _) in &line.moves {
        p = p.play(m);
        let after = exact.analyse(&p).unwrap().value.wdl;
        assert_eq!(after.before_move(), mover, "{m}");
        mover = after;
    }
}

#[test]
fn gen_wdl_only_command_keeps_dtm_tables_and_probe_answers_without_distances() {
    let dir = temp_dir("wdl-cli");
    let gen_cmd = |extra: &[&str]| {
        let mut c = common::peasant_command(["--board", "4x5", "gen", "--max-pawns", "4"]);
        c.arg("--out").arg(dir.path()).args(extra);
        common::output_of(c)
    };
    let out = gen_cmd(&["--wdl-only", "--json"]);
    assert!(out.status.success(), "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let classes = json["classes"].as_array().unwrap();
    assert!(!classes.is_empty());
    assert!(classes
        .iter()
        .all(|c| c["wdl_only"] == true && c["max_dtm"].is_null() && c["skipped"] == false));
    // `probe` answers with win, draw or loss alone; `solve --dtm` needs
    // the distances: one line, exit status 2.
    let fen = "4/pp2/4/P1P1/4 w -";
    let run = |args: &[&str]| {
        let mut c = common::peasant_command(["--board", "4x5"]);
        c.args(args).arg("--tables").arg(dir.path());
        common::output_of(c)
    };
    let probe = || run(&["probe", fen, "--json"]);
    let out = probe();
    assert!(out.status.success(), "{out:?}");
    let wdl_only: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(wdl_only["wdl_only"], true);
    assert!(wdl_only["dtm"].is_null());
    assert!(!wdl_only["moves"].as_array().unwrap().is_empty());
    let out = run(&["probe", fen]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("win/draw/loss-only tables"), "{text}");
    let out = run(&["solve", fen, "--dtm", "--quiet"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("win/draw/loss only") && err.lines().count() == 1,
        "{err}"
    );
    // Without --wdl-only they are made again with the DTM, and probe
    // gives the distances, with the same value for the position and each
    // move.
    let out = gen_cmd(&["--json"]);
    assert!(out.status.success(), "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["classes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["wdl_only"] == false && c["skipped"] == false));
    let out = probe();
    assert!(out.status.success(), "{out:?}");
    let exact: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(exact["wdl_only"], false);
    assert!(exact["dtm"].is_number());
    assert_eq!(exact["value"], wdl_only["value"]);
    let values = |j: &serde_json::Value| {
        let mut v: Vec<(String, String)> = j["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["move"].to_string(), m["value"].to_string()))
            .collect();
        v.sort();
        v
    };
    assert_eq!(values(&exact), values(&wdl_only));
    // And --wdl-only leaves tables with the DTM as they are.
    let out = gen_cmd(&["--wdl-only", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["classes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["wdl_only"] == false && c["skipped"] == true));
}

/// `gen --wdl-only` where one class of a pair has its table with distances
/// and its partner none: the pair is solved, the partner written with
/// win/draw/loss only, and the table with distances left as it was.
#[test]
fn wdl_only_generation_keeps_a_partner_with_distances() {
    use peasant::generate::{generate, GenConfig, Target};
    let v = variant(4, 5);
    let dir = gen(v, 4, "wdl-keep");
    let (m31, m13) = (Material::new(3, 1), Material::new(1, 3));
    let kept = std::fs::read(dir.join(file_name(v, m31))).unwrap();
    std::fs::remove_file(dir.join(file_name(v, m13))).unwrap();
    let config = GenConfig {
        wdl_only: true,
        ..GenConfig::new(v, dir.path())
    };
    let reports = generate(&config, Target::MaxPawns(4), &|_| {}).unwrap();
    let report = |m| reports.iter().find(|r| r.material == m).unwrap();
    assert!(report(m31).skipped && report(m31).has_dtm);
    assert!(!report(m13).skipped && !report(m13).has_dtm);
    assert_eq!(std::fs::read(dir.join(file_name(v, m31))).unwrap(), kept);
    let t = Table::open(&dir.join(file_name(v, m13)), v, m13).unwrap();
    assert!(!t.has_dtm());
    for (p, value) in truth(v, m13) {
        assert_eq!(t.probe_wdl(&p).unwrap(), value.wdl(), "{p}");
    }
    // The checker finds nothing wrong; 3v1's distances cannot be checked
    // against 1v3's win, draw or loss.
    let report = verify_tables(&dir, v, &|_| {}).unwrap();
    assert_eq!(report.wrong().count() + report.damaged().count(), 0);
    let unchecked: Vec<Material> = report.unchecked().map(|c| c.material).collect();
    assert_eq!(unchecked, [m31], "{}", report.summary());
}
