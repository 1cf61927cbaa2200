//! The engine against the naive generator of `tests/naive`: on thousands of
//! positions reached by random playouts from every setup on every board size,
//! and on random pawn placements, under all four rule combinations, the two
//! must agree on perft, on the legal moves (as sorted SAN), on the outcome,
//! on the pawns and on the en passant square at every visited node. Every
//! node also checks the FEN round trip and that each move's SAN and long form
//! parse back to the same move.

use crate::naive;
use crate::naive::{End, Game, NMove, Opts, Rng, Side};
use peasant::rules::{
    notation as fen, parse_position, perft, Board, Color, Move, Outcome, Position, Rules, Square,
};

/// Perft is compared at increasing depth up to this one...
const MAX_DEPTH: u32 = 4;
/// ...while the last count stayed below this many leaves.
const DEPTH_BUDGET: u64 = 4_000;

fn rules(o: Opts) -> Rules {
    Rules {
        en_passant: o.en_passant,
        seventh_rank_wins: o.seventh_rank_wins,
    }
}

fn board(w: usize, h: usize) -> Board {
    Board::new(w as u8, h as u8).unwrap()
}

fn color(s: Side) -> Color {
    match s {
        Side::White => Color::White,
        Side::Black => Color::Black,
    }
}

fn square(sq: (usize, usize)) -> Square {
    Square::new(sq.0 as u8, sq.1 as u8)
}

/// Whether some pawn stands on its last rank (the engine refuses such
/// position text: the game is over).
fn has_promoted(g: &Game) -> bool {
    (0..g.width).any(|f| {
        g.cells[g.height - 1][f] == Some(Side::White) || g.cells[0][f] == Some(Side::Black)
    })
}

/// The engine's position for a naive game, read from the naive FEN writer.
fn engine_position(g: &Game) -> Position {
    parse_position(&g.fen(), Some(board(g.width, g.height)), rules(g.opts))
        .unwrap_or_else(|e| panic!("engine refuses {}: {e}", g.fen()))
}

fn sorted_sans(moves: impl Iterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = moves.collect();
    v.sort();
    v
}

/// The engine move that a naive move names, checked to be the same move.
fn engine_move(pos: &Position, nm: &NMove, ctx: &str) -> Move {
    let m = pos
        .parse_move(&nm.san())
        .unwrap_or_else(|e| panic!("{ctx}: engine refuses naive move {}: {e}", nm.san()));
    assert_eq!(m.from, square(nm.from), "{ctx}: {}", nm.san());
    assert_eq!(m.to, square(nm.to), "{ctx}: {}", nm.san());
    assert_eq!(m.is_capture(), nm.capture, "{ctx}: {}", nm.san());
    assert_eq!(
        pos.parse_move(&nm.long()).ok(),
        Some(m),
        "{ctx}: {}",
        nm.long()
    );
    m
}

/// Everything that can be compared at one node without searching.
fn compare_node(pos: &Position, g: &Game, ctx: &str) {
    let ctx = &format!("{ctx} at {} ({})", g.fen(), pos.variant());
    assert_eq!(pos.board(), board(g.width, g.height), "{ctx}");
    assert_eq!(pos.turn(), color(g.to_move), "{ctx}");
    for side in [Side::White, Side::Black] {
        let bb = pos.pawns(color(side));
        assert_eq!(
            bb.count() as usize,
            g.count(side),
            "{ctx}: {side:?} pawn count"
        );
        for rank in 0..g.height {
            for file in 0..g.width {
                assert_eq!(
                    bb.contains(Square::new(file as u8, rank as u8)),
                    g.cells[rank][file] == Some(side),
                    "{ctx}: {side:?} on {}",
                    Square::new(file as u8, rank as u8)
                );
            }
        }
    }
    // The engine keeps the en passant square of a double step that won the
    // game (possible only under --seventh-rank-wins) although nobody can
    // use it; it changes nothing, so only live positions are compared.
    if g.winner.is_none() {
        assert_eq!(
            pos.ep_square(),
            g.capturable_ep().map(square),
            "{ctx}: en passant square"
        );
    }

    let naive_moves = g.moves();
    let engine_moves = pos.legal_moves();
    assert_eq!(
        sorted_sans(engine_moves.iter().map(|m| m.san())),
        sorted_sans(naive_moves.iter().map(|m| m.san())),
        "{ctx}: legal moves"
    );
    assert_eq!(
        sorted_sans(engine_moves.iter().map(|m| m.uci())),
        sorted_sans(naive_moves.iter().map(|m| m.long())),
        "{ctx}: legal moves (long form)"
    );
    assert_eq!(
        pos.count_moves() as usize,
        naive_moves.len(),
        "{ctx}: count_moves"
    );
    let outcome = pos.outcome().map(|o| match o {
        Outcome::Decisive { winner } => End::Won(if winner == Color::White {
            Side::White
        } else {
            Side::Black
        }),
        Outcome::Draw => End::Drawn,
    });
    assert_eq!(outcome, g.outcome(), "{ctx}: outcome");
    assert_eq!(
        pos.winner_by_rule().map(|c| c == Color::White),
        g.winner.map(|s| s == Side::White),
        "{ctx}"
    );

    // Every move's SAN and long form parse back to it; nothing else parses.
    for &m in engine_moves.iter() {
        assert_eq!(
            pos.parse_move(&m.san()).ok(),
            Some(m),
            "{ctx}: SAN {}",
            m.san()
        );
        assert_eq!(
            pos.parse_move(&m.uci()).ok(),
            Some(m),
            "{ctx}: long {}",
            m.uci()
        );
    }
    for nm in &naive_moves {
        engine_move(pos, nm, ctx);
    }
    for rank in 0..g.height {
        for file in 0..g.width {
            let name = Square::new(file as u8, rank as u8).to_string();
            let quiet = naive_moves.iter().any(|m| !m.capture && m.san() == name);
            assert_eq!(
                pos.parse_move(&name).is_ok(),
                quiet,
                "{ctx}: parse_move({name})"
            );
        }
    }

    // FEN round trip (impossible once a pawn stands on its last rank).
    if !has_promoted(g) {
        let text = pos.to_string();
        let setup = fen::parse(&text).unwrap_or_else(|e| panic!("{ctx}: {text}: {e}"));
        let back = Position::from_setup(&setup, pos.variant())
            .unwrap_or_else(|e| panic!("{ctx}: {text}: {e}"));
        assert_eq!(&back, pos, "{ctx}: FEN round trip of {text}");
        assert_eq!(fen::write(&setup), text, "{ctx}");
        // The naive FEN (en passant field after every double step) reads as
        // the same position.
        assert_eq!(&engine_position(g), pos, "{ctx}: naive FEN {}", g.fen());
        // And the naive reader agrees with the engine's text.
        let again = Game::from_fen(&text, g.opts).expect("naive reads engine FEN");
        assert_eq!(again.moves().len(), naive_moves.len(), "{ctx}");
        assert_eq!(again.capturable_ep(), g.capturable_ep(), "{ctx}");
        assert_eq!(again.cells, g.cells, "{ctx}");
        assert_eq!(again.winner, g.winner, "{ctx}");
    }
}

/// Compares the two generators below a node: every node of the tree to
/// `tree_depth` plies, then perft at increasing depth while cheap.
fn compare_deep(pos: &Position, g: &Game, tree_depth: u32, ctx: &str, stats: &mut Stats) {
    compare_tree(pos, g, tree_depth, ctx);
    for depth in 1..=MAX_DEPTH {
        let expected = g.perft(depth);
        assert_eq!(
            perft(pos, depth),
            expected,
            "{ctx}: perft({depth}) of {}",
            g.fen()
        );
        stats.perfts += 1;
        stats.leaves += expected;
        if depth == 2 {
            // Colour flip and left-right mirror change no count.
            assert_eq!(
                perft(&pos.flipped(), depth),
                expected,
                "{ctx}: flipped {}",
                g.fen()
            );
            assert_eq!(
                perft(&pos.mirrored(), depth),
                expected,
                "{ctx}: mirrored {}",
                g.fen()
            );
        }
        if expected > DEPTH_BUDGET {
            break;
        }
    }
}

fn compare_tree(pos: &Position, g: &Game, depth: u32, ctx: &str) {
    compare_node(pos, g, ctx);
    if depth == 0 {
        return;
    }
    for nm in g.moves() {
        let m = engine_move(pos, &nm, ctx);
        compare_tree(
            &pos.play(m),
            &g.play(&nm),
            depth - 1,
            &format!("{ctx} {}", nm.san()),
        );
    }
}

#[derive(Default)]
struct Stats {
    nodes: u64,
    perfts: u64,
    leaves: u64,
    /// Visited nodes with an en passant capture among the moves.
    ep_nodes: u64,
}

/// Plays random games from `start`, comparing at every node and searching
/// below some of them.
fn playouts(start: &Game, games: usize, rng: &mut Rng, ctx: &str, stats: &mut Stats) {
    let root = engine_position(start);
    compare_deep(&root, start, 1, ctx, stats);
    for game in 0..games {
        let (mut pos, mut g) = (root, start.clone());
        let mut line = String::new();
        loop {
            let ctx = format!("{ctx} game {game}:{line}");
            compare_node(&pos, &g, &ctx);
            stats.nodes += 1;
            let moves = g.moves();
            if moves.iter().any(|m| m.en_passant) {
                stats.ep_nodes += 1;
            }
            if moves.is_empty() {
                break;
            }
            if rng.chance(1, 6) {
                compare_deep(&pos, &g, 1, &ctx, stats);
            }
            // Prefer double steps and en passant captures now and then, so
            // that en passant rights come up often.
            let special: Vec<&NMove> = moves
                .iter()
                .filter(|m| m.double_step || m.en_passant)
                .collect();
            let nm = if !special.is_empty() && rng.chance(1, 3) {
                *special[rng.below(special.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            let m = engine_move(&pos, &nm, &ctx);
            pos = pos.play(m);
            g = g.play(&nm);
            line.push(' ');
            line.push_str(&nm.san());
        }
    }
}

fn setup_names(width: usize) -> Vec<String> {
    let mut names = vec!["peasants".to_string(), "pawngame".to_string()];
    let last = (b'a' + width as u8 - 1) as char;
    let mid = (b'a' + (width as u8) / 2) as char;
    for (x, y) in [
        ('a', last),
        (last, 'a'),
        ('a', 'a'),
        (mid, 'b'),
        (last, last),
    ] {
        if x <= last && y <= last {
            names.push(format!("pawnrace:{x}:{y}"));
        }
    }
    names.sort();
    names.dedup();
    names
}

#[test]
fn setups_are_the_naive_setups() {
    for w in 1..=8 {
        for h in 4..=8 {
            let mut names = vec!["peasants".to_string(), "pawngame".to_string()];
            for x in 0..w as u8 {
                for y in 0..w as u8 {
                    names.push(format!(
                        "pawnrace:{}:{}",
                        (b'a' + x) as char,
                        (b'a' + y) as char
                    ));
                }
            }
            for name in names {
                for opts in Opts::ALL {
                    let engine = parse_position(&name, Some(board(w, h)), rules(opts));
                    match Game::setup(&name, w, h, opts) {
                        None => assert!(engine.is_err(), "{name} on {w}x{h} should be refused"),
                        Some(g) => {
                            let pos = engine.unwrap_or_else(|e| panic!("{name} {w}x{h}: {e}"));
                            compare_node(&pos, &g, &format!("setup {name}"));
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn random_playouts_from_every_setup_agree() {
    let mut rng = Rng(0x5EED_0001);
    let mut stats = Stats::default();
    for w in 1..=8 {
        for h in 4..=8 {
            for name in setup_names(w) {
                for opts in Opts::ALL {
                    let Some(start) = Game::setup(&name, w, h, opts) else {
                        continue;
                    };
                    let ctx = format!("{name} {w}x{h} {opts:?}");
                    playouts(&start, 3, &mut rng, &ctx, &mut stats);
                }
            }
        }
    }
    eprintln!(
        "playouts: {} nodes compared ({} with en passant), {} perfts agreed ({} leaves)",
        stats.nodes, stats.ep_nodes, stats.perfts, stats.leaves
    );
    assert!(stats.perfts > 1000);
    assert!(stats.ep_nodes > 100);
}

#[test]
fn random_placements_agree() {
    let mut rng = Rng(0x5EED_0002);
    let mut stats = Stats::default();
    let mut with_ep = 0;
    for w in 1..=8 {
        for h in 4..=8 {
            for opts in Opts::ALL {
                for i in 0..12 {
                    let g = naive::random_game(&mut rng, w, h, opts);
                    let ctx = format!("random {w}x{h} {opts:?} #{i}");
                    if g.capturable_ep().is_some() {
                        with_ep += 1;
                    }
                    let pos = engine_position(&g);
                    compare_deep(&pos, &g, 2, &ctx, &mut stats);
                    playouts(&g, 1, &mut rng, &ctx, &mut stats);
                }
            }
        }
    }
    eprintln!(
        "random placements: {} nodes compared ({} with en passant), {} perfts agreed ({} leaves), {} start with en passant",
        stats.nodes, stats.ep_nodes, stats.perfts, stats.leaves, with_ep
    );
    assert!(stats.perfts > 1000);
    assert!(with_ep > 50);
}

// The facts of docs/RULES.md, checked on both generators (and, for values, with
// the naive generator's exhaustive minimax).

fn both(text: &str, w: usize, h: usize, opts: Opts) -> (Position, Game) {
    let g = Game::setup(text, w, h, opts)
        .or_else(|| Game::from_fen(text, opts))
        .unwrap_or_else(|| panic!("naive refuses {text}"));
    let pos = parse_position(text, Some(board(w, h)), rules(opts)).unwrap();
    compare_node(&pos, &g, text);
    (pos, g)
}

const REAL: Opts = Opts {
    en_passant: true,
    seventh_rank_wins: false,
};
const SRW: Opts = Opts {
    en_passant: true,
    seventh_rank_wins: true,
};

#[test]
fn rules_four_by_four_pawngame_every_white_move_captures_then_black_double_steps_home() {
    let (pos, g) = both("pawngame", 4, 4, REAL);
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 6, "{moves:?}");
    for &m in moves.iter() {
        assert!(m.is_capture(), "{} is not a capture", m.san());
        let after = pos.play(m);
        assert_eq!(after.outcome(), None);
        let homers: Vec<Move> = after
            .legal_moves()
            .iter()
            .copied()
            .filter(|r| r.kind == peasant::rules::MoveKind::DoublePush && r.to.rank() == 0)
            .collect();
        assert!(
            !homers.is_empty(),
            "after {} black has no double step onto rank 1",
            m.san()
        );
        for r in homers {
            assert_eq!(
                after.play(r).outcome(),
                Some(Outcome::Decisive {
                    winner: Color::Black
                }),
                "{} {}",
                m.san(),
                r.san()
            );
        }
    }
    for nm in g.moves() {
        assert!(nm.capture);
        let after = g.play(&nm);
        assert!(after.moves().iter().any(|r| r.double_step && r.to.1 == 0));
    }
    // White loses in 2 (the capture, then the double step).
    assert_eq!(g.solve(), Some(-2));
}

#[test]
fn rules_one_file_peasants_is_a_forced_stalemate() {
    let (pos, g) = both("peasants", 1, 8, REAL);
    let counts: Vec<u64> = (1..=5).map(|d| perft(&pos, d)).collect();
    assert_eq!(counts, [1, 1, 1, 1, 0]);
    let naive_counts: Vec<u64> = (1..=5).map(|d| g.perft(d)).collect();
    assert_eq!(naive_counts, [1, 1, 1, 1, 0]);
    let mut p = pos;
    for san in ["a4", "a5", "a3", "a6"] {
        let moves: Vec<String> = p.legal_moves().iter().map(|m| m.san()).collect();
        assert_eq!(moves, [san]);
        p = p.play(p.parse_move(san).unwrap());
    }
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert_eq!(g.solve(), None);
}

#[test]
fn rules_example_three_by_five_seventh_rank_is_not_promotion() {
    for opts in [REAL, SRW] {
        let (pos, g) = both("3/2p/ppP/3/3 b -", 3, 5, opts);
        let moves = sorted_sans(pos.legal_moves().iter().map(|m| m.san()));
        assert_eq!(moves, ["a2", "b2"]);
        for san in ["a2", "b2"] {
            let after = pos.play(pos.parse_move(san).unwrap());
            assert_eq!(after.count_moves(), 0, "{san}");
            let expected = if opts.seventh_rank_wins {
                Outcome::Decisive {
                    winner: Color::Black,
                }
            } else {
                Outcome::Draw
            };
            assert_eq!(after.outcome(), Some(expected), "{san} {opts:?}");
        }
        let value = g.solve();
        if opts.seventh_rank_wins {
            assert_eq!(value, Some(1), "black wins in 1");
        } else {
            assert_eq!(value, None, "draw");
        }
    }
}

#[test]
fn rules_five_by_five_pawngame_value_depends_on_the_seventh_rank_rule() {
    let (_, real) = both("pawngame", 5, 5, REAL);
    assert_eq!(real.solve(), None, "real rules: draw");
    let (_, srw) = both("pawngame", 5, 5, SRW);
    assert_eq!(srw.solve(), Some(3), "--seventh-rank-wins: white wins in 3");
}
