//! The proof manager against the solver and plain minimax: `prove
//! --all-moves` with tiny job budgets (deep expansion) on 1, 2 and 3
//! workers gives every first move's `solve` value; every answer it logs is
//! true; a run killed at random moments resumes to the same values and
//! leaves no wrong line; damaged, torn and foreign lines are reported and
//! never believed; `--check` finds a wrong line; logs merge.

mod common;

use common::*;
use peasant::prove::{
    self, Answer, LogContents, LogWriter, Manager, ManagerConfig, Method, RunEnd, RunOptions,
    ThreadWorkers, WorkerConfig, Workers,
};
use peasant::*;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::AtomicBool;

fn position(setup: &str, board: &str, en_passant: bool) -> Position {
    let rules = Rules {
        en_passant,
        seventh_rank_wins: false,
    };
    parse_position(setup, Some(board.parse().unwrap()), rules).unwrap()
}

fn read(dir: &Path, variant: Variant) -> LogContents {
    prove::read_dir_log(dir, variant).unwrap()
}

/// Runs the manager on `pos` (all moves) in `dir` to the end or to
/// `max_jobs`, every job that runs out of budget expanding its position;
/// returns the root's and every move's value as text.
fn prove_in(
    pos: &Position,
    dir: &Path,
    job_nodes: u64,
    workers: usize,
    max_jobs: Option<u64>,
) -> (String, RunEnd, Manager) {
    prove_with(pos, dir, [job_nodes, job_nodes], workers, max_jobs, true)
}

/// `budgets`: the first and the largest budget of a job.
fn prove_with(
    pos: &Position,
    dir: &Path,
    budgets: [u64; 2],
    workers: usize,
    max_jobs: Option<u64>,
    all_moves: bool,
) -> (String, RunEnd, Manager) {
    prove_by(
        Method::AlphaBeta,
        pos,
        dir,
        budgets,
        workers,
        max_jobs,
        all_moves,
    )
}

/// [`prove_with`] with workers running `method` (proof-number workers
/// hand on 1000 warm-start entries).
fn prove_by(
    method: Method,
    pos: &Position,
    dir: &Path,
    budgets: [u64; 2],
    workers: usize,
    max_jobs: Option<u64>,
    all_moves: bool,
) -> (String, RunEnd, Manager) {
    let run = Run {
        budgets,
        workers,
        max_jobs,
        all_moves,
        warm_entries: 1000,
        harvest_plies: 2,
    };
    prove_run(method, pos, dir, run)
}

/// How [`prove_run`] runs.
#[derive(Clone, Copy)]
struct Run {
    budgets: [u64; 2],
    workers: usize,
    max_jobs: Option<u64>,
    all_moves: bool,
    warm_entries: usize,
    harvest_plies: usize,
}

fn prove_run(method: Method, pos: &Position, dir: &Path, run: Run) -> (String, RunEnd, Manager) {
    let Run {
        budgets,
        workers,
        max_jobs,
        all_moves,
        warm_entries,
        harvest_plies,
    } = run;
    let log = read(dir, pos.variant());
    assert!(log.damaged.is_empty(), "{:?}", log.damaged);
    let mut writer = LogWriter::open(dir, pos.variant()).unwrap();
    // One shared table, or (on odd worker counts and tiny first budgets)
    // one table each, as MPI ranks have.
    let config = WorkerConfig {
        hash_mb: 1,
        shared_table: workers.is_multiple_of(2) || budgets[0] > 1000,
        method,
        warm_entries,
        harvest_plies,
    };
    // Proof-number workers keep their warm starts in the directory.
    let warm = prove::WarmStore::new(dir, pos.variant());
    let mut pool = ThreadWorkers::new(workers, config, None).unwrap();
    let config = ManagerConfig {
        job_nodes: budgets[0],
        max_job_nodes: budgets[1],
        growth: 4,
        workers,
        all_moves,
    };
    let mut manager = Manager::new(*pos, config, &log);
    let found = warm.load();
    assert!(found.damaged.is_empty(), "{:?}", found.damaged);
    manager.add_warm(found.pairs);
    let stop = AtomicBool::new(false);
    let end = prove::run(
        &mut manager,
        &mut pool,
        &mut writer,
        &RunOptions {
            stop: &stop,
            progress: None,
            max_jobs,
            max_time: None,
            warm: Some(&warm),
            announce: None,
        },
    )
    .unwrap();
    assert_eq!(manager.counts.contradictions, 0);
    (values_text(&manager), end, manager)
}

/// An `--all-moves` manager whose every job that runs out of its
/// `job_nodes` expands its position (the finest-grained proof).
fn expanding(job_nodes: u64, workers: usize) -> ManagerConfig {
    ManagerConfig {
        job_nodes,
        max_job_nodes: job_nodes,
        growth: 4,
        workers,
        all_moves: true,
    }
}

fn values_text(m: &Manager) -> String {
    let moves: Vec<String> = m
        .move_values()
        .iter()
        .map(|mv| format!("{} {}", mv.san, prove::wdl_text(mv.value)))
        .collect();
    format!("{} | {}", prove::wdl_text(m.value()), moves.join(", "))
}

/// A fresh solver (a small table of its own): the truth the proofs are
/// checked against.
fn fresh_solver() -> Solver<'static> {
    Solver::new(
        SolverConfig {
            hash_mb: 4,
            ..SolverConfig::default()
        },
        None,
    )
    .unwrap()
}

/// `solve`'s values in the same form.
fn solved_text(pos: &Position) -> String {
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

/// Every yes/no line of `dir`'s log is true (checked by a fresh solver).
fn every_line_true(dir: &Path, variant: Variant) -> usize {
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

fn cases() -> Vec<(&'static str, Position)> {
    let mut v = vec![
        ("pawn game 5x5", position("pawngame", "5x5", true)),
        ("pawn game 6x6", position("pawngame", "6x6", true)),
        ("pawn game 6x6 no ep", position("pawngame", "6x6", false)),
        ("peasants 3x8", position("peasants", "3x8", true)),
        ("pawn race 6x6 a:f", position("pawnrace:a:f", "6x6", true)),
        ("pawn race 6x6 c:d", position("pawnrace:c:d", "6x6", true)),
        ("pawn race 6x6 b:b", position("pawnrace:b:b", "6x6", true)),
    ];
    let variant = Variant::new("5x6".parse().unwrap(), Rules::default());
    let mut rng = SplitMix64::new(11);
    let mut k = 0;
    while k < 4 {
        if let Some(p) = random_position(variant, &mut rng) {
            if !p.is_game_over() {
                v.push(("random 5x6", p));
                k += 1;
            }
        }
    }
    v
}

#[test]
fn all_moves_equal_solve_with_tiny_budgets_on_1_2_3_workers() {
    for (i, (name, pos)) in cases().into_iter().enumerate() {
        let expected = solved_text(&pos);
        let workers = 1 + i % 3;
        // Tiny budgets (a 6x6 solve is some 300,000 nodes) force expansion
        // many plies deep.
        let budget = if name.contains("6x6") || name.contains("3x8") {
            [150, 300, 500][i % 3]
        } else {
            [20, 40, 60][i % 3]
        };
        // Every other case lets an open job go on with bigger budgets
        // (continued on the same worker) before its position is expanded.
        let budgets = [budget, budget * [1, 64][i % 2]];
        let dir = temp_dir(&format!("prove-eq-{i}"));
        let (got, end, m) = prove_with(&pos, &dir, budgets, workers, None, true);
        assert_eq!(end, RunEnd::Complete, "{name}");
        assert_eq!(got, expected, "{name} ({pos}), {workers} workers");
        // Tiny budgets must have forced expansion below the first moves
        // (more workers may have split running jobs before any ran out).
        let log = read(&dir, pos.variant());
        let opens = log.jobs.iter().filter(|j| j.answer == Answer::Open).count();
        assert!(
            opens > 0 || m.size() < 10 || workers > 1,
            "{name}: no job ran out of budget"
        );
        every_line_true(&dir, pos.variant());
        // A second run solves nothing again.
        let (again, end, m2) = prove_with(&pos, &dir, budgets, workers, None, true);
        assert_eq!(end, RunEnd::Complete);
        assert_eq!(again, expected);
        assert_eq!(
            m2.counts.jobs, 0,
            "{name}: a resumed complete proof ran jobs"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Workers that run the proof-number search (`prove --method pn`) give
/// the same values as `solve` on every small case, with tiny budgets on
/// 1, 2 and 3 workers (shared or separate tables), and log only true
/// answers.
#[test]
fn proof_number_workers_equal_solve() {
    for (i, (name, pos)) in cases().into_iter().enumerate() {
        let expected = solved_text(&pos);
        let workers = 1 + (i + 1) % 3;
        let budget = if name.contains("6x6") || name.contains("3x8") {
            [200, 400, 800][i % 3]
        } else {
            [20, 40, 60][i % 3]
        };
        let budgets = [budget, budget * [1, 16][i % 2]];
        let dir = temp_dir(&format!("prove-pn-{i}"));
        let (got, end, m) = prove_by(
            Method::ProofNumber,
            &pos,
            &dir,
            budgets,
            workers,
            None,
            true,
        );
        assert_eq!(end, RunEnd::Complete, "{name}");
        assert_eq!(got, expected, "{name} ({pos}), {workers} pn workers");
        // One worker grows the tree only from jobs that run out; more
        // workers may grow it by splitting running jobs before any does.
        let log = read(&dir, pos.variant());
        assert!(
            log.jobs.iter().any(|j| j.answer == Answer::Open) || m.size() < 10 || workers > 1,
            "{name}: no job ran out of budget"
        );
        every_line_true(&dir, pos.variant());
    }
}

/// `prove --method pn` on the command line: the pawn game 6x6 with every
/// first move, as `solve` gives it; a method it does not know is refused
/// in one line (exit status 2) before any directory is made.
#[test]
fn the_command_line_runs_proof_number_workers() {
    let pos = position("pawngame", "6x6", true);
    let dir = temp_dir("prove-cli-pn");
    let d = dir.to_str().unwrap();
    let args = |method| prove_6x6_args(d, "200", &["--method", method, "--json", "--quiet"]);
    let (code, out, err) = run_cli(&args("alpha"));
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!dir.exists(), "a refused run made its directory");
    let (code, out, err) = run_cli(&args("pn"));
    assert_eq!(code, 0, "{err}");
    let j = json_of(&out);
    assert_eq!(json_values_text(&j), solved_text(&pos));
    assert_eq!(j["complete"], true);
    every_line_true(&dir, pos.variant());
}

/// The bigger small games, where `solve` takes seconds: the pawn game 7x7
/// with and without en passant, Peasants' Chess 4x8, three Pawn Race 7x7
/// pairs and random positions of 4x8, on 1, 2 and 3 workers with job
/// budgets a thousandth of the solve or less (minutes: `cargo test
/// --release --test prove -- --ignored`).
#[test]
#[ignore]
fn bigger_games_equal_solve_on_1_2_3_workers() {
    let mut cases = vec![
        ("pawn game 7x7", position("pawngame", "7x7", true)),
        ("pawn game 7x7 no ep", position("pawngame", "7x7", false)),
        ("peasants 4x8", position("peasants", "4x8", true)),
        ("pawn race 7x7 a:e", position("pawnrace:a:e", "7x7", true)),
        ("pawn race 7x7 d:e", position("pawnrace:d:e", "7x7", true)),
        ("pawn race 7x7 g:c", position("pawnrace:g:c", "7x7", true)),
    ];
    let variant = Variant::new("4x8".parse().unwrap(), Rules::default());
    let mut rng = SplitMix64::new(48);
    while cases.len() < 9 {
        if let Some(p) = random_position(variant, &mut rng) {
            if !p.is_game_over() && p.count_moves() > 1 {
                cases.push(("random 4x8", p));
            }
        }
    }
    for (i, (name, pos)) in cases.into_iter().enumerate() {
        let expected = solved_text(&pos);
        let workers = 1 + i % 3;
        let budget = [5_000, 10_000, 20_000][i % 3];
        let budgets = [budget, budget * [1, 16][i % 2]];
        let dir = temp_dir(&format!("prove-big-{i}"));
        let (got, end, m) = prove_with(&pos, &dir, budgets, workers, None, true);
        assert_eq!(end, RunEnd::Complete, "{name}");
        assert_eq!(got, expected, "{name} ({pos}), {workers} workers");
        let log = read(&dir, pos.variant());
        let opens = log.jobs.iter().filter(|j| j.answer == Answer::Open).count();
        assert!(opens > 0 || m.size() < 10, "{name}: no job ran out");
        let checked = every_line_true(&dir, pos.variant());
        println!(
            "{name}: {} ({workers} workers, budgets {budgets:?}): {} jobs, {opens} open, {checked} answers re-solved",
            got,
            log.jobs.len()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn small_games_against_minimax() {
    // Small games against plain minimax, with jobs of one node: the
    // manager expands nearly every position itself, down to the games
    // over by rule and the stalemates (`3/2p/ppP/3/3 b -` is drawn by one).
    for (setup, board, ep, budget) in [
        ("pawngame", "5x5", false, 10),
        ("pawngame", "4x5", true, 1),
        ("pawngame", "4x4", true, 1),
        ("3/2p/ppP/3/3 b -", "3x5", true, 1),
        ("pawngame", "3x6", true, 1),
        ("peasants", "2x8", true, 1),
    ] {
        let pos = position(setup, board, ep);
        let mut memo = MinimaxMemo::default();
        let expected_root = minimax(&pos, &mut memo).wdl();
        let dir = temp_dir(&format!("prove-mm-{board}-{ep}"));
        let (_, end, m) = prove_in(&pos, &dir, budget, 2, None);
        assert_eq!(end, RunEnd::Complete);
        assert_eq!(m.value(), Some(expected_root), "{setup} {board}");
        for (mv, &m2) in m.move_values().iter().zip(pos.legal_moves().iter()) {
            let child = pos.play(m2);
            let v = prove::negate(minimax(&child, &mut memo).wdl());
            assert_eq!(mv.value, Some(v), "{setup} {board} {}", mv.san);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn value_only_and_stopped_runs_resume() {
    // Value only: the root's value, from a run cut into pieces of 5 jobs.
    let pos = position("pawngame", "6x6", true);
    let expected = Solver::new(SolverConfig::default(), None)
        .unwrap()
        .solve(&pos)
        .unwrap()
        .wdl;
    let dir = temp_dir("prove-pieces");
    let mut pieces = 0;
    loop {
        let (_, end, m) = prove_with(&pos, &dir, [500, 8000], 2, Some(5), false);
        pieces += 1;
        if end == RunEnd::Complete {
            assert_eq!(m.value(), Some(expected));
            break;
        }
        assert_eq!(m.value(), None);
        assert!(pieces < 1000);
    }
    assert!(pieces > 2, "the run was not cut");
    every_line_true(&dir, pos.variant());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn open_jobs_continue_with_bigger_budgets_until_the_largest() {
    // One worker, first budget 200, largest 200 * 4^3: a job that runs out
    // is asked again at 4 times its budget (continuing its predecessor,
    // its `dep`) up to 12,800 nodes, and only then is its position
    // expanded.
    let pos = position("pawngame", "6x6", true);
    let dir = temp_dir("prove-grow");
    let (got, end, _) = prove_with(&pos, &dir, [200, 12_800], 1, None, true);
    assert_eq!(end, RunEnd::Complete);
    assert_eq!(got, solved_text(&pos));
    let log = read(&dir, pos.variant());
    let jobs: std::collections::HashMap<u64, &prove::JobRecord> =
        log.jobs.iter().map(|j| (j.id, j)).collect();
    let (mut continued, mut expanded) = (0, 0);
    // `known` lines name the job that knew them, not a parent.
    for j in log.jobs.iter().filter(|j| j.kind != prove::LineKind::Known) {
        let Some(prev) = jobs.get(&j.dep) else {
            continue;
        };
        if prev.pos == j.pos && prev.question == j.question {
            // A continuation of an open attempt below the largest budget
            // (often cheaper than its predecessor: the worker's table
            // still holds the predecessor's work).
            assert_eq!(prev.answer, Answer::Open);
            assert!(prev.nodes < 12_800, "continued after {prev:?}");
            continued += 1;
        } else {
            // A child of an expanded position: its parent's job had the
            // largest budget.
            assert!(prev.nodes >= 12_800, "expanded after {prev:?}");
            expanded += 1;
        }
    }
    assert!(continued > 0 && expanded > 0, "{continued} {expanded}");
    every_line_true(&dir, pos.variant());
}

#[test]
fn a_resumed_run_continues_logged_attempts_below_the_largest_budget() {
    // A first run with every `open` expanding (first and largest budget
    // 200) stops after its first job, which ran out.
    let pos = position("pawngame", "6x6", true);
    let dir = temp_dir("prove-resume-continue");
    let (_, end, _) = prove_with(&pos, &dir, [200, 200], 1, Some(1), true);
    assert_eq!(end, RunEnd::JobLimit);
    let log = read(&dir, pos.variant());
    let first = log.jobs[0].clone();
    assert_eq!(first.answer, Answer::Open);
    let config = |max_job_nodes| ManagerConfig {
        job_nodes: 200,
        max_job_nodes,
        growth: 4,
        workers: 1,
        all_moves: true,
    };
    // Resumed with a larger largest budget: the logged attempt is
    // continued at 4 times its nodes, its node is not expanded.
    let mut resumed = Manager::new(pos, config(12_800), &log);
    let leaves = resumed.size();
    let job = resumed.next_job().unwrap();
    assert_eq!((job.pos, job.question), (first.pos, first.question));
    assert_eq!(job.budget, (4 * first.nodes).clamp(200, 12_800));
    // Resumed with the same largest budget: expanded, as before.
    let expanded = Manager::new(pos, config(200), &log);
    assert!(expanded.size() > leaves, "{} {leaves}", expanded.size());

    // The log holds an `open` attempt on a child of that node and a (true)
    // answer on a grandchild: the answer is below the node, so the node
    // is expanded, and so is the child, and the resumed proof meets it.
    let child = pos_after_first_move(&first.pos);
    let grandchild = pos_after_first_move(&child);
    let solver = Solver::new(SolverConfig::default(), None).unwrap();
    let truth = solver.answer(&grandchild, first.question, None).unwrap();
    let mut writer = LogWriter::open(&dir, pos.variant()).unwrap();
    for (p, answer) in [(child, Answer::Open), (grandchild, Answer::of_bool(truth))] {
        let mut record = first.clone();
        record.pos = peasant::rules::canonical(&p);
        record.answer = answer;
        record.id = read(&dir, pos.variant()).max_id() + 1;
        writer.append_job(&record).unwrap();
        writer.sync().unwrap();
    }
    drop(writer);
    let log = read(&dir, pos.variant());
    let below = Manager::new(pos, config(12_800), &log);
    assert!(
        below.size() > expanded.size(),
        "{} {}",
        below.size(),
        expanded.size()
    );
    // Without the answer, both are continued.
    let mut log = log;
    log.jobs.pop();
    let unanswered = Manager::new(pos, config(12_800), &log);
    assert_eq!(unanswered.size(), leaves);

    // The proof resumed from the one-job log to its end: solve's values,
    // the logged attempt continued by a job that names it as its `dep`.
    let dir = temp_dir("prove-resume-continue-end");
    prove_with(&pos, &dir, [200, 200], 1, Some(1), true);
    let (got, end, _) = prove_with(&pos, &dir, [200, 12_800], 1, None, true);
    assert_eq!(end, RunEnd::Complete);
    assert_eq!(got, solved_text(&pos));
    let log = read(&dir, pos.variant());
    let first = &log.jobs[0];
    assert!(log.jobs[1..].iter().any(|j| j.dep == first.id
        && (j.pos, j.question) == (first.pos, first.question)
        && j.nodes <= 4 * first.nodes));
    every_line_true(&dir, pos.variant());
}

/// Yes/no lines of `dir`'s log that a fresh solver contradicts.
fn false_lines(dir: &Path, variant: Variant) -> usize {
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

/// A mutant pool: local workers whose known answers are turned round.
struct LyingWorkers(ThreadWorkers);

impl Workers for LyingWorkers {
    fn count(&self) -> usize {
        self.0.count()
    }
    fn start(&mut self, job: prove::Job) -> Result<(), prove::WorkerError> {
        self.0.start(job)
    }
    fn cancel(&mut self, id: u64) {
        self.0.cancel(id)
    }
    fn wait(
        &mut self,
        timeout: std::time::Duration,
    ) -> Result<Option<prove::JobResult>, prove::WorkerError> {
        Ok(self.0.wait(timeout)?.map(|mut r| {
            for k in &mut r.known {
                k.2 = !k.2;
            }
            r
        }))
    }
}

/// What an `open` job's worker proved below its position settles those
/// pairs without jobs (`known` lines): the proof gives `solve`'s values
/// with fewer jobs, under either search, and every logged answer is true.
/// A pool that hands back known answers turned round (the mutant) is
/// caught: wrong values, contradictions or false lines.
#[test]
fn answers_known_below_a_job_settle_positions_without_jobs() {
    let cases = [
        (
            "pawn game 6x6",
            position("pawngame", "6x6", true),
            Method::AlphaBeta,
        ),
        (
            "peasants 4x8",
            position("peasants", "4x8", true),
            Method::ProofNumber,
        ),
    ];
    for (name, pos, method) in cases {
        let expected = solved_text(&pos);
        let mut jobs = Vec::new();
        for harvest_plies in [0, 2] {
            let dir = temp_dir(&format!(
                "prove-known-{}-{harvest_plies}",
                jobs.len() * 7 + name.len()
            ));
            let run = Run {
                budgets: [2_000, 2_000],
                workers: 1,
                max_jobs: None,
                all_moves: true,
                warm_entries: 0,
                harvest_plies,
            };
            let (got, end, m) = prove_run(method, &pos, &dir, run);
            assert_eq!(end, RunEnd::Complete, "{name}");
            assert_eq!(got, expected, "{name}, {harvest_plies} plies");
            assert_eq!(false_lines(&dir, pos.variant()), 0, "{name}");
            let known = read(&dir, pos.variant())
                .jobs
                .iter()
                .filter(|j| j.kind == prove::LineKind::Known)
                .count();
            assert_eq!(known as u64, m.counts.known, "{name}");
            assert_eq!(known > 0, harvest_plies > 0, "{name}: {known} known lines");
            jobs.push(m.counts.jobs);
        }
        assert!(
            jobs[1] < jobs[0],
            "{name}: jobs without and with known answers {jobs:?}"
        );

        // The mutant.
        let dir = temp_dir(&format!("prove-known-lies-{}", name.len()));
        let config = WorkerConfig {
            hash_mb: 1,
            shared_table: true,
            method,
            warm_entries: 0,
            harvest_plies: 2,
        };
        let mut pool = LyingWorkers(ThreadWorkers::new(1, config, None).unwrap());
        let config = expanding(2_000, 1);
        let mut manager = Manager::new(pos, config, &read(&dir, pos.variant()));
        let mut writer = LogWriter::open(&dir, pos.variant()).unwrap();
        let stop = AtomicBool::new(false);
        let options = RunOptions {
            stop: &stop,
            progress: None,
            max_jobs: None,
            max_time: None,
            warm: None,
            announce: None,
        };
        let _ = prove::run(&mut manager, &mut pool, &mut writer, &options);
        let caught = values_text(&manager) != expected
            || manager.counts.contradictions > 0
            || false_lines(&dir, pos.variant()) > 0;
        assert!(caught, "{name}: the lying workers went unnoticed");
    }
}

/// An `--all-moves` proof settles the root's value first. As in the 6x8
/// proof, the log says black avoids losing after 1.a4: the first two jobs
/// are then what "does white win?" at the start still needs, "does black
/// avoid losing?" after 1.b4 and after 1.c4 (1.d4 and 1.e4 are their mirror
/// images), not "does black win?" after 1.a4 or 1.b4, which only the
/// first moves' own values need (the mutant: the first moves alone as
/// goals, as before, asks those first).
#[test]
fn an_all_moves_proof_settles_the_root_first() {
    use peasant::solve::Question;
    let pos = position("peasants", "5x8", true);
    let dir = temp_dir("prove-root-first");
    let after = |mv: &str| rules::canonical(&pos.play(pos.parse_move(mv).unwrap()));
    let mut writer = LogWriter::open(&dir, pos.variant()).unwrap();
    writer
        .append_job(&prove::JobRecord {
            pos: after("a4"),
            question: Question::AvoidsLoss,
            answer: Answer::Yes,
            nodes: 1000,
            seconds: 0.1,
            best: None,
            id: 1,
            dep: 0,
            kind: prove::LineKind::Job,
        })
        .unwrap();
    writer.sync().unwrap();
    drop(writer);
    let config = expanding(1000, 2);
    let mut m = Manager::new(pos, config, &read(&dir, pos.variant()));
    let mut asked: Vec<(String, bool)> = (0..2)
        .map(|_| {
            let job = m.next_job().unwrap();
            (job.pos.to_string(), job.question == Question::AvoidsLoss)
        })
        .collect();
    asked.sort();
    let mut expected = vec![
        (after("b4").to_string(), true),
        (after("c4").to_string(), true),
    ];
    expected.sort();
    assert_eq!(asked, expected, "(position, asks 'does it avoid losing?')");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A worker's result of job `id`, as the tests' stand-in workers give it.
fn result_of(id: u64, answer: Answer, cancelled: bool) -> prove::JobResult {
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
    }
}

/// A fresh solver's answer to a job, as a worker's result.
fn true_result(solver: &Solver, job: &prove::Job) -> prove::JobResult {
    let truth = solver.answer(&job.pos, job.question, None).unwrap();
    result_of(job.id, Answer::of_bool(truth), false)
}

/// Hands `r` to the manager and keeps the lines it logs in `log`.
fn finish_into(m: &mut Manager, r: &prove::JobResult, log: &mut LogContents) {
    log.jobs.extend(m.finish(r));
    log.jobs.extend(m.take_records());
}

/// The value-only proof of the pawn game 5x5's start (a draw) by hand, on
/// `workers` workers, with its first two jobs running: "does white win?"
/// and "does white avoid losing?".
struct StartProof {
    pos: Position,
    solver: Solver<'static>,
    config: ManagerConfig,
    /// The lines the manager has logged so far.
    log: LogContents,
    m: Manager,
    wins: prove::Job,
    avoids: prove::Job,
}

fn start_proof_5x5(workers: usize) -> StartProof {
    use peasant::solve::Question;
    let pos = position("pawngame", "5x5", true);
    let config = ManagerConfig {
        all_moves: false,
        ..expanding(1000, workers)
    };
    let log = LogContents {
        variant: pos.variant(),
        jobs: Vec::new(),
        roots: Vec::new(),
        damaged: Vec::new(),
    };
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

/// A worker that finds no free leaf splits a running job: the proof of
/// the pawn game 5x5's start (a draw; its value only) is two questions at
/// first, so the third of three workers gets a question one ply below
/// them. The split job then answers its own question ("does white win?",
/// no) while the jobs below, answered truly (a fresh solver), settle the
/// other and make its job unneeded; the value is solve's. The lines the
/// manager logged name only earlier lines as their `dep` (what a merge
/// keeps), and a manager resumed from them, as after a kill with the split
/// job's line lost as well, knows the value without a job. Mutants: no
/// split (the third worker gets no job); the split not logged at once (the
/// resumed manager asks the start's question again).
#[test]
fn an_idle_worker_splits_a_running_job() {
    use peasant::solve::Question;
    let StartProof {
        pos,
        solver,
        config,
        mut log,
        mut m,
        wins,
        avoids,
    } = start_proof_5x5(3);
    let root_key = rules::position_key(&rules::canonical(&pos));
    for job in [&wins, &avoids] {
        assert_eq!(rules::position_key(&job.pos), root_key);
    }
    let third = m.next_job().expect("a job below the running ones");
    let children: Vec<u128> = pos
        .legal_moves()
        .iter()
        .map(|&mv| rules::position_key(&rules::canonical(&pos.play(mv))))
        .collect();
    assert!(children.contains(&rules::position_key(&third.pos)));
    log.jobs.extend(m.take_records());
    // The job on "does white win?" answers itself, truly (no).
    finish_into(&mut m, &true_result(&solver, &wins), &mut log);
    // The third worker answers every job it is given until "does white
    // avoid losing?" follows from the children; that job is cancelled.
    let mut job = third;
    let mut answered = 0;
    loop {
        finish_into(&mut m, &true_result(&solver, &job), &mut log);
        answered += 1;
        if m.unneeded_jobs().contains(&avoids.id) {
            break;
        }
        assert!(answered < 500, "the jobs below never settled the start");
        job = m.next_job().expect("the third worker is never idle");
    }
    finish_into(&mut m, &result_of(avoids.id, Answer::Open, true), &mut log);
    assert!(m.done());
    let value = solver.solve_root(&pos, &|_, _| {}).unwrap().value.wdl;
    assert_eq!(m.value(), Some(value));
    let mut earlier = std::collections::HashSet::from([0]);
    for line in &log.jobs {
        assert!(earlier.contains(&line.dep), "a later dep: {line:?}");
        earlier.insert(line.id);
    }
    // Resumed from the lines (and without the split job's own line).
    for lost in [None, Some(wins.id)] {
        let lines = LogContents {
            jobs: log
                .jobs
                .iter()
                .filter(|l| Some(l.id) != lost)
                .cloned()
                .collect(),
            ..log.clone()
        };
        let mut resumed = Manager::new(pos, config, &lines);
        if lost.is_none() {
            assert!(resumed.done(), "the resumed proof is not complete");
            assert_eq!(resumed.value(), Some(value));
        }
        // Either way the start's "does white avoid losing?" is known.
        let asked = std::iter::from_fn(|| resumed.next_job())
            .take(3)
            .collect::<Vec<_>>();
        assert!(
            asked
                .iter()
                .all(|j| rules::position_key(&j.pos) != root_key || j.question == Question::Wins),
            "the resumed proof asks the start again: {asked:?}"
        );
    }
}

/// A split whose question the answers a job's worker knew below settle
/// (`known` lines, not jobs' own) is met again on resume: the pawn game
/// 5x5's start, value only, two workers; "does white win?" answers no and
/// its worker knew every child's "does black win?"; the idle worker splits
/// the other job, and the known answers settle it. A resumed manager (as
/// a run would make it, and as `--status` does) knows the value. Mutant
/// (split positions continued like others): it asks the start again.
#[test]
fn a_split_settled_by_known_answers_survives_a_resume() {
    use peasant::solve::Question;
    let StartProof {
        pos,
        solver,
        config,
        mut log,
        mut m,
        wins,
        avoids,
    } = start_proof_5x5(2);
    let mut r = true_result(&solver, &wins);
    assert_eq!(r.answer(), Answer::No, "the start is a draw");
    for &mv in pos.legal_moves().iter() {
        let c = rules::canonical(&pos.play(mv));
        let known = solver.answer(&c, Question::Wins, None).unwrap();
        r.known.push((c, Question::Wins, known));
    }
    finish_into(&mut m, &r, &mut log);
    let _ = m.next_job();
    log.jobs.extend(m.take_records());
    assert!(
        m.done(),
        "the known answers settle the split job's question"
    );
    assert!(m.unneeded_jobs().contains(&avoids.id));
    finish_into(&mut m, &result_of(avoids.id, Answer::Open, true), &mut log);
    let status = ManagerConfig {
        job_nodes: 1,
        max_job_nodes: 1,
        growth: 2,
        workers: 1,
        all_moves: false,
    };
    for config in [config, status] {
        let mut resumed = Manager::new(pos, config, &log);
        assert!(
            resumed.done(),
            "{config:?}: the resumed proof asks {:?}",
            resumed.next_job().map(|j| (j.pos, j.question))
        );
    }
}

/// A merge keeps the `dep` of jobs below a second split of the same pair:
/// the two splits' lines are alike (no nodes), so the second is skipped as
/// a duplicate and the jobs below it name the first.
#[test]
fn a_merge_keeps_the_dep_of_jobs_below_a_repeated_split() {
    use peasant::solve::Question;
    let pos = position("pawngame", "5x5", true);
    let root = rules::canonical(&pos);
    let kids: Vec<Position> = pos
        .legal_moves()
        .iter()
        .map(|&mv| rules::canonical(&pos.play(mv)))
        .collect();
    let line = |p: Position, answer, nodes, id, dep| prove::JobRecord {
        pos: p,
        question: if p == root {
            Question::AvoidsLoss
        } else {
            Question::Wins
        },
        answer,
        nodes,
        seconds: if nodes > 0 { 1.0 } else { 0.0 },
        best: None,
        id,
        dep,
        kind: if nodes > 0 {
            prove::LineKind::Job
        } else {
            prove::LineKind::Split
        },
    };
    let lines = [
        line(root, Answer::Open, 0, 1, 0),
        line(kids[0], Answer::Open, 10, 2, 1),
        line(root, Answer::Open, 0, 3, 0),
        line(kids[1], Answer::Open, 11, 4, 3),
    ];
    let dir = temp_dir("prove-merge-splits");
    let (from, to) = (dir.join("from"), dir.join("to"));
    let mut writer = LogWriter::open(&from, pos.variant()).unwrap();
    for l in &lines {
        writer.append_job(l).unwrap();
    }
    writer.sync().unwrap();
    drop(writer);
    let report = prove::merge(&[from], &to).unwrap();
    assert_eq!(report.duplicates, 1);
    let merged = read(&to, pos.variant());
    let split = merged.jobs.iter().find(|j| j.pos == root).unwrap().id;
    for kid in &kids[..2] {
        let below = merged.jobs.iter().find(|j| j.pos == *kid).unwrap();
        assert_eq!(below.dep, split, "{below:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// What a running job asks, as `prove` announces its long jobs: the line
/// of real moves from the root leads to the job's position (canonically),
/// and the question is put to the side to move there. Checked for the
/// next 300 jobs of a 5x5 proof that has expanded 40 positions: the free
/// leaves first, then jobs below split running ones (deeper lines).
#[test]
fn a_running_job_is_named_by_its_line_and_question() {
    use peasant::solve::Question;
    let pos = position("pawngame", "5x5", true);
    let dir = temp_dir("prove-job-text");
    let (_, end, _) = prove_in(&pos, &dir, 20, 1, Some(40));
    assert_eq!(end, RunEnd::JobLimit);
    let config = expanding(20, 1);
    let mut m = Manager::new(pos, config, &read(&dir, pos.variant()));
    let (mut jobs, mut longest) = (0, 0);
    while let Some(job) = m.next_job().filter(|_| jobs < 300) {
        let text = m.job_text(job.id).unwrap();
        let (place, asked) = text.split_once(": does ").unwrap();
        let mut at = pos;
        let mut plies = 0;
        if place != "the root" {
            for san in place.split_whitespace().filter(|t| !t.contains('.')) {
                at = at.play(at.parse_move(san).unwrap());
                plies += 1;
            }
        }
        assert_eq!(
            rules::position_key(&rules::canonical(&at)),
            rules::position_key(&job.pos),
            "{text}"
        );
        let question = match job.question {
            Question::Wins => "win?",
            Question::AvoidsLoss => "avoid losing?",
        };
        assert_eq!(asked, format!("{} {question}", at.turn()), "{text}");
        longest = longest.max(plies);
        jobs += 1;
    }
    assert!(
        jobs >= 10 && longest >= 3,
        "{jobs} jobs, longest line {longest}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--announce-nodes N` prints a start and an end line for every job of
/// N nodes or more, and none for smaller jobs.
#[test]
fn prove_announces_its_long_jobs() {
    let dir = temp_dir("prove-announce");
    let d = dir.to_str().unwrap();
    let budgets = ["--job-nodes", "20", "--max-job-nodes", "20"];
    let one_worker = ["--workers", "1", "--hash-mb", "1"];
    let args = [&one_worker[..], &budgets, &["--announce-nodes", "20"]].concat();
    let (code, _, err) = prove_5x5_in("pawngame", d, &args);
    assert_eq!(code, 0, "{err}");
    let starts: Vec<&str> = err.lines().filter(|l| l.contains(" starts: ")).collect();
    let ends: Vec<&str> = err.lines().filter(|l| l.contains(" ends: ")).collect();
    assert!(starts[0].starts_with("prove: job 1 starts: 1. "), "{err}");
    assert!(
        starts.iter().all(|l| l.ends_with(", budget 20 nodes")),
        "{err}"
    );
    let jobs = log_lines(&dir)
        .iter()
        .filter(|l| l.starts_with("job\t"))
        .count();
    let cancelled = ends.iter().filter(|l| l.contains(" cancelled ")).count();
    assert_eq!(starts.len(), ends.len(), "{err}");
    assert_eq!(ends.len() - cancelled, jobs, "{err}");
    for (i, start) in starts.iter().enumerate() {
        let id = start.split(' ').nth(2).unwrap();
        let what = start.split(" starts: ").nth(1).unwrap();
        let what = what.rsplit_once(", budget").unwrap().0;
        let end = ends
            .iter()
            .find(|l| l.starts_with(&format!("prove: job {id} ends: {what} ")))
            .unwrap_or_else(|| panic!("job {id} ({i}) never ends: {err}"));
        let answer = end.split(" ends: ").nth(1).unwrap()[what.len()..].trim_start();
        assert!(
            ["yes,", "no,", "open,", "cancelled "]
                .iter()
                .any(|a| answer.starts_with(a)),
            "{end}"
        );
    }
    let again = temp_dir("prove-announce-none");
    let (code, _, err) = prove_5x5_in(
        "pawngame",
        again.to_str().unwrap(),
        &[&one_worker[..], &budgets].concat(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains(" starts: "), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&again);
}

/// A proof-number proof cut into runs of one job, as a long proof is cut
/// into sittings: with warm starts every continued job goes on from the
/// top of its last attempt's search (kept in DIR/warm/, read by the next
/// run), so the cut proof costs far less than one whose continued jobs
/// start in an empty table; the values are solve's either way and every
/// logged answer is true.
#[test]
fn proof_number_runs_cut_short_go_on_from_their_warm_starts() {
    let pos = position("peasants", "4x8", true);
    let expected = solved_text(&pos);
    let mut total = Vec::new();
    for warm_entries in [0, 65536] {
        let dir = temp_dir(&format!("prove-warm-{warm_entries}"));
        let run = Run {
            budgets: [25_000, 1_600_000],
            workers: 1,
            max_jobs: Some(1),
            all_moves: false,
            warm_entries,
            harvest_plies: 2,
        };
        let mut files_seen = 0;
        let (got, m) = loop {
            let (got, end, m) = prove_run(Method::ProofNumber, &pos, &dir, run);
            let files = prove::WarmStore::new(&dir, pos.variant()).pairs().len();
            files_seen = files_seen.max(files);
            if end == RunEnd::Complete {
                break (got, m);
            }
            assert_eq!(end, RunEnd::JobLimit);
        };
        let root_value = |text: &str| text.split(" |").next().unwrap().to_string();
        assert_eq!(
            root_value(&got),
            root_value(&expected),
            "warm entries {warm_entries}"
        );
        assert_eq!(m.value(), Some(Wdl::Draw));
        assert_eq!(files_seen > 0, warm_entries > 0, "warm files written");
        every_line_true(&dir, pos.variant());
        total.push(
            read(&dir, pos.variant())
                .jobs
                .iter()
                .map(|j| j.nodes)
                .sum::<u64>(),
        );
    }
    // Node counts (one worker, one thread) are exact: 10.0 M cold against
    // 3.0 M warm when this test was written.
    assert!(
        total[1] * 10 < total[0] * 7,
        "cold {} nodes, warm {} nodes",
        total[0],
        total[1]
    );
}

/// A complete proof leaves no warm start behind, not even one of a pair
/// it never needed (a job in flight when another worker completed the
/// proof leaves one; here one is put in the directory by hand).
#[test]
fn a_complete_proof_leaves_no_warm_start() {
    let pos = position("pawngame", "5x5", true);
    let dir = temp_dir("prove-warm-complete");
    std::fs::create_dir_all(&dir).unwrap();
    let store = prove::WarmStore::new(&dir, pos.variant());
    // A pair two plies in, "does the side to move win?".
    let first = pos.play(pos.legal_moves()[0]);
    let key = rules::position_key(&rules::canonical(&first.play(first.legal_moves()[0])));
    store.save(key, 0, &[]).unwrap();
    assert_eq!(store.pairs().len(), 1);
    let run = Run {
        budgets: [2_000, 2_000],
        workers: 1,
        max_jobs: None,
        all_moves: false,
        warm_entries: 65536,
        harvest_plies: 2,
    };
    let (_, end, _) = prove_run(Method::ProofNumber, &pos, &dir, run);
    assert_eq!(end, RunEnd::Complete);
    assert!(store.pairs().is_empty(), "{:?}", store.pairs());
}

/// A run that ends with a job in flight (--max-seconds; Ctrl-C and
/// --max-jobs alike) stops it and logs it as `open` with the nodes it
/// searched, its warm start in DIR/warm/; the next run continues that job
/// (its first job names the stopped one as the job it continues).
/// `prove peasants --board 5x8` in `dir` with one worker, a small table,
/// `extra` and a time limit of `secs`: Peasants' Chess 5x8 takes far longer.
fn prove_5x8_args<'a>(dir: &'a str, extra: &[&'a str], secs: &'a str) -> Vec<&'a str> {
    let mut args = vec!["prove", "peasants", "--board", "5x8", "--dir", dir];
    args.extend(["--workers", "1", "--hash-mb", "16", "--quiet"]);
    args.extend(extra);
    args.extend(["--max-seconds", secs]);
    args
}

#[test]
fn a_run_that_ends_logs_its_job_in_flight_with_its_warm_start() {
    let dir = temp_dir("prove-in-flight");
    let d = dir.to_str().unwrap();
    let args = prove_5x8_args(d, &["--method", "pn", "--job-nodes", "1000000000"], "2");
    let (code, out, err) = run_cli(&args);
    assert_eq!(code, 3, "{out}{err}");
    let variant = position("peasants", "5x8", true).variant();
    // The jobs' lines (`known` lines aside).
    let jobs = |log: LogContents| -> Vec<prove::JobRecord> {
        log.jobs
            .into_iter()
            .filter(|j| j.kind != prove::LineKind::Known)
            .collect()
    };
    let log = read(&dir, variant);
    assert!(log.damaged.is_empty());
    // What the stopped job's table knew one ply below it is logged at
    // once (the next run may expand it, with its table gone).
    let children: Vec<u128> = {
        let pos = log.jobs[0].pos;
        pos.legal_moves()
            .iter()
            .map(|&m| rules::position_key(&rules::canonical(&pos.play(m))))
            .collect()
    };
    for k in log.jobs.iter().filter(|j| j.kind == prove::LineKind::Known) {
        assert_eq!(k.dep, log.jobs[0].id);
        assert!(children.contains(&k.key()), "{}", k.pos);
    }
    let log = jobs(log);
    assert_eq!(log.len(), 1, "the stopped job is logged");
    let first = &log[0];
    assert_eq!(first.answer, Answer::Open);
    assert!(
        first.nodes > 0 && first.nodes < 1_000_000_000,
        "{}",
        first.nodes
    );
    let store = prove::WarmStore::new(&dir, variant);
    let found = store.load();
    assert!(found.damaged.is_empty(), "{:?}", found.damaged);
    assert_eq!(found.pairs.len(), 1);
    let warm = found.pairs.values().next().unwrap();
    assert!(!warm.is_empty() && warm.len() <= 65536, "{}", warm.len());
    let (code, out, err) = run_cli(&args);
    assert_eq!(code, 3, "{out}{err}");
    let log = jobs(read(&dir, variant));
    assert_eq!(log.len(), 2, "{log:?}");
    assert_eq!(
        log[1].dep, first.id,
        "the second run continues the first job"
    );
    assert_eq!((log[1].pos, log[1].question), (first.pos, first.question));
    // A damaged warm start is reported and not believed; the run goes on.
    let file = std::fs::read_dir(dir.join(prove::WARM_DIR))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    std::fs::write(&file, bytes).unwrap();
    let (code, out, err) = run_cli(&args);
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("ignored"), "{err}");
    assert_eq!(jobs(read(&dir, variant)).len(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `prove peasants --board 4x8` with proof-number workers in `dir`, one
/// job per run (`--max-jobs 1`) until the proof is complete, each run
/// with `extra`: the total nodes of its logged jobs and the runs it took.
fn prove_4x8_in_runs_of_one_job(dir: &Path, extra: &[&str]) -> (u64, usize) {
    let d = dir.to_str().unwrap();
    let mut args = vec!["prove", "peasants", "--board", "4x8", "--dir", d];
    args.extend(["--workers", "1", "--hash-mb", "16", "--quiet", "--json"]);
    args.extend(["--method", "pn", "--job-nodes", "25000"]);
    args.extend(["--max-job-nodes", "1600000", "--max-jobs", "1"]);
    args.extend(extra);
    for runs in 1..=200 {
        let (code, out, err) = run_cli(&args);
        if code == 0 {
            let j = json_of(&out);
            assert_eq!(j["value"], "draw", "{out}");
            let variant = position("peasants", "4x8", true).variant();
            every_line_true(dir, variant);
            let nodes = read(dir, variant).jobs.iter().map(|j| j.nodes).sum();
            return (nodes, runs);
        }
        assert_eq!(code, 3, "{out}{err}");
    }
    panic!("not complete after 200 runs");
}

/// `--table-file`: a proof cut into runs goes on in the table the last
/// run left, so it costs what one uncut run costs, far less than runs
/// that start cold (no warm starts either); values and every logged
/// answer stay true.
#[test]
fn a_table_snapshot_carries_a_cut_proof_on_where_it_stopped() {
    let dir = temp_dir("prove-table-file");
    let (cold, _) = prove_4x8_in_runs_of_one_job(&dir.join("cold"), &["--warm-entries", "0"]);
    let file = dir.join("table.pnt");
    let f = file.to_str().unwrap();
    let (kept, runs) = prove_4x8_in_runs_of_one_job(
        &dir.join("kept"),
        &["--warm-entries", "0", "--table-file", f],
    );
    assert!(runs > 3, "{runs} runs");
    // The uncut proof, for scale.
    let d = dir.join("uncut");
    let common = "prove peasants --board 4x8 --workers 1 --hash-mb 16 --quiet --method pn";
    let words = |s: String| s.split(' ').map(str::to_string).collect::<Vec<String>>();
    let cli = |extra: String| {
        let args = words(format!("{common} {extra}"));
        run_cli(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let (code, out, err) = cli(format!(
        "--dir {} --job-nodes 25000 --max-job-nodes 1600000",
        d.display()
    ));
    assert_eq!(code, 0, "{out}{err}");
    let variant = position("peasants", "4x8", true).variant();
    let uncut: u64 = read(&d, variant).jobs.iter().map(|j| j.nodes).sum();
    // Node counts of one worker are exact; when this test was written:
    // cold 2,174,008, kept 887,470, uncut 887,470 (the same search).
    assert!(
        kept * 10 < uncut * 11 && kept * 3 < cold * 2,
        "cold {cold}, kept {kept}, uncut {uncut}"
    );
    assert!(file.exists() && !dir.join("table.pnt.tmp").exists());
    // A damaged snapshot: reported, its good part loaded, the run goes on.
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    let d2 = dir.join("damaged");
    let (code, out, err) = cli(format!("--dir {} --table-file {f}", d2.display()));
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("damaged"), "{err}");
    every_line_true(&d2, variant);
    // A snapshot of another game is refused before the run (it would be
    // overwritten), with one line and status 2; so are workers that share
    // no table.
    let d3 = dir.join("other");
    let (code, out, err) = cli(format!(
        "--no-en-passant --dir {} --table-file {f}",
        d3.display()
    ));
    assert_eq!(
        (code, out.as_str(), err.lines().count()),
        (2, "", 1),
        "{err}"
    );
    assert!(err.contains("another game"), "{err}");
    for extra in [
        &["--method", "ab"][..],
        &["--method", "pn", "--emulate", "2"][..],
    ] {
        let mut args = vec!["prove", "pawngame", "--board", "5x5", "--dir"];
        args.extend([d3.to_str().unwrap(), "--table-file", f]);
        args.extend(extra);
        let (code, out, err) = run_cli(&args);
        assert_eq!(
            (code, out.as_str(), err.lines().count()),
            (2, "", 1),
            "{err}"
        );
    }
}

/// The position after the first legal move of `pos`.
fn pos_after_first_move(pos: &Position) -> Position {
    pos.play(pos.legal_moves()[0])
}

fn peasant() -> Command {
    Command::new(env!("CARGO_BIN_EXE_peasant"))
}

fn run_cli(args: &[&str]) -> (i32, String, String) {
    let out = peasant().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `prove pawngame --board 6x6 --dir DIR --all-moves` on two workers with
/// `job_nodes`-node jobs and a 1 MiB table, then `extra`.
fn prove_6x6_args<'a>(dir: &'a str, job_nodes: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "prove",
        "pawngame",
        "--board",
        "6x6",
        "--dir",
        dir,
        "--all-moves",
        "--workers",
        "2",
        "--job-nodes",
        job_nodes,
        "--hash-mb",
        "1",
    ];
    args.extend_from_slice(extra);
    args
}

fn json_of(text: &str) -> serde_json::Value {
    serde_json::from_str(text.trim()).unwrap()
}

/// The values of `prove --json`'s object in `solved_text`'s form.
fn json_values_text(j: &serde_json::Value) -> String {
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

#[test]
fn killed_runs_resume_to_the_same_values() {
    let pos = position("pawngame", "6x6", true);
    let expected = solved_text(&pos);
    let dir = temp_dir("prove-kill");
    let d = dir.to_str().unwrap();
    let mut rng = SplitMix64::new(7);
    for _ in 0..6 {
        let mut child = peasant()
            .args(prove_6x6_args(d, "30", &["--quiet"]))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(5 + rng.below(120)));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        // Whatever the kill cut, the log holds only true lines (a torn last
        // line is reported, not believed).
        let log = prove::read_logs(&[dir.path().to_path_buf()], Some(pos.variant())).unwrap();
        assert!(log.damaged.iter().all(|d| d.torn), "{:?}", log.damaged);
        every_line_true(&dir, pos.variant());
    }
    let (code, out, err) = run_cli(&prove_6x6_args(d, "30", &["--json", "--quiet"]));
    assert_eq!(code, 0, "{err}");
    let j = json_of(&out);
    assert_eq!(j["complete"], true);
    assert_eq!(json_values_text(&j), expected);
    every_line_true(&dir, pos.variant());
    let (code, out, _) = run_cli(&["prove", "--status", d, "--json"]);
    assert_eq!(code, 0);
    assert_eq!(json_of(&out)["complete"], true);
    let (code, out, err) = run_cli(&["prove", "--check", d, "--samples", "10"]);
    assert_eq!(code, 0, "{out}{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_time_limit_and_an_interruption_say_which_they_were() {
    // Peasants' Chess 5x8 takes far longer than either stop.
    let dir = temp_dir("prove-stops");
    let d = dir.to_str().unwrap();
    let args = |secs| prove_5x8_args(d, &["--job-nodes", "100000"], secs);
    let (code, out, err) = run_cli(&args("1"));
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("stopped by --max-seconds"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    // Ctrl-C long before the time limit: an interruption (status 130).
    let child = peasant()
        .args(args("600"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Once a job is logged the run is under way (its Ctrl-C handler set).
    let log = dir.join(prove::LOG_FILE);
    for _ in 0..600 {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        if text.lines().any(|l| l.starts_with("job\t")) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    assert!(!err.contains("--max-seconds"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A complete proof of the pawn game 5x5 in a fresh directory.
fn proof_5x5(name: &str) -> TempDir {
    let dir = temp_dir(name);
    let (code, _, err) = prove_5x5_cli("pawngame", dir.to_str().unwrap());
    assert_eq!(code, 0, "{err}");
    dir
}

/// `prove POS --board 5x5 --dir DIR --all-moves`, then `extra`.
fn prove_5x5_in(pos: &str, dir: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["prove", pos, "--board", "5x5", "--dir", dir, "--all-moves"];
    args.extend_from_slice(extra);
    run_cli(&args)
}

/// `prove POS --all-moves` on 5x5 in `dir`: one worker, 20-node jobs that
/// expand when they run out.
fn prove_5x5_cli(pos: &str, dir: &str) -> (i32, String, String) {
    let one_worker = ["--workers", "1", "--hash-mb", "1", "--quiet"];
    let budgets = ["--job-nodes", "20", "--max-job-nodes", "20"];
    prove_5x5_in(pos, dir, &[&one_worker[..], &budgets].concat())
}

/// Resumes the 5x5 proof in `d` with `--all-moves --json`.
fn resume_5x5_json(d: &str) -> (i32, String, String) {
    prove_5x5_in("pawngame", d, &["--job-nodes", "20", "--json", "--quiet"])
}

fn log_lines(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join(prove::LOG_FILE))
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

fn write_lines(dir: &Path, lines: &[String], torn_tail: Option<&str>) {
    let mut text = lines.join("\n") + "\n";
    if let Some(t) = torn_tail {
        text.push_str(t);
    }
    std::fs::write(dir.join(prove::LOG_FILE), text).unwrap();
}

#[test]
fn damaged_logs_are_reported_and_never_believed() {
    let dir = proof_5x5("prove-damage");
    let d = dir.to_str().unwrap();
    let lines = log_lines(&dir);
    let (k, job) = lines
        .iter()
        .enumerate()
        .find(|(_, l)| l.starts_with("job\t") && l.contains("\tyes\t"))
        .map(|(k, l)| (k, l.clone()))
        .unwrap();
    let variant = Variant::new("5x5".parse().unwrap(), Rules::default());

    // A flipped byte: the line is damaged, reported, left out.
    let mut flipped = lines.clone();
    flipped[k] = job.replacen("\tyes\t", "\tno\t", 1);
    write_lines(&dir, &flipped, None);
    let log = prove::read_logs(&[dir.path().to_path_buf()], Some(variant)).unwrap();
    assert_eq!(log.damaged.len(), 1);
    assert!(log.damaged[0].why.contains("checksum"));
    assert_eq!(log.jobs.len(), lines.len() - 3); // header, root, damaged
    let (code, out, err) = run_cli(&["prove", "--check", d, "--samples", "3"]);
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("damaged line"), "{err}");
    // Resuming re-solves what the damaged line said and completes.
    let (code, out, err) = resume_5x5_json(d);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_of(&out)["value"], "draw");
    assert!(err.contains("1 damaged line"), "{err}");

    // A torn last line: reported, and the next line starts clean.
    let mut torn = lines.clone();
    let last = torn.pop().unwrap();
    write_lines(&dir, &torn, Some(&last[..last.len() / 2]));
    let log = prove::read_logs(&[dir.path().to_path_buf()], Some(variant)).unwrap();
    assert_eq!(log.damaged.len(), 1);
    assert!(log.damaged[0].torn);
    let (code, out, err) = resume_5x5_json(d);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_of(&out)["complete"], true);
    let log = prove::read_logs(&[dir.path().to_path_buf()], Some(variant)).unwrap();
    assert_eq!(log.damaged.len(), 1, "{:?}", log.damaged);
    assert!(
        !log.damaged[0].torn,
        "the torn line must be closed by a newline"
    );

    // A line of another game (no en passant) pasted in: foreign, ignored.
    let other = temp_dir("prove-damage-other");
    let (code, _, err) = run_cli(&[
        "prove",
        "pawngame",
        "--board",
        "5x5",
        "--no-en-passant",
        "--dir",
        other.to_str().unwrap(),
        "--job-nodes",
        "20",
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let foreign = log_lines(&other)
        .into_iter()
        .find(|l| l.starts_with("job\t"))
        .unwrap();
    let mut mixed = lines.clone();
    mixed.push(foreign);
    write_lines(&dir, &mixed, None);
    let log = prove::read_logs(&[dir.path().to_path_buf()], Some(variant)).unwrap();
    assert_eq!(log.damaged.len(), 1);
    assert!(
        log.damaged[0].why.contains("foreign"),
        "{}",
        log.damaged[0].why
    );
    // Asking a directory of one game about another: bad input.
    let (code, _, err) = run_cli(&[
        "prove",
        "pawngame",
        "--board",
        "5x5",
        "--no-en-passant",
        "--dir",
        d,
        "--quiet",
    ]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    // A wrong answer with a good checksum (a solver bug, a forged line):
    // `--check` re-solves or cross-checks it and fails.
    let wrong = job.replacen("\tyes\t", "\tno\t", 1);
    let body = &wrong[..wrong.rfind('\t').unwrap()];
    let forged = format!("{body}\t{:08x}", crc32fast_hash(body.as_bytes()));
    let mut bad = lines.clone();
    bad[k] = forged;
    write_lines(&dir, &bad, None);
    let (code, out, _) = run_cli(&["prove", "--check", d, "--samples", "1000"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("logged no"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&other);
}

/// CRC-32 (IEEE), as the log writes it.
fn crc32fast_hash(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn logs_merge_and_concatenate() {
    let pos = position("pawngame", "6x6", false);
    let expected = solved_text(&pos);
    let (a, b) = (temp_dir("prove-merge-a"), temp_dir("prove-merge-b"));
    // Two machines: each does part of the proof.
    prove_in(&pos, &a, 50, 1, Some(15));
    prove_in(&pos, &b, 50, 2, Some(25));
    let out = temp_dir("prove-merge-out");
    let (code, msg, err) = run_cli(&[
        "prove",
        "--merge",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--dir",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{msg}{err}");
    let merged = read(&out, pos.variant());
    let (la, lb) = (read(&a, pos.variant()), read(&b, pos.variant()));
    assert!(merged.jobs.len() <= la.jobs.len() + lb.jobs.len());
    assert!(merged.jobs.len() >= la.jobs.len().max(lb.jobs.len()));
    let (got, end, m) = prove_in(&pos, &out, 50, 2, None);
    assert_eq!(end, RunEnd::Complete);
    assert_eq!(got, expected);
    assert!(m.counts.jobs < m.counts.logged_jobs + m.counts.jobs);
    // Plain concatenation reads too.
    let cat = temp_dir("prove-merge-cat");
    std::fs::create_dir_all(&cat).unwrap();
    let text = std::fs::read_to_string(a.join(prove::LOG_FILE)).unwrap()
        + &std::fs::read_to_string(b.join(prove::LOG_FILE)).unwrap();
    std::fs::write(cat.join(prove::LOG_FILE), text).unwrap();
    let log = read(&cat, pos.variant());
    assert!(log.damaged.is_empty());
    assert_eq!(log.jobs.len(), la.jobs.len() + lb.jobs.len());
    for d in [a, b, out, cat] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    let dir = temp_dir("prove-bad");
    let d = dir.to_str().unwrap();
    for args in [
        vec!["prove", "pawngame", "--board", "9x9", "--dir", d],
        vec!["prove", "pawngame", "--board", "5x5"],
        vec![
            "prove",
            "pawngame",
            "--board",
            "5x5",
            "--dir",
            d,
            "--workers",
            "0",
        ],
        vec!["prove", "--status", d],
        vec!["prove", "--simulate", d, "--workers", "8,x"],
        vec![
            "prove",
            "pawngame",
            "--board",
            "5x5",
            "--dir",
            d,
            "--warm-entries",
            "4194305",
        ],
        vec![
            "prove",
            "pawngame",
            "--board",
            "5x5",
            "--dir",
            d,
            "--emulate",
            "0",
        ],
        vec![
            "prove",
            "pawngame",
            "--board",
            "5x5",
            "--dir",
            d,
            "--emulate",
            "4",
            "--tables",
            d,
        ],
        vec![
            "prove",
            "pawngame",
            "--board",
            "5x5",
            "--dir",
            d,
            "--job-nodes",
            "100",
            "--max-job-nodes",
            "99",
        ],
        vec!["prove"],
    ] {
        let (code, _, err) = run_cli(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    assert!(!dir.exists());
}

#[test]
fn status_tree_and_simulate() {
    let dir = proof_5x5("prove-status");
    let d = dir.to_str().unwrap();
    let (code, out, _) = run_cli(&["prove", "--status", d, "--tree"]);
    assert_eq!(code, 0);
    assert!(out.contains("draw (proof complete)"), "{out}");
    assert!(out.contains("by a job"), "{out}");
    // The tree shows real positions and moves (not the canonical forms
    // the log stores): every move line is a legal move of the position
    // above it, and the position below it is that move played.
    let lines: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("5/")).collect();
    let mut checked = 0;
    for w in lines.windows(3) {
        let depth = |l: &str| l.len() - l.trim_start().len();
        let (above, mv, below) = (w[0].trim(), w[1].trim(), w[2].trim());
        let steps = depth(w[1]) == depth(w[0]) + 2 && depth(w[2]) == depth(w[1]) + 2;
        if !steps || !above.contains('/') || mv.contains('/') {
            continue;
        }
        let fen = |l: &str| l.split(' ').take(3).collect::<Vec<_>>().join(" ");
        let parent = position(&fen(above), "5x5", true);
        let m = parent.parse_move(mv.split(' ').next().unwrap()).unwrap();
        assert_eq!(parent.play(m).to_string(), fen(below), "{above} {mv}");
        checked += 1;
    }
    assert!(checked >= 5, "{out}");
    // Where the work went: every logged job's position lies under some
    // first move (a transposition under several; an --all-moves proof runs
    // no job on the root itself), so the parts add up to at least the
    // log's nodes; the mirror images a3 and e3 share their positions,
    // hence their nodes.
    assert!(out.contains("nodes spent: on the root"), "{out}");
    let (code, out, _) = run_cli(&["prove", "--status", d, "--json"]);
    assert_eq!(code, 0);
    let j = json_of(&out);
    let below: Vec<u64> = j["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["nodes"].as_u64().unwrap())
        .collect();
    let total = j["nodes"].as_u64().unwrap();
    // `known` counts the log's `known` lines, `jobs` the rest.
    let log = read(&dir, position("pawngame", "5x5", true).variant());
    let known = log
        .jobs
        .iter()
        .filter(|j| j.kind == prove::LineKind::Known)
        .count() as u64;
    assert_eq!(j["known"].as_u64(), Some(known), "{out}");
    assert_eq!(
        j["jobs"].as_u64(),
        Some(log.jobs.len() as u64 - known),
        "{out}"
    );
    assert!(
        below.iter().all(|&n| n > 0 && n <= total),
        "{below:?} of {total}"
    );
    assert!(below.iter().sum::<u64>() >= total, "{below:?} of {total}");
    assert_eq!(below[0], below[4], "a3 and e3: {below:?}");
    let (code, out, _) = run_cli(&["prove", "--simulate", d, "--workers", "1,8"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("critical path"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn emulated_workers_give_the_values_of_solve() {
    // Eight emulated workers (tables of their own, a virtual clock): the
    // proof's values are solve's, and the report adds up.
    let pos = position("pawngame", "6x6", true);
    let dir = temp_dir("prove-emulate");
    let d = dir.to_str().unwrap();
    let (code, out, err) = run_cli(&[
        "--json",
        "prove",
        "pawngame",
        "--board",
        "6x6",
        "--dir",
        d,
        "--all-moves",
        "--job-nodes",
        "500",
        "--hash-mb",
        "1",
        "--emulate",
        "8",
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let j = json_of(&out);
    assert_eq!(json_values_text(&j), solved_text(&pos));
    let e = &j["emulation"];
    assert_eq!(e["workers"], 8);
    let (work, span) = (
        e["work_nodes"].as_u64().unwrap(),
        e["makespan_nodes"].as_u64().unwrap(),
    );
    // Every logged job ran on some worker: the work is at least the
    // logged nodes (cancelled jobs add their part), and eight workers
    // finish no sooner than an eighth of it.
    assert!(work >= j["nodes"].as_u64().unwrap(), "{e}");
    assert!(span > 0 && span * 8 >= work, "{e}");
    let peak = e["peak_busy"].as_u64().unwrap();
    assert!((2..=8).contains(&peak), "{e}");
    every_line_true(&dir, pos.variant());
}

/// The peasant built with the `mpi` feature (PEASANT_MPI_BIN) when it and
/// `mpirun` are here; `None` (the test skips with one line) when they are
/// not, unless PEASANT_REQUIRE_EXTERNAL=1 (then the test fails).
fn mpi_bin() -> Option<String> {
    let required = std::env::var("PEASANT_REQUIRE_EXTERNAL").as_deref() == Ok("1");
    let bin = std::env::var("PEASANT_MPI_BIN").ok();
    let have_mpirun = Command::new("mpirun").arg("--version").output().is_ok();
    match (bin, have_mpirun) {
        (Some(bin), true) => Some(bin),
        _ if required => panic!(
            "PEASANT_REQUIRE_EXTERNAL=1 but mpirun or PEASANT_MPI_BIN (a peasant built with --features mpi) is missing"
        ),
        _ => {
            println!(
                "skipped: no mpirun or no PEASANT_MPI_BIN (tools/mpi_check.sh builds and runs it)"
            );
            None
        }
    }
}

/// `mpirun -np 3` (a manager and two workers) on the pawn game 6x6 with
/// tiny jobs, logging into `dir`.
fn mpi_prove_6x6(bin: &str, dir: &Path) -> Command {
    let mut c = Command::new("mpirun");
    c.args(["--allow-run-as-root", "--oversubscribe", "-np", "3", bin])
        .args([
            "prove",
            "pawngame",
            "--board",
            "6x6",
            "--dir",
            dir.to_str().unwrap(),
            "--all-moves",
            "--job-nodes",
            "40",
            "--hash-mb",
            "1",
            "--json",
            "--quiet",
        ]);
    c
}

#[test]
fn mpi_ranks_give_the_local_values() {
    let Some(bin) = mpi_bin() else { return };
    let pos = position("pawngame", "6x6", true);
    let expected = solved_text(&pos);
    let dir = temp_dir("prove-mpi");
    let out = mpi_prove_6x6(&bin, &dir).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j = json_of(stdout.lines().find(|l| l.starts_with('{')).unwrap());
    assert_eq!(json_values_text(&j), expected);
    every_line_true(&dir, pos.variant());
}

/// Proof-number workers on MPI ranks (a table each): warm starts travel
/// with the jobs and results, so every continued job may go to any rank;
/// the values are solve's. A run that ends by its time limit interrupts
/// the ranks' jobs, which are logged as `open` with their warm starts,
/// and the next run continues them.
#[test]
fn mpi_proof_number_ranks_hand_on_their_warm_starts() {
    let Some(bin) = mpi_bin() else { return };
    let pos = position("pawngame", "6x6", true);
    let dir = temp_dir("prove-mpi-pn");
    let mut c = mpi_prove_6x6(&bin, &dir);
    c.args(["--method", "pn", "--max-job-nodes", "2560"]);
    let out = c.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    let j = json_of(stdout.lines().find(|l| l.starts_with('{')).unwrap());
    assert_eq!(json_values_text(&j), solved_text(&pos));
    every_line_true(&dir, pos.variant());
    let log = read(&dir, pos.variant());
    assert!(
        log.jobs.iter().any(|j| j.dep != 0 && j.nodes > 40),
        "no job was continued"
    );
    let _ = std::fs::remove_dir_all(&dir);
    // Peasants' Chess 5x8 is far beyond a few seconds.
    let variant = position("peasants", "5x8", true).variant();
    let run = || {
        let mut c = Command::new("mpirun");
        c.args(["--allow-run-as-root", "--oversubscribe", "-np", "3", &bin])
            .args(["prove", "peasants", "--board", "5x8", "--dir"])
            .arg(&dir)
            .args([
                "--method",
                "pn",
                "--job-nodes",
                "1000000000",
                "--hash-mb",
                "16",
            ])
            .args(["--quiet", "--max-seconds", "3"]);
        let out = c.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(3), "{err}");
        assert!(!err.contains("garbled"), "{err}");
    };
    run();
    let first = read(&dir, variant).jobs;
    assert_eq!(first.len(), 2, "both ranks' jobs are logged: {first:?}");
    assert!(first
        .iter()
        .all(|j| j.answer == Answer::Open && j.nodes > 0));
    let found = prove::WarmStore::new(&dir, variant).load();
    assert!(found.damaged.is_empty(), "{:?}", found.damaged);
    assert_eq!(found.pairs.len(), 2);
    run();
    let jobs = read(&dir, variant).jobs;
    assert_eq!(jobs.len(), 4, "{jobs:?}");
    let mut continued: Vec<u64> = jobs[2..].iter().map(|j| j.dep).collect();
    continued.sort();
    assert_eq!(
        continued,
        [first[0].id.min(first[1].id), first[0].id.max(first[1].id)]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The process ids of the MPI ranks whose environment holds `token`, by
/// rank (OpenMPI names each rank in OMPI_COMM_WORLD_RANK, MPICH in
/// PMI_RANK).
fn ranks_with(token: &str) -> Vec<(u32, u32)> {
    let mut ranks = Vec::new();
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return ranks;
    };
    for p in procs.flatten() {
        let Ok(pid) = p.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(env) = std::fs::read(p.path().join("environ")) else {
            continue;
        };
        let vars: Vec<&[u8]> = env.split(|&b| b == 0).collect();
        if !vars.contains(&token.as_bytes()) {
            continue;
        }
        for v in vars {
            let v = String::from_utf8_lossy(v);
            let rank = v
                .strip_prefix("OMPI_COMM_WORLD_RANK=")
                .or_else(|| v.strip_prefix("PMI_RANK="));
            if let Some(r) = rank.and_then(|r| r.parse().ok()) {
                ranks.push((r, pid));
            }
        }
    }
    ranks
}

/// A worker rank killed (SIGKILL) in the middle of an MPI proof: MPI ends
/// the run, which loses at most the jobs in flight. The log holds only
/// true lines (a torn last line is reported, not believed), and the same
/// command run again resumes from it to `solve`'s values without asking
/// an answered question again.
#[test]
fn a_dead_mpi_worker_loses_only_its_jobs() {
    use std::time::{Duration, Instant};
    let Some(bin) = mpi_bin() else { return };
    let pos = position("pawngame", "6x6", true);
    let expected = solved_text(&pos);
    let dir = temp_dir("prove-mpi-dead");
    let log_lines = || {
        std::fs::read(dir.join("proof.log"))
            .map(|b| b.iter().filter(|&&c| c == b'\n').count())
            .unwrap_or(0)
    };
    // The whole proof is about 1,500 jobs; the worker dies after 100 of
    // them. A run that ends before the kill (a very slow start) is tried
    // again in a fresh directory.
    let mut killed = false;
    for attempt in 0..3 {
        let _ = std::fs::remove_dir_all(&dir);
        let token = format!("PEASANT_DEAD_RANK_TEST={}-{attempt}", std::process::id());
        let (key, value) = token.split_once('=').unwrap();
        let mut child = mpi_prove_6x6(&bin, &dir)
            .env(key, value)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while child.try_wait().unwrap().is_none() && started.elapsed() < Duration::from_secs(60) {
            if !killed && log_lines() >= 100 {
                if let Some(&(_, pid)) = ranks_with(&token).iter().find(|&&(r, _)| r == 1) {
                    let status = Command::new("kill")
                        .args(["-KILL", &pid.to_string()])
                        .status()
                        .unwrap();
                    killed = status.success();
                }
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let Some(status) = child.try_wait().unwrap() else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the run did not end within 60 s of a worker's death (killed: {killed})");
        };
        if killed {
            assert!(
                !status.success(),
                "a run whose worker died reported success"
            );
            break;
        }
    }
    assert!(killed, "three runs ended before a worker could be killed");
    let log = prove::read_logs(&[dir.path().to_path_buf()], Some(pos.variant())).unwrap();
    assert!(log.damaged.iter().all(|d| d.torn), "{:?}", log.damaged);
    let before = every_line_true(&dir, pos.variant());
    assert!(before > 0, "no answer logged before the death");
    let out = mpi_prove_6x6(&bin, &dir).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j = json_of(stdout.lines().find(|l| l.starts_with('{')).unwrap());
    assert_eq!(json_values_text(&j), expected);
    assert_eq!(j["complete"], true);
    every_line_true(&dir, pos.variant());
    let log = prove::read_logs(&[dir.path().to_path_buf()], Some(pos.variant())).unwrap();
    let mut answered = std::collections::HashSet::new();
    for job in log.jobs.iter().filter(|j| j.answer.as_bool().is_some()) {
        let key = format!("{} {:?}", job.pos, job.question);
        assert!(answered.insert(key.clone()), "asked again: {key}");
    }
    assert!(answered.len() > before, "the rerun added no answer");
    let (code, out, err) = run_cli(&["prove", "--check", dir.to_str().unwrap(), "--samples", "10"]);
    assert_eq!(code, 0, "{out}{err}");
}

/// The explorer's oracle answers from a proof directory: the pawn game 5x5
/// and every first move come back with source `proof` and `solve`'s
/// values, although its own search may take one node only; a position the
/// logs do not settle falls through to that search (and finds no answer).
#[test]
fn the_explorer_answers_from_proof_logs() {
    use peasant::explore::{Budget, Knowledge, Oracle, OracleError, ProofLogs, Source};
    let dir = proof_5x5("prove-explore");
    let logs = ProofLogs::read(&dir).unwrap();
    assert!(!logs.is_empty());
    assert_eq!(logs.damaged(), 0);
    let pos = parse_position("pawngame", Some("5x5".parse().unwrap()), Rules::default()).unwrap();
    assert_eq!(logs.variant(), pos.variant());
    assert!(logs.lookup(&pos).is_some());
    let oracle = Oracle::new(
        None,
        Budget {
            nodes: Some(1),
            time: None,
        },
    )
    .with_knowledge(std::sync::Arc::new(logs));
    let a = oracle.analyse(&pos).unwrap();
    assert_eq!(a.source, Source::Proof);
    let solver = Solver::new(SolverConfig::default(), None).unwrap();
    let root = solver.solve_root(&pos, &|_, _| {}).unwrap();
    assert_eq!(a.value.wdl, root.value.wdl);
    let mut got: Vec<String> = a
        .moves
        .iter()
        .map(|(m, s)| format!("{} {}", m.san(), s.wdl))
        .collect();
    let mut want: Vec<String> = root
        .moves
        .iter()
        .map(|(m, s)| format!("{} {}", m.san(), s.wdl))
        .collect();
    got.sort();
    want.sort();
    assert_eq!(got, want);
    // Two plies in, the logs may not know every move: then the one-node
    // search answers nothing, never a guess; whatever answers is right.
    for m in pos.legal_moves().iter() {
        let next = pos.play(*m);
        for r in next.legal_moves().iter() {
            let deep = next.play(*r);
            match oracle.analyse(&deep) {
                Ok(a) => assert_eq!(a.value.wdl, solver.solve(&deep).unwrap().wdl, "{deep}"),
                Err(e) => assert!(matches!(e, OracleError::NoAnswer(_)), "{e}"),
            }
        }
    }
}

/// A proof of a position after one move (`--all-moves`, as the 8x8 pawn
/// game's proof of 1.b4 was run) serves a later proof of the start from
/// the same directory: the first move's value is known before any job, the
/// later run asks nothing inside that subtree again, and `--status DIR
/// POS` reports any position of the log.
#[test]
fn an_earlier_root_serves_a_later_proof() {
    let start = position("pawngame", "5x5", true);
    let dir = temp_dir("prove-earlier-root");
    let first = start.legal_moves()[1];
    let child = start.play(first);
    let d = dir.to_str().unwrap();
    let (code, _, err) = prove_5x5_cli(&child.to_string(), d);
    assert_eq!(code, 0, "{err}");
    let child_jobs = read(&dir, start.variant()).jobs.len();
    let solved = solved_text(&start);
    let truth = solved
        .split(" | ")
        .nth(1)
        .unwrap()
        .split(", ")
        .find(|m| m.starts_with(&format!("{} ", first.san())))
        .unwrap()
        .to_string();

    // Before any job, the start's proof knows that move's value.
    let log = read(&dir, start.variant());
    let config = expanding(20, 1);
    let replayed = Manager::new(start, config, &log);
    assert!(
        values_text(&replayed).contains(&truth),
        "{}",
        values_text(&replayed)
    );

    let (code, out, err) = run_cli(&["prove", "--status", d, "pawngame", "--board", "5x5"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&truth), "{out}");

    // The proof of the start: solve's values, and no job of the new run
    // asks about a position the earlier proof already settled.
    let (values, end, _) = prove_with(&start, &dir, [20, 20], 1, None, true);
    assert_eq!(end, RunEnd::Complete);
    assert_eq!(values, solved);
    let log = read(&dir, start.variant());
    let earlier: std::collections::HashSet<(u128, peasant::solve::Question)> = log.jobs
        [..child_jobs]
        .iter()
        .filter(|j| j.answer != Answer::Open)
        .map(|j| (j.key(), j.question))
        .collect();
    for j in &log.jobs[child_jobs..] {
        assert!(
            !earlier.contains(&(j.key(), j.question)),
            "asked again: {} {:?}",
            j.pos,
            j.question
        );
    }
    // A run of the start from the command line (nothing left to do) logs
    // its root; the status of the directory then names both roots.
    let (code, _, err) = prove_5x5_in("pawngame", d, &["--quiet"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = run_cli(&["prove", "--status", d]);
    assert_eq!(code, 0);
    assert!(out.contains(&format!("earlier root {child}")), "{out}");
    // `--check` re-derives the trees of both roots.
    let (code, out, _) = run_cli(&["prove", "--check", d, "--samples", "0"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("trees of 2 root(s)"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
