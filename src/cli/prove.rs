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
//! `--max-jobs`, 130 stopped by Ctrl-C (the log keeps every finished job).

use super::{print_json, CliError, GlobalArgs};
use clap::Args;
use peasant::prove::{
    self, simulate, snapshot, LogContents, Manager, ManagerConfig, Method, RunEnd, RunOptions,
    ThreadWorkers, WorkerConfig, WorkerTable,
};
use peasant::solve::SharedPnTable;
use peasant::{Solver, SplitMix64, Tablebase, Variant, Wdl};
use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct ProveArgs {
    /// A position text (FEN subset) or a setup name.
    pub pos: Option<String>,
    /// The proof directory (its log is DIR/proof.log); with --merge, the
    /// directory to merge into.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Establish the value of every first move as well.
    #[arg(long)]
    pub all_moves: bool,
    /// Worker threads (default: all cores); with --simulate, a list of
    /// worker counts (8,64,256,1024).
    #[arg(long, value_name = "N")]
    pub workers: Option<String>,
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
    /// Answer positions whose class has a table in DIR from the tables.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Transposition table of each worker in MiB (local workers share one
    /// table of M times their number).
    #[arg(long, value_name = "M", default_value_t = 64)]
    pub hash_mb: usize,
    /// The search the workers run: ab (alpha-beta, the default) or pn
    /// (proof-number search: fewer nodes on Peasants' Chess draws).
    #[arg(long, value_name = "METHOD", default_value = "ab")]
    pub method: String,
    /// Give each local worker its own transposition table instead of one
    /// shared table (as MPI ranks have; for measurements).
    #[arg(long, hide = true)]
    pub separate_tables: bool,
    /// With --tables: MiB of decompressed table blocks kept in memory.
    #[arg(long, value_name = "M", default_value_t = 64)]
    pub cache_mb: usize,
    /// Print what the proof directory DIR proves.
    #[arg(long, value_name = "DIR")]
    pub status: Option<PathBuf>,
    /// With --status: print the proven top of the tree.
    #[arg(long)]
    pub tree: bool,
    /// With --tree: how many plies below the first moves to print.
    #[arg(long, value_name = "N", default_value_t = 6)]
    pub tree_depth: usize,
    /// Check the proof directory DIR: interior nodes against their
    /// children, and --samples logged answers solved again.
    #[arg(long, value_name = "DIR")]
    pub check: Option<PathBuf>,
    /// With --check: how many logged answers to solve again.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub samples: usize,
    /// Merge the logs of these proof directories (or log files) into --dir.
    #[arg(long, value_name = "DIR", num_args = 1..)]
    pub merge: Vec<PathBuf>,
    /// Replay the jobs of DIR's log on --workers simulated workers.
    #[arg(long, value_name = "DIR")]
    pub simulate: Option<PathBuf>,
    /// Run the proof on N emulated workers, each with its own --hash-mb
    /// table, one job after another on a virtual clock counted in nodes,
    /// and report the speedup N real workers would get (no --tables).
    #[arg(long, value_name = "N")]
    pub emulate: Option<usize>,
    /// Stop after N jobs of this run (exit status 3).
    #[arg(long, value_name = "N")]
    pub max_jobs: Option<u64>,
    /// Stop after SECS seconds (exit status 3). The jobs in flight stop and
    /// are logged as open, with their warm starts (--method pn), for the
    /// next run to continue.
    #[arg(long, value_name = "SECS")]
    pub max_seconds: Option<u64>,
    /// With --method pn: how many table entries (the ones with the most
    /// work below them) a job that runs out keeps in DIR/warm/ for the next
    /// job on its question, in this run or a later one (28 bytes each,
    /// compressed; 0: none).
    #[arg(long, value_name = "N", default_value_t = 65_536)]
    pub warm_entries: usize,
    /// How many plies below its position a finished job reports what its
    /// worker's table proved (both questions, each position once): those
    /// answers settle the positions without jobs when the position is
    /// expanded, and are logged as `known` lines when they do (0: none).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=4))]
    pub harvest_plies: u8,
    /// Print a line on stderr when a job whose budget is at least N nodes
    /// starts (its line of moves from the root and its question) and when
    /// it ends (its answer, nodes and seconds), so that whoever runs a
    /// long proof can tell what each worker is busy with (not with -q).
    #[arg(long, value_name = "N", default_value_t = 100_000_000)]
    pub announce_nodes: u64,
    /// With --method pn: load the workers' shared transposition table from
    /// PATH before the run, if the file exists, and save it there when the
    /// run ends, so that jobs cut off by the end of a run go on where they
    /// stopped. The file is about as big as the table (gigabytes): keep it
    /// on the machine that runs the proof, outside DIR, never committed
    #[arg(long, value_name = "PATH")]
    pub table_file: Option<PathBuf>,
    /// Sync the log to disk after every line (default: at most a second apart).
    #[arg(long, hide = true)]
    pub sync_each_line: bool,
    /// No progress lines on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Loads the table snapshot at `path` into `table`: one line on stderr
/// (unless `quiet`); damage is reported and the good part kept; a file
/// that is not a snapshot of this game is refused (exit status 2: the
/// run would overwrite it).
fn load_snapshot(
    path: &std::path::Path,
    variant: Variant,
    table: &SharedPnTable,
    quiet: bool,
) -> Result<(), CliError> {
    let start = Instant::now();
    if !quiet {
        eprintln!("prove: loading the table snapshot {}", path.display());
    }
    let loaded = snapshot::load(path, variant, table)
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

/// Saves `table` to `path` (see [`snapshot::save`]), with a line on
/// stderr (unless `quiet`); an I/O failure is an error (exit status 1)
/// once the run's summary is out (the log is whole either way).
fn save_snapshot(
    path: &std::path::Path,
    variant: Variant,
    table: &SharedPnTable,
    quiet: bool,
) -> Result<(), CliError> {
    let start = Instant::now();
    if !quiet {
        eprintln!("prove: saving the table snapshot {}", path.display());
    }
    let n = snapshot::save(path, variant, table).map_err(|e| {
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

/// Exit status of a run stopped by --max-jobs or --max-seconds.
pub const EXIT_STOPPED: i32 = 3;
/// Exit status of a run stopped by Ctrl-C.
pub const EXIT_INTERRUPTED: i32 = 130;

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

/// The object `prove --json` and `prove --status --json` print.
/// The workers of a run: real ones (threads, MPI ranks) or emulated.
enum Pool {
    Real(Box<dyn prove::Workers>),
    Emulated(prove::EmulatedWorkers),
}

impl Pool {
    fn workers(&mut self) -> &mut dyn prove::Workers {
        match self {
            Pool::Real(p) => p.as_mut(),
            Pool::Emulated(e) => e,
        }
    }
}

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
    /// `--method` read.
    fn worker_method(&self) -> Result<Method, CliError> {
        match self.method.as_str() {
            "ab" => Ok(Method::AlphaBeta),
            "pn" => Ok(Method::ProofNumber),
            other => Err(CliError::input(format!(
                "--method {other}: expected ab or pn"
            ))),
        }
    }

    pub fn run(&self, global: &GlobalArgs) -> Result<(), CliError> {
        // With --status a position names which position of the log to
        // report (by default the log's last root).
        let modes = (self.pos.is_some() && self.status.is_none()) as u8
            + self.status.is_some() as u8
            + self.check.is_some() as u8
            + !self.merge.is_empty() as u8
            + self.simulate.is_some() as u8;
        if modes != 1 {
            return Err(CliError::input(
                "prove needs exactly one of: a position, --status DIR, --check DIR, --merge A B, --simulate DIR",
            ));
        }
        if let Some(dir) = &self.status {
            return self.status(dir, global);
        }
        if let Some(dir) = &self.check {
            return self.check(dir);
        }
        if !self.merge.is_empty() {
            return self.merge();
        }
        if let Some(dir) = &self.simulate {
            return self.simulate(dir);
        }
        self.prove(global)
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

    fn prove(&self, global: &GlobalArgs) -> Result<(), CliError> {
        let text = self.pos.as_deref().expect("a position");
        let root = global.position(text)?;
        if let Some(outcome) = root.outcome() {
            return Err(CliError::input(format!(
                "the game is already over ({outcome}): there is nothing to prove"
            )));
        }
        let Some(dir) = &self.dir else {
            return Err(CliError::input("prove <POS> needs --dir DIR for its log"));
        };
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
        if self.warm_entries as u64 > prove::warm::MAX_ENTRIES {
            return Err(CliError::input(format!(
                "--warm-entries {}: at most {} entries",
                self.warm_entries,
                prove::warm::MAX_ENTRIES
            )));
        }
        if self.job_growth < 2 {
            return Err(CliError::input("--job-growth must be at least 2"));
        }
        let workers = self.workers_count()?;
        if self.emulate.is_some() && self.tables.is_some() {
            return Err(CliError::input(
                "--emulate runs without --tables (its workers solve by search alone)",
            ));
        }
        if self.emulate == Some(0) {
            return Err(CliError::input("--emulate N: N must be at least 1"));
        }
        if self.table_file.is_some() {
            if self.worker_method()? != Method::ProofNumber {
                return Err(CliError::input(
                    "--table-file keeps a proof-number table: it needs --method pn",
                ));
            }
            if self.emulate.is_some() || self.separate_tables {
                return Err(CliError::input(
                    "--table-file keeps the table local workers share: not with --emulate",
                ));
            }
            #[cfg(feature = "mpi")]
            if prove::mpi::launched() {
                return Err(CliError::input(
                    "--table-file keeps the table local workers share: not under mpirun",
                ));
            }
        }
        let variant = root.variant();
        let tables = self
            .tables
            .as_ref()
            .map(|d| Arc::new(Tablebase::new(d, variant).with_cache_mib(self.cache_mb)));
        let worker_config = WorkerConfig {
            hash_mb: self.hash_mb,
            shared_table: !self.separate_tables,
            method: self.worker_method()?,
            warm_entries: self.warm_entries,
            harvest_plies: self.harvest_plies as usize,
        };
        // Under mpirun or srun (feature `mpi`): rank 0 manages, the other
        // ranks are the workers.
        #[cfg(feature = "mpi")]
        if self.emulate.is_some() && prove::mpi::launched() {
            return Err(CliError::input(
                "--emulate runs in one process: start it without mpirun",
            ));
        }
        #[cfg(feature = "mpi")]
        let _universe = if prove::mpi::launched() {
            prove::mpi::init()
        } else {
            None
        };
        #[cfg(feature = "mpi")]
        use mpi::topology::Communicator;
        #[cfg(feature = "mpi")]
        let mpi_pool: Option<Box<dyn prove::Workers>> = match &_universe {
            Some(u) if u.world().size() > 1 => {
                let world = u.world();
                if world.rank() != 0 {
                    let done = prove::mpi::worker_loop(&world, worker_config, tables.as_deref());
                    if let Err(e) = done {
                        eprintln!("peasant: rank {}: {e}", world.rank());
                        if matches!(e, prove::WorkerError::Setup(_)) {
                            world.abort(2)
                        }
                    }
                    return Ok(());
                }
                Some(Box::new(prove::mpi::MpiWorkers::new(world)))
            }
            _ => None,
        };
        #[cfg(not(feature = "mpi"))]
        let mpi_pool: Option<Box<dyn prove::Workers>> = None;
        let mut snapshot_table: Option<SharedPnTable> = None;
        let mut pool = match (mpi_pool, self.emulate) {
            (Some(p), _) => Pool::Real(p),
            (None, Some(n)) => Pool::Emulated(prove::EmulatedWorkers::new(n, worker_config)),
            (None, None) => {
                let w = ThreadWorkers::new(workers, worker_config, tables)
                    .map_err(super::solve::solve_error)?;
                if let Some(WorkerTable::ProofNumber(t)) = w.shared_table() {
                    snapshot_table = Some(t.clone());
                }
                Pool::Real(Box::new(w))
            }
        };
        // The table snapshot: loaded now, saved when the run ends.
        let snapshot = match (&self.table_file, snapshot_table) {
            (Some(path), Some(table)) => Some((path, table)),
            (Some(_), None) => return Err(CliError::input(
                "--table-file keeps the table local workers share, and these workers share none",
            )),
            _ => None,
        };
        if let Some((path, table)) = &snapshot {
            if path.exists() {
                load_snapshot(path, variant, table, self.quiet)?;
            }
        }
        let log = prove::read_dir_log(dir, variant).map_err(log_error)?;
        report_damage(&log);
        let mut writer = prove::LogWriter::open(dir, variant).map_err(log_error)?;
        writer.sync_each_line = self.sync_each_line;
        writer
            .append_root(&prove::RootRecord {
                pos: root,
                all_moves: self.all_moves,
            })
            .map_err(log_error)?;
        let config = ManagerConfig {
            job_nodes: self.job_nodes,
            max_job_nodes,
            growth: self.job_growth,
            workers: pool.workers().count(),
            all_moves: self.all_moves,
        };
        let mut manager = Manager::new(root, config, &log);
        report_contradictions(&mut manager);
        // Warm starts, where proof-number workers keep them.
        let warm = (worker_config.method == Method::ProofNumber && self.warm_entries > 0)
            .then(|| prove::WarmStore::new(dir, variant));
        if let Some(store) = &warm {
            let found = store.load();
            for line in &found.damaged {
                eprintln!("peasant: {line}: ignored");
            }
            manager.add_warm(found.pairs);
        }
        let stop = Arc::new(AtomicBool::new(false));
        {
            let stop = Arc::clone(&stop);
            let _ = ctrlc::set_handler(move || {
                if stop.swap(true, Ordering::SeqCst) {
                    std::process::exit(EXIT_INTERRUPTED);
                }
            });
        }
        let start = Instant::now();
        let end = prove::run_with_events(
            &mut manager,
            pool.workers(),
            &mut writer,
            &RunOptions {
                stop: &stop,
                progress: (!self.quiet).then_some(Duration::from_secs(10)),
                max_jobs: self.max_jobs,
                max_time: self.max_seconds.map(Duration::from_secs),
                warm: warm.as_ref(),
                announce: (!self.quiet).then_some(self.announce_nodes),
            },
            &mut |event| eprintln!("{event}"),
        )
        .map_err(CliError::failure)?;
        let emulation = match &pool {
            Pool::Emulated(e) => Some(e.emulation()),
            Pool::Real(_) => None,
        };
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
        if global.json {
            let mut j = summary_json(&manager, open, seconds);
            if let Some(e) = emulation {
                j["emulation"] = json!({
                    "workers": e.workers,
                    "work_nodes": e.work,
                    "makespan_nodes": e.makespan,
                    "busy": (e.busy() * 100.0).round() / 100.0,
                    "idle": (e.idle() * 1000.0).round() / 1000.0,
                    "peak_busy": e.peak,
                });
            }
            print_json(&j);
        } else {
            print_summary(&manager, open, seconds);
            if let Some(e) = emulation {
                println!(
                    "emulated {} workers: work {} nodes, makespan {} nodes, {:.1} busy on average (idle {:.0}%), at most {} at once",
                    e.workers,
                    e.work,
                    e.makespan,
                    e.busy(),
                    e.idle() * 100.0,
                    e.peak
                );
            }
        }
        saved?;
        match end {
            RunEnd::Complete => Ok(()),
            RunEnd::JobLimit => Err(CliError {
                message: "stopped by --max-jobs; run again to resume".into(),
                status: EXIT_STOPPED,
            }),
            RunEnd::TimeLimit => Err(CliError {
                message: "stopped by --max-seconds; run again to resume".into(),
                status: EXIT_STOPPED,
            }),
            RunEnd::Stopped => Err(CliError {
                message: "interrupted; run again to resume".into(),
                status: EXIT_INTERRUPTED,
            }),
        }
    }

    /// Reads DIR's log and replays its last root: the manager as the log
    /// leaves it, and the number of open jobs.
    fn replay(dir: &PathBuf) -> Result<(LogContents, Manager, usize), CliError> {
        let log = prove::read_logs(std::slice::from_ref(dir), None).map_err(log_error)?;
        report_damage(&log);
        let Some(root) = log.roots.last() else {
            return Err(CliError::failure(format!(
                "{}: the log names no root position",
                dir.display()
            )));
        };
        let (manager, open) = Self::replay_root(&log, root.pos, root.all_moves);
        Ok((log, manager, open))
    }

    /// The manager of a proof of `root` as `log` leaves it, and its open
    /// jobs.
    fn replay_root(
        log: &LogContents,
        root: peasant::Position,
        all_moves: bool,
    ) -> (Manager, usize) {
        let config = ManagerConfig {
            job_nodes: 1,
            max_job_nodes: 1,
            growth: 2,
            workers: 1,
            all_moves,
        };
        let mut manager = Manager::new(root, config, log);
        let open = manager.open_leaves();
        report_contradictions(&mut manager);
        (manager, open)
    }

    /// `--status DIR [POS]`: what the log proves of POS (every first move
    /// included), or of the log's roots: a line for each earlier root, then
    /// the last root in full.
    fn status(&self, dir: &PathBuf, global: &GlobalArgs) -> Result<(), CliError> {
        let (log, last, open) = Self::replay(dir)?;
        let seconds: f64 = log.jobs.iter().map(|j| j.seconds).sum();
        let (manager, open) = match &self.pos {
            None => (last, open),
            Some(text) => {
                let v = log.variant;
                let pos = peasant::parse_position(text, Some(v.board), v.rules)
                    .map_err(CliError::input)?;
                if pos.outcome().is_some() {
                    return Err(CliError::input(format!(
                        "{pos}: the game is already over there"
                    )));
                }
                Self::replay_root(&log, pos, true)
            }
        };
        if global.json {
            print_json(&summary_json(&manager, open, seconds));
            return Ok(());
        }
        if self.pos.is_none() {
            // Earlier runs of the same log may have proved other roots
            // (the 8x8 pawn game: 1.b4, then 1.c4, ...).
            let mut seen = vec![*manager.root()];
            for r in &log.roots {
                if seen.contains(&r.pos) {
                    continue;
                }
                seen.push(r.pos);
                let (m, _) = Self::replay_root(&log, r.pos, r.all_moves);
                println!("earlier root {}", headline(&m));
            }
        }
        print_summary(&manager, open, seconds);
        let (on_root, below) = manager.nodes_below();
        let spent: Vec<String> = manager
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
        if self.tree {
            print!("{}", manager.tree(self.tree_depth));
        }
        Ok(())
    }

    fn check(&self, dir: &PathBuf) -> Result<(), CliError> {
        let (log, manager, _) = Self::replay(dir)?;
        let mut problems: Vec<String> = Vec::new();
        let damaged = log.damaged.iter().filter(|d| !d.torn).count();
        if damaged > 0 {
            problems.push(format!("{damaged} damaged line(s)"));
        }
        for (key, q) in log.conflicts() {
            problems.push(format!(
                "position key {key:032x}: {} answered both yes and no",
                prove::log::question_text(q)
            ));
        }
        // Every root the log names has its own tree (a proof of 1.c4 beside
        // one of 1.b4): each is re-derived from its children.
        let mut roots = vec![(
            *manager.root(),
            log.roots.last().is_some_and(|r| r.all_moves),
        )];
        for r in &log.roots {
            if !roots.iter().any(|(p, _)| *p == r.pos) {
                roots.push((r.pos, r.all_moves));
            }
        }
        let mut tree_size = 0;
        for (i, &(pos, all_moves)) in roots.iter().enumerate() {
            let replayed;
            let m = if i == 0 {
                &manager
            } else {
                replayed = Self::replay_root(&log, pos, all_moves).0;
                &replayed
            };
            tree_size += m.size();
            if m.counts.contradictions > 0 {
                problems.push(format!(
                    "{}: {} answers contradict each other",
                    m.root(),
                    m.counts.contradictions
                ));
            }
            problems.extend(m.disagreements());
        }
        // Re-solve a random sample of logged answers with a fresh solver.
        let answered: Vec<&prove::JobRecord> = log
            .jobs
            .iter()
            .filter(|j| j.answer != prove::Answer::Open)
            .collect();
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        let mut rng = SplitMix64::new(seed);
        let n = self.samples.min(answered.len());
        let solver = Solver::new(
            prove::worker::solver_config(WorkerConfig {
                hash_mb: self.hash_mb,
                shared_table: false,
                method: Method::AlphaBeta,
                warm_entries: 0,
                harvest_plies: 0,
            }),
            None,
        )
        .map_err(super::solve::solve_error)?;
        let mut picked: Vec<usize> = (0..answered.len()).collect();
        for i in 0..n {
            let k = i + rng.below((picked.len() - i) as u64) as usize;
            picked.swap(i, k);
        }
        for &i in &picked[..n] {
            let j = answered[i];
            let got = solver
                .answer(&j.pos, j.question, None)
                .map_err(CliError::failure)?;
            if Some(got) != j.answer.as_bool() {
                problems.push(format!(
                    "{} {}: logged {}, solved again {}",
                    j.pos,
                    prove::log::question_text(j.question),
                    j.answer.text(),
                    prove::Answer::of_bool(got).text()
                ));
            }
        }
        if let Some(t) = log.damaged.iter().find(|d| d.torn) {
            println!(
                "note: {}:{}: a torn last line (a run was killed while writing it)",
                t.file.display(),
                t.line
            );
        }
        println!(
            "checked {} jobs, {} positions in the trees of {} root(s), {} answers solved again: {}",
            log.jobs.len(),
            tree_size,
            roots.len(),
            n,
            if problems.is_empty() {
                "no disagreement".to_string()
            } else {
                format!("{} problem(s)", problems.len())
            }
        );
        if problems.is_empty() {
            return Ok(());
        }
        for p in problems.iter().take(10) {
            println!("  {p}");
        }
        Err(CliError::failure(format!(
            "{}: the proof log does not check",
            dir.display()
        )))
    }

    fn merge(&self) -> Result<(), CliError> {
        let Some(out) = &self.dir else {
            return Err(CliError::input("--merge needs --dir OUT"));
        };
        let report = prove::merge(&self.merge, out).map_err(log_error)?;
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

    fn simulate(&self, dir: &PathBuf) -> Result<(), CliError> {
        let list = self.workers.as_deref().unwrap_or("8,64,256,1024");
        let counts: Result<Vec<usize>, _> = list.split(',').map(|s| s.trim().parse()).collect();
        let counts = counts
            .ok()
            .filter(|c| !c.is_empty() && !c.contains(&0))
            .ok_or_else(|| {
                CliError::input(format!("--workers {list}: expected counts like 8,64"))
            })?;
        let log = prove::read_logs(std::slice::from_ref(dir), None).map_err(log_error)?;
        report_damage(&log);
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
