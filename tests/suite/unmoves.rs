//! Moves and un-moves agree: every move's result lists that move among its
//! un-moves, and every un-move played forward gives the position back.

use peasant::{rules::*, SplitMix64};

fn check(pos: &Position) -> usize {
    let mut checked = 0;
    for &m in pos.legal_moves().iter() {
        let next = pos.play(m);
        let ums = next.legal_unmoves();
        let back = UnMove {
            m,
            prev_ep: pos.ep_square(),
        };
        assert!(
            ums.contains(&back),
            "{pos} --{m}--> {next}: un-moves {ums:?} lack {back:?}"
        );
        for um in ums {
            let prev = next.unplay(um);
            assert!(prev.legal_moves().contains(&um.m), "{next}: un-move {um:?}");
            assert_eq!(prev.play(um.m), next, "{next}: un-move {um:?}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn moves_and_unmoves_agree_on_random_playouts() {
    let mut rng = SplitMix64::new(7);
    let mut checked = 0;
    for w in 1..=8u8 {
        for h in 4..=8u8 {
            let board = Board::new(w, h).unwrap();
            for en_passant in [true, false] {
                for seventh_rank_wins in [false, true] {
                    let rules = Rules {
                        en_passant,
                        seventh_rank_wins,
                    };
                    let mut setups = vec!["pawngame".to_string()];
                    if h >= 6 {
                        setups.push("peasants".into());
                    }
                    if w >= 2 {
                        setups.push(format!("pawnrace:{}:{}", file_char(0), file_char(w - 1)));
                    }
                    for setup in setups {
                        let start = parse_position(&setup, Some(board), rules).unwrap();
                        for _ in 0..8 {
                            let mut pos = start;
                            loop {
                                checked += check(&pos);
                                let moves = pos.legal_moves();
                                if moves.is_empty() {
                                    break;
                                }
                                pos = pos.play(moves[rng.index(moves.len())]);
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 20_000, "only {checked} un-moves checked");
}

#[test]
fn retro_perft_of_start_positions_is_zero_and_counts_otherwise() {
    let board = Board::STANDARD;
    let start = parse_position("pawngame", Some(board), Rules::default()).unwrap();
    // No pawn can have reached its second rank by a move.
    assert_eq!(retro_perft(&start, 1), 0);
    // After 1.e4 the pawn came from e2 (double step), from e3, or from d3
    // or f3 capturing a black pawn that stood on e4.
    let after = start.play(start.parse_move("e4").unwrap());
    let mut ums: Vec<String> = after.legal_unmoves().iter().map(|u| u.m.uci()).collect();
    ums.sort();
    assert_eq!(ums, ["d3e4", "e2e4", "e3e4", "f3e4"]);
    assert_eq!(retro_perft(&after, 1), 4);
}
