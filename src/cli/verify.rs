//! `peasant verify [--board WxH] [--samples N] [--tables DIR] [--seed S] [--dtm]`
//!
//! Random reachable positions, solved by the search alone (no tables) and
//! probed from the tables; every disagreement is printed and makes the
//! exit status 1.

use super::probe::table_error;
use super::solve::solve_error;
use super::{print_json, CliError, GlobalArgs};
use clap::Args;
use peasant::solve::{cross_check, CrossCheckConfig, CrossCheckError, CrossCheckReport};
use peasant::{rules::Variant, table::Tablebase};
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

impl VerifyArgs {
    pub fn run(&self, global: &GlobalArgs) -> Result<(), CliError> {
        let board = global.board()?.unwrap_or_default();
        let variant = Variant::new(board, global.rules());
        if self.samples == 0 {
            return Err(CliError::input("--samples must be 1 or more"));
        }
        super::gen::tables_dir(&self.tables, variant)?;
        let tb = Tablebase::new(&self.tables, variant);
        let config = CrossCheckConfig {
            samples: self.samples,
            seed: self.seed,
            dtm: self.dtm,
            hash_mb: self.hash_mb,
        };
        let start = Instant::now();
        let report = cross_check(&tb, &config).map_err(|e| match e {
            CrossCheckError::Table(e) => table_error(e),
            CrossCheckError::Solve(e) => solve_error(e),
            CrossCheckError::NoGame(_) => CliError::input(e),
        })?;
        for d in &report.disagreements {
            eprintln!(
                "disagreement: {}: search says {}, table says {}",
                d.pos, d.search, d.table
            );
        }
        let seconds = start.elapsed().as_secs_f64();
        if global.json {
            print_json(&report_json(variant, &report, seconds));
        } else {
            println!(
                "{variant}: {} positions checked (compared by {}), {} disagreements, {} nodes, {seconds:.2} s",
                report.checked,
                if self.dtm { "exact value with DTM" } else { "win/draw/loss" },
                report.disagreements.len(),
                report.nodes
            );
        }
        self.verdict(variant, &report)
    }

    /// Success, or why not: no position could be probed (exit status 2),
    /// or some disagree (1).
    fn verdict(&self, variant: Variant, report: &CrossCheckReport) -> Result<(), CliError> {
        let checked = report.checked;
        if checked == 0 {
            return Err(CliError::input(format!(
                "no position of {variant} could be probed from {}: generate tables first (peasant gen)",
                self.tables.display()
            )));
        }
        if !report.disagreements.is_empty() {
            return Err(CliError::failure(format!(
                "{} of {checked} positions disagree",
                report.disagreements.len()
            )));
        }
        Ok(())
    }
}

fn report_json(variant: Variant, report: &CrossCheckReport, seconds: f64) -> serde_json::Value {
    let disagreements: Vec<_> = report
        .disagreements
        .iter()
        .map(|d| {
            json!({
                "fen": d.pos.to_string(),
                "search": d.search.to_string(),
                "table": d.table.to_string(),
            })
        })
        .collect();
    json!({
        "variant": variant.to_string(),
        "checked": report.checked,
        "playouts": report.playouts,
        "disagreements": disagreements,
        "nodes": report.nodes,
        "seconds": seconds,
    })
}
