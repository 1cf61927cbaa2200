//! What the integration tests share: the minimax oracle, temporary
//! directories, board and rule variants, table generation, reachable
//! positions and random samples (one generator: the library's repeatable
//! `SplitMix64`), and the one way to run the built binary
//! ([`peasant_command`], [`run_peasant`]).

#![allow(dead_code)]

pub mod external;
pub mod oracle;
pub mod proof;
// Not every test program uses each of them.
#[allow(unused_imports)]
pub use oracle::{minimax, pn_agrees_with_minimax, FxHasher, MinimaxMemo};

use peasant::{
    generate::{generate, GenConfig, Target},
    rules::{Board, Rules, Variant},
};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A fresh, empty directory under the system's temporary directory,
/// unique to this test process, this call and its name (two tests of one
/// program may ask for the same name at once), removed (with everything
/// in it) when dropped, even by a failing test.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for TempDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A [`TempDir`] named after `name`.
pub fn temp_dir(name: &str) -> TempDir {
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir =
        std::env::temp_dir().join(format!("peasant-test-{}-{call}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    TempDir(dir)
}

/// The boards the exhaustive rule checks walk (dead positions, the
/// one-sided bound): width, height, and whether every setup is searched
/// (`false`: random starts only).
#[allow(dead_code)]
pub const RULE_CHECK_BOARDS: [(u8, u8, bool); 8] = [
    (4, 4, true),
    (6, 4, true),
    (3, 5, true),
    (4, 5, true),
    (5, 5, true),
    (3, 6, true),
    (4, 6, false),
    (3, 8, false),
];

/// The four rule sets of the family on a `w` x `h` board.
pub fn variants(w: u8, h: u8) -> Vec<Variant> {
    let board = Board::new(w, h).unwrap();
    Rules::ALL.iter().map(|&r| Variant::new(board, r)).collect()
}

/// Generates every class of `variant` up to `max_pawns` into `temp_dir(name)`.
pub fn gen(variant: Variant, max_pawns: u8, name: &str) -> TempDir {
    let dir = temp_dir(name);
    let config = GenConfig::new(variant, dir.path());
    generate(&config, Target::MaxPawns(max_pawns), &|_| {}).unwrap();
    dir
}

use peasant::{
    rules::{file_char, parse_position, Bitboard, ByColor, Color, Position, Setup, Square},
    SplitMix64,
};
use std::collections::HashSet;
use std::hash::BuildHasherDefault;

pub type Seen = HashSet<Position, BuildHasherDefault<FxHasher>>;

/// Every position reachable from `pos` (itself included) into `seen`.
pub fn collect(pos: Position, seen: &mut Seen) {
    if !seen.insert(pos) {
        return;
    }
    for &m in pos.legal_moves().iter() {
        collect(pos.play(m), seen);
    }
}

/// A random legal position with a few pawns, often with empty files.
pub fn random_position(v: Variant, rng: &mut SplitMix64) -> Option<Position> {
    let (w, h) = (v.board.width(), v.board.height());
    let mut pawns = ByColor {
        white: Bitboard::EMPTY,
        black: Bitboard::EMPTY,
    };
    let n = 2 + rng.below(2 * w as u64 + 2);
    for _ in 0..n {
        let sq = Square::new(rng.below(w as u64) as u8, 1 + rng.below(h as u64 - 2) as u8);
        if rng.below(2) == 0 {
            pawns.white.set(sq);
        } else {
            pawns.black.set(sq);
        }
    }
    pawns.black &= !pawns.white;
    let setup = Setup {
        board: v.board,
        pawns,
        turn: if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        },
        ep_square: None,
    };
    Position::from_setup(&setup, v).ok()
}

/// Questions big enough that threads on one question meet in the same
/// subtrees many times (Peasants' Chess 4x7, the pawn game 5x6, and 6x5
/// under the second rule set): each one's variant with its setup and the
/// positions after every first move, setup first.
pub fn bigger_questions() -> Vec<(Variant, Vec<Position>)> {
    let cases = [
        ("peasants", 4, 7, Rules::ALL[0]),
        ("pawngame", 5, 6, Rules::ALL[0]),
        ("pawngame", 6, 5, Rules::ALL[1]),
    ];
    cases
        .into_iter()
        .map(|(setup, w, h, rules)| {
            let board = Board::new(w, h).unwrap();
            let start = parse_position(setup, Some(board), rules).unwrap();
            let mut positions = vec![start];
            positions.extend(start.legal_moves().iter().map(|&m| start.play(m)));
            (Variant::new(board, rules), positions)
        })
        .collect()
}

/// A team of threads (either search) stopped by a budget of 2,000 nodes on
/// "does white avoid losing?" about `start` says so, its threads stopping
/// within `slack` nodes more at their next look at the budget; asked
/// again without one, it gives `expected`, one thread's answer: what the
/// threads proved stays in the table.
pub fn stops_at_its_budget_and_goes_on(
    team: &dyn peasant::solve::Solve,
    start: &Position,
    expected: bool,
    slack: u64,
) {
    use peasant::solve::{Question, SolveError};
    assert!(matches!(
        team.answer(start, Question::AvoidsLoss, Some(2_000)),
        Err(SolveError::Stopped)
    ));
    let stopped_at = team.stats().nodes;
    assert!(stopped_at < 2_000 + slack, "{stopped_at}");
    assert_eq!(
        team.answer(start, Question::AvoidsLoss, None).unwrap(),
        expected
    );
}

/// Every position reachable from the setups of `v` (the pawn game, Peasants'
/// Chess where the height allows, every Pawn Race gap pair) if `setups`,
/// and from `randoms` random positions; sorted.
pub fn reachable_positions(v: Variant, setups: bool, randoms: usize) -> Vec<Position> {
    let mut seen = Seen::default();
    let (w, h) = (v.board.width(), v.board.height());
    let mut names = Vec::new();
    if setups {
        names.push("pawngame".to_string());
        if h >= 6 {
            names.push("peasants".into());
        }
        for x in 0..w {
            for y in 0..w {
                names.push(format!("pawnrace:{}:{}", file_char(x), file_char(y)));
            }
        }
    }
    for name in names {
        if let Ok(p) = parse_position(&name, Some(v.board), v.rules) {
            collect(p, &mut seen);
        }
    }
    let mut rng = SplitMix64::new(w as u64 * 131 + h as u64);
    for _ in 0..randoms {
        if let Some(p) = random_position(v, &mut rng) {
            collect(p, &mut seen);
        }
    }
    let mut out: Vec<Position> = seen.into_iter().collect();
    out.sort();
    out
}

/// The built `peasant` binary, for a test that starts it under another
/// program (`sh -c`, `mpirun`); a test that runs it directly uses
/// [`peasant_command`].
pub const PEASANT: &str = env!("CARGO_BIN_EXE_peasant");

/// The built `peasant` with `args`, rayon on one thread (the tests run
/// side by side), ready for a test to give it stdin, more arguments or
/// environment, and to run or spawn it: every test starts the binary
/// here.
pub fn peasant_command<I, S>(args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut c = Command::new(PEASANT);
    c.args(args).env("RAYON_NUM_THREADS", "1");
    c
}

/// Sends `signal` (`kill`'s form: "-TERM") to process `pid`.
pub fn send_signal(signal: &str, pid: u32) {
    let status = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill {signal} {pid}");
}

/// Reads a child's output line by line until a line holds `marker`; what
/// it read. Fails if the output ends first.
pub fn read_until(out: &mut impl std::io::BufRead, marker: &str) -> String {
    let mut seen = String::new();
    while !seen.contains(marker) {
        let mut line = String::new();
        assert!(
            out.read_line(&mut line).unwrap() > 0,
            "no {marker:?}: {seen}"
        );
        seen.push_str(&line);
    }
    seen
}

/// Whether this process ignores SIGHUP (the tests run under `nohup`, say):
/// its children then start with SIGHUP ignored too, and `peasant` keeps
/// ignoring it, so a test cannot stop them with one. Linux's /proc says;
/// elsewhere it is taken as not ignored.
pub fn sighup_ignored() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigIgn:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & 1 != 0)
}

/// Runs the built `peasant` with `args` (rayon on one thread, stdin
/// empty) and waits for it.
pub fn run_peasant(args: &[&str]) -> Output {
    output_of(peasant_command(args))
}

/// Runs `command` (stdin empty unless the command says otherwise) and
/// waits for it.
pub fn output_of(mut command: Command) -> Output {
    command
        .output()
        .unwrap_or_else(|e| panic!("{command:?} does not run: {e}"))
}

/// Runs `command` with stdout and stderr captured, killed and failing the
/// test if it has not ended within `limit` (a reader that never ends,
/// such as one reading /dev/full, must fail the test, not hang it).
pub fn output_within(mut command: Command, limit: Duration) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{command:?} does not start: {e}"));
    let deadline = Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            let out = child.wait_with_output().unwrap();
            panic!(
                "{command:?} did not end within {limit:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Whether `out`, the answer to `args`, is a refusal as the command line
/// promises: exit status `status`, exactly one non-empty line on stderr
/// that mentions every word of `mentions` (case-insensitive), nothing on
/// stdout, no panic. `Err` lists what is wrong.
pub fn check_refusal(
    args: &[&str],
    out: &std::process::Output,
    status: i32,
    mentions: &[&str],
) -> Result<(), String> {
    let err = String::from_utf8_lossy(&out.stderr);
    let mut problems = Vec::new();
    if out.status.code() != Some(status) {
        problems.push(format!("exit status {:?}, not {status}", out.status.code()));
    }
    let lines: Vec<&str> = err.lines().collect();
    if lines.len() != 1 || lines[0].trim().is_empty() || !err.ends_with('\n') {
        problems.push(format!("stderr is not exactly one non-empty line: {err:?}"));
    }
    if err.contains("panicked") || err.contains("RUST_BACKTRACE") {
        problems.push(format!("panic: {err:?}"));
    }
    if !out.stdout.is_empty() {
        problems.push(format!(
            "stdout is not empty: {:?}",
            String::from_utf8_lossy(&out.stdout)
        ));
    }
    let lower = err.to_lowercase();
    for word in mentions {
        if !lower.contains(&word.to_lowercase()) {
            problems.push(format!("message does not mention '{word}': {err:?}"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{args:?}: {}", problems.join("; ")))
    }
}
