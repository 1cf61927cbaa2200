//! What the manager shows people: the values of the root and its moves,
//! where the nodes went, what a running job asks, the proven tree as
//! text, and logged answers their children contradict.

use super::tree::{Node, NodeId};
use super::{Manager, MoveValue};
use crate::prove::log::Answer;
use crate::prove::pair::{ByQuestion, Pair, QUESTIONS};
use crate::rules::{canonical, position_key, Move, Position, Wdl};
use crate::solve::Question;
use std::collections::HashMap;

impl Manager {
    /// Every first move with its value from the mover's view (known ones).
    pub fn move_values(&self) -> Vec<MoveValue> {
        self.root_moves
            .iter()
            .map(|&(m, c)| MoveValue {
                san: m.san(),
                value: self.nodes[c as usize].value().map(Wdl::before_move),
            })
            .collect()
    }

    /// The nodes spent by jobs on the root itself, and for each first move
    /// (in [`Manager::move_values`]' order) by jobs on its position and on
    /// every position the tree holds below it (a transposition counts
    /// under every first move that reaches it): where a proof's work went.
    pub fn nodes_below(&self) -> (u64, Vec<u64>) {
        let spent = |n: NodeId| {
            QUESTIONS
                .iter()
                .map(|&q| self.spent_on(Pair::new(self.nodes[n as usize].key, q)))
                .sum::<u64>()
        };
        let below = |start: NodeId| {
            let mut seen = std::collections::HashSet::from([start]);
            let mut stack = vec![start];
            let mut sum = 0;
            while let Some(n) = stack.pop() {
                sum += spent(n);
                for &(_, c) in self.nodes[n as usize].children.iter().flatten() {
                    if seen.insert(c) {
                        stack.push(c);
                    }
                }
            }
            sum
        };
        let moves = self.root_moves.iter().map(|&(_, c)| below(c)).collect();
        (spent(self.root_id), moves)
    }

    /// What a running job asks, for people: a line of real moves from the
    /// root to its position (the shortest through the DAG, as `1. b4 a5`)
    /// and the question put to the side to move there, as in `1. b4: does
    /// black avoid losing?` or `the root: does white win?`. `None` if the
    /// job is not running.
    pub fn job_text(&self, id: u64) -> Option<String> {
        let running = self.in_flight.get(&id)?;
        let target = running.node;
        // Up from the job's node to the root, breadth first: `toward[p]` is
        // the child of `p` on a shortest way down to the job's node.
        let mut toward: HashMap<NodeId, NodeId> = HashMap::new();
        let mut queue = std::collections::VecDeque::from([target]);
        while let Some(n) = queue.pop_front() {
            if n == self.root_id {
                break;
            }
            for &p in &self.nodes[n as usize].parents {
                if p != target && !toward.contains_key(&p) {
                    toward.insert(p, n);
                    queue.push_back(p);
                }
            }
        }
        // Down again through real positions, each move the one whose
        // canonical child is the next node.
        let mut pos = self.root;
        let mut line = Vec::new();
        let mut n = self.root_id;
        while n != target {
            let next = *toward.get(&n)?;
            let key = self.nodes[next as usize].key;
            let m = move_to(&pos, key)?;
            line.push(m);
            pos = pos.play(m);
            n = next;
        }
        let asked = match running.question {
            Question::Wins => "win",
            Question::AvoidsLoss => "avoid losing",
        };
        let place = if line.is_empty() {
            "the root".to_string()
        } else {
            crate::rules::notation::numbered_moves(&self.root, &line)
        };
        Some(format!("{place}: does {} {asked}?", pos.turn()))
    }

    /// The proven top of the tree as indented text: for each settled node
    /// its value and position; a win shows one winning move, a draw one
    /// drawing move and every move that cannot win, a loss every move.
    /// Down to `depth` plies. Positions and moves are the real ones, seen
    /// from the root (the DAG stores canonical forms: colours flipped so
    /// that white moves, files mirrored or packed).
    pub fn tree(&self, depth: usize) -> String {
        let mut out = String::new();
        out.push_str(&format!("{} {}\n", self.root, wdl_text(self.value())));
        for &m in self.root.legal_moves().iter() {
            let child = self.root.play(m);
            let answers = self.answers_of(&child);
            out.push_str(&format!("  {} {}\n", m.san(), move_text(answers)));
            self.tree_node(&child, 2, depth, &mut out);
        }
        out
    }

    /// The node of a real position, if the DAG has it (games over by rule
    /// and stalemates are not indexed).
    fn lookup(&self, pos: &Position) -> Option<NodeId> {
        self.index.get(&position_key(&canonical(pos))).copied()
    }

    /// What is known of a real position's two questions.
    fn answers_of(&self, pos: &Position) -> ByQuestion<Option<bool>> {
        if pos.winner_by_rule().is_some() {
            ByQuestion {
                wins: Some(false),
                avoids_loss: Some(false),
            }
        } else if pos.count_moves() == 0 {
            ByQuestion {
                wins: Some(false),
                avoids_loss: Some(true),
            }
        } else {
            self.lookup(pos)
                .map_or_else(Default::default, |n| self.nodes[n as usize].answers())
        }
    }

    /// The real move of `pos` (whose node is `node`) that the canonical
    /// best move `best` of the node's position stands for.
    fn real_move(&self, pos: &Position, node: &Node, best: &str) -> Option<String> {
        let m = node.pos.parse_move(best).ok()?;
        move_to(pos, position_key(&canonical(&node.pos.play(m)))).map(|r| r.san())
    }

    fn tree_node(&self, pos: &Position, indent: usize, depth: usize, out: &mut String) {
        let pad = "  ".repeat(indent);
        if pos.is_game_over() {
            return;
        }
        let Some(n) = self.lookup(pos) else {
            out.push_str(&format!("{pad}(open) {pos}\n"));
            return;
        };
        let node = &self.nodes[n as usize];
        let Some(v) = node.value() else {
            let bound = match (node.pairs.wins.ans, node.pairs.avoids_loss.ans) {
                (_, Some(true)) => "at least a draw",
                (Some(false), _) => "at most a draw",
                _ => "open",
            };
            out.push_str(&format!("{pad}{pos} {bound}\n"));
            return;
        };
        if node.pairs.iter().any(|p| p.direct.is_some()) && node.children.is_none() {
            let best = node
                .pairs
                .iter()
                .find_map(|p| p.direct.as_ref().and_then(|d| d.best.as_deref()));
            let best = best.and_then(|b| self.real_move(pos, node, b));
            out.push_str(&format!(
                "{pad}{pos} {v} by a job{}\n",
                best.map(|b| format!(", best {b}")).unwrap_or_default()
            ));
            return;
        }
        out.push_str(&format!("{pad}{pos} {v}\n"));
        if node.children.is_none() || indent > depth {
            return;
        }
        for &m in pos.legal_moves().iter() {
            let child = pos.play(m);
            let answers = self.answers_of(&child);
            let mv = value_of_answers(answers).map(Wdl::before_move);
            let show = match v {
                Wdl::Win => mv == Some(Wdl::Win),
                Wdl::Draw => mv == Some(Wdl::Draw) || answers.avoids_loss == Some(true),
                Wdl::Loss => true,
            };
            if show {
                out.push_str(&format!("{pad}  {} {}\n", m.san(), move_text(answers)));
                self.tree_node(&child, indent + 2, depth, out);
                if v == Wdl::Win {
                    break;
                }
            }
        }
    }

    /// Interior nodes whose direct (logged) answer differs from what their
    /// children's answers give: each a sign of a wrong line.
    pub fn disagreements(&self) -> Vec<String> {
        let mut out = Vec::new();
        for node in &self.nodes {
            let Some(children) = &node.children else {
                continue;
            };
            for q in QUESTIONS {
                let Some(d) = node.pairs[q].direct.as_ref().map(|d| d.answer) else {
                    continue;
                };
                let cs: Vec<Option<bool>> = children
                    .iter()
                    .map(|&(_, c)| self.nodes[c as usize].pairs[q.other()].ans)
                    .collect();
                let derived = if cs.contains(&Some(false)) {
                    Some(true)
                } else if cs.iter().all(|&a| a == Some(true)) {
                    Some(false)
                } else {
                    None
                };
                if derived.is_some_and(|x| x != d) {
                    out.push(format!(
                        "{} {}: logged {}, children give {}",
                        node.pos,
                        crate::prove::log::question_text(q),
                        Answer::of_bool(d).text(),
                        Answer::of_bool(!d).text()
                    ));
                }
            }
        }
        out
    }
}

/// The value a position's two answers make, if they make one.
fn value_of_answers(answers: ByQuestion<Option<bool>>) -> Option<Wdl> {
    super::value_of(answers.wins, answers.avoids_loss)
}

/// The move of `pos` whose child has the canonical key `key` (how a real
/// position follows a move of the DAG, which stores canonical forms).
fn move_to(pos: &Position, key: u128) -> Option<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .find(|&m| position_key(&canonical(&pos.play(m))) == key)
}

/// A move's value from the mover's view given the answers of the position
/// it leads to: `win`, `draw`, `loss`, a bound (`at most a draw`: the
/// opponent avoids losing there; `at least a draw`: the opponent does not
/// win) or `open`.
fn move_text(answers: ByQuestion<Option<bool>>) -> String {
    match (value_of_answers(answers), answers.wins, answers.avoids_loss) {
        (Some(v), _, _) => v.before_move().to_string(),
        (None, _, Some(true)) => "at most a draw".into(),
        (None, Some(false), _) => "at least a draw".into(),
        _ => "open".into(),
    }
}

/// `win`, `draw`, `loss` or `open`.
pub fn wdl_text(v: Option<Wdl>) -> String {
    v.map_or("open".to_string(), |v| v.to_string())
}
