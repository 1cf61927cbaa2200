//! `peasant probe <POS> [--tables DIR]`

use super::{print_json, CliError, GlobalArgs};
use clap::Args;
use peasant::{Move, Position, TableError, Tablebase, Value};
use serde_json::json;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// A position text (FEN subset) or a setup name.
    pub pos: String,
    /// Where the tables are.
    #[arg(long, value_name = "DIR", default_value = "tables")]
    pub tables: PathBuf,
}

pub fn table_error(e: TableError) -> CliError {
    match e {
        TableError::Missing { .. } => CliError::input(e),
        _ => CliError::failure(e),
    }
}

/// Every legal move with its value from the mover's view, best first.
pub fn rated_moves(tb: &Tablebase, pos: &Position) -> Result<Vec<(Move, Value)>, CliError> {
    let mut moves = Vec::new();
    for &m in pos.legal_moves().iter() {
        let v = tb.probe(&pos.play(m)).map_err(table_error)?.before_move();
        moves.push((m, v));
    }
    moves.sort_by_key(|m| std::cmp::Reverse(m.1));
    Ok(moves)
}

/// The line of perfect play from `pos` to the end of the game.
pub fn principal_line(tb: &Tablebase, pos: &Position) -> Result<Vec<Move>, CliError> {
    let mut line = Vec::new();
    let mut p = *pos;
    while let Some(&(m, _)) = rated_moves(tb, &p)?.first() {
        line.push(m);
        p = p.play(m);
    }
    Ok(line)
}

fn dtm_json(v: Value) -> serde_json::Value {
    v.dtm().map_or(serde_json::Value::Null, |d| json!(d))
}

impl ProbeArgs {
    pub fn run(&self, global: &GlobalArgs) -> Result<(), CliError> {
        let pos = global.position(&self.pos)?;
        let tb = Tablebase::new(&self.tables, pos.variant());
        let value = tb.probe(&pos).map_err(table_error)?;
        let moves = rated_moves(&tb, &pos)?;
        let line = principal_line(&tb, &pos)?;
        let line_san: Vec<String> = line.iter().map(|m| m.san()).collect();
        if global.json {
            print_json(&json!({
                "fen": pos.to_string(),
                "value": value.wdl().name(),
                "dtm": dtm_json(value),
                "moves": moves.iter().map(|(m, v)| json!({
                    "move": m.san(), "value": v.wdl().name(), "dtm": dtm_json(*v)
                })).collect::<Vec<_>>(),
                "line": line_san,
            }));
            return Ok(());
        }
        print!("{}", pos.diagram());
        println!();
        println!("fen:    {pos}");
        println!("value:  {value} ({} to move)", pos.turn());
        if let Some(outcome) = pos.outcome() {
            println!("game over: {outcome}");
        }
        for (m, v) in &moves {
            println!("  {:<6} {v}", m.san());
        }
        if !line.is_empty() {
            println!("line:   {}", line_san.join(" "));
        }
        Ok(())
    }
}
