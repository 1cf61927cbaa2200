//! The proof manager on MPI ranks (PEASANT_MPI_BIN, a peasant built with
//! the `mpi` feature, under `mpirun -np 3`): the values of local workers,
//! warm starts carried between ranks, and a dead worker rank that loses
//! only its jobs.

#[allow(unused_imports)]
mod common;

use common::proof::*;
use common::*;
use peasant::prove::{self, Answer};
use std::path::Path;
use std::process::Command;

fn main() -> std::process::ExitCode {
    common::external::run_external_tests(
        mpi_bin,
        &mut [
            ("mpi_ranks_give_the_local_values", &mut |bin: String| {
                mpi_ranks_give_the_local_values(&bin)
            }),
            (
                "mpi_proof_number_ranks_hand_on_their_warm_starts",
                &mut |bin: String| mpi_proof_number_ranks_hand_on_their_warm_starts(&bin),
            ),
            (
                "mpi_ranks_that_send_out_solved_positions_give_the_values",
                &mut |bin: String| mpi_ranks_that_send_out_solved_positions_give_the_values(&bin),
            ),
            (
                "mpi_ranks_of_several_workers_give_the_values",
                &mut |bin: String| mpi_ranks_of_several_workers_give_the_values(&bin),
            ),
            (
                "a_dead_mpi_worker_loses_only_its_jobs",
                &mut |bin: String| a_dead_mpi_worker_loses_only_its_jobs(&bin),
            ),
            (
                "sigterm_to_every_rank_stops_an_mpi_proof_as_ctrl_c_does",
                &mut |bin: String| sigterm_to_every_rank_stops_an_mpi_proof_as_ctrl_c_does(&bin),
            ),
        ],
    )
}

/// The peasant built with the `mpi` feature (PEASANT_MPI_BIN), when it
/// and `mpirun` are here; else what is missing (the tests are reported
/// as ignored, or fail under PEASANT_REQUIRE_EXTERNAL=1).
fn mpi_bin() -> Result<String, String> {
    let bin = std::env::var("PEASANT_MPI_BIN").ok();
    let have_mpirun = Command::new("mpirun").arg("--version").output().is_ok();
    match (bin, have_mpirun) {
        (Some(bin), true) => Ok(bin),
        _ => Err(
            "no mpirun or no PEASANT_MPI_BIN (a peasant built with --features mpi; \
                  tools/mpi_check.sh builds and runs it)"
                .to_string(),
        ),
    }
}

/// How long an MPI run of these tests may take before `timeout` stops it
/// (SIGTERM, which mpirun passes on to its ranks; SIGKILL 10 s later)
/// and the test fails with status 124: a run whose ranks never end must
/// fail the test, not hang it (a rank inside a send rank 0 never received
/// did so once).
const MPI_LIMIT: &str = "120";

/// `bin` on three MPI ranks (a manager and two workers), under
/// [`MPI_LIMIT`]; the caller adds peasant's arguments.
fn mpirun(bin: &str) -> Command {
    let mut c = Command::new("timeout");
    c.args(["-k", "10", MPI_LIMIT, "mpirun"]).args([
        "--allow-run-as-root",
        "--oversubscribe",
        "-np",
        "3",
        bin,
    ]);
    c
}

/// `mpirun -np 3` (a manager and two workers) on the pawn game 6x6 with
/// tiny jobs, logging into `dir`.
fn mpi_prove_6x6(bin: &str, dir: &Path) -> Command {
    let mut c = mpirun(bin);
    c.args([
        "prove",
        "pawngame",
        "--board",
        "6x6",
        "--dir",
        dir.to_str().unwrap(),
        "--all-moves",
        "--job-nodes",
        "20",
        "--hash-mb",
        "1",
        "--json",
        "--quiet",
    ]);
    c
}

/// Runs [`mpi_prove_6x6`] with `extra` flags to its end and checks its
/// values are `expected` (`solve`'s); its JSON summary.
fn mpi_values(bin: &str, dir: &Path, expected: &str, extra: &[&str]) -> serde_json::Value {
    let out = mpi_prove_6x6(bin, dir).args(extra).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_ne!(
        out.status.code(),
        Some(124),
        "the run did not end in {MPI_LIMIT} s"
    );
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j = json_of(stdout.lines().find(|l| l.starts_with('{')).unwrap());
    assert_eq!(json_values_text(&j), expected);
    j
}

fn mpi_ranks_give_the_local_values(bin: &str) {
    let pos = position("pawngame", "6x6", true);
    let expected = solved_text(&pos);
    let dir = temp_dir("prove-mpi");
    mpi_values(bin, &dir, &expected, &["--method", "ab"]);
    every_line_true(&dir, pos.variant());
}

/// Proof-number ranks that send out the solved positions of their tables
/// (`--share-solved`: each finished job's, before its result, and rank 0
/// sends each rank what it has not had before its next job; with
/// `--share-every`, also between the steps of a running job, and with
/// `--share-paths-every` its path alone between those) give solve's
/// values, and every logged answer is true.
fn mpi_ranks_that_send_out_solved_positions_give_the_values(bin: &str) {
    let pos = position("pawngame", "6x6", true);
    let dir = temp_dir("prove-mpi-share");
    let share = ["--method", "pn", "--share-solved", "256"];
    let j = mpi_values(bin, &dir, &solved_text(&pos), &share);
    assert!(j["jobs"].as_u64().unwrap() > 10, "{j}");
    every_line_true(&dir, pos.variant());
    let _ = std::fs::remove_dir_all(&dir);
    // With --share-every, running jobs exchange them with rank 0 every
    // 1,000 nodes (jobs of up to 8,000).
    let every = [
        &share[..],
        &["--max-job-nodes", "8000", "--share-every", "1000"],
    ]
    .concat();
    mpi_values(bin, &dir, &solved_text(&pos), &every);
    every_line_true(&dir, pos.variant());
    let _ = std::fs::remove_dir_all(&dir);
    // With --share-paths-every, a job also sends its path alone every
    // 1,000 nodes between exchanges of entries every 4,000, and rank 0
    // answers with the paths alone.
    let apart = [
        &share[..],
        &["--max-job-nodes", "8000", "--share-every", "4000"],
        &["--share-paths-every", "1000"],
    ]
    .concat();
    mpi_values(bin, &dir, &solved_text(&pos), &apart);
    every_line_true(&dir, pos.variant());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Proof-number workers on MPI ranks (a table each, two threads on each
/// job, as one rank per machine runs them): warm starts travel
/// with the jobs and results, so every continued job may go to any rank;
/// the values are solve's. A run that ends by its time limit interrupts
/// the ranks' jobs, which are logged as `open` with their warm starts,
/// and the next run continues them.
fn mpi_proof_number_ranks_hand_on_their_warm_starts(bin: &str) {
    let pos = position("pawngame", "6x6", true);
    let dir = temp_dir("prove-mpi-pn");
    let pn = [
        "--method",
        "pn",
        "--max-job-nodes",
        "2560",
        "--threads",
        "2",
    ];
    mpi_values(bin, &dir, &solved_text(&pos), &pn);
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
        let mut c = mpirun(bin);
        c.args(["prove", "peasants", "--board", "5x8", "--dir"])
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

/// Worker ranks of several workers each (`--workers W` under mpirun: W
/// jobs at once on one table a rank, one rank a machine) give solve's
/// values, alpha-beta and proof-number ranks alike, the latter also
/// exchanging solved entries while their jobs run (a rank's exchanges
/// answered in turn); every logged answer is true. A run stopped by its
/// time limit interrupts every job of every rank, and each is logged
/// `open` with its warm start: more jobs than the ranks alone could run.
fn mpi_ranks_of_several_workers_give_the_values(bin: &str) {
    let pos = position("pawngame", "6x6", true);
    let dir = temp_dir("prove-mpi-workers");
    for extra in [
        &["--method", "ab", "--workers", "3"][..],
        &[
            "--method",
            "pn",
            "--workers",
            "2",
            "--share-solved",
            "256",
            "--max-job-nodes",
            "8000",
            "--share-every",
            "1000",
        ],
    ] {
        let j = mpi_values(bin, &dir, &solved_text(&pos), extra);
        assert!(j["jobs"].as_u64().unwrap() > 10, "{j}");
        every_line_true(&dir, pos.variant());
        let _ = std::fs::remove_dir_all(&dir);
    }
    let variant = position("peasants", "5x8", true).variant();
    let mut c = mpirun(bin);
    c.args(["prove", "peasants", "--board", "5x8", "--dir"])
        .arg(&dir)
        .args(["--method", "pn", "--job-nodes", "1000000000"])
        .args(["--hash-mb", "16", "--workers", "2"])
        .args(["--quiet", "--max-seconds", "3"]);
    let out = c.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(3), "{err}");
    let jobs = read(&dir, variant).jobs;
    let open: Vec<_> = jobs.iter().filter(|j| j.nodes > 0).collect();
    assert!(open.len() > 2, "{jobs:?}");
    assert!(open.iter().all(|j| j.answer == Answer::Open), "{jobs:?}");
    let found = prove::WarmStore::new(&dir, variant).load();
    assert!(found.damaged.is_empty(), "{:?}", found.damaged);
    assert_eq!(found.pairs.len(), open.len());
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
fn a_dead_mpi_worker_loses_only_its_jobs(bin: &str) {
    use std::time::{Duration, Instant};
    let pos = position("pawngame", "6x6", true);
    let expected = solved_text(&pos);
    let dir = temp_dir("prove-mpi-dead");
    let log_lines = || {
        std::fs::read(dir.join("proof.log"))
            .map(|b| b.iter().filter(|&&c| c == b'\n').count())
            .unwrap_or(0)
    };
    // The whole proof is about 2,300 log lines; the worker dies after 100 of
    // them. A run that ends before the kill (a very slow start) is tried
    // again in a fresh directory.
    let mut killed = false;
    for attempt in 0..3 {
        let _ = std::fs::remove_dir_all(&dir);
        let token = format!("PEASANT_DEAD_RANK_TEST={}-{attempt}", std::process::id());
        let (key, value) = token.split_once('=').unwrap();
        let mut child = mpi_prove_6x6(bin, &dir)
            .args(["--method", "ab"])
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
    let j = mpi_values(bin, &dir, &expected, &["--method", "ab"]);
    assert_eq!(j["complete"], true);
    every_line_true(&dir, pos.variant());
    let log = prove::read_logs(&[dir.path().to_path_buf()], Some(pos.variant())).unwrap();
    let mut answered = std::collections::HashSet::new();
    for job in log.jobs.iter().filter(|j| j.answer.as_bool().is_some()) {
        let key = format!("{} {:?}", job.pos, job.question);
        assert!(answered.insert(key.clone()), "asked again: {key}");
    }
    assert!(
        answered.len() > before,
        "the rerun added no answer: {} answered, {before} before",
        answered.len()
    );
    let (code, out, err) = run_cli(&["prove", "--check", dir.to_str().unwrap(), "--samples", "10"]);
    assert_eq!(code, 0, "{out}{err}");
}

/// SIGTERM to every rank at once, as Slurm signals each task of a job at
/// its time limit or on `scancel`: the worker ranks leave the first one to
/// rank 0, which stops the run as Ctrl-C does. Every rank's job is
/// interrupted and logged `open` with its warm start, the run says it was
/// interrupted, and no rank is left behind.
fn sigterm_to_every_rank_stops_an_mpi_proof_as_ctrl_c_does(bin: &str) {
    use std::io::{BufReader, Read};
    let variant = position("peasants", "5x8", true).variant();
    let dir = temp_dir("prove-mpi-sigterm");
    let token = format!("PEASANT_SIGTERM_TEST={}", std::process::id());
    let (key, value) = token.split_once('=').unwrap();
    // Peasants' Chess 5x8 is far beyond the test: no job ends by itself.
    let mut c = mpirun(bin);
    c.args(["prove", "peasants", "--board", "5x8", "--dir"])
        .arg(&dir)
        .args(["--method", "pn", "--job-nodes", "1000000000"])
        .args(["--hash-mb", "16", "--max-seconds", "100"])
        .env(key, value)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    let mut child = c.spawn().unwrap();
    // Rank 0 announces each job (budgets of 10^9 nodes) once its run is
    // under way, its handler set: both ranks are then busy.
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut seen = read_until(&mut err, "job 2 starts");
    let ranks = ranks_with(&token);
    assert_eq!(ranks.len(), 3, "three ranks: {ranks:?}");
    for &(_, pid) in &ranks {
        send_signal("-TERM", pid);
    }
    err.read_to_string(&mut seen).unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "{seen}");
    assert_ne!(status.code(), Some(124), "the run did not end: {seen}");
    assert!(seen.contains("interrupted"), "{seen}");
    let jobs = read(&dir, variant).jobs;
    assert_eq!(jobs.len(), 2, "both ranks' jobs are logged: {jobs:?}");
    assert!(jobs.iter().all(|j| j.answer == Answer::Open && j.nodes > 0));
    let found = prove::WarmStore::new(&dir, variant).load();
    assert!(found.damaged.is_empty(), "{:?}", found.damaged);
    assert_eq!(found.pairs.len(), 2);
    assert!(ranks_with(&token).is_empty(), "a rank outlived the run");
    let _ = std::fs::remove_dir_all(&dir);
}
