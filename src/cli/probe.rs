//! `peasant probe <POS> [--tables DIR] [--pgn]`: the board, the value and
//! DTM, every legal move with its value and DTM best first, and the line of
//! perfect play to the end (as a PGN under `--pgn`).

use super::{print_json, CliError, GlobalArgs};
use clap::Args;
use peasant::explore::pgn::result_tag;
use peasant::rules::notation::numbered_moves;
use peasant::{
    rules::{Move, Position, Value},
    table::{TableError, Tablebase},
};
use serde_json::json;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// A position text (FEN subset) or a setup name.
    pub pos: String,
    /// Where the tables are.
    #[arg(long, value_name = "DIR", default_value = "tables")]
    pub tables: PathBuf,
    /// Print the line of perfect play as a PGN game (with FEN and Result tags).
    #[arg(long)]
    pub pgn: bool,
}

pub fn table_error(e: TableError) -> CliError {
    match e {
        // A directory that is not there, not a directory, or of other
        // tables says so rather than naming one missing class.
        TableError::Missing {
            ref path,
            material,
            variant,
        } => match path
            .parent()
            .map(|dir| super::gen::tables_dir(dir, variant))
        {
            Some(Err(better)) => better,
            _ => CliError::input(format!(
                "{e}; generate it with: peasant gen {} --class {material}",
                super::variant_flags(variant)
            )),
        },
        // Tables without distances to mate given where they are needed.
        TableError::NoDtm { .. } => CliError::input(e),
        _ => CliError::failure(e),
    }
}

fn dtm_json(v: Value) -> serde_json::Value {
    v.dtm().map_or(serde_json::Value::Null, |d| json!(d))
}

/// A PGN game of the line of perfect play from `pos`.
pub fn pgn(pos: &Position, value: Value, line: &[Move]) -> String {
    peasant::explore::pgn::line_pgn(pos, value, line)
}

impl ProbeArgs {
    pub fn run(&self, global: &GlobalArgs) -> Result<(), CliError> {
        let pos = global.position(&self.pos)?;
        // Safety: table files are written once under a temporary name and
        // renamed, never changed in place while this short command runs.
        let tb = unsafe { Tablebase::new_mmap(&self.tables, pos.variant()) };
        let value = tb.probe(&pos).map_err(table_error)?;
        let moves = tb.best_moves(&pos).map_err(table_error)?;
        let line = tb.principal_line(&pos).map_err(table_error)?;
        if global.json {
            print_json(&probe_json(&pos, value, &moves, &line, self.pgn));
        } else if self.pgn {
            print!("{}", pgn(&pos, value, &line));
        } else {
            print_probe(&pos, value, &moves, &line);
        }
        Ok(())
    }
}

/// The probe as one JSON object, with the PGN under `with_pgn`.
fn probe_json(
    pos: &Position,
    value: Value,
    moves: &[(Move, Value)],
    line: &[Move],
    with_pgn: bool,
) -> serde_json::Value {
    let mut out = json!({
        "fen": pos.to_string(),
        "value": value.wdl().name(),
        "dtm": dtm_json(value),
        "moves": moves.iter().map(|(m, v)| json!({
            "move": m.san(), "value": v.wdl().name(), "dtm": dtm_json(*v)
        })).collect::<Vec<_>>(),
        "line": line.iter().map(|m| m.san()).collect::<Vec<_>>(),
        "result": result_tag(pos, line),
    });
    if with_pgn {
        out["pgn"] = json!(pgn(pos, value, line));
    }
    out
}

/// The probe as text: the board, the value and DTM, each move's, the line.
fn print_probe(pos: &Position, value: Value, moves: &[(Move, Value)], line: &[Move]) {
    print!("{}", pos.diagram());
    println!();
    println!("fen:    {pos}");
    println!("value:  {value} ({} to move)", pos.turn());
    match value.dtm() {
        Some(d) => println!("dtm:    {d} plies"),
        None => println!("dtm:    -"),
    }
    if let Some(outcome) = pos.outcome() {
        println!("game over: {outcome}");
    }
    if !moves.is_empty() {
        println!("moves:");
    }
    for (m, v) in moves {
        let dtm = v.dtm().map_or("-".to_string(), |d| d.to_string());
        println!("  {:<6} {:<5} dtm {dtm:<4} ({v})", m.san(), v.wdl().name());
    }
    if !line.is_empty() {
        println!(
            "line:   {} {}",
            numbered_moves(pos, line),
            result_tag(pos, line)
        );
    }
}
