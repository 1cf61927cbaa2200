//! `peasant perft <POS> <DEPTH> [--divide]`

use super::{print_json, CliError, GlobalArgs};
use clap::Args;
use peasant::rules::{divide, perft_parallel};
use serde_json::json;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// A position text (FEN subset) or a setup name: peasants, pawngame, pawnrace:X:Y.
    pub pos: String,
    /// Number of plies.
    pub depth: u32,
    /// Also give the count below each first move.
    #[arg(long)]
    pub divide: bool,
}

impl PerftArgs {
    pub fn run(&self, global: &GlobalArgs) -> Result<(), CliError> {
        let pos = global.position(&self.pos)?;
        let start = Instant::now();
        let (nodes, per_move) = if self.divide {
            let per_move = divide(&pos, self.depth);
            let total = if self.depth == 0 {
                1
            } else {
                per_move.iter().map(|x| x.1).sum()
            };
            (total, per_move)
        } else {
            (perft_parallel(&pos, self.depth), Vec::new())
        };
        let seconds = start.elapsed().as_secs_f64();
        let nps = if seconds > 0.0 {
            nodes as f64 / seconds
        } else {
            0.0
        };
        if global.json {
            let mut out = json!({
                "fen": pos.to_string(),
                "depth": self.depth,
                "nodes": nodes,
                "seconds": seconds,
                "nodes_per_second": nps.round(),
            });
            if self.divide {
                out["divide"] = per_move
                    .iter()
                    .map(|(m, n)| json!({"move": m.san(), "nodes": n}))
                    .collect();
            }
            print_json(&out);
        } else {
            for (m, n) in &per_move {
                println!("{m}: {n}");
            }
            eprintln!(
                "perft {} of {}: {:.3} s, {:.0} nodes/s",
                self.depth, pos, seconds, nps
            );
            println!("{nodes}");
        }
        Ok(())
    }
}
