//! The command line's contract (docs/RULES.md, README.md), by running the built
//! binary: bad input gives exit status 2 and exactly one line on stderr;
//! `perft` ends with the count alone; `--json` prints one JSON object with the
//! promised fields. Expected counts and move lists come from the naive
//! generator of `tests/naive`, not from the engine.

#[allow(unused_imports)]
use crate::common;
use crate::naive::{Game, Opts};
use serde_json::Value;
use std::process::Output;

fn run(args: &[&str]) -> Output {
    common::run_peasant(args)
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

/// Runs a command that must succeed and returns its stdout.
fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

fn json(args: &[&str]) -> Value {
    let text = ok(args);
    assert_eq!(
        text.trim().lines().count(),
        1,
        "{args:?}: one JSON object on one line: {text}"
    );
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {text}"))
}

const REAL: Opts = Opts {
    en_passant: true,
    seventh_rank_wins: false,
};
const SRW: Opts = Opts {
    en_passant: true,
    seventh_rank_wins: true,
};
const NO_EP: Opts = Opts {
    en_passant: false,
    seventh_rank_wins: false,
};

fn naive_fen(text: &str, opts: Opts) -> Game {
    Game::from_fen(text, opts).unwrap_or_else(|| panic!("naive refuses {text}"))
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn naive_sans(g: &Game) -> Vec<String> {
    sorted(g.moves().iter().map(|m| m.san()).collect())
}

fn json_moves(v: &Value) -> Vec<String> {
    let moves = v["moves"]
        .as_array()
        .unwrap_or_else(|| panic!("no moves array: {v}"));
    sorted(
        moves
            .iter()
            .map(|m| m.as_str().expect("moves are strings").to_string())
            .collect(),
    )
}

// ---------------------------------------------------------------------------
// Bad input.

/// One kind of bad input: a name, the arguments, and words the one-line
/// message must contain (it must name what is wrong).
struct Bad {
    name: &'static str,
    args: &'static [&'static str],
    mentions: &'static [&'static str],
}

const fn bad(
    name: &'static str,
    args: &'static [&'static str],
    mentions: &'static [&'static str],
) -> Bad {
    Bad {
        name,
        args,
        mentions,
    }
}

/// Position texts that are not legal positions of the family. Each is tried
/// with `show` and with `perft`.
const BAD_POSITIONS: &[Bad] = &[
    bad("rank widths differ", &["4/ppp/PPPP/4 w -"], &["wide"]),
    bad(
        "a rank wider than 8",
        &["ppppppppp/8/8/PPPPPPPP w -"],
        &["8"],
    ),
    bad(
        "too many ranks",
        &["8/8/pppppppp/8/8/8/PPPPPPPP/8/8 w -"],
        &["9"],
    ),
    bad("too few ranks", &["3/ppp/PPP w -"], &["3"]),
    bad("bad character", &["4/pkpp/PPPP/4 w -"], &["k"]),
    bad("digit zero", &["4/pppp/PPPP/0 w -"], &["0"]),
    bad(
        "white pawn on its first rank",
        &["4/pppp/4/P3 w -"],
        &["a1"],
    ),
    bad(
        "black pawn on its first rank",
        &["p3/4/pppp/PPPP/4 w -"],
        &["a5"],
    ),
    bad(
        "white pawn on its last rank",
        &["P3/4/pppp/4/4 b -"],
        &["a5"],
    ),
    bad(
        "black pawn on its last rank",
        &["4/4/PPPP/4/p3 w -"],
        &["a1"],
    ),
    bad(
        "en passant square on the wrong rank",
        &["8/8/8/3pP3/8/8/8/8 w d3"],
        &["d3"],
    ),
    bad(
        "en passant square of the side to move",
        &["8/p7/8/8/4P3/8/8/8 w e3"],
        &["e3"],
    ),
    bad(
        "en passant square, black to move, wrong side",
        &["8/8/8/3pP3/8/8/8/8 b d6"],
        &["d6"],
    ),
    bad(
        "en passant square with no pawn on the arrival square",
        &["8/p7/8/4P3/8/8/8/8 w d6"],
        &["d6"],
    ),
    bad(
        "en passant square that is occupied",
        &["8/8/3p4/3pP3/8/8/8/8 w d6"],
        &["d6"],
    ),
    bad(
        "en passant origin square occupied",
        &["8/3p4/8/3pP3/8/8/8/8 w d6"],
        &["d6"],
    ),
    bad(
        "en passant square off the board",
        &["4/pppp/4/4/PPPP/4 w g4"],
        &["g4"],
    ),
    bad(
        "en passant field not a square",
        &["4/pppp/PPPP/4 w z9"],
        &["z9"],
    ),
    bad("no pawns at all", &["8/8/8/8/8/8/8/8 w -"], &["pawn"]),
    bad(
        "the side that just moved has no pawns",
        &["8/pppppppp/8/8/8/8/8/8 b -"],
        &["white"],
    ),
    bad("bad side to move", &["4/pppp/PPPP/4 x -"], &["x"]),
    bad(
        "missing side to move",
        &["4/pppp/PPPP/4"],
        &["side to move"],
    ),
    bad("too many fields", &["4/pppp/PPPP/4 w - 0 1 2"], &["fields"]),
    bad("bad move counter", &["4/pppp/PPPP/4 w - x 1"], &["x"]),
    bad("empty position", &[""], &[]),
    bad("unknown setup name", &["kings"], &["kings"]),
    bad(
        "setup that does not fit",
        &["peasants", "--board", "8x5"],
        &["8x5"],
    ),
    bad(
        "pawnrace gap off the board",
        &["pawnrace:h:a", "--board", "4x8"],
        &["pawnrace"],
    ),
    bad("pawnrace gap not a file", &["pawnrace:i:a"], &["pawnrace"]),
    bad("pawnrace missing a gap", &["pawnrace:a"], &["pawnrace"]),
    bad(
        "pawnrace leaving no pawns",
        &["pawnrace:a:a", "--board", "1x8"],
        &["pawns"],
    ),
    bad(
        "position text and --board disagree",
        &["4/pppp/PPPP/4 w -", "--board", "8x8"],
        &["4x4", "8x8"],
    ),
    bad("board too wide", &["peasants", "--board", "9x8"], &["9x8"]),
    bad("board too low", &["pawngame", "--board", "8x3"], &["8x3"]),
    bad("board too high", &["pawngame", "--board", "8x9"], &["8x9"]),
    bad("board zero wide", &["pawngame", "--board", "0x8"], &["0x8"]),
    bad("board not WxH", &["pawngame", "--board", "foo"], &["foo"]),
    bad(
        "board missing height",
        &["pawngame", "--board", "8x"],
        &["8x"],
    ),
];

/// Other bad command lines.
const BAD_COMMANDS: &[Bad] = &[
    bad(
        "perft depth not a number",
        &["perft", "peasants", "x"],
        &["x"],
    ),
    bad(
        "perft depth negative",
        &["perft", "peasants", "-1"],
        &["-1"],
    ),
    bad(
        "perft depth too large",
        &["perft", "peasants", "99999999999"],
        &["99999999999"],
    ),
    bad("perft depth missing", &["perft", "peasants"], &["depth"]),
    bad(
        "perft position and depth missing",
        &["perft"],
        &["pos", "depth"],
    ),
    bad("show position missing", &["show"], &["pos"]),
    bad(
        "solve cache size not a number",
        &["--board", "4x4", "solve", "pawngame", "--cache-mb", "lots"],
        &["cache-mb"],
    ),
    bad(
        "gen zstd level out of range",
        &["gen", "--max-pawns", "2", "--zstd-level", "23"],
        &["zstd-level"],
    ),
    bad("unknown command", &["frobnicate"], &["frobnicate"]),
    bad(
        "unknown option",
        &["show", "peasants", "--frobnicate"],
        &["frobnicate"],
    ),
    bad(
        "--board without a value",
        &["show", "peasants", "--board"],
        &["board"],
    ),
];

fn check_bad(name: &str, args: &[&str], mentions: &[&str]) -> Result<(), String> {
    common::check_refusal(args, &run(args), 2, mentions).map_err(|e| format!("{name} {e}"))
}

#[test]
fn bad_positions_are_refused_with_one_line_and_status_2() {
    let mut failures = Vec::new();
    for case in BAD_POSITIONS {
        let (pos, rest) = case.args.split_first().unwrap();
        let mut show = vec!["show", pos];
        show.extend_from_slice(rest);
        let mut perft = vec!["perft", pos, "1"];
        perft.extend_from_slice(rest);
        let mut json = vec!["--json", "perft", pos, "2"];
        json.extend_from_slice(rest);
        for args in [show, perft, json] {
            if let Err(e) = check_bad(case.name, &args, case.mentions) {
                failures.push(e);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn bad_commands_are_refused_with_one_line_and_status_2() {
    let mut failures = Vec::new();
    for case in BAD_COMMANDS {
        if let Err(e) = check_bad(case.name, case.args, case.mentions) {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_bad_positions_are_also_refused_by_the_naive_reader() {
    // Keeps the table honest: each position text above is really illegal.
    for case in BAD_POSITIONS {
        let text = case.args[0];
        if text.contains('/') && case.args.len() == 1 {
            assert!(
                Game::from_fen(text, REAL).is_none(),
                "{}: naive accepts {text}",
                case.name
            );
        }
    }
}

#[test]
fn good_positions_near_the_bad_ones_are_accepted() {
    // The same shapes, made legal, must not be refused: the checks are not
    // simply refusing everything.
    for text in [
        "8/8/8/3pP3/8/8/8/8 w d6",
        "8/8/8/8/3Pp3/8/8/8 b d3",
        "4/pppp/PPPP/4 w - 0 1",
        "8/8/8/8/8/8/PPPPPPPP/8 b -",
        "4/pp1p/4/1PpP/4 w c3",
    ] {
        let v = json(&["--json", "show", text]);
        let g = naive_fen(text, REAL);
        assert_eq!(json_moves(&v), naive_sans(&g), "{text}");
    }
}

// ---------------------------------------------------------------------------
// Output formats.

#[test]
fn perft_last_line_is_the_count_alone() {
    for (pos, board, depth) in [
        ("peasants", "8x8", 4),
        ("pawngame", "5x5", 6),
        ("pawnrace:f:a", "6x6", 3),
    ] {
        let (w, h) = (board.as_bytes()[0] - b'0', board.as_bytes()[2] - b'0');
        let expected = Game::setup(pos, w as usize, h as usize, REAL)
            .unwrap()
            .perft(depth);
        let out = ok(&["perft", pos, &depth.to_string(), "--board", board]);
        let last = out.lines().last().expect("some output");
        assert_eq!(
            last,
            expected.to_string(),
            "{pos} {board} perft {depth}: {out}"
        );
    }
}

#[test]
fn perft_divide_lists_each_move_then_the_total() {
    let g = Game::setup("pawngame", 5, 5, REAL).unwrap();
    let out = ok(&["perft", "pawngame", "4", "--divide", "--board", "5x5"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last().copied(), Some(g.perft(4).to_string().as_str()));
    let mut seen = Vec::new();
    for line in &lines[..lines.len() - 1] {
        let (san, n) = line
            .split_once(": ")
            .unwrap_or_else(|| panic!("divide line {line:?}"));
        let m = g
            .moves()
            .into_iter()
            .find(|m| m.san() == san)
            .expect("a legal move");
        assert_eq!(n, g.play(&m).perft(3).to_string(), "{san}");
        seen.push(san.to_string());
    }
    assert_eq!(sorted(seen), naive_sans(&g));
}

#[test]
fn perft_json_has_nodes_and_seconds() {
    let g = Game::setup("peasants", 6, 6, REAL).unwrap();
    let v = json(&["--json", "perft", "peasants", "4", "--board", "6x6"]);
    assert_eq!(v["nodes"].as_u64(), Some(g.perft(4)), "{v}");
    let seconds = v["seconds"]
        .as_f64()
        .unwrap_or_else(|| panic!("seconds is a number: {v}"));
    assert!(seconds >= 0.0);

    let v = json(&[
        "--json", "perft", "pawngame", "3", "--divide", "--board", "4x6",
    ]);
    let g = Game::setup("pawngame", 4, 6, REAL).unwrap();
    assert_eq!(v["nodes"].as_u64(), Some(g.perft(3)), "{v}");
    assert!(v["seconds"].is_number());
}

#[test]
fn show_json_has_fen_and_moves() {
    for (pos, board, opts, flags) in [
        ("peasants", "8x8", REAL, &[][..]),
        ("pawnrace:h:a", "8x8", REAL, &[][..]),
        ("pawngame", "3x4", SRW, &["--seventh-rank-wins"][..]),
        ("8/p1p1pppp/8/PpP5/8/8/5PPP/8 w b6", "8x8", REAL, &[][..]),
        (
            "8/p1p1pppp/8/PpP5/8/8/5PPP/8 w b6",
            "8x8",
            NO_EP,
            &["--no-en-passant"][..],
        ),
    ] {
        let mut args = vec!["--json", "show", pos, "--board", board];
        args.extend_from_slice(flags);
        let v = json(&args);
        let (w, h) = (board.as_bytes()[0] - b'0', board.as_bytes()[2] - b'0');
        let g = Game::setup(pos, w as usize, h as usize, opts)
            .or_else(|| Game::from_fen(pos, opts))
            .unwrap();
        let fen = v["fen"]
            .as_str()
            .unwrap_or_else(|| panic!("fen is a string: {v}"));
        // The engine's FEN reads back (by the naive reader) as the same pawns.
        let back = naive_fen(fen, opts);
        assert_eq!(back.cells, g.cells, "{pos}: {fen}");
        assert_eq!(back.to_move, g.to_move, "{pos}: {fen}");
        assert_eq!(json_moves(&v), naive_sans(&g), "{pos} {flags:?}");
    }
    // Without en passant the right disappears from the position text.
    let v = json(&[
        "--json",
        "--no-en-passant",
        "show",
        "8/p1p1pppp/8/PpP5/8/8/5PPP/8 w b6",
    ]);
    assert!(v["fen"].as_str().unwrap().ends_with(" -"), "{v}");
    let v = json(&["--json", "show", "8/p1p1pppp/8/PpP5/8/8/5PPP/8 w b6"]);
    assert!(v["fen"].as_str().unwrap().ends_with(" b6"), "{v}");
    assert!(json_moves(&v).contains(&"axb6".to_string()));
    assert!(json_moves(&v).contains(&"cxb6".to_string()));
}

// ---------------------------------------------------------------------------
// The worked examples of docs/RULES.md, through the command line.

fn outcome(v: &Value) -> Option<String> {
    v["outcome"].as_str().map(str::to_string)
}

#[test]
fn rules_example_three_by_five() {
    let start = "3/2p/ppP/3/3 b -";
    for flags in [&[][..], &["--seventh-rank-wins"][..]] {
        let mut args = vec!["--json", "show", start];
        args.extend_from_slice(flags);
        let v = json(&args);
        assert_eq!(json_moves(&v), ["a2", "b2"], "{flags:?}");
        assert_eq!(outcome(&v), None);
    }
    // The positions after a2 and after b2 (written out by hand).
    for after in ["3/2p/1pP/p2/3 w -", "3/2p/p1P/1p1/3 w -"] {
        let v = json(&["--json", "show", after]);
        assert_eq!(
            json_moves(&v),
            Vec::<String>::new(),
            "{after}: white has no move"
        );
        assert_eq!(outcome(&v).as_deref(), Some("draw"), "{after}: real rules");
        let v = json(&["--json", "--seventh-rank-wins", "show", after]);
        assert_eq!(json_moves(&v), Vec::<String>::new(), "{after}");
        let o = outcome(&v).unwrap_or_default();
        assert!(
            o.starts_with("black"),
            "{after}: black has won under --seventh-rank-wins: {v}"
        );
    }
}

#[test]
fn rules_example_four_by_four_pawngame() {
    let v = json(&["--json", "show", "pawngame", "--board", "4x4"]);
    let g = Game::setup("pawngame", 4, 4, REAL).unwrap();
    let moves = json_moves(&v);
    assert_eq!(moves, naive_sans(&g));
    assert!(!moves.is_empty());
    for nm in g.moves() {
        assert!(nm.san().contains('x'), "{} is a capture", nm.san());
        let after = g.play(&nm);
        let v = json(&["--json", "show", &after.fen()]);
        // A black double step straight onto rank 1...
        let homers: Vec<String> = json_moves(&v)
            .into_iter()
            .filter(|m| m.len() == 2 && m.ends_with('1'))
            .collect();
        assert!(!homers.is_empty(), "after {}: {v}", nm.san());
        // ...after which the game is over: perft --divide gives it 0.
        let out = ok(&["perft", &after.fen(), "2", "--divide"]);
        for home in homers {
            let m = after.moves().into_iter().find(|m| m.san() == home).unwrap();
            assert!(m.double_step, "{home}");
            assert!(
                out.lines().any(|l| l == format!("{home}: 0")),
                "after {}: {out}",
                nm.san()
            );
        }
    }
}

#[test]
fn rules_example_one_file_peasants() {
    let counts: Vec<String> = (1..=5)
        .map(|d| {
            let out = ok(&["perft", "peasants", &d.to_string(), "--board", "1x8"]);
            out.lines().last().unwrap().to_string()
        })
        .collect();
    assert_eq!(counts, ["1", "1", "1", "1", "0"]);
    let v = json(&["--json", "show", "peasants", "--board", "1x8"]);
    assert_eq!(json_moves(&v), ["a4"]);
    let mut g = Game::setup("peasants", 1, 8, REAL).unwrap();
    for san in ["a4", "a5", "a3", "a6"] {
        let m = g.moves().into_iter().find(|m| m.san() == san).unwrap();
        g = g.play(&m);
    }
    let v = json(&["--json", "show", &g.fen()]);
    assert_eq!(json_moves(&v), Vec::<String>::new());
    assert_eq!(outcome(&v).as_deref(), Some("draw"));
}

/// `solve --save FILE` stopped by SIGTERM (a batch scheduler's time limit)
/// or SIGHUP (a closed terminal) saves what it proved and ends with status
/// 130, as on Ctrl-C; the same command then loads the file. Under `nohup`
/// SIGHUP stays ignored, and SIGTERM still stops the run.
#[test]
fn solve_stopped_by_a_signal_saves() {
    use std::io::{BufReader, Read};
    let dir = std::env::temp_dir().join(format!("peasant-cli-signal-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let have_nohup = std::process::Command::new("nohup")
        .arg("true")
        .status()
        .is_ok_and(|s| s.success());
    for (signals, nohup) in [
        (&["-TERM"][..], false),
        (&["-HUP"], false),
        (&["-HUP", "-TERM"], true),
    ] {
        // Under a SIGHUP already ignored (tests run under nohup) only the
        // SIGTERM cases tell anything.
        let ignored = common::sighup_ignored();
        if (nohup && !have_nohup) || (ignored && signals == ["-HUP"]) {
            continue;
        }
        let file = dir.join(format!("5x8{}-{nohup}.proven", signals[0]));
        let file = file.to_str().unwrap();
        // Peasants' Chess 5x8 takes far longer than the test.
        let args = ["solve", "peasants", "--board", "5x8", "--save", file];
        let mut command = if nohup {
            let mut c = std::process::Command::new("nohup");
            c.arg(common::PEASANT)
                .args(args)
                .env("RAYON_NUM_THREADS", "1");
            c
        } else {
            common::peasant_command(args)
        };
        let mut child = command
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut err = BufReader::new(child.stderr.take().unwrap());
        // The handler is set right after the line naming the method.
        let mut seen = common::read_until(&mut err, "method:");
        for (i, signal) in signals.iter().enumerate() {
            // Long enough after an ignored signal for a stop to show.
            let pause = if i == 0 { 500 } else { 1500 };
            std::thread::sleep(std::time::Duration::from_millis(pause));
            // An ignored SIGHUP has left the solve running.
            assert!(child.try_wait().unwrap().is_none(), "{signals:?}");
            common::send_signal(signal, child.id());
        }
        err.read_to_string(&mut seen).unwrap();
        let code = child.wait().unwrap().code();
        assert_eq!(code, Some(130), "{signals:?} {nohup}: {seen}");
        assert!(seen.contains("stopped by Ctrl-C or a signal"), "{seen}");
        let mut again = args.to_vec();
        again.extend(["--max-nodes", "1"]);
        let out = run(&again);
        assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
        let loaded = format!("proven positions from {file}");
        assert!(stderr(&out).contains(&loaded), "{}", stderr(&out));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `solve --save FILE --max-nodes N` stops (status 3) and saves; the same
/// command without the budget resumes and gives the uninterrupted values
/// with fewer nodes. A file of another game or mode is refused (status 2),
/// a damaged one reported (status 1), each in one line naming the file.
#[test]
fn solve_stops_saves_and_resumes() {
    let dir = std::env::temp_dir().join(format!("peasant-cli-save-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for no_ep in [false, true] {
        for dtm in [false, true] {
            let file = dir.join(format!("pawngame-{no_ep}-{dtm}.proven"));
            let file = file.to_str().unwrap();
            let mut args = vec!["--json", "solve", "pawngame", "--board", "4x6", "-q"];
            args.extend(["--method", "ab"]);
            if no_ep {
                args.push("--no-en-passant");
            }
            if dtm {
                args.push("--dtm");
            }
            let whole = json(&args);
            let whole_nodes = whole["nodes"].as_u64().unwrap();
            let mut stopped = args.clone();
            let budget = (whole_nodes / 2).to_string();
            stopped.extend(["--save", file, "--max-nodes", &budget]);
            let out = run(&stopped);
            assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
            assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
            assert!(stderr(&out).contains(file), "{}", stderr(&out));
            let mut resumed = args.clone();
            resumed.extend(["--save", file]);
            let again = json(&resumed);
            for field in ["value", "dtm", "moves", "line"] {
                assert_eq!(again[field], whole[field], "{field}");
            }
            assert!(again["loaded"].as_u64().unwrap() > 0);
            assert!(again["nodes"].as_u64().unwrap() < whole_nodes);
            // Finished: a third run finds nearly everything in the file.
            assert!(json(&resumed)["nodes"].as_u64().unwrap() * 3 < whole_nodes);
        }
    }
    // Another mode, another rule set, another board: refused.
    let file = dir.join("pawngame-false-true.proven");
    let file = file.to_str().unwrap();
    for extra in [
        &["--board", "4x6"][..],
        &["--board", "4x6", "--dtm", "--no-en-passant"],
        &["--board", "5x6", "--dtm"],
    ] {
        let mut args = vec!["solve", "pawngame", "-q", "--save", file];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", stderr(&out));
        assert_eq!(stderr(&out).lines().count(), 1);
        assert!(stderr(&out).contains(file), "{}", stderr(&out));
    }
    // A flipped byte, a cut file: reported, not used.
    let bytes = std::fs::read(file).unwrap();
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 4;
    for damaged in [flipped, bytes[..bytes.len() - 3].to_vec()] {
        std::fs::write(file, damaged).unwrap();
        let out = run(&[
            "solve", "pawngame", "--board", "4x6", "--dtm", "--save", file,
        ]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
        assert!(stderr(&out).contains(file) && stderr(&out).contains("damaged"));
        assert!(stdout(&out).is_empty());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `solve --method pn` prints the same fields as the alpha-beta solve, and
/// the same values; its line keeps the value (checked by the tables-free
/// `--method ab` solve of the position after each move); the combinations
/// it cannot do are refused with one line and exit status 2.
#[test]
fn solve_method_pn() {
    for extra in [&[][..], &["--no-en-passant"], &["--seventh-rank-wins"]] {
        let mut base = vec!["--json", "solve", "pawngame", "--board", "5x5", "-q"];
        base.extend_from_slice(extra);
        let (mut ab, mut pn) = (base.clone(), base);
        ab.extend(["--method", "ab"]);
        pn.extend(["--method", "pn"]);
        let (a, p) = (json(&ab), json(&pn));
        for field in ["fen", "value", "dtm"] {
            assert_eq!(a[field], p[field], "{extra:?} {field}");
        }
        let values = |v: &Value| {
            let mut m: Vec<(String, String)> = v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    assert!(m["dtm"].is_null() || m["dtm"].is_u64());
                    (m["move"].to_string(), m["value"].to_string())
                })
                .collect();
            m.sort();
            m
        };
        assert_eq!(values(&a), values(&p), "{extra:?}");
        for field in ["nodes", "tt_hits", "table_hits", "rule_leaves", "seconds"] {
            assert!(p[field].is_number(), "{extra:?} {field}: {p}");
        }
        // Each move of the line keeps the value.
        let line: Vec<String> = p["line"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        assert!(!line.is_empty());
        let mut g = Game::setup(
            "pawngame",
            5,
            5,
            Opts {
                en_passant: !extra.contains(&"--no-en-passant"),
                seventh_rank_wins: extra.contains(&"--seventh-rank-wins"),
            },
        )
        .unwrap();
        let mut expected = p["value"].as_str().unwrap().to_string();
        for san in &line {
            let m = g.moves().into_iter().find(|m| &m.san() == san).unwrap();
            g = g.play(&m);
            if g.moves().is_empty() {
                break;
            }
            let fen = g.fen();
            let mut args = vec!["--json", "solve", &fen, "-q", "--method", "ab"];
            args.extend_from_slice(extra);
            let after = json(&args)["value"].as_str().unwrap().to_string();
            let flipped = match expected.as_str() {
                "win" => "loss",
                "loss" => "win",
                _ => "draw",
            };
            assert_eq!(after, flipped, "{extra:?} after {san} in {line:?}");
            expected = after;
        }
    }
    // Text output: the same lines as the alpha-beta solve.
    let text = ok(&[
        "solve", "pawngame", "--board", "4x4", "-q", "--method", "pn",
    ]);
    for start in ["fen:", "rules:", "value:  loss", "line:", "nodes:", "time:"] {
        assert!(
            text.lines().any(|l| l.starts_with(start)),
            "{start}: {text}"
        );
    }
    for (args, mentions) in [
        (
            &[
                "solve", "pawngame", "--board", "4x4", "--method", "pn", "--dtm",
            ][..],
            &["--dtm"][..],
        ),
        (
            &["solve", "pawngame", "--board", "4x4", "--method", "xy"],
            &["method"],
        ),
    ] {
        check_bad("solve --method", args, mentions).unwrap();
    }
    // A bad proof-number setting: the flag, the value quoted, and a word
    // of what it takes.
    for (flag, value, takes) in [
        ("--pn-epsilon", "32", "stick"),
        ("--pn-init", "two", "guided"),
        ("--pn-init", "weights:replies=1,replies=2", "ranks_short"),
    ] {
        let args = [
            "solve", "pawngame", "--board", "4x4", "--method", "pn", flag, value,
        ];
        let quoted = format!("'{value}'");
        check_bad("solve --method", &args, &[flag, &quoted, takes]).unwrap();
    }
    // Each way to set the best child's threshold, and each way to start
    // the numbers (each way to order the moves), gives the same value.
    let epsilons = ["stick", "off", "0", "1", "5"].map(|e| ("--pn-epsilon", e));
    let inits = [
        "guided",
        "mobility",
        "one",
        "tuned",
        "weights:capture=3,replies=-1,passed=2",
    ]
    .map(|i| ("--pn-init", i));
    for (flag, setting) in epsilons.into_iter().chain(inits) {
        let out = json(&[
            "--json", "solve", "pawngame", "--board", "5x5", "-q", "--method", "pn", flag, setting,
        ]);
        assert_eq!(out["value"], "draw", "{flag} {setting}");
        if flag == "--pn-init" {
            assert_eq!(out["pn_init"], setting, "the JSON names the order");
        }
    }
    let ab = json(&[
        "--json", "solve", "pawngame", "--board", "5x5", "-q", "--method", "ab",
    ]);
    assert!(
        ab["pn_init"].is_null(),
        "alpha-beta has no proof-number order"
    );
}

/// `solve --value-only` (both methods) gives the same value as the full
/// solve, and its moves (the first a best move, each with the full solve's
/// value for it) are a subset of the full solve's; the text output names
/// the moves it did not settle.
#[test]
fn solve_value_only() {
    for (board, setup) in [
        ("5x5", "pawngame"),
        ("6x6", "pawnrace:a:e"),
        ("4x6", "peasants"),
    ] {
        let full = json(&[
            "--json", "solve", setup, "--board", board, "-q", "--method", "ab",
        ]);
        assert_eq!(full["value_only"], false);
        let full_moves = full["moves"].as_array().unwrap();
        for method in ["ab", "pn"] {
            let args = [
                "--json",
                "solve",
                setup,
                "--board",
                board,
                "-q",
                "--value-only",
                "--method",
                method,
            ];
            let v = json(&args);
            assert_eq!(v["value"], full["value"], "{args:?}");
            assert_eq!(v["value_only"], true, "{args:?}");
            let moves = v["moves"].as_array().unwrap();
            assert!(!moves.is_empty(), "{args:?}");
            assert_eq!(moves[0]["value"], v["value"], "{args:?}");
            for m in moves {
                let f = full_moves.iter().find(|f| f["move"] == m["move"]).unwrap();
                assert_eq!(f["value"], m["value"], "{args:?} {m}");
            }
            assert!(!v["line"].as_array().unwrap().is_empty(), "{args:?}");
        }
    }
    let text = ok(&[
        "solve",
        "pawngame",
        "--board",
        "5x5",
        "-q",
        "--value-only",
        "--method",
        "ab",
    ]);
    assert!(
        text.lines().any(|l| l.starts_with("value:  draw")),
        "{text}"
    );
    assert!(text.contains("not settled: --value-only"), "{text}");
}

/// A pn solve stopped by its node budget saves what it proved; the pn and
/// the alpha-beta solve each resume from the other's file with the same
/// values and fewer nodes.
#[test]
fn solve_pn_saves_and_seeds_ab() {
    let dir = std::env::temp_dir().join(format!("peasant-cli-pn-save-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pawngame.proven");
    let file = file.to_str().unwrap();
    let base = ["--json", "solve", "pawngame", "--board", "5x6", "-q"];
    let ab_args = [&base[..], &["--method", "ab"]].concat();
    let ab = json(&ab_args);
    let mut pn_args = base.to_vec();
    pn_args.extend(["--method", "pn"]);
    let pn = json(&pn_args);
    assert_eq!(ab["value"], pn["value"]);
    let mut stopped = pn_args.clone();
    let budget = (pn["nodes"].as_u64().unwrap() / 2).to_string();
    stopped.extend(["--save", file, "--max-nodes", &budget]);
    let out = run(&stopped);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    let mut resumed = pn_args.clone();
    resumed.extend(["--save", file]);
    let again = json(&resumed);
    assert_eq!(again["value"], pn["value"]);
    assert_eq!(again["moves"], pn["moves"]);
    assert!(again["loaded"].as_u64().unwrap() > 0);
    assert!(again["nodes"].as_u64().unwrap() < pn["nodes"].as_u64().unwrap());
    // The alpha-beta solve takes the pn file as leaves.
    let mut ab_resumed = ab_args.clone();
    ab_resumed.extend(["--save", file]);
    let seeded = json(&ab_resumed);
    assert_eq!(seeded["value"], ab["value"]);
    assert_eq!(seeded["moves"], ab["moves"]);
    assert!(seeded["nodes"].as_u64().unwrap() < ab["nodes"].as_u64().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without `--method`, `solve` and `prove` run the search
/// `Method::default_for` picks: proof-number search for win/draw/loss,
/// alpha-beta with `--dtm` (its node count is the named method's, so the
/// label is not all that changed); the text says which and why, and
/// `--method ab` still runs alpha-beta.
#[test]
fn the_default_method_is_the_rules_and_method_still_chooses() {
    for (setup, board) in [
        ("peasants", "3x6"),
        ("pawngame", "5x5"),
        ("pawnrace:a:d", "5x5"),
    ] {
        let base = ["--json", "solve", setup, "--board", board, "-q"];
        let with = |extra: &[&str]| json(&[&base[..], extra].concat());
        for value_only in [&[][..], &["--value-only"]] {
            let default = with(value_only);
            let pn = with(&[value_only, &["--method", "pn"]].concat());
            let ab = with(&[value_only, &["--method", "ab"]].concat());
            assert_eq!(default["method"], "pn", "{setup} {value_only:?}");
            assert_eq!(ab["method"], "ab", "{setup} {value_only:?}");
            assert_eq!(default["nodes"], pn["nodes"], "{setup} {value_only:?}");
            assert_ne!(default["nodes"], ab["nodes"], "{setup} {value_only:?}");
            assert_eq!(default["value"], ab["value"], "{setup} {value_only:?}");
        }
        let dtm = with(&["--dtm"]);
        let ab_dtm = with(&["--dtm", "--method", "ab"]);
        assert_eq!(dtm["method"], "ab", "{setup}");
        assert_eq!(dtm["nodes"], ab_dtm["nodes"], "{setup}");
    }
    let text = ok(&["solve", "pawngame", "--board", "5x5", "-q"]);
    assert!(
        text.lines().any(|l| l
            == "method: pn (proof-number search, the default for win/draw/loss; --method ab for alpha-beta)"),
        "{text}"
    );
    let text = ok(&["solve", "pawngame", "--board", "5x5", "-q", "--dtm"]);
    assert!(
        text.contains("method: ab (alpha-beta, the default with --dtm)"),
        "{text}"
    );
    let text = ok(&[
        "solve", "pawngame", "--board", "5x5", "-q", "--method", "ab",
    ]);
    assert!(
        text.contains("method: ab (alpha-beta, --method ab)"),
        "{text}"
    );
    // prove: the workers' search in the run's JSON, and on stderr.
    let dir = common::temp_dir("cli-prove-method");
    for (extra, method) in [(&[][..], "pn"), (&["--method", "ab"], "ab")] {
        let (out, j) = prove_5x5(&dir.join(method), "1", extra);
        assert_eq!(j["method"], method, "{extra:?}");
        assert_eq!(j["value"], "draw", "{extra:?}");
        let said = format!("prove: the workers search by {method} (");
        assert!(stderr(&out).contains(&said), "{}", stderr(&out));
    }
}

/// `prove pawngame --board 5x5` into `dir` on `workers` workers with
/// 100-node first jobs and `extra`: the process's output (exit status 0
/// checked) and its JSON.
fn prove_5x5(dir: &std::path::Path, workers: &str, extra: &[&str]) -> (Output, Value) {
    let d = dir.to_str().unwrap();
    let args = [
        &["--board", "5x5", "prove", "pawngame", "--dir", d][..],
        &["--workers", workers, "--job-nodes", "100", "--json"],
        extra,
    ]
    .concat();
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    let j: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    (out, j)
}

/// Proof-number workers on one table search as one team from eight
/// workers (fewer cost more on two cores than they save), unless
/// --pn-no-spread-jobs; --pn-spread-jobs asks for it with fewer; the run
/// says which, and the answer is the same either way.
#[test]
fn prove_says_whether_its_workers_search_as_one_team() {
    let dir = common::temp_dir("cli-prove-team");
    let cases: [(&str, &[&str], Option<&str>); 6] = [
        ("1", &[], None),
        ("2", &[], Some("the 2 workers' jobs on one table search each on its own (as one team from 8 workers")),
        ("8", &[], Some("the 8 workers' jobs on one table search as one team (the default from 8 workers)")),
        ("8", &["--pn-no-spread-jobs"], Some("the 8 workers' jobs on one table search each on its own (--pn-no-spread-jobs)")),
        ("2", &["--pn-spread-jobs"], Some("the 2 workers' jobs on one table search as one team (--pn-spread-jobs)")),
        ("8", &["--method", "ab"], None),
    ];
    for (i, (workers, extra, said)) in cases.into_iter().enumerate() {
        let (out, j) = prove_5x5(&dir.join(i.to_string()), workers, extra);
        assert_eq!(j["value"], "draw", "{workers} {extra:?}");
        let err = stderr(&out);
        match said {
            Some(said) => assert!(
                err.contains(&format!("prove: {said}")),
                "{workers} {extra:?}: {err}"
            ),
            None => assert!(!err.contains("one table"), "{workers} {extra:?}: {err}"),
        }
    }
    let out = run(&[
        "--board",
        "5x5",
        "prove",
        "pawngame",
        "--dir",
        dir.join("both").to_str().unwrap(),
        "--pn-spread-jobs",
        "--pn-no-spread-jobs",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// `solve --value-only --threads T --emulate-turns K`, alpha-beta and
/// proof-number search: the value of one thread, and the makespan (the
/// answering thread's nodes) in the JSON and on the text's "emulated:"
/// line, far below the work.
#[test]
fn emulated_threads_report_their_makespan() {
    for method in ["ab", "pn"] {
        let args = |extra: &[&'static str]| {
            let mut a = vec![
                "solve",
                "pawngame",
                "--board",
                "5x6",
                "--method",
                method,
                "--value-only",
                "--quiet",
            ];
            a.extend_from_slice(extra);
            a
        };
        let one = json(&args(&["--json"]));
        let team = json(&args(&[
            "--json",
            "--threads",
            "4",
            "--emulate-turns",
            "500",
        ]));
        assert_eq!(team["value"], one["value"], "{method}");
        assert!(one["makespan"].is_null(), "{one}");
        let (span, work) = (
            team["makespan"].as_u64().unwrap(),
            team["nodes"].as_u64().unwrap(),
        );
        assert!(
            span > 0 && span < work / 2,
            "{method}: makespan {span} of {work}"
        );
        let text = ok(&args(&["--threads", "4", "--emulate-turns", "500"]));
        let line = text
            .lines()
            .find(|l| l.starts_with("emulated: 4 threads taking turns of 500 nodes: makespan"))
            .unwrap_or_else(|| panic!("{text}"));
        assert!(line.contains(&format!("makespan {span} nodes")), "{line}");
    }
}

/// `solve` says how many transposition-table entries it gave up for
/// others and the nodes below them: none where the table has room, some
/// in the smallest table (`--hash-mb 0`: one bucket for the proof-number
/// search, 1 MiB for alpha-beta), where the value is the same, and in
/// its summary line.
#[test]
fn solve_counts_the_entries_it_gave_up() {
    let args = |board: &'static str, setup: &'static str, mb: &'static str, method| {
        vec![
            "--json",
            "--board",
            board,
            "solve",
            setup,
            "-q",
            "--hash-mb",
            mb,
            "--method",
            method,
        ]
    };
    for method in ["pn", "ab"] {
        let roomy = json(&args("4x6", "peasants", "64", method));
        assert_eq!(roomy["tt_replaced"], 0, "{method}: {roomy}");
        assert_eq!(roomy["tt_replaced_max_work"], 0, "{method}: {roomy}");
    }
    // Alpha-beta's smallest table holds 4x6's search whole.
    for (board, setup, method) in [("4x6", "peasants", "pn"), ("6x6", "pawngame", "ab")] {
        let roomy = json(&args(board, setup, "64", method));
        let tight = json(&args(board, setup, "0", method));
        let count = |v: &Value, field: &str| v[field].as_u64().unwrap();
        assert!(count(&tight, "tt_replaced") > 0, "{method}: {tight}");
        assert!(
            count(&tight, "tt_replaced") < count(&tight, "tt_stores"),
            "{method}: {tight}"
        );
        assert!(count(&roomy, "tt_stores") > 0, "{method}: {roomy}");
        if method == "pn" {
            // Every node the proof-number search counts ends in one store.
            for v in [&roomy, &tight] {
                assert_eq!(count(v, "tt_stores"), count(v, "nodes"), "{v}");
            }
        }
        assert!(
            tight["tt_replaced_max_work"].as_u64().unwrap() > 0,
            "{method}: {tight}"
        );
        assert_eq!(tight["value"], roomy["value"], "{method}");
    }
    let text = |mb| {
        ok(&[
            "--board",
            "4x6",
            "solve",
            "peasants",
            "-q",
            "--hash-mb",
            mb,
            "--method",
            "pn",
        ])
    };
    let tight = text("0");
    assert!(
        tight.contains("stores (") && tight.contains("gave up another position's entry"),
        "{tight}"
    );
    let roomy = text("64");
    assert!(roomy.contains("table:  no entry given up in "), "{roomy}");
}
