//! Stopping a solve and resuming it: a solve cut short by a node budget,
//! its proven results saved to a file, loaded and continued gives the values
//! of an uninterrupted solve with fewer nodes; proven results are exact;
//! files for another game or mode, or damaged, are refused.

use crate::common::*;
use peasant::{rules::*, solve::*};
use std::path::PathBuf;

fn temp_file(dir: &TempDir, name: &str) -> PathBuf {
    dir.join(name)
}

fn position(setup: &str, board: &str, en_passant: bool) -> Position {
    let rules = Rules {
        en_passant,
        seventh_rank_wins: false,
    };
    parse_position(setup, Some(board.parse().unwrap()), rules).unwrap()
}

fn config(dtm: bool, max_nodes: Option<u64>) -> SolverConfig {
    SolverConfig {
        search: SearchConfig {
            hash_mb: 4,
            max_nodes,
            ..SolverConfig::default().search
        },
        dtm,
        ..SolverConfig::default()
    }
}

/// Root values and the line, as a comparable text.
fn solve_all(solver: &Solver, pos: &Position) -> Result<String, SolveError> {
    let root = solver.solve_root(pos, &|_, _| {})?;
    let line = solver.line(pos)?;
    Ok(describe(&root, &line))
}

fn describe(root: &RootSolution, line: &[Move]) -> String {
    let moves: Vec<String> = root
        .moves
        .iter()
        .map(|(m, s)| format!("{} {s}", m.san()))
        .collect();
    let line: Vec<String> = line.iter().map(|m| m.san()).collect();
    format!("{} | {} | {}", root.value, moves.join(", "), line.join(" "))
}

/// Solves `pos` whole, then in parts of `budget` nodes, each a library
/// [`Session`] that loads the save file the last part wrote and saves what
/// it proved when its budget runs out: same values and line; the first
/// resumed part needs fewer nodes than the whole solve. Returns the number
/// of parts.
fn check_resume(pos: &Position, dtm: bool, budget: u64) -> usize {
    let full = Solver::new(config(dtm, None), None).unwrap();
    let expected = solve_all(&full, pos).unwrap();
    let full_nodes = full.stats().nodes;
    assert!(full_nodes > budget, "{pos}: the budget must cut the solve");
    let kind = ProvenKind {
        variant: pos.variant(),
        dtm,
    };
    let dir = temp_dir(&format!("resume-{}-{dtm}-{budget}", pos.board()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = temp_file(&dir, "save");
    for part in 1.. {
        let solver = Solver::new(config(dtm, Some(budget)), None).unwrap();
        let session = Session::new(&solver, pos, Some(&path)).unwrap();
        assert_eq!(session.loaded() == 0, part == 1, "{pos}");
        let end = session.run(pos, &SessionConfig::default(), &|_| {});
        let saved = end.saved.expect("a save file").unwrap();
        assert!(
            saved >= session.loaded(),
            "{pos}: the union save lost positions"
        );
        let result = end.result.map(|(root, line)| describe(&root, &line));
        match result {
            Err(SolveError::Stopped) => {
                assert!(part < 1000, "{pos}: no progress");
                assert!(solver.stats().nodes >= budget);
            }
            Ok(values) => {
                assert_eq!(values, expected, "{pos} dtm {dtm} part {part}");
                assert!(part > 1, "{pos}: the budget must cut the solve");
                assert!(solver.stats().nodes < full_nodes, "{pos}");
                // A finished solve resumed from its own file searches
                // almost nothing.
                let again = Solver::new(config(dtm, None), None).unwrap();
                again.load_proven(&load_proven(&path, kind).unwrap().unwrap());
                assert_eq!(solve_all(&again, pos).unwrap(), expected);
                assert!(
                    again.stats().nodes * 3 < full_nodes,
                    "{pos}: {} nodes again, {full_nodes} whole",
                    again.stats().nodes
                );
                let _ = std::fs::remove_file(&path);
                return part;
            }
            Err(e) => panic!("{pos}: {e}"),
        }
    }
    unreachable!()
}

#[test]
fn stopped_and_resumed_solves_agree_with_whole_ones() {
    for (setup, board) in [
        ("pawngame", "5x5"),
        ("pawngame", "6x5"),
        ("pawngame", "4x6"),
        ("pawnrace:a:d", "5x6"),
        ("peasants", "3x8"),
    ] {
        for en_passant in [true, false] {
            let pos = position(setup, board, en_passant);
            for dtm in [false, true] {
                let full = Solver::new(config(dtm, None), None).unwrap();
                solve_all(&full, &pos).unwrap();
                let nodes = full.stats().nodes;
                // In about two parts, and in a few smaller ones. (Only exact
                // values are kept, so a part must prove one to make
                // progress: tiny budgets may not.)
                for budget in [nodes * 2 / 3, nodes / 3] {
                    let parts = check_resume(&pos, dtm, budget);
                    eprintln!("{setup} {board} ep {en_passant} dtm {dtm}: {nodes} nodes whole, {parts} parts of {budget}");
                }
            }
        }
    }
}

/// Every proven result is the position's exact value (by plain minimax),
/// in both modes, also from a solve that was stopped.
#[test]
fn proven_results_are_exact() {
    for (setup, board) in [("pawngame", "5x5"), ("pawngame", "4x6")] {
        for en_passant in [true, false] {
            let pos = position(setup, board, en_passant);
            let mut memo = MinimaxMemo::default();
            for dtm in [false, true] {
                for budget in [None, Some(300)] {
                    let solver = Solver::new(config(dtm, budget), None).unwrap();
                    let _ = solver.solve_root(&pos, &|_, _| {});
                    let proven = solver.proven();
                    assert!(!proven.is_empty());
                    for p in proven {
                        let w = Bitboard(p.key as u64);
                        let mut b = Bitboard((p.key >> 64) as u64);
                        let h = pos.board().height();
                        let last = pos.board().rank_mask(h - 1);
                        let ep = (b & last).0;
                        b = Bitboard(b.0 & !last.0);
                        let setup = Setup {
                            board: pos.board(),
                            pawns: ByColor { white: w, black: b },
                            turn: Color::White,
                            ep_square: (ep != 0)
                                .then(|| Square::new(ep.trailing_zeros() as u8 % 8, h - 3)),
                        };
                        let q = Position::from_setup(&setup, pos.variant()).unwrap();
                        assert_eq!(position_key(&q), p.key);
                        let v = minimax(&q, &mut memo);
                        let expected = match (dtm, v) {
                            (false, v) => match v.wdl() {
                                Wdl::Win => 1,
                                Wdl::Draw => 0,
                                Wdl::Loss => -1,
                            },
                            (true, Value::Win(d)) => 1000 - d as i16,
                            (true, Value::Draw) => 0,
                            (true, Value::Loss(d)) => -1000 + d as i16,
                        };
                        assert_eq!(p.score, expected, "{q} dtm {dtm}");
                    }
                }
            }
        }
    }
}

#[test]
fn wrong_game_or_mode_and_damage_are_refused() {
    let pos = position("pawngame", "5x5", true);
    let solver = Solver::new(config(false, None), None).unwrap();
    solver.solve_root(&pos, &|_, _| {}).unwrap();
    let kind = ProvenKind {
        variant: pos.variant(),
        dtm: false,
    };
    let dir = temp_dir("refused");
    std::fs::create_dir_all(&dir).unwrap();
    let path = temp_file(&dir, "refused");
    save_proven(&path, kind, &solver.proven()).unwrap();
    assert_eq!(
        load_proven(&path, kind).unwrap().unwrap(),
        solver.proven(),
        "round trip"
    );
    let others = [
        ProvenKind { dtm: true, ..kind },
        ProvenKind {
            variant: position("pawngame", "5x5", false).variant(),
            ..kind
        },
        ProvenKind {
            variant: position("pawngame", "5x6", true).variant(),
            ..kind
        },
    ];
    for other in others {
        let e = load_proven(&path, other).unwrap_err();
        assert!(matches!(e, ProvenError::WrongKind { .. }), "{e}");
    }
    // A session refuses them the same way, before any search.
    let dtm_solver = Solver::new(config(true, None), None).unwrap();
    let e = Session::new(&dtm_solver, &pos, Some(&path)).err().unwrap();
    assert!(matches!(e, ProvenError::WrongKind { .. }), "{e}");
    let bytes = std::fs::read(&path).unwrap();
    for (i, damage) in [(bytes.len() / 2, false), (30, false), (0, true)] {
        let b = if damage {
            bytes[..bytes.len() - 7].to_vec()
        } else {
            let mut b = bytes.clone();
            b[i] ^= 1;
            b
        };
        std::fs::write(&path, b).unwrap();
        let e = load_proven(&path, kind).unwrap_err();
        assert!(matches!(e, ProvenError::Damaged { .. }), "{e}");
        assert!(e.to_string().contains(&*path.to_string_lossy()), "{e}");
    }
    let _ = std::fs::remove_file(&path);
    assert!(load_proven(&path, kind).unwrap().is_none());
}

/// A session stopped through its stop flag (as Ctrl-C does) ends with
/// `Stopped` and still writes its save file; the next session resumes from
/// it; a session without a save file saves nothing; the events report
/// each settled root move.
#[test]
fn a_stopped_session_saves_and_the_next_resumes() {
    let pos = position("pawngame", "6x5", true);
    let dir = temp_dir("session-stop");
    std::fs::create_dir_all(&dir).unwrap();
    let path = temp_file(&dir, "save");
    let whole = Solver::new(config(false, None), None).unwrap();
    let expected = solve_all(&whole, &pos).unwrap();

    let solver = Solver::new(config(false, None), None).unwrap();
    let session = Session::new(&solver, &pos, Some(&path)).unwrap();
    session
        .stop_flag()
        .store(true, std::sync::atomic::Ordering::SeqCst);
    let end = session.run(&pos, &SessionConfig::default(), &|_| {});
    assert!(matches!(end.result, Err(SolveError::Stopped)));
    assert_eq!(end.saved.unwrap().unwrap(), 0);
    assert!(path.exists(), "a stopped session writes its file");

    let solver = Solver::new(config(false, None), None).unwrap();
    let session = Session::new(&solver, &pos, Some(&path)).unwrap();
    let moves = std::sync::Mutex::new(0);
    let end = session.run(&pos, &SessionConfig::default(), &|e| {
        if let Event::Move { .. } = e {
            *moves.lock().unwrap() += 1;
        }
    });
    let (root, line) = end.result.unwrap();
    assert_eq!(describe(&root, &line), expected);
    assert_eq!(*moves.lock().unwrap(), pos.count_moves() as usize);
    assert!(end.saved.unwrap().unwrap() > 0);

    let solver = Solver::new(config(false, None), None).unwrap();
    let session = Session::new(&solver, &pos, None).unwrap();
    let end = session.run(&pos, &SessionConfig::default(), &|_| {});
    assert!(end.saved.is_none());
    assert_eq!(session.save().unwrap(), 0);
}
