//! Which moves hold where the proof-number search's proofs needed one:
//! solves a position's value, reads the proofs of its answers back from
//! the table (`PnSolver::proof`), and at every position of them whose side
//! to move reaches its goal (it needs one good move) asks of every move
//! whether it is good (a search, answered mostly from the table). Prints
//! how many moves such positions have, how many are good, how often only
//! one is, how often the first move in the search's order or the move that
//! leaves the opponent the fewest replies is good, and the share of good
//! moves by kind. Many good moves and a search far bigger than its proof
//! (`examples/proof_size.rs`) mean the search lost its nodes turning from
//! one good move to another, not looking for one.
//!
//!     cargo run --release --example proof_choices -- 4x8 peasants 1024
//!     (BOARD POSITION [HASH_MB, default 256 [guided (default, the
//!     search as it is) | mobility (depth-first, moves ordered by their
//!     replies alone) | epsilon (the 1+ε trick with mobility)]])

use peasant::rules::MoveKind;
use peasant::solve::Question;
use std::process::ExitCode;

mod proof_args;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("proof_choices: {e}");
            ExitCode::from(2)
        }
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

fn run(args: &[String]) -> Result<(), String> {
    let (pos, solver) = proof_args::position_and_solver("proof_choices", args)?;
    let value = solver.wdl(&pos).map_err(|e| e.to_string())?;
    let (mut choosers, mut moves_seen, mut good, mut only_one, mut first_good, mut fewest_good) =
        (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    // Tried and good, by kind: push, double step, capture, en passant.
    let mut by_kind = [[0u64; 2]; 4];
    for q in [Question::Wins, Question::AvoidsLoss] {
        let proof = solver.proof(&pos, q).map_err(|e| e.to_string())?;
        for step in proof.iter().filter(|s| s.reaches && !s.leaf) {
            choosers += 1;
            // The opponent's question after a move.
            let reply = if step.attacker_to_move {
                Question::AvoidsLoss
            } else {
                Question::Wins
            };
            let mut goods = Vec::new();
            let mut replies = Vec::new();
            for &m in step.pos.legal_moves().iter() {
                let child = step.pos.play(m);
                let holds = !solver
                    .answer(&child, reply, None)
                    .map_err(|e| e.to_string())?;
                goods.push(holds);
                replies.push(child.count_moves());
                let kind = match m.kind {
                    MoveKind::Push => 0,
                    MoveKind::DoublePush => 1,
                    MoveKind::Capture => 2,
                    MoveKind::EnPassant => 3,
                };
                by_kind[kind][0] += 1;
                by_kind[kind][1] += holds as u64;
            }
            moves_seen += goods.len() as u64;
            let n = goods.iter().filter(|&&g| g).count() as u64;
            good += n;
            only_one += (n == 1) as u64;
            first_good += goods[0] as u64;
            let fewest = (0..replies.len()).min_by_key(|&i| replies[i]).unwrap_or(0);
            fewest_good += goods[fewest] as u64;
        }
    }
    println!(
        "{value:?}: {choosers} positions of the proofs need one good move; {:.2} moves each, {:.2} good; only one good at {:.1}%; the first move (generation order) good at {:.1}%, the move leaving the fewest replies at {:.1}%",
        moves_seen as f64 / choosers.max(1) as f64,
        good as f64 / choosers.max(1) as f64,
        percent(only_one, choosers),
        percent(first_good, choosers),
        percent(fewest_good, choosers),
    );
    for (name, [tried, held]) in ["push", "double step", "capture", "en passant"]
        .iter()
        .zip(by_kind)
    {
        println!("  {name}: {tried} moves, {:.1}% good", percent(held, tried));
    }
    Ok(())
}
