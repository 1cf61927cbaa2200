//! The terminal game (`peasant play`) through its input and output, with
//! the built binary: an illegal move (one line, the prompt again, nothing
//! changes), `hint`, `undo`, `value`, a full game to the end against
//! perfect play, and the PGN with each move's value. Every value the
//! engine claims is checked against plain minimax.

use crate::common::{self, minimax, MinimaxMemo};
use peasant::rules::{parse_position, Board, Color, Position, Rules, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{ChildStdout, Stdio};

/// Reads the process's output up to its next prompt (`> `) or its end.
fn until_prompt(out: &mut BufReader<ChildStdout>) -> (String, bool) {
    let mut text = Vec::new();
    loop {
        let buf = out.fill_buf().unwrap();
        if buf.is_empty() {
            return (String::from_utf8(text).unwrap(), false);
        }
        let b = buf[0];
        out.consume(1);
        text.push(b);
        if text.ends_with(b"> ") {
            return (String::from_utf8(text).unwrap(), true);
        }
    }
}

/// The value words the game prints for a value from its owner's view.
fn words(v: Value) -> String {
    match v {
        Value::Win(d) => format!("wins in {d}"),
        Value::Loss(d) => format!("loses in {d}"),
        Value::Draw => "draw".into(),
    }
}

/// Plays `start` as `human`, always following the hint; returns the whole
/// transcript. Checks each engine claim against minimax on the way.
fn scripted_game(
    start: Position,
    human: Color,
    rules_args: &[&str],
    pgn_file: &str,
    commands: bool,
) -> String {
    let board = format!("{}", start.board());
    let mut child = common::peasant_command(["--board", &board])
        .args(rules_args)
        .args([
            "play",
            &start.to_string(),
            "--as",
            human.name(),
            "--think",
            "20",
        ])
        .args(["--pgn", pgn_file])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut memo = MinimaxMemo::default();
    let mut transcript = String::new();
    let mut pos = start;
    let send = |stdin: &mut std::process::ChildStdin, line: &str| {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    };
    let mut first = commands;
    loop {
        let (text, prompted) = until_prompt(&mut out);
        transcript.push_str(&text);
        // The engine's moves since the last prompt, with their claims.
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("peasant plays ") {
                let (san, claim) = rest.split_once(": ").unwrap();
                let value = minimax(&pos, &mut memo);
                assert_eq!(claim, format!("{} (search)", words(value)), "{pos}");
                let m = pos.parse_move(san).unwrap();
                assert_eq!(minimax(&pos.play(m), &mut memo).before_move(), value);
                pos = pos.play(m);
            }
        }
        if !prompted {
            break;
        }
        if first {
            first = false;
            // An illegal move: one line, then the prompt again.
            send(&mut stdin, "e9");
            let (text, prompted) = until_prompt(&mut out);
            assert!(prompted);
            let prompt = format!("your move ({human})> ");
            let said = text
                .strip_suffix(&prompt)
                .unwrap_or_else(|| panic!("{text}"));
            assert_eq!(said.lines().count(), 1, "{text}");
            assert!(text.contains("'e9' is not a legal move here"), "{text}");
            // The value from the person's view.
            send(&mut stdin, "value");
            let (text, _) = until_prompt(&mut out);
            let v = minimax(&pos, &mut memo);
            assert!(
                text.starts_with(&format!("value: {human} {} (search)", words(v))),
                "{text}"
            );
            // A move, the engine's reply, then undo: back where we were.
            let m = pos.legal_moves()[0];
            send(&mut stdin, &m.uci());
            let (text, _) = until_prompt(&mut out);
            assert!(text.contains("peasant plays "), "{text}");
            send(&mut stdin, "undo");
            let (text, _) = until_prompt(&mut out);
            assert!(text.starts_with("taken back"), "{text}");
            assert!(text.contains(&pos.diagram()), "{text}");
        }
        send(&mut stdin, "hint");
        let (text, _) = until_prompt(&mut out);
        let rest = text
            .strip_prefix("hint: ")
            .unwrap_or_else(|| panic!("{text}"));
        let san = rest.split_whitespace().next().unwrap();
        let m = pos.parse_move(san).unwrap();
        let value = minimax(&pos, &mut memo);
        assert_eq!(
            minimax(&pos.play(m), &mut memo).before_move(),
            value,
            "hint {san} at {pos}"
        );
        assert!(rest.contains(&words(value)), "{rest}");
        send(&mut stdin, san);
        pos = pos.play(m);
    }
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "{err}");
    assert!(pos.is_game_over(), "{transcript}");
    transcript
}

#[test]
fn a_whole_game_against_perfect_play() {
    // Pawn game 5x5 without en passant: white wins in 5 (README).
    let rules = Rules {
        en_passant: false,
        seventh_rank_wins: false,
    };
    let start = parse_position("pawngame", Some(Board::new(5, 5).unwrap()), rules).unwrap();
    let dir = common::temp_dir("play");
    std::fs::create_dir_all(&dir).unwrap();
    let pgn_path = dir.join("game.pgn");
    let transcript = scripted_game(
        start,
        Color::White,
        &["--no-en-passant"],
        pgn_path.to_str().unwrap(),
        true,
    );
    assert!(transcript.contains("result: 1-0"), "{transcript}");
    let pgn = std::fs::read_to_string(&pgn_path).unwrap();
    assert!(transcript.contains(&pgn), "the PGN is printed too");
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(
        pgn.contains("[Variant \"pawns 5x5 no-en-passant\"]"),
        "{pgn}"
    );
    assert!(pgn.contains(&format!("[FEN \"{start}\"]")), "{pgn}");
    // Five plies, each with its value: the winner's from 5 down, the
    // loser's from 4 down.
    let moves = pgn.lines().last().unwrap();
    for c in ["{wins in 5}", "{loses in 4}", "{wins in 3}", "{loses in 2}"] {
        assert!(moves.contains(c), "{moves}");
    }
    assert!(moves.ends_with("1-0"), "{moves}");

    // The other side: the person defends a lost position (4x4 pawn game,
    // white loses in 2) and the engine wins fastest.
    let start = parse_position(
        "pawngame",
        Some(Board::new(4, 4).unwrap()),
        Rules::default(),
    )
    .unwrap();
    let transcript = scripted_game(start, Color::White, &[], pgn_path.to_str().unwrap(), false);
    assert!(transcript.contains("result: 0-1"), "{transcript}");
    // 4x5, the person black: whatever the value, the claims match minimax.
    let start = parse_position(
        "pawngame",
        Some(Board::new(4, 5).unwrap()),
        Rules::default(),
    )
    .unwrap();
    scripted_game(start, Color::Black, &[], pgn_path.to_str().unwrap(), false);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments() {
    let run = common::run_peasant;
    for args in [
        &["play", "nonsense"][..],
        &["play", "pawngame", "--think", "-1"],
        &["play", "pawngame", "--gaps", "AB"],
        &["--board", "4x4", "play", "4/4/4/PPP1 w -"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).trim().lines().count(),
            1,
            "{args:?}"
        );
    }
}

#[test]
fn unproven_moves_say_so_and_quit_ends_the_game() {
    // The 8x8 pawn game is far beyond a fraction of a second of search:
    // the engine plays the best move found and says it is not proven.
    let out = common::peasant_command([
        "play",
        "pawngame",
        "--as",
        "black",
        "--think",
        "0.3",
        "--hash-mb",
        "16",
    ])
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .and_then(|mut child| {
        child.stdin.take().unwrap().write_all(b"quit\n")?;
        child.wait_with_output()
    })
    .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("peasant plays "))
        .unwrap();
    assert!(
        line.ends_with(": not proven: the best move found in time"),
        "{line}"
    );
    assert!(text.contains("result: *"), "{text}");
    assert!(text.contains("{not proven} *"), "{text}");
}
