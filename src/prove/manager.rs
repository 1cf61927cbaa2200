//! The proof manager: the top of the proof tree as a DAG of canonical
//! positions (transpositions merged), jobs chosen in proof-number fashion.
//!
//! Every node carries two binary questions, "does the side to move win?"
//! (W) and "does it avoid losing?" (A); their answers make its value (W yes:
//! win; A no: loss; W no and A yes: draw), and W yes implies A yes, A no
//! implies W no. For an expanded node the questions follow from its
//! children's opposite questions: W(n) = some child with A(c) no, A(n) =
//! some child with W(c) no. Each unanswered pair (node, question) has a
//! proof number (how many leaves must still be answered for a yes) and a
//! disproof number (for a no): at a leaf 1 and 1, at an expanded node the
//! proof number is the smallest disproof number of its children's pairs and
//! the disproof number the sum of their proof numbers. A leaf pair that a
//! job is answering counts as very expensive ([`BUSY`]), so that parallel
//! workers get different leaves.
//!
//! The goals are the root's value (both questions until one settles it),
//! and with `all_moves` the value of every child of the root as well, the
//! root first: its value is what a proof cut short should have settled
//! first. Among the goals' open pairs the one with the smallest proof or
//! disproof number (the earliest goal's, of equals) is chosen
//! and followed down, at each node to the child whose pair has the smallest
//! disproof number, to a leaf: the most-proving leaf (children are kept in
//! the search's move order, so that of equally promising children the one
//! the search would try first is asked first). Its job asks its question
//! with a node budget; a `yes` or `no` settles the pair. An `open` (budget
//! spent) is continued: the same pair is asked again at once, with
//! [`ManagerConfig::growth`] times the budget, on the worker that just
//! finished it (the idle worker taken next), whose transposition table
//! still holds the first attempt's work, so the second attempt continues it
//! rather than starting over. When the budget would pass
//! [`ManagerConfig::max_job_nodes`] the node is expanded one ply instead
//! and its children become leaves; when other workers are idle (no leaf
//! was left for them) it is both continued and expanded, and whichever
//! settles the pair first cancels the rest. Likewise a worker that finds
//! no free leaf splits the running job with the largest budget: its
//! position is expanded while the job runs on, and the worker takes a
//! child (a proof down to one hard question keeps every worker busy
//! below it). A job whose pair is no longer needed by any goal
//! (a sibling's proof settled its parent) is cancelled.
//!
//! Answers already in the proof log settle their pairs when a node is made,
//! so nothing logged is solved again. A logged `open` of a pair the log
//! does not answer is continued where the log left it if its largest
//! attempt was below [`ManagerConfig::max_job_nodes`] and no job below its
//! node was answered: the pair's next job gets
//! [`ManagerConfig::growth`] times that attempt (a resumed run's table is
//! cold, so this redoes the attempt's work, a 1/growth share of the new
//! budget, where expanding would restart the breadth below it). Otherwise
//! (the attempt had the largest budget, or the log holds answers below
//! it) its node is expanded, and the resumed proof meets the logged
//! answers again before it starts any new job.

use crate::prove::log::{Answer, JobRecord, LineKind, LogContents};
use crate::prove::warm::Warm;
use crate::prove::worker::{Job, JobEnd, JobResult};
use crate::rules::{canonical, position_key, Move, Position, Wdl};
use crate::solve::{move_order, Question};
use std::collections::{HashMap, HashSet};

/// Proof and disproof numbers of a settled pair.
pub const INF: u64 = u64::MAX / 4;
/// What a leaf pair being answered by a job counts for.
pub const BUSY: u64 = 1 << 24;
/// The most answers of jobs' workers the manager keeps for positions that
/// are not nodes yet (about 50 bytes each: 200 MB). Past it, new ones are
/// dropped: they only spare jobs, and a long run on many ranks (hundreds
/// of answers a job) must not grow the manager without end.
pub const MAX_HINTS: usize = 1 << 22;

type NodeId = u32;

/// The index of a question in a node's arrays.
pub(crate) fn qi(q: Question) -> usize {
    match q {
        Question::Wins => 0,
        Question::AvoidsLoss => 1,
    }
}

fn question(i: usize) -> Question {
    if i == 0 {
        Question::Wins
    } else {
        Question::AvoidsLoss
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

#[derive(Clone, Debug)]
struct Node {
    pos: Position,
    key: u128,
    /// The game is over in this position (not in the index).
    terminal: bool,
    children: Option<Vec<(Move, NodeId)>>,
    ans: [Option<bool>; 2],
    /// Answers given by a job or the log (not derived from children).
    direct: [Option<bool>; 2],
    /// Which of them a job's worker knew below its own position (a
    /// `known` answer) rather than a job asked for.
    harvested: [bool; 2],
    best: [Option<String>; 2],
    busy: [Option<u64>; 2],
    /// The job whose `open` answer (or split's line) made this node (0:
    /// none).
    dep: u64,
    /// The node budget of the pair's next job (0: the first budget).
    budget: [u64; 2],
    /// The pair's last job that came back `open` without expanding the
    /// node (0: none): its next job continues that one.
    after: [u64; 2],
    parents: Vec<NodeId>,
    /// The last [`Manager::mark_needed`] that reached this pair.
    mark: [u32; 2],
    pn: [u64; 2],
    dn: [u64; 2],
    free: [bool; 2],
}

/// How the manager works.
#[derive(Clone, Copy, Debug)]
pub struct ManagerConfig {
    /// Node budget of a position's first job.
    pub job_nodes: u64,
    /// The largest budget a job may grow to. A job that comes back `open`
    /// is asked again with [`ManagerConfig::growth`] times its budget
    /// while that stays within this (the worker's transposition table
    /// still holds the first attempt's work, so the second continues it);
    /// past it, or while other workers are idle, its position is expanded
    /// too. Equal to `job_nodes`: every `open` expands.
    pub max_job_nodes: u64,
    /// How much a budget grows from one attempt to the next (at least 2).
    pub growth: u64,
    /// How many workers the jobs go to.
    pub workers: usize,
    /// Establish the value of every first move, not only the root's.
    pub all_moves: bool,
}

/// Counters for reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    /// Jobs finished (logged) in this run.
    pub jobs: u64,
    /// Their nodes.
    pub nodes: u64,
    /// Jobs cancelled in this run.
    pub cancelled: u64,
    /// Answers this run took from its jobs' workers ([`Manager::finish`]'s
    /// known answers), each settling a pair without a job.
    pub known: u64,
    /// Jobs in the log before this run (`known` lines and splits' lines
    /// not counted).
    pub logged_jobs: u64,
    /// `known` lines in the log before this run.
    pub logged_known: u64,
    /// Their nodes.
    pub logged_nodes: u64,
    /// Answers that contradicted what was known (never expected: a sign of
    /// a wrong log line or a solver bug).
    pub contradictions: u64,
}

/// Two answers to one question about one position that disagree (a log
/// line or a worker is wrong): the first is kept.
#[derive(Clone, Debug, PartialEq)]
pub struct Contradiction {
    /// The position (canonical).
    pub pos: Position,
    /// The question.
    pub question: Question,
    /// The answer kept.
    pub first: bool,
    /// The answer that disagrees with it.
    pub second: bool,
}

/// The proof manager of one root.
pub struct Manager {
    root: Position,
    root_id: NodeId,
    root_moves: Vec<(Move, NodeId)>,
    config: ManagerConfig,
    nodes: Vec<Node>,
    index: HashMap<u128, NodeId>,
    /// Answers of the log and of this run's jobs: answer, best move, and
    /// whether it was a `known` answer (not a job's own).
    known: HashMap<(u128, usize), (bool, Option<String>, bool)>,
    /// Answers this run's jobs' workers knew below their positions that
    /// no node has needed yet: answer and the job that knew it. A node made
    /// later takes them (and logs them as `known`).
    hints: HashMap<(u128, usize), (bool, u64)>,
    /// Lines to log that no job's result brings (`known` answers and
    /// splits), since the caller last collected them
    /// ([`Manager::take_records`]).
    records: Vec<JobRecord>,
    /// Contradictions met since the caller last collected them
    /// ([`Manager::take_contradictions`]).
    contradictions: Vec<Contradiction>,
    /// Pairs whose jobs came back `open` (logged, or this run's that
    /// expanded their node): the last such job and the most nodes one
    /// searched.
    opened: HashMap<(u128, usize), (u64, u64)>,
    /// Nodes whose logged `open` jobs are continued rather than expanded.
    continued: HashSet<u128>,
    /// Positions split in a logged run (an `open` line of no nodes):
    /// always expanded again, never continued, for the answers below them
    /// came from other jobs than their own.
    splits: HashSet<u128>,
    /// Nodes the jobs on each position cost (logged and this run's).
    spent: HashMap<u128, u64>,
    /// Positions a logged run expanded as its root (`--all-moves`): a
    /// later proof that meets one expands it too, so it meets that run's
    /// answers (a proof of the 8x8 pawn game's start uses the proof of
    /// 1.b4 that way).
    expanded_roots: HashSet<u128>,
    /// Running jobs: their pair and budget.
    in_flight: HashMap<u64, (NodeId, usize, u64)>,
    /// Warm starts of pairs whose jobs came back `open` (from proof-number
    /// workers, this run's or read from the proof directory): the pair's
    /// next job gets its own.
    warm: HashMap<(u128, usize), Warm>,
    /// Pairs whose `open` job is to be continued with a bigger budget,
    /// before any other job (the worker that ran it is the next idle one).
    continuations: Vec<(NodeId, usize)>,
    goals: Vec<NodeId>,
    next_id: u64,
    /// Pairs whose numbers may have changed.
    dirty: Vec<(NodeId, usize)>,
    epoch: u32,
    /// What the manager has done so far (jobs, expansions, contradictions).
    pub counts: Counts,
}

/// The value of a position or a move, from the mover's view.
#[derive(Clone, Debug)]
pub struct MoveValue {
    /// The move in standard notation.
    pub san: String,
    /// Its value from the mover's view, `None` while unknown.
    pub value: Option<Wdl>,
}

impl Manager {
    /// A manager of `root` that takes every answer of `log` as known. The
    /// root must not be a finished game.
    pub fn new(root: Position, config: ManagerConfig, log: &LogContents) -> Manager {
        let grown = Manager::build(root, config, log, Default::default());
        let continued = grown.continuable();
        if continued.is_empty() {
            return grown;
        }
        Manager::build(root, config, log, continued)
    }

    /// A manager of `root` from `log`, continuing the logged `open` jobs
    /// of the nodes `continued` (see [`Manager::continuable`]) and
    /// expanding those of every other node.
    fn build(
        root: Position,
        config: ManagerConfig,
        log: &LogContents,
        continued: HashSet<u128>,
    ) -> Manager {
        let mut known = HashMap::new();
        let mut opened: HashMap<(u128, usize), (u64, u64)> = HashMap::new();
        let mut counts = Counts::default();
        let mut spent: HashMap<u128, u64> = HashMap::new();
        let mut splits = HashSet::new();
        for j in &log.jobs {
            let k = (j.key(), qi(j.question));
            match j.kind {
                LineKind::Known => counts.logged_known += 1,
                LineKind::Split => {
                    splits.insert(k.0);
                }
                LineKind::Job => counts.logged_jobs += 1,
            }
            counts.logged_nodes += j.nodes;
            *spent.entry(k.0).or_default() += j.nodes;
            match j.answer.as_bool() {
                Some(b) => {
                    // A job's own answer (with its best move) is kept over
                    // a `known` line of the same pair.
                    let harvested = j.kind == LineKind::Known;
                    if !(harvested && known.contains_key(&k)) {
                        known.insert(k, (b, j.best.clone(), harvested));
                    }
                }
                None => {
                    let e = opened.entry(k).or_insert((j.id, j.nodes));
                    *e = (e.0.max(j.id), e.1.max(j.nodes));
                }
            }
        }
        let mut m = Manager {
            root,
            root_id: 0,
            root_moves: Vec::new(),
            config,
            nodes: Vec::new(),
            index: HashMap::new(),
            known,
            hints: HashMap::new(),
            records: Vec::new(),
            contradictions: Vec::new(),
            opened,
            continued,
            splits,
            spent,
            expanded_roots: log
                .roots
                .iter()
                .filter(|r| r.all_moves)
                .map(|r| position_key(&canonical(&r.pos)))
                .collect(),
            in_flight: HashMap::new(),
            warm: HashMap::new(),
            continuations: Vec::new(),
            goals: Vec::new(),
            next_id: log.max_id() + 1,
            dirty: Vec::new(),
            epoch: 0,
            counts,
        };
        m.root_id = m.node_of(&root, 0);
        m.root_moves = root
            .legal_moves()
            .iter()
            .map(|&mv| (mv, m.node_of(&root.play(mv), 0)))
            .collect();
        if config.all_moves {
            // The root's children are the root moves' positions.
            let children = m.root_moves.clone();
            for &(_, c) in &children {
                m.nodes[c as usize].parents.push(m.root_id);
            }
            m.nodes[m.root_id as usize].children = Some(children);
            m.dirty.extend([(m.root_id, 0), (m.root_id, 1)]);
            // The root's value first (ties in `select` go to the
            // earliest goal), then every first move's.
            m.goals = std::iter::once(m.root_id)
                .chain(m.root_moves.iter().map(|&(_, c)| c))
                .collect();
        } else {
            m.goals = vec![m.root_id];
        }
        // The tree the log grew: every node with a logged `open` job that
        // is not continued is expanded, so that a resumed proof meets its
        // logged answers again before it starts any new job, unless logged
        // answers give its value anyway (a job continued after its `open`
        // answered it).
        let mut k = 0;
        while k < m.nodes.len() {
            let node = &m.nodes[k];
            let settled = value_of(node.ans[0], node.ans[1]).is_some();
            if !node.terminal && !settled {
                if let Some(id) = m.logged_expansion(k as NodeId) {
                    m.expand(k as NodeId, id);
                }
            }
            k += 1;
        }
        m.refresh();
        m
    }

    /// The node of a position (any form: it is made canonical), made if new.
    fn node_of(&mut self, pos: &Position, dep: u64) -> NodeId {
        let terminal = if pos.winner_by_rule().is_some() {
            // The side to move has lost.
            Some([Some(false), Some(false)])
        } else if pos.count_moves() == 0 {
            Some([Some(false), Some(true)])
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
            ans: terminal.unwrap_or([None, None]),
            direct: [None, None],
            harvested: [false, false],
            best: [None, None],
            busy: [None, None],
            dep,
            budget: [0, 0],
            after: [0, 0],
            parents: Vec::new(),
            mark: [0, 0],
            pn: [1, 1],
            dn: [1, 1],
            free: [true, true],
        };
        if terminal.is_none() {
            for i in 0..2 {
                if let Some((b, best, harvested)) = self.known.get(&(key, i)) {
                    node.direct[i] = Some(*b);
                    node.best[i] = best.clone();
                    node.harvested[i] = *harvested;
                } else if let Some((b, from)) = self.hints.remove(&(key, i)) {
                    node.direct[i] = Some(b);
                    node.harvested[i] = true;
                    self.take_hint(c, key, i, b, from);
                }
            }
        }
        self.nodes.push(node);
        if terminal.is_none() {
            self.index.insert(key, id);
            for i in 0..2 {
                if let Some(b) = self.nodes[id as usize].direct[i] {
                    self.set_answer(id, i, b);
                }
            }
        }
        id
    }

    /// The logged job whose `open` (or root run) expands unexpanded node
    /// `n` before any job is asked about it, if one does: a logged `open`
    /// of a node not in [`Manager::continued`] (a split's line among them),
    /// or a logged `--all-moves` root (0). A pair of a continued node gets
    /// its next budget here.
    fn logged_expansion(&mut self, n: NodeId) -> Option<u64> {
        let node = &self.nodes[n as usize];
        if node.children.is_some() || node.terminal {
            return None;
        }
        let key = node.key;
        if self.expanded_roots.contains(&key) {
            return Some(0);
        }
        let opens: Vec<(usize, (u64, u64))> = self.logged_opens(key).collect();
        let &(_, (id, _)) = opens.first()?;
        if !self.continued.contains(&key) {
            return Some(id);
        }
        let growth = self.config.growth.max(2);
        for (i, (id, nodes)) in opens {
            let node = &mut self.nodes[n as usize];
            if node.budget[i] == 0 {
                // Not `clamp`: a config whose first budget passes its
                // largest must not panic here.
                node.budget[i] = nodes
                    .saturating_mul(growth)
                    .min(self.config.max_job_nodes)
                    .max(self.config.job_nodes);
                node.after[i] = id;
            }
        }
        None
    }

    /// The pairs of position `key` whose jobs came back `open` (see
    /// [`Manager::opened`]): question index, last such job, most nodes.
    fn logged_opens(&self, key: u128) -> impl Iterator<Item = (usize, (u64, u64))> + '_ {
        (0..2).filter_map(move |i| Some((i, *self.opened.get(&(key, i))?)))
    }

    /// The nodes of the tree the log grew whose logged `open` jobs are
    /// better continued than expanded again: every logged attempt of the
    /// node was below [`ManagerConfig::max_job_nodes`], no job below it
    /// was answered and it was not split (on a resumed run's cold table its
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
                let by_job = (0..2).any(|i| child.direct[i].is_some() && !child.harvested[i]);
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
            let attempts: Vec<u64> = self.logged_opens(node.key).map(|(_, (_, n))| n).collect();
            if !attempts.is_empty()
                && attempts.iter().all(|&a| a < self.config.max_job_nodes)
                && !self.splits.contains(&node.key)
                && !answered_below(self, n as NodeId, &mut memo)
            {
                keys.insert(node.key);
            }
        }
        keys
    }

    /// Settles pair (n, i) as `b`, with its implications.
    fn set_answer(&mut self, n: NodeId, i: usize, b: bool) {
        let node = &mut self.nodes[n as usize];
        match node.ans[i] {
            Some(old) if old != b => {
                self.counts.contradictions += 1;
                self.contradictions.push(Contradiction {
                    pos: node.pos,
                    question: question(i),
                    first: old,
                    second: b,
                });
                return;
            }
            Some(_) => return,
            None => {}
        }
        node.ans[i] = Some(b);
        self.dirty.push((n, i));
        // W yes implies A yes; A no implies W no.
        if i == 0 && b {
            self.set_answer(n, 1, true);
        }
        if i == 1 && !b {
            self.set_answer(n, 0, false);
        }
    }

    /// Expands node `n` one ply (nothing if it already is).
    fn expand(&mut self, n: NodeId, dep: u64) {
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
        self.dirty.extend([(n, 0), (n, 1)]);
    }

    /// Proof number, disproof number and whether a free leaf lies below,
    /// of pair (n, i), as last computed.
    fn numbers(&self, n: NodeId, i: usize) -> (u64, u64, bool) {
        let node = &self.nodes[n as usize];
        match node.ans[i] {
            Some(true) => (0, INF, false),
            Some(false) => (INF, 0, false),
            None => (node.pn[i], node.dn[i], node.free[i]),
        }
    }

    /// Recomputes pair (n, i) from its children's numbers (settling it if
    /// they do); if anything changed, its parents' pairs are next.
    fn update(&mut self, n: NodeId, i: usize) {
        let node = &self.nodes[n as usize];
        let new = if node.ans[i].is_some() {
            self.numbers(n, i)
        } else {
            match &node.children {
                None if node.busy[i].is_some() => (BUSY, BUSY, false),
                None => (1, 1, true),
                Some(children) => {
                    let (mut pn, mut dn, mut free) = (INF, 0u64, false);
                    let (mut any_no, mut all_yes) = (false, true);
                    for &(_, c) in children {
                        let (cp, cd, cf) = self.numbers(c, 1 - i);
                        match self.nodes[c as usize].ans[1 - i] {
                            Some(false) => any_no = true,
                            Some(true) => {}
                            None => all_yes = false,
                        }
                        pn = pn.min(cd);
                        dn = dn.saturating_add(cp).min(INF - 1);
                        free |= cf;
                    }
                    if any_no || all_yes {
                        // Pushes (n, i) again, to be stored as settled.
                        self.set_answer(n, i, any_no);
                        return;
                    }
                    (pn, dn, free)
                }
            }
        };
        let node = &mut self.nodes[n as usize];
        if (node.pn[i], node.dn[i], node.free[i]) == new {
            return;
        }
        (node.pn[i], node.dn[i], node.free[i]) = new;
        for k in 0..self.nodes[n as usize].parents.len() {
            let p = self.nodes[n as usize].parents[k];
            self.dirty.push((p, 1 - i));
        }
    }

    /// The pairs of goal `g` still needed for its value.
    fn needed(&self, g: NodeId) -> Vec<usize> {
        let a = self.nodes[g as usize].ans;
        match (a[0], a[1]) {
            (Some(true), _) | (_, Some(false)) | (Some(false), Some(true)) => vec![],
            (Some(false), None) => vec![1],
            (_, Some(true)) => vec![0],
            _ => vec![0, 1],
        }
    }

    /// Brings every number up to date (and settles what follows).
    pub fn refresh(&mut self) {
        while let Some((n, i)) = self.dirty.pop() {
            self.update(n, i);
        }
    }

    /// Marks every open pair some goal still needs (reached from the goals
    /// through open pairs).
    fn mark_needed(&mut self) {
        self.epoch += 1;
        let mut stack: Vec<(NodeId, usize)> = Vec::new();
        for &g in &self.goals {
            for i in self.needed(g) {
                stack.push((g, i));
            }
        }
        while let Some((n, i)) = stack.pop() {
            let node = &mut self.nodes[n as usize];
            if node.ans[i].is_some() || node.mark[i] == self.epoch {
                continue;
            }
            node.mark[i] = self.epoch;
            if let Some(children) = &self.nodes[n as usize].children {
                stack.extend(children.iter().map(|&(_, c)| (c, 1 - i)));
            }
        }
    }

    /// Whether every goal has its value.
    pub fn done(&self) -> bool {
        self.goals.iter().all(|&g| self.needed(g).is_empty()) && self.value().is_some()
    }

    /// Jobs in flight whose pair no goal needs any more.
    pub fn unneeded_jobs(&mut self) -> Vec<u64> {
        if self.in_flight.is_empty() {
            return Vec::new();
        }
        self.mark_needed();
        self.in_flight
            .iter()
            .filter(|(_, &(n, i, _))| {
                let node = &self.nodes[n as usize];
                node.ans[i].is_some() || node.mark[i] != self.epoch
            })
            .map(|(&id, _)| id)
            .collect()
    }

    /// How many jobs are running.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// The most-proving free leaf pair, if any.
    fn select(&self) -> Option<(NodeId, usize)> {
        let mut best: Option<(u64, NodeId, usize)> = None;
        for &g in &self.goals {
            for i in self.needed(g) {
                let node = &self.nodes[g as usize];
                if node.ans[i].is_none() && node.free[i] {
                    let cost = node.pn[i].min(node.dn[i]);
                    if best.is_none_or(|(c, _, _)| cost < c) {
                        best = Some((cost, g, i));
                    }
                }
            }
        }
        let (_, mut n, mut i) = best?;
        loop {
            let node = &self.nodes[n as usize];
            let Some(children) = &node.children else {
                return Some((n, i));
            };
            let mut pick: Option<(u64, u64, NodeId)> = None;
            for &(_, c) in children {
                let cn = &self.nodes[c as usize];
                if cn.ans[1 - i].is_none() && cn.free[1 - i] {
                    let score = (cn.dn[1 - i], cn.pn[1 - i]);
                    if pick.is_none_or(|(d, p, _)| score < (d, p)) {
                        pick = Some((score.0, score.1, c));
                    }
                }
            }
            let (_, _, c) = pick?;
            n = c;
            i = 1 - i;
        }
    }

    /// The next job to run, if a free leaf is left or a running job can be
    /// split (see the module's documentation): leaves whose job is logged as
    /// `open` are expanded on the way, without a job.
    pub fn next_job(&mut self) -> Option<Job> {
        self.next_job_or_split(true)
    }

    /// [`Manager::next_job`]; with `split` false, no running job is split
    /// when no free leaf is left (counting leaves must not grow the tree).
    fn next_job_or_split(&mut self, split: bool) -> Option<Job> {
        if !self.continuations.is_empty() {
            self.mark_needed();
        }
        while let Some((n, i)) = self.continuations.pop() {
            let node = &self.nodes[n as usize];
            if node.ans[i].is_none() && node.busy[i].is_none() && node.mark[i] == self.epoch {
                return Some(self.start_job(n, i));
            }
        }
        loop {
            let Some((n, i)) = self.select() else {
                // No free leaf: rather than leave a worker idle, split a
                // running job's position (its children become leaves).
                if split && self.split_running() {
                    continue;
                }
                return None;
            };
            if let Some(id) = self.logged_expansion(n) {
                self.expand(n, id);
                self.refresh();
                continue;
            }
            return Some(self.start_job(n, i));
        }
    }

    /// Expands the position of the running job with the largest budget
    /// (the oldest of equals) whose pair a goal still needs and whose
    /// position is a leaf, so that an idle worker gets one of its
    /// children; the job runs on, and whichever settles its pair first
    /// makes the other unneeded (cancelled). The split is logged at once
    /// as an `open` line of no nodes on the job's pair, a number of its own
    /// that the children's jobs name as their `dep`: a resumed run (even
    /// after a kill, whatever became of the running job) expands the
    /// position again and meets their answers, and a merge keeps their
    /// `dep` (it points to an earlier line). False if no running job's
    /// position is a leaf.
    fn split_running(&mut self) -> bool {
        self.mark_needed();
        let pick = self
            .in_flight
            .iter()
            .filter(|(_, &(n, i, _))| {
                let node = &self.nodes[n as usize];
                node.children.is_none()
                    && !node.terminal
                    && node.ans[i].is_none()
                    && node.mark[i] == self.epoch
            })
            .max_by_key(|(&id, &(_, _, budget))| (budget, std::cmp::Reverse(id)))
            .map(|(_, &(n, i, _))| (n, i));
        let Some((n, i)) = pick else {
            return false;
        };
        let id = self.next_id;
        self.next_id += 1;
        let dep = self.dep_of(n, i);
        let node = &self.nodes[n as usize];
        self.records.push(JobRecord {
            pos: node.pos,
            question: question(i),
            answer: Answer::Open,
            nodes: 0,
            seconds: 0.0,
            best: None,
            id,
            dep,
            kind: LineKind::Split,
        });
        self.expand(n, id);
        self.refresh();
        true
    }

    /// What a line about pair (n, i) depends on: the pair's last `open`
    /// job that it continues, else the job that put the node into the tree.
    fn dep_of(&self, n: NodeId, i: usize) -> u64 {
        match self.nodes[n as usize].after[i] {
            0 => self.nodes[n as usize].dep,
            after => after,
        }
    }

    /// Marks pair (n, i) busy with a new job and returns the job.
    fn start_job(&mut self, n: NodeId, i: usize) -> Job {
        let id = self.next_id;
        self.next_id += 1;
        let node = &mut self.nodes[n as usize];
        let budget = if node.budget[i] > 0 {
            node.budget[i]
        } else {
            self.config.job_nodes
        };
        node.busy[i] = Some(id);
        let warm = self.warm.get(&(node.key, i)).cloned();
        self.in_flight.insert(id, (n, i, budget));
        self.dirty.push((n, i));
        self.refresh();
        Job {
            id,
            pos: self.nodes[n as usize].pos,
            question: question(i),
            budget,
            warm,
        }
    }

    /// Takes a finished job's result; returns the line to log (none for a
    /// cancelled job).
    pub fn finish(&mut self, r: &JobResult) -> Option<JobRecord> {
        let (n, i, budget) = self.in_flight.remove(&r.id)?;
        self.nodes[n as usize].busy[i] = None;
        self.dirty.push((n, i));
        if matches!(r.end, JobEnd::Cancelled) {
            self.counts.cancelled += 1;
            self.refresh();
            return None;
        }
        self.counts.jobs += 1;
        self.counts.nodes += r.nodes;
        let key = self.nodes[n as usize].key;
        *self.spent.entry(key).or_default() += r.nodes;
        let dep = self.dep_of(n, i);
        if let Some(w) = r.end.warm() {
            self.warm.insert((key, i), w.into());
        }
        self.absorb_known(r, n);
        let best = r.end.best().map(str::to_string);
        match r.answer().as_bool() {
            Some(b) => {
                self.warm.remove(&(key, i));
                self.known.insert((key, i), (b, best.clone(), false));
                self.nodes[n as usize].direct[i] = Some(b);
                self.nodes[n as usize].best[i] = best.clone();
                self.set_answer(n, i, b);
            }
            // Stopped because the run ends: logged for the next run, whose
            // resume rule continues it.
            None if matches!(r.end, JobEnd::Interrupted { .. }) => {}
            None => {
                // Continue on the same worker with a bigger budget; if other
                // workers are idle (no leaf was left for them), expand as
                // well so that they can work on the children: whichever
                // settles the pair first makes the other unneeded.
                let grown = budget.saturating_mul(self.config.growth.max(2));
                let others_idle = self.config.workers > self.in_flight.len() + 1;
                let continues = grown <= self.config.max_job_nodes;
                if continues {
                    let node = &mut self.nodes[n as usize];
                    node.budget[i] = grown;
                    node.after[i] = r.id;
                    self.continuations.push((n, i));
                }
                if !continues || others_idle {
                    self.opened.insert((key, i), (r.id, r.nodes));
                    self.expand(n, r.id);
                }
            }
        }
        self.refresh();
        let node = &self.nodes[n as usize];
        Some(JobRecord {
            pos: node.pos,
            question: question(i),
            answer: r.answer(),
            nodes: r.nodes,
            seconds: r.seconds,
            best,
            id: r.id,
            dep,
            kind: LineKind::Job,
        })
    }

    /// Takes the answers job `r` (on node `n`) knew below its position: those
    /// of pairs of the tree settle them now (unless a job is on the pair), the rest wait as hints for
    /// the nodes they may become (an expansion right after this). A job
    /// stopped by the end of the run hands its hints for the positions one
    /// ply below it to the log at once: the next run may expand its
    /// position, and its table will be gone.
    fn absorb_known(&mut self, r: &JobResult, n: NodeId) {
        for (pos, q, b) in &r.known {
            let c = canonical(pos);
            let key = position_key(&c);
            let i = qi(*q);
            if self.known.contains_key(&(key, i)) {
                continue;
            }
            match self.index.get(&key) {
                // A pair a job is on is left to that job, which answers
                // it (and logs the answer once).
                Some(&m)
                    if self.nodes[m as usize].ans[i].is_none()
                        && self.nodes[m as usize].busy[i].is_none() =>
                {
                    self.nodes[m as usize].direct[i] = Some(*b);
                    self.nodes[m as usize].harvested[i] = true;
                    self.take_hint(c, key, i, *b, r.id);
                    self.set_answer(m, i, *b);
                }
                Some(_) => {}
                None if self.hints.len() < MAX_HINTS => {
                    self.hints.entry((key, i)).or_insert((*b, r.id));
                }
                None => {}
            }
        }
        if matches!(r.end, JobEnd::Interrupted { .. }) {
            let pos = self.nodes[n as usize].pos;
            for &mv in pos.legal_moves().iter() {
                let c = canonical(&pos.play(mv));
                let key = position_key(&c);
                for i in 0..2 {
                    if let Some((b, from)) = self.hints.remove(&(key, i)) {
                        self.take_hint(c, key, i, b, from);
                    }
                }
            }
        }
    }

    /// Records hint (`key`, `i`) = `b` of job `from` as known, to be logged.
    fn take_hint(&mut self, pos: Position, key: u128, i: usize, b: bool, from: u64) {
        self.known.insert((key, i), (b, None, true));
        self.counts.known += 1;
        let id = self.next_id;
        self.next_id += 1;
        self.records.push(JobRecord {
            pos,
            question: question(i),
            answer: Answer::of_bool(b),
            nodes: 0,
            seconds: 0.0,
            best: None,
            id,
            dep: from,
            kind: LineKind::Known,
        });
    }

    /// The contradictions met since the last call (or since the log was
    /// replayed), for the caller to report.
    pub fn take_contradictions(&mut self) -> Vec<Contradiction> {
        std::mem::take(&mut self.contradictions)
    }

    /// The lines to log that no job's result brought: the `known` answers
    /// taken since the last call (to be logged after the record of the job
    /// that knew them) and the splits' `open` lines.
    pub fn take_records(&mut self) -> Vec<JobRecord> {
        std::mem::take(&mut self.records)
    }

    /// Takes the warm starts a proof directory holds (see
    /// [`crate::prove::warm`]): each pair's next job loads its own.
    pub fn add_warm(&mut self, warm: HashMap<(u128, usize), Warm>) {
        self.warm.extend(warm);
    }

    /// Whether pair (`key`, question index `i`) will never need its warm
    /// start again: the proof is complete, the pair answered, or its
    /// position expanded after attempts that reached the largest budget
    /// (the resume rule does not continue it).
    pub fn warm_obsolete(&self, key: u128, i: usize) -> bool {
        // A complete proof asks nothing more.
        if self.done() || self.known.contains_key(&(key, i)) {
            return true;
        }
        let Some(&n) = self.index.get(&key) else {
            return false;
        };
        let node = &self.nodes[n as usize];
        let largest = self.opened.get(&(key, i)).map_or(0, |o| o.1);
        node.ans[i].is_some()
            || (node.children.is_some()
                && node.busy[i].is_none()
                && largest >= self.config.max_job_nodes
                && !self.continuations.contains(&(n, i)))
    }

    /// The root's value from the mover's view, once known.
    pub fn value(&self) -> Option<Wdl> {
        let a = self.nodes[self.root_id as usize].ans;
        value_of(a[0], a[1])
    }

    /// Every first move with its value from the mover's view (known ones).
    pub fn move_values(&self) -> Vec<MoveValue> {
        self.root_moves
            .iter()
            .map(|&(m, c)| {
                let a = self.nodes[c as usize].ans;
                MoveValue {
                    san: m.san(),
                    value: value_of(a[0], a[1]).map(negate),
                }
            })
            .collect()
    }

    /// The nodes spent by jobs on the root itself, and for each first move
    /// (in [`Manager::move_values`]' order) by jobs on its position and on
    /// every position the tree holds below it (a transposition counts
    /// under every first move that reaches it): where a proof's work went.
    pub fn nodes_below(&self) -> (u64, Vec<u64>) {
        let spent = |n: NodeId| {
            self.spent
                .get(&self.nodes[n as usize].key)
                .copied()
                .unwrap_or(0)
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

    /// Whether the proof is complete: the root's value, and with
    /// `all_moves` every first move's.
    pub fn complete(&self) -> bool {
        self.done()
    }

    /// The position being proved.
    pub fn root(&self) -> &Position {
        &self.root
    }

    /// What a running job asks, for people: a line of real moves from the
    /// root to its position (the shortest through the DAG, as `1. b4 a5`)
    /// and the question put to the side to move there, as in `1. b4: does
    /// black avoid losing?` or `the root: does white win?`. `None` if the
    /// job is not running.
    pub fn job_text(&self, id: u64) -> Option<String> {
        let &(target, i, _) = self.in_flight.get(&id)?;
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
        let asked = match question(i) {
            Question::Wins => "win",
            Question::AvoidsLoss => "avoid losing",
        };
        let place = if line.is_empty() {
            "the root".to_string()
        } else {
            crate::explore::pgn::numbered_moves(&self.root, &line)
        };
        Some(format!("{place}: does {} {asked}?", pos.turn()))
    }

    /// Nodes in the DAG.
    pub fn size(&self) -> usize {
        self.nodes.len()
    }

    /// Marks every free leaf pair a goal still needs as busy (as if a job
    /// ran on each) and returns how many there were: the open jobs of a
    /// proof read from its log. Logged `open` answers are expanded first.
    pub fn open_leaves(&mut self) -> usize {
        let mut n = 0;
        while self.next_job_or_split(false).is_some() {
            n += 1;
        }
        n
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
    fn answers_of(&self, pos: &Position) -> [Option<bool>; 2] {
        if pos.winner_by_rule().is_some() {
            [Some(false), Some(false)]
        } else if pos.count_moves() == 0 {
            [Some(false), Some(true)]
        } else {
            self.lookup(pos)
                .map_or([None, None], |n| self.nodes[n as usize].ans)
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
        let Some(v) = value_of(node.ans[0], node.ans[1]) else {
            let bound = match node.ans {
                [_, Some(true)] => "at least a draw",
                [Some(false), _] => "at most a draw",
                _ => "open",
            };
            out.push_str(&format!("{pad}{pos} {bound}\n"));
            return;
        };
        if node.direct.iter().any(Option::is_some) && node.children.is_none() {
            let best = node.best.iter().flatten().next();
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
            let mv = value_of(answers[0], answers[1]).map(negate);
            let show = match v {
                Wdl::Win => mv == Some(Wdl::Win),
                Wdl::Draw => mv == Some(Wdl::Draw) || answers[1] == Some(true),
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
            for i in 0..2 {
                let Some(d) = node.direct[i] else { continue };
                let cs: Vec<Option<bool>> = children
                    .iter()
                    .map(|&(_, c)| self.nodes[c as usize].ans[1 - i])
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
                        crate::prove::log::question_text(question(i)),
                        Answer::of_bool(d).text(),
                        Answer::of_bool(!d).text()
                    ));
                }
            }
        }
        out
    }
}

/// The move of `pos` whose child has the canonical key `key` (how a real
/// position follows a move of the DAG, which stores canonical forms).
fn move_to(pos: &Position, key: u128) -> Option<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .find(|&m| position_key(&canonical(&pos.play(m))) == key)
}

/// A value seen from the other side.
pub fn negate(v: Wdl) -> Wdl {
    match v {
        Wdl::Win => Wdl::Loss,
        Wdl::Draw => Wdl::Draw,
        Wdl::Loss => Wdl::Win,
    }
}

/// A move's value from the mover's view given the answers of the position
/// it leads to: `win`, `draw`, `loss`, a bound (`at most a draw`: the
/// opponent avoids losing there; `at least a draw`: the opponent does not
/// win) or `open`.
fn move_text(answers: [Option<bool>; 2]) -> String {
    match (value_of(answers[0], answers[1]), answers) {
        (Some(v), _) => negate(v).to_string(),
        (None, [_, Some(true)]) => "at most a draw".into(),
        (None, [Some(false), _]) => "at least a draw".into(),
        _ => "open".into(),
    }
}

/// `win`, `draw`, `loss` or `open`.
pub fn wdl_text(v: Option<Wdl>) -> String {
    v.map_or("open".to_string(), |v| v.to_string())
}
