//! How a move order of the proof-number search does on many small
//! questions: solves the value of each position of a file alone (a fresh
//! solver each, one thread, a small table) with the order given, and
//! prints the questions, the sum of their nodes and the geometric mean.
//! Values never depend on the order; the nodes do. The tuned order
//! (`--pn-init tuned`) was tuned on this measure: docs/SOLVE.md, "A
//! perfect move order", where the question files of
//! results/order-questions/ come from.
//!
//!     cargo run --release --example order_score -- 6x8 results/order-questions/train6.fens tuned
//!     cargo run --release --example order_score -- 5x8 results/order-questions/hold5.fens \
//!         weights:ranks_short=1,replies=1 32
//!     (BOARD FILE [INIT, default guided [HASH_MB, default 32]]; INIT as
//!     `solve --pn-init`; -v first prints each question's nodes;
//!     `order_score --features` prints the features' names, one a line)

use peasant::rules::{parse_position, Board, Rules};
use peasant::solve::{PnConfig, PnInit, PnSolver, SearchConfig, FEATURE_NAMES};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("order_score: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<String, String> {
    if let [flag] = args {
        if flag == "--features" {
            return Ok(FEATURE_NAMES.join("\n"));
        }
    }
    let (verbose, args) = match args {
        [flag, rest @ ..] if flag == "-v" => (true, rest),
        _ => (false, args),
    };
    if args.len() < 2 || args.len() > 4 {
        return Err("usage: order_score [-v] BOARD FILE [INIT [HASH_MB]]".into());
    }
    let board: Board = args[0].parse().map_err(|e| format!("{e}"))?;
    let text = std::fs::read_to_string(&args[1]).map_err(|e| format!("{}: {e}", args[1]))?;
    let init: PnInit = match args.get(2) {
        Some(s) => s.parse().map_err(|e| format!("{s}: {e}"))?,
        None => PnInit::Guided,
    };
    let hash_mb = match args.get(3) {
        Some(s) => s.parse().map_err(|_| format!("{s}: not a number"))?,
        None => 32,
    };
    let (mut n, mut sum, mut logs) = (0u64, 0u64, 0f64);
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let pos = parse_position(line, Some(board), Rules::default())
            .map_err(|e| format!("{line}: {e}"))?;
        let solver = PnSolver::new(
            PnConfig {
                search: SearchConfig {
                    hash_mb,
                    ..PnConfig::default().search
                },
                init,
                ..PnConfig::default()
            },
            None,
        )
        .map_err(|e| e.to_string())?;
        let value = solver.wdl(&pos).map_err(|e| format!("{line}: {e}"))?;
        let nodes = solver.stats().nodes;
        if verbose {
            println!("{nodes} {value:?} {line}");
        }
        n += 1;
        sum += nodes;
        logs += (nodes.max(1) as f64).ln();
    }
    if n == 0 {
        return Err(format!("{}: no position", args[1]));
    }
    Ok(format!(
        "{n} questions, {sum} nodes, geometric mean {:.1}",
        (logs / n as f64).exp()
    ))
}
