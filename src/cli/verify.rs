//! `peasant verify [--board WxH] [--samples N] [--tables DIR] [--seed S] [--dtm]`
//!
//! Random reachable positions, solved by the search alone (no tables) and
//! probed from the tables; every disagreement is printed and makes the
//! exit status 1.

use super::probe::table_error;
use super::solve::solve_error;
use super::{print_json, CliError, GlobalArgs};
use clap::Args;
use peasant::{
    file_char, in_domain, parse_position, Color, Position, Solver, SolverConfig, SplitMix64,
    TableError, Tablebase, Variant,
};
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// How many positions to check.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub samples: usize,
    /// Where the tables are.
    #[arg(long, value_name = "DIR", default_value = "tables")]
    pub tables: PathBuf,
    /// Seed of the random playouts (the same seed checks the same positions).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Compare exact values with DTM, not only win/draw/loss.
    #[arg(long)]
    pub dtm: bool,
    /// Size of the search's transposition table in MiB.
    #[arg(long, value_name = "M", default_value_t = 64)]
    pub hash_mb: usize,
}

/// The start positions of `variant`'s board: the pawn game, Peasants'
/// Chess where it fits, and every Pawn Race gap pair.
fn starts(variant: Variant) -> Vec<Position> {
    let w = variant.board.width();
    let mut names = vec!["pawngame".to_string(), "peasants".to_string()];
    for x in 0..w {
        for y in 0..w {
            names.push(format!("pawnrace:{}:{}", file_char(x), file_char(y)));
        }
    }
    names
        .iter()
        .filter_map(|n| parse_position(n, Some(variant.board), variant.rules).ok())
        .filter(|p| !p.is_game_over())
        .collect()
}

impl VerifyArgs {
    pub fn run(&self, global: &GlobalArgs) -> Result<(), CliError> {
        let board = global.board()?.unwrap_or_default();
        let variant = Variant::new(board, global.rules());
        if self.samples == 0 {
            return Err(CliError::input("--samples must be 1 or more"));
        }
        super::gen::tables_dir(&self.tables, variant)?;
        super::gen::hash_fits(self.hash_mb)?;
        let tb = Tablebase::new(&self.tables, variant);
        let starts = starts(variant);
        if starts.is_empty() {
            return Err(CliError::input(format!(
                "no start position of {variant} has a game in progress (every setup that fits the board is over at once): nothing to play out"
            )));
        }
        let mut rng = SplitMix64::new(self.seed);
        let config = SolverConfig {
            hash_mb: self.hash_mb,
            dtm: self.dtm,
            ..SolverConfig::default()
        };
        let solver = Solver::new(config, None);
        let start = Instant::now();
        let (mut checked, mut playouts) = (0usize, 0usize);
        let mut disagreements = Vec::new();
        while checked < self.samples && playouts < self.samples.saturating_mul(1000) {
            playouts += 1;
            // One random game; keep the positions the tables can answer.
            let mut p = starts[rng.index(starts.len())];
            let mut candidates = Vec::new();
            loop {
                // Only positions whose probe reads a table (not ones the
                // rules or one ply of en passant search answer).
                let white_view = if p.turn() == Color::White {
                    p
                } else {
                    p.flipped()
                };
                let in_table = !p.is_game_over() && in_domain(&white_view);
                match tb.probe(&p) {
                    Ok(_) if !in_table => {}
                    Ok(v) => candidates.push((p, v)),
                    Err(TableError::Missing { .. }) => {}
                    Err(e) => return Err(table_error(e)),
                }
                if p.is_game_over() {
                    break;
                }
                let moves = p.legal_moves();
                p = p.play(moves[rng.index(moves.len())]);
            }
            if candidates.is_empty() {
                continue;
            }
            let (pos, table) = candidates[rng.index(candidates.len())];
            let searched = solver.solve(&pos).map_err(solve_error)?;
            checked += 1;
            let agree = if self.dtm {
                searched.value == Some(table)
            } else {
                searched.wdl == table.wdl()
            };
            if !agree {
                eprintln!("disagreement: {pos}: search says {searched}, table says {table}");
                disagreements.push(json!({
                    "fen": pos.to_string(),
                    "search": searched.to_string(),
                    "table": table.to_string(),
                }));
            }
        }
        let seconds = start.elapsed().as_secs_f64();
        if global.json {
            print_json(&json!({
                "variant": variant.to_string(),
                "checked": checked,
                "playouts": playouts,
                "disagreements": disagreements,
                "nodes": solver.stats().nodes,
                "seconds": seconds,
            }));
        } else {
            println!(
                "{variant}: {checked} positions checked (compared by {}), {} disagreements, {} nodes, {seconds:.2} s",
                if self.dtm { "exact value with DTM" } else { "win/draw/loss" },
                disagreements.len(),
                solver.stats().nodes
            );
        }
        if checked == 0 {
            return Err(CliError::input(format!(
                "no position of {variant} could be probed from {}: generate tables first (peasant gen)",
                self.tables.display()
            )));
        }
        if !disagreements.is_empty() {
            return Err(CliError::failure(format!(
                "{} of {checked} positions disagree",
                disagreements.len()
            )));
        }
        Ok(())
    }
}
