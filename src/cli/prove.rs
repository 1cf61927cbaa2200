//! `peasant prove`: durable proofs farmed to workers (see
//! [`peasant::prove`]).
//!
//! - `peasant prove <POS> --dir DIR [--all-moves] [--workers N]
//!   [--job-nodes N] [--tables DIR] [--hash-mb M] [--json]`: prove (or
//!   resume proving) the value of POS, logging every job in DIR.
//! - `peasant prove --status DIR [--json] [--tree]`: what DIR's log proves.
//! - `peasant prove --check DIR [--samples N]`: re-check DIR's log.
//! - `peasant prove --merge A B ... --dir OUT`: merge logs of one game.
//! - `peasant prove --simulate DIR --workers 8,64,256,1024`: predicted
//!   speedups of DIR's jobs on that many workers.
//!
//! Exit status: 0 done (a proof complete, a check clean), 1 damaged data or
//! a check that found a disagreement, 2 bad input, 3 stopped by
//! `--max-jobs`, 130 stopped by Ctrl-C, SIGTERM or SIGHUP (the log keeps
//! every finished job).

use super::solve::{solve_error, MAX_THREADS};
use super::{print_json, CliError, GlobalArgs, MethodArg, EXIT_INTERRUPTED, EXIT_STOPPED};
use clap::{ArgGroup, Args};
use peasant::prove::{
    self, simulate, snapshot, CheckOptions, CheckReport, LogContents, Manager, ManagerConfig,
    RunEnd, RunOptions, ThreadWorkers, WorkerConfig, WorkerTt,
};
use peasant::solve::{Method, PnInit, SharedPnTt};
use peasant::{
    rules::{Position, Variant, Wdl},
    table::Tablebase,
};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The fewest nodes between two exchanges of `--share-every`: each one
/// sends a message (an MPI rank waits for rank 0's answer) and starts
/// the job's search again from its position.
const MIN_SHARE_EVERY: u64 = 1_000;

/// From how many proof-number workers on one transposition table their
/// jobs search as one team (`--pn-spread-jobs`) by default. On a lent
/// 16-core machine sixteen workers as a team proved 5x8 1.2 to 1.3 times
/// as fast as blind ones (41% fewer nodes) and eight 1.3 times as fast
/// as blind eight had on machines of that kind, four as fast as blind
/// four; on the 2-core machines two were 10 to 20% slower (the same
/// nodes, each costing more). docs/SCALING.md.
const SPREAD_JOBS_FROM: usize = 8;

/// `prove`'s flags. Exactly one mode is given (clap refuses any other
/// combination, exit status 2): a position to prove, `--status`, `--check`,
/// `--merge` or `--simulate`; with `--status` a position names which
/// position of the log to report.
#[derive(Args, Debug)]
#[command(group(
    ArgGroup::new("mode")
        .args(["pos", "status", "check", "merge", "simulate"])
        .required(true)
        .multiple(true)
))]
pub struct ProveArgs {
    /// A position text (FEN subset) or a setup name.
    #[arg(conflicts_with_all = ["check", "merge", "simulate"])]
    pub pos: Option<String>,
    /// The proof directory (its log is DIR/proof.log); with --merge, the
    /// directory to merge into.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Establish the value of every first move as well.
    #[arg(long)]
    pub all_moves: bool,
    /// Worker threads (default: all cores); under mpirun, the jobs each
    /// worker rank runs at once, on one table of N times --hash-mb (default
    /// 1); with --simulate, a list of worker counts (8,64,256,1024).
    #[arg(long, value_name = "N")]
    pub workers: Option<String>,
    /// Threads each worker puts on its job's question, sharing the
    /// worker's transposition table: `--workers R --threads T` runs R
    /// jobs at a time on R times T threads.
    #[arg(long, value_name = "T", default_value_t = 1)]
    pub threads: usize,
    /// Node budget of a position's first job.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub job_nodes: u64,
    /// The largest budget a job grows to before its position is expanded
    /// (default: 16 times --job-nodes; equal to --job-nodes: every job that
    /// runs out expands its position).
    #[arg(long, value_name = "N")]
    pub max_job_nodes: Option<u64>,
    /// How many times bigger each next attempt's budget is.
    #[arg(long, value_name = "K", default_value_t = 4, hide = true)]
    pub job_growth: u64,
    /// Choose each job by the proof and disproof numbers alone, not
    /// keeping to the moves the proof has spent on (to measure what
    /// keeping to them is worth).
    #[arg(long, hide = true)]
    pub no_keep_child: bool,
    /// Answer positions whose class has a table in DIR from the tables.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Transposition table of each worker in MiB (local workers share one
    /// transposition table of M times their number).
    #[arg(long, value_name = "M", default_value_t = 64)]
    pub hash_mb: usize,
    /// The search the workers run: ab (alpha-beta) or pn (proof-number
    /// search, the default: fewer nodes on every game measured;
    /// docs/PROVE.md).
    #[arg(long, value_name = "METHOD", value_enum)]
    pub method: Option<MethodArg>,
    /// With --method pn: the order in which each side tries its moves,
    /// as `solve --pn-init` (guided, the default, or tuned; values never
    /// depend on it).
    #[arg(
        long,
        value_name = "INIT",
        default_value = "guided",
        value_parser = super::solve::setting::<PnInit>
    )]
    pub pn_init: PnInit,
    /// Workers with tables of their own (MPI ranks, --emulate): a job goes
    /// to the latest idle worker, not back to the one whose job left its
    /// question open (to measure what going back is worth).
    #[arg(long, hide = true)]
    pub no_affinity: bool,
    /// Give each local worker its own transposition table instead of one
    /// shared transposition table (as MPI ranks have; for measurements).
    #[arg(long, hide = true)]
    pub separate_tables: bool,
    /// With --method pn: workers of one thread read the transposition table
    /// under each bucket's lock, as threads of one question do (to
    /// measure what reads without the lock are worth).
    #[arg(long, hide = true)]
    pub pn_locked_reads: bool,
    /// With --threads above 1 (or workers searching as one team): threads
    /// steer away from one another at every node, not only where a move
    /// has already failed for the side to move (to measure).
    #[arg(long, hide = true)]
    pub pn_spread_every: bool,
    /// With --method pn and workers sharing one transposition table: each
    /// job's search sees which nodes the other workers' searches are in
    /// and steers away from them, as threads on one question do. The
    /// default from SPREAD_JOBS_FROM workers; this flag asks for it with
    /// fewer (to measure).
    #[arg(long, hide = true, conflicts_with = "pn_no_spread_jobs")]
    pub pn_spread_jobs: bool,
    /// With --method pn: workers sharing one transposition table search
    /// each job on its own, blind to the nodes the others are in, also
    /// from SPREAD_JOBS_FROM workers (to measure what spreading them is
    /// worth).
    #[arg(long, hide = true)]
    pub pn_no_spread_jobs: bool,
    /// With --tables: MiB of decompressed table blocks kept in memory.
    #[arg(long, value_name = "M", default_value_t = 64)]
    pub cache_mb: usize,
    /// With --tables: MiB for the tables' win/draw/loss values held whole
    /// in memory, 2 bits a position, shared by every worker of the
    /// process, for the fastest probes (tables past it are read through
    /// the block cache; 0: none held).
    #[arg(long, value_name = "M", default_value_t = 1024)]
    pub wdl_memory_mb: usize,
    /// Print what the proof directory DIR proves.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["check", "merge", "simulate"])]
    pub status: Option<PathBuf>,
    /// With --status: print the proven top of the tree.
    #[arg(long)]
    pub tree: bool,
    /// With --tree: how many plies below the first moves to print.
    #[arg(long, value_name = "N", default_value_t = 6)]
    pub tree_depth: usize,
    /// Check the proof directory DIR: interior nodes against their
    /// children, and --samples logged answers solved again.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["merge", "simulate"])]
    pub check: Option<PathBuf>,
    /// With --check: how many logged answers to solve again.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub samples: usize,
    /// Merge the logs of these proof directories (or log files) into --dir.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with = "simulate")]
    pub merge: Vec<PathBuf>,
    /// Replay the jobs of DIR's log on --workers simulated workers.
    #[arg(long, value_name = "DIR")]
    pub simulate: Option<PathBuf>,
    /// Run the proof on N emulated workers, each with its own --hash-mb
    /// transposition table (or one for all, --emulate-shared), one job
    /// after another on a virtual clock counted in nodes, and report the
    /// speedup N real workers would get (no --tables).
    #[arg(long, value_name = "N")]
    pub emulate: Option<usize>,
    /// With --emulate and --method pn: the emulated workers share one
    /// transposition table of --hash-mb times N MiB, as the threads of
    /// `--workers N` do, instead of one each as MPI ranks have; their jobs
    /// take turns on it in steps of STEP nodes, in the order of the
    /// virtual clock.
    #[arg(long, value_name = "STEP")]
    pub emulate_shared: Option<u64>,
    /// With --emulate N and --emulate-shared: the workers fall into R
    /// ranks of N/R (R divides N), as the machines of a cluster: a rank's
    /// workers share one table of --hash-mb times N/R MiB, and the ranks
    /// have tables of their own and send one another solved entries
    /// (--share-solved, --share-every) as MPI ranks do.
    #[arg(long, value_name = "R")]
    pub emulate_ranks: Option<usize>,
    /// With --emulate: the coarser model whose ranks run at once on this
    /// machine's cores (--emulate-threads): the virtual clock moves in
    /// ticks of K nodes, and results, starts, cancels and the solved
    /// entries the ranks send one another all wait for a tick's end, so
    /// its makespan is longer than the default model's by up to a tick a
    /// job. Its figures do not depend on the threads.
    #[arg(long, value_name = "K")]
    pub emulate_tick: Option<u64>,
    /// With --emulate-tick: the threads the ranks of a tick run on (0:
    /// one a core).
    #[arg(long, value_name = "T", default_value_t = 0)]
    pub emulate_threads: usize,
    /// With --emulate and --threads above 1: the nodes of a thread's turn
    /// on its worker's job (the threads go on where they were from turn
    /// to turn, and start again from the job's position at each step; the
    /// shorter the turns, the nearer real threads, which search side by
    /// side node by node).
    #[arg(long, value_name = "N", default_value_t = prove::TURN)]
    pub emulate_turn_nodes: u64,
    /// With --emulate: the nodes one thread's `solve --value-only` of the
    /// same question took, with the same method (the baseline), so that
    /// the report gives the speedup and the work against it: the
    /// makespan and the work alone are counted against the emulated
    /// workers' own work, which may be several times one solve's.
    #[arg(long, value_name = "NODES")]
    pub baseline_nodes: Option<u64>,
    /// With --emulate: stop once the virtual clock has reached NODES
    /// (exit status 3), whatever machine runs the emulation. A proof not
    /// complete by then has a longer makespan, so its workers are at most
    /// --baseline-nodes over NODES as fast as one solve: stopping at one
    /// solve's nodes over K settles whether they are K times as fast.
    #[arg(long, value_name = "NODES")]
    pub emulate_until: Option<u64>,
    /// Stop after N jobs of this run (exit status 3).
    #[arg(long, value_name = "N")]
    pub max_jobs: Option<u64>,
    /// Stop after SECS seconds (exit status 3). The jobs in flight stop and
    /// are logged as open, with their warm starts (--method pn), for the
    /// next run to continue.
    #[arg(long, value_name = "SECS")]
    pub max_seconds: Option<u64>,
    /// After SECS seconds start no job: the jobs in flight run on to their
    /// answer or their budget, then the run stops (exit status 3). A job
    /// cut short by --max-seconds, or by the machine going away, is asked
    /// again from the start on a machine without its transposition table
    /// (the snapshot and the warm starts stay where they were made); one
    /// that ran to its budget is not. With --max-seconds, whichever comes
    /// first.
    #[arg(long, value_name = "SECS")]
    pub drain_after: Option<u64>,
    /// With --method pn: how many transposition-table entries (the ones
    /// with the most work below them) a job that runs out keeps in
    /// DIR/warm/ for the next job on its question, in this run or a later
    /// one (28 bytes each, compressed; 0: none). Workers sharing one
    /// table keep them only when the run stops: until then the table
    /// holds the search.
    #[arg(long, value_name = "N", default_value_t = 65_536)]
    pub warm_entries: usize,
    /// How many plies below its position a finished job reports what its
    /// worker's transposition table proved (both questions, each position
    /// once): those answers settle the positions without jobs when the
    /// position is expanded, and are logged as `known` lines when they do
    /// (0: none).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=4))]
    pub harvest_plies: u8,
    /// With --method pn and workers with transposition tables of their own
    /// (--emulate, MPI ranks, --separate-tables): how many solved entries
    /// (the ones with the most work below them) each job hands back for
    /// the other workers, which load the ones new to them before their
    /// next job (28 bytes each; 0: none).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub share_solved: usize,
    /// With --share-solved: a worker also sends out its solved entries and
    /// loads the ones the others sent every N nodes of a job, not only
    /// between jobs (its search then goes on from the top of its table;
    /// 0: between jobs only).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub share_every: u64,
    /// With --share-every: do not send out, with each exchange, the path
    /// a job's search is in, for the jobs of the ranks after its own to
    /// steer clear of (sent by default: ranks with tables of their own
    /// otherwise prove the same positions side by side; to measure what
    /// it gives).
    #[arg(long)]
    pub no_share_paths: bool,
    /// With --share-every: a job also sends its path alone, and steers by
    /// the paths of the ranks before its own anew, every N nodes between
    /// its exchanges of solved entries (N below --share-every; 0: with
    /// those exchanges only). A path is a few dozen keys: fresh paths
    /// for the price of small messages, where entries every N nodes would
    /// be many.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub share_paths_every: u64,
    /// Print a line on stderr when a job whose budget is at least N nodes
    /// starts (its line of moves from the root and its question) and when
    /// it ends (its answer, nodes and seconds), so that whoever runs a
    /// long proof can tell what each worker is busy with (not with -q).
    #[arg(long, value_name = "N", default_value_t = 100_000_000)]
    pub announce_nodes: u64,
    /// With --method pn: a transposition-table snapshot (not a table file
    /// of --tables): load the workers' shared transposition table from
    /// PATH before the run, if the file exists, and save it there when the
    /// run ends, so that jobs cut off by the end of a run go on where they
    /// stopped. The file is about as big as the transposition table
    /// (gigabytes): keep it on the machine that runs the proof, outside
    /// DIR, never committed
    #[arg(long, value_name = "PATH")]
    pub table_file: Option<PathBuf>,
    /// Sync the log to disk after every line (default: at most a second apart).
    #[arg(long, hide = true)]
    pub sync_each_line: bool,
    /// No progress lines on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Loads the transposition-table snapshot at `path` into `tt`: one line on
/// stderr (unless `quiet`); damage is reported and the good part kept; a
/// file that is not a snapshot of this game is refused (exit status 2: the
/// run would overwrite it).
fn load_snapshot(
    path: &std::path::Path,
    variant: Variant,
    tt: &SharedPnTt,
    quiet: bool,
) -> Result<(), CliError> {
    let start = Instant::now();
    if !quiet {
        eprintln!("prove: loading the table snapshot {}", path.display());
    }
    let loaded = snapshot::load(path, variant, tt)
        .map_err(|e| CliError::input(format!("--table-file {}: {e}", path.display())))?;
    if let Some(damage) = &loaded.damage {
        eprintln!(
            "peasant: {}: {damage}: the {} entries before it loaded, nothing after",
            path.display(),
            loaded.entries
        );
    }
    if !quiet {
        eprintln!(
            "prove: {} entries of {} loaded in {:.0} s",
            loaded.entries,
            path.display(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// Saves `tt` to `path` (see [`snapshot::save`]), with a line on
/// stderr (unless `quiet`); an I/O failure is an error (exit status 1)
/// once the run's summary is out (the log is whole either way).
fn save_snapshot(
    path: &std::path::Path,
    variant: Variant,
    tt: &SharedPnTt,
    quiet: bool,
) -> Result<(), CliError> {
    let start = Instant::now();
    if !quiet {
        eprintln!("prove: saving the table snapshot {}", path.display());
    }
    let n = snapshot::save(path, variant, tt).map_err(|e| {
        CliError::failure(format!("{}: table snapshot not saved: {e}", path.display()))
    })?;
    if !quiet {
        eprintln!(
            "prove: {n} entries saved to {} in {:.0} s",
            path.display(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

fn log_error(e: prove::LogError) -> CliError {
    if e.is_input() {
        CliError::input(e)
    } else {
        CliError::failure(e)
    }
}

fn wdl_json(v: Option<Wdl>) -> serde_json::Value {
    v.map_or(serde_json::Value::Null, |v| json!(v.to_string()))
}

/// The workers of a run: local threads, MPI ranks or emulated workers.
/// One is made a run, so its variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
enum Pool {
    Threads(ThreadWorkers),
    #[cfg(feature = "mpi")]
    Ranks(prove::mpi::MpiWorkers),
    Emulated(prove::EmulatedWorkers),
}

impl Pool {
    fn workers(&mut self) -> &mut dyn prove::Workers {
        match self {
            Pool::Threads(w) => w,
            #[cfg(feature = "mpi")]
            Pool::Ranks(w) => w,
            Pool::Emulated(e) => e,
        }
    }

    /// The proof-number table the local workers share, if they share one.
    fn shared_pn_tt(&self) -> Option<SharedPnTt> {
        match self {
            Pool::Threads(w) => match w.shared_tt() {
                Some(WorkerTt::ProofNumber(t)) => Some(t.clone()),
                _ => None,
            },
            _ => None,
        }
    }

    fn emulation(&self) -> Option<prove::Emulation> {
        match self {
            Pool::Emulated(e) => Some(e.emulation()),
            _ => None,
        }
    }
}

/// What MPI keeps while a run lasts (feature `mpi`, under mpirun or srun).
#[cfg(feature = "mpi")]
type Universe = Option<mpi::environment::Universe>;
#[cfg(not(feature = "mpi"))]
type Universe = Option<std::convert::Infallible>;

#[cfg(feature = "mpi")]
fn mpi_universe() -> Universe {
    if prove::mpi::launched() {
        prove::mpi::init()
    } else {
        None
    }
}

#[cfg(not(feature = "mpi"))]
fn mpi_universe() -> Universe {
    None
}

/// A flag that Ctrl-C sets (the run then stops and logs its jobs in
/// flight); a second Ctrl-C ends the process at once (exit status 130).
/// SIGTERM and SIGHUP do the same ([`super::signals`]; SIGHUP not under
/// `nohup`): a batch scheduler's time limit or a closed terminal stops a
/// long proof as Ctrl-C does, its jobs in flight logged as open with their
/// warm starts and the table snapshot saved.
fn interrupt_flag() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let _ = super::signals::on_stop_signal(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_INTERRUPTED);
        }
    });
    stop
}

/// On an MPI worker rank: the first Ctrl-C, SIGTERM or SIGHUP is left to
/// rank 0, which gets it too (Slurm signals every task of a job at its
/// time limit or `scancel`, a terminal every process of its group) and
/// stops the run: it interrupts this rank's jobs, which come back open
/// with their warm starts, and then tells the rank to quit. A rank that
/// died of the signal would lose its jobs in flight and end the run with
/// an MPI error. A second signal ends the rank at once (exit status 130).
#[cfg(feature = "mpi")]
fn worker_rank_signals() {
    // The flag is rank 0's business; only the second signal acts here.
    let _ = interrupt_flag();
}

/// What `prove` was asked to do (exactly one, as clap made sure).
enum Mode<'a> {
    /// Prove (or go on proving) this position.
    Prove(&'a str),
    Status(&'a Path),
    Check(&'a Path),
    Merge(&'a [PathBuf]),
    Simulate(&'a Path),
}

/// A proof run's flags, read and checked.
struct RunPlan<'a> {
    root: Position,
    dir: &'a Path,
    max_job_nodes: u64,
    /// Local worker threads.
    workers: usize,
    worker: WorkerConfig,
    tables: Option<Arc<Tablebase>>,
}

/// The object `prove --json` and `prove --status --json` print.
fn summary_json(m: &Manager, open: usize, seconds: f64) -> serde_json::Value {
    let (_, below) = m.nodes_below();
    let moves: Vec<serde_json::Value> = m
        .move_values()
        .iter()
        .zip(below)
        .map(|(mv, n)| json!({"move": mv.san, "value": wdl_json(mv.value), "nodes": n}))
        .collect();
    json!({
        "fen": m.root().to_string(),
        "value": wdl_json(m.value()),
        "complete": m.complete(),
        "moves": moves,
        "jobs": m.counts.logged_jobs + m.counts.jobs,
        "known": m.counts.logged_known + m.counts.known,
        "open": open,
        "nodes": m.counts.logged_nodes + m.counts.nodes,
        "seconds": (seconds * 1000.0).round() / 1000.0,
    })
}

/// A node count for people: 1.23 G, 45.6 M, 789 k, 12.
fn giga(n: u64) -> String {
    match n {
        n if n >= 1_000_000_000 => format!("{:.2} G", n as f64 / 1e9),
        n if n >= 1_000_000 => format!("{:.1} M", n as f64 / 1e6),
        n if n >= 1_000 => format!("{} k", n / 1000),
        n => n.to_string(),
    }
}

/// A proof's root, its value and whether the proof is complete.
fn headline(m: &Manager) -> String {
    format!(
        "{}: {}{}",
        m.root(),
        prove::wdl_text(m.value()),
        if m.complete() {
            " (proof complete)"
        } else {
            " (proof not complete)"
        }
    )
}

/// What a run adds to its proof's summary.
struct RunSummary {
    /// Open questions at the tree's leaves.
    open: usize,
    seconds: f64,
    /// The emulation's report, with --emulate.
    emulation: Option<prove::Emulation>,
    /// One solve's nodes, to count the emulation against (--baseline-nodes).
    baseline: Option<u64>,
    /// The workers' search.
    method: Method,
    /// The order proof-number workers try moves in.
    pn_init: PnInit,
}

/// The end of a run: its summary (and the emulation's report), as text
/// or one JSON object (with the workers' `method`, and `pn_init` for
/// proof-number workers).
fn print_run(m: &Manager, run: &RunSummary, json: bool) {
    let RunSummary {
        open,
        seconds,
        emulation,
        baseline,
        method,
        pn_init,
    } = *run;
    let c = &m.counts;
    if json {
        let mut j = summary_json(m, open, seconds);
        j["method"] = json!(method.to_string());
        if method == Method::ProofNumber {
            j["pn_init"] = json!(pn_init.to_string());
        }
        j["job_seconds"] = json!((c.job_seconds * 1000.0).round() / 1000.0);
        j["cancelled"] = json!({
            "jobs": c.cancelled,
            "nodes": c.cancelled_nodes,
            "seconds": (c.cancelled_seconds * 1000.0).round() / 1000.0,
        });
        j["tt_stores"] = json!(c.table.stores);
        j["tt_replaced"] = json!(c.table.replaced);
        j["tt_replaced_max_work"] = json!(c.table.replaced_max_work);
        if let Some(e) = emulation {
            j["emulation"] = json!({
                "workers": e.workers,
                "threads": e.threads,
                "ranks": e.ranks,
                "tick_nodes": e.tick,
                "work_nodes": e.work,
                "makespan_nodes": e.makespan,
                "busy": (e.busy() * 100.0).round() / 100.0,
                "idle": (e.idle() * 1000.0).round() / 1000.0,
                "peak_busy": e.peak,
                "solved_sent": e.solved_sent,
                "affinity": {"back": e.affinity.0, "elsewhere": e.affinity.1},
                "search_seconds": e.search_seconds,
                "search_nodes": e.search_nodes,
                "send_seconds": e.send_seconds,
                "load_seconds": e.load_seconds,
                "load_cost_nodes": e.load_cost(),
                "solved_missed": e.solved_missed,
                "running": e.running,
                "in_flight_work_nodes": e.in_flight_work,
            });
            j["emulation"]["reached_nodes"] = json!(e.reached);
            if let Some(b) = baseline {
                let (speedup, efficiency, work) = e.against(b);
                let round = |x: f64| (x * 1000.0).round() / 1000.0;
                let x = &mut j["emulation"];
                x["baseline_nodes"] = json!(b);
                if m.complete() {
                    x["speedup"] = json!(round(speedup));
                    x["speedup_with_exchanges"] = json!(e.speedup_with_exchanges(b).map(round));
                    x["efficiency"] = json!(round(efficiency));
                    x["work_over_baseline"] = json!(round(work));
                } else {
                    x["speedup_at_most"] = json!(round(e.speedup_at_most(b)));
                }
            }
        }
        print_json(&j);
        return;
    }
    print_summary(m, open, seconds);
    println!(
        "this run's jobs: {} in {:.1} s of their workers' time; cancelled as unneeded: {} jobs, {} nodes, {:.1} s",
        c.jobs,
        c.job_seconds,
        c.cancelled,
        giga(c.cancelled_nodes),
        c.cancelled_seconds
    );
    println!(
        "this run's tables: {}",
        super::solve::table_room(&c.table, method == Method::AlphaBeta)
    );
    if let Some(e) = emulation {
        println!(
            "emulated {} workers{}{}{}: work {} nodes{}, makespan {} nodes, {:.1} busy on average (idle {:.0}%), at most {} at once",
            e.workers,
            match e.threads {
                t if t > 1 => format!(" of {t} threads taking turns"),
                _ => String::new(),
            },
            match e.ranks {
                r if r > 1 && r < e.workers => format!(" in {r} ranks of {}", e.workers / r),
                _ => String::new(),
            },
            match e.tick {
                0 => String::new(),
                k => format!(" in ticks of {k} nodes"),
            },
            e.work,
            // A run stopped short leaves its jobs in flight out of the
            // work; the busy average counts their threads' time so far.
            match e.running {
                0 => String::new(),
                n => format!(
                    " (not counting the {n} jobs in flight at the stop, {} nodes of their threads' time so far)",
                    e.in_flight_work
                ),
            },
            e.makespan,
            e.busy(),
            e.idle() * 100.0,
            e.peak
        );
        match baseline {
            Some(b) if m.complete() => {
                let (speedup, efficiency, work) = e.against(b);
                println!(
                    "against one solve's {b} nodes (--baseline-nodes): {speedup:.2}x as fast (efficiency {efficiency:.2}), {work:.2}x its work"
                );
            }
            Some(b) => println!(
                "the proof is not complete: its virtual clock reached {} nodes, so {} workers are at most {:.2}x as fast as one solve's {b} nodes (--baseline-nodes)",
                e.reached,
                e.workers,
                e.speedup_at_most(b)
            ),
            None if m.complete() => println!(
                "(the speedup against one solve: give its nodes with --baseline-nodes)"
            ),
            None => println!(
                "the proof is not complete: its virtual clock reached {} nodes",
                e.reached
            ),
        }
        if e.solved_sent > 0 {
            println!("solved entries sent out with jobs: {}", e.solved_sent);
        }
        if e.affinity != (0, 0) {
            println!(
                "questions asked again: {} on the worker whose table held their last job, {} on another",
                e.affinity.0, e.affinity.1
            );
        }
        if e.search_seconds > 0.0 && (e.solved_sent > 0 || e.send_seconds > 0.01 * e.search_seconds)
        {
            // What the virtual clock leaves out: a real rank sends what
            // it solved and loads what every other one sent, beside its
            // own search.
            println!(
                "the ranks' time on this machine: searching {:.1} s, sending {:.1} s ({:.2} of it), loading what the others sent {:.1} s ({:.2}){}",
                e.search_seconds,
                e.send_seconds,
                e.send_seconds / e.search_seconds,
                e.load_seconds,
                e.load_seconds / e.search_seconds,
                match e.load_cost() {
                    Some(c) => format!(", a loaded entry {c:.3} nodes of search"),
                    None => String::new(),
                }
            );
            if let (Some(b), true) = (baseline, m.complete()) {
                if let Some(x) = e.speedup_with_exchanges(b) {
                    println!(
                        "counted in time, each rank's sending and loading spread over its search: about {x:.2}x as fast as one solve"
                    );
                }
            }
        }
        if e.solved_missed > 0 {
            println!(
                "solved entries workers missed, forgotten by the pool first: {}",
                e.solved_missed
            );
        }
    }
}

/// How a run that ended by `end` exits; `log` the log it was opened
/// with, `diverted` where its lines went if the log's name was given to
/// another file under it ([`prove::LogWriter::diverted`]): whatever the
/// end, a failure that says where they are.
fn end_status(end: RunEnd, log: &Path, diverted: Option<&Path>) -> Result<(), CliError> {
    if let Some(kept) = diverted {
        let dir = log.parent().unwrap_or(Path::new("."));
        return Err(CliError::failure(format!(
            "{}: the proof log was replaced or removed while the run wrote it: the run stopped, and its log, every line of the run included, is whole in {}; `peasant prove --merge {} {} --dir NEW` joins the two",
            log.display(),
            kept.join(prove::LOG_FILE).display(),
            dir.display(),
            kept.display()
        )));
    }
    let stopped = |message: &str, status| {
        Err(CliError {
            message: message.into(),
            status,
        })
    };
    match end {
        RunEnd::Complete => Ok(()),
        RunEnd::JobLimit => stopped("stopped by --max-jobs; run again to resume", EXIT_STOPPED),
        RunEnd::TimeLimit => stopped(
            "stopped by --max-seconds; run again to resume",
            EXIT_STOPPED,
        ),
        RunEnd::Drained => stopped(
            "stopped by --drain-after once its jobs were back; run again to resume",
            EXIT_STOPPED,
        ),
        RunEnd::VirtualLimit => stopped(
            "stopped by --emulate-until: the virtual clock reached its limit short of the proof",
            EXIT_STOPPED,
        ),
        RunEnd::Stopped => stopped("interrupted; run again to resume", EXIT_INTERRUPTED),
        // Only with `diverted`, above.
        RunEnd::LogDiverted => Err(CliError::failure(
            "the proof log was replaced under the run",
        )),
    }
}

/// `--check`'s report: a note on a torn last line, a summary line, then
/// the first ten problems.
fn print_check(r: &CheckReport) {
    if let Some(t) = &r.torn {
        println!(
            "note: {}:{}: a torn last line (a run was killed while writing it)",
            t.file.display(),
            t.line
        );
    }
    println!(
        "checked {} jobs, {} positions in the trees of {} root(s), {} answers solved again: {}",
        r.jobs,
        r.tree_positions,
        r.roots.len(),
        r.sampled.len(),
        if r.clean() {
            "no disagreement".to_string()
        } else {
            format!("{} problem(s)", r.problems.len())
        }
    );
    for p in r.problems.iter().take(10) {
        println!("  {p}");
    }
}

/// DIR's log (or the logs of several directories), its damage reported.
fn read_log(dirs: &[PathBuf]) -> Result<LogContents, CliError> {
    let log = prove::read_logs(dirs, None).map_err(log_error)?;
    report_damage(&log);
    Ok(log)
}

/// Prints the damaged lines of `log` on stderr, if any.
fn report_damage(log: &LogContents) {
    if let Some(text) = log.damage_report() {
        eprintln!("{text}");
    }
}

/// Prints the contradictions `manager` met on stderr.
fn report_contradictions(manager: &mut Manager) {
    for c in manager.take_contradictions() {
        eprintln!("{}", prove::RunEvent::Contradiction(&c));
    }
}

/// [`prove::replay`], with the contradictions it met printed.
fn replay(log: &LogContents, root: Position, all_moves: bool) -> Manager {
    let mut manager = prove::replay(log, root, all_moves);
    report_contradictions(&mut manager);
    manager
}

/// The last root `log` names (exit status 1 if none).
fn last_root(log: &LogContents, dir: &Path) -> Result<prove::RootRecord, CliError> {
    log.roots.last().cloned().ok_or_else(|| {
        CliError::failure(format!("{}: the log names no root position", dir.display()))
    })
}

fn print_summary(m: &Manager, open: usize, seconds: f64) {
    println!("{}", headline(m));
    let moves: Vec<String> = m
        .move_values()
        .iter()
        .map(|mv| format!("{} {}", mv.san, prove::wdl_text(mv.value)))
        .collect();
    println!("moves: {}", moves.join(", "));
    println!(
        "jobs: {} ({} this run), open questions at the tree's leaves: {}, known from jobs' tables: {}, nodes: {}, seconds: {:.1}",
        m.counts.logged_jobs + m.counts.jobs,
        m.counts.jobs,
        open,
        m.counts.logged_known + m.counts.known,
        m.counts.logged_nodes + m.counts.nodes,
        seconds
    );
}

impl ProveArgs {
    pub fn run(&self, global: &GlobalArgs) -> Result<(), CliError> {
        match self.mode() {
            Mode::Prove(text) => self.prove(text, global),
            Mode::Status(dir) => self.status(dir, global),
            Mode::Check(dir) => self.check(dir),
            Mode::Merge(dirs) => self.merge(dirs),
            Mode::Simulate(dir) => self.simulate(dir),
        }
    }

    /// The mode clap's group `mode` chose.
    fn mode(&self) -> Mode<'_> {
        if let Some(dir) = &self.status {
            Mode::Status(dir)
        } else if let Some(dir) = &self.check {
            Mode::Check(dir)
        } else if !self.merge.is_empty() {
            Mode::Merge(&self.merge)
        } else if let Some(dir) = &self.simulate {
            Mode::Simulate(dir)
        } else {
            Mode::Prove(self.pos.as_deref().expect("clap requires a mode"))
        }
    }

    fn workers_count(&self) -> Result<usize, CliError> {
        match &self.workers {
            None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
            Some(s) => match s.parse::<usize>() {
                Ok(n) if n >= 1 => Ok(n),
                _ => Err(CliError::input(format!(
                    "--workers {s}: expected a number of workers, at least 1"
                ))),
            },
        }
    }

    /// The largest job budget, with --job-nodes and --job-growth checked.
    fn max_job_nodes(&self) -> Result<u64, CliError> {
        if self.job_nodes == 0 {
            return Err(CliError::input("--job-nodes must be at least 1"));
        }
        let max_job_nodes = self
            .max_job_nodes
            .unwrap_or(self.job_nodes.saturating_mul(16));
        if max_job_nodes < self.job_nodes {
            return Err(CliError::input(format!(
                "--max-job-nodes {max_job_nodes} is below --job-nodes {}",
                self.job_nodes
            )));
        }
        if self.warm_entries as u64 > prove::MAX_WARM_ENTRIES {
            return Err(CliError::input(format!(
                "--warm-entries {}: at most {} entries",
                self.warm_entries,
                prove::MAX_WARM_ENTRIES
            )));
        }
        if self.job_growth < 2 {
            return Err(CliError::input("--job-growth must be at least 2"));
        }
        Ok(max_job_nodes)
    }

    /// The workers' search: `--method`'s, or [`Method::default_for`]'s
    /// (a proof answers win/draw/loss: proof-number search).
    fn method(&self) -> Method {
        self.method
            .map_or_else(|| Method::default_for(false), Method::from)
    }

    /// For workers sharing one proof-number table (under mpirun, each
    /// worker rank's): whether their jobs search as one team, and why.
    fn team_text(&self, plan: &RunPlan, ranks: bool) -> Option<String> {
        let w = &plan.worker;
        if w.method != Method::ProofNumber
            || !w.shared_tt
            || plan.workers < 2
            || w.threads > 1
            || self.emulate.is_some()
        {
            return None;
        }
        let whose = if ranks { "each worker rank's" } else { "the" };
        let how = if w.spread_jobs {
            "as one team"
        } else {
            "each on its own"
        };
        let why = if self.pn_spread_jobs {
            "--pn-spread-jobs".to_string()
        } else if self.pn_no_spread_jobs {
            "--pn-no-spread-jobs".to_string()
        } else if w.spread_jobs {
            format!("the default from {SPREAD_JOBS_FROM} workers")
        } else {
            format!("as one team from {SPREAD_JOBS_FROM} workers, or --pn-spread-jobs")
        };
        Some(format!(
            "{whose} {} workers' jobs on one table search {how} ({why})",
            plan.workers
        ))
    }

    /// "pn (proof-number search, the default; --method ab for
    /// alpha-beta)", or where `--method` chose, "ab (alpha-beta, --method
    /// ab)".
    fn method_text(&self) -> String {
        let method = self.method();
        let why = match self.method {
            Some(_) => format!("--method {method}"),
            None => "the default; --method ab for alpha-beta".to_string(),
        };
        format!("{method} ({}, {why})", method.name())
    }

    /// --emulate and --table-file against the other flags.
    fn check_pool_flags(&self) -> Result<(), CliError> {
        #[cfg(feature = "mpi")]
        let launched = prove::mpi::launched();
        #[cfg(not(feature = "mpi"))]
        let launched = false;
        let bad = if self.threads == 0 {
            "--threads must be at least 1"
        } else if self.threads > 1 && self.method() != Method::ProofNumber && self.emulate.is_some()
        {
            "--emulate runs alpha-beta workers of one thread: --threads above 1 needs --method pn"
        } else if self.threads > MAX_THREADS {
            "--threads: more threads than any machine has cores"
        } else if self.emulate.is_some() && self.tables.is_some() {
            "--emulate runs without --tables (its workers solve by search alone)"
        } else if self.emulate == Some(0) {
            "--emulate N: N must be at least 1"
        } else if self.emulate_shared.is_some() && self.emulate.is_none() {
            "--emulate-shared is for --emulate"
        } else if self.emulate_shared.is_some() && self.method() != Method::ProofNumber {
            "--emulate-shared steps proof-number jobs: not with --method ab"
        } else if self.emulate_ranks.is_some() && self.emulate_shared.is_none() {
            "--emulate-ranks puts workers of a rank on one table: it needs --emulate-shared STEP"
        } else if self.emulate_ranks == Some(0) {
            "--emulate-ranks R: R must be at least 1"
        } else if self
            .emulate_ranks
            .zip(self.emulate)
            .is_some_and(|(r, n)| n % r != 0)
        {
            "--emulate N --emulate-ranks R: R must divide N (ranks of equal workers)"
        } else if self.emulate_shared.is_some()
            && self.emulate_ranks.unwrap_or(1) == 1
            && self.share_solved > 0
        {
            "--emulate-shared: workers sharing a table have nothing to send one another (no --share-solved without --emulate-ranks)"
        } else if self.emulate_shared.is_some() && self.separate_tables {
            "--emulate-shared shares one table: not with --separate-tables"
        } else if self.emulate_tick.is_some() && self.emulate.is_none() {
            "--emulate-tick is for --emulate"
        } else if self.emulate_turn_nodes != prove::TURN
            && !(self.emulate.is_some() && self.threads > 1)
        {
            "--emulate-turn-nodes sets the turns of an emulated worker's threads: it needs --emulate and --threads above 1"
        } else if self.emulate_turn_nodes == 0 {
            "--emulate-turn-nodes N: N must be at least 1"
        } else if self.emulate_tick == Some(0) {
            "--emulate-tick K: K must be at least 1"
        } else if self.emulate_threads > 0 && self.emulate_tick.is_none() {
            "--emulate-threads runs the ranks of --emulate-tick at once: it needs --emulate-tick K"
        } else if self.emulate_shared == Some(0) {
            "--emulate-shared STEP: STEP must be at least 1"
        } else if self.baseline_nodes.is_some() && self.emulate.is_none() {
            "--baseline-nodes is for --emulate (the speedup of a real run is its wall time's)"
        } else if self.emulate_until.is_some() && self.emulate.is_none() {
            "--emulate-until stops an emulation's virtual clock: it is for --emulate"
        } else if self.emulate_until == Some(0) {
            "--emulate-until NODES: NODES must be at least 1"
        } else if self.baseline_nodes == Some(0) {
            "--baseline-nodes: one solve searches at least one node"
        } else if self.share_solved > 0 && self.method() != Method::ProofNumber {
            "--share-solved sends proof-number entries: not with --method ab"
        } else if self.share_solved > 0
            && !(self.emulate.is_some() || self.separate_tables || launched)
        {
            "--share-solved is for workers with tables of their own (--emulate, --separate-tables, MPI ranks)"
        } else if self.share_solved as u64 > prove::MAX_WARM_ENTRIES {
            "--share-solved: at most 4194304 entries a job"
        } else if self.share_every > 0 && self.share_solved == 0 {
            "--share-every needs --share-solved (the entries to send out)"
        } else if self.share_every > 0 && self.share_every < MIN_SHARE_EVERY {
            "--share-every: at least 1000 nodes between exchanges"
        } else if self.share_paths_every > 0 && self.share_every == 0 {
            "--share-paths-every needs --share-every (paths go out between a job's steps)"
        } else if self.share_paths_every > 0 && self.no_share_paths {
            "--share-paths-every sends paths: not with --no-share-paths"
        } else if self.share_paths_every > 0 && self.share_paths_every < MIN_SHARE_EVERY {
            "--share-paths-every: at least 1000 nodes between exchanges"
        } else if self.share_paths_every >= self.share_every && self.share_paths_every > 0 {
            "--share-paths-every: fewer nodes than --share-every (paths go with every exchange of entries)"
        } else if self.table_file.is_none() {
            if self.emulate.is_some() && launched {
                "--emulate runs in one process: start it without mpirun"
            } else {
                return Ok(());
            }
        } else if self.method() != Method::ProofNumber {
            "--table-file keeps a proof-number table: not with --method ab"
        } else if self.emulate.is_some() || self.separate_tables {
            "--table-file keeps the table local workers share: not with --emulate"
        } else if launched {
            "--table-file keeps the table local workers share: not under mpirun"
        } else {
            return Ok(());
        };
        Err(CliError::input(bad))
    }

    /// The flags of a proof of `text`, read and checked.
    fn plan(&self, text: &str, global: &GlobalArgs) -> Result<RunPlan<'_>, CliError> {
        let root = global.position(text)?;
        if let Some(outcome) = root.outcome() {
            return Err(CliError::input(format!(
                "the game is already over ({outcome}): there is nothing to prove"
            )));
        }
        let Some(dir) = &self.dir else {
            return Err(CliError::input("prove <POS> needs --dir DIR for its log"));
        };
        let max_job_nodes = self.max_job_nodes()?;
        let workers = self.workers_count()?;
        self.check_pool_flags()?;
        let tables = self.tables.as_ref().map(|d| {
            Arc::new(
                Tablebase::new(d, root.variant())
                    .with_cache_mib(self.cache_mb)
                    .with_wdl_memory_mib(self.wdl_memory_mb),
            )
        });
        let worker = WorkerConfig {
            hash_mb: self.hash_mb,
            shared_tt: !self.separate_tables,
            method: self.method(),
            warm_entries: self.warm_entries,
            harvest_plies: self.harvest_plies as usize,
            share_solved: self.share_solved,
            share_every: self.share_every,
            share_paths: !self.no_share_paths,
            share_paths_every: self.share_paths_every,
            threads: self.threads,
            locked_reads: self.pn_locked_reads,
            spread_every: self.pn_spread_every,
            spread_jobs: (workers >= SPREAD_JOBS_FROM || self.pn_spread_jobs)
                && !self.pn_no_spread_jobs,
            pn_init: self.pn_init,
        };
        Ok(RunPlan {
            root,
            dir,
            max_job_nodes,
            workers,
            worker,
            tables,
        })
    }

    /// `count` workers of this process with transposition tables of their
    /// own (`flag`: `--emulate N`, its ranks, `--separate-tables`) need `--hash-mb`
    /// each, all at once by the end of a long run: refused if together
    /// they pass the memory available. Each table is mapped when it is
    /// made and takes memory only as it fills, so the check of each alone
    /// passes them all, and the run is killed hours later (64 emulated
    /// workers of 1 GiB on a 24 GiB machine). A shared table is checked
    /// whole when it is made; an MPI rank's table is its own machine's.
    fn check_own_tables_fit(&self, count: usize, flag: &str) -> Result<(), CliError> {
        let mib = (self.hash_mb as u64).saturating_mul(count as u64);
        match peasant::generate::available_memory() {
            Some(bytes) if mib.saturating_mul(1 << 20) > bytes => Err(CliError::input(format!(
                "--hash-mb {}: {count} workers with tables of their own ({flag}) need {mib} MiB, \
                 more than the {} MiB available",
                self.hash_mb,
                bytes >> 20
            ))),
            _ => Ok(()),
        }
    }

    /// `workers` with --emulate-turn-nodes, in the coarser model of
    /// --emulate-tick if asked for.
    fn emulation_ticks(
        &self,
        workers: prove::EmulatedWorkers,
    ) -> Result<prove::EmulatedWorkers, CliError> {
        let workers = workers
            .with_turn(self.emulate_turn_nodes)
            .with_affinity(!self.no_affinity);
        let Some(tick) = self.emulate_tick else {
            return Ok(workers);
        };
        let threads = match self.emulate_threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        };
        workers.ticked(tick, threads).map_err(CliError::failure)
    }

    /// The run's workers; `None` on an MPI worker rank (under mpirun or
    /// srun, rank 0 manages and the other ranks work), whose work is done
    /// when this returns.
    fn pool(&self, plan: &RunPlan, _universe: &Universe) -> Result<Option<Pool>, CliError> {
        #[cfg(feature = "mpi")]
        if let Some(u) = _universe {
            use mpi::topology::Communicator;
            let world = u.world();
            if world.size() > 1 {
                if world.rank() != 0 {
                    worker_rank_signals();
                    let done = prove::mpi::worker_loop(
                        &world,
                        plan.worker,
                        self.rank_workers(plan),
                        plan.tables.as_deref(),
                    );
                    if let Err(e) = done {
                        eprintln!("peasant: rank {}: {e}", world.rank());
                        if matches!(e, prove::WorkerError::Setup(_)) {
                            world.abort(2)
                        }
                    }
                    return Ok(None);
                }
                let per_rank = self.rank_workers(plan);
                return Ok(Some(Pool::Ranks(
                    prove::mpi::MpiWorkers::new(world, per_rank).with_affinity(!self.no_affinity),
                )));
            }
        }
        Ok(Some(match self.emulate {
            Some(n) => Pool::Emulated(
                self.emulation_ticks(match (self.emulate_shared, self.emulate_ranks) {
                    (Some(step), Some(ranks)) if ranks > 1 => {
                        // Each rank's table is checked as it is made, but
                        // the maps fill only as they are used: the ranks
                        // together must fit before the first is made.
                        self.check_own_tables_fit(
                            n,
                            &format!("--emulate {n} --emulate-ranks {ranks}"),
                        )?;
                        prove::EmulatedWorkers::in_ranks(n, ranks, plan.worker, step)
                            .map_err(solve_error)?
                    }
                    (Some(step), _) => prove::EmulatedWorkers::sharing(n, plan.worker, step)
                        .map_err(solve_error)?,
                    (None, _) => {
                        self.check_own_tables_fit(n, &format!("--emulate {n}"))?;
                        prove::EmulatedWorkers::new(n, plan.worker)
                    }
                })?,
            ),
            None => {
                if !plan.worker.shared_tt {
                    self.check_own_tables_fit(plan.workers, "--separate-tables")?;
                }
                Pool::Threads(
                    ThreadWorkers::new(plan.workers, plan.worker, plan.tables.clone())
                        .map_err(solve_error)?,
                )
            }
        }))
    }

    /// Under mpirun: the jobs each worker rank runs at once (`--workers`,
    /// 1 unless given: one rank a core, as before there were more).
    #[cfg(feature = "mpi")]
    fn rank_workers(&self, plan: &RunPlan) -> usize {
        if self.workers.is_some() {
            plan.workers
        } else {
            1
        }
    }

    /// --table-file and the table it keeps (loaded now if the file
    /// exists; saved when the run ends).
    fn snapshot(
        &self,
        pool: &Pool,
        variant: Variant,
    ) -> Result<Option<(&Path, SharedPnTt)>, CliError> {
        let Some(path) = &self.table_file else {
            return Ok(None);
        };
        let Some(table) = pool.shared_pn_tt() else {
            return Err(CliError::input(
                "--table-file keeps the table local workers share, and these workers share none",
            ));
        };
        if path.exists() {
            load_snapshot(path, variant, &table, self.quiet)?;
        }
        Ok(Some((path, table)))
    }

    /// DIR's log read (its damage reported) and opened for this run's
    /// lines, the root logged; the manager as the log leaves it, with the
    /// warm starts kept in DIR (where proof-number workers keep them).
    fn open_proof(
        &self,
        plan: &RunPlan,
        workers: usize,
    ) -> Result<(Manager, prove::LogWriter, Option<prove::WarmStore>), CliError> {
        let variant = plan.root.variant();
        let log = prove::read_dir_log(plan.dir, variant).map_err(log_error)?;
        report_damage(&log);
        let mut writer = prove::LogWriter::open(plan.dir, variant).map_err(log_error)?;
        writer.sync_each_line = self.sync_each_line;
        let root = prove::RootRecord {
            pos: plan.root,
            all_moves: self.all_moves,
        };
        writer.append_root(&root).map_err(log_error)?;
        let config = ManagerConfig {
            job_nodes: self.job_nodes,
            max_job_nodes: plan.max_job_nodes,
            growth: self.job_growth,
            workers,
            all_moves: self.all_moves,
            keep_child: !self.no_keep_child,
        };
        let mut manager = Manager::new(plan.root, config, &log);
        report_contradictions(&mut manager);
        let warm = (plan.worker.method == Method::ProofNumber && self.warm_entries > 0)
            .then(|| prove::WarmStore::new(plan.dir, variant));
        if let Some(store) = &warm {
            let found = store.load();
            for line in &found.damaged {
                eprintln!("peasant: {line}: ignored");
            }
            manager.add_warm(found.pairs);
        }
        Ok((manager, writer, warm))
    }

    /// `prove POS --dir DIR ...`: a proof run, to its end or a stop.
    fn prove(&self, text: &str, global: &GlobalArgs) -> Result<(), CliError> {
        let plan = self.plan(text, global)?;
        let variant = plan.root.variant();
        let universe = mpi_universe();
        let Some(mut pool) = self.pool(&plan, &universe)? else {
            return Ok(());
        };
        if !self.quiet {
            eprintln!("prove: the workers search by {}", self.method_text());
            if let Some(team) = self.team_text(&plan, universe.is_some()) {
                eprintln!("prove: {team}");
            }
        }
        let snapshot = self.snapshot(&pool, variant)?;
        let (mut manager, mut writer, warm) = self.open_proof(&plan, pool.workers().count())?;
        let log_path = writer.path().to_path_buf();
        let stop = interrupt_flag();
        let start = Instant::now();
        let options = RunOptions {
            stop: &stop,
            progress: (!self.quiet).then_some(Duration::from_secs(10)),
            max_jobs: self.max_jobs,
            max_time: self.max_seconds.map(Duration::from_secs),
            drain_after: self.drain_after.map(Duration::from_secs),
            max_virtual: self.emulate_until,
            warm: warm.as_ref(),
            announce: (!self.quiet).then_some(self.announce_nodes),
        };
        let end = prove::run_with_events(
            &mut manager,
            pool.workers(),
            &mut writer,
            &options,
            &mut |event| eprintln!("{event}"),
        )
        .map_err(CliError::failure)?;
        let emulation = pool.emulation();
        drop(pool);
        let saved = match &snapshot {
            Some((path, table)) => save_snapshot(path, variant, table, self.quiet),
            None => Ok(()),
        };
        let seconds = start.elapsed().as_secs_f64();
        let open = if end == RunEnd::Complete {
            0
        } else {
            manager.open_leaves()
        };
        let run = RunSummary {
            open,
            seconds,
            emulation,
            baseline: self.baseline_nodes,
            method: plan.worker.method,
            pn_init: plan.worker.pn_init,
        };
        print_run(&manager, &run, global.json);
        saved?;
        end_status(end, &log_path, writer.diverted())
    }

    /// `--status DIR [POS]`: what the log proves of POS (every first move
    /// included), or of the log's roots: a line for each earlier root, then
    /// the last root in full.
    fn status(&self, dir: &Path, global: &GlobalArgs) -> Result<(), CliError> {
        let log = read_log(&[dir.to_path_buf()])?;
        let last = last_root(&log, dir)?;
        let seconds: f64 = log.jobs.iter().map(|j| j.seconds).sum();
        let mut manager = match &self.pos {
            None => replay(&log, last.pos, last.all_moves),
            Some(text) => {
                let v = log.variant;
                let pos = peasant::rules::parse_position(text, Some(v.board), v.rules)
                    .map_err(CliError::input)?;
                if pos.outcome().is_some() {
                    return Err(CliError::input(format!(
                        "{pos}: the game is already over there"
                    )));
                }
                replay(&log, pos, true)
            }
        };
        let open = manager.open_leaves();
        if global.json {
            print_json(&summary_json(&manager, open, seconds));
            return Ok(());
        }
        if self.pos.is_none() {
            print_earlier_roots(&log, &manager);
        }
        print_summary(&manager, open, seconds);
        print_nodes_spent(&manager);
        if self.tree {
            print!("{}", manager.tree(self.tree_depth));
        }
        Ok(())
    }

    /// `--check DIR [--samples N]`: see [`prove::check`]; a random sample
    /// each time.
    fn check(&self, dir: &Path) -> Result<(), CliError> {
        let log = read_log(&[dir.to_path_buf()])?;
        last_root(&log, dir)?;
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        let options = CheckOptions {
            samples: self.samples,
            seed,
            hash_mb: self.hash_mb,
        };
        let report = prove::check(&log, options).map_err(solve_error)?;
        print_check(&report);
        if report.clean() {
            return Ok(());
        }
        Err(CliError::failure(format!(
            "{}: the proof log does not check",
            dir.display()
        )))
    }

    fn merge(&self, inputs: &[PathBuf]) -> Result<(), CliError> {
        let Some(out) = &self.dir else {
            return Err(CliError::input("--merge needs --dir OUT"));
        };
        let report = prove::merge(inputs, out).map_err(log_error)?;
        for damage in &report.damage {
            eprintln!("{damage}");
        }
        println!(
            "merged into {}: {} jobs, {} roots, {} duplicates, {} conflicting pairs left out, {} damaged lines left out",
            out.display(),
            report.jobs,
            report.roots,
            report.duplicates,
            report.conflicts,
            report.damaged
        );
        if report.conflicts > 0 {
            return Err(CliError::failure("the logs contradict each other"));
        }
        Ok(())
    }

    fn simulate(&self, dir: &Path) -> Result<(), CliError> {
        let list = self.workers.as_deref().unwrap_or("8,64,256,1024");
        let counts: Result<Vec<usize>, _> = list.split(',').map(|s| s.trim().parse()).collect();
        let counts = counts
            .ok()
            .filter(|c| !c.is_empty() && !c.contains(&0))
            .ok_or_else(|| {
                CliError::input(format!("--workers {list}: expected counts like 8,64"))
            })?;
        let log = read_log(&[dir.to_path_buf()])?;
        // `known` answers cost nothing of their own: only jobs are replayed.
        let jobs: Vec<prove::JobRecord> = log
            .jobs
            .iter()
            .filter(|j| j.kind != prove::LineKind::Known)
            .cloned()
            .collect();
        let (work, span) = simulate::work_and_span(&jobs);
        println!(
            "{} jobs, {:.1} s of work, critical path {:.1} s (speedup bound {:.0}x)",
            jobs.len(),
            work,
            span,
            if span > 0.0 { work / span } else { 1.0 }
        );
        println!("workers  makespan_s  speedup  idle");
        for p in counts {
            let r = simulate::simulate(&jobs, p);
            println!(
                "{:>7}  {:>10.2}  {:>7.1}  {:>4.0}%",
                p,
                r.makespan,
                r.speedup,
                100.0 * r.idle
            );
        }
        Ok(())
    }
}

/// A line for each root of `log` other than `shown`'s (earlier runs of
/// the same log may have proved other roots: the 8x8 pawn game's 1.b4,
/// then 1.c4, ...).
fn print_earlier_roots(log: &LogContents, shown: &Manager) {
    let mut seen = vec![*shown.root()];
    for r in &log.roots {
        if seen.contains(&r.pos) {
            continue;
        }
        seen.push(r.pos);
        println!(
            "earlier root {}",
            headline(&replay(log, r.pos, r.all_moves))
        );
    }
}

/// Where a proof's nodes went: on the root, below each first move.
fn print_nodes_spent(m: &Manager) {
    let (on_root, below) = m.nodes_below();
    let spent: Vec<String> = m
        .move_values()
        .iter()
        .zip(below)
        .map(|(mv, n)| format!("{} {}", mv.san, giga(n)))
        .collect();
    println!(
        "nodes spent: on the root {}; below each first move: {}",
        giga(on_root),
        spent.join(", ")
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::EXIT_FAILURE;

    /// A run whose log went on in a directory of its own fails, whatever
    /// its end, and says where the log is and how to join the two.
    #[test]
    fn a_diverted_log_fails_the_run_and_says_where_it_went() {
        let log = Path::new("p/proof.log");
        let kept = Path::new("p/kept-7");
        for end in [RunEnd::Complete, RunEnd::LogDiverted, RunEnd::Stopped] {
            let e = end_status(end, log, Some(kept)).unwrap_err();
            assert_eq!(e.status, EXIT_FAILURE);
            assert!(
                e.message.starts_with("p/proof.log: ")
                    && e.message.contains("whole in p/kept-7/proof.log;")
                    && e.message
                        .contains("`peasant prove --merge p p/kept-7 --dir NEW`"),
                "{}",
                e.message
            );
        }
        assert!(end_status(RunEnd::Complete, log, None).is_ok());
        assert_eq!(
            end_status(RunEnd::Stopped, log, None).unwrap_err().status,
            EXIT_INTERRUPTED
        );
    }
}
