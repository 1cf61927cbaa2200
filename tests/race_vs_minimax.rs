//! The pure-race rule ([`resolve_race`]) against plain exhaustive minimax on
//! every position of small boards: every placement of white and black pawns
//! on the ranks they may stand on, white to move, under every rule set.
//! Boards of height 4 and 5 (where a double step reaches the goal or the
//! second-to-last rank) and boards with empty files are all included.

use peasant::*;

/// Checks the rule on every position of `w` x `h` under every rule set;
/// returns (positions, positions the rule answers).
fn check_board(w: u8, h: u8) -> (u64, u64) {
    let board = Board::new(w, h).unwrap();
    let mut squares = Vec::new();
    for r in 1..h - 1 {
        for f in 0..w {
            squares.push(Square::new(f, r));
        }
    }
    let n = squares.len() as u32;
    let (mut total, mut answered) = (0, 0);
    for rules in Rules::ALL {
        let variant = Variant::new(board, rules);
        let mut memo = MinimaxMemo::default();
        for code in 0..3u64.pow(n) {
            let mut pawns = ByColor {
                white: Bitboard::EMPTY,
                black: Bitboard::EMPTY,
            };
            let mut c = code;
            for &sq in &squares {
                match c % 3 {
                    1 => pawns.white.set(sq),
                    2 => pawns.black.set(sq),
                    _ => {}
                }
                c /= 3;
            }
            let setup = Setup {
                board,
                pawns,
                turn: Color::White,
                ep_square: None,
            };
            let Ok(pos) = Position::from_setup(&setup, variant) else {
                continue;
            };
            if pos.is_game_over() {
                continue;
            }
            total += 1;
            if let Some(v) = resolve_race(&pos) {
                answered += 1;
                assert_eq!(v, minimax(&pos, &mut memo), "{variant}: {pos}");
            }
        }
    }
    eprintln!("{w}x{h}: {answered} of {total} positions answered");
    (total, answered)
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
        let (total, answered) = check_board(w, h);
        assert!(answered > 0 && answered < total, "{w}x{h}");
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
