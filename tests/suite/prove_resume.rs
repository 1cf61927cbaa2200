//! Proofs cut short go on where they stopped: runs stopped by a job
//! limit, a time limit, Ctrl-C or a kill resume to the same values from
//! the log, continue logged attempts (with their warm starts, or the
//! table snapshot of `--table-file`), and an earlier root's proof serves
//! a later one.

#[allow(unused_imports)]
use crate::common::proof::*;
use crate::common::{self, *};
use peasant::prove::{self, Answer, LogContents, LogWriter, Manager, ManagerConfig, RunEnd};
use peasant::rules::{Position, Wdl};
use peasant::solve::{Method, Question};
use peasant::solve::{Solver, SolverConfig};
use peasant::*;
use std::path::Path;

#[test]
fn value_only_and_stopped_runs_resume() {
    // Value only: the root's value, from a run cut into pieces of 3 jobs.
    let pos = position("pawngame", "6x6", true);
    let expected = Solver::new(SolverConfig::default(), None)
        .unwrap()
        .solve(&pos)
        .unwrap()
        .wdl;
    let dir = temp_dir("prove-pieces");
    let mut pieces = 0;
    loop {
        let (_, end, m) = ProofRun::new(200)
            .largest(3200)
            .workers(2)
            .max_jobs(3)
            .value_only()
            .run(&pos, &dir);
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
    // One worker, first budget 100, largest 100 * 4^3: a job that runs out
    // is asked again at 4 times its budget (continuing its predecessor,
    // its `dep`) up to 6,400 nodes, and only then is its position
    // expanded.
    let pos = position("pawngame", "6x6", true);
    let dir = temp_dir("prove-grow");
    let (got, end, _) = ProofRun::new(100).largest(6_400).run(&pos, &dir);
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
            assert!(prev.nodes < 6_400, "continued after {prev:?}");
            continued += 1;
        } else {
            // A child of an expanded position: its parent's job had the
            // largest budget.
            assert!(prev.nodes >= 6_400, "expanded after {prev:?}");
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
    let (_, end, _) = ProofRun::new(200).max_jobs(1).run(&pos, &dir);
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
        keep_child: true,
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
    ProofRun::new(200).max_jobs(1).run(&pos, &dir);
    let (got, end, _) = ProofRun::new(200).largest(12_800).run(&pos, &dir);
    assert_eq!(end, RunEnd::Complete);
    assert_eq!(got, solved_text(&pos));
    let log = read(&dir, pos.variant());
    let first = &log.jobs[0];
    assert!(log.jobs[1..].iter().any(|j| j.dep == first.id
        && (j.pos, j.question) == (first.pos, first.question)
        && j.nodes <= 4 * first.nodes));
    every_line_true(&dir, pos.variant());
}

/// A job that runs out while another worker is idle is continued and its
/// position expanded as well; when the answers its worker knew below it
/// (`known` lines) settle its pair, the proof goes on without the
/// continuation. The log then holds the small `open` attempt and no job's
/// answer below it, which alone would have the resumed run continue the
/// attempt rather than expand it: a complete proof must resume complete,
/// its pair settled by the expansion, not asked again.
#[test]
fn a_pair_settled_by_known_answers_below_its_open_job_resumes_settled() {
    let pos = position("pawngame", "5x5", true);
    let config = ManagerConfig {
        max_job_nodes: 6400,
        ..expanding(100, 2)
    };
    let solver = fresh_solver();
    let mut log = read(&temp_dir("prove-resume-known-settles"), pos.variant());
    let mut m = Manager::new(pos, config, &log);
    let first = m.next_job().unwrap();
    // Its worker ran out, but knew both answers of every child.
    let mut r = result_of(first.id, Answer::Open, false);
    for &mv in first.pos.legal_moves().iter() {
        let child = first.pos.play(mv);
        for q in [Question::Wins, Question::AvoidsLoss] {
            r.known
                .push((child, q, solver.answer(&child, q, None).unwrap()));
        }
    }
    finish_into(&mut m, &r, &mut log);
    assert!(m.counts.known > 0);
    // The rest of the proof by stand-in workers, one job at a time (the
    // continuation is no longer needed: the known answers settled it).
    while !m.complete() {
        let job = m.next_job().unwrap();
        assert_ne!((job.pos, job.question), (first.pos, first.question));
        finish_into(&mut m, &true_result(&solver, &job), &mut log);
    }
    let mut resumed = Manager::new(pos, config, &log);
    assert!(
        resumed.complete(),
        "resumed: {}; asks {:?}",
        values_text(&resumed),
        resumed.next_job().map(|j| (j.pos.to_string(), j.question))
    );
    assert_eq!(values_text(&resumed), values_text(&m));
}

/// A job that runs out and whose position is expanded hands its warm
/// start down: each child's first job, asking the question whose attacker
/// is the same side, starts from it (a worker with a table of its own then
/// goes on from the top of the parent's search below that child); other
/// jobs get none.
#[test]
fn an_expanded_position_hands_its_warm_start_to_its_childrens_jobs() {
    let pos = position("pawngame", "5x5", true);
    let config = ManagerConfig {
        all_moves: false,
        ..expanding(100, 1)
    };
    let mut log = read(&temp_dir("prove-warm-down"), pos.variant());
    let mut m = Manager::new(pos, config, &log);
    let first = m.next_job().unwrap();
    assert!(first.warm.is_none());
    let warm = vec![peasant::solve::PnEntry {
        key: 6,
        phi: 3,
        delta: 4,
        work: 99,
    }];
    let mut r = result_of(first.id, Answer::Open, false);
    r.end = prove::JobEnd::Open {
        warm: Some(warm.clone()),
    };
    finish_into(&mut m, &r, &mut log);
    let children: Vec<_> = first
        .pos
        .legal_moves()
        .iter()
        .map(|&mv| rules::canonical(&first.pos.play(mv)))
        .collect();
    let mut handed = 0;
    for _ in 0..children.len() {
        let Some(job) = m.next_job() else { break };
        if children.contains(&job.pos) && job.question == first.question.other() {
            assert_eq!(job.warm.as_deref(), Some(&warm[..]), "{}", job.pos);
            handed += 1;
        } else {
            assert!(job.warm.is_none(), "{} {:?}", job.pos, job.question);
        }
        finish_into(&mut m, &result_of(job.id, Answer::Open, true), &mut log);
    }
    assert!(handed > 0);
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
        let run = ProofRun::new(10_000)
            .largest(640_000)
            .max_jobs(1)
            .value_only()
            .method(Method::ProofNumber)
            .warm_entries(warm_entries);
        let mut files_seen = 0;
        let (got, m) = loop {
            let (got, end, m) = run.run(&pos, &dir);
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
    let pair = prove::Pair::new(key, peasant::solve::Question::Wins);
    store.save(pair, &[]).unwrap();
    assert_eq!(store.pairs().len(), 1);
    let run = ProofRun::new(2_000)
        .value_only()
        .method(Method::ProofNumber)
        .warm_entries(65536);
    let (_, end, _) = run.run(&pos, &dir);
    assert_eq!(end, RunEnd::Complete);
    assert!(store.pairs().is_empty(), "{:?}", store.pairs());
}

/// A run that ends with a job in flight (--max-seconds; Ctrl-C and
/// --max-jobs alike) stops it and logs it as `open` with the nodes it
/// searched, its warm start in DIR/warm/; the next run continues that job
/// (its first job names the stopped one as the job it continues).
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

#[test]
fn killed_runs_resume_to_the_same_values() {
    let pos = position("pawngame", "6x6", true);
    let expected = solved_text(&pos);
    let dir = temp_dir("prove-kill");
    let d = dir.to_str().unwrap();
    let mut rng = SplitMix64::new(7);
    for _ in 0..6 {
        let mut child = peasant_command(prove_6x6_args(d, "30", &["--method", "ab", "--quiet"]))
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
    let (code, out, err) = run_cli(&prove_6x6_args(
        d,
        "30",
        &["--method", "ab", "--json", "--quiet"],
    ));
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
    let args = |secs| prove_5x8_args(d, &["--method", "ab", "--job-nodes", "100000"], secs);
    let (code, out, err) = run_cli(&args("1"));
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("stopped by --max-seconds"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    // Ctrl-C long before the time limit: an interruption (status 130).
    // SIGTERM (what a batch scheduler sends at its time limit) and SIGHUP
    // (a closed terminal) stop the run the same way.
    for signal in ["-INT", "-TERM", "-HUP"] {
        // Under a SIGHUP already ignored (tests run under nohup) the
        // children ignore it too.
        if signal == "-HUP" && common::sighup_ignored() {
            continue;
        }
        let child = peasant_command(args("600"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Once a job is logged the run is under way (its handler set).
        let log = dir.join(prove::LOG_FILE);
        for _ in 0..600 {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            if text.lines().any(|l| l.starts_with("job\t")) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        send_signal(signal, child.id());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{signal}: {err}");
        assert!(err.contains("interrupted"), "{signal}: {err}");
        assert!(!err.contains("--max-seconds"), "{signal}: {err}");
        // The log is whole: the next run reads it.
        let (code, _, err) = run_cli(&["prove", "--status", d]);
        assert_eq!(code, 0, "{signal}: {err}");
        let _ = std::fs::remove_dir_all(&dir);
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
    let (values, end, _) = ProofRun::new(20).run(&start, &dir);
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

/// The kinds of the lines of `log` about pair (`pos`, `q`), in order.
fn line_kinds(log: &LogContents, pos: &Position, q: Question) -> Vec<prove::LineKind> {
    let key = rules::position_key(&rules::canonical(pos));
    log.jobs
        .iter()
        .filter(|j| j.key() == key && j.question == q)
        .map(|j| j.kind)
        .collect()
}

/// Asserts that a manager replaying `log` (as `--status` makes one) gives
/// `start` the value `value`.
fn assert_replays_to(start: Position, config: ManagerConfig, log: &LogContents, value: Wdl) {
    let replayed = Manager::new(start, config, log);
    assert_eq!(replayed.value(), Some(value), "{}", values_text(&replayed));
}

/// A leaf one of whose moves reaches a position the log has answered,
/// where the other side fails its question (a transposition the tree has
/// not met), is expanded without a job: after a value proof of the
/// position after a drawing first move, a value proof of the start asks
/// no job whether white avoids losing (black does not win after that
/// move), logs the expansion as a split, and gets solve's value; a replay
/// of the log knows the answer before any job.
#[test]
fn a_leaf_settled_one_ply_down_by_the_log_gets_no_job() {
    let start = position("pawngame", "5x5", true);
    let solved = solved_text(&start);
    assert!(solved.starts_with("draw | "), "{solved}");
    let drawing = start
        .legal_moves()
        .iter()
        .copied()
        .find(|m| solved.contains(&format!("{} draw", m.san())))
        .unwrap();
    let child = start.play(drawing);
    let dir = temp_dir("prove-one-ply-down");
    let run = ProofRun::new(1_000_000).value_only();
    let (_, end, _) = run.run(&child, &dir);
    assert_eq!(end, RunEnd::Complete);
    let before = read(&dir, start.variant()).jobs.len();
    let (values, end, m) = run.run(&start, &dir);
    assert_eq!(end, RunEnd::Complete);
    let alone = temp_dir("prove-one-ply-down-alone");
    assert_eq!(values, run.run(&start, &alone).0);
    assert!(values.starts_with("draw"), "{values}");
    let mut log = read(&dir, start.variant());
    log.jobs.drain(..before);
    let asked = line_kinds(&log, &start, Question::AvoidsLoss);
    assert_eq!(asked, [prove::LineKind::Split], "{asked:?}");
    assert_eq!(m.counts.jobs, 1, "one job: does white win?");
    // A replay of the log (as `--status` makes one) settles it too.
    let config = ManagerConfig {
        all_moves: false,
        ..expanding(1_000_000, 1)
    };
    assert_replays_to(start, config, &read(&dir, start.variant()), Wdl::Draw);
}

/// The same check before a job is continued: an answer that arrives while
/// a job runs out (here one another job's worker knew) and settles the
/// job's pair one ply down leaves the continuation unstarted; the position
/// is expanded instead (logged as a split), which settles the pair, and a
/// replay of the log gives the same value.
#[test]
fn a_continuation_settled_one_ply_down_meanwhile_is_not_started() {
    // Jobs that run out are continued (up to 64,000 nodes).
    let StartProof {
        pos: start,
        solver,
        config,
        mut log,
        mut m,
        wins,
        avoids,
    } = start_proof_5x5(2, 64_000);
    // "Does white avoid losing?" runs out while the other job runs: it
    // is to be continued.
    finish_into(&mut m, &result_of(avoids.id, Answer::Open, false), &mut log);
    // "Does white win?" is answered no, and its worker knew that after a
    // drawing first move black does not win either.
    let drawing = start
        .legal_moves()
        .iter()
        .map(|&mv| rules::canonical(&start.play(mv)))
        .find(|c| !solver.answer(c, Question::Wins, None).unwrap())
        .unwrap();
    let mut r = result_of(wins.id, Answer::No, false);
    r.known.push((drawing, Question::Wins, false));
    finish_into(&mut m, &r, &mut log);
    let next = m.next_job();
    log.jobs.extend(m.take_records());
    assert!(
        next.is_none(),
        "asks {:?}",
        next.map(|j| (j.pos.to_string(), j.question))
    );
    assert_eq!(m.value(), Some(Wdl::Draw), "{}", values_text(&m));
    let asked = line_kinds(&log, &start, Question::AvoidsLoss);
    assert_eq!(
        asked,
        [prove::LineKind::Job, prove::LineKind::Split],
        "{asked:?}"
    );
    assert_replays_to(start, config, &log, Wdl::Draw);
}

/// The other half of the look one ply down: a leaf every move of which
/// reaches a position where the other side is known to reach its goal
/// fails its question, and is expanded rather than asked again. Here the
/// root's "does white win?" runs out, its worker knowing that black
/// avoids losing after every white move (true: the pawn game 5x5 is a
/// draw): the continuation is not started, the expansion settles the
/// pair, and the proof goes on to the draw, which a replay of its log
/// gives too.
#[test]
fn a_leaf_all_of_whose_moves_are_answered_against_it_gets_no_job() {
    // Jobs that run out are continued (up to 64,000 nodes).
    let StartProof {
        pos: start,
        solver,
        config,
        mut log,
        mut m,
        wins,
        avoids,
    } = start_proof_5x5(2, 64_000);
    let mut r = result_of(wins.id, Answer::Open, false);
    for &mv in start.legal_moves().iter() {
        let child = rules::canonical(&start.play(mv));
        assert!(solver.answer(&child, Question::AvoidsLoss, None).unwrap());
        r.known.push((child, Question::AvoidsLoss, true));
    }
    finish_into(&mut m, &r, &mut log);
    let next = m.next_job().unwrap();
    log.jobs.extend(m.take_records());
    assert_ne!((next.pos, next.question), (start, Question::Wins));
    let asked = line_kinds(&log, &start, Question::Wins);
    assert_eq!(
        asked,
        [prove::LineKind::Job, prove::LineKind::Split],
        "{asked:?}"
    );
    // The rest of the proof by stand-in workers.
    let mut pending = vec![next, avoids];
    while !m.complete() {
        if pending.is_empty() {
            pending.extend(m.next_job());
            log.jobs.extend(m.take_records());
        }
        let job = pending.pop().expect("a job while the proof is open");
        finish_into(&mut m, &true_result(&solver, &job), &mut log);
    }
    assert_eq!(m.value(), Some(Wdl::Draw), "{}", values_text(&m));
    assert_replays_to(start, config, &log, Wdl::Draw);
}

/// `--drain-after`: after its time the run starts no job, waits for the
/// jobs in flight to come back at their answer or their budget, and stops
/// (status 3, saying why): its one job is logged with its whole budget
/// searched, not cut short, so a run on another machine need not ask it
/// again from the start. (Peasants' Chess 5x8's first question needs far
/// more than the budget, and the budget several seconds: 12 M nodes, some
/// 2.4 M a second here with a table of 16 MiB.)
#[test]
fn a_drained_run_lets_its_jobs_run_to_their_end_and_starts_none() {
    let dir = temp_dir("prove-drain");
    let d = dir.to_str().unwrap();
    let extra = [
        "--method",
        "pn",
        "--job-nodes",
        "12000000",
        "--max-job-nodes",
        "12000000",
        "--drain-after",
        "1",
    ];
    let (code, out, err) = run_cli(&prove_5x8_args(d, &extra, "60"));
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("stopped by --drain-after"), "{err}");
    let log = std::fs::read_to_string(dir.join("proof.log")).unwrap();
    let jobs: Vec<Vec<&str>> = log
        .lines()
        .filter(|l| l.starts_with("job\t"))
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(jobs.len(), 1, "{log}");
    assert_eq!((jobs[0][4], jobs[0][5]), ("open", "12000000"), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}
