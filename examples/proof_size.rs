//! How far the proof-number search is from the proof it finds: solves a
//! position's value, then counts the positions of the proofs of the two
//! answers that make it (`PnSolver::proof`) and sets them against
//! the nodes the search visited. A search that visits many times its
//! proof's size can gain much from better guidance (move order, starting
//! numbers); one close to it needs knowledge that ends the proof sooner.
//!
//!     cargo run --release --example proof_size -- 4x8 peasants
//!     (BOARD POSITION [HASH_MB, default 256 [guided (default, the
//!     search as it is) | mobility (depth-first, moves ordered by their
//!     replies alone) | epsilon (the 1+ε trick with mobility)]])

use peasant::rules::Wdl;
use peasant::solve::Question;
use std::process::ExitCode;

mod proof_args;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("proof_size: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let (pos, solver) = proof_args::position_and_solver("proof_size", args)?;
    let value = solver.wdl(&pos).map_err(|e| e.to_string())?;
    let searched = solver.stats().nodes;
    // The answers that make the value: a win needs "wins"; a loss, "avoids
    // loss" answered no; a draw both.
    let questions: &[Question] = match value {
        Wdl::Win => &[Question::Wins],
        Wdl::Loss => &[Question::AvoidsLoss],
        Wdl::Draw => &[Question::Wins, Question::AvoidsLoss],
    };
    println!("value: {value:?}, searched {searched} nodes");
    let mut total = 0;
    for &q in questions {
        let size = solver.proof(&pos, q).map_err(|e| e.to_string())?.len() as u64;
        total += size;
        println!("proof of {q:?}: {size} positions");
    }
    let again = solver.stats().nodes - searched;
    println!(
        "proofs {total} positions; searched / proofs = {:.1} (lost entries searched again while counting: {again} nodes)",
        searched as f64 / total.max(1) as f64
    );
    Ok(())
}
