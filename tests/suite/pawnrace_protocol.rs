//! The Pawn Race tournament's line protocol, spoken to the built binary by
//! scripted opponents (random and greedy): `peasant` wins every game of
//! every 8x8 setup a side wins (31 up to the mirror image), playing the
//! side that wins it; as black across a round it chooses setups the rules
//! allow and wins them; bad input from the other side ends the game with
//! one line on stderr and exit status 2. Reply times are measured and
//! printed (run with `--nocapture`), not asserted: the normal suite
//! thinks 0.5 s a move to stay fast; the ignored test
//! `full_clock_replies_within_five_seconds` plays with the default clock
//! (3.5 s of thought) and asserts each reply within 5 s
//! (tools/pawnrace_full_clock.sh).

#[allow(unused_imports)]
use crate::common;
use peasant::explore::pawnrace::{
    gaps_text, mirror, opposite, parse_gaps, same_setup, setups, start_position, Gaps, BLACK_WINS,
};
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

/// One game: `peasant` plays `color`; as black it proposes the gaps
/// (`gaps` if not empty, else its own choice) and the opponent confirms
/// them, as white the opponent sends `gaps`.
fn game(color: Color, gaps: &str, kind: Opponent, seed: u64, think: &str) -> Played {
    game_with(color, gaps, kind, seed, think, &[])
}

/// [`game`] with more arguments for `peasant play`.
fn game_with(
    color: Color,
    gaps: &str,
    kind: Opponent,
    seed: u64,
    think: &str,
    extra: &[&str],
) -> Played {
    let mut rng = SplitMix64::new(seed);
    let mut args = vec!["--as", color.name()];
    args.extend(extra);
    if !think.is_empty() {
        args.extend(["--think", think]);
    }
    if color == Color::Black && !gaps.is_empty() {
        args.extend(["--gaps", gaps]);
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

/// Every 8x8 setup a side wins, up to the mirror image (white's gap on
/// files a to d), with the side that wins it: black 5, white 26.
fn won_setups() -> Vec<(Gaps, Color)> {
    setups()
        .filter(|&g| g != (0, 0))
        .map(|g| {
            let black = BLACK_WINS.iter().any(|&w| same_setup(w, g));
            (g, if black { Color::Black } else { Color::White })
        })
        .collect()
}

/// `peasant` plays the winning side of every setup a side wins, against
/// the random and the greedy opponent in turn (each setup once a seed,
/// every other one as its mirror image), and must win every game.
fn wins_every_game(think: &str, seeds: &[u64]) -> Duration {
    let mut jobs = Vec::new();
    for &seed in seeds {
        for (i, (g, color)) in won_setups().into_iter().enumerate() {
            let kind = if (i as u64 + seed).is_multiple_of(2) {
                Opponent::Random
            } else {
                Opponent::Greedy
            };
            let g = if i % 2 == 1 { mirror(g) } else { g };
            jobs.push((color, gaps_text(g), kind, seed));
        }
    }
    assert_eq!(jobs.len(), 31 * seeds.len(), "no game to play");
    let mut longest = Duration::ZERO;
    // Two games at a time (the machine has two cores).
    for two in jobs.chunks(2) {
        let handles: Vec<_> = two
            .iter()
            .cloned()
            .map(|(color, gaps, kind, seed)| {
                let think = think.to_string();
                std::thread::spawn(move || {
                    let played = game(color, &gaps, kind, seed, &think);
                    (color, gaps, kind, seed, played)
                })
            })
            .collect();
        for h in handles {
            let (color, gaps, kind, seed, played) = h.join().unwrap();
            println!(
                "peasant as {color} on {gaps} vs {kind:?} (seed {seed}): {:?} in {} plies, longest reply {:.2} s",
                played.outcome,
                played.plies,
                played.longest_reply.as_secs_f64()
            );
            assert_eq!(
                played.outcome,
                Some(Outcome::Decisive { winner: color }),
                "peasant as {color} on {gaps} against {kind:?} (seed {seed})"
            );
            longest = longest.max(played.longest_reply);
        }
    }
    longest
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
fn wins_every_setup_against_random_and_greedy() {
    wins_every_game("0.5", &seeds());
}

/// With the tournament's clock (the default 3.5 s of thought), every
/// reply within its 5 s (tools/pawnrace_full_clock.sh runs it).
#[test]
#[ignore = "plays every setup with the tournament clock: many minutes"]
fn full_clock_replies_within_five_seconds() {
    let longest = wins_every_game("", &seeds());
    println!("longest reply {:.2} s", longest.as_secs_f64());
    assert!(longest < Duration::from_secs(5));
}

/// Black's own choice, game after game of a round, is a setup black wins
/// and one the rules allow (a different setup each game, at most one with
/// opposite gaps), and peasant wins it.
#[test]
fn black_chooses_a_round_of_setups_and_wins_them() {
    let mut used: Vec<Gaps> = Vec::new();
    for (game_no, kind) in [Opponent::Greedy, Opponent::Random, Opponent::Greedy]
        .into_iter()
        .enumerate()
    {
        let avoid: Vec<String> = used.iter().map(|&g| gaps_text(g)).collect();
        let avoid = avoid.join(",");
        let mut args = vec!["--as", "black", "--think", "0.5"];
        if !avoid.is_empty() {
            args.extend(["--avoid", &avoid]);
        }
        let mut p = Peasant::start(&args);
        let g = parse_gaps(&p.read()).unwrap();
        let _ = p.finish();
        assert!(BLACK_WINS.iter().any(|&w| same_setup(w, g)), "{g:?}");
        assert!(!used.iter().any(|&u| same_setup(u, g)), "{g:?} twice");
        assert!(
            !(opposite(g) && used.iter().any(|&u| opposite(u))),
            "two opposite setups"
        );
        let played = game(Color::Black, &gaps_text(g), kind, game_no as u64, "0.5");
        assert_eq!(
            played.outcome,
            Some(Outcome::Decisive {
                winner: Color::Black
            })
        );
        used.push(g);
    }
}

/// Past the book the moves are proven by proof-number search unless
/// `--method ab` asks for alpha-beta, which wins too.
#[test]
fn alpha_beta_past_the_book_wins_too() {
    for (color, gaps) in [(Color::White, "DD"), (Color::Black, "BD")] {
        let played = game_with(color, gaps, Opponent::Greedy, 5, "0.5", &["--method", "ab"]);
        assert_eq!(played.outcome, Some(Outcome::Decisive { winner: color }));
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

/// The book answers only the real rules: under other rules the same
/// moves get no book reply.
#[test]
fn book_answers_only_the_real_rules() {
    use peasant::explore::pawnrace::book_reply;
    let start = start_position((2, 2), Rules::default());
    for &m in start.legal_moves().iter() {
        assert!(book_reply(&start.play(m)).is_some(), "{m}");
    }
    let no_ep = Rules {
        en_passant: false,
        seventh_rank_wins: false,
    };
    let other = start_position((2, 2), no_ep);
    for &m in other.legal_moves().iter() {
        assert_eq!(book_reply(&other.play(m)), None, "{m}");
    }
}

/// Every move of the committed book proven again, and the book whole
/// (minutes of search; `peasant book --check results/pawnrace-book.txt`
/// is the same check from the command line).
#[test]
#[ignore = "proves the whole book again: minutes"]
fn book_moves_win() {
    use peasant::explore::{book, pawnrace};
    use peasant::solve::{PnConfig, PnSolver, SearchConfig};
    let solver = PnSolver::new(
        PnConfig {
            search: SearchConfig {
                hash_mb: 2048,
                ..PnConfig::default().search
            },
            ..PnConfig::default()
        },
        None,
    )
    .unwrap();
    for section in pawnrace::book().sections() {
        let report = book::check(Some(&solver), section)
            .unwrap_or_else(|e| panic!("{}: {e}", section.start_text));
        assert_eq!(report.moves, section.lines.len());
    }
}
