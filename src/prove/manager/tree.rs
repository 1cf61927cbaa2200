//! The tree and its numbers: nodes (canonical positions, transpositions
//! merged), their answers and what they imply, proof and disproof numbers,
//! expansion, and the choice of the most-proving leaf.

use super::{Contradiction, DirectAnswer, Manager, BUSY, INF};
use crate::prove::pair::{ByQuestion, Pair, QUESTIONS};
use crate::rules::{canonical, position_key, Move, Position, Wdl};
use crate::solve::{move_order, Question};
use std::cmp::Reverse;

/// A node's number in [`Manager`]'s list.
pub(super) type NodeId = u32;

/// A position of the tree.
#[derive(Clone, Debug)]
pub(super) struct Node {
    /// Its canonical form.
    pub(super) pos: Position,
    pub(super) key: u128,
    /// The game is over in this position (not in the index).
    pub(super) terminal: bool,
    pub(super) children: Option<Vec<(Move, NodeId)>>,
    pub(super) parents: Vec<NodeId>,
    /// The job whose `open` answer (or split's line) made this node (0:
    /// none).
    pub(super) dep: u64,
    /// What is kept for each of its questions.
    pub(super) pairs: ByQuestion<PairState>,
}

/// What the tree keeps for one question of a node.
#[derive(Clone, Debug)]
pub(super) struct PairState {
    /// The answer, given or derived from the children.
    pub(super) ans: Option<bool>,
    /// The answer a job or the log gave (not derived from children).
    pub(super) direct: Option<DirectAnswer>,
    /// The job answering it.
    pub(super) busy: Option<u64>,
    /// The node budget of the pair's next job (0: the first budget).
    pub(super) budget: u64,
    /// The pair's last job that came back `open` without expanding the
    /// node (0: none): its next job continues that one.
    pub(super) after: u64,
    /// The last [`Manager::mark_needed`] that reached this pair.
    pub(super) mark: u32,
    /// Proof number, as last computed.
    pub(super) pn: u64,
    /// Disproof number, as last computed.
    pub(super) dn: u64,
    /// Whether a free leaf pair lies below, as last computed.
    pub(super) free: bool,
    /// Nodes the `open` job that expanded a parent spent below this pair,
    /// read from that job's warm start: where its search had gone.
    pub(super) seed: u64,
    /// Nodes spent on this pair and below it (the jobs on every pair of
    /// its subtree, as [`Manager`]'s `spent` counts them, and their
    /// seeds; a position reached by two paths counts on
    /// both), as last computed: what [`Manager::select`] keeps to.
    pub(super) work: u64,
}

impl PairState {
    /// A leaf's pair, with answer `ans`.
    fn leaf(ans: Option<bool>) -> PairState {
        PairState {
            ans,
            direct: None,
            busy: None,
            budget: 0,
            after: 0,
            mark: 0,
            pn: 1,
            dn: 1,
            free: true,
            seed: 0,
            work: 0,
        }
    }
}

impl Node {
    /// The answers of its two questions.
    pub(super) fn answers(&self) -> ByQuestion<Option<bool>> {
        self.pairs.as_ref().map(|p| p.ans)
    }

    /// Its value, if its answers make one.
    pub(super) fn value(&self) -> Option<Wdl> {
        value_of(self.pairs.wins.ans, self.pairs.avoids_loss.ans)
    }
}

/// The value two answers make, if they make one.
pub fn value_of(wins: Option<bool>, avoids_loss: Option<bool>) -> Option<Wdl> {
    match (wins, avoids_loss) {
        (Some(true), _) => Some(Wdl::Win),
        (_, Some(false)) => Some(Wdl::Loss),
        (Some(false), Some(true)) => Some(Wdl::Draw),
        _ => None,
    }
}

impl Manager {
    /// The node of a position (any form: it is made canonical), made if new.
    pub(super) fn node_of(&mut self, pos: &Position, dep: u64) -> NodeId {
        let terminal = if pos.winner_by_rule().is_some() {
            // The side to move has lost.
            Some(ByQuestion {
                wins: Some(false),
                avoids_loss: Some(false),
            })
        } else if pos.count_moves() == 0 {
            Some(ByQuestion {
                wins: Some(false),
                avoids_loss: Some(true),
            })
        } else {
            None
        };
        let c = canonical(pos);
        let key = position_key(&c);
        if terminal.is_none() {
            if let Some(&id) = self.index.get(&key) {
                return id;
            }
        }
        let id = self.nodes.len() as NodeId;
        let mut node = Node {
            pos: c,
            key,
            terminal: terminal.is_some(),
            children: None,
            parents: Vec::new(),
            dep,
            pairs: terminal.unwrap_or_default().map(PairState::leaf),
        };
        if terminal.is_none() {
            for q in QUESTIONS {
                let pair = Pair::new(key, q);
                if let Some(answer) = self.answers.get(&pair) {
                    node.pairs[q].direct = Some(answer.clone());
                } else if let Some(pending) = self.pending_known.remove(&pair) {
                    node.pairs[q].direct = Some(DirectAnswer {
                        answer: pending.answer,
                        best: None,
                        known: true,
                    });
                    self.take_known(c, pair, pending);
                }
            }
        }
        self.nodes.push(node);
        if terminal.is_none() {
            self.index.insert(key, id);
            for q in QUESTIONS {
                if let Some(d) = &self.nodes[id as usize].pairs[q].direct {
                    let b = d.answer;
                    self.set_answer(id, q, b);
                }
            }
        }
        id
    }

    /// Settles pair (n, q) as `b`, with its implications.
    pub(super) fn set_answer(&mut self, n: NodeId, q: Question, b: bool) {
        let node = &mut self.nodes[n as usize];
        match node.pairs[q].ans {
            Some(old) if old != b => {
                self.counts.contradictions += 1;
                self.contradictions.push(Contradiction {
                    pos: node.pos,
                    question: q,
                    first: old,
                    second: b,
                });
                return;
            }
            Some(_) => return,
            None => {}
        }
        node.pairs[q].ans = Some(b);
        self.dirty.push((n, q));
        // W yes implies A yes; A no implies W no.
        if q == Question::Wins && b {
            self.set_answer(n, Question::AvoidsLoss, true);
        }
        if q == Question::AvoidsLoss && !b {
            self.set_answer(n, Question::Wins, false);
        }
    }

    /// Expands node `n` one ply (nothing if it already is).
    pub(super) fn expand(&mut self, n: NodeId, dep: u64) {
        if self.nodes[n as usize].children.is_some() || self.nodes[n as usize].terminal {
            return;
        }
        let pos = self.nodes[n as usize].pos;
        // In the search's order: the selection asks the first of equally
        // promising children first.
        let children: Vec<(Move, NodeId)> = move_order(&pos)
            .iter()
            .map(|&m| (m, self.node_of(&pos.play(m), dep)))
            .collect();
        for &(_, c) in &children {
            self.nodes[c as usize].parents.push(n);
        }
        self.nodes[n as usize].children = Some(children);
        self.dirty
            .extend([(n, Question::Wins), (n, Question::AvoidsLoss)]);
    }

    /// Nodes the jobs on `pair` searched (logged and this run's).
    pub(super) fn spent_on(&self, pair: Pair) -> u64 {
        self.spent.get(&pair).copied().unwrap_or(0)
    }

    /// Proof number, disproof number and whether a free leaf lies below,
    /// of pair (n, q), as last computed.
    fn numbers(&self, n: NodeId, q: Question) -> (u64, u64, bool) {
        let p = &self.nodes[n as usize].pairs[q];
        match p.ans {
            Some(true) => (0, INF, false),
            Some(false) => (INF, 0, false),
            None => (p.pn, p.dn, p.free),
        }
    }

    /// Recomputes pair (n, q) from its children's numbers (settling it if
    /// they do); if anything changed, its parents' pairs are next.
    fn update(&mut self, n: NodeId, q: Question) {
        let node = &self.nodes[n as usize];
        let work = node
            .children
            .iter()
            .flatten()
            .map(|&(_, c)| self.nodes[c as usize].pairs[q.other()].work)
            .fold(
                self.spent_on(Pair::new(node.key, q))
                    .saturating_add(node.pairs[q].seed),
                u64::saturating_add,
            );
        let new = if node.pairs[q].ans.is_some() {
            self.numbers(n, q)
        } else {
            match &node.children {
                None if node.pairs[q].busy.is_some() => (BUSY, BUSY, false),
                None => (1, 1, true),
                Some(children) => {
                    let (mut pn, mut dn, mut free) = (INF, 0u64, false);
                    let (mut any_no, mut all_yes) = (false, true);
                    for &(_, c) in children {
                        let (cp, cd, cf) = self.numbers(c, q.other());
                        match self.nodes[c as usize].pairs[q.other()].ans {
                            Some(false) => any_no = true,
                            Some(true) => {}
                            None => all_yes = false,
                        }
                        pn = pn.min(cd);
                        dn = dn.saturating_add(cp).min(INF - 1);
                        free |= cf;
                    }
                    if any_no || all_yes {
                        // Pushes (n, q) again, to be stored as settled.
                        self.set_answer(n, q, any_no);
                        return;
                    }
                    (pn, dn, free)
                }
            }
        };
        let p = &mut self.nodes[n as usize].pairs[q];
        if (p.pn, p.dn, p.free, p.work) == (new.0, new.1, new.2, work) {
            return;
        }
        (p.pn, p.dn, p.free) = new;
        p.work = work;
        for k in 0..self.nodes[n as usize].parents.len() {
            let parent = self.nodes[n as usize].parents[k];
            self.dirty.push((parent, q.other()));
        }
    }

    /// The questions of goal `g` still needed for its value.
    pub(super) fn needed(&self, g: NodeId) -> Vec<Question> {
        let a = self.nodes[g as usize].answers();
        match (a.wins, a.avoids_loss) {
            (Some(true), _) | (_, Some(false)) | (Some(false), Some(true)) => vec![],
            (Some(false), None) => vec![Question::AvoidsLoss],
            (_, Some(true)) => vec![Question::Wins],
            _ => vec![Question::Wins, Question::AvoidsLoss],
        }
    }

    /// Brings every number up to date (and settles what follows).
    pub fn refresh(&mut self) {
        while let Some((n, q)) = self.dirty.pop() {
            self.update(n, q);
        }
    }

    /// Marks every open pair some goal still needs (reached from the goals
    /// through open pairs).
    pub(super) fn mark_needed(&mut self) {
        self.epoch += 1;
        let mut stack: Vec<(NodeId, Question)> = Vec::new();
        for &g in &self.goals {
            for q in self.needed(g) {
                stack.push((g, q));
            }
        }
        while let Some((n, q)) = stack.pop() {
            let p = &mut self.nodes[n as usize].pairs[q];
            if p.ans.is_some() || p.mark == self.epoch {
                continue;
            }
            p.mark = self.epoch;
            if let Some(children) = &self.nodes[n as usize].children {
                stack.extend(children.iter().map(|&(_, c)| (c, q.other())));
            }
        }
    }

    /// Whether pair (n, q) is open and the last [`Manager::mark_needed`]
    /// found a goal that needs it.
    pub(super) fn is_needed(&self, n: NodeId, q: Question) -> bool {
        let p = &self.nodes[n as usize].pairs[q];
        p.ans.is_none() && p.mark == self.epoch
    }

    /// Whether every goal has its value.
    pub fn done(&self) -> bool {
        self.goals.iter().all(|&g| self.needed(g).is_empty()) && self.value().is_some()
    }

    /// The most-proving free leaf pair, if any.
    pub(super) fn select(&self) -> Option<(NodeId, Question)> {
        let mut best: Option<(u64, NodeId, Question)> = None;
        for &g in &self.goals {
            for q in self.needed(g) {
                let p = &self.nodes[g as usize].pairs[q];
                if p.ans.is_none() && p.free {
                    let cost = p.pn.min(p.dn);
                    if best.is_none_or(|(c, _, _)| cost < c) {
                        best = Some((cost, g, q));
                    }
                }
            }
        }
        let (_, mut n, mut q) = best?;
        loop {
            let node = &self.nodes[n as usize];
            let Some(children) = &node.children else {
                return Some((n, q));
            };
            // The child with the most work below it first, if the proof
            // keeps to its children (as the search keeps to its best
            // child): a move the proof has spent on is followed until it
            // is settled, not left for a sibling whose numbers look
            // better only because nothing below it is known yet.
            let kept = |w: u64| if self.config.keep_child { w } else { 0 };
            let pair = |c: NodeId| &self.nodes[c as usize].pairs[q.other()];
            let c = children
                .iter()
                .map(|&(_, c)| c)
                .filter(|&c| pair(c).ans.is_none() && pair(c).free)
                .min_by_key(|&c| (Reverse(kept(pair(c).work)), pair(c).dn, pair(c).pn))?;
            n = c;
            q = q.other();
        }
    }
}
