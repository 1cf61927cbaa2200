//! The Pawn Race tournament's line protocol, spoken to the built binary by
//! scripted opponents (random and greedy): `peasant` wins every game as
//! black from the gaps it chooses and as white from a setup where white
//! wins (d:d, README's grid), and bad input from the other side ends the
//! game with one line on stderr and exit status 2. Reply times are
//! measured and printed (run with `--nocapture`), not asserted: the
//! normal suite thinks 0.5 s a move to stay fast; the ignored test
//! `full_clock_replies_within_five_seconds` plays with the default clock
//! (3.5 s of thought) and asserts each reply within 5 s.

#[allow(unused_imports)]
mod common;

use peasant::explore::pawnrace::{parse_gaps, same_setup, start_position, BLACK_WINS};
use peasant::{
    rules::{Color, Move, Outcome, Position, Rules},
    SplitMix64,
};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug)]
enum Opponent {
    Random,
    Greedy,
}

/// The opponent's move: random, or greedy (a move that wins at once, else
/// a capture of the most advanced pawn, else the most advanced push).
fn opponent_move(pos: &Position, kind: Opponent, rng: &mut SplitMix64) -> Move {
    let moves = pos.legal_moves();
    match kind {
        Opponent::Random => moves[rng.below(moves.len() as u64) as usize],
        Opponent::Greedy => {
            let me = pos.turn();
            let advance = |m: &Move| match me {
                Color::White => m.to.rank() as i32,
                Color::Black => -(m.to.rank() as i32),
            };
            let score = |m: &Move| {
                let wins = matches!(pos.play(*m).outcome(),
                    Some(Outcome::Decisive { winner }) if winner == me);
                (wins, m.is_capture(), advance(m), rng_tiebreak(m))
            };
            *moves.iter().max_by_key(|m| score(m)).unwrap()
        }
    }
}

/// A fixed but arbitrary order among equal greedy moves.
fn rng_tiebreak(m: &Move) -> u64 {
    (m.from.index() as u64 * 31 + m.to.index() as u64 * 17) % 23
}

struct Peasant {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Peasant {
    fn start(args: &[&str]) -> Peasant {
        let mut child =
            common::peasant_command(["play", "--protocol", "pawnrace", "--hash-mb", "64"])
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("the peasant binary runs");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Peasant {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    fn read(&mut self) -> String {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        line.trim().to_string()
    }

    /// Closes the input and returns the exit status and stderr.
    fn finish(mut self) -> (Option<i32>, String) {
        drop(self.stdin.take());
        let out = self.child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

struct Played {
    outcome: Option<Outcome>,
    plies: usize,
    longest_reply: Duration,
}

/// One game: `peasant` plays `color`; as black it proposes the gaps and the
/// opponent confirms them, as white the opponent sends `gaps`.
fn game(color: Color, gaps: &str, kind: Opponent, seed: u64, think: &str) -> Played {
    let mut rng = SplitMix64::new(seed);
    let mut args = vec!["--as", color.name()];
    if !think.is_empty() {
        args.extend(["--think", think]);
    }
    let mut p = Peasant::start(&args);
    let gaps = if color == Color::Black {
        let proposed = p.read();
        let g = parse_gaps(&proposed).unwrap_or_else(|| panic!("gaps '{proposed}'"));
        assert!(
            BLACK_WINS.iter().any(|&w| same_setup(w, g)),
            "{proposed} is not a gap pair black wins"
        );
        proposed
    } else {
        gaps.to_string()
    };
    p.send(&gaps);
    let mut pos = start_position(parse_gaps(&gaps).unwrap(), Rules::default());
    let mut longest = Duration::ZERO;
    let mut plies = 0;
    while !pos.is_game_over() {
        let m = if pos.turn() == color {
            let asked = Instant::now();
            let text = p.read();
            longest = longest.max(asked.elapsed());
            pos.parse_move(&text)
                .unwrap_or_else(|e| panic!("peasant's move '{text}' after {plies} plies: {e}"))
        } else {
            let m = opponent_move(&pos, kind, &mut rng);
            p.send(&m.san());
            m
        };
        pos = pos.play(m);
        plies += 1;
    }
    let (status, stderr) = p.finish();
    assert_eq!(status, Some(0), "peasant's exit status; stderr: {stderr}");
    Played {
        outcome: pos.outcome(),
        plies,
        longest_reply: longest,
    }
}

fn wins_every_game(think: &str, seeds: &[u64]) {
    let mut jobs = Vec::new();
    for &seed in seeds {
        for kind in [Opponent::Random, Opponent::Greedy] {
            for color in [Color::Black, Color::White] {
                jobs.push((color, kind, seed));
            }
        }
    }
    assert!(!jobs.is_empty(), "no game to play");
    // Two games at a time (the machine has two cores).
    for two in jobs.chunks(2) {
        let handles: Vec<_> = two
            .iter()
            .map(|&(color, kind, seed)| {
                let think = think.to_string();
                std::thread::spawn(move || {
                    (color, kind, seed, game(color, "DD", kind, seed, &think))
                })
            })
            .collect();
        for h in handles {
            let (color, kind, seed, played) = h.join().unwrap();
            println!(
                "peasant as {color} vs {kind:?} (seed {seed}): {:?} in {} plies, longest reply {:.2} s",
                played.outcome,
                played.plies,
                played.longest_reply.as_secs_f64()
            );
            assert_eq!(
                played.outcome,
                Some(Outcome::Decisive { winner: color }),
                "peasant as {color} against {kind:?} (seed {seed})"
            );
        }
    }
}

/// The seeds of the opponents' games: `PEASANT_PROTOCOL_SEEDS=1,2,3`
/// plays more games (a measurement), 1 by default. A value that is not a
/// list of seeds fails the test: it must not pass having played no game.
fn seeds() -> Vec<u64> {
    let text = match std::env::var("PEASANT_PROTOCOL_SEEDS") {
        Ok(text) => text,
        Err(std::env::VarError::NotPresent) => return vec![1],
        Err(e) => panic!("PEASANT_PROTOCOL_SEEDS: {e}"),
    };
    text.split(',')
        .map(|x| {
            x.trim().parse().unwrap_or_else(|e| {
                panic!(
                    "PEASANT_PROTOCOL_SEEDS={text:?}: {x:?} is not a seed ({e}); expected numbers separated by commas, such as 1,2,3"
                )
            })
        })
        .collect()
}

#[test]
fn wins_against_random_and_greedy() {
    wins_every_game("0.5", &seeds());
}

#[test]
#[ignore = "plays with the tournament clock: about a minute a game"]
fn full_clock_replies_within_five_seconds() {
    let mut jobs = Vec::new();
    for kind in [Opponent::Random, Opponent::Greedy] {
        for color in [Color::Black, Color::White] {
            jobs.push((color, kind));
        }
    }
    for (color, kind) in jobs {
        let played = game(color, "DD", kind, 7, "");
        println!(
            "peasant as {color} vs {kind:?}: {:?} in {} plies, longest reply {:.2} s",
            played.outcome,
            played.plies,
            played.longest_reply.as_secs_f64()
        );
        assert_eq!(played.outcome, Some(Outcome::Decisive { winner: color }));
        assert!(played.longest_reply < Duration::from_secs(5));
    }
}

#[test]
fn bad_input_from_the_other_side() {
    // An illegal move: one line naming it, exit status 2.
    let mut p = Peasant::start(&["--as", "black", "--think", "0.2"]);
    let gaps = p.read();
    p.send(&gaps);
    p.send("e5");
    let (status, stderr) = p.finish();
    assert_eq!(status, Some(2), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("'e5'"), "{stderr}");
    // Unreadable gaps.
    let mut p = Peasant::start(&["--as", "white", "--think", "0.2"]);
    p.send("X1");
    let (status, stderr) = p.finish();
    assert_eq!(status, Some(2), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    // The input ends before the game: exit 0 after the moves so far.
    let mut p = Peasant::start(&["--as", "white", "--think", "0.2"]);
    p.send("DD");
    let first = p.read();
    let pos = start_position((3, 3), Rules::default());
    assert!(pos.parse_move(&first).is_ok(), "{first}");
    let (status, stderr) = p.finish();
    assert_eq!(status, Some(0), "{stderr}");
    // Black's own choices: --gaps and --avoid (mirror images count as the same).
    let mut p = Peasant::start(&["--as", "black", "--gaps", "AH"]);
    assert_eq!(p.read(), "AH");
    let _ = p.finish();
    let mut p = Peasant::start(&["--as", "black", "--avoid", "FF,HC"]);
    let g = parse_gaps(&p.read()).unwrap();
    assert!(!same_setup(g, (2, 2)) && !same_setup(g, (0, 5)), "{g:?}");
    assert!(BLACK_WINS.iter().any(|&w| same_setup(w, g)));
    let _ = p.finish();
}

/// Every book position is c:c after one white move, every white first
/// move has one, and each reply is legal.
#[test]
fn book_covers_the_first_moves_of_its_gaps() {
    use peasant::explore::pawnrace::{book_reply, BOOK};
    let start = start_position((2, 2), Rules::default());
    let mut covered = 0;
    for &m in start.legal_moves().iter() {
        let after = start.play(m);
        if BOOK.iter().any(|(fen, _)| *fen == after.to_string()) {
            assert!(book_reply(&after).is_some(), "{m}");
            covered += 1;
        }
    }
    // Every entry is one of them, and every white first move has one.
    assert_eq!(covered, BOOK.len());
    assert_eq!(covered, start.legal_moves().len());
    // Not under other rules.
    let no_ep = Rules {
        en_passant: false,
        seventh_rank_wins: false,
    };
    let other = start_position((2, 2), no_ep);
    let first = other.legal_moves()[0];
    assert_eq!(book_reply(&other.play(first)), None);
}

/// Each book reply wins: white, to move after it, loses (minutes of search).
#[test]
#[ignore = "re-solves the book: minutes"]
fn book_replies_win() {
    use peasant::explore::pawnrace::BOOK;
    use peasant::{
        rules::parse_position,
        solve::{Question, SearchConfig, Solver, SolverConfig},
    };
    let solver = Solver::new(
        SolverConfig {
            search: SearchConfig {
                hash_mb: 1024,
                ..SolverConfig::default().search
            },
            ..SolverConfig::default()
        },
        None,
    )
    .unwrap();
    for (fen, reply) in BOOK {
        let pos = parse_position(fen, None, Rules::default()).unwrap();
        let after = pos.play(pos.parse_move(reply).unwrap());
        let white_avoids_loss = solver.answer(&after, Question::AvoidsLoss, None).unwrap();
        assert!(!white_avoids_loss, "{fen} {reply}");
    }
}
