//! `peasant prove` on the command line: its modes and their bad input
//! (one line, exit status 2), `--status`, `--tree`, `--simulate`, and the
//! announcements of long jobs.

#[allow(unused_imports)]
use crate::common::proof::*;
use crate::common::*;
use peasant::prove::LineKind;

/// `args` as owned strings.
fn owned(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| a.to_string()).collect()
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    let dir = temp_dir("prove-bad");
    let d = dir.to_str().unwrap();
    // A 5x5 proof in DIR with `extra`.
    let on_5x5 = |extra: &[&str]| {
        owned(&[&["prove", "pawngame", "--board", "5x5", "--dir", d], extra].concat())
    };
    // The same on four emulated workers that send out 64 solved entries.
    let sharing =
        |extra: &[&str]| on_5x5(&[extra, &["--share-solved", "64", "--emulate", "4"]].concat());
    for args in [
        owned(&["prove", "pawngame", "--board", "9x9", "--dir", d]),
        owned(&["prove", "pawngame", "--board", "5x5"]),
        on_5x5(&["--workers", "0"]),
        owned(&["prove", "--status", d]),
        owned(&["prove", "--simulate", d, "--workers", "8,x"]),
        on_5x5(&["--warm-entries", "4194305"]),
        on_5x5(&["--emulate", "0"]),
        on_5x5(&["--emulate", "4", "--tables", d]),
        on_5x5(&["--share-solved", "64"]),
        on_5x5(&["--share-solved", "64", "--emulate", "4", "--method", "ab"]),
        on_5x5(&["--share-solved", "4194305", "--emulate", "4"]),
        on_5x5(&["--share-every", "5000", "--emulate", "4"]),
        on_5x5(&["--emulate-shared", "1000"]),
        on_5x5(&["--baseline-nodes", "1000"]),
        on_5x5(&["--emulate", "4", "--baseline-nodes", "0"]),
        on_5x5(&["--emulate", "4", "--emulate-shared", "0"]),
        on_5x5(&[
            "--emulate",
            "4",
            "--emulate-shared",
            "1000",
            "--method",
            "ab",
        ]),
        on_5x5(&[
            "--emulate",
            "4",
            "--emulate-shared",
            "1000",
            "--share-solved",
            "64",
        ]),
        on_5x5(&[
            "--emulate",
            "4",
            "--emulate-shared",
            "1000",
            "--separate-tables",
        ]),
        on_5x5(&["--emulate", "4", "--emulate-ranks", "2"]),
        on_5x5(&["--emulate-ranks", "2"]),
        on_5x5(&["--emulate-tick", "1000"]),
        on_5x5(&["--emulate", "4", "--emulate-tick", "0"]),
        on_5x5(&["--emulate", "4", "--emulate-threads", "2"]),
        // Turns of an emulated worker's threads: not without --emulate,
        // not for workers of one thread, not of no nodes.
        on_5x5(&["--threads", "2", "--emulate-turn-nodes", "500"]),
        on_5x5(&["--emulate", "4", "--emulate-turn-nodes", "500"]),
        on_5x5(&[
            "--emulate",
            "4",
            "--threads",
            "2",
            "--method",
            "pn",
            "--emulate-turn-nodes",
            "0",
        ]),
        on_5x5(&[
            "--emulate",
            "4",
            "--emulate-shared",
            "1000",
            "--emulate-ranks",
            "0",
        ]),
        on_5x5(&[
            "--emulate",
            "6",
            "--emulate-shared",
            "1000",
            "--emulate-ranks",
            "4",
        ]),
        on_5x5(&[
            "--share-every",
            "999",
            "--share-solved",
            "64",
            "--emulate",
            "4",
        ]),
        // Paths alone between exchanges: not without exchanges, not
        // without paths, not as often as the entries or more rarely, not
        // under 1,000 nodes.
        sharing(&["--share-paths-every", "1000"]),
        sharing(&[
            "--share-paths-every",
            "1000",
            "--share-every",
            "4000",
            "--no-share-paths",
        ]),
        sharing(&["--share-paths-every", "4000", "--share-every", "4000"]),
        sharing(&["--share-paths-every", "999", "--share-every", "4000"]),
        on_5x5(&["--job-nodes", "100", "--max-job-nodes", "99"]),
        // Tables of their own past any machine's memory: refused before
        // the first is made, as a shared table of that size is.
        on_5x5(&["--emulate", "100000", "--hash-mb", "1024"]),
        on_5x5(&[
            "--workers",
            "100000",
            "--separate-tables",
            "--hash-mb",
            "1024",
        ]),
        on_5x5(&["--workers", "100000", "--hash-mb", "1024"]),
        // Ranks whose tables each fit but not all together (4 TiB).
        on_5x5(&[
            "--emulate",
            "4096",
            "--emulate-shared",
            "1000",
            "--emulate-ranks",
            "4096",
            "--hash-mb",
            "1024",
        ]),
        owned(&["prove"]),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
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
    // `known` counts the log's `known` lines, `jobs` its jobs' (not the
    // splits': positions expanded without a job).
    let log = read(&dir, position("pawngame", "5x5", true).variant());
    let count = |kind| log.jobs.iter().filter(|j| j.kind == kind).count() as u64;
    assert_eq!(j["known"].as_u64(), Some(count(LineKind::Known)), "{out}");
    assert_eq!(j["jobs"].as_u64(), Some(count(LineKind::Job)), "{out}");
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
    // The log's jobs (not its splits: positions expanded without a job).
    let jobs = read(&dir, position("pawngame", "5x5", true).variant())
        .jobs
        .iter()
        .filter(|j| j.kind == LineKind::Job)
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

/// `prove` takes exactly one mode (a position, `--status`, `--check`,
/// `--merge`, `--simulate`; a position may name what `--status` reports):
/// any other combination, and a `--method` it does not know, is refused
/// in one line naming the flags, exit status 2, before any directory is
/// made.
#[test]
fn modes_that_conflict_are_refused_in_one_line() {
    let dir = temp_dir("prove-modes");
    let d = dir.to_str().unwrap();
    let cases: [(&[&str], &[&str]); 7] = [
        (
            &["prove", "--check", d, "--merge", d, d],
            &["--check", "--merge"],
        ),
        (
            &["prove", "--status", d, "--check", d],
            &["--status", "--check"],
        ),
        (
            &["prove", "--status", d, "--simulate", d],
            &["--status", "--simulate"],
        ),
        (&["prove", "pawngame", "--check", d], &["pos", "--check"]),
        (
            &["prove", "pawngame", "--dir", d, "--merge", d],
            &["pos", "--merge"],
        ),
        (
            &["prove", "--merge", d, "--simulate", d],
            &["--merge", "--simulate"],
        ),
        (
            &[
                "prove", "pawngame", "--board", "5x5", "--dir", d, "--method", "alpha",
            ],
            &["--method", "alpha"],
        ),
    ];
    for (args, mentions) in cases {
        let out = run_peasant(args);
        check_refusal(args, &out, 2, mentions).unwrap();
    }
    let out = run_peasant(&["prove"]);
    check_refusal(&["prove"], &out, 2, &["--status", "--check", "--merge"]).unwrap();
    assert!(!dir.exists(), "a refused command made its directory");
}
