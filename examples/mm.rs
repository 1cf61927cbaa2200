use peasant::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let board: Board = args[2].parse().unwrap();
    let srw = args.len() > 3;
    let rules = Rules {
        en_passant: true,
        seventh_rank_wins: srw,
    };
    let pos = parse_position(&args[1], Some(board), rules).unwrap();
    let mut memo = MinimaxMemo::default();
    println!("{}", minimax(&pos, &mut memo));
    for &m in pos.legal_moves().iter() {
        println!("{} {}", m, minimax(&pos.play(m), &mut memo).before_move());
    }
}
