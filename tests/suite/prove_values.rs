//! The proof manager against the solver and plain minimax: `prove
//! --all-moves` with tiny job budgets (deep expansion) on 1, 2 and 3
//! workers, alpha-beta or proof-number, local or emulated, gives every
//! first move's `solve` value, and every answer it logs is true; answers
//! a job's worker knew below its position settle positions without jobs.

use crate::common::proof::*;
use crate::common::{self, *};
use peasant::prove::{
    self, Answer, LogWriter, Manager, RunEnd, ThreadWorkers, WorkerConfig, Workers,
};
use peasant::rules::{Position, Rules, Variant, Wdl};
use peasant::solve::{Method, PnEntry, PnInit};
use peasant::*;
use std::sync::atomic::AtomicBool;

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

/// The first job budget of case `i` (named `name`): one of `big` for the
/// 6x6 and 3x8 games, else of 20, 40 and 60 nodes, in turn.
fn tiny_budget(name: &str, i: usize, big: [u64; 3]) -> u64 {
    if name.contains("6x6") || name.contains("3x8") {
        big[i % 3]
    } else {
        [20, 40, 60][i % 3]
    }
}

#[test]
fn all_moves_equal_solve_with_tiny_budgets_on_1_2_3_workers() {
    for (i, (name, pos)) in cases().into_iter().enumerate() {
        let expected = solved_text(&pos);
        let workers = 1 + i % 3;
        // Every third pair of cases puts three threads on each job.
        let threads = [1, 1, 3][i / 2 % 3];
        // Tiny budgets (a 6x6 solve is some 300,000 nodes) force expansion
        // many plies deep.
        let budget = tiny_budget(name, i, [150, 300, 500]);
        // Every other case lets an open job go on with bigger budgets
        // (continued on the same worker) before its position is expanded.
        let budgets = [budget, budget * [1, 64][i % 2]];
        let dir = temp_dir(&format!("prove-eq-{i}"));
        let (got, end, m) = ProofRun::new(budgets[0])
            .largest(budgets[1])
            .workers(workers)
            .threads(threads)
            .run(&pos, &dir);
        assert_eq!(end, RunEnd::Complete, "{name}");
        assert_eq!(
            got, expected,
            "{name} ({pos}), {workers} workers of {threads} threads"
        );
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
        let (again, end, m2) = ProofRun::new(budgets[0])
            .largest(budgets[1])
            .workers(workers)
            .run(&pos, &dir);
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
/// 1, 2 and 3 workers (shared or separate tables) of one or two threads
/// each, in some cases the jobs on a shared table searching as one team
/// (`--pn-spread-jobs`), in some ordering each side's moves by the tuned
/// order (`--pn-init tuned`), and log only true answers.
#[test]
fn proof_number_workers_equal_solve() {
    for (i, (name, pos)) in cases().into_iter().enumerate() {
        let expected = solved_text(&pos);
        let workers = 1 + (i + 1) % 3;
        let threads = 1 + i % 2;
        let spread_jobs = i % 4 >= 2;
        let budget = tiny_budget(name, i, [50, 100, 200]);
        let budgets = [budget, budget * [1, 16][i % 2]];
        let dir = temp_dir(&format!("prove-pn-{i}"));
        let (got, end, m) = ProofRun::new(budgets[0])
            .largest(budgets[1])
            .workers(workers)
            .threads(threads)
            .spread_jobs(spread_jobs)
            .pn_init([PnInit::Guided, PnInit::Tuned][i % 5 / 3])
            .method(Method::ProofNumber)
            .run(&pos, &dir);
        assert_eq!(end, RunEnd::Complete, "{name}");
        assert_eq!(
            got, expected,
            "{name} ({pos}), {workers} pn workers of {threads} threads, spreading jobs {spread_jobs}"
        );
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

/// `prove --method pn --threads 2` on the command line: the pawn game 6x6
/// with every first move, as `solve` gives it; a method it does not know,
/// threads for alpha-beta jobs and no threads at all are refused in one
/// line (exit status 2) before any directory is made.
#[test]
fn the_command_line_runs_proof_number_workers() {
    let pos = position("pawngame", "6x6", true);
    let dir = temp_dir("prove-cli-pn");
    let d = dir.to_str().unwrap();
    let args = |method, threads| {
        let extra = [
            "--method",
            method,
            "--threads",
            threads,
            "--json",
            "--quiet",
        ];
        let mut args = prove_6x6_args(d, "200", &extra);
        // Tables of one bucket, full at once: the entries given up
        // include some with nodes below them.
        let mb = args.iter().position(|&a| a == "--hash-mb").unwrap() + 1;
        args[mb] = "0";
        args
    };
    for (method, threads) in [("alpha", "1"), ("ab", "0"), ("pn", "0")] {
        let (code, out, err) = run_cli(&args(method, threads));
        assert_eq!(code, 2, "{method} {threads}: {out}{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(!dir.exists(), "a refused run made its directory");
    }
    for method in ["pn", "ab"] {
        let (code, out, err) = run_cli(&args(method, "2"));
        assert_eq!(code, 0, "{method}: {err}");
        let j = json_of(&out);
        assert_eq!(json_values_text(&j), solved_text(&pos), "{method}");
        assert_eq!(j["complete"], true);
        // The jobs' stores into their tables, and in tables of one bucket
        // the entries they gave up. (Not bounded by the nodes: a thread
        // that leaves a node another thread of its team solved stores
        // its numbers without a node of its own.)
        let count = |field: &str| j[field].as_u64().unwrap();
        assert!(count("tt_stores") > 0, "{method}: {j}");
        assert!(count("tt_replaced") > 0, "{method}: {j}");
        assert!(count("tt_replaced") <= count("tt_stores"), "{method}: {j}");
        assert!(count("tt_replaced_max_work") > 0, "{method}: {j}");
        every_line_true(&dir, pos.variant());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `prove --method pn --pn-init tuned` on the command line: the pawn game
/// 6x6 with every first move, as `solve` gives it, in other nodes than
/// the guided order's (one worker of one thread: the same nodes every
/// time, so an order the workers ignore shows); an order it does not
/// know is refused in one line (exit status 2) before any directory is
/// made.
#[test]
fn the_command_line_orders_proof_number_workers() {
    let pos = position("pawngame", "6x6", true);
    let dir = temp_dir("prove-cli-pn-init");
    let d = dir.to_str().unwrap();
    let args = |init| {
        let mut args = vec!["prove", "pawngame", "--board", "6x6", "--dir", d];
        args.extend(["--all-moves", "--workers", "1", "--job-nodes", "500"]);
        args.extend(["--hash-mb", "4", "--method", "pn", "--json", "--quiet"]);
        args.extend(["--pn-init", init]);
        args
    };
    let (code, out, err) = run_cli(&args("sideways"));
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!dir.exists(), "a refused run made its directory");
    let mut nodes = Vec::new();
    for init in ["guided", "tuned"] {
        let (code, out, err) = run_cli(&args(init));
        assert_eq!(code, 0, "{init}: {err}");
        let j = json_of(&out);
        assert_eq!(json_values_text(&j), solved_text(&pos), "{init}");
        assert_eq!(j["complete"], true);
        assert_eq!(j["pn_init"], init);
        nodes.push(j["nodes"].as_u64().unwrap());
        every_line_true(&dir, pos.variant());
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert_ne!(
        nodes[0], nodes[1],
        "the tuned order searched the guided one's nodes"
    );
}

/// The bigger small games, where `solve` takes seconds: the pawn game 7x7
/// with and without en passant, Peasants' Chess 4x8, three Pawn Race 7x7
/// gap pairs and random positions of 4x8, on 1, 2 and 3 workers with job
/// budgets a thousandth of the solve or less (minutes: `cargo test
/// --release --test suite prove_values:: -- --ignored`).
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
        let (got, end, m) = ProofRun::new(budgets[0])
            .largest(budgets[1])
            .workers(workers)
            .run(&pos, &dir);
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
        let (_, end, m) = ProofRun::new(budget).workers(2).run(&pos, &dir);
        assert_eq!(end, RunEnd::Complete);
        assert_eq!(m.value(), Some(expected_root), "{setup} {board}");
        for (mv, &m2) in m.move_values().iter().zip(pos.legal_moves().iter()) {
            let child = pos.play(m2);
            let v = minimax(&child, &mut memo).wdl().before_move();
            assert_eq!(mv.value, Some(v), "{setup} {board} {}", mv.san);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Workers with tables of their own (as MPI ranks have) that send out
/// what they solve (`--share-solved`), counting the entries sent; with
/// `lie` (the mutant), every entry sent is turned round (proven made
/// disproven and back). Every call goes on to `pool`, the virtual clock's
/// too, so that emulated workers run as they do without the wrapper.
struct SharingWorkers<W: Workers> {
    pool: W,
    lie: bool,
    sent: usize,
}

impl<W: Workers> Workers for SharingWorkers<W> {
    fn count(&self) -> usize {
        self.pool.count()
    }
    fn start(&mut self, job: prove::Job) -> Result<(), prove::WorkerError> {
        self.pool.start(job)
    }
    fn cancel(&mut self, id: u64) {
        self.pool.cancel(id)
    }
    fn wait(
        &mut self,
        timeout: std::time::Duration,
    ) -> Result<Option<prove::JobResult>, prove::WorkerError> {
        self.pool.wait(timeout)
    }
    fn running_nodes(&self) -> Option<u64> {
        self.pool.running_nodes()
    }
    fn interrupt(&mut self) -> bool {
        self.pool.interrupt()
    }
    fn table_warm(&self) -> Option<Vec<PnEntry>> {
        self.pool.table_warm()
    }
    fn virtual_time(&self) -> Option<u64> {
        self.pool.virtual_time()
    }
    fn virtual_clock(&self) -> bool {
        self.pool.virtual_clock()
    }
    fn share(&mut self, solved: &[PnEntry]) {
        self.sent += solved.len();
        let turned: Vec<PnEntry> = solved
            .iter()
            .map(|e| PnEntry {
                phi: e.delta,
                delta: e.phi,
                ..*e
            })
            .collect();
        self.pool.share(if self.lie { &turned } else { solved });
    }
}

/// The proof of `pos` on `pool` with tiny jobs of `budget` nodes, in a
/// fresh directory named by `tag`: the manager, how the run ended, and
/// the log's false lines (their count), checked before the directory
/// goes.
fn sharing_proof<W: Workers>(
    pos: Position,
    pool: &mut SharingWorkers<W>,
    budget: u64,
    tag: &str,
) -> (Manager, Result<RunEnd, prove::RunError>, usize) {
    let dir = temp_dir(&format!("prove-share-{tag}"));
    let workers = pool.count();
    let mut manager = Manager::new(pos, expanding(budget, workers), &read(&dir, pos.variant()));
    let mut writer = LogWriter::open(&dir, pos.variant()).unwrap();
    let stop = AtomicBool::new(false);
    let end = prove::run(&mut manager, pool, &mut writer, &plain_options(&stop));
    let false_found = false_lines(&dir, pos.variant());
    let _ = std::fs::remove_dir_all(&dir);
    (manager, end, false_found)
}

/// Proof-number workers with tables of their own that send out the
/// solved positions of their tables (`--share-solved`, and on every other
/// case `--share-every` too) give `solve`'s values on every case, with
/// tiny budgets that make them many jobs, and every logged answer is
/// true: real threads, so the entries arrive whenever they do. The
/// mutant, a pool that sends out those positions turned round (a wrong
/// "solved" notice), is caught on every case of 1,000 nodes or more:
/// wrong values, contradictions or false lines. It runs on emulated
/// workers ([`prove::EmulatedWorkers`], the same tables of their own and
/// the same pool of solved entries on a virtual clock), where when a
/// turned entry reaches a table does not hang on the machine's load: on
/// real threads a busy machine now and then let a case settle before the
/// lie mattered.
#[test]
fn workers_that_send_out_solved_positions_equal_solve() {
    let mut caught = Vec::new();
    for (i, (name, pos)) in cases().into_iter().enumerate() {
        let expected = solved_text(&pos);
        let workers = 2 + i % 2;
        let budget = tiny_budget(name, i, [100, 200, 400]);
        let config = WorkerConfig {
            hash_mb: 1,
            shared_tt: false,
            method: Method::ProofNumber,
            warm_entries: 1000,
            harvest_plies: 2,
            share_solved: 256,
            // Every other case also exchanges between steps of a job.
            share_every: [0, 100][i % 2],
            share_paths: false,
            share_paths_every: 0,
            threads: 1,
            locked_reads: false,
            spread_every: false,
            spread_jobs: false,
            pn_init: PnInit::Guided,
        };
        let mut honest = SharingWorkers {
            pool: ThreadWorkers::new(workers, config, None).unwrap(),
            lie: false,
            sent: 0,
        };
        let (manager, end, false_found) = sharing_proof(pos, &mut honest, budget, &format!("{i}"));
        assert_eq!(end.unwrap(), RunEnd::Complete, "{name}");
        assert_eq!(
            values_text(&manager),
            expected,
            "{name} ({pos}), {workers} workers"
        );
        assert_eq!(manager.counts.contradictions, 0, "{name}");
        // Jobs that search solve something to send.
        assert_eq!(
            honest.sent > 0,
            manager.counts.nodes > 0,
            "{name}: {} sent",
            honest.sent
        );
        assert_eq!(false_found, 0, "{name}: false lines");

        let mut lying = SharingWorkers {
            pool: prove::EmulatedWorkers::new(workers, config),
            lie: true,
            sent: 0,
        };
        let (manager, _, false_found) = sharing_proof(pos, &mut lying, budget, &format!("{i}-lie"));
        let noticed = values_text(&manager) != expected
            || manager.counts.contradictions > 0
            || false_found > 0;
        caught.push((name, manager.counts.nodes, lying.sent, noticed));
    }
    eprintln!("caught (case, nodes, entries sent, noticed): {caught:?}");
    let big: Vec<_> = caught.iter().filter(|c| c.1 >= 1_000).collect();
    assert!(big.len() >= 5, "too few cases that search: {caught:?}");
    assert!(
        big.iter().all(|c| c.3),
        "the turned-round entries went unnoticed: {caught:?}"
    );
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
            let run = ProofRun::new(2_000)
                .method(method)
                .warm_entries(0)
                .harvest_plies(harvest_plies);
            let (got, end, m) = run.run(&pos, &dir);
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
            shared_tt: true,
            method,
            warm_entries: 0,
            harvest_plies: 2,
            share_solved: 0,
            share_every: 0,
            share_paths: false,
            share_paths_every: 0,
            threads: 1,
            locked_reads: false,
            spread_every: false,
            spread_jobs: false,
            pn_init: PnInit::Guided,
        };
        let mut pool = LyingWorkers(ThreadWorkers::new(1, config, None).unwrap());
        let config = expanding(2_000, 1);
        let mut manager = Manager::new(pos, config, &read(&dir, pos.variant()));
        let mut writer = LogWriter::open(&dir, pos.variant()).unwrap();
        let stop = AtomicBool::new(false);
        let _ = prove::run(&mut manager, &mut pool, &mut writer, &plain_options(&stop));
        let caught = values_text(&manager) != expected
            || manager.counts.contradictions > 0
            || false_lines(&dir, pos.variant()) > 0;
        assert!(caught, "{name}: the lying workers went unnoticed");
    }
}

#[test]
fn emulated_workers_give_the_values_of_solve() {
    // Eight emulated workers (tables of their own, a virtual clock), also
    // sending out what they solve: the proof's values are solve's, and
    // the report adds up.
    // With --share-every, jobs also exchange what they solved between
    // steps of their searches.
    for (share, every) in [("0", "0"), ("64", "0"), ("64", "1000")] {
        emulated_run_gives_the_values_of_solve(share, every, &[]);
    }
    // Exchanges without the paths their searches are in, and with paths
    // alone between exchanges of entries (--share-paths-every).
    emulated_run_gives_the_values_of_solve("64", "1000", &["--no-share-paths"]);
    emulated_run_gives_the_values_of_solve("64", "4000", &["--share-paths-every", "1000"]);
    // Eight emulated workers sharing one table, as local threads do,
    // their jobs taking turns on it in steps of 200 nodes.
    emulated_run_gives_the_values_of_solve("0", "0", &["--emulate-shared", "200"]);
    // Eight emulated workers in two ranks of four, each rank on one
    // table, the ranks sending out what they solve.
    emulated_run_gives_the_values_of_solve(
        "64",
        "1000",
        &["--emulate-shared", "200", "--emulate-ranks", "2"],
    );
    // The coarser model of ticks, its ranks side by side on two threads:
    // workers with tables of their own, and two ranks of four.
    let ticked = ["--emulate-tick", "400", "--emulate-threads", "2"];
    emulated_run_gives_the_values_of_solve("64", "1000", &ticked);
    let paths_apart = ["--share-paths-every", "1000"];
    emulated_run_gives_the_values_of_solve("64", "4000", &[&ticked[..], &paths_apart].concat());
    emulated_run_gives_the_values_of_solve(
        "64",
        "1000",
        &[
            &ticked[..],
            &["--emulate-shared", "200", "--emulate-ranks", "2"],
        ]
        .concat(),
    );
    // Workers of several threads taking turns on each job (--threads):
    // with tables of their own, in two ranks of four, and ticked.
    emulated_run_gives_the_values_of_solve("64", "1000", &["--threads", "2"]);
    emulated_run_gives_the_values_of_solve(
        "64",
        "1000",
        &["--threads", "3", "--emulate-turn-nodes", "50"],
    );
    emulated_run_gives_the_values_of_solve(
        "64",
        "1000",
        &[
            "--emulate-shared",
            "200",
            "--emulate-ranks",
            "2",
            "--threads",
            "3",
        ],
    );
    // (Ticks of 100 nodes: in ticks of 200 this run cancels one job or
    // none, as the leaf rules change the search.)
    emulated_run_gives_the_values_of_solve(
        "64",
        "1000",
        &[
            "--emulate-tick",
            "100",
            "--emulate-threads",
            "2",
            "--threads",
            "4",
        ],
    );
}

#[test]
fn a_ticked_emulation_gives_the_same_figures_on_any_number_of_threads() {
    // The ranks of a tick run side by side, yet what each loads, when
    // each job starts and the order results come back in are fixed by
    // the virtual clock: one thread, two and four give the same proof
    // and the same figures, and so does the same command run again (a
    // mutant whose cancels came back in the order the manager made them,
    // which walks a hash map, gave other figures from run to run).
    let figures = |threads: &str, run: usize| {
        let name = format!("prove-emulate-ticked-{threads}-{run}");
        let extra = [
            "--emulate-tick",
            "300",
            "--emulate-threads",
            threads,
            "--emulate-shared",
            "100",
            "--emulate-ranks",
            "4",
        ];
        let (_dir, j) = emulated_6x6(&name, "64", "1000", &extra);
        let e = &j["emulation"];
        assert_eq!(e["tick_nodes"], 300, "{e}");
        (
            json_values_text(&j),
            j["nodes"].clone(),
            j["jobs"].clone(),
            j["cancelled"]["nodes"].clone(),
            [
                "work_nodes",
                "makespan_nodes",
                "solved_sent",
                "peak_busy",
                "reached_nodes",
            ]
            .map(|k| e[k].clone()),
        )
    };
    let one = figures("1", 0);
    assert!(one.4[2].as_u64().unwrap() > 0, "entries were sent");
    for (threads, run) in [("2", 0), ("4", 0), ("2", 1), ("1", 1)] {
        assert_eq!(figures(threads, run), one, "{threads} threads, run {run}");
    }
}

#[test]
fn an_emulation_counts_its_speedup_against_the_baseline_given() {
    // With --baseline-nodes (one solve's nodes) the report's speedup is
    // those nodes over the makespan, not the workers' own work over it.
    let baseline = 30_000u64;
    let (_dir, j) = emulated_6x6(
        "prove-emulate-baseline",
        "64",
        "0",
        &["--baseline-nodes", &baseline.to_string()],
    );
    let e = &j["emulation"];
    let (work, span) = (
        e["work_nodes"].as_u64().unwrap() as f64,
        e["makespan_nodes"].as_u64().unwrap() as f64,
    );
    let near = |key: &str, want: f64| {
        let got = e[key].as_f64().unwrap();
        assert!((got - want).abs() < 0.001, "{key}: {got}, want {want}: {e}");
    };
    assert_eq!(e["baseline_nodes"], baseline);
    near("speedup", baseline as f64 / span);
    near("efficiency", baseline as f64 / span / 8.0);
    near("work_over_baseline", work / baseline as f64);
    // In time, the ranks' sending and loading slow it by their share of
    // its search.
    let secs = |k: &str| e[k].as_f64().unwrap();
    let share = (secs("send_seconds") + secs("load_seconds")) / secs("search_seconds");
    let in_time = e["speedup_with_exchanges"].as_f64().unwrap();
    assert!(
        (in_time - baseline as f64 / span / (1.0 + share)).abs() < 0.002
            && in_time <= e["speedup"].as_f64().unwrap(),
        "{e}"
    );
    // A run stopped short has no speedup yet, only a bound: the clock
    // went at least as far as it reached.
    let (_dir, j) = emulated_6x6_exits(
        3,
        "prove-emulate-baseline-stopped",
        "0",
        "0",
        &["--max-jobs", "3", "--baseline-nodes", &baseline.to_string()],
    );
    let e = &j["emulation"];
    assert!(
        e["speedup"].is_null() && e["work_over_baseline"].is_null(),
        "{e}"
    );
    let reached = e["reached_nodes"].as_u64().unwrap();
    assert!(
        reached >= e["makespan_nodes"].as_u64().unwrap() && reached > 0,
        "{e}"
    );
    let at_most = e["speedup_at_most"].as_f64().unwrap();
    assert!(
        (at_most - baseline as f64 / reached as f64).abs() < 0.001,
        "{e}"
    );
    // The text report says it in words.
    let dir = temp_dir("prove-emulate-baseline-text");
    let d = dir.to_str().unwrap();
    let (code, out, err) = run_cli(&[
        "prove",
        "pawngame",
        "--board",
        "5x5",
        "--dir",
        d,
        "--emulate",
        "4",
        "--baseline-nodes",
        "1000",
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("against one solve's 1000 nodes (--baseline-nodes): "),
        "{out}"
    );
}

#[test]
fn an_interrupted_emulation_says_its_jobs_in_flight_are_not_counted() {
    // Stopped by the wall clock after a second, long before its proof
    // ends (6x7's value is 20 M nodes of one solve), an emulation comes
    // back with jobs in flight whose nodes are not in its work; the text
    // report says so, and its busy average counts their threads' time so
    // far (commit cd4737a). Its
    // jobs of 400,000 nodes each run for a good part of that second, so
    // the stop comes while sixteen are in flight however loaded the
    // machine (with jobs of 40,000 nodes on 5x7, a machine busy enough
    // ran the first sixteen to their ends, all at one moment, before the
    // second was over, and stopped with none in flight).
    let stopped = |name: &str, json: bool| {
        let dir = temp_dir(name);
        let d = dir.to_str().unwrap();
        let args = [
            "prove",
            "peasants",
            "--board",
            "6x7",
            "--dir",
            d,
            "--method",
            "pn",
            "--job-nodes",
            "400000",
            "--hash-mb",
            "1",
            "--emulate",
            "16",
            "--max-seconds",
            "1",
            "--quiet",
        ];
        let (code, out, err) = run_cli(&[&["--json"][..json as usize], &args[..]].concat());
        assert_eq!(code, 3, "{err}");
        out
    };
    let j = json_of(&stopped("prove-emulate-interrupted-json", true));
    let e = &j["emulation"];
    assert!(e["running"].as_u64().unwrap() > 0, "{e}");
    let out = stopped("prove-emulate-interrupted-text", false);
    let line = out
        .lines()
        .find(|l| l.starts_with("emulated 16 workers"))
        .unwrap_or_else(|| panic!("{out}"));
    let n: u64 = line
        .split_once("(not counting the ")
        .and_then(|(_, rest)| rest.split_once(" jobs in flight at the stop, "))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!((1..=16).contains(&n), "{line}");
}

#[test]
fn an_emulation_stopped_by_its_virtual_clock_bounds_the_speedup_truly() {
    // `--emulate-until N` stops the run once its virtual clock has reached
    // N: the whole proof's makespan lies past it, so "at most baseline / N
    // as fast" never overstates the speedup the whole run gives. In both
    // models. Mutants: the limit not passed to the run (the stopped runs
    // complete, exit 0), or counted against the work instead of the clock
    // (eight workers reach N of work at an eighth of the clock: the clock
    // then stands below N).
    let baseline = 30_000u64;
    let b = baseline.to_string();
    let ticked = ["--emulate-tick", "400", "--emulate-threads", "2"];
    for (model, extra) in [("steps", &[][..]), ("ticks", &ticked[..])] {
        let base = [&["--baseline-nodes", b.as_str()][..], extra].concat();
        let (_dir, j) = emulated_6x6(&format!("prove-until-{model}-all"), "64", "0", &base);
        let whole = &j["emulation"];
        let span = whole["makespan_nodes"].as_u64().unwrap();
        let speedup = whole["speedup"].as_f64().unwrap();
        // A limit past the makespan changes nothing.
        let past = (span + 1).to_string();
        let args = [&base[..], &["--emulate-until", past.as_str()][..]].concat();
        let (_dir, j) = emulated_6x6(&format!("prove-until-{model}-past"), "64", "0", &args);
        let e = &j["emulation"];
        for key in ["makespan_nodes", "work_nodes", "speedup"] {
            assert_eq!(e[key], whole[key], "{model}, {key}: {e} against {whole}");
        }
        // A limit short of it stops there, and the bound holds.
        let half = span / 2;
        let h = half.to_string();
        let args = [&base[..], &["--emulate-until", h.as_str()][..]].concat();
        let (_dir, j) =
            emulated_6x6_exits(3, &format!("prove-until-{model}-half"), "64", "0", &args);
        let e = &j["emulation"];
        let reached = e["reached_nodes"].as_u64().unwrap();
        assert!(
            reached >= half && reached <= span,
            "{model}: {e}, whole {span}"
        );
        assert!(e["speedup"].is_null(), "{model}: {e}");
        let at_most = e["speedup_at_most"].as_f64().unwrap();
        assert!(
            at_most >= speedup,
            "{model}: at most {at_most}, whole run {speedup}"
        );
    }
    // Only an emulation has a virtual clock to stop.
    let dir = temp_dir("prove-until-real");
    let (code, _, err) = run_cli(&[
        "prove",
        "pawngame",
        "--board",
        "5x5",
        "--dir",
        dir.to_str().unwrap(),
        "--emulate-until",
        "1000",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--emulate-until"), "{err}");
}

#[test]
fn emulated_runs_repeat_exactly() {
    // An emulation runs on a virtual clock: the same command gives the
    // same makespan, work and jobs every time. (When the wall clock said
    // when to cancel unneeded jobs, six runs of this command gave six
    // makespans, 13,152 to 13,505.)
    let figures = |run: usize| {
        let (_dir, j) = emulated_6x6(&format!("prove-emulate-repeat-{run}"), "64", "0", &[]);
        let e = &j["emulation"];
        format!(
            "makespan {} work {} jobs {} cancelled {}",
            e["makespan_nodes"], e["work_nodes"], j["jobs"], j["cancelled"]["jobs"]
        )
    };
    let first = figures(0);
    for run in 1..4 {
        assert_eq!(figures(run), first, "run {run}");
    }
}

/// Emulated ranks with tables of their own that send out the paths their
/// searches are in (the default with `--share-every`) steer clear of one
/// another: the same run without them (`--no-share-paths`) searches other
/// nodes, both give solve's values, and each run gives its figures again
/// (a rank that ignored the paths it was sent would give the figures of
/// the run without them). The pawn game 7x6: with the leaf rules two
/// moves ahead and past en passant, 6x6's jobs are too short for a path
/// to change a choice.
#[test]
fn emulated_ranks_steer_clear_of_the_paths_they_are_sent() {
    let pos = position("pawngame", "7x6", true);
    let ticked = ["--emulate-tick", "1000", "--emulate-threads", "2"];
    let run = |every: &str, extra: &[&str], name: &str| {
        let extra = [&ticked[..], extra].concat();
        emulated_exits(0, "7x6", name, "100000", every, &extra).1
    };
    let figures = |extra: &[&str], name: &str| {
        let j = run("1000", extra, name);
        assert_eq!(json_values_text(&j), solved_text(&pos), "{extra:?}");
        let e = &j["emulation"];
        (
            e["work_nodes"].as_u64().unwrap(),
            e["makespan_nodes"].as_u64().unwrap(),
        )
    };
    let steered = figures(&[], "prove-paths-a");
    assert_eq!(figures(&[], "prove-paths-b"), steered);
    let blind = figures(&["--no-share-paths"], "prove-paths-c");
    assert_ne!(steered, blind, "the paths changed no choice");
    // Paths alone every 1,000 nodes between exchanges of entries every
    // 4,000 (`--share-paths-every`): solve's values, the same figures
    // again, and other figures than the exchanges of 4,000 alone.
    let apart = |every: &str, extra: &[&str], name: &str| {
        let j = run(every, extra, name);
        assert_eq!(json_values_text(&j), solved_text(&pos), "{extra:?}");
        let e = &j["emulation"];
        (
            e["work_nodes"].as_u64().unwrap(),
            e["makespan_nodes"].as_u64().unwrap(),
        )
    };
    let between = apart("4000", &["--share-paths-every", "1000"], "prove-paths-d");
    assert_eq!(
        apart("4000", &["--share-paths-every", "1000"], "prove-paths-e"),
        between
    );
    assert_ne!(between, apart("4000", &[], "prove-paths-f"));
}

/// `prove` of the pawn game 6x6, every first move, on eight emulated
/// workers (500-node first jobs, `--share-solved share --share-every
/// every`, then `extra`) in the temporary directory `name`: the directory
/// and the run's JSON, once it exited 0.
fn emulated_6x6(
    name: &str,
    share: &str,
    every: &str,
    extra: &[&str],
) -> (common::TempDir, serde_json::Value) {
    emulated_6x6_exits(0, name, share, every, extra)
}

/// [`emulated_6x6`], which must exit with status `code`.
fn emulated_6x6_exits(
    code: i32,
    name: &str,
    share: &str,
    every: &str,
    extra: &[&str],
) -> (common::TempDir, serde_json::Value) {
    emulated_exits(code, "6x6", name, share, every, extra)
}

/// [`emulated_6x6_exits`] of the pawn game on `board`.
fn emulated_exits(
    code: i32,
    board: &str,
    name: &str,
    share: &str,
    every: &str,
    extra: &[&str],
) -> (common::TempDir, serde_json::Value) {
    let dir = temp_dir(name);
    let d = dir.to_str().unwrap();
    let args = [
        "--json",
        "prove",
        "pawngame",
        "--board",
        board,
        "--dir",
        d,
        "--all-moves",
        "--job-nodes",
        "500",
        "--hash-mb",
        "1",
        "--emulate",
        "8",
        "--share-solved",
        share,
        "--share-every",
        every,
        "--quiet",
    ];
    let (status, out, err) = run_cli(&[&args[..], extra].concat());
    assert_eq!(status, code, "{err}");
    (dir, json_of(&out))
}

fn emulated_run_gives_the_values_of_solve(share: &str, every: &str, extra: &[&str]) {
    let pos = position("pawngame", "6x6", true);
    let name = format!("prove-emulate-{share}-{every}-{}", extra.len());
    let (dir, j) = emulated_6x6(&name, share, every, extra);
    assert_eq!(json_values_text(&j), solved_text(&pos));
    let e = &j["emulation"];
    assert_eq!(e["workers"], 8);
    let threads_each: u64 = match extra.iter().position(|&a| a == "--threads") {
        Some(i) => extra[i + 1].parse().unwrap(),
        None => 1,
    };
    assert_eq!(e["threads"], threads_each, "{e}");
    let ranks = match extra.iter().position(|&a| a == "--emulate-ranks") {
        Some(i) => extra[i + 1].parse().unwrap(),
        None if extra.contains(&"--emulate-shared") => 1,
        None => 8,
    };
    assert_eq!(e["ranks"], ranks, "{e}");
    let (work, span) = (
        e["work_nodes"].as_u64().unwrap(),
        e["makespan_nodes"].as_u64().unwrap(),
    );
    // Every node a worker searched is in a logged job or a cancelled
    // one: the run ended with no job left running (a complete run cancels
    // those in flight and takes them back), and eight workers finish no
    // sooner than an eighth of the work. Workers of several threads take
    // their threads' makespan: their threads' time (the work) holds at
    // least every node they searched.
    assert_eq!(e["running"], 0, "{e}");
    // (A step that searched nothing, as a job answered from the table at
    // once, takes one node of virtual time.)
    let cancelled = &j["cancelled"];
    assert!(cancelled["jobs"].as_u64().unwrap() > 0, "{j}");
    let searched = j["nodes"].as_u64().unwrap() + cancelled["nodes"].as_u64().unwrap();
    let jobs = j["jobs"].as_u64().unwrap() + cancelled["jobs"].as_u64().unwrap();
    if threads_each == 1 {
        assert!((searched..=searched + jobs).contains(&work), "{j}");
    } else {
        assert!(j["nodes"].as_u64().unwrap() <= work, "{j}");
    }
    // (A worker of several threads whose turns were longer than a step,
    // a tick of 200 nodes against turns of 1,000, ran past the step's end
    // and into the next job's time: more work than its threads' time.)
    assert!(span > 0 && span * 8 * threads_each >= work, "{e}");
    // The emulated workers take turns on one thread: their jobs' seconds
    // add up to no more than the run's (on two threads, twice as much).
    let job_seconds = j["job_seconds"].as_f64().unwrap();
    let threads = match extra.iter().position(|&a| a == "--emulate-threads") {
        Some(i) => extra[i + 1].parse().unwrap(),
        None => 1.0,
    };
    assert!(
        job_seconds <= threads * j["seconds"].as_f64().unwrap() + 0.01,
        "{j}"
    );
    // Sharing workers send out what they solved; the others nothing.
    let sent = e["solved_sent"].as_u64().unwrap();
    assert_eq!(sent > 0, share != "0", "{e}");
    // Where this machine's time went: the steps searched every node of
    // the logged jobs (and of the cancelled ones, whole steps past their
    // cancel included), in some time; what a load cost in nodes is given
    // where entries were loaded.
    let seconds = |k: &str| e[k].as_f64().unwrap_or_else(|| panic!("{k}: {e}"));
    let search_nodes = e["search_nodes"].as_u64().unwrap();
    assert!(search_nodes >= j["nodes"].as_u64().unwrap(), "{j}");
    assert!(seconds("search_seconds") > 0.0, "{e}");
    assert!(
        seconds("send_seconds") >= 0.0 && seconds("load_seconds") >= 0.0,
        "{e}"
    );
    assert_eq!(e["load_cost_nodes"].is_number(), sent > 0, "{e}");
    // A proof this small never outgrows the pool's window.
    assert_eq!(e["solved_missed"], 0, "{e}");
    let peak = e["peak_busy"].as_u64().unwrap();
    assert!((2..=8).contains(&peak), "{e}");
    every_line_true(&dir, pos.variant());
}

/// The manager's look one ply down (a leaf settled by the answers of its
/// children's positions, expanded without a job) against plain minimax.
/// On positions of the pawn game and the Pawn Races of 4x5, the root's
/// first question runs out (to be continued) while its worker knew the
/// minimax answers of some of the root's children (each with even
/// chance, or all of them): the manager must expand the root instead of
/// continuing exactly where those answers settle the question (a child
/// where the other side fails its question; or every move reaching one
/// where it reaches its own), and the proof, the rest answered by
/// minimax, must end at minimax's value. Both halves of the rule must
/// occur.
#[test]
fn the_look_one_ply_down_against_minimax() {
    use peasant::solve::Question;
    let v = Variant::new("4x5".parse().unwrap(), Rules::default());
    let all = reachable_positions(v, true, 0);
    let mut memo = MinimaxMemo::default();
    let truth = |p: &Position, q: Question, memo: &mut MinimaxMemo| {
        let wdl = minimax(p, memo).wdl();
        match q {
            Question::Wins => wdl == Wdl::Win,
            Question::AvoidsLoss => wdl != Wdl::Loss,
        }
    };
    let mut rng = SplitMix64::new(31);
    let (mut checked, mut by_a_failing_child, mut by_every_child) = (0, 0, 0);
    for p in all.iter().step_by(7).filter(|p| !p.is_game_over()) {
        let root = rules::canonical(p);
        // The positions the moves reach, each once (two moves may reach
        // the same one); a root one of whose moves reaches the root's own
        // position is left out (its answers would settle the root itself).
        let mut children: Vec<Position> = Vec::new();
        for &mv in root.legal_moves().iter() {
            let c = root.play(mv);
            if children
                .iter()
                .all(|d| rules::canonical(d) != rules::canonical(&c))
            {
                children.push(c);
            }
        }
        if children.iter().any(|c| rules::canonical(c) == root) {
            continue;
        }
        let config = prove::ManagerConfig {
            max_job_nodes: 64,
            all_moves: false,
            ..expanding(1, 1)
        };
        let mut log = empty_log(v);
        let mut m = Manager::new(root, config, &log);
        // A root won by a move at once needs no job.
        let Some(first) = m.next_job() else {
            continue;
        };
        let q = first.question;
        let all_known = rng.below(3) == 0;
        let mut r = result_of(first.id, Answer::Open, false);
        let (mut a_child_fails, mut every_child_succeeds) = (false, true);
        for c in &children {
            let ends = c.winner_by_rule().is_some() || c.count_moves() == 0;
            if ends || !(all_known || rng.below(2) == 0) {
                every_child_succeeds = false;
                continue;
            }
            let c = rules::canonical(c);
            for cq in [Question::Wins, Question::AvoidsLoss] {
                r.known.push((c, cq, truth(&c, cq, &mut memo)));
            }
            if !truth(&c, q.other(), &mut memo) {
                a_child_fails = true;
            }
        }
        finish_into(&mut m, &r, &mut log);
        let next = m.next_job();
        log.jobs.extend(m.take_records());
        let continued = next
            .as_ref()
            .is_some_and(|j| (j.pos, j.question) == (root, q));
        let settles = a_child_fails || every_child_succeeds;
        assert_eq!(continued, !settles, "{root} {q:?}");
        by_a_failing_child += usize::from(a_child_fails);
        by_every_child += usize::from(!a_child_fails && every_child_succeeds);
        // The rest of the proof, answered by minimax.
        let mut pending: Vec<prove::Job> = next.into_iter().collect();
        loop {
            if pending.is_empty() {
                pending.extend(m.next_job());
            }
            // An expansion on the way to the next job may settle the rest.
            if m.complete() {
                break;
            }
            let job = pending.pop().expect("a job while the proof is open");
            let answer = Answer::of_bool(truth(&job.pos, job.question, &mut memo));
            finish_into(&mut m, &result_of(job.id, answer, false), &mut log);
        }
        assert_eq!(m.value(), Some(minimax(&root, &mut memo).wdl()), "{root}");
        checked += 1;
    }
    eprintln!(
        "{checked} roots: settled by a failing child {by_a_failing_child}, by every child {by_every_child}"
    );
    assert!(checked > 100, "{checked}");
    assert!(by_a_failing_child > 0 && by_every_child > 0);
}
