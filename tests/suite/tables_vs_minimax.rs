//! Tables against plain exhaustive minimax (no tables, no rule shortcuts, no
//! canonical forms) on every table position of small boards, and probes of
//! positions outside the tables (black to move, en passant rights, pawns on
//! second-to-last ranks) against minimax too.

use crate::common::{gen, minimax, temp_dir, variants, MinimaxMemo};
use peasant::generate::{generate, GenConfig, Target};
use peasant::{index::*, rules::*, table::*};

/// Checks every table position of every class up to `max_pawns`, and
/// every position met on the way (all successors), against minimax.
fn check_variant(variant: Variant, max_pawns: u8) -> u64 {
    let name = format!(
        "{}-{}-{}-{max_pawns}",
        variant.board, variant.rules.en_passant, variant.rules.seventh_rank_wins
    );
    let dir = gen(variant, max_pawns, &name);
    let tb = Tablebase::new(&dir, variant);
    let mut memo = MinimaxMemo::default();
    let mut checked = 0;
    // Classes the board cannot hold (6v1 on 1x8) have no table.
    let classes = Material::up_to(max_pawns).into_iter();
    for m in classes.filter(|&m| peasant::generate::has_positions(variant.board, m)) {
        let table = tb.table(m).unwrap();
        let index = table.index();
        for i in 0..index.len() {
            let pos = index.unrank(i);
            let expected = minimax(&pos, &mut memo);
            assert_eq!(
                table.get(&pos).unwrap(),
                expected,
                "{variant} {m} #{i} {pos}"
            );
            // Every successor and its colour flip, through the prober:
            // these include black-to-move, en passant and rule positions.
            for &mv in pos.legal_moves().iter() {
                let child = pos.play(mv);
                let expected = minimax(&child, &mut memo);
                assert_eq!(tb.probe(&child).unwrap(), expected, "{variant} {child}");
                if !child.is_game_over() {
                    assert_eq!(
                        tb.probe(&child.flipped()).unwrap(),
                        expected,
                        "{variant} flip {child}"
                    );
                    assert_eq!(
                        tb.probe(&child.mirrored()).unwrap(),
                        expected,
                        "{variant} mirror {child}"
                    );
                }
                checked += 1;
            }
            checked += 1;
        }
    }
    checked
}

/// The win/draw/loss-only generator (`gen --wdl-only`) against minimax on
/// every table position and every successor, and against the DTM
/// generator's tables: the same WDL section byte for byte, the same
/// counts, the DTM refused.
fn check_wdl_only(variant: Variant, max_pawns: u8) -> u64 {
    let name = format!(
        "wdl-{}-{}-{}-{max_pawns}",
        variant.board, variant.rules.en_passant, variant.rules.seventh_rank_wins
    );
    let dir = temp_dir(&name);
    let config = GenConfig {
        wdl_only: true,
        ..GenConfig::new(variant, dir.path())
    };
    let reports = generate(&config, Target::MaxPawns(max_pawns), &|_| {}).unwrap();
    assert!(reports.iter().all(|r| !r.has_dtm && !r.skipped));
    let full = gen(variant, max_pawns, &format!("{name}-dtm"));
    let (tb, full_tb) = (
        Tablebase::new(&dir, variant),
        Tablebase::new(&full, variant),
    );
    let mut memo = MinimaxMemo::default();
    let mut checked = 0;
    let classes = Material::up_to(max_pawns).into_iter();
    for m in classes.filter(|&m| peasant::generate::has_positions(variant.board, m)) {
        let (table, dtm) = (tb.table(m).unwrap(), full_tb.table(m).unwrap());
        assert!(!table.has_dtm() && dtm.has_dtm());
        let section = |t: &Table, path: &std::path::Path| {
            let s = t.header().sections[0];
            std::fs::read(path).unwrap()[s.offset as usize..(s.offset + s.len) as usize].to_vec()
        };
        assert!(
            section(&table, table.path()) == section(&dtm, dtm.path()),
            "{variant} {m}: the WDL sections differ"
        );
        let (h, hd) = (table.header(), dtm.header());
        assert_eq!((h.wins, h.draws, h.losses), (hd.wins, hd.draws, hd.losses));
        assert_eq!((h.max_dtm, h.dont_care, h.sections[1].len), (0, 0, 0));
        let dense = table.to_dense().unwrap();
        let index = table.index();
        for i in 0..index.len() {
            let pos = index.unrank(i);
            let expected = minimax(&pos, &mut memo).wdl();
            assert_eq!(
                table.probe_wdl(&pos).unwrap(),
                expected,
                "{variant} {m} {pos}"
            );
            assert_eq!(
                dense.get_wdl(&pos).unwrap(),
                expected,
                "{variant} {m} {pos}"
            );
            assert!(matches!(table.get(&pos), Err(TableError::NoDtm { .. })));
            for &mv in pos.legal_moves().iter() {
                let child = pos.play(mv);
                let expected = minimax(&child, &mut memo).wdl();
                assert_eq!(tb.probe_wdl(&child).unwrap(), expected, "{variant} {child}");
                checked += 1;
            }
            checked += 1;
        }
    }
    // The checker passes them on win, draw or loss.
    let report = verify_tables(&dir, variant, &|_| {}).unwrap();
    assert!(report.is_ok(), "{}", report.summary());
    checked
}

#[test]
fn wdl_only_tables_equal_minimax_and_the_dtm_tables() {
    for v in variants(4, 5) {
        assert!(check_wdl_only(v, 8) > 0);
    }
    assert!(check_wdl_only(variants(4, 6)[0], 8) > 0);
    assert!(check_wdl_only(variants(3, 8)[0], 6) > 0);
    assert!(check_wdl_only(variants(2, 5)[0], 6) > 0);
}

#[test]
fn tables_equal_minimax_on_5x5() {
    for v in variants(5, 5) {
        assert!(check_variant(v, 10) > 0);
    }
}

#[test]
fn tables_equal_minimax_on_4x6_up_to_12_pawns() {
    assert!(check_variant(variants(4, 6)[0], 12) > 0);
}

#[test]
fn tables_equal_minimax_on_3x8_up_to_6_pawns() {
    for v in variants(3, 8) {
        assert!(check_variant(v, 6) > 0);
    }
}

/// Every class of 4x6 under every rule set (minutes and gigabytes of
/// minimax memo): `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn tables_equal_minimax_on_4x6_all_classes() {
    for v in variants(4, 6) {
        assert!(check_variant(v, 16) > 0);
    }
}

/// 3x8 up to 10 pawns under every rule set: `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn tables_equal_minimax_on_3x8_up_to_10_pawns() {
    for v in variants(3, 8) {
        assert!(check_variant(v, 10) > 0);
    }
}

#[test]
fn tables_equal_minimax_on_8x8_up_to_4_pawns() {
    for v in variants(8, 8) {
        assert!(check_variant(v, 4) > 0);
    }
}

#[test]
fn tables_equal_minimax_on_narrow_and_short_boards() {
    for (w, h) in [(1, 8), (2, 8), (4, 4), (2, 5), (6, 4)] {
        for v in variants(w, h) {
            assert!(check_variant(v, 2 * w * (h - 3)) > 0);
        }
    }
}

/// The worked examples of docs/RULES.md, through the tables.
#[test]
fn worked_examples() {
    let probe = |text: &str, board: &str, srw: bool, max: u8| {
        let board: Board = board.parse().unwrap();
        let rules = Rules {
            en_passant: true,
            seventh_rank_wins: srw,
        };
        let pos = parse_position(text, Some(board), rules).unwrap();
        let dir = gen(pos.variant(), max, &format!("ex-{board}-{srw}"));
        Tablebase::new(&dir, pos.variant()).probe(&pos).unwrap()
    };
    assert_eq!(probe("3/2p/ppP/3/3 b -", "3x5", false, 4), Value::Draw);
    assert_eq!(probe("3/2p/ppP/3/3 b -", "3x5", true, 4), Value::Win(1));
    assert_eq!(probe("pawngame", "5x5", false, 10), Value::Draw);
    assert_eq!(probe("pawngame", "5x5", true, 10), Value::Win(3));
    assert_eq!(probe("pawngame", "4x4", false, 8), Value::Loss(2));
    assert_eq!(probe("peasants", "1x8", false, 4), Value::Draw);
}
