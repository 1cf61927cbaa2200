//! What the proof examples (`proof_size`, `proof_choices`) share: their
//! arguments, BOARD POSITION [HASH_MB [guided|mobility|epsilon]], read into the
//! position and a proof-number solver set up as they say.

use peasant::solve::{PnConfig, PnEpsilon, PnInit, SearchConfig};
use peasant::{
    rules::{parse_position, Board, Position, Rules},
    solve::PnSolver,
};

/// The position and the solver `args` name; the usage line of `name`
/// otherwise.
pub fn position_and_solver(
    name: &str,
    args: &[String],
) -> Result<(Position, PnSolver<'static>), String> {
    position_and_capped_solver(name, args, None)
}

/// [`position_and_solver`] with a solver that stops after `max_nodes`
/// nodes, if given.
#[allow(dead_code)]
pub fn position_and_capped_solver(
    name: &str,
    args: &[String],
    max_nodes: Option<u64>,
) -> Result<(Position, PnSolver<'static>), String> {
    let usage = format!("usage: {name} BOARD POSITION [HASH_MB [guided|mobility|epsilon]]");
    if args.len() < 2 || args.len() > 4 {
        return Err(usage);
    }
    let board: Board = args[0].parse().map_err(|e| format!("{e}"))?;
    let pos = parse_position(&args[1], Some(board), Rules::default()).map_err(|e| e.to_string())?;
    let hash_mb = match args.get(2) {
        Some(s) => s.parse().map_err(|_| format!("{s}: not a number"))?,
        None => 256,
    };
    // The search as it is (depth-first, each side's moves tried in the
    // guided order), the same with mobility alone ordering them, or the
    // 1+ε trick with mobility, as before either.
    let (epsilon, init) = match args.get(3).map(String::as_str) {
        None | Some("guided") => (PnEpsilon::Stick, PnInit::Guided),
        Some("mobility") => (PnEpsilon::Stick, PnInit::Mobility),
        Some("epsilon") => (PnEpsilon::Shift(1), PnInit::Mobility),
        Some(_) => return Err(usage),
    };
    let solver = PnSolver::new(
        PnConfig {
            search: SearchConfig {
                hash_mb,
                max_nodes,
                ..PnConfig::default().search
            },
            epsilon,
            init,
            ..PnConfig::default()
        },
        None,
    )
    .map_err(|e| e.to_string())?;
    Ok((pos, solver))
}
