//! `peasant show <POS> [--svg FILE [--lastmove UCI] [--arrow UCI] [--flip]]`

use super::{print_json, CliError, GlobalArgs};
use clap::Args;
use peasant::explore::svg::{board_svg, on_board, parse_uci_squares, SvgOptions};
use peasant::rules::{Outcome, Position};
use serde_json::json;
use std::path::Path;

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// A position text (FEN subset) or a setup name: peasants, pawngame, pawnrace:X:Y.
    pub pos: String,
    /// Write an SVG picture of the board to FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
    /// With --svg: highlight this move (long form, e2e4) as the last one.
    #[arg(long, value_name = "UCI", requires = "svg")]
    pub lastmove: Option<String>,
    /// With --svg: draw an arrow for this move (long form).
    #[arg(long, value_name = "UCI", requires = "svg")]
    pub arrow: Option<String>,
    /// With --svg: draw the board from black's side.
    #[arg(long, requires = "svg")]
    pub flip: bool,
}

/// The outcome in words for JSON: "white wins", "black wins", "draw", or null.
fn outcome_json(pos: &Position) -> serde_json::Value {
    match pos.outcome() {
        None => serde_json::Value::Null,
        Some(Outcome::Decisive { winner }) => json!(format!("{winner} wins")),
        Some(Outcome::Draw) => json!("draw"),
    }
}

impl ShowArgs {
    pub fn run(&self, global: &GlobalArgs) -> Result<(), CliError> {
        let pos = global.position(&self.pos)?;
        if let Some(path) = &self.svg {
            self.write_svg(&pos, path)?;
        }
        let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.san()).collect();
        if global.json {
            print_json(&show_json(&pos, &moves));
        } else {
            print_show(&pos, &moves);
        }
        Ok(())
    }

    /// `--svg FILE`: the picture of `pos`, with `--lastmove`, `--arrow`
    /// and `--flip`.
    fn write_svg(&self, pos: &Position, path: &Path) -> Result<(), CliError> {
        let squares = |t: &Option<String>| -> Result<_, CliError> {
            t.as_deref()
                .map(|t| {
                    parse_uci_squares(t)
                        .filter(|&sq| on_board(pos.board(), sq))
                        .ok_or_else(|| {
                            CliError::input(format!(
                                "'{t}' is not a move in long form such as e2e4 on the {} board",
                                pos.board()
                            ))
                        })
                })
                .transpose()
        };
        let options = SvgOptions {
            last_move: squares(&self.lastmove)?,
            arrow: squares(&self.arrow)?,
            flipped: self.flip,
            square_px: 0,
        };
        std::fs::write(path, board_svg(pos, &options))
            .map_err(|e| CliError::failure(format!("{}: {e}", path.display())))
    }
}

fn show_json(pos: &Position, moves: &[String]) -> serde_json::Value {
    let variant = pos.variant();
    json!({
        "fen": pos.to_string(),
        "board": variant.board.to_string(),
        "en_passant_rule": variant.rules.en_passant,
        "seventh_rank_wins": variant.rules.seventh_rank_wins,
        "turn": pos.turn().name(),
        "en_passant": pos.ep_square().map(|s| s.to_string()),
        "white_pawns": pos.pawns(peasant::rules::Color::White).count(),
        "black_pawns": pos.pawns(peasant::rules::Color::Black).count(),
        "moves": moves,
        "outcome": outcome_json(pos),
    })
}

fn print_show(pos: &Position, moves: &[String]) {
    print!("{}", pos.diagram());
    println!();
    println!("fen:      {pos}");
    println!("variant:  {}", pos.variant());
    println!("to move:  {}", pos.turn());
    if let Some(sq) = pos.ep_square() {
        println!("en passant: {sq}");
    }
    match pos.outcome() {
        Some(outcome) => println!("game over: {outcome}"),
        None => println!("moves ({}): {}", moves.len(), moves.join(" ")),
    }
}
