//! Probes a position in generated tables, as `peasant probe` does: its
//! value with the distance to mate, and every move's.
//!
//!     cargo run --release -- --board 5x5 gen --max-pawns 10
//!     cargo run --release --example probe -- tables 5x5 pawngame

use peasant::{
    rules::{parse_position, Board, Rules, Variant},
    table::Tablebase,
};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, board, pos] = args.as_slice() else {
        eprintln!("usage: probe TABLE_DIR WxH POSITION (a setup name or position text)");
        return ExitCode::from(2);
    };
    let board: Board = match board.parse() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("probe: {e}");
            return ExitCode::from(2);
        }
    };
    let pos = match parse_position(pos, Some(board), Rules::default()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("probe: {e}");
            return ExitCode::from(2);
        }
    };
    let tables = Tablebase::new(dir, Variant::new(board, Rules::default()));
    let probed = tables
        .probe(&pos)
        .and_then(|value| Ok((value, tables.best_moves(&pos)?)));
    match probed {
        Ok((value, moves)) => {
            println!("{pos}: {value} for {} to move", pos.turn());
            for (m, v) in moves {
                println!("  {:<6} {v}", m.san());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("probe: {e}");
            ExitCode::from(1)
        }
    }
}
