use peasant::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let board: Board = args[1].parse().unwrap();
    let max: u8 = args[2].parse().unwrap();
    let v = Variant::new(board, Rules::default());
    let mut total = 0u64;
    let mut biggest = (0u64, String::new());
    for m in Material::up_to(max) {
        let n = Index::new(v, m).len();
        total += n;
        if n > biggest.0 {
            biggest = (n, m.to_string());
        }
    }
    println!(
        "{board} up to {max}: {total} positions; biggest class {} with {}",
        biggest.1, biggest.0
    );
}
