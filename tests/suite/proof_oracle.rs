//! The proof oracle (`ProofOracle`, `examples/proof_oracle.rs`), which says
//! how small the proof-number search's proofs could be, against a second,
//! naive count: every position reachable on tiny boards, both questions,
//! the oracle's answer against minimax and its least proof (as a tree)
//! against a plain recursion without memo that applies the same knowledge
//! through the public rules; and a search ordered by the oracle keeps every
//! value and, on two small games, spends fewer nodes than the guided one.

use crate::common::{minimax, reachable_positions, variants, MinimaxMemo};
use peasant::rules::*;
use peasant::solve::*;
use std::sync::Arc;

/// A solver of one table bucket: with the shortcuts of the default
/// configuration, or with none (the rule of fact 3 alone).
fn solver(shortcuts: bool) -> PnSolver<'static> {
    let search = PnConfig::default().search;
    let shortcuts = if shortcuts {
        search.shortcuts
    } else {
        Shortcuts::NONE
    };
    PnSolver::new(
        PnConfig {
            search: SearchConfig {
                hash_mb: 0,
                shortcuts,
                ..search
            },
            ..PnConfig::default()
        },
        None,
    )
    .unwrap()
}

/// Whether the side to move reaches its goal: the attacker must win, the
/// defender must not lose.
fn reaches(v: Wdl, attacker: bool) -> bool {
    if attacker {
        v == Wdl::Win
    } else {
        v != Wdl::Loss
    }
}

/// The value of the canonical `pos` if the search's leaf knowledge knows it
/// (the rule of fact 3, and with `shortcuts` that rule a move ahead for
/// either side and two moves ahead, the race, either side's free runner
/// and dead positions; with an en passant right, with `shortcuts`, a win
/// that the rules give the same pawns without the right or fact 3 two
/// moves ahead with the capture, and a loss they give them where every
/// capture en passant reaches a position they call won for its mover).
fn known(pos: &Position, shortcuts: bool) -> Option<Wdl> {
    if pos.ep_square().is_some() {
        if !shortcuts {
            return None;
        }
        if resolve_rule_two_ahead(pos) {
            return Some(Wdl::Win);
        }
        let v = known(&pos.without_en_passant(), true);
        let captures_lose = || {
            pos.legal_moves()
                .iter()
                .filter(|m| m.kind == MoveKind::EnPassant)
                .all(|&m| {
                    let child = pos.play(m);
                    child.winner_by_rule().is_none()
                        && known(&child.flipped(), true) == Some(Wdl::Win)
                })
        };
        return match v {
            Some(Wdl::Win) => v,
            Some(Wdl::Loss) if captures_lose() => v,
            _ => every_move_lost(pos).then_some(Wdl::Loss),
        };
    }
    if let Some(v) = resolve_by_rule(pos) {
        return Some(v.wdl());
    }
    if !shortcuts {
        return None;
    }
    if resolve_rule_ahead(pos) || resolve_rule_two_ahead(pos) {
        return Some(Wdl::Win);
    }
    if resolve_opponent_rule_ahead(pos) {
        return Some(Wdl::Loss);
    }
    if let Some(v) = resolve_race(pos) {
        return Some(v.wdl());
    }
    if resolve_runner(pos) {
        return Some(Wdl::Win);
    }
    if resolve_opponent_runner(pos) {
        return Some(Wdl::Loss);
    }
    if every_move_lost(pos) {
        return Some(Wdl::Loss);
    }
    is_dead(pos).then_some(Wdl::Draw)
}

/// Whether white, to move, loses because every move it has reaches a
/// position that the rules of a win call won for black ([`wins`]); asked,
/// as the search asks it, only where a black pawn stands on its second-,
/// third- or fourth-to-last rank, or on height 6 on its second.
fn every_move_lost(pos: &Position) -> bool {
    let height = pos.board().height();
    let near = |sq: Square| (1..=3).contains(&sq.rank()) || height == 6 && sq.rank() == 4;
    if !Iterator::any(&mut pos.pawns(Color::Black), near) {
        return false;
    }
    let moves = pos.legal_moves();
    !moves.is_empty()
        && moves.iter().all(|&m| {
            let child = pos.play(m);
            child.winner_by_rule().is_none() && wins(&child.flipped())
        })
}

/// Whether the rules that prove a win for the side to move prove one for
/// `pos` (white to move, its game not over): fact 3 and fact 3 a move
/// ahead, the race and the free runner of the same pawns without an en
/// passant right, and fact 3 two moves ahead with it.
fn wins(pos: &Position) -> bool {
    let plain = pos.without_en_passant();
    matches!(resolve_by_rule(&plain), Some(Value::Win(_)))
        || resolve_rule_ahead(&plain)
        || resolve_rule_two_ahead(pos)
        || matches!(resolve_race(&plain), Some(Value::Win(_)))
        || resolve_runner(&plain)
}

/// The least expansions of a proof of the question about the canonical
/// `pos` (`attacker`: its side to move is the attacker), counted as a tree,
/// by plain recursion: nothing for a position the knowledge settles (with
/// `shortcuts`, a defender that can stalemate the attacker at once, or an
/// attacker each of whose moves lets it, too) or
/// one without a move; one for a move that wins at once; else one plus the
/// cheapest good move's proof where the side to move reaches its goal and
/// every move's where it fails (moves to the same canonical position
/// counted once).
fn least(pos: &Position, attacker: bool, shortcuts: bool, memo: &mut MinimaxMemo) -> f64 {
    // A defender that can stalemate the attacker at once has its goal, an
    // attacker each of whose moves lets it do so has failed.
    let stalemate = if attacker {
        stalemated_after_any_move(pos)
    } else {
        stalemates_at_once(pos)
    };
    if known(pos, shortcuts).is_some() || shortcuts && stalemate {
        return 0.0;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return 0.0;
    }
    if moves
        .iter()
        .any(|&m| pos.play(m).winner_by_rule().is_some())
    {
        return 1.0;
    }
    let mut children: Vec<Position> = moves.iter().map(|&m| canonical(&pos.play(m))).collect();
    children.sort();
    children.dedup();
    let value = |p: &Position, memo: &mut MinimaxMemo| {
        known(p, shortcuts).unwrap_or_else(|| minimax(p, memo).wdl())
    };
    if reaches(value(pos, memo), attacker) {
        let mut best = f64::INFINITY;
        for c in &children {
            if !reaches(value(c, memo), !attacker) {
                best = best.min(least(c, !attacker, shortcuts, memo));
            }
        }
        1.0 + best
    } else {
        1.0 + children
            .iter()
            .map(|c| least(c, !attacker, shortcuts, memo))
            .sum::<f64>()
    }
}

#[test]
fn least_proofs_are_counted_as_a_plain_recursion_counts_them() {
    let mut checked = 0;
    for (w, h) in [(4, 4), (3, 5), (4, 5)] {
        for v in variants(w, h) {
            let all = reachable_positions(v, true, 60);
            let mut memo = MinimaxMemo::default();
            for shortcuts in [false, true] {
                let solver = solver(shortcuts);
                let mut oracle = ProofOracle::new(&solver);
                for (i, p) in all.iter().enumerate().step_by(3) {
                    if p.is_game_over() {
                        continue;
                    }
                    let q = [Question::Wins, Question::AvoidsLoss][i % 2];
                    let attacker = q == Question::Wins;
                    let r = oracle.report(p, q).unwrap();
                    let c = canonical(p);
                    assert_eq!(
                        r.reaches,
                        reaches(minimax(p, &mut memo).wdl(), attacker),
                        "{v} {p} {q:?}"
                    );
                    let naive = least(&c, attacker, shortcuts, &mut memo);
                    assert_eq!(r.tree, naive, "{v} {p} {q:?} shortcuts {shortcuts}");
                    // Distinct positions are at most the tree; the guided
                    // chooser's proof is no smaller than the least one.
                    assert!(r.cheapest as f64 <= r.tree, "{v} {p} {q:?}");
                    assert!(r.guided_tree >= r.tree, "{v} {p} {q:?}");
                    assert!(r.guided_cheapest <= r.choices);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 5_000, "{checked} questions");
}

#[test]
fn an_order_by_the_oracle_keeps_every_value() {
    let mut checked = 0;
    for (w, h) in [(4, 4), (3, 5)] {
        for v in variants(w, h) {
            let all = reachable_positions(v, true, 30);
            let mut memo = MinimaxMemo::default();
            let base = solver(true);
            let mut oracle = ProofOracle::new(&base);
            for p in &all {
                if !p.is_game_over() {
                    oracle.report(p, Question::Wins).unwrap();
                }
            }
            for by_size in [false, true] {
                let deltas = Arc::new(oracle.start_deltas(by_size).unwrap());
                let ordered = solver(true).with_start_deltas(deltas);
                for p in all.iter().filter(|p| !p.is_game_over()) {
                    assert_eq!(
                        ordered.wdl(p).unwrap(),
                        minimax(p, &mut memo).wdl(),
                        "{v} {p}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1_000, "{checked} positions");
}

/// Two small games on which the oracle's order saves most of the guided
/// search's nodes (docs/SOLVE.md, "A perfect move order"): the same value
/// in fewer nodes, by its values alone and fewer still by its proofs'
/// sizes.
#[test]
fn an_order_by_the_oracle_saves_nodes() {
    for (board, name) in [("4x6", "peasants"), ("6x6", "pawnrace:c:d")] {
        let board: Board = board.parse().unwrap();
        let pos = parse_position(name, Some(board), Rules::default()).unwrap();
        let config = PnConfig::default();
        let guided = PnSolver::new(config, None).unwrap();
        let value = guided.wdl(&pos).unwrap();
        let mut oracle = ProofOracle::new(&guided);
        for q in [Question::Wins, Question::AvoidsLoss] {
            oracle.report(&pos, q).unwrap();
        }
        let mut nodes = vec![guided.stats().nodes];
        for by_size in [false, true] {
            let deltas = Arc::new(oracle.start_deltas(by_size).unwrap());
            let ordered = PnSolver::new(config, None)
                .unwrap()
                .with_start_deltas(deltas);
            assert_eq!(ordered.wdl(&pos).unwrap(), value, "{name}");
            nodes.push(ordered.stats().nodes);
        }
        assert!(
            nodes[1] < nodes[0] && nodes[2] < nodes[1],
            "{board} {name}: guided, by values, by sizes: {nodes:?}"
        );
    }
}
