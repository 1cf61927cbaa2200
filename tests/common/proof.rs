//! What the proof tests (tests/prove_*.rs) share: a [`ProofRun`] of the
//! manager on local workers, the truth to check proofs against (a fresh
//! solver), the stand-in workers' results handed to the manager by hand,
//! and `peasant prove` on the command line.

use super::{run_peasant, temp_dir, TempDir};
use peasant::prove::{
    self, Answer, LogContents, LogWriter, Manager, ManagerConfig, RunEnd, RunEvent, RunOptions,
    ThreadWorkers, WorkerConfig,
};
use peasant::solve::{Method, PnInit};
use peasant::{
    rules::{parse_position, Move, Position, Rules, Variant, Wdl},
    solve::{Solver, SolverConfig},
};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The setup `setup` on `board`, with or without en passant.
pub fn position(setup: &str, board: &str, en_passant: bool) -> Position {
    let rules = Rules {
        en_passant,
        seventh_rank_wins: false,
    };
    parse_position(setup, Some(board.parse().unwrap()), rules).unwrap()
}

/// The log of the proof directory `dir`.
pub fn read(dir: &Path, variant: Variant) -> LogContents {
    prove::read_dir_log(dir, variant).unwrap()
}

/// A proof run of the manager on local worker threads, logging into a
/// directory (resuming what it holds): `ProofRun::new(job_nodes)` is an
/// `--all-moves` proof on one alpha-beta worker whose every job that runs
/// out of its budget expands its position; proof-number workers hand on
/// 1000 warm-start entries, and every job reports what its table knew two
/// plies below.
#[derive(Clone, Copy, Debug)]
pub struct ProofRun {
    pub method: Method,
    /// The first and the largest budget of a job.
    pub budgets: [u64; 2],
    pub workers: usize,
    pub max_jobs: Option<u64>,
    pub all_moves: bool,
    pub warm_entries: usize,
    pub harvest_plies: usize,
    /// Threads each proof-number worker puts on its job.
    pub threads: usize,
    /// Proof-number workers on a shared table search as one team.
    pub spread_jobs: bool,
    /// How proof-number jobs order each side's moves.
    pub pn_init: PnInit,
}

impl ProofRun {
    pub fn new(job_nodes: u64) -> ProofRun {
        ProofRun {
            method: Method::AlphaBeta,
            budgets: [job_nodes, job_nodes],
            workers: 1,
            max_jobs: None,
            all_moves: true,
            warm_entries: 1000,
            harvest_plies: 2,
            threads: 1,
            spread_jobs: false,
            pn_init: PnInit::Guided,
        }
    }

    /// The largest budget a job grows to before its position is expanded.
    pub fn largest(self, max_job_nodes: u64) -> ProofRun {
        ProofRun {
            budgets: [self.budgets[0], max_job_nodes],
            ..self
        }
    }

    pub fn workers(self, workers: usize) -> ProofRun {
        ProofRun { workers, ..self }
    }

    /// Stops after `n` jobs.
    pub fn max_jobs(self, n: u64) -> ProofRun {
        ProofRun {
            max_jobs: Some(n),
            ..self
        }
    }

    /// The root's value only, not every first move's.
    pub fn value_only(self) -> ProofRun {
        ProofRun {
            all_moves: false,
            ..self
        }
    }

    pub fn method(self, method: Method) -> ProofRun {
        ProofRun { method, ..self }
    }

    pub fn warm_entries(self, warm_entries: usize) -> ProofRun {
        ProofRun {
            warm_entries,
            ..self
        }
    }

    pub fn threads(self, threads: usize) -> ProofRun {
        ProofRun { threads, ..self }
    }

    pub fn spread_jobs(self, spread_jobs: bool) -> ProofRun {
        ProofRun {
            spread_jobs,
            ..self
        }
    }

    /// Proof-number jobs ordering each side's moves by `pn_init`.
    pub fn pn_init(self, pn_init: PnInit) -> ProofRun {
        ProofRun { pn_init, ..self }
    }

    pub fn harvest_plies(self, harvest_plies: usize) -> ProofRun {
        ProofRun {
            harvest_plies,
            ..self
        }
    }

    /// Runs the proof of `pos` in `dir` to its end or to `max_jobs`: the
    /// values as [`values_text`] gives them, how the run ended, and the
    /// manager. The log must be undamaged, the warm starts too, and no
    /// answers may contradict each other.
    pub fn run(&self, pos: &Position, dir: &Path) -> (String, RunEnd, Manager) {
        let (values, end, manager, _) = self.run_with_events(pos, dir, &mut |_| {});
        (values, end, manager)
    }

    /// [`ProofRun::run`], every job's start announced to `on_event` (with
    /// the run's other events); last, the proof directory the log went on
    /// in if its name was given to another file during the run
    /// ([`LogWriter::diverted`]).
    pub fn run_with_events(
        &self,
        pos: &Position,
        dir: &Path,
        on_event: &mut dyn FnMut(RunEvent),
    ) -> (String, RunEnd, Manager, Option<PathBuf>) {
        let log = read(dir, pos.variant());
        assert!(log.damaged.is_empty(), "{:?}", log.damaged);
        let mut writer = LogWriter::open(dir, pos.variant()).unwrap();
        // One shared table, or (on odd worker counts and tiny first budgets)
        // one table each, as MPI ranks have.
        let config = WorkerConfig {
            hash_mb: 1,
            shared_tt: self.workers.is_multiple_of(2) || self.budgets[0] > 1000,
            method: self.method,
            warm_entries: self.warm_entries,
            harvest_plies: self.harvest_plies,
            share_solved: 0,
            share_every: 0,
            share_paths: false,
            share_paths_every: 0,
            threads: self.threads,
            locked_reads: false,
            spread_every: false,
            spread_jobs: self.spread_jobs,
            pn_init: self.pn_init,
        };
        // Proof-number workers keep their warm starts in the directory.
        let warm = prove::WarmStore::new(dir, pos.variant());
        let mut pool = ThreadWorkers::new(self.workers, config, None).unwrap();
        let config = ManagerConfig {
            job_nodes: self.budgets[0],
            max_job_nodes: self.budgets[1],
            growth: 4,
            workers: self.workers,
            all_moves: self.all_moves,
            keep_child: true,
        };
        let mut manager = Manager::new(*pos, config, &log);
        let found = warm.load();
        assert!(found.damaged.is_empty(), "{:?}", found.damaged);
        manager.add_warm(found.pairs);
        let stop = AtomicBool::new(false);
        let end = prove::run_with_events(
            &mut manager,
            &mut pool,
            &mut writer,
            &RunOptions {
                stop: &stop,
                progress: None,
                max_jobs: self.max_jobs,
                max_time: None,
                drain_after: None,
                max_virtual: None,
                warm: Some(&warm),
                announce: Some(0),
            },
            on_event,
        )
        .unwrap();
        assert_eq!(manager.counts.contradictions, 0);
        let diverted = writer.diverted().map(Path::to_path_buf);
        (values_text(&manager), end, manager, diverted)
    }
}

/// Run options with nothing but a stop flag: no progress, no limits, no
/// warm starts.
pub fn plain_options(stop: &AtomicBool) -> RunOptions<'_> {
    RunOptions {
        stop,
        progress: None,
        max_jobs: None,
        max_time: None,
        drain_after: None,
        max_virtual: None,
        warm: None,
        announce: None,
    }
}

/// An `--all-moves` manager whose every job that runs out of its
/// `job_nodes` expands its position (the finest-grained proof).
pub fn expanding(job_nodes: u64, workers: usize) -> ManagerConfig {
    ManagerConfig {
        job_nodes,
        max_job_nodes: job_nodes,
        growth: 4,
        workers,
        all_moves: true,
        keep_child: true,
    }
}

/// The manager's root value and every first move's, as "draw | a3 draw,
/// b3 loss, ...".
pub fn values_text(m: &Manager) -> String {
    let moves: Vec<String> = m
        .move_values()
        .iter()
        .map(|mv| format!("{} {}", mv.san, prove::wdl_text(mv.value)))
        .collect();
    format!("{} | {}", prove::wdl_text(m.value()), moves.join(", "))
}

/// A fresh solver (a small table of its own): the truth the proofs are
/// checked against.
pub fn fresh_solver() -> Solver<'static> {
    let mut config = SolverConfig::default();
    config.search.hash_mb = 4;
    Solver::new(config, None).unwrap()
}

/// `solve`'s values in [`values_text`]'s form.
pub fn solved_text(pos: &Position) -> String {
    let solver = fresh_solver();
    let root = solver.solve_root(pos, &|_, _| {}).unwrap();
    let mut by_move: Vec<(Move, Wdl)> = root.moves.iter().map(|&(m, s)| (m, s.wdl)).collect();
    let order = pos.legal_moves();
    by_move.sort_by_key(|(m, _)| order.iter().position(|x| x == m));
    let moves: Vec<String> = by_move
        .iter()
        .map(|(m, v)| format!("{} {v}", m.san()))
        .collect();
    format!("{} | {}", root.value.wdl, moves.join(", "))
}

/// Every yes/no line of `dir`'s log is true (checked by a fresh solver):
/// how many there are.
pub fn every_line_true(dir: &Path, variant: Variant) -> usize {
    let log = read(dir, variant);
    let solver = fresh_solver();
    let mut n = 0;
    for j in &log.jobs {
        if let Some(b) = j.answer.as_bool() {
            let truth = solver.answer(&j.pos, j.question, None).unwrap();
            assert_eq!(b, truth, "wrong line: {} {:?}", j.pos, j.question);
            n += 1;
        }
    }
    n
}

/// Yes/no lines of `dir`'s log that a fresh solver contradicts.
pub fn false_lines(dir: &Path, variant: Variant) -> usize {
    let log = read(dir, variant);
    let solver = Solver::new(SolverConfig::default(), None).unwrap();
    log.jobs
        .iter()
        .filter(|j| {
            j.answer
                .as_bool()
                .is_some_and(|b| b != solver.answer(&j.pos, j.question, None).unwrap())
        })
        .count()
}

/// The position after the first legal move of `pos`.
pub fn pos_after_first_move(pos: &Position) -> Position {
    pos.play(pos.legal_moves()[0])
}

// The manager by hand: the results stand-in workers hand in.

/// A worker's result of job `id`, as the tests' stand-in workers give it.
pub fn result_of(id: u64, answer: Answer, cancelled: bool) -> prove::JobResult {
    let end = match answer.as_bool() {
        _ if cancelled => prove::JobEnd::Cancelled,
        Some(answer) => prove::JobEnd::Answered { answer, best: None },
        None => prove::JobEnd::Open { warm: None },
    };
    prove::JobResult {
        id,
        end,
        nodes: u64::from(!cancelled),
        seconds: 0.0,
        known: Vec::new(),
        solved: Vec::new(),
        table: Default::default(),
    }
}

/// A fresh solver's answer to a job, as a worker's result.
pub fn true_result(solver: &Solver, job: &prove::Job) -> prove::JobResult {
    let truth = solver.answer(&job.pos, job.question, None).unwrap();
    result_of(job.id, Answer::of_bool(truth), false)
}

/// Hands `r` to the manager and keeps the lines it logs in `log`.
pub fn finish_into(m: &mut Manager, r: &prove::JobResult, log: &mut LogContents) {
    log.jobs.extend(m.finish(r));
    log.jobs.extend(m.take_records());
}

/// A proof log of `variant` with nothing in it, for a manager driven by
/// hand.
pub fn empty_log(variant: Variant) -> LogContents {
    LogContents {
        variant,
        jobs: Vec::new(),
        roots: Vec::new(),
        damaged: Vec::new(),
    }
}

/// The value-only proof of the pawn game 5x5's start (a draw) by hand, on
/// `workers` workers, with its first two jobs running: "does white win?"
/// and "does white avoid losing?".
pub struct StartProof {
    pub pos: Position,
    pub solver: Solver<'static>,
    pub config: ManagerConfig,
    /// The lines the manager has logged so far.
    pub log: LogContents,
    pub m: Manager,
    pub wins: prove::Job,
    pub avoids: prove::Job,
}

/// [`StartProof`] with first jobs of 1,000 nodes, continued up to
/// `max_job_nodes` (at 1,000, a job that runs out is expanded at once).
pub fn start_proof_5x5(workers: usize, max_job_nodes: u64) -> StartProof {
    use peasant::solve::Question;
    let pos = position("pawngame", "5x5", true);
    let config = ManagerConfig {
        all_moves: false,
        max_job_nodes,
        ..expanding(1000, workers)
    };
    let log = empty_log(pos.variant());
    let mut m = Manager::new(pos, config, &log);
    let (a, b) = (m.next_job().unwrap(), m.next_job().unwrap());
    let (wins, avoids) = if a.question == Question::Wins {
        (a, b)
    } else {
        (b, a)
    };
    StartProof {
        pos,
        solver: fresh_solver(),
        config,
        log,
        m,
        wins,
        avoids,
    }
}

// `peasant prove` on the command line.

/// `peasant ARGS` run to its end ([`run_peasant`]): its exit status,
/// stdout and stderr.
pub fn run_cli(args: &[&str]) -> (i32, String, String) {
    let out = run_peasant(args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The one JSON object of `text`.
pub fn json_of(text: &str) -> serde_json::Value {
    serde_json::from_str(text.trim()).unwrap()
}

/// The values of `prove --json`'s object in [`solved_text`]'s form.
pub fn json_values_text(j: &serde_json::Value) -> String {
    let moves: Vec<String> = j["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            format!(
                "{} {}",
                m["move"].as_str().unwrap(),
                m["value"].as_str().unwrap()
            )
        })
        .collect();
    format!("{} | {}", j["value"].as_str().unwrap(), moves.join(", "))
}

/// `prove pawngame --board 6x6 --dir DIR --all-moves` on two workers with
/// `job_nodes`-node jobs and a 1 MiB table, then `extra`.
pub fn prove_6x6_args<'a>(dir: &'a str, job_nodes: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["prove", "pawngame", "--board", "6x6", "--dir", dir];
    args.extend(["--all-moves", "--workers", "2", "--job-nodes", job_nodes]);
    args.extend(["--hash-mb", "1"]);
    args.extend_from_slice(extra);
    args
}

/// `prove peasants --board 5x8` in `dir` with one worker, a small table,
/// `extra` and a time limit of `secs`: Peasants' Chess 5x8 takes far longer.
pub fn prove_5x8_args<'a>(dir: &'a str, extra: &[&'a str], secs: &'a str) -> Vec<&'a str> {
    let mut args = vec!["prove", "peasants", "--board", "5x8", "--dir", dir];
    args.extend(["--workers", "1", "--hash-mb", "16", "--quiet"]);
    args.extend(extra);
    args.extend(["--max-seconds", secs]);
    args
}

/// `prove POS --board 5x5 --dir DIR --all-moves --method ab`, then
/// `extra`.
pub fn prove_5x5_in(pos: &str, dir: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["prove", pos, "--board", "5x5", "--dir", dir, "--all-moves"];
    args.extend(["--method", "ab"]);
    args.extend_from_slice(extra);
    run_cli(&args)
}

/// `prove POS --all-moves` on 5x5 in `dir`: one worker, 20-node jobs that
/// expand when they run out.
pub fn prove_5x5_cli(pos: &str, dir: &str) -> (i32, String, String) {
    let one_worker = ["--workers", "1", "--hash-mb", "1", "--quiet"];
    let budgets = ["--job-nodes", "20", "--max-job-nodes", "20"];
    prove_5x5_in(pos, dir, &[&one_worker[..], &budgets].concat())
}

/// A complete proof of the pawn game 5x5 in a fresh directory.
pub fn proof_5x5(name: &str) -> TempDir {
    let dir = temp_dir(name);
    let (code, _, err) = prove_5x5_cli("pawngame", dir.to_str().unwrap());
    assert_eq!(code, 0, "{err}");
    dir
}

/// The lines of `dir`'s log file.
pub fn log_lines(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join(prove::LOG_FILE))
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// Writes `lines` as `dir`'s log file, then `torn_tail` without a newline.
pub fn write_lines(dir: &Path, lines: &[String], torn_tail: Option<&str>) {
    let mut text = lines.join("\n") + "\n";
    if let Some(t) = torn_tail {
        text.push_str(t);
    }
    std::fs::write(dir.join(prove::LOG_FILE), text).unwrap();
}
