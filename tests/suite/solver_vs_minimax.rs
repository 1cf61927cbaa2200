//! The canonical form and the solver against plain exhaustive minimax on
//! every position reachable from every setup of small boards (the pawn game,
//! Peasants' Chess, every Pawn Race gap pair), and from random positions
//! (which bring empty files and frozen islands), under every rule set.

use crate::common::{minimax, reachable_positions as positions, temp_dir, variants, MinimaxMemo};
use peasant::{generate::*, index::*, rules::*, solve::*, table::*};

/// Canonical forms under each rule keep minimax's exact value.
fn check_canonical(v: Variant, setups: bool, randoms: usize) -> usize {
    let t = std::time::Instant::now();
    let mut memo = MinimaxMemo::default();
    let all = positions(v, setups, randoms);
    let rules = [
        CanonicalRules::FLIP_MIRROR,
        CanonicalRules {
            walls: true,
            islands: false,
        },
        CanonicalRules::ALL,
    ];
    for p in &all {
        let expected = minimax(p, &mut memo);
        if p.is_game_over() {
            continue;
        }
        for r in rules {
            let c = canonical_with(p, r);
            assert_eq!(c.turn(), Color::White);
            assert_eq!(canonical_with(&c, r), c, "{v} {r:?} not idempotent: {p}");
            assert_eq!(minimax(&c, &mut memo), expected, "{v} {r:?}: {p} -> {c}");
        }
    }
    eprintln!("canonical {v}: {} positions, {:?}", all.len(), t.elapsed());
    all.len()
}

/// The solver (win/draw/loss and DTM modes; with move order, the race,
/// free-runner and dead-position rules, the one-sided bound and the
/// enhanced transposition cutoff, and without any of them) gives minimax's
/// value on every position.
fn check_solver(v: Variant, setups: bool, randoms: usize, tables: Option<&Tablebase>) -> usize {
    let t = std::time::Instant::now();
    let mut memo = MinimaxMemo::default();
    let all = positions(v, setups, randoms);
    let config = |dtm, ordering| SolverConfig {
        search: SearchConfig {
            hash_mb: 4,
            shortcuts: if ordering {
                Shortcuts::ALL
            } else {
                Shortcuts::NONE
            },
            ..SolverConfig::default().search
        },
        dtm,
        ordering,
        etc: ordering,
        ..SolverConfig::default()
    };
    let wdl = Solver::new(config(false, true), tables).unwrap();
    let wdl_plain = Solver::new(config(false, false), tables).unwrap();
    let dtm = Solver::new(config(true, true), tables).unwrap();
    for p in &all {
        let expected = minimax(p, &mut memo);
        assert_eq!(wdl.solve(p).unwrap().wdl, expected.wdl(), "{v} wdl: {p}");
        assert_eq!(
            wdl_plain.solve(p).unwrap().wdl,
            expected.wdl(),
            "{v} unordered wdl: {p}"
        );
        assert_eq!(dtm.solve(p).unwrap().value, Some(expected), "{v} dtm: {p}");
    }
    eprintln!("solver {v}: {} positions, {:?}", all.len(), t.elapsed());
    all.len()
}

/// Small boards: every position reachable from every setup, and from
/// random positions. The two big boards (millions of positions, minutes):
/// from random positions here, from every setup in the ignored tests.
const SMALL: [(u8, u8); 6] = [(4, 4), (6, 4), (3, 5), (4, 5), (5, 5), (3, 6)];
const BIG: [(u8, u8); 2] = [(4, 6), (3, 8)];

#[test]
fn canonical_forms_keep_values() {
    for (w, h) in SMALL {
        for v in variants(w, h) {
            assert!(check_canonical(v, true, 300) > 0);
        }
    }
    for (w, h) in BIG {
        for v in variants(w, h) {
            assert!(check_canonical(v, false, 300) > 0);
        }
    }
}

/// Every position reachable from every setup of 4x6 and 3x8 (about 25
/// million, a few minutes): `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn canonical_forms_keep_values_on_big_boards() {
    for (w, h) in BIG {
        for v in variants(w, h) {
            assert!(check_canonical(v, true, 300) > 0);
        }
    }
}

#[test]
fn solver_equals_minimax() {
    for (w, h) in SMALL {
        for v in variants(w, h) {
            assert!(check_solver(v, true, 300, None) > 0);
        }
    }
    for (w, h) in BIG {
        for v in variants(w, h) {
            assert!(check_solver(v, false, 300, None) > 0);
        }
    }
}

/// Every position reachable from every setup of 4x6 and 3x8 (several
/// minutes): `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn solver_equals_minimax_on_big_boards() {
    for (w, h) in BIG {
        for v in variants(w, h) {
            assert!(check_solver(v, true, 300, None) > 0);
        }
    }
}

/// With tables of the small classes only: leaves from tables, the rest
/// searched ("missing" means search on).
#[test]
fn solver_with_tables_equals_minimax() {
    for (w, h, max_pawns, setups) in [(5, 5, 5, true), (4, 6, 5, false), (3, 8, 4, false)] {
        for v in variants(w, h) {
            let dir = temp_dir(&format!(
                "{}-{}",
                v.board,
                peasant::table::file_name(v, Material::new(1, 1))
            ));
            let config = GenConfig::new(v, dir.path());
            generate(&config, Target::MaxPawns(max_pawns), &|_| {}).unwrap();
            let tb = Tablebase::new(&dir, v);
            assert!(check_solver(v, setups, 300, Some(&tb)) > 0);
        }
    }
}

/// The worked examples of docs/RULES.md, by search alone, and every move of
/// the root in parallel.
#[test]
fn worked_examples() {
    let solve = |text: &str, board: &str, srw: bool| {
        let rules = Rules {
            en_passant: true,
            seventh_rank_wins: srw,
        };
        let pos = parse_position(text, Some(board.parse().unwrap()), rules).unwrap();
        let config = SolverConfig {
            search: SearchConfig {
                threads: 2,
                ..SolverConfig::default().search
            },
            dtm: true,
            ..SolverConfig::default()
        };
        let solver = Solver::new(config, None).unwrap();
        let root = solver.solve_root(&pos, &|_, _| {}).unwrap();
        assert_eq!(Some(root.value), solver.solve(&pos).ok());
        root.value.value.unwrap()
    };
    assert_eq!(solve("3/2p/ppP/3/3 b -", "3x5", false), Value::Draw);
    assert_eq!(solve("3/2p/ppP/3/3 b -", "3x5", true), Value::Win(1));
    assert_eq!(solve("pawngame", "5x5", false), Value::Draw);
    assert_eq!(solve("pawngame", "5x5", true), Value::Win(3));
    assert_eq!(solve("pawngame", "4x4", false), Value::Loss(2));
}

#[test]
fn game_over_is_refused() {
    let pos = parse_position("peasants", Some("1x8".parse().unwrap()), Rules::default()).unwrap();
    let mut p = pos;
    for m in ["a4", "a5", "a3", "a6"] {
        p = p.play(p.parse_move(m).unwrap());
    }
    let solver = Solver::new(SolverConfig::default(), None).unwrap();
    assert!(matches!(
        solver.solve_root(&p, &|_, _| {}),
        Err(SolveError::GameOver(_))
    ));
    assert_eq!(solver.solve(&p).unwrap().wdl, Wdl::Draw);
}

/// The two questions of a proof ("does the side to move win?", "does it
/// avoid losing?") answered as minimax says, on every position of small
/// boards, in both modes; and when asked with a budget of a few hundred
/// nodes, asked again until answered (each attempt goes on from what the
/// last one proved), the same answers.
#[test]
fn questions_equal_minimax() {
    for (w, h) in SMALL {
        for v in variants(w, h) {
            let mut memo = MinimaxMemo::default();
            for dtm in [false, true] {
                let config = SolverConfig {
                    search: SearchConfig {
                        hash_mb: 1,
                        ..SolverConfig::default().search
                    },
                    dtm,
                    ..SolverConfig::default()
                };
                let whole = Solver::new(config, None).unwrap();
                let budgeted = Solver::new(config, None).unwrap();
                for p in positions(v, true, 100) {
                    let expected = minimax(&p, &mut memo);
                    for (q, want) in [
                        (Question::Wins, expected > Value::Draw),
                        (Question::AvoidsLoss, expected >= Value::Draw),
                    ] {
                        assert_eq!(whole.answer(&p, q, None).unwrap(), want, "{v} {q:?} {p}");
                        let mut tries = 0;
                        let got = loop {
                            tries += 1;
                            assert!(tries < 100_000, "{v} {q:?} {p}: never answered");
                            match budgeted.answer(&p, q, Some(300)) {
                                Ok(a) => break a,
                                Err(SolveError::Stopped) => continue,
                                Err(e) => panic!("{v} {p}: {e}"),
                            }
                        };
                        assert_eq!(got, want, "{v} {q:?} {p} (budget 300)");
                    }
                }
            }
        }
    }
}
