//! The search against the tables: random positions of random games that a
//! table answers, each solved again by the search alone (no tables) and
//! compared. Two independent ways to the same value; any disagreement
//! means a bug in one of them or a damaged table.

use super::alphabeta::Solver;
use super::config::{SearchConfig, SolverConfig};
use super::types::{Solution, SolveError};
use crate::index::in_domain;
use crate::rng::SplitMix64;
use crate::rules::color::Color;
use crate::rules::parse::parse_position;
use crate::rules::position::Position;
use crate::rules::square::file_char;
use crate::rules::value::Value;
use crate::rules::variant::Variant;
use crate::table::{TableError, Tablebase};

/// How many positions to check, and how.
#[derive(Clone, Copy, Debug)]
pub struct CrossCheckConfig {
    /// Positions to check.
    pub samples: usize,
    /// Seed of the random games (the same seed checks the same positions).
    pub seed: u64,
    /// Compare exact values with DTM, not only win/draw/loss.
    pub dtm: bool,
    /// The search's transposition table in MiB.
    pub hash_mb: usize,
}

/// A position on which the search and the table disagree.
#[derive(Clone, Debug)]
pub struct Disagreement {
    /// The position, from one of the random games.
    pub pos: Position,
    /// What the search alone found.
    pub search: Solution,
    /// What the table says.
    pub table: Value,
}

/// What a cross-check found.
#[derive(Clone, Debug, Default)]
pub struct CrossCheckReport {
    /// Positions compared.
    pub checked: usize,
    /// Random games played to find them.
    pub playouts: usize,
    /// Every position on which the two disagree (none if all is well).
    pub disagreements: Vec<Disagreement>,
    /// Nodes the search took.
    pub nodes: u64,
}

/// Why a cross-check could not run.
#[derive(Debug, thiserror::Error)]
pub enum CrossCheckError {
    /// A table could not be read (a missing class is no error: its positions
    /// are not sampled).
    #[error(transparent)]
    Table(#[from] TableError),
    /// The search could not run (its transposition table does not fit in
    /// memory, say).
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// Every start position of the variant is over at once: no game to
    /// play out.
    #[error("no start position of {0} has a game in progress (every setup that fits the board is over at once): nothing to play out")]
    NoGame(Variant),
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

/// Plays random games from the start positions of the tables' variant and
/// compares, at one random position of each game that a table answers
/// (not the rules or one ply of en passant search), the table's value with
/// the search's. Gives up after `1000 * samples` games without enough
/// such positions (classes missing from `tables`).
pub fn cross_check(
    tables: &Tablebase,
    config: &CrossCheckConfig,
) -> Result<CrossCheckReport, CrossCheckError> {
    let starts = starts(tables.variant());
    if starts.is_empty() {
        return Err(CrossCheckError::NoGame(tables.variant()));
    }
    let mut rng = SplitMix64::new(config.seed);
    let solver = Solver::new(
        SolverConfig {
            search: SearchConfig {
                hash_mb: config.hash_mb,
                ..SolverConfig::default().search
            },
            dtm: config.dtm,
            ..SolverConfig::default()
        },
        None,
    )?;
    let mut report = CrossCheckReport::default();
    while report.checked < config.samples
        && report.playouts < config.samples.max(1).saturating_mul(1000)
    {
        report.playouts += 1;
        // One random game; keep the positions the tables can answer.
        let mut p = starts[rng.index(starts.len())];
        let mut candidates = Vec::new();
        loop {
            let white_view = if p.turn() == Color::White {
                p
            } else {
                p.flipped()
            };
            let in_table = !p.is_game_over() && in_domain(&white_view);
            match tables.probe(&p) {
                Ok(_) if !in_table => {}
                Ok(v) => candidates.push((p, v)),
                Err(TableError::Missing { .. }) => {}
                Err(e) => return Err(e.into()),
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
        let search = solver.solve(&pos)?;
        report.checked += 1;
        let agree = if config.dtm {
            search.value == Some(table)
        } else {
            search.wdl == table.wdl()
        };
        if !agree {
            report
                .disagreements
                .push(Disagreement { pos, search, table });
        }
    }
    report.nodes = solver.stats().nodes;
    Ok(report)
}
