//! The proof log: damaged, torn and foreign lines are reported and never
//! believed, `--check` finds a wrong line with a good checksum, logs merge
//! and concatenate, and the explorer answers from a proof directory.

#[allow(unused_imports)]
use crate::common::proof::*;
use crate::common::*;
use peasant::prove::{self, RunEnd};
use peasant::rules::{parse_position, Rules, Variant};
use peasant::solve::{Solver, SolverConfig};

/// Resumes the 5x5 proof in `d` with `--all-moves --json`.
fn resume_5x5_json(d: &str) -> (i32, String, String) {
    prove_5x5_in("pawngame", d, &["--job-nodes", "20", "--json", "--quiet"])
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
    let forged = format!("{body}\t{:08x}", crc32fast::hash(body.as_bytes()));
    let mut bad = lines.clone();
    bad[k] = forged;
    write_lines(&dir, &bad, None);
    let (code, out, _) = run_cli(&["prove", "--check", d, "--samples", "1000"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("logged no"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&other);
}

#[test]
fn logs_merge_and_concatenate() {
    let pos = position("pawngame", "6x6", false);
    let expected = solved_text(&pos);
    let (a, b) = (temp_dir("prove-merge-a"), temp_dir("prove-merge-b"));
    // Two machines: each does part of the proof.
    ProofRun::new(50).max_jobs(15).run(&pos, &a);
    ProofRun::new(50).workers(2).max_jobs(25).run(&pos, &b);
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
    let (got, end, m) = ProofRun::new(50).workers(2).run(&pos, &out);
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

/// A running proof whose log's name is given to another file (`git
/// stash` or `git checkout` of a committed proof, a copy put back from a
/// backup) or removed loses no line: a copy of what the run wrote is taken
/// up and the run goes on in it; anything else is left as it is, and the
/// run stops with its whole log in a proof directory of its own, from
/// which (and from a merge of the two) the proof resumes to the values of
/// a run left alone.
#[test]
fn a_log_replaced_under_a_run_loses_no_line() {
    let pos = position("pawngame", "5x5", true);
    let variant = pos.variant();
    let run = ProofRun::new(20);
    let alone = temp_dir("prove-replaced-alone");
    let (want, end, _) = run.run(&pos, &alone);
    assert_eq!(end, RunEnd::Complete);
    // A run whose log `meddle` changes when its third job starts: the
    // values, how it ended, where the log went on, and the log's lines
    // when it was changed.
    let meddled = |dir: &TempDir, meddle: &dyn Fn(&std::path::Path, &[String])| {
        let mut starts = 0;
        let mut before = Vec::new();
        let (values, end, _, diverted) = run.run_with_events(&pos, dir, &mut |event| {
            if let prove::RunEvent::JobStarts { .. } = event {
                starts += 1;
                if starts == 3 {
                    before = log_lines(dir);
                    meddle(dir, &before);
                }
            }
        });
        assert!(starts >= 3, "too few jobs to meddle with");
        (values, end, diverted, before)
    };
    // Puts `lines` in place of the log as an editor or git does: a new
    // file renamed over the old one.
    let put = |dir: &std::path::Path, lines: &[String]| {
        let part = dir.join("proof.log.new");
        std::fs::write(&part, lines.join("\n") + "\n").unwrap();
        std::fs::rename(&part, dir.join(prove::LOG_FILE)).unwrap();
    };

    // A copy of the log put back (`git stash` then `git stash pop`): the
    // run goes on in it, and a run after it has nothing left to do.
    let dir = temp_dir("prove-replaced-copy");
    let (values, end, diverted, before) = meddled(&dir, &|d, lines| put(d, lines));
    assert_eq!(
        (values.as_str(), end, diverted),
        (want.as_str(), RunEnd::Complete, None)
    );
    let after = log_lines(&dir);
    assert!(after.len() > before.len() && after.starts_with(&before));
    let (values, end, m) = run.run(&pos, &dir);
    assert_eq!(
        (values, end, m.counts.jobs),
        (want.clone(), RunEnd::Complete, 0)
    );

    // An older log put back (`git checkout` of the proof as committed
    // before the run): left as it is; the run stops, its log whole in
    // DIR/kept-SECONDS, and resumes from there, or from the merge.
    for remove in [false, true] {
        let dir = temp_dir(&format!("prove-replaced-older-{remove}"));
        let (_, end, diverted, before) = meddled(&dir, &|d, lines| {
            if remove {
                std::fs::remove_file(d.join(prove::LOG_FILE)).unwrap();
            } else {
                put(d, &lines[..2]);
            }
        });
        assert_eq!(end, RunEnd::LogDiverted);
        let kept = diverted.expect("the log went on elsewhere");
        assert_eq!(kept.parent(), Some(dir.as_ref()));
        assert!(kept
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("kept-"));
        if remove {
            assert!(!dir.join(prove::LOG_FILE).exists());
        } else {
            assert_eq!(log_lines(&dir), before[..2]);
        }
        let lines = log_lines(&kept);
        assert!(lines.len() > before.len() && lines.starts_with(&before));
        assert!(read(&kept, variant).damaged.is_empty());
        let merged = temp_dir(&format!("prove-replaced-merged-{remove}"));
        if !remove {
            prove::merge(&[dir.to_path_buf(), kept.clone()], &merged).unwrap();
            let (values, end, _) = run.run(&pos, &merged);
            assert_eq!((values, end), (want.clone(), RunEnd::Complete));
        }
        let (values, end, _) = run.run(&pos, &kept);
        assert_eq!((values, end), (want.clone(), RunEnd::Complete));
    }
}
