//! The scheduler: the jobs in flight. It chooses the next job (a
//! continuation first, then the most-proving free leaf), splits a running
//! job's position when no leaf is free, takes a finished job's result
//! (continuing or expanding an `open` one) with the answers its worker knew
//! below it, and names the jobs no goal needs any more.

use super::tree::NodeId;
use super::{
    Contradiction, DirectAnswer, Manager, Opened, PendingKnown, Running, MAX_PENDING_KNOWN,
};
use crate::prove::log::{Answer, JobRecord, LineKind};
use crate::prove::pair::{Pair, QUESTIONS};
use crate::prove::warm::Warm;
use crate::prove::worker::{Job, JobEnd, JobResult};
use crate::rules::{canonical, position_key, Position};
use crate::solve::Question;
use std::collections::HashMap;

impl Manager {
    /// Jobs in flight whose pair no goal needs any more.
    pub fn unneeded_jobs(&mut self) -> Vec<u64> {
        if self.in_flight.is_empty() {
            return Vec::new();
        }
        self.mark_needed();
        self.in_flight
            .iter()
            .filter(|(_, r)| !self.is_needed(r.node, r.question))
            .map(|(&id, _)| id)
            .collect()
    }

    /// How many jobs are running.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
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
        while let Some((n, q)) = self.continuations.pop() {
            if !self.is_needed(n, q) || self.nodes[n as usize].pairs[q].busy.is_some() {
                continue;
            }
            // An answer that came in while the job ran out (another job's,
            // or one its worker knew) may settle the pair one ply down.
            if self.settled_one_ply_down(n, q) {
                self.expand_logged(n, q);
                self.mark_needed();
                continue;
            }
            return Some(self.start_job(n, q));
        }
        loop {
            let Some((n, q)) = self.select() else {
                // No free leaf: rather than leave a worker idle, split a
                // running job's position (its children become leaves).
                if split && self.split_running() {
                    continue;
                }
                return None;
            };
            if let Some(id) = self.logged_expansion(n) {
                self.expand(n, id);
                for q in QUESTIONS {
                    self.seed_children(n, q);
                    self.hand_down_warm(n, q);
                }
                self.refresh();
                continue;
            }
            if self.settled_one_ply_down(n, q) {
                self.expand_logged(n, q);
                continue;
            }
            return Some(self.start_job(n, q));
        }
    }

    /// Whether the answers one ply below leaf n (the log's, a job's or one
    /// a job's worker knew, kept pending) settle pair (n, q): a move
    /// reaches a position where the other side fails its question (n's
    /// mover reaches its goal), or every move reaches one where the other
    /// side reaches its own (n's mover fails). The tree meets such a
    /// transposition only once it expands n; a job on (n, q) would search
    /// for what is known (after 1.a4 bxa4 2.bxa4 b5 in the 8x7 proof, a
    /// 1.6 G-node job, where 3.axb5 reaches the position of 2...b4 3.axb5
    /// en passant, answered a run before). Exact: the expansion that
    /// follows settles the pair from those children, as any expansion
    /// does. A move that ends the game is left to the job, which settles
    /// it at once.
    fn settled_one_ply_down(&self, n: NodeId, q: Question) -> bool {
        let node = &self.nodes[n as usize];
        if node.children.is_some() || node.terminal {
            return false;
        }
        let moves = node.pos.legal_moves();
        let mut every_child_succeeds = !moves.is_empty();
        for &m in moves.iter() {
            let child = node.pos.play(m);
            if child.winner_by_rule().is_some() || child.count_moves() == 0 {
                every_child_succeeds = false;
                continue;
            }
            let key = position_key(&canonical(&child));
            let pair = Pair::new(key, q.other());
            // A position the tree holds has its answer there, whether a
            // job gave it or the tree derived it (a win is no loss,
            // children settle their parent; every direct answer is set
            // there too); one it does not hold, in the answers kept for it.
            let answer = self
                .index
                .get(&key)
                .and_then(|&c| self.nodes[c as usize].pairs[q.other()].ans)
                .or_else(|| self.answers.get(&pair).map(|a| a.answer))
                .or_else(|| self.pending_known.get(&pair).map(|p| p.answer));
            match answer {
                Some(false) => return true,
                Some(true) => {}
                None => every_child_succeeds = false,
            }
        }
        every_child_succeeds
    }

    /// Expands leaf n without a job, logged as a split of pair (n, q) (an
    /// `open` line of no nodes) so that a replay of the log expands it
    /// too and meets the same answers below it.
    fn expand_logged(&mut self, n: NodeId, q: Question) {
        let id = self.next_id;
        self.next_id += 1;
        let dep = self.dep_of(n, q);
        self.records.push(super::replay::split_record(
            self.nodes[n as usize].pos,
            q,
            id,
            dep,
        ));
        self.expand(n, id);
        self.seed_children(n, q);
        self.hand_down_warm(n, q);
        self.refresh();
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
            .filter(|(_, r)| {
                let node = &self.nodes[r.node as usize];
                node.children.is_none() && !node.terminal && self.is_needed(r.node, r.question)
            })
            .max_by_key(|(&id, r)| (r.budget, std::cmp::Reverse(id)))
            .map(|(_, r)| (r.node, r.question));
        let Some((n, q)) = pick else {
            return false;
        };
        self.expand_logged(n, q);
        true
    }

    /// Gives the warm start of pair (n, q), if it has one, to the pairs of
    /// n's children that a job on it asks about (the other question, whose
    /// attacker is the same side) and have none of their own: a worker
    /// with a table of its own then starts a child's first job from the
    /// top of the search that ran out on n, much of which lies below that
    /// child, instead of from nothing. Its entries are keyed by position
    /// and attacker, so those of other children only take room; proven
    /// numbers among them are believed as the warm start's are.
    fn hand_down_warm(&mut self, n: NodeId, q: Question) {
        let Some(warm) = self.warm.get(&Pair::new(self.nodes[n as usize].key, q)) else {
            return;
        };
        let warm = warm.clone();
        for &(_, c) in self.nodes[n as usize].children.iter().flatten() {
            let child = Pair::new(self.nodes[c as usize].key, q.other());
            if !self.answers.contains_key(&child) {
                self.warm.entry(child).or_insert_with(|| warm.clone());
            }
        }
    }

    /// Gives the pairs of n's children that a job on (n, q) asks about the
    /// nodes that job's search spent below each (its warm start's entries
    /// for them, kept by work): the child it had committed to is the one
    /// the proof keeps to after the expansion (see [`Manager::select`]),
    /// rather than the first in the move order.
    fn seed_children(&mut self, n: NodeId, q: Question) {
        let Some(warm) = self.warm.get(&Pair::new(self.nodes[n as usize].key, q)) else {
            return;
        };
        // The children's side to move is the attacker of the job's
        // question on n if n's mover is not (the search's keys).
        let attacker = (q != Question::Wins) as u128;
        let children: HashMap<u128, NodeId> = self.nodes[n as usize]
            .children
            .iter()
            .flatten()
            .map(|&(_, c)| (self.nodes[c as usize].key | attacker, c))
            .collect();
        // The warm start is read in place (it may hold 2^18 entries); the
        // few children it names are seeded after.
        let seeds: Vec<(NodeId, u64)> = warm
            .iter()
            .filter_map(|e| children.get(&e.key).map(|&c| (c, u64::from(e.work))))
            .collect();
        for (c, w) in seeds {
            let p = &mut self.nodes[c as usize].pairs[q.other()];
            if w > p.seed {
                p.seed = w;
                self.dirty.push((c, q.other()));
            }
        }
    }

    /// What a line about pair (n, q) depends on: the pair's last `open`
    /// job that it continues, else the job that put the node into the tree.
    fn dep_of(&self, n: NodeId, q: Question) -> u64 {
        match self.nodes[n as usize].pairs[q].after {
            0 => self.nodes[n as usize].dep,
            after => after,
        }
    }

    /// Marks pair (n, q) busy with a new job and returns the job.
    fn start_job(&mut self, n: NodeId, q: Question) -> Job {
        let id = self.next_id;
        self.next_id += 1;
        let node = &mut self.nodes[n as usize];
        let p = &mut node.pairs[q];
        let budget = if p.budget > 0 {
            p.budget
        } else {
            self.config.job_nodes
        };
        p.busy = Some(id);
        let warm = self.warm.get(&Pair::new(node.key, q)).cloned();
        self.in_flight.insert(
            id,
            Running {
                node: n,
                question: q,
                budget,
            },
        );
        self.dirty.push((n, q));
        self.refresh();
        Job {
            id,
            pos: self.nodes[n as usize].pos,
            question: q,
            budget,
            warm,
            solved: Vec::new(),
        }
    }

    /// Takes a finished job's result; returns the line to log (none for a
    /// cancelled job).
    pub fn finish(&mut self, r: &JobResult) -> Option<JobRecord> {
        let Running {
            node: n,
            question: q,
            budget,
        } = self.in_flight.remove(&r.id)?;
        self.nodes[n as usize].pairs[q].busy = None;
        self.dirty.push((n, q));
        self.counts.table.add(r.table);
        if matches!(r.end, JobEnd::Cancelled) {
            self.counts.cancelled += 1;
            self.counts.cancelled_nodes += r.nodes;
            self.counts.cancelled_seconds += r.seconds;
            self.refresh();
            return None;
        }
        self.counts.jobs += 1;
        self.counts.nodes += r.nodes;
        self.counts.job_seconds += r.seconds;
        let key = self.nodes[n as usize].key;
        let pair = Pair::new(key, q);
        *self.spent.entry(pair).or_default() += r.nodes;
        let dep = self.dep_of(n, q);
        if let Some(w) = r.end.warm() {
            self.warm.insert(pair, w.into());
        }
        self.absorb_known(r, n);
        let best = r.end.best().map(str::to_string);
        match r.answer().as_bool() {
            Some(b) => {
                self.warm.remove(&pair);
                let answer = DirectAnswer {
                    answer: b,
                    best: best.clone(),
                    known: false,
                };
                self.answers.insert(pair, answer.clone());
                self.nodes[n as usize].pairs[q].direct = Some(answer);
                self.set_answer(n, q, b);
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
                    let p = &mut self.nodes[n as usize].pairs[q];
                    p.budget = grown;
                    p.after = r.id;
                    self.continuations.push((n, q));
                }
                if !continues || others_idle {
                    self.opened.insert(
                        pair,
                        Opened {
                            last: r.id,
                            most_nodes: r.nodes,
                        },
                    );
                    self.expand(n, r.id);
                    self.seed_children(n, q);
                    self.hand_down_warm(n, q);
                }
            }
        }
        self.refresh();
        let node = &self.nodes[n as usize];
        Some(JobRecord {
            pos: node.pos,
            question: q,
            answer: r.answer(),
            nodes: r.nodes,
            seconds: r.seconds,
            best,
            id: r.id,
            dep,
            kind: LineKind::Job,
        })
    }

    /// Takes the answers job `r` (on node `n`) knew below its position:
    /// those of pairs of the tree settle them now (unless a job is on the
    /// pair), the rest wait, pending, for the nodes they may become (an
    /// expansion right after this). A job stopped by the end of the run
    /// hands its pending known answers for the positions one ply below it
    /// to the log at once: the next run may expand its position, and its
    /// transposition table will be gone.
    fn absorb_known(&mut self, r: &JobResult, n: NodeId) {
        for (pos, q, b) in &r.known {
            let c = canonical(pos);
            let pair = Pair::of(&c, *q);
            if self.answers.contains_key(&pair) {
                continue;
            }
            let pending = PendingKnown {
                answer: *b,
                from: r.id,
            };
            match self.index.get(&pair.key) {
                // A pair a job is on is left to that job, which answers
                // it (and logs the answer once).
                Some(&m)
                    if self.nodes[m as usize].pairs[*q].ans.is_none()
                        && self.nodes[m as usize].pairs[*q].busy.is_none() =>
                {
                    self.nodes[m as usize].pairs[*q].direct = Some(DirectAnswer {
                        answer: *b,
                        best: None,
                        known: true,
                    });
                    self.take_known(c, pair, pending);
                    self.set_answer(m, *q, *b);
                }
                Some(_) => {}
                None if self.pending_known.len() < MAX_PENDING_KNOWN => {
                    self.pending_known.entry(pair).or_insert(pending);
                }
                None => {}
            }
        }
        if matches!(r.end, JobEnd::Interrupted { .. }) {
            let pos = self.nodes[n as usize].pos;
            for &mv in pos.legal_moves().iter() {
                let c = canonical(&pos.play(mv));
                let key = position_key(&c);
                for q in QUESTIONS {
                    let pair = Pair::new(key, q);
                    if let Some(pending) = self.pending_known.remove(&pair) {
                        self.take_known(c, pair, pending);
                    }
                }
            }
        }
    }

    /// Records the pending known answer `pending` about `pair` (of
    /// canonical position `pos`) as an answer, to be logged.
    pub(super) fn take_known(&mut self, pos: Position, pair: Pair, pending: PendingKnown) {
        self.answers.insert(
            pair,
            DirectAnswer {
                answer: pending.answer,
                best: None,
                known: true,
            },
        );
        self.counts.known += 1;
        let id = self.next_id;
        self.next_id += 1;
        self.records.push(JobRecord {
            pos,
            question: pair.question,
            answer: Answer::of_bool(pending.answer),
            nodes: 0,
            seconds: 0.0,
            best: None,
            id,
            dep: pending.from,
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
    /// [`crate::prove::WarmStore`]): each pair's next job loads its own.
    pub fn add_warm(&mut self, warm: HashMap<Pair, Warm>) {
        self.warm.extend(warm);
    }

    /// Whether `pair` will never need its warm start again: the proof is
    /// complete, the pair answered, or its position expanded after
    /// attempts that reached the largest budget (the resume rule does not
    /// continue it).
    pub fn warm_obsolete(&self, pair: Pair) -> bool {
        // A complete proof asks nothing more.
        if self.done() || self.answers.contains_key(&pair) {
            return true;
        }
        let Some(&n) = self.index.get(&pair.key) else {
            return false;
        };
        let node = &self.nodes[n as usize];
        let p = &node.pairs[pair.question];
        let largest = self.opened.get(&pair).map_or(0, |o| o.most_nodes);
        p.ans.is_some()
            || (node.children.is_some()
                && p.busy.is_none()
                && largest >= self.config.max_job_nodes
                && !self.continuations.contains(&(n, pair.question)))
    }

    /// The open pairs whose last job came back `open` and whose next job
    /// continues it (none has started yet): the ones a run that stops now
    /// leaves for the next to continue, each wanting a warm start.
    pub fn waiting_continuations(&self) -> Vec<Pair> {
        self.continuations
            .iter()
            .filter(|&&(n, q)| self.nodes[n as usize].pairs[q].ans.is_none())
            .map(|&(n, q)| Pair::new(self.nodes[n as usize].key, q))
            .collect()
    }
}
