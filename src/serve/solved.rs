//! What is solved, for the explorer's front panel (`/api/solved`): read
//! from the committed results (`results/solve_results.md`, the Pawn Race
//! 8x8 grid `results/pawnrace8.md`) and the committed proofs under
//! `results/` (each named with its directory and the value it proves; a
//! test reads every one of those proofs and checks the value).

use serde_json::{json, Value as Json};

/// The rows of `tools/solve_results.sh` (searches of every small game).
const SOLVE_RESULTS: &str = include_str!("../../results/solve_results.md");

/// The rows of `tools/pawnrace_grid.sh 8` (one of each mirror pair).
const PAWNRACE8: &str = include_str!("../../results/pawnrace8.md");

/// A committed proof of a start: its directory, the game, and the value
/// it proves (from white's view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommittedProof {
    /// The proof directory (`peasant serve --proofs results` reads it).
    pub dir: &'static str,
    /// What the entry is called.
    pub label: &'static str,
    /// The position: a setup name or a position text.
    pub fen: &'static str,
    /// The board.
    pub board: &'static str,
    /// Whether en passant is allowed.
    pub en_passant: bool,
    /// The value the proof settles for the side to move.
    pub value: &'static str,
}

/// The proofs under `results/` that settle a start.
pub const COMMITTED_PROOFS: [CommittedProof; 4] = [
    CommittedProof {
        dir: "results/peasants-6x8",
        label: "Peasants' Chess 6x8",
        fen: "peasants",
        board: "6x8",
        en_passant: true,
        value: "draw",
    },
    CommittedProof {
        dir: "results/pawngame-8x8",
        label: "pawn game 8x8",
        fen: "pawngame",
        board: "8x8",
        en_passant: true,
        value: "win",
    },
    CommittedProof {
        dir: "results/pawngame-8x8-noep",
        label: "pawn game 8x8, no en passant",
        fen: "pawngame",
        board: "8x8",
        en_passant: false,
        value: "draw",
    },
    CommittedProof {
        dir: "results/pawngame-8x8-fine-b4a5",
        label: "pawn game 8x8 after 1.b4 a5",
        fen: "8/1ppppppp/8/p7/1P6/8/P1PPPPPP/8 w -",
        board: "8x8",
        en_passant: true,
        value: "win",
    },
];

/// A row of a results table: the position column split into its words,
/// the value, the first moves and the nodes.
struct Row<'a> {
    position: Vec<&'a str>,
    value: &'a str,
    best: Option<&'a str>,
    nodes: Option<u64>,
}

/// The data rows of the markdown tables of `text` whose value is a value.
fn rows(text: &str, best_column: usize) -> Vec<Row<'_>> {
    text.lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let value = *cells.get(2)?;
            if !["win", "draw", "loss"].contains(&value) {
                return None;
            }
            // The best move: the column's first entry, without its value.
            let best = cells
                .get(best_column)
                .and_then(|c| c.split(',').next())
                .and_then(|c| c.split_whitespace().next());
            Some(Row {
                position: cells[1].split_whitespace().collect(),
                value,
                best,
                nodes: cells.get(4).and_then(|n| n.parse().ok()),
            })
        })
        .collect()
}

/// The explorer's address of a position.
fn url(fen: &str, board: &str, en_passant: bool, seventh: bool) -> String {
    let mut u = format!(
        "/?fen={}&board={board}",
        fen.replace(' ', "_").replace('/', "%2F")
    );
    if !en_passant {
        u.push_str("&no_en_passant=1");
    }
    if seventh {
        u.push_str("&seventh_rank_wins=1");
    }
    u
}

fn search_entry(label: String, fen: &str, board: &str, ep: bool, seventh: bool, r: &Row) -> Json {
    json!({
        "label": label,
        "value": r.value,
        "url": url(fen, board, ep, seventh),
        "how": "search",
        "nodes": r.nodes,
        "source": "results/solve_results.md",
    })
}

fn proof_entry(p: &CommittedProof) -> Json {
    json!({
        "label": p.label,
        "value": p.value,
        "url": url(p.fen, p.board, p.en_passant, false),
        "how": "proof",
        "proof": p.dir,
    })
}

/// One game's solved rows from `solve_results.md` (`name WxH` with the
/// rule words `no e.p.` or `7th wins`), in board order.
fn game_entries(name: &str, title: &str, rows: &[Row]) -> Vec<Json> {
    let mut out = Vec::new();
    for r in rows {
        let (game, board, rest) = match r.position.as_slice() {
            [g, b, rest @ ..] => (*g, *b, rest.join(" ")),
            _ => continue,
        };
        if game != name {
            continue;
        }
        let (ep, seventh, words) = match rest.as_str() {
            "" => (true, false, ""),
            "no e.p." => (false, false, ", no en passant"),
            "7th wins" => (true, true, ", seventh rank wins"),
            _ => continue,
        };
        out.push(search_entry(
            format!("{title} {board}{words}"),
            name,
            board,
            ep,
            seventh,
            r,
        ));
    }
    out
}

/// A Pawn Race grid (white's gap by rows, black's by columns) from rows
/// `pawnrace:W:B` (with the board as the second word where `board` is
/// not given by the file); a pair missing is filled from its mirror image.
fn grid(width: u8, rows: &[Row], board_word: Option<&str>, source: &str) -> Json {
    let board = format!("{width}x{width}");
    let files: Vec<char> = (b'a'..b'a' + width).map(char::from).collect();
    let mirror = |f: char| (b'a' + width - 1 - (f as u8 - b'a')) as char;
    let find = |w: char, b: char| {
        let name = format!("pawnrace:{w}:{b}");
        rows.iter().find(|r| {
            r.position.first() == Some(&name.as_str())
                && board_word.is_none_or(|bw| r.position.get(1) == Some(&bw))
                && r.position.len() == if board_word.is_some() { 2 } else { 1 }
        })
    };
    let mirror_move = |m: &str| -> String {
        m.chars()
            .map(|c| {
                if c.is_ascii_lowercase() && c <= 'h' {
                    mirror(c)
                } else {
                    c
                }
            })
            .collect()
    };
    let cells: Vec<Vec<Json>> = files
        .iter()
        .map(|&w| {
            files
                .iter()
                .map(|&b| {
                    let name = format!("pawnrace:{w}:{b}");
                    let (value, best) = match find(w, b) {
                        Some(r) => (Some(r.value), r.best.map(str::to_string)),
                        None => match find(mirror(w), mirror(b)) {
                            Some(r) => (Some(r.value), r.best.map(mirror_move)),
                            None => (None, None),
                        },
                    };
                    let best = best.filter(|_| value == Some("win"));
                    json!({
                        "white": w.to_string(),
                        "black": b.to_string(),
                        "value": value,
                        "best": best,
                        "url": url(&name, &board, true, false),
                    })
                })
                .collect()
        })
        .collect();
    json!({
        "title": format!("Pawn Race {board}"),
        "board": board,
        "files": files.iter().collect::<String>(),
        "cells": cells,
        "source": source,
    })
}

/// The front panel's data: lists of solved games and the Pawn Race grids.
pub fn solved_json() -> Json {
    let results = rows(SOLVE_RESULTS, 3);
    let race8 = rows(PAWNRACE8, 3);
    let mut peasants = game_entries("peasants", "Peasants' Chess", &results);
    peasants.extend(
        COMMITTED_PROOFS
            .iter()
            .filter(|p| p.fen == "peasants")
            .map(proof_entry),
    );
    let mut pawngame = game_entries("pawngame", "pawn game", &results);
    pawngame.extend(
        COMMITTED_PROOFS
            .iter()
            .filter(|p| p.fen != "peasants")
            .map(proof_entry),
    );
    json!({
        "lists": [
            { "title": "Peasants' Chess", "entries": peasants },
            { "title": "The pawn game", "entries": pawngame },
        ],
        "grids": [
            grid(6, &results, Some("6x6"), "results/solve_results.md"),
            grid(7, &results, Some("7x7"), "results/solve_results.md"),
            grid(8, &race8, None, "results/pawnrace8.md"),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_list_and_grid_is_full() {
        let j = solved_json();
        let labels = |i: usize| -> Vec<String> {
            j["lists"][i]["entries"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["label"].as_str().unwrap().to_string())
                .collect()
        };
        let peasants = labels(0);
        for w in 1..=5 {
            assert!(
                peasants.contains(&format!("Peasants' Chess {w}x8")),
                "{peasants:?}"
            );
        }
        assert!(peasants.contains(&"Peasants' Chess 6x8".to_string()));
        let pawngame = labels(1);
        for n in 4..=7 {
            for words in ["", ", no en passant"] {
                let label = format!("pawn game {n}x{n}{words}");
                assert!(pawngame.contains(&label), "{label}: {pawngame:?}");
            }
        }
        assert!(pawngame.contains(&"pawn game 8x8".to_string()));
        assert!(pawngame.contains(&"pawn game 8x8, no en passant".to_string()));
        for (i, n) in [6usize, 7, 8].into_iter().enumerate() {
            let cells = j["grids"][i]["cells"].as_array().unwrap();
            assert_eq!(cells.len(), n);
            for row in cells {
                let row = row.as_array().unwrap();
                assert_eq!(row.len(), n);
                assert!(row.iter().all(|c| c["value"].is_string()), "{n}: {row:?}");
            }
        }
        // README's 8x8 grid: a:a draws, a:f loses, d:e wins by e4, and the
        // mirror h:c of the solved a:f loses too; h:a wins by f4 (the mirror
        // of a:h's c4).
        let cell = |w: usize, b: usize| &j["grids"][2]["cells"][w][b];
        assert_eq!(cell(0, 0)["value"], "draw");
        assert_eq!(cell(0, 5)["value"], "loss");
        assert_eq!(
            (&cell(3, 4)["value"], &cell(3, 4)["best"]),
            (&json!("win"), &json!("e4"))
        );
        assert_eq!(cell(7, 2)["value"], "loss");
        assert_eq!(
            (&cell(7, 0)["value"], &cell(7, 0)["best"]),
            (&json!("win"), &json!("f4"))
        );
        // 7x7: a:e loses (README's grid), g:c too.
        assert_eq!(j["grids"][1]["cells"][0][4]["value"], "loss");
        assert_eq!(j["grids"][1]["cells"][6][2]["value"], "loss");
    }
}
