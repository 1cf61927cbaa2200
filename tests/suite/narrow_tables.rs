//! Tables of a narrower board answer the positions of a wider one whose
//! canonical form has all its pawns on the first files
//! (`Tablebase::locate`): checked against the wider board's own tables on
//! every position of every class, and through the solver against minimax.

use crate::common::{gen, minimax, temp_dir, MinimaxMemo};
use peasant::{generate::*, index::*, rules::*, solve::*, table::*};

/// Files from file a up to the last one holding a pawn, counted square by
/// square.
fn used_width(pos: &Position) -> u8 {
    (pos.pawns(Color::White) | pos.pawns(Color::Black))
        .map(|s| s.file() + 1)
        .max()
        .unwrap_or(0)
}

/// Every class of `w`x`h` up to `max_pawns`: the tablebase that has only
/// the narrower boards' tables answers exactly the positions that fit, with
/// the wide board's own values, and refuses the others as missing.
fn check(w: u8, h: u8, max_pawns: u8) -> u64 {
    let mut checked = 0;
    for rules in Rules::ALL {
        let wide = Variant::new(Board::new(w, h).unwrap(), rules);
        let own = gen(
            wide,
            max_pawns,
            &format!("own-{w}x{h}-{}", file_name(wide, Material::new(1, 1))),
        );
        let narrow_dir = temp_dir(&format!(
            "narrow-{w}x{h}-{}",
            file_name(wide, Material::new(1, 1))
        ));
        for n in 1..w {
            let v = Variant::new(Board::new(n, h).unwrap(), rules);
            let config = GenConfig::new(v, narrow_dir.path());
            generate(&config, Target::MaxPawns(max_pawns), &|_| {}).unwrap();
        }
        let own_tb = Tablebase::new(&own, wide);
        let narrow_tb = Tablebase::new(&narrow_dir, wide);
        for m in Material::up_to(max_pawns) {
            let index = Index::new(wide, m);
            for i in 0..index.len() {
                let pos = index.unrank(i);
                let fits = used_width(&canonical(&pos)) < w;
                match narrow_tb.locate(&pos).unwrap() {
                    Some((table, p)) => {
                        assert!(fits, "{m} #{i}: located though it does not fit");
                        let tw = table.index().variant().board.width();
                        let c = canonical(&pos);
                        assert!(tw >= used_width(&c) && tw < w, "{m} #{i}: table {tw} wide");
                        assert_eq!(p.pawns(Color::White), c.pawns(Color::White));
                        assert_eq!(p.pawns(Color::Black), c.pawns(Color::Black));
                        let want = own_tb.probe(&pos).unwrap();
                        assert_eq!(narrow_tb.probe(&pos).unwrap(), want, "{m} #{i} {}", pos);
                        assert_eq!(narrow_tb.probe_wdl(&pos).unwrap(), want.wdl());
                        // The same position with black to move, through the flip.
                        let flipped = pos.flipped();
                        assert_eq!(narrow_tb.probe(&flipped).unwrap(), want);
                        checked += 1;
                    }
                    None => {
                        assert!(!fits, "{m} #{i}: fits but not located");
                        assert!(matches!(
                            narrow_tb.probe(&pos),
                            Err(TableError::Missing { .. })
                        ));
                    }
                }
            }
        }
    }
    checked
}

#[test]
fn narrow_tables_answer_5x5_positions_that_fit() {
    assert!(check(5, 5, 6) > 0);
}

#[test]
fn narrow_tables_answer_5x6_positions_that_fit() {
    assert!(check(5, 6, 5) > 0);
}

#[test]
fn narrow_tables_answer_8x8_positions_that_fit() {
    assert!(check(8, 8, 3) > 0);
}

/// Every position reachable from `pos`.
fn collect(pos: Position, seen: &mut std::collections::HashSet<Position>) {
    if seen.insert(pos) {
        for &m in pos.legal_moves().iter() {
            collect(pos.play(m), seen);
        }
    }
}

/// The solver with only narrower boards' tables at its leaves equals plain
/// minimax on every position reachable from the pawn game and every Pawn
/// Race of 5x5, under every rule set.
#[test]
fn solver_with_narrow_tables_equals_minimax_on_5x5() {
    let mut table_hits = 0;
    for rules in Rules::ALL {
        let wide = Variant::new(Board::new(5, 5).unwrap(), rules);
        let dir = temp_dir(&format!("solver-{}", file_name(wide, Material::new(1, 1))));
        for n in 1..5 {
            let v = Variant::new(Board::new(n, 5).unwrap(), rules);
            generate(&GenConfig::new(v, dir.path()), Target::MaxPawns(6), &|_| {}).unwrap();
        }
        let tb = Tablebase::new(&dir, wide);
        let mut seen = std::collections::HashSet::new();
        let mut names = vec!["pawngame".to_string()];
        for x in "abcde".chars() {
            for y in "abcde".chars() {
                names.push(format!("pawnrace:{x}:{y}"));
            }
        }
        for name in names {
            collect(
                parse_position(&name, Some(wide.board), rules).unwrap(),
                &mut seen,
            );
        }
        let mut memo = MinimaxMemo::default();
        for pos in seen {
            let solver = Solver::new(
                SolverConfig {
                    search: SearchConfig {
                        hash_mb: 1,
                        ..SolverConfig::default().search
                    },
                    dtm: true,
                    ..SolverConfig::default()
                },
                Some(&tb),
            )
            .unwrap();
            let got = solver.solve(&pos).unwrap();
            assert_eq!(got.value, Some(minimax(&pos, &mut memo)), "{pos:?}");
            table_hits += solver.stats().table_hits;
        }
    }
    assert!(table_hits > 0, "no leaf was answered by a narrow table");
}
