//! Replay from the log: a manager made from a proof log takes every
//! logged answer as settled, and grows the tree the log's jobs grew, each
//! logged `open` job's node expanded again or its job continued (see the
//! resume rule in the manager's documentation).

use super::tree::NodeId;
use super::{Counts, DirectAnswer, Manager, ManagerConfig, Opened};
use crate::prove::log::{Answer, JobRecord, LineKind, LogContents};
use crate::prove::pair::{Pair, QUESTIONS};
use crate::rules::{canonical, position_key, Position};
use crate::solve::Question;
use std::collections::{HashMap, HashSet};

/// The line that records the split of the running job on (`pos`,
/// `question`): number `id`, depending on `dep`.
pub(super) fn split_record(pos: Position, question: Question, id: u64, dep: u64) -> JobRecord {
    JobRecord {
        pos,
        question,
        answer: Answer::Open,
        nodes: 0,
        seconds: 0.0,
        best: None,
        id,
        dep,
        kind: LineKind::Split,
    }
}

impl Manager {
    /// A manager of `root` that takes every answer of `log` as settled. The
    /// root must not be a finished game.
    pub fn new(root: Position, config: ManagerConfig, log: &LogContents) -> Manager {
        let mut m = Manager::from_log(root, config, log);
        m.grow();
        let continued = m.continuable();
        if !continued.is_empty() {
            // Grown again: the nodes `continued` keep their logged `open`
            // jobs going instead of being expanded.
            m.continued = continued;
            m.clear_tree();
            m.grow();
        }
        m
    }

    /// A manager of `root` with what `log` says (answers, `open` jobs,
    /// splits, nodes spent), and no tree yet.
    fn from_log(root: Position, config: ManagerConfig, log: &LogContents) -> Manager {
        let mut answers = HashMap::new();
        let mut opened: HashMap<Pair, Opened> = HashMap::new();
        let mut counts = Counts::default();
        let mut spent: HashMap<Pair, u64> = HashMap::new();
        let mut splits = HashSet::new();
        for j in &log.jobs {
            let pair = Pair::new(j.key(), j.question);
            match j.kind {
                LineKind::Known => counts.logged_known += 1,
                LineKind::Split => {
                    splits.insert(pair.key);
                }
                LineKind::Job => counts.logged_jobs += 1,
            }
            counts.logged_nodes += j.nodes;
            *spent.entry(pair).or_default() += j.nodes;
            match j.answer.as_bool() {
                Some(b) => {
                    // A job's own answer (with its best move) is kept over
                    // a `known` line of the same pair.
                    let known = j.kind == LineKind::Known;
                    if !(known && answers.contains_key(&pair)) {
                        let answer = DirectAnswer {
                            answer: b,
                            best: j.best.clone(),
                            known,
                        };
                        answers.insert(pair, answer);
                    }
                }
                None => {
                    let e = opened.entry(pair).or_insert(Opened {
                        last: j.id,
                        most_nodes: j.nodes,
                    });
                    e.last = e.last.max(j.id);
                    e.most_nodes = e.most_nodes.max(j.nodes);
                }
            }
        }
        Manager {
            root,
            config,
            root_id: 0,
            root_moves: Vec::new(),
            nodes: Vec::new(),
            index: HashMap::new(),
            goals: Vec::new(),
            dirty: Vec::new(),
            epoch: 0,
            answers,
            opened,
            continued: HashSet::new(),
            splits,
            spent,
            expanded_roots: log
                .roots
                .iter()
                .filter(|r| r.all_moves)
                .map(|r| position_key(&canonical(&r.pos)))
                .collect(),
            pending_known: HashMap::new(),
            records: Vec::new(),
            contradictions: Vec::new(),
            in_flight: HashMap::new(),
            warm: HashMap::new(),
            continuations: Vec::new(),
            next_id: log.max_id() + 1,
            counts,
        }
    }

    /// Forgets the tree [`Manager::grow`] grew (and the contradictions it
    /// met), to grow it again.
    fn clear_tree(&mut self) {
        self.root_id = 0;
        self.root_moves.clear();
        self.nodes.clear();
        self.index.clear();
        self.goals.clear();
        self.dirty.clear();
        self.counts.contradictions = 0;
    }

    /// Grows the tree of the root, its goals and the tree the log grew:
    /// every node with a logged `open` job that is not continued is
    /// expanded, so that a resumed proof meets its logged answers again
    /// before it starts any new job, unless logged answers give its value
    /// anyway (a job continued after its `open` answered it).
    fn grow(&mut self) {
        let root = self.root;
        self.root_id = self.node_of(&root, 0);
        self.root_moves = root
            .legal_moves()
            .iter()
            .map(|&mv| (mv, self.node_of(&root.play(mv), 0)))
            .collect();
        if self.config.all_moves {
            // The root's children are the root moves' positions.
            let children = self.root_moves.clone();
            for &(_, c) in &children {
                self.nodes[c as usize].parents.push(self.root_id);
            }
            self.nodes[self.root_id as usize].children = Some(children);
            self.dirty.extend([
                (self.root_id, Question::Wins),
                (self.root_id, Question::AvoidsLoss),
            ]);
            // The root's value first (ties in `select` go to the
            // earliest goal), then every first move's.
            self.goals = std::iter::once(self.root_id)
                .chain(self.root_moves.iter().map(|&(_, c)| c))
                .collect();
        } else {
            self.goals = vec![self.root_id];
        }
        let mut k = 0;
        while k < self.nodes.len() {
            let node = &self.nodes[k];
            if !node.terminal && node.value().is_none() {
                if let Some(id) = self.logged_expansion(k as NodeId) {
                    self.expand(k as NodeId, id);
                }
            }
            k += 1;
        }
        self.refresh();
    }

    /// The logged job whose `open` (or root run) expands unexpanded node
    /// `n` before any job is asked about it, if one does: a logged `open`
    /// of a node not in [`Manager::continued`] (a split's line among them),
    /// or a logged `--all-moves` root (0). A pair of a continued node gets
    /// its next budget here.
    pub(super) fn logged_expansion(&mut self, n: NodeId) -> Option<u64> {
        let node = &self.nodes[n as usize];
        if node.children.is_some() || node.terminal {
            return None;
        }
        let key = node.key;
        if self.expanded_roots.contains(&key) {
            return Some(0);
        }
        let opens: Vec<(Question, Opened)> = self.logged_opens(key).collect();
        let &(_, first) = opens.first()?;
        if !self.continued.contains(&key) {
            return Some(first.last);
        }
        let growth = self.config.growth.max(2);
        for (q, open) in opens {
            let p = &mut self.nodes[n as usize].pairs[q];
            if p.budget == 0 {
                // Not `clamp`: a config whose first budget passes its
                // largest must not panic here.
                p.budget = open
                    .most_nodes
                    .saturating_mul(growth)
                    .min(self.config.max_job_nodes)
                    .max(self.config.job_nodes);
                p.after = open.last;
            }
        }
        None
    }

    /// The questions of position `key` whose jobs came back `open` (see
    /// [`Manager::opened`]), with those jobs.
    fn logged_opens(&self, key: u128) -> impl Iterator<Item = (Question, Opened)> + '_ {
        QUESTIONS
            .into_iter()
            .filter_map(move |q| Some((q, *self.opened.get(&Pair::new(key, q))?)))
    }

    /// The nodes of the tree the log grew whose logged `open` jobs are
    /// better continued than expanded again: every logged attempt of the
    /// node was below [`ManagerConfig::max_job_nodes`], no job below it was
    /// answered, the answers below it settle none of its questions and it
    /// was not split (on a resumed run's cold transposition table its
    /// expansion would only restart the breadth; answers below it would be
    /// lost, and below a split they came from other jobs than its own).
    fn continuable(&self) -> HashSet<u128> {
        // Whether some node below n (n excluded) has a logged answer.
        fn answered_below(m: &Manager, n: NodeId, memo: &mut HashMap<NodeId, bool>) -> bool {
            if let Some(&b) = memo.get(&n) {
                return b;
            }
            memo.insert(n, false);
            let mut below = false;
            for &(_, c) in m.nodes[n as usize].children.iter().flatten() {
                let child = &m.nodes[c as usize];
                // Jobs' own answers: a `known` answer was proved by the
                // job above it, whose continuation would prove it again.
                let by_job = child
                    .pairs
                    .iter()
                    .any(|p| p.direct.as_ref().is_some_and(|d| !d.known));
                below |= by_job || answered_below(m, c, memo);
            }
            memo.insert(n, below);
            below
        }
        let mut memo = HashMap::new();
        let mut keys = HashSet::new();
        for (n, node) in self.nodes.iter().enumerate() {
            if node.children.is_none() || self.expanded_roots.contains(&node.key) {
                continue;
            }
            let attempts: Vec<u64> = self
                .logged_opens(node.key)
                .map(|(_, open)| open.most_nodes)
                .collect();
            // A question its children settle (`known` answers can: a job
            // that ran out while another worker was idle was expanded as
            // well, and its children's known answers settled it before
            // its continuation ran) is settled again by expanding, free,
            // where a continuation would ask it again: a complete proof
            // would not resume complete. (A question without an answer of
            // its own settled otherwise is one implied by the node's other
            // answer: then the node's value is known and it is never
            // expanded anyway.)
            let settled_below = node
                .pairs
                .iter()
                .any(|p| p.ans.is_some() && p.direct.is_none());
            if !attempts.is_empty()
                && attempts.iter().all(|&a| a < self.config.max_job_nodes)
                && !self.splits.contains(&node.key)
                && !settled_below
                && !answered_below(self, n as NodeId, &mut memo)
            {
                keys.insert(node.key);
            }
        }
        keys
    }
}
