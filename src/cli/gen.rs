//! `peasant gen [--board WxH] [--max-pawns N | --class WvB] [--out DIR]`

use super::{print_json, CliError, GlobalArgs};
use clap::Args;
use peasant::{
    generate::{available_memory, generate, ClassReport, GenConfig, GenError, Target},
    index::Material,
    rules::{Board, Variant},
    table::{verify_tables, ClassCheck, VerifyReport},
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
    /// Win/draw/loss only: values held at 2 bits a position while solving
    /// (a quarter of the memory), tables without distances to mate, enough
    /// for the searches (`solve`, `prove`, `--tables`) but not for `probe`,
    /// `play` or `--dtm`. Tables with distances already present are kept.
    #[arg(long)]
    pub wdl_only: bool,
}

impl GenArgs {
    pub fn run(&self, global: &GlobalArgs) -> Result<(), CliError> {
        let board = global.board()?.unwrap_or_default();
        let variant = Variant::new(board, global.rules());
        if let Some(dir) = &self.check {
            return check(dir, variant, global.json);
        }
        let target = self.target(board)?;
        let memory_limit = self.memory_limit()?;
        writable_dir(&self.out)?;
        let config = GenConfig {
            progress: !global.json,
            memory_limit,
            zstd_level: self.zstd_level,
            wdl_only: self.wdl_only,
            ..GenConfig::new(variant, self.out.clone())
        };
        let progress = super::progress::GenProgress::new();
        let reports = generate(&config, target, &|e| progress.show(e)).map_err(|e| match e {
            GenError::OutOfMemory { .. } => CliError::failure(e),
            GenError::Table(e) => CliError::failure(e),
        })?;
        if global.json {
            print_json(&reports_json(variant, &reports));
        } else {
            print_reports(&reports);
        }
        Ok(())
    }

    /// The classes to generate: `--class` or `--max-pawns`, checked
    /// against what a table position of `board` can hold.
    fn target(&self, board: Board) -> Result<Target, CliError> {
        // A table position has white pawns on ranks 2..H-2 and black pawns
        // on ranks 3..H-1, one pawn a square.
        let (w, h) = (board.width() as u32, board.height() as u32);
        let most = (w * (h - 2)).min(255) as u8;
        match (&self.class, self.max_pawns) {
            (Some(c), _) => {
                let m = c.parse::<Material>().map_err(CliError::input)?;
                let side = w * (h - 3);
                if m.white as u32 > side || m.black as u32 > side || m.total() > most {
                    return Err(CliError::input(format!(
                        "class {m} has no positions on {board}: a table position holds at most {side} pawns a side and {most} in all"
                    )));
                }
                Ok(Target::Class(m))
            }
            (None, Some(n)) if n > most => Err(CliError::input(format!(
                "--max-pawns {n}: a table position of {board} holds at most {most} pawns (--max-pawns {most} makes every table)"
            ))),
            (None, Some(n)) if n >= 2 => Ok(Target::MaxPawns(n)),
            (None, _) => Err(CliError::input(
                "--max-pawns must be 2 or more (one pawn a side)",
            )),
        }
    }

    /// The generator's memory in bytes: `--memory-mb`, or nine tenths of
    /// what the system has available.
    fn memory_limit(&self) -> Result<u64, CliError> {
        match self.memory_mb {
            Some(0) => Err(CliError::input("--memory-mb must be 1 or more")),
            Some(mb) => Ok(mb.saturating_mul(1 << 20)),
            None => Ok(available_memory().map(|b| b / 10 * 9).unwrap_or(u64::MAX)),
        }
    }
}

fn reports_json(variant: Variant, reports: &[ClassReport]) -> serde_json::Value {
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
                "wdl_only": !r.has_dtm,
                "max_dtm": if r.has_dtm { json!(r.max_dtm) } else { serde_json::Value::Null },
                "init_seconds": r.init_seconds,
                "solve_seconds": r.solve_seconds,
                "write_seconds": r.write_seconds,
                "memory_bytes": r.memory,
            })
        })
        .collect();
    json!({
        "board": variant.board.to_string(),
        "en_passant": variant.rules.en_passant,
        "seventh_rank_wins": variant.rules.seventh_rank_wins,
        "classes": classes,
    })
}

/// One line per class: its size, index density, fold, values and time.
fn print_reports(reports: &[ClassReport]) {
    println!(
        "{:>6} {:>14} {:>8} {:>6} {:>7} {:>7} {:>7} {:>4} {:>9}",
        "class", "positions", "density", "fold", "win%", "draw%", "loss%", "dtm", "solve s"
    );
    for r in reports {
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
            if r.has_dtm {
                r.max_dtm.to_string()
            } else {
                "-".to_string()
            },
            if r.skipped {
                "present".to_string()
            } else {
                format!("{:.2}", r.solve_seconds)
            }
        );
    }
}

/// `peasant gen --check DIR`: one line per table (stderr as it goes), a
/// summary line (stdout); exit status 1 if a table is damaged, cannot be
/// read, could not be checked or has a value that disagrees with its
/// successors, 2 if DIR holds no table of the variant.
fn check(dir: &std::path::Path, variant: Variant, json: bool) -> Result<(), CliError> {
    if !dir.is_dir() {
        return Err(CliError::input(if dir.exists() {
            format!(
                "{} is not a directory (gen --check takes the directory of the tables)",
                dir.display()
            )
        } else {
            format!("{}: no such directory", dir.display())
        }));
    }
    let log = |line: &str| eprintln!("{line}");
    let report = verify_tables(dir, variant, &log).map_err(CliError::failure)?;
    if report.classes.is_empty() {
        return Err(CliError::input(format!(
            "no tables for {} in {}{}",
            super::variant_flags(variant),
            dir.display(),
            other_tables(dir)
        )));
    }
    if json {
        print_json(&check_json(&report));
    } else {
        println!("{}", report.summary());
    }
    if !report.is_ok() {
        return Err(unsound(&report, dir));
    }
    Ok(())
}

fn check_json(report: &VerifyReport) -> serde_json::Value {
    let classes: Vec<_> = report
        .classes
        .iter()
        .map(|c| {
            json!({
                "class": c.material.to_string(),
                "path": c.path.display().to_string(),
                "ok": c.is_ok(),
                "damage": c.damage,
                "unchecked": c.unchecked,
                "positions": c.positions,
                "bytes": c.file_bytes,
                "mismatches": c.mismatches,
                "first_mismatch": c.first_mismatch,
                "seconds": c.seconds,
            })
        })
        .collect();
    json!({ "ok": report.is_ok(), "classes": classes })
}

/// The failure of `gen --check` on tables that are not sound: how many,
/// and which are damaged, unchecked or wrong.
fn unsound(report: &VerifyReport, dir: &std::path::Path) -> CliError {
    let names = |it: &mut dyn Iterator<Item = &ClassCheck>| {
        it.map(|c| {
            c.path
                .file_name()
                .map_or(c.material.to_string(), |n| n.to_string_lossy().into_owned())
        })
        .collect::<Vec<_>>()
        .join(", ")
    };
    let mut parts = Vec::new();
    for (what, list) in [
        ("damaged or unreadable", names(&mut report.damaged())),
        ("not checked", names(&mut report.unchecked())),
        ("with wrong values", names(&mut report.wrong())),
    ] {
        if !list.is_empty() {
            parts.push(format!("{what}: {list}"));
        }
    }
    CliError::failure(format!(
        "{} of {} tables in {} are not sound; {}",
        report.classes.iter().filter(|c| !c.is_ok()).count(),
        report.classes.len(),
        dir.display(),
        parts.join("; ")
    ))
}

/// ", which holds tables of 5x5, 4x8 -noep" when `dir` holds tables of
/// other boards or rules (read from the file names), else "".
fn other_tables(dir: &std::path::Path) -> String {
    let mut kinds: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            table_kind(&name).map(str::to_string)
        })
        .collect();
    kinds.sort();
    kinds.dedup();
    if kinds.is_empty() {
        String::new()
    } else {
        format!(
            ", which holds tables of {} (select them with --board WxH, --no-en-passant, --seventh-rank-wins)",
            kinds.join(", ")
        )
    }
}

/// The name's start of the empty file [`writable_dir`] makes and removes.
const WRITE_PROBE: &str = ".peasant-write-test-";

/// Makes `dir` (and its parents) if it does not exist and checks that a
/// file can be made in it, so that a bad `--out` is refused (status 2)
/// before any work: a path that is a file, a directory that cannot be made
/// or written. The check's empty file is removed at once; one that a run
/// killed between the two left is removed by the next run.
fn writable_dir(dir: &std::path::Path) -> Result<(), CliError> {
    if dir.exists() && !dir.is_dir() {
        return Err(CliError::input(format!(
            "{} is not a directory (--out takes the directory of the tables)",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::input(format!("cannot make directory {}: {e}", dir.display())))?;
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if entry.file_name().to_string_lossy().starts_with(WRITE_PROBE) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    let probe = dir.join(format!("{WRITE_PROBE}{}", std::process::id()));
    std::fs::write(&probe, b"")
        .map_err(|e| CliError::input(format!("cannot write in {}: {e}", dir.display())))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Refuses a `--tables` path that is not a directory, or a directory that
/// holds no table of `variant` (naming the boards and rules it holds
/// tables of), before any work: status 2.
pub fn tables_dir(dir: &std::path::Path, variant: Variant) -> Result<(), CliError> {
    if !dir.exists() {
        return Err(CliError::input(format!(
            "no table directory {}: generate tables with peasant gen {} --max-pawns N --out {}",
            dir.display(),
            super::variant_flags(variant),
            dir.display()
        )));
    }
    if !dir.is_dir() {
        return Err(CliError::input(format!(
            "{} is not a directory (--tables takes the directory of the tables)",
            dir.display()
        )));
    }
    let prefix = format!("{}-", file_name_kind(variant));
    let ours = std::fs::read_dir(dir)
        .map_err(|e| CliError::input(format!("cannot read directory {}: {e}", dir.display())))?
        .flatten()
        .any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.ends_with(".ptb") && table_kind(&name).is_some_and(|k| same_rules(k, &prefix))
        });
    if !ours {
        return Err(CliError::input(format!(
            "no tables for {} in {}{}",
            super::variant_flags(variant),
            dir.display(),
            other_tables(dir)
        )));
    }
    Ok(())
}

/// The part of a table file name before the class: `8x8`, `5x5-noep`.
fn file_name_kind(variant: Variant) -> String {
    let name = peasant::table::file_name(variant, Material::new(1, 1));
    name.strip_suffix("-1v1.ptb").unwrap_or(&name).to_string()
}

/// The kind (board and rules) of a table file name, `5x5-noep` of
/// `5x5-noep-2v1.ptb`.
fn table_kind(name: &str) -> Option<&str> {
    name.strip_suffix(".ptb")?.rsplit_once('-').map(|(k, _)| k)
}

/// Whether tables of `kind` answer positions of the variant whose file
/// names start with `prefix`: the same rules, the same height, a board
/// as wide or narrower (narrow tables answer wider boards).
fn same_rules(kind: &str, prefix: &str) -> bool {
    let ours = prefix.trim_end_matches('-');
    let split = |k: &str| -> Option<(u8, u8, String)> {
        let (board, rules) = k.split_once('-').unwrap_or((k, ""));
        let (w, h) = board.split_once('x')?;
        Some((w.parse().ok()?, h.parse().ok()?, rules.to_string()))
    };
    match (split(kind), split(ours)) {
        (Some((w, h, r)), Some((ow, oh, or))) => h == oh && r == or && w <= ow,
        _ => false,
    }
}
