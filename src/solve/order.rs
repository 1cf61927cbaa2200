//! The move order: which move a search tries first. Both solvers and the
//! engine's heuristic search read a move the same way (how far it
//! advances, whether it captures, whether it is a double step, whether it
//! lands where an enemy pawn attacks it) and weigh it in their own way:
//! alpha-beta adds the transposition table's move, promotions and killers
//! ([`alpha_beta_order`]); proof-number search tries its moves in the
//! order of their guessed cost ([`guess_cost`], [`pn_order`]).

use crate::rules::bitboard::Bitboard;
use crate::rules::color::Color;
use crate::rules::moves::{Move, MoveKind, MAX_MOVES};
use crate::rules::position::Position;
use crate::rules::square::Square;

/// A move as the alpha-beta search's transposition table and killers keep
/// it: `1 + from * 64 + to`; [`NO_MOVE`] for none.
pub(crate) type MoveCode = u16;

/// No move.
pub(crate) const NO_MOVE: MoveCode = 0;

/// The [`MoveCode`] of `m`.
#[inline]
pub(crate) fn code(m: Move) -> MoveCode {
    1 + (m.from.index() * 64 + m.to.index()) as MoveCode
}

/// The rank `m` lands on, counted from the mover's side (0: its first
/// rank).
#[inline]
pub(crate) fn advance(pos: &Position, m: Move) -> u8 {
    match pos.turn() {
        Color::White => m.to.rank(),
        Color::Black => pos.board().height() - 1 - m.to.rank(),
    }
}

/// The squares the pawns of the side not to move in `pos` attack.
#[inline]
pub(crate) fn attacked_squares(pos: &Position) -> Bitboard {
    let theirs = pos.pawns(!pos.turn());
    let ahead = match pos.turn() {
        Color::White => theirs.down(1),
        Color::Black => theirs.up(1),
    };
    ahead.left() | ahead.right()
}

/// What a search's order makes of a move's shape, in ranks of advance: a
/// move's key is the rank it lands on ([`advance`]) plus these. Higher
/// keys are tried first.
#[derive(Clone, Copy)]
pub(crate) struct Weights {
    /// For a capture: more than any quiet move can score.
    pub(crate) capture: i32,
    /// For a double step.
    pub(crate) double_step: i32,
    /// For a pawn landing where no enemy pawn attacks it (Peasants' Chess
    /// 4x8 and the pawn game 7x7: a quarter fewer alpha-beta nodes).
    pub(crate) safe_landing: i32,
}

impl Weights {
    /// Alpha-beta's, with its safe-landing hint on or off
    /// ([`super::SolverConfig::safe_landing`]).
    #[inline]
    pub(crate) const fn alpha_beta(safe_landing: bool) -> Weights {
        Weights {
            capture: 1_000,
            double_step: 5,
            safe_landing: if safe_landing { 3 } else { 0 },
        }
    }

    /// Proof-number search's: the order of a node's children, in which
    /// ties go to the first (with [`super::PnInit::Guided`] the children's
    /// numbers, from [`guess_cost`], decide before ties).
    pub(crate) const PROOF_NUMBER: Weights = Weights {
        capture: 100,
        double_step: 1,
        safe_landing: 3,
    };

    /// The engine's heuristic search: captures, then the most advanced.
    pub(crate) const CAPTURES_THEN_ADVANCE: Weights = Weights {
        capture: 1_000,
        double_step: 0,
        safe_landing: 0,
    };

    /// The key of `m` in `pos`; `attacked`: [`attacked_squares`] of `pos`.
    #[inline]
    pub(crate) fn key(&self, pos: &Position, m: Move, attacked: Bitboard) -> i32 {
        let mut key = advance(pos, m) as i32;
        if m.is_capture() {
            key += self.capture;
        }
        if m.kind == MoveKind::DoublePush {
            key += self.double_step;
        }
        if !attacked.contains(m.to) {
            key += self.safe_landing;
        }
        key
    }

    /// Orders `moves` of `pos` by their keys, highest first; `attacked`:
    /// [`attacked_squares`] of `pos`.
    #[inline]
    pub(crate) fn order(&self, pos: &Position, moves: &mut [Move], attacked: Bitboard) {
        sort_by_keys(moves, |m| self.key(pos, m, attacked));
    }
}

/// Sorts `moves` by `key`, highest first; moves of equal keys keep their
/// order. Each key is computed once.
#[inline]
pub(crate) fn sort_by_keys(moves: &mut [Move], key: impl Fn(Move) -> i32) {
    debug_assert!(moves.len() <= MAX_MOVES);
    let mut keys = [0i32; MAX_MOVES];
    for (k, &m) in keys.iter_mut().zip(moves.iter()) {
        *k = key(m);
    }
    // Insertion sort: lists are short.
    for i in 1..moves.len() {
        let (k, m) = (keys[i], moves[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] < k {
            keys[j] = keys[j - 1];
            moves[j] = moves[j - 1];
            j -= 1;
        }
        keys[j] = k;
        moves[j] = m;
    }
}

/// Orders `moves` of `pos` for alpha-beta, best guesses first: the
/// transposition table's best move, promotions, killers, then by
/// [`Weights::alpha_beta`] (captures, advance, double steps, safe
/// landings).
#[inline]
pub(crate) fn alpha_beta_order(
    pos: &Position,
    moves: &mut [Move],
    tt_best: MoveCode,
    killers: [MoveCode; 2],
    safe_landing: bool,
) {
    let h = pos.board().height();
    let goal = if pos.variant().rules.seventh_rank_wins {
        h - 2
    } else {
        h - 1
    };
    let weights = Weights::alpha_beta(safe_landing);
    let attacked = attacked_squares(pos);
    sort_by_keys(moves, |m| {
        let c = code(m);
        let mut key = weights.key(pos, m, attacked);
        if c == tt_best {
            key += 100_000;
        }
        if advance(pos, m) >= goal {
            key += 50_000;
        }
        if killers.contains(&c) {
            key += 10_000;
        }
        key
    });
}

/// The legal moves of `pos` in the order a fresh alpha-beta search with
/// the default configuration tries them first (no table, no killers): the
/// proof manager's guess of which child to ask first.
pub fn move_order(pos: &Position) -> Vec<Move> {
    let mut moves = pos.legal_moves().to_vec();
    let config = super::SolverConfig::default();
    if config.ordering {
        alpha_beta_order(pos, &mut moves, NO_MOVE, [NO_MOVE; 2], config.safe_landing);
    }
    moves
}

/// Orders `moves` of `pos` for proof-number search by
/// [`Weights::PROOF_NUMBER`] (ties in the search go to the first child);
/// `attacked`: [`attacked_squares`] of `pos`.
#[inline]
pub(crate) fn pn_order(pos: &Position, moves: &mut [Move], attacked: Bitboard) {
    Weights::PROOF_NUMBER.order(pos, moves, attacked);
}

/// The cost of a quiet move in [`guess_cost`]: more than any capture's
/// child can start with (at most 56 replies on an 8x8 board: 16 single
/// steps, 8 double steps, 32 captures; 7 ranks short, 2 for landing
/// attacked and a single step), so every capture comes before every
/// quiet move.
pub(crate) const NOT_A_CAPTURE: u32 = 128;

/// What a move costs as a guess in [`super::PnInit::Guided`], added to
/// its child's starting δ: one per rank short of the far edge (the
/// mover's view), one if an enemy pawn attacks the square it lands on,
/// one if it is not a double step, and [`NOT_A_CAPTURE`] if it captures
/// nothing. Lower is tried earlier. `attacked`: [`attacked_squares`] of
/// `pos`.
#[inline]
pub(crate) fn guess_cost(pos: &Position, m: Move, attacked: Bitboard) -> u32 {
    let mut cost = (pos.board().height() - 1 - advance(pos, m)) as u32;
    cost += attacked.contains(m.to) as u32;
    cost += (m.kind != MoveKind::DoublePush) as u32;
    if !m.is_capture() {
        cost += NOT_A_CAPTURE;
    }
    cost
}

/// Whether the pawn that moved to `to` is passed in `child` (no enemy pawn
/// ahead of it on its file or beside it), and whether a pawn of its side
/// defends it there; `me` is its side.
#[inline]
fn passed_and_defended(child: &Position, me: Color, to: Square) -> (bool, bool) {
    let h = child.board().height();
    let landed = Bitboard::from_square(to);
    let (ahead, behind) = match me {
        Color::White => (landed.above(), landed.down(1)),
        Color::Black => (landed.mirror_ranks(h).above().mirror_ranks(h), landed.up(1)),
    };
    let span = ahead | ahead.left() | ahead.right();
    let passed = (span & child.pawns(!me)).is_empty();
    let defended = ((behind.left() | behind.right()) & child.pawns(me)).any();
    (passed, defended)
}

/// [`guess_cost`] with the weights of [`super::PnInit::Tuned`]: one more
/// per rank `m` stops short, per move `child` (the position after it)
/// has and if `m` is not a double step, three less if its pawn is then
/// passed and three less if it lands defended; never below 0. Not
/// inlined: the guided search's loop stays as small as without it.
#[inline(never)]
pub(crate) fn tuned_cost(pos: &Position, m: Move, attacked: Bitboard, child: &Position) -> u32 {
    let (passed, defended) = passed_and_defended(child, pos.turn(), m.to);
    let cost = guess_cost(pos, m, attacked) as i32
        + (pos.board().height() - 1 - advance(pos, m)) as i32
        + child.count_moves() as i32
        + (m.kind != MoveKind::DoublePush) as i32
        - 3 * passed as i32
        - 3 * defended as i32;
    cost.max(0) as u32
}

/// [`guess_cost`] plus `weights` on [`move_features`], never below 0:
/// the cost of [`super::PnInit::Weights`]; `child` is the position after
/// `m`. Not inlined, as [`tuned_cost`].
#[inline(never)]
pub(crate) fn weighted_cost(
    pos: &Position,
    m: Move,
    attacked: Bitboard,
    child: &Position,
    weights: &[i8; FEATURES],
) -> u32 {
    let extra: i32 = features_of(pos, m, attacked, child)
        .iter()
        .zip(weights)
        .map(|(&f, &w)| f * i32::from(w))
        .sum();
    (guess_cost(pos, m, attacked) as i32 + extra).max(0) as u32
}

/// How many numbers [`move_features`] gives a move.
pub const FEATURES: usize = 14;

/// The names of [`move_features`]' numbers, in order.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "capture",
    "ranks_short",
    "lands_attacked",
    "single_step",
    "replies",
    "own_moves",
    "passed",
    "rams",
    "defended",
    "threatens",
    "from_edge",
    "capture_replies",
    "pawns_ahead",
    "from_rank",
];

/// What a move of `pos` is like, from its mover's view, as small whole
/// numbers: for learning which moves lead to small proofs
/// (`examples/proof_oracle.rs`). In [`FEATURE_NAMES`]' order: it captures;
/// ranks it stops short of the far edge; an enemy pawn attacks where it
/// lands; not a double step; the opponent's moves after it; the mover's own
/// moves after it (were it to move again); the moved pawn is passed (no
/// enemy pawn ahead of it on its file or beside it); an enemy pawn stands
/// right in front of it; an own pawn defends where it lands; enemy pawns it
/// then attacks; files between it and the nearer edge; the opponent's
/// captures after it; the mover's pawns less the opponent's after it; the
/// rank it left, counted from the mover's side.
pub fn move_features(pos: &Position, m: Move) -> [i32; FEATURES] {
    features_of(pos, m, attacked_squares(pos), &pos.play(m))
}

/// [`move_features`] where `attacked` ([`attacked_squares`] of `pos`)
/// and `child` (the position after `m`) are known already, as they are
/// in the search's expansion.
fn features_of(pos: &Position, m: Move, attacked: Bitboard, child: &Position) -> [i32; FEATURES] {
    let board = pos.board();
    let h = board.height();
    let me = pos.turn();
    let mine = child.pawns(me);
    let theirs = child.pawns(!me);
    let landed = Bitboard::from_square(m.to);
    // The squares just ahead of the landing square, and diagonally ahead.
    let front = match me {
        Color::White => landed.up(1),
        Color::Black => landed.down(1),
    };
    let diag_ahead = front.left() | front.right();
    let (passed, defended) = passed_and_defended(child, me, m.to);
    let again = Position::from_parts_unchecked(pos.variant(), child.all_pawns(), me, None);
    let capture_replies = child
        .legal_moves()
        .iter()
        .filter(|r| r.is_capture())
        .count();
    let from_rank = match me {
        Color::White => m.from.rank(),
        Color::Black => h - 1 - m.from.rank(),
    };
    let file = m.to.file();
    [
        m.is_capture() as i32,
        (h - 1 - advance(pos, m)) as i32,
        attacked.contains(m.to) as i32,
        (m.kind != MoveKind::DoublePush) as i32,
        child.count_moves() as i32,
        again.count_moves() as i32,
        passed as i32,
        (front & theirs).any() as i32,
        defended as i32,
        (diag_ahead & theirs).count() as i32,
        file.min(board.width() - 1 - file) as i32,
        capture_replies as i32,
        mine.count() as i32 - theirs.count() as i32,
        from_rank as i32,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse::test_position as pos;

    #[test]
    fn advance_counts_from_the_movers_side() {
        let p = pos("pawngame", "5x6");
        let black = p.play(p.parse_move("a3").unwrap());
        for (p, first) in [(p, "a4"), (black, "b3")] {
            // Double steps land on the mover's fourth rank (index 3).
            let m = p.parse_move(first).unwrap();
            assert_eq!(advance(&p, m), 3, "{first}");
        }
    }

    #[test]
    fn move_features_of_a_double_step_beside_an_enemy_pawn() {
        // White's c2-c4 beside black's d4: lands safe (d4 attacks c3 and
        // e3), passed, two ranks short, black may take en passant or push.
        let p = pos("5/5/3p1/5/2P2/5 w -", "5x6");
        let m = p.parse_move("c4").unwrap();
        let f = move_features(&p, m);
        let named: Vec<(&str, i32)> = FEATURE_NAMES.iter().copied().zip(f).collect();
        assert_eq!(
            named,
            [
                ("capture", 0),
                ("ranks_short", 2),
                ("lands_attacked", 0),
                ("single_step", 0),
                ("replies", 2),
                ("own_moves", 1),
                ("passed", 1),
                ("rams", 0),
                ("defended", 0),
                ("threatens", 0),
                ("from_edge", 2),
                ("capture_replies", 1),
                ("pawns_ahead", 0),
                ("from_rank", 1),
            ]
        );
        // c3 lands where d4 attacks it, threatens it, one step.
        let f = move_features(&p, p.parse_move("c3").unwrap());
        assert_eq!((f[2], f[3], f[9]), (1, 1, 1));
    }

    /// A move's features are the mover's view: the same for the mirror
    /// move of the position with colours swapped, on every move of the
    /// positions a few plies into three games.
    #[test]
    fn move_features_are_the_same_for_either_colour() {
        let mut checked = 0;
        for (name, board) in [
            ("peasants", "5x6"),
            ("pawngame", "6x6"),
            ("pawnrace:b:e", "6x6"),
        ] {
            let mut layer = vec![pos(name, board)];
            for _ in 0..4 {
                let mut next = Vec::new();
                for p in &layer {
                    let h = p.board().height();
                    let flipped = p.flipped();
                    for &m in p.legal_moves().iter() {
                        let mirror = Move {
                            from: m.from.mirror_rank(h),
                            to: m.to.mirror_rank(h),
                            kind: m.kind,
                        };
                        assert_eq!(
                            move_features(p, m),
                            move_features(&flipped, mirror),
                            "{p} {m:?}"
                        );
                        checked += 1;
                        let c = p.play(m);
                        if !c.is_game_over() {
                            next.push(c);
                        }
                    }
                }
                layer = next;
            }
        }
        assert!(checked > 10_000, "{checked} moves");
    }

    #[test]
    fn attacked_squares_are_the_opponents() {
        // Black's d4 attacks c3 and e3; after c4, white's c4 attacks b5
        // and d5.
        let p = pos("5/5/3p1/5/2P2/5 w -", "5x6");
        let b = p.play(p.parse_move("c4").unwrap());
        let names = |bb: Bitboard| bb.map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(names(attacked_squares(&p)), ["c3", "e3"]);
        assert_eq!(names(attacked_squares(&b)), ["b5", "d5"]);
    }

    /// The node counts of both searches with their default configurations,
    /// every root move and a line, as `peasant --board 5x6 solve pawngame
    /// --hash-mb 64` (and with `--method pn`, and the same of Peasants'
    /// Chess 4x6) counts them: the move order decides them, so a change to
    /// it shows here.
    #[test]
    fn the_order_keeps_the_node_counts() {
        use crate::solve::{PnConfig, PnSolver, Solver, SolverConfig};
        for (setup, board, ab, pn) in [
            ("pawngame", "5x6", 5124, 1614),
            ("peasants", "4x6", 913, 287),
        ] {
            let p = pos(setup, board);
            let s = Solver::new(SolverConfig::default(), None).unwrap();
            s.solve_root(&p, &|_, _| {}).unwrap();
            s.line(&p).unwrap();
            assert_eq!(s.stats().nodes, ab, "{setup} {board} alpha-beta");
            let s = PnSolver::new(PnConfig::default(), None).unwrap();
            s.solve_root(&p, &|_, _| {}).unwrap();
            s.line(&p).unwrap();
            assert_eq!(s.stats().nodes, pn, "{setup} {board} proof-number");
        }
    }

    /// The tuned order ([`super::super::PnInit::Tuned`]) searches other
    /// nodes than the guided one, the same every time: a change to it
    /// shows here (its values are checked against minimax in the suite).
    #[test]
    fn the_tuned_order_keeps_its_node_counts() {
        use crate::solve::{PnConfig, PnInit, PnSolver};
        for (setup, board, pn) in [
            ("pawngame", "5x6", 1633),
            ("peasants", "4x6", 283),
            ("peasants", "3x8", 5678),
        ] {
            let p = pos(setup, board);
            let config = PnConfig {
                init: PnInit::Tuned,
                ..PnConfig::default()
            };
            let s = PnSolver::new(config, None).unwrap();
            s.solve_root(&p, &|_, _| {}).unwrap();
            assert_eq!(s.stats().nodes, pn, "{setup} {board}");
        }
    }

    /// The weighted order ([`super::super::PnInit::Weights`]) with the
    /// tuned order's weights is the tuned order, to the node; with none it
    /// is the guided order; other weights search other nodes (so the
    /// weights are used).
    #[test]
    fn weights_give_the_orders_they_name() {
        use crate::solve::{PnConfig, PnInit, PnSolver};
        let nodes = |p: &Position, init: PnInit| {
            let s = PnSolver::new(
                PnConfig {
                    init,
                    ..PnConfig::default()
                },
                None,
            )
            .unwrap();
            s.solve_root(p, &|_, _| {}).unwrap();
            s.stats().nodes
        };
        let tuned: PnInit = "weights:ranks_short=1,single_step=1,replies=1,passed=-3,defended=-3"
            .parse()
            .unwrap();
        let other: PnInit = "weights:capture=2,own_moves=1,from_edge=-1"
            .parse()
            .unwrap();
        let mut differs = false;
        for (setup, board) in [
            ("pawngame", "5x6"),
            ("peasants", "4x6"),
            ("peasants", "3x8"),
        ] {
            let p = pos(setup, board);
            assert_eq!(
                nodes(&p, tuned),
                nodes(&p, PnInit::Tuned),
                "{setup} {board}"
            );
            let guided = nodes(&p, PnInit::Guided);
            assert_eq!(
                nodes(&p, PnInit::Weights([0; FEATURES])),
                guided,
                "{setup} {board}"
            );
            differs |= nodes(&p, other) != guided;
        }
        assert!(differs);
    }

    #[test]
    fn captures_first_then_advance() {
        // White's b4 can take c5 or step; a2 can step once or twice.
        let p = pos("5/2p2/1P3/5/P4/5 w -", "5x6");
        let mut moves = p.legal_moves().to_vec();
        Weights::CAPTURES_THEN_ADVANCE.order(&p, &mut moves, attacked_squares(&p));
        let sans: Vec<String> = moves.iter().map(|m| m.san()).collect();
        assert_eq!(sans, ["bxc5", "b5", "a4", "a3"]);
    }
}
