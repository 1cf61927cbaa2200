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
//! the search would try first is asked first). With
//! [`ManagerConfig::keep_child`] (the default) a child with work below it
//! comes first, the most work first: the nodes of the jobs on its subtree's
//! pairs, and what the job that expanded its parent spent below it (read
//! from that job's warm start). So the proof keeps to a move it has spent on
//! until the move is settled, as the proof-number search keeps its best
//! child, instead of turning to a sibling whose numbers look better only
//! because nothing below it is known yet. Its job asks its question
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
//! attempt was below [`ManagerConfig::max_job_nodes`], no job below its
//! node was answered and the answers below it (`known` ones) settle none of
//! its questions: the pair's next job gets [`ManagerConfig::growth`] times
//! that attempt (a resumed run's transposition table is cold, so this
//! redoes the attempt's work, a 1/growth share of the new budget, where
//! expanding would restart the breadth below it). Otherwise (the attempt
//! had the largest budget, or the log holds answers below it) its node is
//! expanded, and the resumed proof meets the logged answers again before it
//! starts any new job.
//!
//! The manager's code is split by concern: `tree` holds the nodes and
//! their numbers (answers, proof and disproof numbers, expansion), the
//! scheduler (`scheduler`) the jobs in flight (choosing, continuing,
//! splitting and cancelling them, taking their results), `replay` the
//! tree grown again from a proof log, and `report` what the manager shows
//! people (the proven tree, a job's line, disagreements).

mod replay;
mod report;
mod scheduler;
mod tree;

use crate::prove::log::JobRecord;
use crate::prove::pair::Pair;
use crate::prove::warm::Warm;
use crate::rules::{Move, Position, Wdl};
use crate::solve::{Question, TableUse};
use std::collections::{HashMap, HashSet};
use tree::{Node, NodeId};

pub use report::wdl_text;
pub use tree::value_of;

/// Proof and disproof numbers of a settled pair.
pub const INF: u64 = u64::MAX / 4;
/// What a leaf pair being answered by a job counts for.
pub const BUSY: u64 = 1 << 24;
/// The most known answers of jobs' workers the manager keeps pending for
/// positions that are not nodes yet (about 50 bytes each: 200 MB). Past
/// it, new ones are dropped: they only spare jobs, and a long run on many
/// ranks (hundreds of answers a job) must not grow the manager without
/// end.
pub const MAX_PENDING_KNOWN: usize = 1 << 22;

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
    /// Keep to the child with the most work below it on the way down to
    /// the next job's leaf: a move the proof has spent on is settled
    /// before its siblings are tried, as the proof-number search keeps its
    /// best child. Off: the most-proving leaf by the numbers alone.
    pub keep_child: bool,
}

/// Counters for reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    /// Jobs finished (logged) in this run.
    pub jobs: u64,
    /// Their nodes.
    pub nodes: u64,
    /// Seconds the jobs finished in this run took, each on its worker
    /// (with `jobs`, how fast the workers searched).
    pub job_seconds: f64,
    /// Jobs cancelled in this run.
    pub cancelled: u64,
    /// Nodes the cancelled jobs had searched (work a sibling's proof or
    /// the proof's end made unneeded).
    pub cancelled_nodes: u64,
    /// Seconds the cancelled jobs took.
    pub cancelled_seconds: f64,
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
    /// What this run's jobs, cancelled ones too, did to their workers'
    /// transposition tables.
    pub table: TableUse,
}

/// The value of a position or a move, from the mover's view.
#[derive(Clone, Debug)]
pub struct MoveValue {
    /// The move in standard notation.
    pub san: String,
    /// Its value from the mover's view, `None` while unknown.
    pub value: Option<Wdl>,
}

/// An answer given by a job or the log, not derived from children.
#[derive(Clone, Debug)]
struct DirectAnswer {
    /// Yes or no.
    answer: bool,
    /// The job's best move (canonical position, standard notation).
    best: Option<String>,
    /// A known answer (a `known` line): a job's worker knew it below its
    /// own position, no job asked for it.
    known: bool,
}

/// A pending known answer: one a job's worker knew below its position,
/// for a pair that is no node's yet (not logged until a node takes it).
#[derive(Clone, Copy, Debug)]
struct PendingKnown {
    answer: bool,
    /// The job whose worker knew it.
    from: u64,
}

/// The `open` jobs of one pair.
#[derive(Clone, Copy, Debug)]
struct Opened {
    /// The last such job.
    last: u64,
    /// The most nodes one of them searched.
    most_nodes: u64,
}

/// A running job.
#[derive(Clone, Copy, Debug)]
struct Running {
    node: NodeId,
    question: Question,
    budget: u64,
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
    config: ManagerConfig,

    // The tree (see `tree`).
    root_id: NodeId,
    root_moves: Vec<(Move, NodeId)>,
    nodes: Vec<Node>,
    index: HashMap<u128, NodeId>,
    /// The nodes whose values the proof establishes, the root first.
    goals: Vec<NodeId>,
    /// Pairs whose numbers may have changed.
    dirty: Vec<(NodeId, Question)>,
    /// The last [`Manager::mark_needed`]'s number.
    epoch: u32,

    // What the log and this run's jobs said (see `replay`).
    /// Answers of the log and of this run's jobs (their own and known
    /// answers alike).
    answers: HashMap<Pair, DirectAnswer>,
    /// Pairs whose jobs came back `open` (logged, or this run's that
    /// expanded their node).
    opened: HashMap<Pair, Opened>,
    /// Nodes whose logged `open` jobs are continued rather than expanded.
    continued: HashSet<u128>,
    /// Positions split in a logged run (their `split` lines): always
    /// expanded again, never continued, for the answers below them came
    /// from other jobs than their own.
    splits: HashSet<u128>,
    /// Nodes the jobs on each pair cost (logged and this run's).
    spent: HashMap<Pair, u64>,
    /// Positions a logged run expanded as its root (`--all-moves`): a
    /// later proof that meets one expands it too, so it meets that run's
    /// answers (a proof of the 8x8 pawn game's start uses the proof of
    /// 1.b4 that way).
    expanded_roots: HashSet<u128>,

    // The jobs (see `scheduler`).
    /// Known answers this run's jobs' workers found below their positions
    /// that no node has needed yet. A node made later takes them (and logs
    /// them as `known`).
    pending_known: HashMap<Pair, PendingKnown>,
    /// Lines to log that no job's result brings (`known` answers and
    /// splits), since the caller last collected them
    /// ([`Manager::take_records`]).
    records: Vec<JobRecord>,
    /// Contradictions met since the caller last collected them
    /// ([`Manager::take_contradictions`]).
    contradictions: Vec<Contradiction>,
    /// Running jobs, by id.
    in_flight: HashMap<u64, Running>,
    /// Warm starts of pairs whose jobs came back `open` (from proof-number
    /// workers, this run's or read from the proof directory): the pair's
    /// next job gets its own.
    warm: HashMap<Pair, Warm>,
    /// Pairs whose `open` job is to be continued with a bigger budget,
    /// before any other job (the worker that ran it is the next idle one).
    continuations: Vec<(NodeId, Question)>,
    /// The number of the next job or line.
    next_id: u64,

    /// What the manager has done so far (jobs, expansions, contradictions).
    pub counts: Counts,
}

impl Manager {
    /// The root's value from the mover's view, once known.
    pub fn value(&self) -> Option<Wdl> {
        self.nodes[self.root_id as usize].value()
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

    /// Nodes in the DAG.
    pub fn size(&self) -> usize {
        self.nodes.len()
    }
}
