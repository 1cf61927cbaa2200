//! `peasant gen [--board WxH] [--max-pawns N | --class WvB] [--out DIR]`

use super::{print_json, CliError, GlobalArgs};
use clap::Args;
use peasant::{
    generate::{available_memory, generate, GenConfig, GenError, Target},
    table::verify_tables,
    Material, Variant,
};
use serde_json::json;
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["max_pawns", "class", "check"])))]
pub struct GenArgs {
    /// Every class with at most N pawns of both sides together.
    #[arg(long, value_name = "N")]
    pub max_pawns: Option<u8>,
    /// One class, WvB (white v black, e.g. 3v2), with its partner and all classes below.
    #[arg(long, value_name = "WvB")]
    pub class: Option<String>,
    /// Where the tables go.
    #[arg(long, value_name = "DIR", default_value = "tables")]
    pub out: PathBuf,
    /// Generate nothing: re-check every table of the variant in DIR (every
    /// checksum, and every position against its successors).
    #[arg(long, value_name = "DIR")]
    pub check: Option<PathBuf>,
    /// Memory the generator may use, MiB (default: what the system has available).
    #[arg(long, value_name = "MiB")]
    pub memory_mb: Option<u64>,
    /// zstd level of the written tables, 1 (fastest to write) to 22
    /// (smallest); probes read any level. 15 writes 3x faster than 19 for
    /// files 2% bigger; 3 writes 11x faster for files 2.3x bigger.
    #[arg(long, value_name = "L", default_value_t = 15,
          value_parser = clap::value_parser!(i32).range(1..=22))]
    pub zstd_level: i32,
}

impl GenArgs {
    pub fn run(&self, global: &GlobalArgs) -> Result<(), CliError> {
        let board = global.board()?.unwrap_or_default();
        let variant = Variant::new(board, global.rules());
        if let Some(dir) = &self.check {
            return check(dir, variant, global.json);
        }
        let target = match (&self.class, self.max_pawns) {
            (Some(c), _) => Target::Class(c.parse::<Material>().map_err(CliError::input)?),
            (None, Some(n)) if n >= 2 => Target::MaxPawns(n),
            (None, _) => {
                return Err(CliError::input(
                    "--max-pawns must be 2 or more (one pawn a side)",
                ))
            }
        };
        let memory_limit = match self.memory_mb {
            Some(mb) => mb << 20,
            None => available_memory().map(|b| b / 10 * 9).unwrap_or(u64::MAX),
        };
        let config = GenConfig {
            progress: !global.json,
            memory_limit,
            zstd_level: self.zstd_level,
            ..GenConfig::new(variant, self.out.clone())
        };
        let progress = super::progress::GenProgress::new();
        let reports = generate(&config, target, &|e| progress.show(e)).map_err(|e| match e {
            GenError::OutOfMemory { .. } => CliError::failure(e),
            GenError::Table(e) => CliError::failure(e),
        })?;
        if global.json {
            let classes: Vec<_> = reports
                .iter()
                .map(|r| {
                    json!({
                        "class": r.material.to_string(),
                        "path": r.path.display().to_string(),
                        "skipped": r.skipped,
                        "positions": r.positions,
                        "distinct_positions": r.index.distinct,
                        "unfolded_positions": r.index.unfolded,
                        "wins": r.wins,
                        "draws": r.draws,
                        "losses": r.losses,
                        "max_dtm": r.max_dtm,
                        "init_seconds": r.init_seconds,
                        "solve_seconds": r.solve_seconds,
                        "write_seconds": r.write_seconds,
                        "memory_bytes": r.memory,
                    })
                })
                .collect();
            print_json(&json!({
                "board": variant.board.to_string(),
                "en_passant": variant.rules.en_passant,
                "seventh_rank_wins": variant.rules.seventh_rank_wins,
                "classes": classes,
            }));
            return Ok(());
        }
        println!(
            "{:>6} {:>14} {:>8} {:>6} {:>7} {:>7} {:>7} {:>4} {:>9}",
            "class", "positions", "density", "fold", "win%", "draw%", "loss%", "dtm", "solve s"
        );
        for r in &reports {
            let pct = |x: u64| 100.0 * x as f64 / r.positions.max(1) as f64;
            let ratio = |a: u64, b: u64| if b == 0 { 1.0 } else { a as f64 / b as f64 };
            println!(
                "{:>6} {:>14} {:>8.4} {:>6.3} {:>7.2} {:>7.2} {:>7.2} {:>4} {:>9}",
                r.material.to_string(),
                r.positions,
                ratio(r.index.distinct, r.index.len),
                ratio(r.index.unfolded, r.index.len),
                pct(r.wins),
                pct(r.draws),
                pct(r.losses),
                r.max_dtm,
                if r.skipped {
                    "present".to_string()
                } else {
                    format!("{:.2}", r.solve_seconds)
                }
            );
        }
        Ok(())
    }
}

/// `peasant gen --check DIR`: exit status 1 if a table is damaged or a
/// value disagrees with its successors.
fn check(dir: &std::path::Path, variant: Variant, json: bool) -> Result<(), CliError> {
    let log = |line: &str| eprintln!("{line}");
    let report = verify_tables(dir, variant, &log).map_err(CliError::failure)?;
    if json {
        let classes: Vec<_> = report
            .classes
            .iter()
            .map(|c| {
                json!({
                    "class": c.material.to_string(),
                    "path": c.path.display().to_string(),
                    "positions": c.positions,
                    "bytes": c.file_bytes,
                    "mismatches": c.mismatches,
                    "first_mismatch": c.first_mismatch,
                    "seconds": c.seconds,
                })
            })
            .collect();
        print_json(&json!({ "ok": report.is_ok(), "classes": classes }));
    } else {
        let positions: u64 = report.classes.iter().map(|c| c.positions).sum();
        let bad: u64 = report.classes.iter().map(|c| c.mismatches).sum();
        println!(
            "{} tables, {positions} positions checked, {bad} mismatches",
            report.classes.len()
        );
    }
    if report.classes.is_empty() {
        return Err(CliError::input(format!(
            "no tables for {} in {}",
            super::variant_flags(variant),
            dir.display()
        )));
    }
    if !report.is_ok() {
        return Err(CliError::failure(
            "some table values disagree with their successors",
        ));
    }
    Ok(())
}
