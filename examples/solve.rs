//! Solves a position with the library, as `peasant solve` does: the value,
//! every first move's value and a line of perfect play.
//!
//!     cargo run --release --example solve -- 5x5 pawngame
//!     cargo run --release --example solve -- 4x8 peasants

use peasant::solve::SearchConfig;
use peasant::{
    rules::{parse_position, Board, Rules},
    solve::{Solver, SolverConfig},
};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [board, pos] = args.as_slice() else {
        eprintln!("usage: solve WxH POSITION (a setup name or position text)");
        return ExitCode::from(2);
    };
    let board: Board = match board.parse() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("solve: {e}");
            return ExitCode::from(2);
        }
    };
    let pos = match parse_position(pos, Some(board), Rules::default()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("solve: {e}");
            return ExitCode::from(2);
        }
    };
    let config = SolverConfig {
        search: SearchConfig {
            hash_mb: 256,
            ..SolverConfig::default().search
        },
        ..SolverConfig::default()
    };
    let solved = Solver::new(config, None).and_then(|solver| {
        let root = solver.solve_root(&pos, &|_, _| {})?;
        Ok((root, solver.line(&pos)?, solver.stats()))
    });
    let (root, line, stats) = match solved {
        Ok(s) => s,
        Err(e) => {
            eprintln!("solve: {e}");
            return ExitCode::from(1);
        }
    };
    println!("{pos}: {} for {} to move", root.value, pos.turn());
    for (m, value) in &root.moves {
        println!("  {:<6} {value}", m.san());
    }
    let line: Vec<String> = line.iter().map(|m| m.san()).collect();
    println!("line: {}", line.join(" "));
    println!("{} nodes", stats.nodes);
    ExitCode::SUCCESS
}
