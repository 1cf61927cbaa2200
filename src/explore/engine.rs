//! A player with a clock: picks a move within a time limit, proven where it
//! can be and the best found otherwise, saying which.
//!
//! In order: the tables (exact, DTM: the shortest win, the longest loss);
//! a DTM search of every move if asked for (the same, when it finishes in
//! time); then win/draw/loss questions about each move with node budgets
//! that double each round ("does the opponent avoid losing after this
//! move?", "does the opponent win after it?"), the transposition table
//! kept from move to move, so that what one move's search proved helps the
//! next; and when time runs out before a winning move is proven, a short
//! heuristic search among the moves not proven to lose.

use crate::explore::oracle::{exact, table_analysis, wdl_only, with_deadline, Source};
use crate::rules::{Color, Move, Outcome, Position, Wdl};
use crate::solve::order::{attacked_squares, Weights};
use crate::solve::{
    Method, PnConfig, PnSolver, Question, SearchConfig, Solution, Solve, SolveError, Solver,
    SolverConfig,
};
use crate::table::Tablebase;
use std::time::{Duration, Instant};

/// What the player chose and what it knows of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move to play.
    pub mv: Move,
    /// The move's value from the mover's view, when proven.
    pub value: Option<Solution>,
    /// Who proved it (`None`: not proven, the best move found in time).
    pub source: Option<Source>,
}

impl Choice {
    /// Whether the move's value is proven (else it is the best found in
    /// time).
    pub fn proven(&self) -> bool {
        self.value.is_some()
    }
}

/// How a player searches.
#[derive(Clone, Copy, Debug)]
pub struct PlayerConfig {
    /// Try a DTM search first (the winner's shortest way, the loser's
    /// longest resistance); worth it on small boards.
    pub dtm: bool,
    /// Transposition table of each solver, in MiB.
    pub hash_mb: usize,
    /// Share of the time for proofs before the heuristic search (0..1).
    pub proof_share: f64,
    /// The search that proves each move's win/draw/loss questions:
    /// alpha-beta, or proof-number search (fewer nodes on every game
    /// measured, `solve::Method::default_for`).
    pub method: Method,
}

impl Default for PlayerConfig {
    fn default() -> PlayerConfig {
        PlayerConfig {
            dtm: true,
            hash_mb: 128,
            proof_share: 0.75,
            method: Method::AlphaBeta,
        }
    }
}

/// A player of one variant; keeps its solvers' transposition tables across
/// moves.
pub struct Player<'t> {
    config: PlayerConfig,
    tables: Option<&'t Tablebase>,
    /// The win/draw/loss search (`config.method`'s).
    wdl: Box<dyn Solve + 't>,
    dtm: Option<Solver<'t>>,
}

/// What the win/draw/loss questions established about one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Finding {
    Unknown,
    Win,
    /// A draw or a loss (the opponent avoids losing).
    AtMostDraw,
    Draw,
    Loss,
}

impl<'t> Player<'t> {
    /// A player with its own transposition tables (`config.hash_mb` each);
    /// [`SolveError::Memory`] if they do not fit in memory.
    pub fn new(
        config: PlayerConfig,
        tables: Option<&'t Tablebase>,
    ) -> Result<Player<'t>, SolveError> {
        let solver = |dtm| {
            Solver::new(
                SolverConfig {
                    search: SearchConfig {
                        hash_mb: config.hash_mb,
                        threads: 1,
                        ..SolverConfig::default().search
                    },
                    dtm,
                    ..SolverConfig::default()
                },
                tables,
            )
        };
        let wdl: Box<dyn Solve + 't> = match config.method {
            Method::AlphaBeta => Box::new(solver(false)?),
            Method::ProofNumber => Box::new(PnSolver::new(
                PnConfig {
                    search: SearchConfig {
                        hash_mb: config.hash_mb,
                        threads: 1,
                        ..PnConfig::default().search
                    },
                    ..PnConfig::default()
                },
                tables,
            )?),
        };
        Ok(Player {
            config,
            tables,
            wdl,
            dtm: config.dtm.then(|| solver(true)).transpose()?,
        })
    }

    /// A move for the side to move of `pos` (which must have one) within
    /// about `think` (a little more for the last heuristic step).
    pub fn choose(&self, pos: &Position, think: Duration) -> Choice {
        let start = Instant::now();
        let moves: Vec<Move> = pos.legal_moves().to_vec();
        assert!(
            !moves.is_empty(),
            "choose needs a position with a legal move"
        );
        // A move that ends the game with a win needs no search.
        for &m in &moves {
            if let Some(Outcome::Decisive { winner }) = pos.play(m).outcome() {
                if winner == pos.turn() {
                    return Choice {
                        mv: m,
                        value: Some(exact(crate::rules::Value::Win(1))),
                        source: Some(Source::Search),
                    };
                }
            }
        }
        if let Some(tb) = self.tables {
            if let Ok(Some(a)) = table_analysis(tb, pos) {
                let (mv, value) = a.moves[0];
                return Choice {
                    mv,
                    value: Some(value),
                    source: Some(Source::Table),
                };
            }
        }
        let proof_end = start + think.mul_f64(self.config.proof_share.clamp(0.0, 1.0));
        if let Some(dtm) = &self.dtm {
            let until = start + think.mul_f64(self.config.proof_share.clamp(0.0, 1.0) / 2.0);
            if let Ok(root) = with_deadline(dtm, Some(until), || dtm.solve_root(pos, &|_, _| {})) {
                let (mv, value) = root.moves[0];
                return Choice {
                    mv,
                    value: Some(value),
                    source: Some(Source::Search),
                };
            }
        }
        let mut order = moves.clone();
        order.sort_by_cached_key(|&m| -static_after(pos, m));
        let found = self.prove_moves(pos, &order, proof_end);
        let of = |k: Finding| -> Vec<Move> {
            order
                .iter()
                .zip(&found)
                .filter(|(_, &x)| x == k)
                .map(|(&m, _)| m)
                .collect()
        };
        if let Some(&m) = of(Finding::Win).first() {
            return Choice {
                mv: m,
                value: Some(wdl_only(Wdl::Win)),
                source: Some(Source::Search),
            };
        }
        let all_found = !found.contains(&Finding::Unknown) && !found.contains(&Finding::AtMostDraw);
        let draws = of(Finding::Draw);
        if all_found {
            // Proven: no move wins; a draw if one draws.
            let (pool, wdl) = if draws.is_empty() {
                (order.clone(), Wdl::Loss)
            } else {
                (draws, Wdl::Draw)
            };
            let mv = heuristic_choice(pos, &pool, start + think);
            return Choice {
                mv,
                value: Some(wdl_only(wdl)),
                source: Some(Source::Search),
            };
        }
        // Not proven: the best-looking move among those that may still
        // win, else those that draw or may, else any.
        let mut pool = of(Finding::Unknown);
        if pool.is_empty() {
            pool = draws;
        }
        if pool.is_empty() {
            pool = of(Finding::AtMostDraw);
        }
        if pool.is_empty() {
            pool = order.clone();
        }
        let mv = heuristic_choice(pos, &pool, start + think);
        Choice {
            mv,
            value: None,
            source: None,
        }
    }

    /// Asks each move's questions with doubling node budgets until a move
    /// is proven to win, every move is settled, or `until`.
    fn prove_moves(&self, pos: &Position, order: &[Move], until: Instant) -> Vec<Finding> {
        let mut found = vec![Finding::Unknown; order.len()];
        let solver = &self.wdl;
        with_deadline(solver.as_ref(), Some(until), || {
            let mut budget: u64 = 2_000;
            loop {
                for (i, &m) in order.iter().enumerate() {
                    let child = pos.play(m);
                    if found[i] == Finding::Unknown {
                        match solver.answer(&child, Question::AvoidsLoss, Some(budget)) {
                            Ok(false) => {
                                found[i] = Finding::Win;
                                return;
                            }
                            Ok(true) => found[i] = Finding::AtMostDraw,
                            Err(SolveError::Stopped) if Instant::now() >= until => return,
                            Err(_) => {}
                        }
                    }
                    if found[i] == Finding::AtMostDraw {
                        match solver.answer(&child, Question::Wins, Some(budget)) {
                            Ok(false) => found[i] = Finding::Draw,
                            Ok(true) => found[i] = Finding::Loss,
                            Err(SolveError::Stopped) if Instant::now() >= until => return,
                            Err(_) => {}
                        }
                    }
                }
                if !found.contains(&Finding::Unknown) && !found.contains(&Finding::AtMostDraw) {
                    return;
                }
                budget = budget.saturating_mul(2);
            }
        });
        found
    }

    /// The value of `pos` from the side to move's view, proven within
    /// `think`, if it can be: tables, DTM search, win/draw/loss search.
    pub fn value(&self, pos: &Position, think: Duration) -> Option<(Solution, Source)> {
        if pos.is_game_over() {
            let v = match pos.outcome() {
                Some(Outcome::Draw) => crate::rules::Value::Draw,
                _ => crate::rules::Value::Loss(0),
            };
            return Some((exact(v), Source::Search));
        }
        if let Some(tb) = self.tables {
            if let Ok(Some(a)) = table_analysis(tb, pos) {
                return Some((a.value, Source::Table));
            }
        }
        let until = Instant::now() + think;
        if let Some(dtm) = &self.dtm {
            let half = Instant::now() + think / 2;
            if let Ok(s) = with_deadline(dtm, Some(half), || dtm.solve(pos)) {
                return Some((s, Source::Search));
            }
        }
        let solver = &self.wdl;
        with_deadline(solver.as_ref(), Some(until), || {
            let wins = solver.answer(pos, Question::Wins, None).ok()?;
            if wins {
                return Some((wdl_only(Wdl::Win), Source::Search));
            }
            let avoids = solver.answer(pos, Question::AvoidsLoss, None).ok()?;
            let w = if avoids { Wdl::Draw } else { Wdl::Loss };
            Some((wdl_only(w), Source::Search))
        })
    }
}

const WIN_SCORE: i32 = 100_000;

/// A static evaluation of `pos` from the side to move's view: material,
/// advancement, and passed pawns (no enemy pawn ahead on its own or a
/// neighbouring file: in a game of pawns only, nothing can stop it) with
/// their race.
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.turn();
    let h = pos.board().height() as i32;
    let mut score = [0i32; 2];
    let mut passed = [i32::MAX; 2];
    for (ci, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let enemy = pos.pawns(!color);
        for sq in pos.pawns(color) {
            let (file, rank) = (sq.file() as i32, sq.rank() as i32);
            // Moves to the last rank and ranks advanced so far.
            let dist = match color {
                Color::White => h - 1 - rank,
                Color::Black => rank,
            };
            let advanced = h - 2 - dist;
            score[ci] += 100 + 4 * advanced * advanced;
            let blocked = Iterator::any(&mut { enemy }, |e: crate::rules::Square| {
                let (ef, er) = (e.file() as i32, e.rank() as i32);
                (ef - file).abs() <= 1
                    && match color {
                        Color::White => er > rank,
                        Color::Black => er < rank,
                    }
            });
            if !blocked {
                score[ci] += 60 + 25 * advanced;
                passed[ci] = passed[ci].min(dist);
            }
        }
    }
    let (me, them) = match us {
        Color::White => (0, 1),
        Color::Black => (1, 0),
    };
    let mut s = score[me] - score[them];
    // The race of the passed pawns: the side to move needs at most as many
    // moves as the other to get there first.
    if passed[me] != i32::MAX && passed[me] <= passed[them] {
        s += 5_000 - 50 * passed[me];
    } else if passed[them] != i32::MAX && passed[them] < passed[me] {
        s -= 5_000 - 50 * passed[them];
    }
    s
}

/// The static value of the position after `m`, from the mover's view.
fn static_after(pos: &Position, m: Move) -> i32 {
    let child = pos.play(m);
    terminal_score(&child, 1).map_or_else(|| -evaluate(&child), |s| -s)
}

/// The score of a finished game from the side to move's view, nearer
/// wins better.
fn terminal_score(pos: &Position, ply: i32) -> Option<i32> {
    match pos.outcome()? {
        Outcome::Draw => Some(0),
        Outcome::Decisive { winner } if winner == pos.turn() => Some(WIN_SCORE - ply),
        Outcome::Decisive { .. } => Some(-WIN_SCORE + ply),
    }
}

/// The move of `pool` that a depth-limited alpha-beta search with
/// [`evaluate`] at its leaves likes best, deepening until `deadline`.
pub fn heuristic_choice(pos: &Position, pool: &[Move], deadline: Instant) -> Move {
    let mut order: Vec<Move> = pool.to_vec();
    order.sort_by_cached_key(|&m| -static_after(pos, m));
    let mut best = order[0];
    let mut nodes = 0u64;
    for depth in 1..=64 {
        let mut alpha = -WIN_SCORE - 1;
        let mut scored = Vec::with_capacity(order.len());
        let mut finished = true;
        for &m in &order {
            match negamax(
                &pos.play(m),
                depth - 1,
                -WIN_SCORE - 1,
                -alpha,
                1,
                deadline,
                &mut nodes,
            ) {
                Some(s) => {
                    let s = -s;
                    scored.push((m, s));
                    alpha = alpha.max(s);
                }
                None => {
                    finished = false;
                    break;
                }
            }
        }
        if !finished {
            // A partly searched depth still tells if its first move (the
            // previous best) was beaten by one searched after it.
            if let Some(&(m, s)) = scored.iter().max_by_key(|&&(_, s)| s) {
                if scored.len() > 1 && s > scored[0].1 {
                    best = m;
                }
            }
            break;
        }
        scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        best = scored[0].0;
        order = scored.iter().map(|&(m, _)| m).collect();
        if scored[0].1.abs() >= WIN_SCORE - 1000 || Instant::now() >= deadline {
            break;
        }
    }
    best
}

fn negamax(
    pos: &Position,
    depth: i32,
    mut alpha: i32,
    beta: i32,
    ply: i32,
    deadline: Instant,
    nodes: &mut u64,
) -> Option<i32> {
    *nodes += 1;
    if (*nodes).is_multiple_of(4096) && Instant::now() >= deadline {
        return None;
    }
    if let Some(s) = terminal_score(pos, ply) {
        return Some(s);
    }
    if depth <= 0 {
        return Some(evaluate(pos));
    }
    let mut moves: Vec<Move> = pos.legal_moves().to_vec();
    Weights::CAPTURES_THEN_ADVANCE.order(pos, &mut moves, attacked_squares(pos));
    let mut best = -WIN_SCORE - 1;
    for m in moves {
        let s = -negamax(
            &pos.play(m),
            depth - 1,
            -beta,
            -alpha,
            ply + 1,
            deadline,
            nodes,
        )?;
        best = best.max(s);
        alpha = alpha.max(s);
        if alpha >= beta {
            break;
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse::test_position as pos;
    use crate::rules::{parse_position, Board, Rules, Value};

    #[test]
    fn dtm_choice_is_the_fastest_win() {
        // Pawn game 5x5 without en passant: white wins in 5 (README).
        let p = parse_position(
            "pawngame",
            Some(Board::new(5, 5).unwrap()),
            Rules {
                en_passant: false,
                seventh_rank_wins: false,
            },
        )
        .unwrap();
        let player = Player::new(PlayerConfig::default(), None).unwrap();
        let c = player.choose(&p, Duration::from_secs(20));
        assert_eq!(c.value, Some(exact(Value::Win(5))));
        assert!(
            ["b3", "c3", "d3"].contains(&c.mv.san().as_str()),
            "{}",
            c.mv
        );
    }

    #[test]
    fn wdl_choice_wins_without_dtm() {
        let p = pos("pawngame", "4x4");
        // White loses in 2 whatever it plays: proven, a loss.
        let player = Player::new(
            PlayerConfig {
                dtm: false,
                ..PlayerConfig::default()
            },
            None,
        )
        .unwrap();
        let c = player.choose(&p, Duration::from_secs(20));
        assert_eq!(c.value, Some(wdl_only(Wdl::Loss)));
        // After 1. axb3, black wins at once.
        let p1 = p.play(p.parse_move("axb3").unwrap());
        let c = player.choose(&p1, Duration::from_secs(20));
        assert_eq!(c.value, Some(exact(Value::Win(1))));
        assert!(p1.play(c.mv).is_game_over());
    }

    #[test]
    fn evaluation_sees_the_race() {
        // White's passed pawn on c4 (5x6) is nearer than black's a-pawn.
        let p = pos("5/5/p1P2/5/5/5 w -", "5x6");
        assert!(evaluate(&p) > 1000);
        assert!(evaluate(&p.flipped()) > 1000);
    }
}
