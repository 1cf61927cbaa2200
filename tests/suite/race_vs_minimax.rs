//! The pure-race rule ([`resolve_race`]), the free-runner rule
//! ([`resolve_runner`]), the opponent's free runner
//! ([`resolve_opponent_runner`]), the rule of fact 3 a move ahead for
//! either side ([`resolve_rule_ahead`], [`resolve_opponent_rule_ahead`]),
//! fact 3 two moves ahead ([`resolve_rule_two_ahead`]), the stalemate at
//! once ([`stalemates_at_once`]) and after any move
//! ([`stalemated_after_any_move`]), and the searches' leaf knowledge of
//! positions with an en passant right and of positions whose every move
//! reaches one the rules of a win call won for the opponent, against plain
//! exhaustive minimax on every position of small boards: every placement
//! of white and black pawns on the ranks they may stand on, white to move,
//! under every rule set. Boards of height 4 and 5 (where a double step
//! reaches the goal or the second-to-last rank) and boards with empty
//! files are all included; wider and taller boards (where a black pawn can
//! capture its way across several files towards the runner) by random
//! placements.

use crate::common::*;
use peasant::rules::*;
use peasant::solve::{PnConfig, PnSolver, Question, SearchConfig, Shortcuts};

/// The position of `pawns` with white to move, if it is one (pawns on
/// legal squares) and its game is not over.
fn white_to_move(variant: Variant, pawns: ByColor<Bitboard>) -> Option<Position> {
    let setup = Setup {
        board: variant.board,
        pawns,
        turn: Color::White,
        ep_square: None,
    };
    Position::from_setup(&setup, variant)
        .ok()
        .filter(|p| !p.is_game_over())
}

/// The placement numbered `code` of pawns on `squares`: each square's
/// base-3 digit says empty, white or black.
fn placement(squares: &[Square], code: u64) -> ByColor<Bitboard> {
    let mut pawns = ByColor {
        white: Bitboard::EMPTY,
        black: Bitboard::EMPTY,
    };
    let mut c = code;
    for &sq in squares {
        match c % 3 {
            1 => pawns.white.set(sq),
            2 => pawns.black.set(sq),
            _ => {}
        }
        c /= 3;
    }
    pawns
}

/// 1 if `pawns` with white to move is a stalemate (white has no move, the
/// game not won by the rules), on which no rule may claim anything: the
/// searches ask their leaf knowledge before they look for moves.
fn no_rule_on_a_stalemate(variant: Variant, pawns: ByColor<Bitboard>) -> u64 {
    let setup = Setup {
        board: variant.board,
        pawns,
        turn: Color::White,
        ep_square: None,
    };
    let Ok(pos) = Position::from_setup(&setup, variant) else {
        return 0;
    };
    if pos.winner_by_rule().is_some() || pos.count_moves() > 0 {
        return 0;
    }
    assert!(resolve_race(&pos).is_none(), "race {variant}: {pos}");
    assert!(!resolve_runner(&pos), "runner {variant}: {pos}");
    assert!(
        !resolve_opponent_runner(&pos),
        "opponent's runner {variant}: {pos}"
    );
    assert!(
        !resolve_rule_ahead(&pos),
        "fact 3 a move ahead {variant}: {pos}"
    );
    assert!(
        !resolve_opponent_rule_ahead(&pos),
        "opponent's fact 3 a move ahead {variant}: {pos}"
    );
    assert!(
        !resolve_rule_two_ahead(&pos),
        "fact 3 two moves ahead {variant}: {pos}"
    );
    assert!(
        !stalemates_at_once(&pos),
        "stalemate at once {variant}: {pos}"
    );
    assert!(
        !stalemated_after_any_move(&pos),
        "stalemated after any move {variant}: {pos}"
    );
    1
}

/// How often the rules beyond the race and the free runner spoke.
#[derive(Default, Debug)]
struct More {
    /// [`resolve_opponent_runner`]: a loss for white.
    opponents: u64,
    /// [`resolve_rule_ahead`]: a win for white.
    ahead: u64,
    /// [`resolve_opponent_rule_ahead`]: a loss for white.
    opponent_ahead: u64,
    /// [`resolve_rule_two_ahead`]: a win for white.
    two_ahead: u64,
    /// [`stalemates_at_once`]: white draws at least.
    stalemates: u64,
    /// [`stalemated_after_any_move`]: white cannot win.
    stalemated: u64,
}

/// The opponent's free runner, the rule of fact 3 a move ahead, for
/// either side, and two moves ahead, on `pos`: whatever they claim minimax
/// must confirm.
fn check_more(pos: &Position, variant: Variant, memo: &mut MinimaxMemo, more: &mut More) {
    // Where a rule speaks, counted in `count`, minimax's value must pass
    // `holds`.
    let mut claim = |speaks: bool, count: &mut u64, holds: fn(Wdl) -> bool, rule: &str| {
        if speaks {
            *count += 1;
            let v = minimax(pos, memo).wdl();
            assert!(holds(v), "{rule} {variant}: {pos} is a {v:?}");
        }
    };
    let (win, loss) = (|v| v == Wdl::Win, |v| v == Wdl::Loss);
    claim(
        resolve_opponent_runner(pos),
        &mut more.opponents,
        loss,
        "opponent's runner",
    );
    claim(
        resolve_rule_ahead(pos),
        &mut more.ahead,
        win,
        "fact 3 a move ahead",
    );
    claim(
        resolve_opponent_rule_ahead(pos),
        &mut more.opponent_ahead,
        loss,
        "opponent's fact 3 a move ahead",
    );
    claim(
        resolve_rule_two_ahead(pos),
        &mut more.two_ahead,
        win,
        "fact 3 two moves ahead",
    );
    // Its count of black's mobile pawns only skips the moves: each move
    // played must agree.
    let stalemates = pos.legal_moves().iter().any(|&m| {
        let child = pos.play(m);
        child.winner_by_rule().is_none() && child.count_moves() == 0
    });
    assert_eq!(
        stalemates_at_once(pos),
        stalemates,
        "stalemate at once {variant}: {pos}"
    );
    claim(
        stalemates,
        &mut more.stalemates,
        |v| v != Wdl::Loss,
        "stalemate at once",
    );
    claim(
        stalemated_after_any_move(pos),
        &mut more.stalemated,
        |v| v != Wdl::Win,
        "stalemated after any move",
    );
}

/// Checks the rules on every position of `w` x `h` under every rule set;
/// returns (positions, positions the race rule answers, free runners,
/// the other rules' counts).
fn check_board(w: u8, h: u8) -> (u64, u64, u64, More) {
    let board = Board::new(w, h).unwrap();
    let mut squares = Vec::new();
    for r in 1..h - 1 {
        for f in 0..w {
            squares.push(Square::new(f, r));
        }
    }
    let n = squares.len() as u32;
    let (mut total, mut answered, mut runners, mut more) = (0, 0, 0, More::default());
    let mut stalemated = 0;
    for rules in Rules::ALL {
        let variant = Variant::new(board, rules);
        let mut memo = MinimaxMemo::default();
        for code in 0..3u64.pow(n) {
            let pawns = placement(&squares, code);
            let Some(pos) = white_to_move(variant, pawns) else {
                stalemated += no_rule_on_a_stalemate(variant, pawns);
                continue;
            };
            total += 1;
            if let Some(v) = resolve_race(&pos) {
                answered += 1;
                assert_eq!(v, minimax(&pos, &mut memo), "{variant}: {pos}");
            }
            check_more(&pos, variant, &mut memo, &mut more);
            if resolve_runner(&pos) {
                runners += 1;
                assert_eq!(
                    minimax(&pos, &mut memo).wdl(),
                    Wdl::Win,
                    "runner {variant}: {pos}"
                );
            }
        }
    }
    eprintln!(
        "{w}x{h}: {answered} of {total} positions answered, {runners} free runners, {more:?}, \
         {stalemated} stalemates"
    );
    assert!(stalemated > 0, "{w}x{h}: no stalemate checked");
    (total, answered, runners, more)
}

/// Random placements of `pawns` pawns (white to move) on `w` x `h`: the
/// free-runner rule never claims a win minimax does not confirm, nor the
/// opponent's a loss. Returns (positions, runners found, runners that are
/// not pure races, the opponent's runners).
fn check_runner_random(
    w: u8,
    h: u8,
    pawns: usize,
    samples: usize,
    seed: u64,
) -> (u64, u64, u64, More) {
    let board = Board::new(w, h).unwrap();
    let mut rng = peasant::SplitMix64::new(seed);
    let (mut total, mut runners, mut not_races, mut more) = (0, 0, 0, More::default());
    for rules in Rules::ALL {
        let variant = Variant::new(board, rules);
        let mut memo = MinimaxMemo::default();
        for _ in 0..samples {
            let mut pawns_of = ByColor {
                white: Bitboard::EMPTY,
                black: Bitboard::EMPTY,
            };
            for i in 0..pawns {
                let f = (rng.next_u64() % w as u64) as u8;
                let r = 1 + (rng.next_u64() % (h as u64 - 2)) as u8;
                let sq = Square::new(f, r);
                if i % 2 == 0 {
                    pawns_of.white.set(sq);
                } else {
                    pawns_of.black.set(sq);
                }
            }
            if (pawns_of.white & pawns_of.black).any() {
                continue;
            }
            let Some(pos) = white_to_move(variant, pawns_of) else {
                continue;
            };
            if resolve_by_rule(&pos).is_some() {
                continue;
            }
            total += 1;
            check_more(&pos, variant, &mut memo, &mut more);
            if resolve_runner(&pos) {
                runners += 1;
                not_races += resolve_race(&pos).is_none() as u64;
                assert_eq!(
                    minimax(&pos, &mut memo).wdl(),
                    Wdl::Win,
                    "runner {variant}: {pos}"
                );
            }
        }
    }
    eprintln!("{w}x{h} random {pawns} pawns: {runners} runners ({not_races} not races) of {total}, {more:?}");
    (total, runners, not_races, more)
}

/// Every placement of `nw` white and `nb` black pawns on `w` x `h` (white
/// to move), every rule set: the free-runner rule never claims a win
/// minimax does not confirm, nor the opponent's a loss. Returns
/// (positions, runners found, the opponent's runners found).
fn check_runner_placements(w: u8, h: u8, nw: usize, nb: usize) -> (u64, u64, More) {
    let board = Board::new(w, h).unwrap();
    let squares: Vec<Square> = (1..h - 1)
        .flat_map(|r| (0..w).map(move |f| Square::new(f, r)))
        .collect();
    // Every set of `k` squares, as lists of indices into `squares`.
    fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
        if k == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for rest in subsets(n, k - 1) {
            let from = rest.last().map_or(0, |&l| l + 1);
            for i in from..n {
                let mut v = rest.clone();
                v.push(i);
                out.push(v);
            }
        }
        out
    }
    let (whites, blacks) = (subsets(squares.len(), nw), subsets(squares.len(), nb));
    let (mut total, mut runners, mut more) = (0, 0, More::default());
    for rules in Rules::ALL {
        let variant = Variant::new(board, rules);
        let mut memo = MinimaxMemo::default();
        for ws in &whites {
            for bs in &blacks {
                if bs.iter().any(|b| ws.contains(b)) {
                    continue;
                }
                let mut pawns = ByColor {
                    white: Bitboard::EMPTY,
                    black: Bitboard::EMPTY,
                };
                ws.iter().for_each(|&i| pawns.white.set(squares[i]));
                bs.iter().for_each(|&i| pawns.black.set(squares[i]));
                let Some(pos) = white_to_move(variant, pawns) else {
                    continue;
                };
                total += 1;
                check_more(&pos, variant, &mut memo, &mut more);
                if resolve_runner(&pos) {
                    runners += 1;
                    let v = minimax(&pos, &mut memo);
                    assert_eq!(v.wdl(), Wdl::Win, "runner {variant}: {pos}");
                }
            }
        }
    }
    eprintln!("{w}x{h} {nw}v{nb}: {runners} runners of {total}, {more:?}");
    (total, runners, more)
}

/// Two pawns each on boards wide and tall enough for a black pawn two or
/// three files away to capture its way to the runner, and three against
/// two on a smaller one.
#[test]
fn runner_rule_wins_on_every_placement() {
    for (w, h, nw, nb) in [
        (5, 8, 2, 2),
        (6, 7, 2, 2),
        (4, 8, 3, 2),
        (4, 8, 2, 3),
        (5, 6, 3, 3),
    ] {
        let (total, runners, more) = check_runner_placements(w, h, nw, nb);
        assert!(runners > 0 && runners < total, "{w}x{h}");
        assert!(more.opponents > 0 && more.ahead > 0, "{w}x{h}");
        assert!(more.opponent_ahead > 0 && more.stalemates > 0, "{w}x{h}");
        assert!(more.two_ahead > 0 && more.stalemated > 0, "{w}x{h}");
    }
}

/// Three pawns against two and three on bigger boards (about 45 million
/// positions, a minute): `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn runner_rule_wins_on_every_placement_big() {
    for (w, h, nw, nb) in [(5, 8, 3, 2), (5, 8, 2, 3), (6, 7, 3, 3)] {
        let (total, runners, more) = check_runner_placements(w, h, nw, nb);
        assert!(runners > 0 && runners < total, "{w}x{h}");
        assert!(more.opponents > 0 && more.ahead > 0, "{w}x{h}");
        assert!(more.opponent_ahead > 0 && more.stalemates > 0, "{w}x{h}");
    }
}

#[test]
fn runner_rule_wins_on_wide_and_tall_boards() {
    for (i, (w, h, pawns)) in [
        (5, 5, 7),
        (6, 5, 8),
        (8, 5, 9),
        (5, 6, 7),
        (6, 6, 8),
        (7, 6, 8),
        (4, 8, 7),
    ]
    .into_iter()
    .enumerate()
    {
        let (total, runners, not_races, more) =
            check_runner_random(w, h, pawns, 20_000, 17 + i as u64);
        assert!(total > 0 && runners > 0 && not_races > 0, "{w}x{h}");
        // Below height 6 a black pawn that outruns every white pawn
        // stands on its second-to-last rank: the rule of fact 3's.
        assert!(h < 6 || more.opponents > 0, "{w}x{h}");
        assert!(h < 6 || more.two_ahead > 0, "{w}x{h}");
    }
}

#[test]
fn race_rule_equals_minimax() {
    for (w, h) in [
        (1, 8),
        (2, 8),
        (3, 4),
        (4, 4),
        (6, 4),
        (3, 5),
        (4, 5),
        (2, 6),
        (3, 6),
        (2, 7),
    ] {
        let (total, answered, runners, more) = check_board(w, h);
        assert!(answered > 0 && answered < total, "{w}x{h}");
        assert!(runners > 0 && runners < total, "{w}x{h}");
        assert!(h < 6 || more.opponents > 0, "{w}x{h}");
        assert!(h < 6 || more.two_ahead > 0, "{w}x{h}");
    }
}

/// Positions with an en passant right are left to search: here the armies
/// have passed each other, but white captures black's last pawn en passant.
#[test]
fn race_rule_leaves_en_passant_to_search() {
    let board = Board::new(3, 5).unwrap();
    let pos = parse_position("3/3/3/Pp1/3 w b3", Some(board), Rules::default()).unwrap();
    assert!(pos.ep_square().is_some());
    assert_eq!(resolve_race(&pos), None);
    assert_eq!(minimax(&pos, &mut MinimaxMemo::default()), Value::Win(1));
}

/// What the leaf knowledge of `solver` answers to "does the side to move
/// win?" and "does it avoid losing?" about `pos`, each answer checked
/// against `v`, minimax's value.
fn known_answers(solver: &PnSolver, pos: &Position, v: Wdl) -> [Option<bool>; 2] {
    [
        (Question::Wins, v == Wdl::Win),
        (Question::AvoidsLoss, v != Wdl::Loss),
    ]
    .map(|(question, truth)| {
        let answer = solver.known_answer(pos, question);
        if let Some(answer) = answer {
            assert_eq!(answer, truth, "{question:?} {}: {pos}", pos.variant());
        }
        answer
    })
}

/// Every position with an en passant right on small boards (a black pawn
/// that may just have made its double step, a white pawn beside it), under
/// every rule set that has the capture: what the proof-number search's
/// leaf knowledge answers of it (a win or a loss the rules prove for the
/// same pawns without the right, a loss only where every capture en
/// passant loses by rule too; fact 3 two moves ahead with the capture)
/// minimax confirms, to both questions. Returns (positions, wins
/// answered, losses answered).
fn check_en_passant(w: u8, h: u8) -> (u64, u64, u64) {
    let board = Board::new(w, h).unwrap();
    let squares: Vec<Square> = (1..h - 1)
        .flat_map(|r| (0..w).map(move |f| Square::new(f, r)))
        .collect();
    let config = PnConfig::default();
    let config = PnConfig {
        search: SearchConfig {
            hash_mb: 0,
            ..config.search
        },
        ..config
    };
    let (mut total, mut wins, mut losses) = (0, 0, 0);
    for rules in Rules::ALL.into_iter().filter(|r| r.en_passant) {
        let variant = Variant::new(board, rules);
        let solver = PnSolver::new(config, None).unwrap();
        let mut memo = MinimaxMemo::default();
        for code in 0..3u64.pow(squares.len() as u32) {
            let pawns = placement(&squares, code);
            // Black's double step from its second rank lands on rank
            // h - 4 and skips h - 3.
            for f in 0..w {
                let (landed, skipped) = (Square::new(f, h - 4), Square::new(f, h - 3));
                let from = Square::new(f, h - 2);
                if !pawns.black.contains(landed)
                    || (pawns.white | pawns.black).contains(skipped)
                    || (pawns.white | pawns.black).contains(from)
                {
                    continue;
                }
                let setup = Setup {
                    board,
                    pawns,
                    turn: Color::White,
                    ep_square: Some(skipped),
                };
                let Ok(pos) = Position::from_setup(&setup, variant) else {
                    continue;
                };
                if pos.ep_square().is_none() || pos.is_game_over() {
                    continue;
                }
                total += 1;
                let v = minimax(&pos, &mut memo).wdl();
                let [win, avoids] = known_answers(&solver, &pos, v);
                wins += (win == Some(true)) as u64;
                losses += (avoids == Some(false)) as u64;
            }
        }
    }
    eprintln!(
        "{w}x{h}: {wins} wins and {losses} losses known of {total} positions with an en passant right"
    );
    (total, wins, losses)
}

#[test]
fn en_passant_knowledge_equals_minimax() {
    for (w, h) in [(3, 5), (4, 5), (3, 6), (2, 7), (2, 8)] {
        let (total, wins, losses) = check_en_passant(w, h);
        assert!(wins > 0 && wins < total, "{w}x{h}");
        assert!(losses > 0, "{w}x{h}");
    }
}

/// Every placement of pawns on small boards, white to move, under every
/// rule set: the answers of the proof-number search's leaf knowledge to
/// both questions with the rule that every move is lost (a position whose
/// every move reaches one the rules of a win call won for the opponent)
/// minimax confirms, and the rule speaks. Returns (positions, answers the
/// rule added).
fn check_every_move_lost(w: u8, h: u8) -> (u64, u64) {
    let board = Board::new(w, h).unwrap();
    let squares: Vec<Square> = (1..h - 1)
        .flat_map(|r| (0..w).map(move |f| Square::new(f, r)))
        .collect();
    let solver = |every_move_lost: bool| {
        let config = PnConfig::default();
        let search = SearchConfig {
            hash_mb: 0,
            shortcuts: Shortcuts {
                every_move_lost,
                ..config.search.shortcuts
            },
            ..config.search
        };
        PnSolver::new(PnConfig { search, ..config }, None).unwrap()
    };
    let (with, without) = (solver(true), solver(false));
    let (mut total, mut added) = (0, 0);
    for rules in Rules::ALL {
        let variant = Variant::new(board, rules);
        let mut memo = MinimaxMemo::default();
        for code in 0..3u64.pow(squares.len() as u32) {
            let Some(pos) = white_to_move(variant, placement(&squares, code)) else {
                continue;
            };
            total += 1;
            let v = minimax(&pos, &mut memo).wdl();
            let before =
                [Question::Wins, Question::AvoidsLoss].map(|q| without.known_answer(&pos, q));
            for (got, before) in known_answers(&with, &pos, v).into_iter().zip(before) {
                added += (got.is_some() && before.is_none()) as u64;
            }
        }
    }
    eprintln!("{w}x{h}: every move lost added {added} answers of {total} positions");
    (total, added)
}

#[test]
fn every_move_lost_equals_minimax() {
    for (w, h) in [(3, 5), (4, 5), (3, 6), (2, 7), (2, 8)] {
        let (total, added) = check_every_move_lost(w, h);
        assert!(added > 0 && added < total, "{w}x{h}");
    }
}
