//! Books of proven moves (`peasant::explore::book`, `peasant book`)
//! against plain minimax on small boards: every book move wins, the book
//! answers every move of the other side within its plies, the text form
//! reads back, mirror images are answered, and `check` catches a wrong
//! move and a missing answer (mutants). Then the committed Pawn Race book:
//! every 8x8 setup a side wins has its section, the file is within the
//! tournament's 1 MB, and a sample of its moves is proven again.

use crate::common::{self, minimax, MinimaxMemo};
use peasant::explore::book::{self, Book, BookError, Section};
use peasant::explore::pawnrace::{self, mirror, same_setup, start_position, Gaps, BLACK_WINS};
use peasant::rules::{parse_position, Board, Color, Move, Outcome, Position, Rules, Value};
use peasant::solve::{PnConfig, PnSolver, Question, SearchConfig};
use peasant::SplitMix64;
use std::collections::HashMap;

fn solver(hash_mb: usize) -> PnSolver<'static> {
    PnSolver::new(
        PnConfig {
            search: SearchConfig {
                hash_mb,
                ..PnConfig::default().search
            },
            ..PnConfig::default()
        },
        None,
    )
    .unwrap()
}

const NO_EP: Rules = Rules {
    en_passant: false,
    seventh_rank_wins: false,
};

fn position(name: &str, board: &str, rules: Rules) -> Position {
    parse_position(name, Some(board.parse::<Board>().unwrap()), rules).unwrap()
}

/// Small games one side wins (by minimax): the pawn game 4x4 (black), 5x5
/// without en passant (white), and the Pawn Race 5x5 gap pairs that are
/// won, both rule sets.
fn won_starts(memo: &mut MinimaxMemo) -> Vec<(String, Position)> {
    let mut starts = vec![
        (
            "pawngame".to_string(),
            position("pawngame", "4x4", Rules::default()),
        ),
        ("pawngame".to_string(), position("pawngame", "5x5", NO_EP)),
    ];
    for rules in [Rules::default(), NO_EP] {
        for (w, b) in [('a', 'b'), ('b', 'd'), ('c', 'c'), ('a', 'e'), ('e', 'b')] {
            let name = format!("pawnrace:{w}:{b}");
            let p = position(&name, "5x5", rules);
            if minimax(&p, memo) != Value::Draw {
                starts.push((name, p));
            }
        }
    }
    assert!(starts.len() >= 6, "too few won starts: {}", starts.len());
    starts
}

/// Whether `m` wins for the side to move of `pos`, by minimax.
fn wins_by_minimax(pos: &Position, m: Move, memo: &mut MinimaxMemo) -> bool {
    let child = pos.play(m);
    if let Some(o) = child.outcome() {
        return o == Outcome::Decisive { winner: pos.turn() };
    }
    matches!(minimax(&child, memo), Value::Loss(_))
}

/// The test's own walk of a section's strategy: its moves at its side's
/// turns, every move at the other's, to its plies; panics where the book
/// has no move; returns the positions of the other side reached.
fn walk(section: &Section) -> usize {
    let answers: HashMap<Position, Move> = section.entries().collect();
    let mut best_ply: HashMap<Position, u32> = HashMap::new();
    let mut stack = vec![(section.start, 0u32)];
    while let Some((pos, ply)) = stack.pop() {
        if ply >= section.plies || pos.is_game_over() {
            continue;
        }
        if best_ply.get(&pos).is_some_and(|&p| p <= ply) {
            continue;
        }
        best_ply.insert(pos, ply);
        if pos.turn() == section.side {
            let m = answers
                .get(&pos)
                .unwrap_or_else(|| panic!("{pos} (ply {ply}): no book move"));
            stack.push((pos.play(*m), ply + 1));
        } else {
            for &m in pos.legal_moves().iter() {
                stack.push((pos.play(m), ply + 1));
            }
        }
    }
    best_ply.keys().filter(|p| p.turn() != section.side).count()
}

#[test]
fn every_book_move_wins_by_minimax_and_the_book_is_whole() {
    let mut memo = MinimaxMemo::default();
    for (name, start) in won_starts(&mut memo) {
        // A solver solves one game (board and rules): one for each start.
        let solver = solver(16);
        let winner = match minimax(&start, &mut memo) {
            Value::Win(_) => start.turn(),
            _ => !start.turn(),
        };
        // Deep enough to reach the end of every game: the whole strategy.
        let mut lines = 0;
        let section = book::build(&solver, &name, &start, 40, &mut |_| lines += 1).unwrap();
        assert_eq!(section.side, winner, "{name} {}", start.variant());
        assert_eq!(lines, section.lines.len());
        assert!(!section.lines.is_empty());
        for (pos, m) in section.entries() {
            assert_eq!(pos.turn(), winner);
            assert!(
                wins_by_minimax(&pos, m, &mut memo),
                "{name}: {m} in {pos} does not win"
            );
        }
        let covered = walk(&section);
        let report = book::check(Some(&solver), &section).unwrap();
        assert_eq!(report.moves, section.lines.len());
        assert_eq!(report.covered, covered);
        assert_eq!(book::check(None, &section).unwrap().covered, covered);
        // The text reads back, and the mirror image is answered too.
        let book = Book::new(vec![section.clone()]);
        let again = Book::parse(&book.to_string()).unwrap();
        assert_eq!(again.sections(), book.sections());
        for (pos, m) in section.entries() {
            assert_eq!(book.reply(&pos), Some(m));
            let mirrored = pos.mirrored();
            let mm = book.reply(&mirrored).expect("the mirror image is answered");
            assert!(
                wins_by_minimax(&mirrored, mm, &mut memo),
                "{mm} in {mirrored}"
            );
        }
    }
}

#[test]
fn shallow_books_stop_at_their_plies() {
    let solver = solver(16);
    let start = position("pawngame", "5x5", NO_EP);
    let mut sizes = Vec::new();
    for plies in 1..=5 {
        let section = book::build(&solver, "pawngame", &start, plies, &mut |_| {}).unwrap();
        assert!(section.lines.iter().all(|l| l.len() as u32 <= plies));
        assert!(
            section.lines.iter().all(|l| l.len() % 2 == 1),
            "white's moves"
        );
        walk(&section);
        book::check(None, &section).unwrap();
        sizes.push(section.lines.len());
        // Mutant: the same lines called a deeper book are not whole
        // (until the book reaches the end of every game: at 5 plies here).
        let deeper = Section {
            plies: plies + 2,
            ..section.clone()
        };
        assert_eq!(
            matches!(book::check(None, &deeper), Err(BookError::Unproven(_))),
            plies < 5,
            "{plies} plies"
        );
    }
    assert_eq!(sizes[0], 1, "one first move");
    assert!(sizes.windows(2).all(|w| w[0] <= w[1]), "{sizes:?}");
    assert!(sizes[4] > sizes[0], "{sizes:?}");
}

#[test]
fn check_catches_a_wrong_move_and_a_missing_answer() {
    let mut memo = MinimaxMemo::default();
    let solver = solver(16);
    let start = position("pawngame", "4x4", Rules::default());
    let section = book::build(&solver, "pawngame", &start, 6, &mut |_| {}).unwrap();
    book::check(Some(&solver), &section).unwrap();
    // Mutant 1: one book move replaced by a move that does not win.
    let mut wrong = None;
    for (i, (pos, _)) in section.entries().enumerate() {
        if let Some(&bad) = pos
            .legal_moves()
            .iter()
            .find(|&&m| !wins_by_minimax(&pos, m, &mut memo))
        {
            wrong = Some((i, bad));
            break;
        }
    }
    let (i, bad) = wrong.expect("some book position has a move that does not win");
    let mut mutant = section.clone();
    *mutant.lines[i].last_mut().unwrap() = bad;
    let e = book::check(Some(&solver), &mutant).unwrap_err();
    assert!(
        matches!(&e, BookError::Unproven(m) if m.contains("does not win")),
        "{e}"
    );
    // Mutant 2: one answer taken out.
    let mut mutant = section.clone();
    mutant.lines.remove(0);
    let e = book::check(None, &mutant).unwrap_err();
    assert!(
        matches!(&e, BookError::Unproven(m) if m.contains("no move")),
        "{e}"
    );
}

#[test]
fn bad_book_text_is_refused_with_its_line() {
    let refused = |text: &str, line: usize, says: &str| match Book::parse(text) {
        Err(BookError::Text { line: l, reason }) => {
            assert_eq!(l, line, "{text:?}: {reason}");
            assert!(reason.contains(says), "{text:?}: {reason}");
        }
        other => panic!("{text:?}: {other:?}"),
    };
    refused("a4 a5\n", 1, "before any 'start'");
    refused(
        "start black 2 8x8 pawnrace:c:c\na5 a4\n",
        2,
        "not a legal move",
    );
    refused(
        "start black 2 8x8 pawnrace:c:c\n\n# c\na4\n",
        4,
        "is white's",
    );
    refused("start black 2 8x8 pawnrace:c:c\na4 a5 b4\n", 2, "3 moves");
    refused("start grey 2 8x8 pawnrace:c:c\n", 1, "not a side");
    refused("start black x 8x8 pawnrace:c:c\n", 1, "not a number");
    refused("start black 2 9x9 pawnrace:c:c\n", 1, "not a game");
    refused("start black 2 8x8\n", 1, "position missing");
    refused("start black 2 4x4 pawnrace:h:c\n", 1, "pawnrace:h:c");
    // A word after the end of a game.
    let mut pos = position("pawngame", "4x4", Rules::default());
    let mut words = Vec::new();
    while !pos.is_game_over() {
        let m = pos.legal_moves()[0];
        words.push(m.san());
        pos = pos.play(m);
    }
    let text = format!("start black 9 4x4 pawngame\n{} b3\n", words.join(" "));
    refused(&text, 2, "end of the game");
    // Lines of both forms read.
    let ok =
        "# a book\nstart black 2 8x8 pawnrace:c:c\na4 a5\n\nstart white 1 5x5-noep pawngame\nd3\n";
    let book = Book::parse(ok).unwrap();
    assert_eq!(book.len(), 2);
    assert_eq!(book.sections()[1].start.variant().rules, NO_EP);
}

#[test]
fn a_draw_has_no_book() {
    let solver = solver(16);
    let start = position("pawngame", "5x5", Rules::default());
    assert!(matches!(
        book::build(&solver, "pawngame", &start, 2, &mut |_| {}),
        Err(BookError::NotWon(_))
    ));
}

#[test]
fn the_pawn_race_book_covers_every_setup_a_side_wins() {
    let book = pawnrace::book();
    assert!(
        pawnrace::BOOK_TEXT.len() <= 1_000_000,
        "{} bytes: over the tournament's 1 MB",
        pawnrace::BOOK_TEXT.len()
    );
    let all: Vec<Gaps> = pawnrace::setups().collect();
    assert_eq!(all.len(), 32);
    for g in &all {
        assert!(!all.iter().any(|&o| o != *g && same_setup(o, *g)));
    }
    let section_of = |g: Gaps| {
        let start = start_position(g, Rules::default());
        book.sections().iter().find(|s| s.start == start)
    };
    let mut sides = HashMap::new();
    for g in all {
        let drawn = g == (0, 0);
        let black = BLACK_WINS.iter().any(|&w| same_setup(w, g));
        match section_of(g) {
            None => assert!(drawn, "{g:?} has no section"),
            Some(s) => {
                assert!(!drawn);
                let side = if black { Color::Black } else { Color::White };
                assert_eq!(s.side, side, "{g:?}");
                assert!(s.plies >= if black { 2 } else { 3 }, "{g:?}");
                book::check(None, s).unwrap_or_else(|e| panic!("{g:?}: {e}"));
                *sides.entry(side).or_insert(0) += 1;
            }
        }
        // The mirror image is answered from the same section.
        let m = start_position(mirror(g), Rules::default());
        if black {
            for &first in m.legal_moves().iter() {
                assert!(pawnrace::book_reply(&m.play(first)).is_some(), "{g:?}");
            }
        } else if !drawn {
            assert!(pawnrace::book_reply(&m).is_some(), "{g:?}");
        }
    }
    assert_eq!(sides.get(&Color::Black), Some(&5));
    assert_eq!(sides.get(&Color::White), Some(&26));
    println!(
        "{} book moves in {} bytes",
        book.len(),
        pawnrace::BOOK_TEXT.len()
    );
}

/// A sample of the book's deepest moves, proven again (the shallow ones
/// cost seconds to minutes each: `peasant book --check
/// results/pawnrace-book.txt` proves them all).
#[test]
fn a_sample_of_the_pawn_race_book_is_proven_again() {
    let book = pawnrace::book();
    let solver = solver(64);
    let mut rng = SplitMix64::new(11);
    let deepest: Vec<(Position, Move)> = book
        .sections()
        .iter()
        .flat_map(|s| {
            s.entries()
                .zip(&s.lines)
                .filter(|(_, l)| l.len() as u32 == s.plies)
                .map(|(e, _)| e)
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(deepest.len() > 100);
    for i in rng.sample(deepest.len(), 24) {
        let (pos, m) = deepest[i];
        let child = pos.play(m);
        let other_avoids_loss = child.outcome().is_none()
            && solver
                .answer(&child, Question::AvoidsLoss, Some(50_000_000))
                .unwrap();
        assert!(!other_avoids_loss, "{m} in {pos}");
    }
}

#[test]
fn the_book_command_writes_and_checks_a_book() {
    let dir = common::temp_dir("book_command");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("book.txt");
    let f = file.to_str().unwrap();
    let out = common::run_peasant(&[
        "--board", "4x4", "book", "pawngame", "--plies", "4", "--out", f, "--quiet",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("start black 4 4x4 pawngame"), "{text}");
    let out = common::run_peasant(&["book", "--check", f, "--quiet"]);
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("moves proven"));
    // The same build again resumes: the section is kept, nothing searched.
    let again = common::run_peasant(&[
        "--board", "4x4", "book", "pawngame", "--plies", "4", "--out", f,
    ]);
    assert!(again.status.success(), "{again:?}");
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("kept"),
        "{again:?}"
    );
    assert!(
        String::from_utf8_lossy(&again.stdout).contains(" 0 nodes"),
        "{again:?}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    // A wrong move: named as wrong, exit status 1.
    let lines: Vec<&str> = text.lines().collect();
    let last = lines.last().unwrap().to_string();
    let start = position("pawngame", "4x4", Rules::default());
    let mut pos = start;
    let words: Vec<&str> = last.split_whitespace().collect();
    for w in &words[..words.len() - 1] {
        pos = pos.play(pos.parse_move(w).unwrap());
    }
    let mut memo = MinimaxMemo::default();
    if let Some(bad) = pos
        .legal_moves()
        .iter()
        .find(|&&m| !wins_by_minimax(&pos, m, &mut memo))
    {
        let mut words = words.clone();
        let bad = bad.san();
        *words.last_mut().unwrap() = &bad;
        let wrong = text.replace(&last, &words.join(" "));
        std::fs::write(&file, wrong).unwrap();
        let out = common::run_peasant(&["book", "--check", f, "--quiet"]);
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("is wrong"));
    }
    // Damaged text: exit status 1; a draw or bad flags: exit status 2.
    std::fs::write(&file, "start black 4 4x4 pawngame\nzz\n").unwrap();
    let out = common::run_peasant(&["book", "--check", f]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("damaged"));
    // ... and a build that would resume from it refuses to.
    let out = common::run_peasant(&["--board", "4x4", "book", "pawngame", "--out", f]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    std::fs::remove_file(&file).unwrap();
    for args in [
        &["--board", "5x5", "book", "pawngame", "--out", f][..],
        &["book", "--out", f][..],
        &["book", "--check", f, "pawngame"][..],
        &["book", "pawngame", "--out", f, "--plies", "x"][..],
        &["book", "pawngame", "--out", dir.to_str().unwrap()][..],
        &["book", "pawngame", "--out", "/nonexistent-dir/b.txt"][..],
    ] {
        let out = common::run_peasant(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).trim().lines().count(),
            1
        );
    }
}
