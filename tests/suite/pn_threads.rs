//! Several threads on one proof-number question (`search.threads` > 1):
//! the threads share one transposition table, steer away from the nodes the
//! others are in and go back where another has solved a node above them;
//! a position's value puts half of them on each of its two questions.
//! Values must be those of plain minimax on every position of small boards
//! and those of the one-thread search on bigger questions; only the nodes
//! may differ. A thread that trusts a wrong "solved" notice, or stores one,
//! gives a wrong value here.

use crate::common::{
    bigger_questions, pn_agrees_with_minimax, reachable_positions, stops_at_its_budget_and_goes_on,
    variants, MinimaxMemo,
};
use peasant::{rules::*, solve::*};

fn config(hash_mb: usize, threads: usize, spread: bool) -> PnConfig {
    let d = PnConfig::default();
    PnConfig {
        search: SearchConfig {
            hash_mb,
            threads,
            ..d.search
        },
        spread,
        ..d
    }
}

/// `c` with its threads steering away from one another at every node, not
/// only where a move has failed (`PnConfig::spread_every`).
fn everywhere(c: PnConfig) -> PnConfig {
    PnConfig {
        spread_every: true,
        ..c
    }
}

/// `c` with its threads steering away from one another also at every
/// node of the attacker (`PnConfig::spread_attacker`).
fn at_the_attackers(c: PnConfig) -> PnConfig {
    PnConfig {
        spread_attacker: true,
        ..c
    }
}

/// `c` with its threads taking turns of `k` nodes, one at a time, each
/// round's turns kept apart (`PnConfig::turns`, `solve --emulate-turns`).
fn in_turns_of(c: PnConfig, k: u64) -> PnConfig {
    PnConfig {
        turns: Some(k),
        ..c
    }
}

/// Every configuration gives minimax's value on every position reachable
/// from every setup of the board (and from random positions), each solver
/// keeping its transposition table from one position to the next.
fn check_board(w: u8, h: u8, randoms: usize, configs: &[(&str, PnConfig)]) {
    check_every(w, h, randoms, 1, configs);
}

/// [`check_board`] on every `stride`th position.
fn check_every(w: u8, h: u8, randoms: usize, stride: usize, configs: &[(&str, PnConfig)]) {
    for v in variants(w, h) {
        let mut memo = MinimaxMemo::default();
        let all: Vec<_> = reachable_positions(v, true, randoms)
            .into_iter()
            .step_by(stride)
            .collect();
        assert!(!all.is_empty());
        let solvers: Vec<(&str, PnSolver)> = configs
            .iter()
            .map(|&(name, c)| (name, PnSolver::new(c, None).unwrap()))
            .collect();
        // Both questions at once, then each on its own.
        assert!(pn_agrees_with_minimax(v, &all, &solvers, &mut memo) > 0);
    }
}

#[test]
fn threads_equal_minimax_on_tiny_boards() {
    for (w, h) in [(4, 4), (6, 4), (3, 5), (4, 5)] {
        check_board(
            w,
            h,
            100,
            &[
                ("2 threads, one bucket", config(0, 2, true)),
                ("4 threads, 1 MiB", config(1, 4, true)),
                ("3 threads, 1 MiB, no spread", config(1, 3, false)),
                (
                    "4 threads, 1 MiB, spread everywhere",
                    everywhere(config(1, 4, true)),
                ),
                (
                    "3 threads, 1 MiB, spread at the attacker's nodes",
                    at_the_attackers(config(1, 3, true)),
                ),
            ],
        );
    }
}

/// The boards of `threads_equal_minimax_on_tiny_boards` a size up. Their
/// tables are of 1 MiB at least: four threads on one bucket searched
/// these boards again and again, waiting on its lock for a minute of the
/// suite; the tiny boards test the bucket.
#[test]
fn threads_equal_minimax_on_small_boards() {
    for (w, h) in [(5, 5), (3, 6)] {
        check_board(
            w,
            h,
            100,
            &[
                ("4 threads, 1 MiB", config(1, 4, true)),
                ("3 threads, 4 MiB", config(4, 3, true)),
                (
                    "4 threads, 1 MiB, spread everywhere",
                    everywhere(config(1, 4, true)),
                ),
            ],
        );
    }
}

/// Threads taking turns, one at a time, each round's turns kept apart
/// (`PnConfig::turns`): turns of one node make three threads meet at
/// every node, turns of 25 make four meet inside one another's subtrees.
/// Each hands the turn on through a lock and a signal, thousands of times
/// a question: every 3rd position of the tiny boards, every 5th of the
/// small ones.
#[test]
fn threads_in_turns_equal_minimax() {
    for (w, h) in [(4, 4), (6, 4), (3, 5), (4, 5)] {
        check_every(
            w,
            h,
            100,
            3,
            &[(
                "3 threads in turns of 1 node",
                in_turns_of(config(1, 3, true), 1),
            )],
        );
    }
    for (w, h) in [(5, 5), (3, 6)] {
        check_every(
            w,
            h,
            100,
            5,
            &[(
                "4 threads in turns of 25 nodes",
                in_turns_of(config(1, 4, true), 25),
            )],
        );
    }
}

/// Questions big enough that the threads meet in the same subtrees many
/// times: each thread count's values are the one-thread search's, both
/// questions of every first move of each setup.
#[test]
fn threads_equal_one_thread_on_bigger_questions() {
    for (v, positions) in bigger_questions() {
        let one = PnSolver::new(config(16, 1, true), None).unwrap();
        let teams: Vec<_> = [
            (2, true, None),
            (4, true, None),
            (8, true, None),
            (4, false, None),
            (8, true, Some(64)),
        ]
        .iter()
        .map(|&(t, spread, turns)| {
            let c = PnConfig {
                turns,
                ..config(16, t, spread)
            };
            (t, spread, PnSolver::new(c, None).unwrap())
        })
        .collect();
        for p in &positions {
            let expected = one.wdl(p).unwrap();
            for (t, spread, s) in &teams {
                assert_eq!(
                    s.wdl(p).unwrap(),
                    expected,
                    "{v} {t} threads, spread {spread}: {p}"
                );
            }
        }
        for (t, _, s) in &teams {
            assert!(s.stats().nodes > 0, "{t} threads searched");
        }
    }
}

/// A team stopped by its node budget says so, and the same solver asked
/// again with more budget finishes with the one-thread answer: what the
/// threads proved stays in the table.
#[test]
fn a_team_stops_at_its_budget_and_goes_on() {
    let start = parse_position("peasants", Some(Board::new(5, 7).unwrap()), Rules::ALL[0]).unwrap();
    let one = PnSolver::new(config(16, 1, true), None).unwrap();
    let expected = one.answer(&start, Question::AvoidsLoss, None).unwrap();
    let team = PnSolver::new(config(16, 4, true), None).unwrap();
    stops_at_its_budget_and_goes_on(&team, &start, expected, 4 * 8_192);
    // Threads in turns of 100 nodes count their nodes as they pass the
    // turn and look at the budget when it comes back, so they stop within
    // a turn of each (mutant: neither, and they went on for thousands).
    let turns = PnSolver::new(in_turns_of(config(16, 4, true), 100), None).unwrap();
    stops_at_its_budget_and_goes_on(&turns, &start, expected, 4 * 100);
}

/// Threads in turns (`PnConfig::turns`) are the same search on every
/// run, and their makespan is the answering thread's share of the work.
/// Threads that ignore one another (no spread) in turns kept apart follow
/// one another node for node: their makespan is one thread's nodes, as
/// on a real machine such threads gain nothing. A turn that read what
/// another stored in the same round would go on where that one stopped,
/// and such threads would look several times faster than one.
#[test]
fn turns_repeat_node_for_node_and_ignoring_threads_gain_nothing() {
    let board = Board::new(4, 7).unwrap();
    let start = parse_position("peasants", Some(board), Rules::ALL[0]).unwrap();
    let one = PnSolver::new(config(16, 1, true), None).unwrap();
    let expected = one.answer(&start, Question::AvoidsLoss, None).unwrap();
    let alone = one.stats().nodes;
    assert!(alone > 3_000, "{alone}");
    assert_eq!(one.makespan(), None);
    let run = |spread: bool| {
        let s = PnSolver::new(in_turns_of(config(16, 4, spread), 50), None).unwrap();
        let answer = s.answer(&start, Question::AvoidsLoss, None).unwrap();
        (answer, s.stats().nodes, s.makespan().unwrap())
    };
    let first = run(true);
    assert_eq!(run(true), first);
    let (answer, work, span) = first;
    assert_eq!(answer, expected);
    assert!(
        span * 2 < alone,
        "makespan {span} of {work}, one thread {alone}"
    );
    // Spreading also at the attacker's nodes is another search: the
    // same answer in another makespan.
    let s = PnSolver::new(at_the_attackers(in_turns_of(config(16, 4, true), 50)), None).unwrap();
    assert_eq!(
        s.answer(&start, Question::AvoidsLoss, None).unwrap(),
        expected
    );
    assert_ne!(s.makespan().unwrap(), span, "the attacker's nodes spread");
    let (answer, work, span) = run(false);
    assert_eq!(answer, expected);
    assert!(
        span * 10 >= alone * 9,
        "threads that ignore one another: makespan {span} of {work}, one thread {alone}"
    );
}

/// Threads taking turns on one question in steps, as an emulated worker
/// of several threads runs its job (`prove --emulate N --threads T`,
/// `JobSolver::in_turns`): each step a search of the threads in turns
/// (`PnConfig::turns`) stopped at a budget of nodes, the next starting
/// them again from the root on what the table kept. Minimax's answer to
/// both questions on every position reachable from every setup of the
/// board (and random positions). The steps' budgets start at one node
/// and grow by one node and a sixteenth a step, so that a question
/// takes many steps rather than ending in the first. One solver keeps
/// its table from one question to the next, as a worker does between
/// jobs; every 50th position is asked of a fresh solver as well, whose
/// table knows nothing of it, so that the steps search it from the
/// start. Mutant: the last round's stores of a step put into the table
/// at its end with φ and δ swapped.
#[test]
fn threads_in_turns_stopped_in_steps_equal_minimax_on_small_boards() {
    let (mut fresh, mut past_first_step, mut most_steps) = (0u64, 0u64, 0);
    for (w, h) in [(4, 4), (6, 4), (3, 5), (4, 5), (5, 5), (3, 6)] {
        for v in variants(w, h) {
            let mut memo = MinimaxMemo::default();
            let all = reachable_positions(v, true, 100);
            assert!(!all.is_empty());
            // A table of one bucket (`hash_mb` 0) forgets nearly all it
            // is told: on 5x5 and 3x6 the searches it makes again took
            // two minutes of the suite (a thread's turn of one node waits
            // for the other's wake-up), so there both tables are of 1 MiB.
            let least_mb = usize::from(matches!((w, h), (5, 5) | (3, 6)));
            for (threads, turn, hash_mb) in [(2, 1, least_mb), (3, 2, 1)] {
                let c = in_turns_of(config(hash_mb, threads, true), turn);
                let kept = PnSolver::new(c, None).unwrap();
                for (k, p) in all.iter().enumerate() {
                    let wdl = crate::common::minimax(p, &mut memo).wdl();
                    let new = (k % 50 == 0).then(|| PnSolver::new(c, None).unwrap());
                    let solvers = [(Some(&kept), false), (new.as_ref(), true)];
                    for (s, is_fresh) in solvers.into_iter().filter_map(|(s, f)| Some((s?, f))) {
                        for (question, want) in [
                            (Question::Wins, wdl == Wdl::Win),
                            (Question::AvoidsLoss, wdl != Wdl::Loss),
                        ] {
                            let (got, steps) = in_steps(s, p, question);
                            assert_eq!(got, want, "{v} {threads} threads {question:?}: {p}");
                            if is_fresh {
                                fresh += 1;
                                past_first_step += (steps > 1) as u64;
                                most_steps = most_steps.max(steps);
                            }
                        }
                    }
                }
            }
        }
    }
    // Hundreds of questions asked afresh took several steps (most are
    // settled at the root by the rules' shortcuts: a free runner, a dead
    // position, every move lost).
    eprintln!("{past_first_step} of {fresh} fresh questions past their first step, at most {most_steps} steps");
    assert!(past_first_step >= 500, "{past_first_step} of {fresh}");
    assert!(most_steps >= 20, "{most_steps}");
}

/// The answer to `question` about `p` by the threads in turns of `s`, in
/// steps of budgets that grow by one node and a sixteenth, and how many
/// steps it took.
fn in_steps(s: &PnSolver, p: &Position, question: Question) -> (bool, usize) {
    let mut budget = 1u64;
    for i in 1.. {
        match s.answer(p, question, Some(budget)) {
            Err(SolveError::Stopped) => {}
            r => return (r.unwrap(), i),
        }
        budget += 1 + budget / 16;
    }
    unreachable!("the steps' budgets grow without end")
}
