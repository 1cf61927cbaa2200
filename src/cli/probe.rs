//! `peasant probe <POS> [--tables DIR] [--pgn]`: the board, the value and
//! DTM, every legal move with its value and DTM best first, and the line of
//! perfect play to the end (as a PGN under `--pgn`). Where a table on the
//! way holds win, draw or loss only (`gen --wdl-only`), the same without
//! distances, and a line that keeps the value.

use super::{print_json, CliError, GlobalArgs};
use clap::Args;
use peasant::explore::pgn::result_tag;
use peasant::rules::notation::numbered_moves;
use peasant::{
    rules::{Move, Position, Value, Wdl},
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
    /// Print the line of perfect play as a PGN game (with FEN and Result
    /// tags; from win/draw/loss-only tables, a line that keeps the value).
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

/// A PGN game of the line of play from `pos` (`value` names it).
pub fn pgn(pos: &Position, value: impl std::fmt::Display, line: &[Move]) -> String {
    peasant::explore::pgn::line_pgn(pos, value, line)
}

/// What a probe found: with distances to mate, or (where a table on the
/// way has none, `gen --wdl-only`) win, draw or loss alone.
enum Probe {
    Exact {
        value: Value,
        moves: Vec<(Move, Value)>,
        line: Vec<Move>,
    },
    WdlOnly {
        value: Wdl,
        moves: Vec<(Move, Wdl)>,
        line: Vec<Move>,
    },
}

impl ProbeArgs {
    pub fn run(&self, global: &GlobalArgs) -> Result<(), CliError> {
        let pos = global.position(&self.pos)?;
        // Safety: table files are written once under a temporary name and
        // renamed, never changed in place while this short command runs.
        let tb = unsafe { Tablebase::new_mmap(&self.tables, pos.variant()) };
        let probe = match exact_probe(&tb, &pos) {
            Ok(probe) => probe,
            Err(TableError::NoDtm { .. }) => Probe::WdlOnly {
                value: tb.probe_wdl(&pos).map_err(table_error)?,
                moves: tb.best_moves_wdl(&pos).map_err(table_error)?,
                line: tb.value_keeping_line(&pos).map_err(table_error)?,
            },
            Err(e) => return Err(table_error(e)),
        };
        if global.json {
            print_json(&probe_json(&pos, &probe, self.pgn));
        } else if self.pgn {
            print!("{}", probe_pgn(&pos, &probe));
        } else {
            print_probe(&pos, &probe);
        }
        Ok(())
    }
}

/// The probe with distances, or the first table without them met.
fn exact_probe(tb: &Tablebase, pos: &Position) -> Result<Probe, TableError> {
    Ok(Probe::Exact {
        value: tb.probe(pos)?,
        moves: tb.best_moves(pos)?,
        line: tb.principal_line(pos)?,
    })
}

fn probe_pgn(pos: &Position, probe: &Probe) -> String {
    match probe {
        Probe::Exact { value, line, .. } => pgn(pos, value, line),
        Probe::WdlOnly { value, line, .. } => pgn(pos, format!("{value}, {WDL_ONLY_LINE}"), line),
    }
}

/// What a line from win/draw/loss-only tables is.
const WDL_ONLY_LINE: &str = "a line that keeps the value, from win/draw/loss-only tables";

/// The probe as one JSON object, with the PGN under `with_pgn`.
fn probe_json(pos: &Position, probe: &Probe, with_pgn: bool) -> serde_json::Value {
    let (value, dtm, moves, line, wdl_only) = match probe {
        Probe::Exact { value, moves, line } => (
            value.wdl(),
            dtm_json(*value),
            moves
                .iter()
                .map(
                    |(m, v)| json!({"move": m.san(), "value": v.wdl().name(), "dtm": dtm_json(*v)}),
                )
                .collect::<Vec<_>>(),
            line,
            false,
        ),
        Probe::WdlOnly { value, moves, line } => (
            *value,
            serde_json::Value::Null,
            moves
                .iter()
                .map(|(m, v)| json!({"move": m.san(), "value": v.name(), "dtm": null}))
                .collect(),
            line,
            true,
        ),
    };
    let mut out = json!({
        "fen": pos.to_string(),
        "value": value.name(),
        "dtm": dtm,
        "wdl_only": wdl_only,
        "moves": moves,
        "line": line.iter().map(|m| m.san()).collect::<Vec<_>>(),
        "result": result_tag(pos, line),
    });
    if with_pgn {
        out["pgn"] = json!(probe_pgn(pos, probe));
    }
    out
}

/// The probe as text: the board, the value and DTM, each move's, the line.
fn print_probe(pos: &Position, probe: &Probe) {
    print!("{}", pos.diagram());
    println!();
    println!("fen:    {pos}");
    let (moves, line): (Vec<(Move, Wdl, String)>, &[Move]) = match probe {
        Probe::Exact { value, moves, line } => {
            println!("value:  {value} ({} to move)", pos.turn());
            match value.dtm() {
                Some(d) => println!("dtm:    {d} plies"),
                None => println!("dtm:    -"),
            }
            let moves = moves
                .iter()
                .map(|(m, v)| {
                    let dtm = v.dtm().map_or("-".to_string(), |d| d.to_string());
                    (*m, v.wdl(), format!(" dtm {dtm:<4} ({v})"))
                })
                .collect();
            (moves, line)
        }
        Probe::WdlOnly { value, moves, line } => {
            println!("value:  {value} ({} to move)", pos.turn());
            println!("dtm:    - (win/draw/loss-only tables)");
            let moves = moves.iter().map(|&(m, v)| (m, v, String::new())).collect();
            (moves, line)
        }
    };
    if let Some(outcome) = pos.outcome() {
        println!("game over: {outcome}");
    }
    if !moves.is_empty() {
        println!("moves:");
    }
    for (m, v, rest) in &moves {
        let row = format!("  {:<6} {:<5}{rest}", m.san(), v.name());
        println!("{}", row.trim_end());
    }
    if !line.is_empty() {
        println!(
            "line:   {} {}",
            numbered_moves(pos, line),
            result_tag(pos, line)
        );
        if matches!(probe, Probe::WdlOnly { .. }) {
            println!("        (a line that keeps the value; the tables hold no distances, so not the fastest)");
        }
    }
}
