//! `peasant probe <POS> [--tables DIR] [--pgn]`: the board, the value and
//! DTM, every legal move with its value and DTM best first, and the line of
//! perfect play to the end (as a PGN under `--pgn`).

use super::{print_json, CliError, GlobalArgs};
use clap::Args;
use peasant::{rules::Outcome, table::TableError, Color, Move, Position, Tablebase, Value};
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
        _ => CliError::failure(e),
    }
}

fn dtm_json(v: Value) -> serde_json::Value {
    v.dtm().map_or(serde_json::Value::Null, |d| json!(d))
}

/// The PGN result of the game at the end of `line` from `pos`.
fn result_tag(pos: &Position, line: &[Move]) -> &'static str {
    let end = line.iter().fold(*pos, |p, &m| p.play(m));
    match end.outcome() {
        Some(Outcome::Decisive {
            winner: Color::White,
        }) => "1-0",
        Some(Outcome::Decisive {
            winner: Color::Black,
        }) => "0-1",
        Some(Outcome::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// The moves of `line` from `pos` in SAN with move numbers (`1. e4 d5`,
/// or `1... d5` when black moves first).
fn numbered_moves(pos: &Position, line: &[Move]) -> String {
    let mut out = Vec::new();
    let mut number = 1;
    let mut turn = pos.turn();
    for (i, m) in line.iter().enumerate() {
        match turn {
            Color::White => out.push(format!("{number}. {}", m.san())),
            Color::Black if i == 0 => out.push(format!("{number}... {}", m.san())),
            Color::Black => out.push(m.san()),
        }
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    out.join(" ")
}

/// A PGN game of the line of perfect play from `pos`.
pub fn pgn(pos: &Position, value: Value, line: &[Move]) -> String {
    let result = result_tag(pos, line);
    let v = pos.variant();
    let mut variant = format!("{}", v.board);
    if !v.rules.en_passant {
        variant.push_str(" no-en-passant");
    }
    if v.rules.seventh_rank_wins {
        variant.push_str(" seventh-rank-wins");
    }
    let moves = numbered_moves(pos, line);
    let sep = if moves.is_empty() { "" } else { " " };
    format!(
        "[Event \"peasant probe: {value}\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"-\"]\n\
         [White \"peasant\"]\n[Black \"peasant\"]\n[Result \"{result}\"]\n[Variant \"pawns {variant}\"]\n\
         [SetUp \"1\"]\n[FEN \"{pos}\"]\n\n{moves}{sep}{result}\n"
    )
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
        let line_san: Vec<String> = line.iter().map(|m| m.san()).collect();
        if global.json {
            let mut out = json!({
                "fen": pos.to_string(),
                "value": value.wdl().name(),
                "dtm": dtm_json(value),
                "moves": moves.iter().map(|(m, v)| json!({
                    "move": m.san(), "value": v.wdl().name(), "dtm": dtm_json(*v)
                })).collect::<Vec<_>>(),
                "line": line_san,
                "result": result_tag(&pos, &line),
            });
            if self.pgn {
                out["pgn"] = json!(pgn(&pos, value, &line));
            }
            print_json(&out);
            return Ok(());
        }
        if self.pgn {
            print!("{}", pgn(&pos, value, &line));
            return Ok(());
        }
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
        for (m, v) in &moves {
            let dtm = v.dtm().map_or("-".to_string(), |d| d.to_string());
            println!("  {:<6} {:<5} dtm {dtm:<4} ({v})", m.san(), v.wdl().name());
        }
        if !line.is_empty() {
            println!(
                "line:   {} {}",
                numbered_moves(&pos, &line),
                result_tag(&pos, &line)
            );
        }
        Ok(())
    }
}
