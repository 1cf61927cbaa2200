//! `solve --value-only` and the line of play, against plain exhaustive
//! minimax on positions reachable from every setup of small boards (and
//! random ones) under every rule set, for both solvers: the value-only root
//! search gives the position's value, every move it reports carries that
//! move's own value and the first is a best move; every move of a line keeps
//! the position's value (in DTM mode its exact distance, so a line wins
//! fastest and loses slowest) and the line runs to the end of the game.

use crate::common::{minimax, reachable_positions as positions, variants, MinimaxMemo};
use peasant::{rules::*, solve::*};

/// Checks a value-only `root` of `p`, and its `line` if there is one,
/// against minimax; `exact` when the solver gives DTM values (then lines
/// must keep the exact value).
fn check(
    p: &Position,
    root: &RootSolution,
    line: Option<&[Move]>,
    exact: bool,
    memo: &mut MinimaxMemo,
    what: &str,
) {
    let expected = minimax(p, memo);
    assert_eq!(root.value.wdl, expected.wdl(), "{what}: value of {p}");
    if exact {
        assert_eq!(root.value.value, Some(expected), "{what}: value of {p}");
    }
    assert!(!root.moves.is_empty(), "{what}: no best move for {p}");
    assert_eq!(root.moves[0].1, root.value, "{what}: first move of {p}");
    for (m, s) in &root.moves {
        let mv = minimax(&p.play(*m), memo).before_move();
        assert_eq!(s.wdl, mv.wdl(), "{what}: {p} {}", m.san());
        if exact {
            assert_eq!(s.value, Some(mv), "{what}: {p} {}", m.san());
        }
    }
    let Some(line) = line else { return };
    let mut q = *p;
    let mut value = expected;
    for m in line {
        assert!(
            !q.is_game_over(),
            "{what}: line of {p} goes on after the end"
        );
        let next = q.play(*m);
        let kept = minimax(&next, memo).before_move();
        if exact {
            assert_eq!(kept, value, "{what}: line of {p}: {} at {q}", m.san());
        } else {
            assert_eq!(
                kept.wdl(),
                value.wdl(),
                "{what}: line of {p}: {} at {q}",
                m.san()
            );
        }
        q = next;
        value = minimax(&q, memo);
    }
    assert!(q.is_game_over(), "{what}: line of {p} stops before the end");
}

fn check_board(v: Variant, setups: bool, randoms: usize) -> usize {
    let mut memo = MinimaxMemo::default();
    let all: Vec<Position> = positions(v, setups, randoms)
        .into_iter()
        .filter(|p| !p.is_game_over())
        .collect();
    let ab = |dtm| {
        Solver::new(
            SolverConfig {
                search: SearchConfig {
                    hash_mb: 4,
                    ..SolverConfig::default().search
                },
                dtm,
                ..SolverConfig::default()
            },
            None,
        )
        .unwrap()
    };
    let (wdl, dtm) = (ab(false), ab(true));
    let pn = PnSolver::new(
        PnConfig {
            search: SearchConfig {
                hash_mb: 4,
                ..PnConfig::default().search
            },
            ..PnConfig::default()
        },
        None,
    )
    .unwrap();
    let none = |_: Move, _: Solution| {};
    type Root<'a> = &'a dyn Fn(&Position) -> Result<RootSolution, SolveError>;
    type Line<'a> = &'a dyn Fn(&Position) -> Result<Vec<Move>, SolveError>;
    let solvers: [(&str, bool, Root, Line); 3] = [
        ("ab", false, &|p| wdl.solve_value(p, &none), &|p| {
            wdl.line(p)
        }),
        ("ab dtm", true, &|p| dtm.solve_value(p, &none), &|p| {
            dtm.line(p)
        }),
        ("pn", false, &|p| pn.solve_value(p, &none), &|p| pn.line(p)),
    ];
    for (i, p) in all.iter().enumerate() {
        // Lines are long: those of every seventh position are enough.
        let with_line = i % 7 == 0;
        for (name, exact, root, line) in &solvers {
            let r = root(p).unwrap();
            let l = with_line.then(|| line(p).unwrap());
            check(
                p,
                &r,
                l.as_deref(),
                *exact,
                &mut memo,
                &format!("{v} {name}"),
            );
        }
    }
    all.len()
}

#[test]
fn value_only_and_lines_equal_minimax() {
    for (w, h) in [(4, 4), (6, 4), (3, 5), (4, 5), (5, 5), (3, 6)] {
        for v in variants(w, h) {
            assert!(check_board(v, true, 100) > 0);
        }
    }
    for (w, h) in [(4, 6), (3, 8)] {
        for v in variants(w, h) {
            assert!(check_board(v, false, 100) > 0);
        }
    }
}

/// The proof-number value-only search takes its best move from what the
/// search of the value proved (the table's solved entries, the leaf
/// knowledge) and searches no further for it: a fresh solver's
/// `solve_value` makes exactly the nodes a fresh solver's `wdl` makes,
/// wherever the value was searched (a root the leaf knowledge settles has
/// no proof to take a move from), and the move keeps the value (against
/// minimax). Asking the moves in order instead searched a losing move's
/// refutation first (Peasants' Chess 6x8-d: 57.1 M nodes for 47.1 M).
#[test]
fn the_value_only_move_costs_no_search() {
    let config = PnConfig {
        search: SearchConfig {
            hash_mb: 16,
            ..PnConfig::default().search
        },
        ..PnConfig::default()
    };
    let (mut searched, mut checked) = (0, 0);
    for (w, h, setups) in [
        (5, 5, true),
        (6, 4, true),
        (3, 6, true),
        (4, 6, false),
        (3, 8, false),
    ] {
        for v in variants(w, h) {
            let mut memo = MinimaxMemo::default();
            for p in positions(v, setups, 60) {
                if p.is_game_over() {
                    continue;
                }
                let value = PnSolver::new(config, None).unwrap();
                value.wdl(&p).unwrap();
                let nodes = value.stats().nodes;
                let root = PnSolver::new(config, None).unwrap();
                let r = root.solve_value(&p, &|_, _| {}).unwrap();
                check(
                    &p,
                    &r,
                    None,
                    false,
                    &mut memo,
                    &format!("{v} pn value-only"),
                );
                checked += 1;
                if nodes > 0 {
                    assert_eq!(root.stats().nodes, nodes, "{v}: {p}");
                    searched += 1;
                }
            }
        }
    }
    // (Most roots are settled by the leaf knowledge; enough are searched.)
    assert!(searched >= 10_000, "{searched} of {checked} searched");
}
