//! `peasant play <POS> [--as white|black] [--tables DIR] [--think SECS]
//! [--pgn FILE]`: a game in the terminal against perfect play; and
//! `peasant play --protocol pawnrace --as white|black [--gaps XY]
//! [--avoid XY,...]`: the Pawn Race tournament's line protocol.

use super::{CliError, GlobalArgs};
use clap::{Args, ValueEnum};
use peasant::explore::pawnrace::{self, parse_gaps, ProtocolConfig, ProtocolError};
use peasant::explore::{game, Player, PlayerConfig};
use peasant::solve::Method;
use peasant::{
    rules::{Board, Color, Variant},
    table::Tablebase,
};
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Side {
    White,
    Black,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Protocol {
    /// The Pawn Race tournament's protocol (8x8, black chooses the gaps).
    Pawnrace,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// A position text or a setup name (not with --protocol).
    pub pos: Option<String>,
    /// The side you play (with --protocol: the side peasant plays).
    #[arg(long = "as", value_enum, default_value = "white")]
    pub side: Side,
    /// Where the tables are (used where they hold the position).
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Seconds of thought per move (default 5; 3.5 under --protocol).
    #[arg(long, value_name = "SECS")]
    pub think: Option<f64>,
    /// Write the game's PGN to FILE (it is printed anyway).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Speak a tournament's line protocol on stdin/stdout.
    #[arg(long, value_enum)]
    pub protocol: Option<Protocol>,
    /// Playing black under --protocol: these gaps (white's file, black's: AH).
    #[arg(long, value_name = "XY")]
    pub gaps: Option<String>,
    /// Playing black under --protocol: gap pairs not to choose (XY,XY,...).
    #[arg(long, value_name = "XY,...")]
    pub avoid: Option<String>,
    /// Transposition table of each solver, MiB.
    #[arg(long, value_name = "M", default_value_t = 256)]
    pub hash_mb: usize,
    /// The search that proves each move's win/draw/loss questions: pn
    /// (proof-number search, the default, as for solve) or ab.
    #[arg(long, value_enum, value_name = "METHOD", hide_possible_values = true)]
    pub method: Option<super::MethodArg>,
}

impl PlayArgs {
    /// `--method`'s search, else the rule's for win/draw/loss questions.
    fn method(&self) -> Method {
        self.method
            .map_or_else(|| Method::default_for(false), Method::from)
    }

    fn think(&self, default: f64) -> Result<Duration, CliError> {
        let secs = self.think.unwrap_or(default);
        if !(secs.is_finite() && secs > 0.0 && secs <= 86_400.0) {
            return Err(CliError::input(format!(
                "--think {secs}: expected seconds between 0 and 86400"
            )));
        }
        Ok(Duration::from_secs_f64(secs))
    }

    fn tablebase(&self, variant: Variant) -> Option<Tablebase> {
        // Safety: table files are written once under a temporary name and
        // renamed, never changed in place while a game runs.
        self.tables
            .as_ref()
            .map(|dir| unsafe { Tablebase::new_mmap(dir, variant) })
    }

    pub fn run(&self, global: &GlobalArgs) -> Result<(), CliError> {
        let color = match self.side {
            Side::White => Color::White,
            Side::Black => Color::Black,
        };
        if self.protocol.is_some() {
            return self.run_protocol(global, color);
        }
        if self.gaps.is_some() || self.avoid.is_some() {
            return Err(CliError::input(
                "--gaps and --avoid go with --protocol pawnrace",
            ));
        }
        let text = self
            .pos
            .as_deref()
            .ok_or_else(|| CliError::input("play needs a position (or --protocol pawnrace)"))?;
        let pos = global.position(text)?;
        if let Some(o) = pos.outcome() {
            return Err(CliError::input(format!("the game is already over ({o})")));
        }
        let think = self.think(5.0)?;
        let tb = self.tablebase(pos.variant());
        let player = Player::new(
            PlayerConfig {
                hash_mb: self.hash_mb,
                method: self.method(),
                ..PlayerConfig::default()
            },
            tb.as_ref(),
        )
        .map_err(super::solve::solve_error)?;
        let stdin = io::stdin();
        let mut out = io::stdout();
        let record = game::play(pos, color, &player, think, stdin.lock(), &mut out)
            .map_err(CliError::failure)?;
        let pgn = record.pgn();
        println!("\n{pgn}");
        if let Some(path) = &self.pgn {
            std::fs::write(path, &pgn)
                .map_err(|e| CliError::failure(format!("{}: {e}", path.display())))?;
        }
        Ok(())
    }

    fn run_protocol(&self, global: &GlobalArgs, color: Color) -> Result<(), CliError> {
        if self.pos.is_some() {
            return Err(CliError::input(
                "--protocol pawnrace takes no position: the gaps are agreed on the input",
            ));
        }
        if global.board.as_deref().is_some_and(|b| b != "8x8") {
            return Err(CliError::input("--protocol pawnrace is played on 8x8"));
        }
        let gap = |t: &str| {
            parse_gaps(t).ok_or_else(|| {
                CliError::input(format!(
                    "'{t}' is not a gap pair: expected two letters A-H, white's gap then black's"
                ))
            })
        };
        let gaps = self.gaps.as_deref().map(gap).transpose()?;
        let avoid = match self.avoid.as_deref() {
            None => Vec::new(),
            Some(list) => list
                .split(',')
                .filter(|s| !s.trim().is_empty())
                .map(gap)
                .collect::<Result<_, _>>()?,
        };
        if color == Color::White && (gaps.is_some() || !avoid.is_empty()) {
            return Err(CliError::input(
                "--gaps and --avoid are black's choice: use --as black",
            ));
        }
        let config = ProtocolConfig {
            color,
            gaps,
            avoid,
            think: self.think(3.5)?,
            rules: global.rules(),
            hash_mb: self.hash_mb,
            method: self.method(),
        };
        let tb = self.tablebase(Variant::new(Board::STANDARD, global.rules()));
        let stdin = io::stdin();
        let mut out = io::stdout();
        let result = pawnrace::run(&config, tb.as_ref(), stdin.lock(), &mut out);
        let _ = out.flush();
        match result {
            Ok(_) => Ok(()),
            Err(ProtocolError::BadInput(e)) => Err(CliError::input(e)),
            Err(ProtocolError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            Err(e) => Err(CliError::failure(e)),
        }
    }
}
