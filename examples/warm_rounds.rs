//! How much of a proof-number search a warm start carries: one question
//! asked in rounds of a fixed node budget, each round in a fresh table
//! seeded with the previous round's K heaviest entries (as `prove` hands
//! them from one job to the next), until it is answered; against one
//! uncut search.
//!
//!     cargo run --release --example warm_rounds -- 4x8 peasants wins 280000 10000
//!     (BOARD POSITION wins|avoids-loss ROUND_NODES K [HASH_MB, default 256])

use peasant::solve::{PnConfig, Question, SearchConfig, SolveError};
use peasant::{
    rules::{parse_position, Board, Rules},
    solve::PnSolver,
};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("warm_rounds: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let usage = "usage: warm_rounds BOARD POSITION wins|avoids-loss ROUND_NODES K [HASH_MB]";
    if args.len() < 5 || args.len() > 6 {
        return Err(usage.into());
    }
    let board: Board = args[0].parse().map_err(|e| format!("{e}"))?;
    let pos = parse_position(&args[1], Some(board), Rules::default()).map_err(|e| e.to_string())?;
    let question = match args[2].as_str() {
        "wins" => Question::Wins,
        "avoids-loss" => Question::AvoidsLoss,
        _ => return Err(usage.into()),
    };
    let number = |s: &str| s.parse::<u64>().map_err(|_| format!("{s}: not a number"));
    let round = number(&args[3])?.max(1);
    let k = number(&args[4])? as usize;
    let hash_mb = args.get(5).map_or(Ok(256), |s| number(s))? as usize;
    let config = PnConfig {
        search: SearchConfig {
            hash_mb,
            ..PnConfig::default().search
        },
        ..PnConfig::default()
    };
    let uncut = PnSolver::new(config, None).map_err(|e| e.to_string())?;
    let answer = uncut
        .answer(&pos, question, None)
        .map_err(|e| e.to_string())?;
    let whole = uncut.stats().nodes;
    drop(uncut);
    println!("uncut: {answer}, {whole} nodes");
    let mut warm = Vec::new();
    let mut total = 0;
    for n in 1..=1000 {
        let solver = PnSolver::new(config, None).map_err(|e| e.to_string())?;
        solver.load_entries(&warm);
        let r = solver.answer(&pos, question, Some(round));
        total += solver.stats().nodes;
        match r {
            Ok(answer) => {
                println!(
                    "round {n}: {answer}; {total} nodes in all, {:.2} times the uncut search",
                    total as f64 / whole as f64
                );
                return Ok(());
            }
            Err(SolveError::Stopped) => warm = solver.heaviest(k),
            Err(e) => return Err(e.to_string()),
        }
    }
    println!("not answered in 1000 rounds ({total} nodes)");
    Ok(())
}
