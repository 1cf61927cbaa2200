//! Index sizes of every class of a board up to a pawn count, by total.
//!
//!     cargo run --release --example index_sizes -- 8x8 7
use peasant::{
    index::{Index, Material},
    rules::{Board, Rules, Variant},
};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: sizes WxH MAX_PAWNS");
        std::process::exit(2);
    }
    let board: Board = args[1].parse().expect("a board such as 8x8");
    let max: u8 = args[2].parse().expect("a pawn count");
    let v = Variant::new(board, Rules::default());
    let mut total = 0u64;
    for t in 2..=max {
        let n: u64 = Material::up_to(t)
            .into_iter()
            .filter(|m| m.total() == t)
            .map(|m| Index::new(v, m).len())
            .sum();
        total += n;
        println!("{board} total {t:>2}: {n:>14} positions (cumulative {total})");
    }
}
