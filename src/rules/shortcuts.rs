//! The proven rule shortcuts: positions whose value follows from a rule of
//! the game without search, each checked against plain minimax on every
//! placement of small boards (`tests/suite/race_vs_minimax.rs`; the facts are
//! listed in `docs/RULES.md`).

use super::bitboard::Bitboard;
use super::color::Color;
use super::moves::{Move, MoveKind};
use super::position::Position;
use super::square::Square;
use super::value::Value;

/// Fact 3 of docs/RULES.md, for a position with white to move whose game is not
/// over and that has no en passant right: a pawn on a second-to-last rank
/// can never be stopped. (With an en passant right it can: on a board of
/// height 5 a double step lands there and may be taken en passant.)
/// - White has one: it promotes now, a win in 1.
/// - Else black has one (real rules; under `--seventh-rank-wins` black would
///   already have won): black's pawn cannot be captured and will promote,
///   so white wins in 1 if some move wins at once (on a board of height 4 a
///   double step reaches the last rank), draws if it has no move, and
///   otherwise loses in 2.
pub fn resolve_by_rule(pos: &Position) -> Option<Value> {
    debug_assert_eq!(pos.turn(), Color::White);
    let board = pos.board();
    let white_runner = board.rank_mask(board.second_to_last_rank(Color::White));
    if (pos.pawns(Color::White) & white_runner).any() {
        return Some(Value::Win(1));
    }
    let black_runner = board.rank_mask(board.second_to_last_rank(Color::Black));
    if (pos.pawns(Color::Black) & black_runner).any() {
        let moves = pos.legal_moves();
        return Some(if moves.is_empty() {
            Value::Draw
        } else if moves
            .iter()
            .any(|&m| pos.play(m).winner_by_rule() == Some(Color::White))
        {
            Value::Win(1)
        } else {
            Value::Loss(2)
        });
    }
    None
}

/// The pure race (for a position with white to move whose game is not over
/// and that has no en passant right): when no white pawn has a black pawn
/// on its own or an adjacent file strictly ahead of it, no capture, block,
/// en passant or stalemate can ever happen again (black pawns only move
/// down and white pawns up, so the two armies have passed each other for
/// good; each side's most advanced pawn on a file always has the square
/// ahead free). Each side then only races: its time is the fewest moves
/// its most advanced pawn needs to its goal (the last rank, or the
/// second-to-last with `--seventh-rank-wins`), a double step from its
/// second rank counting as one move (on boards of height 4 and 5 it may
/// reach the goal itself). White, to move, wins iff its time `t` is at most
/// black's `u`: a win in `2t - 1`, else a loss in `2u`.
/// `None` when the armies have not passed each other.
pub fn resolve_race(pos: &Position) -> Option<Value> {
    debug_assert_eq!(pos.turn(), Color::White);
    if pos.ep_square().is_some() {
        return None;
    }
    let (white, black) = (pos.pawns(Color::White).0, pos.pawns(Color::Black).0);
    if white == 0 || black == 0 {
        return None;
    }
    // Every square strictly ahead of a white pawn, on its file and beside.
    let ahead = Bitboard(white).above();
    if ((ahead | ahead.left() | ahead.right()).0 & black) != 0 {
        return None;
    }
    let h = pos.board().height() as i32;
    let srw = pos.variant().rules.seventh_rank_wins as i32;
    // The fewest moves over `dist` ranks, a double step from the second
    // rank counting as one.
    let time = |dist: i32, on_second: bool| (dist - on_second as i32).max(1);
    let top = (63 - white.leading_zeros()) as i32 / 8;
    let bottom = black.trailing_zeros() as i32 / 8;
    let t = time(h - 1 - srw - top, top == 1);
    let u = time(bottom - srw, bottom == h - 2);
    Some(if t <= u {
        Value::Win((2 * t - 1) as u8)
    } else {
        Value::Loss((2 * u) as u8)
    })
}

/// What the two free-runner rules read of a position with white to move:
/// both sides' pawns and the board's shape (`srw` 1 under
/// `--seventh-rank-wins`, whose goal is a rank nearer). None with an en
/// passant right or a side without pawns.
struct Race {
    white: u64,
    black: u64,
    w: i32,
    h: i32,
    srw: i32,
}

impl Race {
    fn of(pos: &Position) -> Option<Race> {
        debug_assert_eq!(pos.turn(), Color::White);
        let (white, black) = (pos.pawns(Color::White).0, pos.pawns(Color::Black).0);
        if pos.ep_square().is_some() || white == 0 || black == 0 {
            return None;
        }
        let board = pos.board();
        Some(Race {
            white,
            black,
            w: board.width() as i32,
            h: board.height() as i32,
            srw: pos.variant().rules.seventh_rank_wins as i32,
        })
    }
}

/// The fewest moves over `dist` ranks, a double step from the second rank
/// counting as one, and at least one.
fn time(dist: i32, on_second: bool) -> i32 {
    (dist - on_second as i32).max(1)
}

/// The free runner (for a position with white to move whose game is not
/// over and that has no en passant right): true when white wins by pushing
/// one pawn P, on file f and rank r, to its goal and nothing else. That
/// needs all of:
/// - nothing on file f ahead of P: every push is legal (only P moves, so
///   no white pawn ever comes there);
/// - no black pawn in the cone ahead of P: on its file anywhere ahead, on
///   the files `d >= 1` away at least `2d` ranks ahead. A black pawn `d`
///   files away changes file only by capturing, one file per move, each
///   move descending a rank, while P climbs a rank every move with white
///   moving first: to capture P (en passant included: a double step
///   landing beside it) it must stand beside P one rank above it after `m`
///   of P's pushes with `m >= d`, so it started at least `2d` ranks above
///   P; to stand in front of P it needs even more. P, never captured, also
///   keeps white from losing its last pawn;
/// - P's time `t` (fewest moves to its goal, a double step counting as one)
///   at most every black pawn's fewest moves to its goal: black, moving
///   second, cannot get there first. Counted on an empty board, or, where
///   that is too few, with white's other pawns standing where they are
///   (only P moves): a black pawn steps only onto a square no white pawn
///   stands on and leaves its file only by taking one of them (P, which
///   is never taken, counted among them: a bound all the same);
/// - black never stalemated (fact 7) before P arrives, that is for its
///   `t - 1` moves: a black pawn with nothing on its file ahead of it
///   (below it) and no white pawn below it on an adjacent file (it can
///   never capture, as P stays out of its reach by the cone, so it stays
///   on its file and can always be pushed), or one with `t - 1` free
///   squares below it (`t` from its second rank, where a double step
///   takes two at once) and no white pawn beside any of them to take: it
///   has a push at each of black's moves, whatever black does. (A black
///   pawn that could capture might leave its file for a blocked square and
///   stalemate black on purpose.)
///
/// The win is sure but not its distance (another plan may be faster): for
/// win/draw/loss searches only.
pub fn resolve_runner(pos: &Position) -> bool {
    let Some(Race {
        white,
        black,
        w,
        h,
        srw,
    }) = Race::of(pos)
    else {
        return false;
    };
    let occupied = white | black;
    // Black is never stalemated: some black pawn has nothing below it on
    // its file and no white pawn below it on a file beside (so it can never
    // capture, stays on its file and can always be pushed). Else each
    // candidate asks for a pawn that can be pushed for its time.
    let over_white = Bitboard(white).above();
    let never_stalemated =
        black & !Bitboard(occupied).above().0 & !(over_white.left() | over_white.right()).0 != 0;
    // Black's fastest goal on an empty board: its lowest pawn; with white's
    // pawns standing, found only where a candidate needs it.
    let bottom = black.trailing_zeros() as i32 / 8;
    let u = time(bottom - srw, bottom == h - 2);
    let mut u_standing = None;
    let mut candidates = white;
    while candidates != 0 {
        let sq = candidates.trailing_zeros() as i32;
        candidates &= candidates - 1;
        let (f, r) = (sq % 8, sq / 8);
        // The file ahead and the cone, the cheapest test first.
        let clear = (r + 1..h).all(|q| {
            let d = (q - r) / 2;
            let (lo, hi) = ((f - d).max(0), (f + d).min(w - 1));
            let files = ((1u64 << (hi - lo + 1)) - 1) << lo;
            (black >> (8 * q)) & 0xff & files == 0 && (white >> (8 * q)) & (1 << f) == 0
        });
        if !clear {
            continue;
        }
        let t = time(h - 1 - srw - r, r == 1);
        if t > u && t > *u_standing.get_or_insert_with(|| black_time(white, black, w, h, srw)) {
            continue;
        }
        if never_stalemated || black_pushes(white & !(1u64 << sq), occupied, black, t - 1, h) {
            return true;
        }
    }
    false
}

/// The opponent's free runner (for a position with white to move whose
/// game is not over and that has no en passant right): true when black,
/// not to move, wins by pushing one pawn P, on file f and rank r, to its
/// goal and nothing else, whatever white does. The free runner of
/// [`resolve_runner`] seen from the side that waits, with white's extra
/// move counted. That needs all of:
/// - nothing on file f below P: every push is legal, and no white pawn
///   can ever enter the file below P (a pawn changes file only by
///   capturing, there is nothing there to capture, and black's other
///   pawns never move), so P is never blocked;
/// - no white pawn in the cone below P: on the files `d >= 1` away at
///   least `2d - 1` ranks below it. A white pawn `d` files away must make
///   `d - 1` captures to stand beside P's file, each climbing a rank, and
///   be diagonally below P when white moves: at white's `k`-th move P has
///   made `k - 1` pushes, so the pawn climbed from rank `r - D` to `r - k`
///   in `k - 1` moves with `k >= d` and `D - k >= d - 1`, which needs
///   `D >= 2d - 1`. (En passant after P's double step is a capture on the
///   square P skipped, reached the same way.) P, never captured, keeps
///   black from losing its last pawn;
/// - P's time `u` (fewest moves to its goal, a double step counting as
///   one) less than every white pawn's fewest moves to its goal, on an
///   empty board or with black's other pawns standing where they are (as
///   [`resolve_runner`] counts black's): white, moving first, promotes on
///   its `t`-th move at the earliest, black on its `u`-th, which comes
///   after white's `u`-th;
/// - white never stalemated (fact 7) in its `u` moves: a white pawn Q with
///   no black pawn above it on its file or on a file beside (black's other
///   pawns never move and P, on a file of its own with nothing below it,
///   never comes beside Q's file above Q, a pawn beside P's file below it
///   being in the cone; so Q never captures, stays on its file, and the
///   highest white pawn on that file can always be pushed), or one with
///   `u` free squares above it (`u + 1` from its second rank) and no black
///   pawn beside any of them.
///
/// The win is sure but not its distance: for win/draw/loss searches only.
pub fn resolve_opponent_runner(pos: &Position) -> bool {
    let Some(Race {
        white,
        black,
        w,
        h,
        srw,
    }) = Race::of(pos)
    else {
        return false;
    };
    // White is never stalemated: a white pawn with no black pawn above it
    // on its file or on a file beside. Else each candidate asks for a pawn
    // that can be pushed for its time.
    let under_black = Bitboard(black).below();
    let never_stalemated = white & !(under_black | under_black.left() | under_black.right()).0 != 0;
    // The board seen from black's side, for the helpers written for black.
    let flip = |b: u64| Bitboard(b).mirror_ranks(h as u8).0;
    // White's fastest goal on an empty board: its highest pawn; with
    // black's pawns standing, found only where a candidate needs it.
    let top = (63 - white.leading_zeros()) as i32 / 8;
    let t = time(h - 1 - srw - top, top == 1);
    let mut t_standing = None;
    let occupied = white | black;
    let mut candidates = black;
    while candidates != 0 {
        let sq = candidates.trailing_zeros() as i32;
        candidates &= candidates - 1;
        let (f, r) = (sq % 8, sq / 8);
        // The file below and the cone, the cheapest test first.
        let clear = (0..r).all(|q| {
            let d = (r - q + 1) / 2;
            let (lo, hi) = ((f - d).max(0), (f + d).min(w - 1));
            let files = ((1u64 << (hi - lo + 1)) - 1) << lo;
            (white >> (8 * q)) & 0xff & files == 0 && (occupied >> (8 * q)) & (1 << f) == 0
        });
        if !clear {
            continue;
        }
        let u = time(r - srw, r == h - 2);
        if u >= t
            && u >= *t_standing
                .get_or_insert_with(|| black_time(flip(black), flip(white), w, h, srw))
        {
            continue;
        }
        let others = flip(black & !(1u64 << sq));
        if never_stalemated || black_pushes(others, flip(occupied), flip(white), u, h) {
            return true;
        }
    }
    false
}

/// What fact 3 a move ahead reads of a position with white to move: both
/// sides' pawns and the board's height, if the position has no en passant
/// right, is played under the real rules on a board of height `min_h` or
/// more, and neither side has a pawn on its second-to-last rank (fact 3's
/// own case).
fn before_fact_3(pos: &Position, min_h: u8) -> Option<(Bitboard, Bitboard, u8)> {
    debug_assert_eq!(pos.turn(), Color::White);
    let board = pos.board();
    let h = board.height();
    if pos.ep_square().is_some() || pos.variant().rules.seventh_rank_wins || h < min_h {
        return None;
    }
    let (white, black) = (pos.pawns(Color::White), pos.pawns(Color::Black));
    if (black & board.rank_mask(1)).any() || (white & board.rank_mask(h - 2)).any() {
        return None;
    }
    Some((white, black, h))
}

/// Fact 3 a move ahead (for a position with white to move whose game is
/// not over and that has no en passant right, under the real rules, on a
/// board of height 5 or more): white
/// wins if a pawn of its third-to-last rank can step or capture onto the
/// second-to-last, neither side has a pawn on its second-to-last rank (the
/// rule of fact 3 itself), and black has a move after it. Black then
/// cannot win at once (its pawns are two ranks or more from the goal, and
/// a double step from black's second rank reaches black's fourth-to-last
/// rank at best, the last one only on a board of height 4), cannot take
/// white's pawn (no black pawn stands on white's last rank to take it
/// from) nor block it, and is not stalemated, so white promotes on its
/// next move: a win in 3 at most. Whether black has a move is read from
/// the pawns that can be pushed, or else by playing white's moves.
///
/// The win is sure but not its distance (a capture of black's last pawn
/// may be faster): for win/draw/loss searches only.
pub fn resolve_rule_ahead(pos: &Position) -> bool {
    let Some((white, black, h)) = before_fact_3(pos, 5) else {
        return false;
    };
    let board = pos.board();
    let runners = white & board.rank_mask(h - 3);
    if runners.is_empty() {
        return false;
    }
    let occupied = white | black;
    let steps = runners.up(1) & !occupied;
    let targets = (runners.up(1).left() | runners.up(1).right()) & black;
    if steps.is_empty() && targets.is_empty() {
        return false;
    }
    // A black pawn with the square below it free keeps it free (white's
    // move lands on its second-to-last rank, below no black pawn), unless
    // white takes that very pawn.
    let pushable = black & !occupied.up(1);
    if steps.any() && pushable.any() || (pushable & !targets).any() {
        return true;
    }
    pos.legal_moves().iter().any(|&m| {
        m.from.rank() == h - 3 && m.to.rank() == h - 2 && {
            let child = pos.play(m);
            child.winner_by_rule().is_some() || child.count_moves() > 0
        }
    })
}

/// The opponent's fact 3 a move ahead (for a position with white to move
/// whose game is not over and that has no en passant right, under the real
/// rules, on a board of height 6 or more): white loses if black has a
/// pawn Q on its third-to-last rank with the square below free and no
/// white pawn beside that square (white can neither take Q nor stop its
/// step), neither side has a pawn on its
/// second-to-last rank, no white move reaches white's second-to-last rank,
/// and white has a move now and after each white move and Q's step. Black
/// then promotes on its second move: white's first move cannot promote
/// nor take Q, its second cannot promote (nothing stood on its
/// second-to-last rank; a double step reaches its fourth rank at most) nor
/// take Q (nothing stands on white's first rank), and white is not
/// stalemated. The last condition is read from the pawns that can be
/// pushed (two of them: one move neither blocks nor moves both), or else
/// by playing white's moves and Q's step.
///
/// The loss is sure but not its distance: for win/draw/loss searches only.
pub fn resolve_opponent_rule_ahead(pos: &Position) -> bool {
    let Some((white, black, h)) = before_fact_3(pos, 6) else {
        return false;
    };
    let board = pos.board();
    let occupied = white | black;
    let near = white & board.rank_mask(h - 3);
    if (near.up(1) & !occupied).any() || ((near.up(1).left() | near.up(1).right()) & black).any() {
        return false;
    }
    let guarded = white.up(1).left() | white.up(1).right();
    let Some(q) = (black & board.rank_mask(2) & !occupied.up(1) & !guarded).first() else {
        return false;
    };
    if (white & !occupied.down(1)).0.count_ones() >= 2 {
        return true;
    }
    let step = Move {
        from: q,
        to: Square::new(q.file(), 1),
        kind: MoveKind::Push,
    };
    let moves = pos.legal_moves();
    !moves.is_empty()
        && moves
            .iter()
            .all(|&m| pos.play(m).play(step).count_moves() > 0)
}

/// Fact 3 two moves ahead (for a position with white to move whose game
/// is not over, under the real rules, on a board of height 6 or more):
/// white wins if it has a move that lands a
/// pawn P on its third-to-last rank, with the square ahead of P free and
/// no black pawn beside that square, after which black, to move, loses by
/// the opponent's fact 3 a move ahead ([`resolve_opponent_rule_ahead`]):
/// P can be neither taken nor stopped, no black move reaches black's
/// second-to-last rank, and black keeps a move until P promotes. Black's
/// pawns never move up, so nothing ever comes to P's square ahead nor
/// beside it: the two tests on P hold after any white move, and only the
/// moves that land there are played (a push from the rank below, a
/// capture onto the rank, and on a board of height 6 a double step), each
/// then asked of the rule. With an en passant right, the capture en
/// passant lands there too (on the square black's double step skipped)
/// and is one of them. A pawn already on the third-to-last rank is fact 3
/// a move ahead's ([`resolve_rule_ahead`]).
///
/// The win is sure but not its distance: for win/draw/loss searches only.
pub fn resolve_rule_two_ahead(pos: &Position) -> bool {
    let Some((white, black, h)) = before_fact_3(&pos.without_en_passant(), 6) else {
        return false;
    };
    let board = pos.board();
    let occupied = white | black;
    // The squares of white's third-to-last rank whose square ahead is free
    // and that no black pawn attacks (from beside the square ahead).
    let attacked = black.down(1).left() | black.down(1).right();
    let landings = board.rank_mask(h - 3) & !occupied.down(1) & !attacked;
    let below = white & board.rank_mask(h - 4);
    let pushes = below.up(1) & !occupied & landings;
    let from_right = below.up(1).left() & black & landings;
    let from_left = below.up(1).right() & black & landings;
    let doubles = if h == 6 {
        (white & board.rank_mask(1)).up(2) & !occupied & !occupied.up(1) & landings
    } else {
        Bitboard::EMPTY
    };
    let en_passant = pos
        .ep_square()
        .map_or(Bitboard::EMPTY, |s| Bitboard::from_square(s) & landings);
    let mut moves = pushes
        .map(|to| (to.file(), h - 4, to, MoveKind::Push))
        .chain(from_right.map(|to| (to.file() + 1, h - 4, to, MoveKind::Capture)))
        .chain(from_left.map(|to| (to.file() - 1, h - 4, to, MoveKind::Capture)))
        .chain(doubles.map(|to| (to.file(), 1, to, MoveKind::DoublePush)))
        .chain(
            (below.up(1).left() & en_passant)
                .map(|to| (to.file() + 1, h - 4, to, MoveKind::EnPassant)),
        )
        .chain(
            (below.up(1).right() & en_passant)
                .map(|to| (to.file() - 1, h - 4, to, MoveKind::EnPassant)),
        );
    moves.any(|(file, rank, to, kind)| {
        let child = pos.play(Move {
            from: Square::new(file, rank),
            to,
            kind,
        });
        child.winner_by_rule().is_some() || resolve_opponent_rule_ahead(&child.flipped())
    })
}

/// Whether some black pawn has a push at each of black's next `n` moves
/// whatever black plays, white's pawns `others` standing where they are:
/// `n` free squares below it on its file (`n + 1` from black's second
/// rank, where a double step takes two) and no white pawn of `others` on a
/// file beside any of them (so it never captures and leaves its file).
fn black_pushes(others: u64, occupied: u64, black: u64, n: i32, h: i32) -> bool {
    let mut b = black;
    'pawns: while b != 0 {
        let sq = b.trailing_zeros() as i32;
        b &= b - 1;
        let (f, r) = (sq % 8, sq / 8);
        let n = if r == h - 2 { n + 1 } else { n };
        if r < n + 1 {
            continue;
        }
        for below in r - n..r {
            let beside = [f - 1, f + 1]
                .into_iter()
                .any(|g| (0..8).contains(&g) && others >> (8 * below + g) & 1 != 0);
            if occupied >> (8 * below + f) & 1 != 0 || beside {
                continue 'pawns;
            }
        }
        return true;
    }
    false
}

/// Black's fewest moves to its goal with white's pawns standing where they
/// are: a black pawn steps onto a square no white pawn holds (two from its
/// second rank) or takes a white pawn diagonally below it; other black
/// pawns are not in the way (a bound). 1000 when no black pawn can get
/// there.
fn black_time(white: u64, black: u64, w: i32, h: i32, srw: i32) -> i32 {
    const INF: i32 = 1000;
    let mut dist = [[INF; 8]; 8];
    let is_white = |f: i32, r: i32| white >> (8 * r + f) & 1 != 0;
    for f in 0..w {
        for r in 0..=srw {
            dist[r as usize][f as usize] = 0;
        }
    }
    for r in srw + 1..h {
        for f in 0..w {
            let mut best = INF;
            if !is_white(f, r - 1) {
                best = best.min(1 + dist[(r - 1) as usize][f as usize]);
                if r == h - 2 && r >= 2 && !is_white(f, r - 2) {
                    best = best.min(1 + dist[(r - 2) as usize][f as usize]);
                }
            }
            for g in [f - 1, f + 1] {
                if (0..w).contains(&g) && is_white(g, r - 1) {
                    best = best.min(1 + dist[(r - 1) as usize][g as usize]);
                }
            }
            dist[r as usize][f as usize] = best;
        }
    }
    let mut u = INF;
    let mut b = black;
    while b != 0 {
        let sq = b.trailing_zeros() as i32;
        b &= b - 1;
        u = u.min(dist[(sq / 8) as usize][(sq % 8) as usize]);
    }
    u
}

/// Whether white, to move, has a move that stalemates black (fact 7: black,
/// its game not over, has no move). For a question where white is the
/// defender, that is enough: white draws at least (a move that wins at
/// once is the rules' to find, not this). A black pawn with the square
/// below it free keeps a move unless white takes it or steps onto that
/// square, and one white move cannot do that to two such pawns (taking
/// one and landing below the other would need the other to stand on the
/// one). So with two of them no move stalemates black, with one only the
/// moves that take it or land below it are played, and with none every
/// move.
pub fn stalemates_at_once(pos: &Position) -> bool {
    debug_assert_eq!(pos.turn(), Color::White);
    let (white, black) = (pos.pawns(Color::White), pos.pawns(Color::Black));
    let pushable = black & !(white | black).up(1);
    if pushable.0.count_ones() >= 2 {
        return false;
    }
    let below = pushable.down(1);
    pos.legal_moves().iter().any(|&m| {
        let takes = m.captured_square().is_some_and(|c| pushable.contains(c));
        (pushable.is_empty() || takes || below.contains(m.to)) && {
            let child = pos.play(m);
            child.winner_by_rule().is_none() && child.count_moves() == 0
        }
    })
}

/// Whether white, to move, has a move, and every one of its moves lets
/// black stalemate white at once ([`stalemates_at_once`] of the position
/// after it, seen from black's side): white cannot win (fact 7: a
/// stalemate is a draw). Asked only where white has at most four moves
/// (allowing eight found no more on Peasants' Chess 4x8, 5x7 and 6x7, two
/// nearly all); a move that wins at once is white's, and answers no.
pub fn stalemated_after_any_move(pos: &Position) -> bool {
    debug_assert_eq!(pos.turn(), Color::White);
    if !(1..=4).contains(&pos.count_moves()) {
        return false;
    }
    pos.legal_moves().iter().all(|&m| {
        let child = pos.play(m);
        child.winner_by_rule().is_none() && stalemates_at_once(&child.flipped())
    })
}
