//! Several threads on one alpha-beta question (`search.threads` > 1, a
//! value only or one question): the threads share one transposition
//! table, each puts off the moves another thread is searching and comes
//! back to them after the others (ABDADA), and the first to finish calls
//! the others off. Values must be those of plain minimax on every
//! position of small boards, and those of the one-thread search on bigger
//! questions; only the nodes may differ. Threads taking turns of one or
//! two nodes (`SolverConfig::turns`) meet at every node, the same way on
//! every machine: a thread that never comes back to a move it put off, or
//! takes a call-off for an answer, gives a wrong value here.

use crate::common::{
    bigger_questions, minimax, reachable_positions, stops_at_its_budget_and_goes_on, variants,
    MinimaxMemo,
};
use peasant::{rules::*, solve::*};

fn config(threads: usize, defer_plies: usize, turns: Option<u64>) -> SolverConfig {
    let d = SolverConfig::default();
    SolverConfig {
        search: SearchConfig {
            hash_mb: 1,
            threads,
            ..d.search
        },
        defer_plies,
        turns,
        ..d
    }
}

/// The configurations of threads on one question the tests compare on
/// each position: turns of one or two nodes make the threads meet at
/// every node.
fn teams() -> Vec<(&'static str, SolverConfig)> {
    vec![
        (
            "3 threads in turns of 1 node",
            config(3, DEFER_PLIES, Some(1)),
        ),
        (
            "2 threads in turns of 2 nodes, no deferral",
            config(2, 0, Some(2)),
        ),
    ]
}

/// Every configuration's value, with a best move that keeps it, is
/// minimax's on every `stride`-th position reachable from every setup of
/// the board (and from random positions): every fifth of the tiny
/// boards', every 29th of the small ones' here (a few thousand
/// questions), every one in the ignored test. Every seventh of them also
/// asks both questions on their own, and of 2 and 4 threads searching
/// side by side. Each solver keeps its transposition table from one
/// position to the next.
fn check_board(w: u8, h: u8, randoms: usize, stride: usize) -> usize {
    let mut asked = 0;
    for v in variants(w, h) {
        let mut memo = MinimaxMemo::default();
        let all = reachable_positions(v, true, randoms);
        assert!(!all.is_empty());
        let solvers: Vec<(&str, Solver)> = teams()
            .into_iter()
            .chain([
                ("2 threads", config(2, DEFER_PLIES, None)),
                (
                    "4 threads in turns of 2 nodes",
                    config(4, DEFER_PLIES, Some(2)),
                ),
            ])
            .map(|(name, c)| (name, Solver::new(c, None).unwrap()))
            .collect();
        let playable = all.iter().filter(|p| p.outcome().is_none());
        for (k, p) in playable.step_by(stride).enumerate() {
            let want = minimax(p, &mut memo).wdl();
            let now = if k % 7 == 0 {
                &solvers[..]
            } else {
                &solvers[..2]
            };
            for (name, s) in now {
                let root = s.solve_value(p, &|_, _| {}).unwrap();
                assert_eq!(root.value.wdl, want, "{v} {name}: {p}");
                let (m, mv) = root.moves[0];
                assert_eq!(mv.wdl, want, "{v} {name}: {p} {}", m.san());
                let after = minimax(&p.play(m), &mut memo).before_move().wdl();
                assert_eq!(after, want, "{v} {name}: {p} best move {}", m.san());
                asked += 1;
                if k % 7 != 0 {
                    continue;
                }
                for (question, yes) in [
                    (Question::Wins, want == Wdl::Win),
                    (Question::AvoidsLoss, want != Wdl::Loss),
                ] {
                    assert_eq!(
                        s.answer(p, question, None).unwrap(),
                        yes,
                        "{v} {name} {question:?}: {p}"
                    );
                }
            }
        }
    }
    asked
}

#[test]
fn threads_equal_minimax_on_tiny_boards() {
    for (w, h) in [(4, 4), (6, 4), (3, 5), (4, 5)] {
        assert!(check_board(w, h, 100, 5) > 0);
    }
}

#[test]
fn threads_equal_minimax_on_small_boards() {
    for (w, h) in [(5, 5), (3, 6)] {
        assert!(check_board(w, h, 100, 29) > 0);
    }
}

/// Every position of the tiny and small boards (threads that take turns
/// of a node hand over to one another at every node, which the operating
/// system makes slow: minutes, `cargo test --release --test suite
/// ab_threads:: -- --ignored`).
#[test]
#[ignore]
fn threads_equal_minimax_on_every_position() {
    for (w, h) in [(4, 4), (6, 4), (3, 5), (4, 5), (5, 5), (3, 6)] {
        assert!(check_board(w, h, 100, 1) > 0);
    }
}

/// Questions big enough that the threads put moves off and meet in the
/// same subtrees many times: each team's values are the one-thread
/// search's, for the setup and every first move.
#[test]
fn threads_equal_one_thread_on_bigger_questions() {
    for (v, positions) in bigger_questions() {
        let one = Solver::new(config(1, DEFER_PLIES, None), None).unwrap();
        let teams: Vec<_> = [
            ("4 threads", config(4, DEFER_PLIES, None)),
            ("8 threads in turns of 64", config(8, DEFER_PLIES, Some(64))),
            ("16 threads in turns of 1,000", config(16, 8, Some(1_000))),
        ]
        .into_iter()
        .map(|(name, c)| (name, Solver::new(c, None).unwrap()))
        .collect();
        for p in positions.iter().filter(|p| p.outcome().is_none()) {
            let expected = one.solve_value(p, &|_, _| {}).unwrap().value.wdl;
            for (name, s) in &teams {
                let got = s.solve_value(p, &|_, _| {}).unwrap().value.wdl;
                assert_eq!(got, expected, "{v} {name}: {p}");
            }
        }
        for (name, s) in &teams {
            assert!(s.stats().nodes > 0, "{name} searched");
        }
    }
}

/// Threads in turns are the same search on every run (the emulation's
/// figures can be checked), and their makespan is the finishing thread's
/// share: far below the work of all of them, and no more than it.
#[test]
fn turns_repeat_node_for_node() {
    let board = Board::new(5, 6).unwrap();
    let start = parse_position("pawngame", Some(board), Rules::ALL[0]).unwrap();
    let run = || {
        let s = Solver::new(config(8, DEFER_PLIES, Some(500)), None).unwrap();
        let v = s.solve_value(&start, &|_, _| {}).unwrap().value.wdl;
        (v, s.stats().nodes, s.makespan().unwrap())
    };
    let first = run();
    assert_eq!(run(), first);
    let (_, work, span) = first;
    assert!(span < work / 4, "makespan {span} of {work}");
    let alone = Solver::new(config(1, DEFER_PLIES, None), None).unwrap();
    assert_eq!(alone.makespan(), None);
}

/// A team stopped by its node budget says so, and the same solver asked
/// again with more budget finishes with the one-thread answer: what the
/// threads proved stays in the table.
#[test]
fn a_team_stops_at_its_budget_and_goes_on() {
    let board = Board::new(4, 7).unwrap();
    let start = parse_position("peasants", Some(board), Rules::ALL[0]).unwrap();
    let one = Solver::new(config(1, DEFER_PLIES, None), None).unwrap();
    let expected = one.answer(&start, Question::AvoidsLoss, None).unwrap();
    assert!(one.stats().nodes > 20_000, "{}", one.stats().nodes);
    for c in [
        config(4, DEFER_PLIES, None),
        config(4, DEFER_PLIES, Some(100)),
    ] {
        let team = Solver::new(c, None).unwrap();
        stops_at_its_budget_and_goes_on(&team, &start, expected, 4 * 4_096);
    }
}
