//! The smallest proofs a move order could lead the proof-number search to:
//! every position below a question is valued by plain minimax (memoised,
//! the same leaf knowledge as the search), and each question's proof is
//! given its least number of expansions, counted as the search counts
//! nodes: a position the leaf knowledge settles, or one without a move,
//! costs nothing (the search settles it when it first meets it); one with
//! a move that wins at once costs one; any other costs one plus, where its
//! side to move reaches its goal, the cheapest proof among the moves that
//! reach it, and where it fails, the proofs of all its moves.
//!
//! That least size counts a position again wherever the proof meets it
//! (a tree); the search meets a transposition once. So the oracle also
//! follows two choosers over the proof's positions and counts the distinct
//! ones each expands: the cheapest move, and the first move that reaches
//! the goal in the search's own guided order (what a search that never
//! tried a failing move first would prove). Set against the search's
//! nodes, they say how many of its nodes a perfect move order could save,
//! and how much of that is in choosing among good moves.
//!
//! It holds every position below the question in memory: for small boards
//! (Peasants' Chess up to 4x8 and 5x7, the pawn game up to 6x6).

use crate::rules::canonical::{canonical_with, position_key};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::value::Wdl;
use crate::solve::order::{attacked_squares, guess_cost, pn_order};
use crate::solve::pns::{reaches, tt_key, PnSolver, Worker};
use crate::solve::types::{Question, SolveError};
use std::collections::{HashMap, HashSet};

/// Starting δ for the children of a search, by what an oracle knows of
/// them ([`ProofOracle::start_deltas`]).
pub struct StartDeltas(HashMap<u128, u32>);

impl StartDeltas {
    /// The rank of a move that does not reach the goal (or one not valued):
    /// after every move that does, whatever their proofs' sizes.
    const FAILS: u32 = 1 << 12;

    /// The guided cost of a move to the child of question key `key`, whose
    /// `cost` (the guided one, which with the child's moves orders the
    /// children of one rank, as the guided search does) comes after its
    /// rank: at most 56 moves and 140 of cost, under 1,024.
    pub(crate) fn start(&self, key: u128, cost: u32) -> u32 {
        let rank = self.0.get(&key).copied().unwrap_or(Self::FAILS + 1);
        rank * 1024 + cost
    }
}

/// How a chooser picks the move of a position whose side to move reaches
/// its goal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Chooser {
    /// The move whose own proof is smallest.
    Cheapest,
    /// The first move that reaches the goal in the order the guided
    /// proof-number search tries them (smallest starting δ first).
    Guided,
}

/// What [`ProofOracle::report`] finds for one question.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OracleReport {
    /// Whether the side to move reaches its goal.
    pub reaches: bool,
    /// The least expansions of a proof, counted as a tree.
    pub tree: f64,
    /// Distinct positions expanded by the proof of the cheapest moves.
    pub cheapest: u64,
    /// Distinct positions expanded by the proof of the guided order's
    /// first good moves.
    pub guided: u64,
    /// The tree size of the guided chooser's proof.
    pub guided_tree: f64,
    /// Positions of the cheapest proof whose side to move needs one good
    /// move (expanded, not won at once).
    pub choices: u64,
    /// Of those, how many have the guided first good move as (one of)
    /// the cheapest.
    pub guided_cheapest: u64,
}

/// A position of a proof whose side to move needs one good move, with
/// every move valued ([`ProofOracle::choices_in`]).
pub struct Choice {
    /// The canonical position.
    pub pos: Position,
    /// Its moves to distinct positions, in the order the search lists
    /// them.
    pub moves: Vec<ChoiceMove>,
}

impl Choice {
    /// The move (its index) the guided search would try first of those
    /// that reach the goal: the smallest starting δ (0 for one the search
    /// settles at once), the list's order breaking ties.
    pub fn guided(&self) -> usize {
        let good = self.moves.iter().enumerate().filter(|(_, m)| m.good);
        let first = good.min_by_key(|&(i, m)| (guided_start(m.settled, m.start), i));
        first
            .expect("a position that reaches its goal has a good move")
            .0
    }

    /// The first move (its index) of the least proof.
    pub fn cheapest(&self) -> usize {
        let mut best: Option<(usize, f64)> = None;
        for (i, m) in self.moves.iter().enumerate().filter(|(_, m)| m.good) {
            if best.is_none_or(|(_, s)| m.size < s) {
                best = Some((i, m.size));
            }
        }
        best.expect("a position that reaches its goal has a good move")
            .0
    }
}

/// A good move's starting δ in the guided search: 0 where the search
/// settles its child at once, else `start`.
fn guided_start(settled: bool, start: u32) -> u32 {
    if settled {
        0
    } else {
        start
    }
}

/// One move of a [`Choice`].
#[derive(Clone, Copy, Debug)]
pub struct ChoiceMove {
    /// The move.
    pub mv: Move,
    /// Its child's starting δ in the guided order.
    pub start: u32,
    /// Whether the search settles its child without expanding it.
    pub settled: bool,
    /// Whether it reaches the goal (its child's side to move fails).
    pub good: bool,
    /// The least expansions of its child's proof: that the child's side
    /// to move fails where the move is good, else that it reaches its
    /// goal (what trying the move first costs before the next).
    pub size: f64,
}

/// A position as the oracle sees it, once valued.
struct Node {
    /// Its value for the side to move.
    value: Wdl,
    /// Its distinct canonical children (empty where it is settled by
    /// knowledge, has no move, or has a move that wins at once) and each
    /// child's starting δ in the guided order (the move's cost plus the
    /// child's moves), in the order the search lists them.
    children: Vec<(Position, u32, Move)>,
    /// Settled by knowledge (or stalemate): no expansion.
    leaf: bool,
    /// A move wins at once: one expansion, no children.
    win_now: bool,
    /// The search settles the question whose attacker is to move here
    /// without an expansion ([`PnSolver::settled`]: the leaf knowledge, or
    /// the one-sided bound where the solver uses it).
    attacker_settled: bool,
    /// The same for the question whose defender is to move (the leaf
    /// knowledge, or a stalemate at once where the solver uses it).
    defender_settled: bool,
}

impl Node {
    /// A position settled without search, of value `value`.
    fn leaf(value: Wdl) -> Node {
        Node {
            value,
            children: Vec::new(),
            leaf: true,
            win_now: false,
            attacker_settled: true,
            defender_settled: true,
        }
    }
}

/// Values and least proof sizes of every position below a question, for
/// the solver's configuration (its canonical forms and leaf knowledge).
pub struct ProofOracle<'s, 'a> {
    solver: &'s PnSolver<'a>,
    worker: Worker<'static>,
    nodes: HashMap<u128, Node>,
    sizes: HashMap<u128, f64>,
    guided_sizes: HashMap<u128, f64>,
    /// Positions it may value before it gives up.
    limit: usize,
}

impl<'s, 'a> ProofOracle<'s, 'a> {
    /// An oracle over `solver`'s knowledge (its transposition table is
    /// not used).
    pub fn new(solver: &'s PnSolver<'a>) -> ProofOracle<'s, 'a> {
        ProofOracle {
            solver,
            worker: Worker::new(),
            nodes: HashMap::new(),
            sizes: HashMap::new(),
            guided_sizes: HashMap::new(),
            limit: usize::MAX,
        }
    }

    /// The oracle giving up ([`SolveError::Stopped`]) once it would value
    /// more than `positions` positions: a bound on its memory (some 300
    /// bytes a position).
    pub fn with_limit(mut self, positions: usize) -> ProofOracle<'s, 'a> {
        self.limit = positions;
        self
    }

    /// A starting δ for every question about every position valued so
    /// far (run [`ProofOracle::report`] first), for a search to order its
    /// moves by ([`PnSolver::with_start_deltas`]): the moves that reach the
    /// goal first, and with `by_size` those with the smaller least proof
    /// before the others (else in the guided order among themselves).
    pub fn start_deltas(&mut self, by_size: bool) -> Result<StartDeltas, SolveError> {
        let mut positions: Vec<Position> = self
            .nodes
            .values()
            .flat_map(|n| n.children.iter().map(|&(c, _, _)| c))
            .collect();
        positions.sort_by_key(position_key);
        positions.dedup();
        let mut rank = HashMap::with_capacity(2 * positions.len());
        for c in positions {
            for a in [false, true] {
                let (r, _) = self.goal(&c, a);
                // Quarters of a doubling of the least proof.
                let size = if by_size {
                    (4.0 * (1.0 + self.size(&c, a, Chooser::Cheapest)?).log2()).round() as u32
                } else {
                    0
                };
                // The parent's side to move wants a child whose side to
                // move fails.
                rank.insert(
                    tt_key(&c, a),
                    if r {
                        StartDeltas::FAILS + size
                    } else {
                        1 + size
                    },
                );
            }
        }
        Ok(StartDeltas(rank))
    }

    /// Distinct positions valued so far.
    pub fn positions(&self) -> usize {
        self.nodes.len()
    }

    fn canonical(&self, pos: &Position) -> Position {
        canonical_with(pos, self.solver.config().search.canonical)
    }

    /// Values the canonical `pos` (not decided by the rules) and
    /// everything below it.
    fn value(&mut self, pos: &Position) -> Result<Wdl, SolveError> {
        let key = position_key(pos);
        if let Some(n) = self.nodes.get(&key) {
            return Ok(n.value);
        }
        if self.nodes.len() >= self.limit {
            return Err(SolveError::Stopped);
        }
        if let Some(v) = self.known(pos)? {
            return Ok(v);
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            self.nodes.insert(key, Node::leaf(Wdl::Draw));
            return Ok(Wdl::Draw);
        }
        let attacker_settled = self.solver.settled(&mut self.worker, pos, true)?.is_some();
        let defender_settled = self.solver.settled(&mut self.worker, pos, false)?.is_some();
        let mut node = Node {
            value: Wdl::Loss,
            children: Vec::new(),
            leaf: false,
            win_now: false,
            attacker_settled,
            defender_settled,
        };
        let attacked = attacked_squares(pos);
        pn_order(pos, moves.as_mut_slice(), attacked);
        for &m in moves.iter() {
            let child = pos.play(m);
            if child.winner_by_rule().is_some() {
                node.win_now = true;
                node.children.clear();
                break;
            }
            let c = self.canonical(&child);
            if node.children.iter().any(|(x, _, _)| *x == c) {
                continue;
            }
            let start = c.count_moves() + guess_cost(pos, m, attacked);
            node.children.push((c, start, m));
        }
        // A move to a position the knowledge settles as lost for its
        // side to move wins, and its proof costs nothing: whatever the
        // other moves are, the least proof of either question here is
        // this one expansion, so they are not valued.
        for i in 0..node.children.len() {
            let c = node.children[i].0;
            if !node.win_now && self.known(&c)? == Some(Wdl::Loss) {
                node.children.swap(0, i);
                node.children.truncate(1);
                break;
            }
        }
        node.value = if node.win_now {
            Wdl::Win
        } else {
            let mut best = Wdl::Loss;
            for i in 0..node.children.len() {
                let c = node.children[i].0;
                best = best.max(self.value(&c)?.before_move());
            }
            best
        };
        let value = node.value;
        self.nodes.insert(key, node);
        Ok(value)
    }

    /// The value of the canonical `pos` if it is known without search (the
    /// leaf knowledge, or no move), kept as a leaf the first time.
    fn known(&mut self, pos: &Position) -> Result<Option<Wdl>, SolveError> {
        let key = position_key(pos);
        if let Some(n) = self.nodes.get(&key) {
            return Ok(n.leaf.then_some(n.value));
        }
        let v = self.solver.leaf_wdl(&mut self.worker, pos)?;
        if let Some(v) = v {
            self.nodes.insert(key, Node::leaf(v));
        }
        Ok(v)
    }

    /// Whether the side to move in the valued canonical `pos` reaches its
    /// goal, and whether the search would settle it without an expansion
    /// (the leaf knowledge, the one-sided bound or a stalemate at once
    /// where the solver uses them, no move).
    fn goal(&self, pos: &Position, attacker_to_move: bool) -> (bool, bool) {
        let n = &self.nodes[&position_key(pos)];
        let settled = n.leaf
            || if attacker_to_move {
                n.attacker_settled
            } else {
                n.defender_settled
            };
        (reaches(n.value, attacker_to_move), settled)
    }

    /// The distinct canonical children of a valued position, each with
    /// its starting δ in the guided order and the move that reaches it.
    fn children(&self, pos: &Position) -> Vec<(Position, u32, Move)> {
        self.nodes[&position_key(pos)].children.clone()
    }

    /// The least expansions of the proof of the question about the valued
    /// canonical `pos`, counted as a tree.
    fn size(&mut self, pos: &Position, a: bool, chooser: Chooser) -> Result<f64, SolveError> {
        let key = tt_key(pos, a);
        let memo = match chooser {
            Chooser::Cheapest => &self.sizes,
            Chooser::Guided => &self.guided_sizes,
        };
        if let Some(&s) = memo.get(&key) {
            return Ok(s);
        }
        let (r, settled) = self.goal(pos, a);
        let s = if settled {
            0.0
        } else if self.nodes[&position_key(pos)].win_now {
            1.0
        } else {
            let children = self.children(pos);
            if r {
                let mut best = f64::INFINITY;
                for &(c, _, _) in &self.choices(&children, a, chooser)? {
                    best = best.min(self.size(&c, !a, chooser)?);
                }
                1.0 + best
            } else {
                let mut sum = 1.0;
                for &(c, _, _) in &children {
                    sum += self.size(&c, !a, chooser)?;
                }
                sum
            }
        };
        match chooser {
            Chooser::Cheapest => self.sizes.insert(key, s),
            Chooser::Guided => self.guided_sizes.insert(key, s),
        };
        Ok(s)
    }

    /// The moves a chooser may take where the side to move reaches its
    /// goal: every child whose own side to move fails (cheapest), or the
    /// first of them by starting δ, list order breaking ties (guided). A
    /// child the search settles at once starts with δ 0 when it fails.
    fn choices(
        &mut self,
        children: &[(Position, u32, Move)],
        a: bool,
        chooser: Chooser,
    ) -> Result<Vec<(Position, u32, Move)>, SolveError> {
        let mut good = Vec::new();
        for &(c, start, m) in children {
            let (cr, settled) = self.goal(&c, !a);
            if !cr {
                good.push((c, guided_start(settled, start), m));
            }
        }
        if chooser == Chooser::Guided {
            let first = good
                .iter()
                .enumerate()
                .min_by_key(|(i, (_, d, _))| (*d, *i));
            let first = first.map(|(_, x)| *x);
            good = first.into_iter().collect();
        }
        Ok(good)
    }

    /// Values everything below the question about `pos` and measures its
    /// proofs.
    pub fn report(
        &mut self,
        pos: &Position,
        question: Question,
    ) -> Result<OracleReport, SolveError> {
        if let Some(outcome) = pos.outcome() {
            return Err(SolveError::GameOver(outcome));
        }
        let c = self.canonical(pos);
        let a = question == Question::Wins;
        self.value(&c)?;
        let (r, _) = self.goal(&c, a);
        let tree = self.size(&c, a, Chooser::Cheapest)?;
        let guided_tree = self.size(&c, a, Chooser::Guided)?;
        let mut report = OracleReport {
            reaches: r,
            tree,
            cheapest: 0,
            guided: 0,
            guided_tree,
            choices: 0,
            guided_cheapest: 0,
        };
        let (mut choices, mut guided_cheapest) = (0, 0);
        report.cheapest = self.distinct(&c, a, Chooser::Cheapest, &mut |ch| {
            choices += 1;
            if ch.moves[ch.guided()].size <= ch.moves[ch.cheapest()].size {
                guided_cheapest += 1;
            }
        })?;
        (report.choices, report.guided_cheapest) = (choices, guided_cheapest);
        report.guided = self.distinct(&c, a, Chooser::Guided, &mut |_| {})?;
        Ok(report)
    }

    /// Calls `visit` with every position where the side to move needs one
    /// good move in the proof of the question about `pos` that `chooser`
    /// makes (once each), every move of it valued.
    pub fn choices_in(
        &mut self,
        pos: &Position,
        question: Question,
        chooser: Chooser,
        visit: &mut dyn FnMut(&Choice),
    ) -> Result<(), SolveError> {
        if let Some(outcome) = pos.outcome() {
            return Err(SolveError::GameOver(outcome));
        }
        let c = self.canonical(pos);
        let a = question == Question::Wins;
        self.value(&c)?;
        self.distinct(&c, a, chooser, visit)?;
        Ok(())
    }

    /// The valued moves of a position whose side to move reaches its goal.
    fn choice(
        &mut self,
        pos: &Position,
        children: &[(Position, u32, Move)],
        a: bool,
    ) -> Result<Choice, SolveError> {
        let mut moves = Vec::with_capacity(children.len());
        for &(c, start, m) in children {
            let (cr, settled) = self.goal(&c, !a);
            let size = self.size(&c, !a, Chooser::Cheapest)?;
            moves.push(ChoiceMove {
                mv: m,
                start,
                settled,
                good: !cr,
                size,
            });
        }
        Ok(Choice { pos: *pos, moves })
    }

    /// The distinct positions a chooser's proof expands, `visit` called
    /// with each of its choices.
    fn distinct(
        &mut self,
        root: &Position,
        root_a: bool,
        chooser: Chooser,
        visit: &mut dyn FnMut(&Choice),
    ) -> Result<u64, SolveError> {
        let mut seen = HashSet::new();
        let mut stack = vec![(*root, root_a)];
        let mut expanded = 0;
        while let Some((p, a)) = stack.pop() {
            if !seen.insert(tt_key(&p, a)) {
                continue;
            }
            let (r, settled) = self.goal(&p, a);
            if settled {
                continue;
            }
            expanded += 1;
            if self.nodes[&position_key(&p)].win_now {
                continue;
            }
            let children = self.children(&p);
            if !r {
                stack.extend(children.iter().map(|&(c, _, _)| (c, !a)));
                continue;
            }
            let choice = self.choice(&p, &children, a)?;
            visit(&choice);
            let pick = match chooser {
                Chooser::Cheapest => choice.cheapest(),
                Chooser::Guided => choice.guided(),
            };
            stack.push((children[pick].0, !a));
        }
        Ok(expanded)
    }
}
