//! Index sizes of every class of a board up to a pawn count, by total,
//! and with `classes` each class of the largest total too (what `gen`
//! holds for a class pair: the pair at 2 bits a position with
//! `--wdl-only`, and the classes its captures reach, [`captured_classes`]).
//!
//!     cargo run --release --example index_sizes -- 8x8 7
//!     cargo run --release --example index_sizes -- 6x8 11 classes
use peasant::{
    generate::{captured_classes, has_positions, plan, Target},
    index::{Index, Material},
    rules::{Board, Rules, Variant},
};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let classes = match (args.len(), args.get(3).map(String::as_str)) {
        (3, _) => false,
        (4, Some("classes")) => true,
        _ => {
            eprintln!("usage: index_sizes WxH MAX_PAWNS [classes]");
            std::process::exit(2);
        }
    };
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
    if classes {
        for pair in plan(Target::MaxPawns(max))
            .into_iter()
            .filter(|p| p[0].total() == max && has_positions(board, p[0]))
        {
            let len = |m: Material| Index::new(v, m).len();
            let own: u64 = pair.iter().map(|&m| len(m)).sum();
            let held = captured_classes(board, &pair);
            let below: u64 = held.iter().map(|&m| len(m)).sum();
            let names = |ms: &[Material]| {
                ms.iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(" + ")
            };
            println!(
                "{}: {own} positions ({} MiB at 2 bits); holds {} of {below} ({} MiB)",
                names(&pair),
                (own / 4) >> 20,
                names(&held),
                (below / 4) >> 20
            );
        }
    }
}
