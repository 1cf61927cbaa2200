//! Checks every count of `tests/perft.epd` with the engine's perft (the
//! counts in the file were produced with `perft_parallel`, so this also
//! checks that serial and parallel perft agree), and the small ones with the
//! naive generator too.
//!
//! Counts above `DEFAULT_LIMIT` are skipped unless `PEASANT_PERFT_FULL=1`.
//! `cargo test --release --test suite perft_suite:: -- --ignored` re-confirms every
//! count up to each entry's `naive` depth with the naive generator (minutes).

use crate::naive::{Game, Opts};
use peasant::rules::{parse_position, perft, Board, Position, Rules};

const SUITE: &str = include_str!("../perft.epd");
/// Counts above this are skipped unless `PEASANT_PERFT_FULL=1`.
const DEFAULT_LIMIT: u64 = 100_000_000;
/// In the default run the naive generator re-checks counts up to this.
const NAIVE_QUICK_LIMIT: u64 = 200_000;

struct Entry {
    line: usize,
    id: String,
    epd: String,
    board: Board,
    opts: Opts,
    /// (depth, count)
    perfts: Vec<(u32, u64)>,
    /// Depths up to this one were confirmed with the naive generator.
    naive: u32,
}

impl Entry {
    fn rules(&self) -> Rules {
        Rules {
            en_passant: self.opts.en_passant,
            seventh_rank_wins: self.opts.seventh_rank_wins,
        }
    }

    fn position(&self) -> Position {
        parse_position(&self.epd, Some(self.board), self.rules())
            .unwrap_or_else(|e| panic!("line {} ({}): {e}", self.line, self.id))
    }

    fn naive_game(&self) -> Game {
        let (w, h) = (self.board.width() as usize, self.board.height() as usize);
        Game::setup(&self.epd, w, h, self.opts)
            .or_else(|| Game::from_fen(&self.epd, self.opts))
            .unwrap_or_else(|| panic!("line {} ({}): naive refuses it", self.line, self.id))
    }
}

fn parse_suite() -> Vec<Entry> {
    let mut entries = Vec::new();
    for (i, raw) in SUITE.lines().enumerate() {
        let line = i + 1;
        let text = raw.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let mut id = None;
        let mut epd = None;
        let mut board = None;
        let mut opts = None;
        let mut perfts = Vec::new();
        let mut naive = 0;
        for field in text.split(';').map(str::trim).filter(|f| !f.is_empty()) {
            let (key, value) = field
                .split_once(' ')
                .unwrap_or_else(|| panic!("line {line}: field '{field}' has no value"));
            let value = value.trim();
            match key {
                "id" => id = Some(value.to_string()),
                "epd" => epd = Some(value.to_string()),
                "board" => {
                    board = Some(
                        value
                            .parse::<Board>()
                            .unwrap_or_else(|e| panic!("line {line}: {e}")),
                    )
                }
                "rules" => {
                    let mut o = Opts {
                        en_passant: true,
                        seventh_rank_wins: false,
                    };
                    for word in value.split(',').map(str::trim) {
                        match word {
                            "ep" => o.en_passant = true,
                            "no-ep" => o.en_passant = false,
                            "srw" => o.seventh_rank_wins = true,
                            _ => panic!("line {line}: unknown rule '{word}'"),
                        }
                    }
                    opts = Some(o);
                }
                "perft" => {
                    let (d, n) = value
                        .split_once(' ')
                        .unwrap_or_else(|| panic!("line {line}: 'perft {value}'"));
                    perfts.push((d.trim().parse().unwrap(), n.trim().parse().unwrap()));
                }
                "naive" => naive = value.parse().unwrap(),
                _ => panic!("line {line}: unknown field '{key}'"),
            }
        }
        entries.push(Entry {
            line,
            id: id.unwrap_or_else(|| panic!("line {line}: no id")),
            epd: epd.unwrap_or_else(|| panic!("line {line}: no epd")),
            board: board.unwrap_or_else(|| panic!("line {line}: no board")),
            opts: opts.unwrap_or_else(|| panic!("line {line}: no rules")),
            perfts,
            naive,
        });
    }
    entries
}

fn full() -> bool {
    std::env::var("PEASANT_PERFT_FULL").is_ok_and(|v| v == "1")
}

#[test]
fn suite_is_well_formed() {
    let entries = parse_suite();
    assert!(entries.len() >= 30);
    let mut ids: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), entries.len(), "ids must be unique");
    for e in &entries {
        assert!(!e.perfts.is_empty(), "{}: no counts", e.id);
        assert!(e.naive >= 1, "{}: no naive confirmation recorded", e.id);
        for (k, &(d, _)) in e.perfts.iter().enumerate() {
            assert_eq!(d, k as u32 + 1, "{}: depths must run 1, 2, ...", e.id);
        }
        // Position text is checked by both readers alike.
        let pos = e.position();
        let g = e.naive_game();
        assert_eq!(pos.legal_moves().len(), g.moves().len(), "{}", e.id);
    }
    // The 8x8 starts are pinned deep.
    for id in [
        "peasants-8x8",
        "pawngame-8x8",
        "pawnrace-h-a",
        "pawnrace-a-h",
    ] {
        let e = entries.iter().find(|e| e.id == id).unwrap();
        assert!(e.perfts.len() >= 8, "{id}");
    }
}

#[test]
fn suite_cross_checks() {
    // Equalities that hold for reasons outside both generators.
    let entries = parse_suite();
    let counts = |id: &str| -> Vec<(u32, u64)> {
        entries
            .iter()
            .find(|e| e.id == id)
            .unwrap_or_else(|| panic!("{id}"))
            .perfts
            .clone()
    };
    // A mirror image has the same counts.
    assert_eq!(counts("pawnrace-h-a"), counts("pawnrace-a-h"));
    // An empty file is a wall: pawnrace:a:a on 8x8 plays as pawngame on 7x8.
    assert_eq!(counts("pawnrace-a-a"), counts("pawngame-7x8"));
    // The 1x8 line of docs/RULES.md.
    assert_eq!(
        counts("rules-peasants-1x8"),
        [(1, 1), (2, 1), (3, 1), (4, 1), (5, 0)]
    );
    // 4x4 pawngame under --seventh-rank-wins: every white move captures onto
    // rank 3 and wins.
    assert_eq!(counts("rules-pawngame-4x4-srw"), [(1, 6), (2, 0)]);
}

#[test]
fn suite_counts() {
    let full = full();
    let mut checked = 0;
    let mut skipped = 0;
    for e in parse_suite() {
        let pos = e.position();
        let g = e.naive_game();
        for &(depth, expected) in &e.perfts {
            if expected > DEFAULT_LIMIT && !full {
                skipped += 1;
                continue;
            }
            assert_eq!(
                perft(&pos, depth),
                expected,
                "{} (line {}): perft {depth}",
                e.id,
                e.line
            );
            if expected <= NAIVE_QUICK_LIMIT {
                assert_eq!(
                    g.perft(depth),
                    expected,
                    "{} (line {}): naive perft {depth}",
                    e.id,
                    e.line
                );
            }
            checked += 1;
        }
    }
    eprintln!(
        "perft suite: {checked} counts checked, {skipped} skipped (set PEASANT_PERFT_FULL=1)"
    );
    assert!(
        checked >= 30,
        "only {checked} counts under the limit were checked"
    );
}

/// Re-confirms the file with the naive generator, up to each entry's
/// `naive` depth. Slow: minutes.
#[test]
#[ignore]
fn naive_confirms_suite() {
    for e in parse_suite() {
        let g = e.naive_game();
        let start = std::time::Instant::now();
        for &(depth, expected) in e.perfts.iter().filter(|p| p.0 <= e.naive) {
            assert_eq!(
                g.perft(depth),
                expected,
                "{} (line {}): naive perft {depth}",
                e.id,
                e.line
            );
        }
        eprintln!(
            "{}: naive confirms depth 1..{} ({:.1} s)",
            e.id,
            e.naive,
            start.elapsed().as_secs_f64()
        );
    }
}

/// Exploration aid: how deep the naive generator gets under a node budget
/// (`PEASANT_NAIVE_CAP`, default 1e8). Prints the `naive` depth to record.
#[test]
#[ignore]
fn naive_depths_under_budget() {
    let cap: u64 = std::env::var("PEASANT_NAIVE_CAP")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .map_or(100_000_000, |v| v as u64);
    for e in parse_suite() {
        let g = e.naive_game();
        let start = std::time::Instant::now();
        let mut confirmed = 0;
        for &(depth, expected) in e.perfts.iter().take_while(|p| p.1 <= cap) {
            assert_eq!(
                g.perft(depth),
                expected,
                "{} (line {}): naive perft {depth}",
                e.id,
                e.line
            );
            confirmed = depth;
        }
        println!(
            "{} naive {confirmed} ({:.1} s)",
            e.id,
            start.elapsed().as_secs_f64()
        );
    }
}
