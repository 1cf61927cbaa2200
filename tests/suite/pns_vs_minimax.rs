//! The proof-number solver against plain exhaustive minimax on every
//! position reachable from every setup of small boards (the pawn game,
//! Peasants' Chess, every Pawn Race gap pair) and from random positions,
//! under every rule set: with a transposition table of one bucket (so that
//! entries are replaced all the time) and a normal one, with both ways to
//! start the numbers (and the tuned order), with the best child kept until its parent's threshold,
//! with and without the 1+ε trick, reading the table without its locks
//! (the default on one thread) and under them, and with partial
//! tables. Also the root driver, the line, proven results passed
//! between the two solvers, and the values of Peasants' Chess on six and
//! seven ranks (docs/RESULTS.md).

use crate::common::{
    gen, minimax, pn_agrees_with_minimax, reachable_positions, variants, MinimaxMemo,
};
use peasant::{index::*, rules::*, solve::*, table::*};

/// A configuration; the one-sided bound (off by default) is on with a
/// normal table and off with the one-bucket one, so both ways are checked.
fn config(hash_mb: usize, init: PnInit, epsilon: PnEpsilon) -> PnConfig {
    let search = PnConfig::default().search;
    PnConfig {
        search: SearchConfig {
            hash_mb,
            shortcuts: Shortcuts {
                bound: hash_mb > 0,
                ..search.shortcuts
            },
            ..search
        },
        init,
        epsilon,
        ..PnConfig::default()
    }
}

/// Boards whose every position is checked with every configuration,
/// including the one-bucket table.
const TINY: [(u8, u8); 4] = [(4, 4), (6, 4), (3, 5), (4, 5)];
/// Boards checked with the one-bucket table and a normal one.
const SMALL: [(u8, u8); 2] = [(5, 5), (3, 6)];

#[test]
fn pn_equals_minimax_on_tiny_boards() {
    // Weights of both signs on every kind of feature, so that some costs
    // fall below 0 and are cut there.
    let weighted: PnInit = "weights:capture=5,ranks_short=-2,lands_attacked=1,replies=3,\
        own_moves=-1,passed=2,rams=-2,threatens=-4,capture_replies=2,pawns_ahead=-3,from_rank=1"
        .parse()
        .unwrap();
    for (w, h) in TINY {
        for v in variants(w, h) {
            let mut memo = MinimaxMemo::default();
            let all = reachable_positions(v, true, 300);
            let solvers = [
                (
                    "one bucket",
                    PnSolver::new(config(0, PnInit::Guided, PnEpsilon::Stick), None).unwrap(),
                ),
                (
                    "one bucket, 1/1, plain, reads under the lock",
                    PnSolver::new(
                        PnConfig {
                            lock_free_reads: false,
                            ..config(0, PnInit::One, PnEpsilon::Plain)
                        },
                        None,
                    )
                    .unwrap(),
                ),
                (
                    "1 MiB, mobility",
                    PnSolver::new(config(1, PnInit::Mobility, PnEpsilon::Stick), None).unwrap(),
                ),
                (
                    "1 MiB, 1/1",
                    PnSolver::new(config(1, PnInit::One, PnEpsilon::Shift(0)), None).unwrap(),
                ),
                (
                    "1 MiB, guided, 1+ε",
                    PnSolver::new(config(1, PnInit::Guided, PnEpsilon::Shift(1)), None).unwrap(),
                ),
                (
                    "1 MiB, tuned",
                    PnSolver::new(config(1, PnInit::Tuned, PnEpsilon::Stick), None).unwrap(),
                ),
                (
                    "1 MiB, weighted",
                    PnSolver::new(config(1, weighted, PnEpsilon::Stick), None).unwrap(),
                ),
            ];
            assert!(pn_agrees_with_minimax(v, &all, &solvers, &mut memo) > 0);
        }
    }
}

#[test]
fn pn_equals_minimax_on_small_boards() {
    for (w, h) in SMALL {
        for v in variants(w, h) {
            let mut memo = MinimaxMemo::default();
            let all = reachable_positions(v, true, 300);
            let solvers = [
                (
                    "one bucket",
                    PnSolver::new(config(0, PnInit::Guided, PnEpsilon::Stick), None).unwrap(),
                ),
                (
                    "4 MiB",
                    PnSolver::new(config(4, PnInit::Guided, PnEpsilon::Stick), None).unwrap(),
                ),
            ];
            assert!(pn_agrees_with_minimax(v, &all, &solvers, &mut memo) > 0);
        }
    }
}

/// Bigger boards from random positions (empty files, frozen islands); from
/// every setup in the ignored test.
const BIG: [(u8, u8); 2] = [(4, 6), (3, 8)];

#[test]
fn pn_equals_minimax_on_big_boards_from_random_positions() {
    for (w, h) in BIG {
        for v in variants(w, h) {
            let mut memo = MinimaxMemo::default();
            let all = reachable_positions(v, false, 100);
            let solvers = [(
                "4 MiB",
                PnSolver::new(config(4, PnInit::Guided, PnEpsilon::Stick), None).unwrap(),
            )];
            assert!(pn_agrees_with_minimax(v, &all, &solvers, &mut memo) > 0);
        }
    }
}

/// Every position reachable from every setup of 4x6 (with the one-bucket
/// table too) and 3x8 (several minutes): `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn pn_equals_minimax_on_big_boards() {
    for (w, h) in BIG {
        for v in variants(w, h) {
            let mut memo = MinimaxMemo::default();
            let all = reachable_positions(v, true, 300);
            let mut solvers = vec![
                (
                    "16 MiB, 1/1",
                    PnSolver::new(config(16, PnInit::One, PnEpsilon::Plain), None).unwrap(),
                ),
                (
                    "16 MiB",
                    PnSolver::new(config(16, PnInit::Guided, PnEpsilon::Stick), None).unwrap(),
                ),
            ];
            if h < 8 {
                let tiny =
                    PnSolver::new(config(0, PnInit::Guided, PnEpsilon::Stick), None).unwrap();
                solvers.push(("one bucket", tiny));
            }
            assert!(pn_agrees_with_minimax(v, &all, &solvers, &mut memo) > 0);
        }
    }
}

/// With tables of the small classes only: leaves from tables, the rest
/// searched ("missing" means search on).
#[test]
fn pn_with_tables_equals_minimax() {
    for (w, h, max_pawns, setups) in [(5, 5, 5, true), (4, 6, 5, false), (3, 8, 4, false)] {
        for v in variants(w, h) {
            let name = format!("pn-{}-{}", v.board, file_name(v, Material::new(1, 1)));
            let dir = gen(v, max_pawns, &name);
            let tb = Tablebase::new(&dir, v);
            let mut memo = MinimaxMemo::default();
            let all = reachable_positions(v, setups, 100);
            let solvers = [
                (
                    "tables, 1 MiB",
                    PnSolver::new(config(1, PnInit::Guided, PnEpsilon::Stick), Some(&tb)).unwrap(),
                ),
                (
                    "tables, one bucket",
                    PnSolver::new(config(0, PnInit::One, PnEpsilon::Stick), Some(&tb)).unwrap(),
                ),
            ];
            assert!(pn_agrees_with_minimax(v, &all, &solvers, &mut memo) > 0);
            assert!(solvers[0].1.stats().table_hits > 0);
        }
    }
}

/// The root driver gives every move minimax's value (on two threads), and
/// the line keeps the value at every step to the end of the game.
#[test]
fn root_moves_and_lines() {
    for (w, h) in [(4, 4), (5, 5), (4, 6), (5, 6)] {
        for v in variants(w, h) {
            let mut memo = MinimaxMemo::default();
            for setup in ["pawngame", "pawnrace:a:e", "pawnrace:b:b"] {
                let Ok(pos) = parse_position(setup, Some(v.board), v.rules) else {
                    continue;
                };
                let solver = PnSolver::new(
                    {
                        let mut c = config(4, PnInit::Guided, PnEpsilon::Stick);
                        c.search.threads = 2;
                        c
                    },
                    None,
                )
                .unwrap();
                let root = solver.solve_root(&pos, &|_, _| {}).unwrap();
                root_is_minimax(&pos, &root, &mut memo, &format!("{v} {setup}"));
                let line = solver.line(&pos).unwrap();
                let mut p = pos;
                for m in &line {
                    let before = minimax(&p, &mut memo);
                    p = p.play(*m);
                    let after = minimax(&p, &mut memo).before_move();
                    assert_eq!(after.wdl(), before.wdl(), "{v} {setup} line {line:?}");
                }
                assert!(p.is_game_over(), "{v} {setup}: the line ends the game");
            }
        }
    }
}

/// A root solve's value and every move's value are plain minimax's, and
/// it gives a value for every legal move.
fn root_is_minimax(pos: &Position, root: &RootSolution, memo: &mut MinimaxMemo, what: &str) {
    assert_eq!(root.value.wdl, minimax(pos, memo).wdl(), "{what}");
    assert_eq!(root.moves.len(), pos.legal_moves().len(), "{what}");
    for (m, s) in &root.moves {
        let mv = minimax(&pos.play(*m), memo).before_move().wdl();
        assert_eq!(s.wdl, mv, "{what} {}", m.san());
    }
}

/// Proven results go both ways: what one solver proved, the other (and a
/// fresh solver of the same kind) takes as leaves and still gives
/// minimax's value everywhere.
#[test]
fn proven_results_seed_either_solver() {
    for v in variants(4, 5) {
        let mut memo = MinimaxMemo::default();
        let all = reachable_positions(v, true, 100);
        let pn = PnSolver::new(config(4, PnInit::Guided, PnEpsilon::Stick), None).unwrap();
        let ab = Solver::new(SolverConfig::default(), None).unwrap();
        for p in all.iter().step_by(7) {
            pn.wdl(p).unwrap();
            ab.solve(p).unwrap();
        }
        let from_pn = pn.proven();
        let from_ab = ab.proven();
        assert!(from_pn.iter().any(|p| p.score == 0));
        assert!(from_pn.iter().any(|p| p.score == 1));
        assert!(from_pn.iter().any(|p| p.score == -1));
        let bytes = encode_proven(
            ProvenKind {
                variant: v,
                dtm: false,
            },
            &from_pn,
        );
        assert!(!bytes.is_empty());
        let pn_seeded = PnSolver::new(config(4, PnInit::Guided, PnEpsilon::Stick), None).unwrap();
        pn_seeded.load_proven(&from_ab);
        pn_seeded.load_proven(&from_pn);
        let ab_seeded = Solver::new(SolverConfig::default(), None).unwrap();
        ab_seeded.load_proven(&from_pn);
        for p in &all {
            let expected = minimax(p, &mut memo).wdl();
            assert_eq!(pn_seeded.wdl(p).unwrap(), expected, "{v} pn seeded: {p}");
            assert_eq!(
                ab_seeded.solve(p).unwrap().wdl,
                expected,
                "{v} ab seeded: {p}"
            );
        }
    }
}

/// The heaviest entries of a table whose searches were stopped by their
/// budgets (unproven numbers and proofs alike), loaded into a fresh
/// table, leave every answer minimax's: a warm start of the proof manager
/// can steer a search but never mislead it.
#[test]
fn warm_starts_seed_a_fresh_table() {
    let (mut proofs, mut open) = (0, 0);
    for (w, h) in [(4, 5), (3, 6)] {
        for v in variants(w, h) {
            let mut memo = MinimaxMemo::default();
            let all = reachable_positions(v, true, 100);
            let cut = PnSolver::new(config(4, PnInit::Guided, PnEpsilon::Shift(1)), None).unwrap();
            for (i, p) in all.iter().enumerate().step_by(5) {
                let q = [Question::Wins, Question::AvoidsLoss][i % 2];
                match cut.answer(p, q, Some(10)) {
                    Ok(_) | Err(SolveError::Stopped) => {}
                    Err(e) => panic!("{e}"),
                }
            }
            let warm = cut.heaviest(3000);
            proofs += warm.iter().filter(|e| e.phi == 0 || e.delta == 0).count();
            open += warm.iter().filter(|e| e.phi > 0 && e.delta > 0).count();
            let seeded =
                PnSolver::new(config(4, PnInit::Guided, PnEpsilon::Shift(1)), None).unwrap();
            seeded.load_entries(&warm);
            for p in &all {
                let expected = minimax(p, &mut memo).wdl();
                assert_eq!(seeded.wdl(p).unwrap(), expected, "{v} seeded: {p}");
            }
        }
    }
    assert!(proofs > 1000 && open > 10, "{proofs} proofs, {open} open");
}

/// The proof a solver reads from its table (`PnSolver::proof`) is a proof
/// by minimax: each position's claim is its minimax value's; a position
/// that reaches its goal has a child in the proof that fails it (unless
/// it ends the proof), one that fails has all its children in the proof.
/// Tables of one bucket (entries lost all the time, searched again) and
/// of 1 MiB.
#[test]
fn proofs_read_from_the_table_hold_by_minimax() {
    let (mut steps, mut leaves) = (0, 0);
    for (w, h) in [(4, 5), (3, 6)] {
        for v in variants(w, h) {
            let mut memo = MinimaxMemo::default();
            let all = reachable_positions(v, true, 100);
            for mb in [0, 1] {
                let solver =
                    PnSolver::new(config(mb, PnInit::Guided, PnEpsilon::Stick), None).unwrap();
                for (i, p) in all.iter().enumerate().step_by(7) {
                    let q = [Question::Wins, Question::AvoidsLoss][i % 2];
                    let answer = solver.answer(p, q, None).unwrap();
                    let proof = solver.proof(p, q).unwrap();
                    let attacker = q == Question::Wins;
                    if p.winner_by_rule().is_some() {
                        assert!(proof.is_empty());
                        continue;
                    }
                    assert_eq!(proof[0].pos, canonical(p), "{v} {p}");
                    assert_eq!(
                        (proof[0].attacker_to_move, proof[0].reaches),
                        (attacker, answer)
                    );
                    let claim: std::collections::HashMap<(Position, bool), bool> = proof
                        .iter()
                        .map(|s| ((s.pos, s.attacker_to_move), s.reaches))
                        .collect();
                    assert_eq!(claim.len(), proof.len(), "{v} {p}: a position twice");
                    for s in &proof {
                        let value = minimax(&s.pos, &mut memo).wdl();
                        let reaches = if s.attacker_to_move {
                            value == Wdl::Win
                        } else {
                            value != Wdl::Loss
                        };
                        assert_eq!(
                            s.reaches, reaches,
                            "{v} {p}: {} claims {}",
                            s.pos, s.reaches
                        );
                        steps += 1;
                        if s.leaf {
                            leaves += 1;
                            continue;
                        }
                        let children: Vec<Option<bool>> = s
                            .pos
                            .legal_moves()
                            .iter()
                            .map(|&m| {
                                let c = s.pos.play(m);
                                claim.get(&(canonical(&c), !s.attacker_to_move)).copied()
                            })
                            .collect();
                        if s.reaches {
                            assert!(
                                children.contains(&Some(false)),
                                "{v} {p}: {} unproven",
                                s.pos
                            );
                        } else {
                            assert!(
                                children.iter().all(|&c| c == Some(true)),
                                "{v} {p}: {} misses a child",
                                s.pos
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(
        steps > 10_000 && leaves > 1000,
        "{steps} steps, {leaves} leaves"
    );
}

/// Searches steered clear of where other ranks' searches are
/// (`PnSolver::steer_clear_of`, `prove --share-every` without
/// `--no-share-paths`) choose other children, never other answers. Every
/// position of the tiny boards, both questions, against minimax, with
/// half of all positions (both questions of each) to steer clear of, in a
/// table of one bucket; and the pawn game and Peasants' Chess 6x6 and
/// every position a move from them, against the plain search, in steps of
/// 64 nodes, each step steered clear of the path the last one stopped in,
/// so that the search turns from its own line at every step. (Each step goes down again from the position,
/// at the cost of a path: steps must be longer than paths, as `prove
/// --share-every` makes them, 1,000 nodes or more.)
#[test]
fn steered_pn_equals_minimax() {
    use std::sync::Arc;
    for (w, h) in TINY {
        for v in variants(w, h) {
            let mut memo = MinimaxMemo::default();
            let all = reachable_positions(v, true, 300);
            let half: KeySet = all
                .iter()
                .step_by(2)
                .flat_map(|p| {
                    let k = position_key(&canonical(p));
                    [k, k | 1]
                })
                .collect();
            let whole = PnSolver::new(config(0, PnInit::Guided, PnEpsilon::Stick), None).unwrap();
            whole.steer_clear_of(Some(Arc::new(half)));
            for p in &all {
                let expected = minimax(p, &mut memo).wdl();
                let wins = whole.answer(p, Question::Wins, None).unwrap();
                assert_eq!(wins, expected == Wdl::Win, "{v}: {p}");
                let holds = whole.answer(p, Question::AvoidsLoss, None).unwrap();
                assert_eq!(holds, expected != Wdl::Loss, "{v}: {p}");
            }
        }
    }
    let mut steps = 0;
    for v in variants(6, 6) {
        for game in ["pawngame", "peasants"] {
            let root = parse_position(game, Some(v.board), v.rules).unwrap();
            let mut positions = vec![root];
            positions.extend(root.legal_moves().iter().map(|&m| root.play(m)));
            for p in positions.iter().filter(|p| p.outcome().is_none()) {
                for q in [Question::Wins, Question::AvoidsLoss] {
                    let plain = PnSolver::new(config(1, PnInit::Guided, PnEpsilon::Stick), None);
                    let expected = plain.unwrap().answer(p, q, None).unwrap();
                    let stepped =
                        PnSolver::new(config(1, PnInit::Guided, PnEpsilon::Stick), None).unwrap();
                    stepped.track_path(true);
                    let answer = loop {
                        match stepped.answer(p, q, Some(64)) {
                            Ok(a) => break a,
                            Err(SolveError::Stopped) => {
                                steps += 1;
                                let path = stepped.stopped_path();
                                assert!(!path.is_empty(), "{v}: a stop leaves its path");
                                stepped.steer_clear_of(Some(Arc::new(path.into_iter().collect())));
                            }
                            Err(e) => panic!("{v} {q:?}: {p}: {e}"),
                        }
                    };
                    assert_eq!(answer, expected, "{v} {q:?}: {p}");
                    assert!(stepped.stopped_path().is_empty(), "{v}: an answer has none");
                }
            }
        }
    }
    assert!(steps > 100, "{steps} steps: too few searches ran past one");
}

/// A node budget stops the search with `Stopped`; the solver's results so
/// far stay right.
#[test]
fn budget_stops() {
    let v = Variant::new(Board::new(5, 6).unwrap(), Rules::default());
    let pos = parse_position("pawngame", Some(v.board), v.rules).unwrap();
    let solver = PnSolver::new(
        PnConfig {
            search: SearchConfig {
                max_nodes: Some(100),
                ..PnConfig::default().search
            },
            ..PnConfig::default()
        },
        None,
    )
    .unwrap();
    assert!(matches!(
        solver.solve_root(&pos, &|_, _| {}),
        Err(SolveError::Stopped)
    ));
    assert!(solver.stats().nodes >= 100);
}

#[test]
fn worked_examples() {
    let wdl = |text: &str, board: &str, srw: bool| {
        let rules = Rules {
            en_passant: true,
            seventh_rank_wins: srw,
        };
        let pos = parse_position(text, Some(board.parse().unwrap()), rules).unwrap();
        let solver = PnSolver::new(PnConfig::default(), None).unwrap();
        let root = solver.solve_root(&pos, &|_, _| {}).unwrap();
        assert_eq!(root.value.wdl, solver.wdl(&pos).unwrap());
        root.value.wdl
    };
    assert_eq!(wdl("3/2p/ppP/3/3 b -", "3x5", false), Wdl::Draw);
    assert_eq!(wdl("3/2p/ppP/3/3 b -", "3x5", true), Wdl::Win);
    assert_eq!(wdl("pawngame", "5x5", false), Wdl::Draw);
    assert_eq!(wdl("pawngame", "5x5", true), Wdl::Win);
    assert_eq!(wdl("pawngame", "4x4", false), Wdl::Loss);
}

/// Peasants' Chess on boards of six and seven ranks, the results of
/// docs/RESULTS.md (a draw after every first move): every first move's
/// value by the proof-number search against plain minimax where the
/// whole game is small enough to walk, and against alpha-beta (the other
/// search, with its own order and cutoffs) on the wider boards, up to 8x6
/// and 5x7.
#[test]
fn peasants_on_short_boards() {
    let root = |pos: &Position| {
        let solver = PnSolver::new(PnConfig::default(), None).unwrap();
        solver.solve_root(pos, &|_, _| {}).unwrap()
    };
    for (w, h) in [(2, 6), (3, 6), (4, 6), (1, 7), (2, 7), (3, 7)] {
        let t = std::time::Instant::now();
        let v = variants(w, h)[0];
        let pos = parse_position("peasants", Some(v.board), v.rules).unwrap();
        let mut memo = MinimaxMemo::default();
        let pn = root(&pos);
        root_is_minimax(&pos, &pn, &mut memo, &v.to_string());
        assert_eq!(pn.value.wdl, Wdl::Draw, "{v}");
        for (m, s) in &pn.moves {
            assert_eq!(s.wdl, Wdl::Draw, "{v} {}", m.san());
        }
        eprintln!("{v} minimax {} positions {:?}", memo.len(), t.elapsed());
    }
    for (w, h) in [(5, 6), (6, 6), (7, 6), (8, 6), (4, 7), (5, 7)] {
        let t = std::time::Instant::now();
        let v = variants(w, h)[0];
        let pos = parse_position("peasants", Some(v.board), v.rules).unwrap();
        let pn = root(&pos);
        let ab = Solver::new(SolverConfig::default(), None)
            .unwrap()
            .solve_root(&pos, &|_, _| {})
            .unwrap();
        assert_eq!(pn.value.wdl, Wdl::Draw, "{v}");
        assert_eq!(ab.value.wdl, Wdl::Draw, "{v}");
        assert_eq!(pn.moves.len(), pos.legal_moves().len(), "{v}");
        for (m, s) in &pn.moves {
            let other = ab.moves.iter().find(|(n, _)| n == m).unwrap();
            assert_eq!(s.wdl, other.1.wdl, "{v} {}", m.san());
            assert_eq!(s.wdl, Wdl::Draw, "{v} {}", m.san());
        }
        eprintln!("{v} ab and pn {:?}", t.elapsed());
    }
}
