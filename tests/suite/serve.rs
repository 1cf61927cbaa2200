//! The HTTP API through real HTTP on a free loopback port: every field of
//! `/api/probe` and `/api/mainline` against plain minimax on small boards
//! (from the search and from generated tables), the board picture, bad
//! queries (400 with one line of JSON), no answer within the budget (404),
//! and many clients at once.

use crate::common::{self, minimax, MinimaxMemo};
use peasant::explore::{Budget, Oracle};
use peasant::rules::{parse_position, Board, Position, Rules, Value, Variant};
use peasant::serve::Server;
use serde_json::Value as Json;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

fn start(oracle: Oracle) -> SocketAddr {
    let server = Server::bind("127.0.0.1:0", oracle, 4).unwrap();
    let addr = server.local_addr().unwrap();
    server.spawn();
    addr
}

/// One GET request: status, content type and body.
fn get(addr: SocketAddr, path: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8(raw).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let ctype = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-type")
                .then(|| v.trim().to_string())
        })
        .unwrap_or_default();
    (status, ctype, body.to_string())
}

fn get_json(addr: SocketAddr, path: &str) -> (u16, Json) {
    let (status, ctype, body) = get(addr, path);
    assert_eq!(ctype, "application/json", "{path}");
    let j = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"));
    (status, j)
}

fn q(fen: &str) -> String {
    fen.replace(' ', "_").replace('/', "%2F")
}

fn value_fields(v: Value) -> (Json, Json) {
    match v {
        Value::Win(d) => ("win".into(), d.into()),
        Value::Loss(d) => ("loss".into(), d.into()),
        Value::Draw => ("draw".into(), Json::Null),
    }
}

/// Checks every field of a probe of `pos` against minimax.
fn check_probe(
    addr: SocketAddr,
    pos: &Position,
    extra: &str,
    source: &str,
    memo: &mut MinimaxMemo,
) {
    // Only a search answers what the tables do not hold.
    let search = if source == "search" { "&search=1" } else { "" };
    let path = format!("/api/probe?fen={}{extra}{search}", q(&pos.to_string()));
    let (status, j) = get_json(addr, &path);
    assert_eq!(status, 200, "{path}: {j}");
    assert_eq!(j["fen"], pos.to_string());
    assert_eq!(j["source"], source, "{path}");
    let v = minimax(pos, memo);
    let (value, dtm) = value_fields(v);
    assert_eq!((&j["value"], &j["dtm"]), (&value, &dtm), "{path}");
    let moves = j["moves"].as_array().unwrap();
    assert_eq!(moves.len(), pos.legal_moves().len());
    let mut previous: Option<Value> = None;
    for m in moves {
        let mv = pos.parse_move(m["uci"].as_str().unwrap()).unwrap();
        assert_eq!(m["san"], mv.san());
        let mv_value = minimax(&pos.play(mv), memo).before_move();
        let (value, dtm) = value_fields(mv_value);
        assert_eq!(
            (&m["value"], &m["dtm"]),
            (&value, &dtm),
            "{path} {}",
            m["san"]
        );
        // Best first.
        assert!(previous.is_none_or(|p| p >= mv_value), "{path}: order");
        previous = Some(mv_value);
    }
    if let Some(first) = moves.first() {
        assert_eq!(first["value"], j["value"]);
    }
}

fn positions(board: &str, rules: Rules, plies: usize) -> Vec<Position> {
    let b: Board = board.parse().unwrap();
    let start = parse_position("pawngame", Some(b), rules).unwrap();
    // The start and every position a few plies deep along the first moves.
    let mut out = vec![start];
    let mut frontier = vec![start];
    for _ in 0..plies {
        let mut next = Vec::new();
        for p in &frontier {
            for &m in p.legal_moves().iter().take(3) {
                next.push(p.play(m));
            }
        }
        out.extend(&next);
        frontier = next;
    }
    out
}

#[test]
fn probe_and_mainline_agree_with_minimax() {
    let addr = start(Oracle::new(None, Budget::default()));
    for (board, rules, extra) in [
        ("4x5", Rules::default(), ""),
        ("5x5", Rules::default(), ""),
        (
            "5x5",
            Rules {
                en_passant: false,
                seventh_rank_wins: false,
            },
            "&no_en_passant=1",
        ),
        (
            "4x5",
            Rules {
                en_passant: true,
                seventh_rank_wins: true,
            },
            "&seventh_rank_wins=1",
        ),
    ] {
        let mut memo = MinimaxMemo::default();
        for pos in positions(board, rules, 3) {
            check_probe(addr, &pos, extra, "search", &mut memo);
            // The line plays the value out: as long as the DTM, ends the game.
            let path = format!("/api/mainline?fen={}{extra}&search=1", q(&pos.to_string()));
            let (status, j) = get_json(addr, &path);
            assert_eq!(status, 200, "{path}: {j}");
            let v = minimax(&pos, &mut memo);
            assert_eq!(j["value"], value_fields(v).0);
            let line = j["line"].as_array().unwrap();
            let mut p = pos;
            for san in line {
                let m = p.parse_move(san.as_str().unwrap()).unwrap();
                assert_eq!(
                    minimax(&p.play(m), &mut memo).before_move(),
                    minimax(&p, &mut memo),
                    "{path}: {san} keeps the value"
                );
                p = p.play(m);
            }
            assert!(p.is_game_over(), "{path}");
            if let Some(d) = v.dtm() {
                assert_eq!(line.len() as u32, d, "{path}");
            }
        }
    }
    // The worked example of RULES.md: a draw by the real rules, a win in 1
    // with the seventh rank winning; setup names with board=.
    let (_, j) = get_json(addr, "/api/probe?fen=3%2F2p%2FppP%2F3%2F3_b_-&search=1");
    assert_eq!((&j["value"], &j["dtm"]), (&"draw".into(), &Json::Null));
    let (_, j) = get_json(
        addr,
        "/api/probe?fen=3%2F2p%2FppP%2F3%2F3_b_-&seventh_rank_wins=1&search=1",
    );
    assert_eq!((&j["value"], &j["dtm"]), (&"win".into(), &1.into()));
    let (_, j) = get_json(addr, "/api/probe?fen=pawngame&board=4x4&search=1");
    assert_eq!((&j["value"], &j["dtm"]), (&"loss".into(), &2.into()));
    // A finished game: no moves, lost for the side to move.
    let (status, j) = get_json(addr, "/api/probe?fen=4%2F1p2%2F1P2%2F4_w_-");
    assert_eq!(status, 200, "{j}");
    assert_eq!(j["moves"].as_array().unwrap().len(), 0);
    assert_eq!(j["value"], "draw");
}

#[test]
fn tables_answer_with_their_source() {
    let variant = Variant::new(Board::new(4, 5).unwrap(), Rules::default());
    let dir = common::gen(variant, 4, "serve-tables");
    let addr = start(Oracle::new(
        Some(dir.path().to_path_buf()),
        Budget::default(),
    ));
    let mut memo = MinimaxMemo::default();
    for fen in [
        "4/1pp1/4/1PP1/4 w -",
        "4/p3/1p2/2P1/4 b -",
        "4/2p1/4/P3/4 w -",
    ] {
        let pos = parse_position(fen, None, Rules::default()).unwrap();
        check_probe(addr, &pos, "", "table", &mut memo);
    }
    // More pawns than the tables hold: the search, with tables at its leaves.
    let pos = parse_position("pawngame", Some(variant.board), Rules::default()).unwrap();
    check_probe(addr, &pos, "", "search", &mut memo);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn board_pictures() {
    let addr = start(Oracle::new(None, Budget::default()));
    let (status, ctype, body) = get(
        addr,
        "/board.svg?fen=pawngame&board=5x6&lastmove=b2b3&arrow=c2c4&flip=1",
    );
    assert_eq!((status, ctype.as_str()), (200, "image/svg+xml"));
    assert!(body.starts_with("<svg"));
    assert_eq!(body.matches("<rect x=").count(), 1 + 30);
    assert_eq!(body.matches("class=\"pawn white\"").count(), 5);
    assert_eq!(body.matches("class=\"arrow\"").count(), 1);
    // `show --svg` draws the same picture.
    let file = common::temp_dir("svg").with_extension("svg");
    let mut c = common::peasant_command(["--board", "5x6", "show", "pawngame", "--svg"]);
    c.arg(&file)
        .args(["--lastmove", "b2b3", "--arrow", "c2c4", "--flip"]);
    let out = common::output_of(c);
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), body);
    let _ = std::fs::remove_file(&file);
    let (status, _, body) = get(addr, "/");
    assert_eq!(status, 200);
    assert!(body.contains("peasant explorer") && body.contains("/api/probe"));
}

#[test]
fn bad_queries_and_budgets() {
    let addr = start(Oracle::new(None, Budget::default()));
    for path in [
        "/api/probe?fen=5%2Fppppp%2F5%2FPPPPP%2F5_x_-",
        "/api/probe?fen=notaposition",
        "/api/probe?fen=pawngame&board=9x9",
        "/api/probe?fen=pawngame&board=5x5&no_en_passant=maybe",
        "/api/probe?fen=pawngame&board=5x5&colour=red",
        "/api/probe",
        "/api/probe?fen=%zz",
        "/api/mainline?fen=4%2F4%2F4%2FPPP1_w_-",
        "/board.svg?fen=pawngame&board=5x5&arrow=e9e10",
        "/board.svg?fen=pawngame&board=5x5&size=100000",
    ] {
        let (status, j) = get_json(addr, path);
        assert_eq!(status, 400, "{path}: {j}");
        let e = j["error"].as_str().unwrap();
        assert!(!e.is_empty() && !e.contains('\n'), "{path}: {e}");
    }
    let (status, j) = get_json(addr, "/nowhere");
    assert_eq!(status, 404, "{j}");
    // A budget too small for the 8x8 pawn game: 404, and the server goes on.
    let small = start(Oracle::new(
        None,
        Budget {
            nodes: Some(10_000),
            time: None,
        },
    ));
    let (status, j) = get_json(small, "/api/probe?fen=pawngame&search=1");
    assert_eq!(status, 404, "{j}");
    assert!(j["error"].as_str().unwrap().contains("budget"), "{j}");
    let (status, _) = get_json(small, "/api/mainline?fen=pawngame&search=1");
    assert_eq!(status, 404);
    // Without search=1 nothing searches: 404 at once, saying how to ask.
    let (status, j) = get_json(small, "/api/probe?fen=pawngame&board=4x4");
    assert_eq!(status, 404, "{j}");
    assert!(j["error"].as_str().unwrap().contains("search=1"), "{j}");
    let (status, j) = get_json(small, "/api/probe?fen=pawngame&board=4x4&search=1");
    assert_eq!((status, &j["value"]), (200, &"loss".into()));
}

#[test]
fn many_clients_at_once() {
    let addr = start(Oracle::new(None, Budget::default()));
    // The search's answer is kept: the probes after it answer the same
    // without searching.
    let (_, expected) = get_json(addr, "/api/probe?fen=pawngame&board=5x5&search=1");
    let clients: Vec<_> = (0..24)
        .map(|i| {
            let expected = expected.clone();
            std::thread::spawn(move || {
                for k in 0..4 {
                    match (i + k) % 3 {
                        0 => {
                            let (status, j) = get_json(addr, "/api/probe?fen=pawngame&board=5x5");
                            assert_eq!((status, &j), (200, &expected));
                        }
                        1 => {
                            let (status, _, body) = get(addr, "/board.svg?fen=peasants&board=8x8");
                            assert_eq!(status, 200);
                            assert!(body.ends_with("</svg>\n"));
                        }
                        _ => {
                            let (status, _) = get_json(addr, "/api/probe?fen=bad");
                            assert_eq!(status, 400);
                        }
                    }
                }
            })
        })
        .collect();
    for c in clients {
        c.join().unwrap();
    }
}

/// The committed proofs under results/, read as `serve --proofs results`.
fn results_oracle(budget: Budget) -> Oracle {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
    let mut oracle = Oracle::new(None, budget);
    for log in peasant::explore::ProofLogs::read_all(&dir).unwrap() {
        assert_eq!(log.damaged(), 0);
        oracle = oracle.with_knowledge(std::sync::Arc::new(log));
    }
    oracle
}

/// Every committed proof the front panel names answers its start with the
/// value it claims, with the questions it answered; the line of perfect
/// play follows the proofs (the 6x8 start: a drawing move for each side,
/// a4 a5) and each move keeps the value the proof gives its position; the
/// probes and lines answer from the proofs (their times printed: median
/// of 20, in process).
#[test]
fn committed_proofs_answer_at_once() {
    use peasant::serve::{handle, solved::COMMITTED_PROOFS};
    let oracle = results_oracle(Budget {
        nodes: Some(1),
        time: None,
    });
    let json = |url: &str| -> Json {
        let r = handle(&oracle, "GET", url);
        assert_eq!(r.status, 200, "{url}: {}", r.body);
        serde_json::from_str(&r.body).unwrap()
    };
    for p in COMMITTED_PROOFS {
        let mut query = format!("fen={}&board={}", q(p.fen), p.board);
        if !p.en_passant {
            query.push_str("&no_en_passant=1");
        }
        let probe = json(&format!("/api/probe?{query}"));
        assert_eq!(
            (&probe["source"], &probe["value"]),
            (&"proof".into(), &p.value.into()),
            "{}",
            p.dir
        );
        assert!(!probe["proof"].as_array().unwrap().is_empty(), "{}", p.dir);
        let line = json(&format!("/api/mainline?{query}"));
        let moves = line["line"].as_array().unwrap();
        assert!(!moves.is_empty(), "{}: {line}", p.dir);
        assert_eq!(line["proven"].as_u64(), Some(moves.len() as u64));
        assert_eq!(line["complete"], false);
        assert!(line["end"].as_str().unwrap().contains("search=1"));
        // Each position along the line, where the proofs settle it, has
        // the value the line says: the start's, then its opposite, ...
        let mut pos = parse_position(
            p.fen,
            Some(p.board.parse().unwrap()),
            Rules {
                en_passant: p.en_passant,
                seventh_rank_wins: false,
            },
        )
        .unwrap();
        let flip = |v: &'static str| -> &'static str {
            match v {
                "win" => "loss",
                "loss" => "win",
                d => d,
            }
        };
        let mut value = p.value;
        let mut known = 0;
        for san in moves {
            let m = pos.parse_move(san.as_str().unwrap()).unwrap();
            let url = format!(
                "/api/probe?fen={}{}",
                q(&pos.to_string()),
                if p.en_passant { "" } else { "&no_en_passant=1" }
            );
            let r = handle(&oracle, "GET", &url);
            if r.status == 200 {
                let probe: Json = serde_json::from_str(&r.body).unwrap();
                assert_eq!(probe["value"], value, "{}: {san}", p.dir);
                let listed = probe["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|x| x["uci"] == m.uci())
                    .unwrap();
                assert!(
                    listed["value"] == value || listed["value"] == "unknown",
                    "{}: {san}: {listed}",
                    p.dir
                );
                known += 1;
            } else {
                // Known on the line only through its parent's value.
                assert_eq!(r.status, 404, "{url}");
            }
            pos = pos.play(m);
            value = flip(value);
        }
        assert!(known > 0, "{}", p.dir);
    }
    let line = json("/api/mainline?fen=peasants&board=6x8");
    // The second 6x8 proof knows that after 1.c4 a5 2.a4 (the same
    // position as 1.a4 a5 2.c4) black does not win.
    assert_eq!(
        line["line"],
        serde_json::json!(["a4", "a5", "c4"]),
        "{line}"
    );
    // Timing, in process (what a request costs the server, without the
    // socket): the median of 20 of each.
    for url in [
        "/api/probe?fen=peasants&board=6x8",
        "/api/mainline?fen=peasants&board=6x8",
        "/api/probe?fen=pawngame",
        "/api/mainline?fen=pawngame",
        "/api/probe?fen=8%2F1ppppppp%2F8%2Fp7%2F1P6%2F8%2FP1PPPPPP%2F8_w_-",
        "/api/mainline?fen=8%2F1ppppppp%2F8%2Fp7%2F1P6%2F8%2FP1PPPPPP%2F8_w_-",
        "/api/solved",
    ] {
        let mut times: Vec<f64> = (0..20)
            .map(|_| {
                let t = std::time::Instant::now();
                assert_eq!(handle(&oracle, "GET", url).status, 200);
                t.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        times.sort_by(f64::total_cmp);
        // A figure, not a check (timings vary with the machine): `cargo
        // test --release --test suite serve::committed_proofs -- --nocapture`.
        println!("{url}: median {:.3} ms, max {:.3} ms", times[10], times[19]);
    }
}

/// Searches run on their own worker: while searches of the 8x8 pawn game
/// (0.3 s each, more than the queue holds) run and wait, probes and the
/// solved list answer at once; the searches beyond the queue are refused
/// with 503 and a JSON error; the rest answer 404 (no answer within the
/// budget); the server answers afterwards.
#[test]
fn probes_never_wait_behind_searches() {
    let server = Server::bind(
        "127.0.0.1:0",
        Oracle::new(
            None,
            Budget {
                nodes: None,
                time: Some(std::time::Duration::from_millis(300)),
            },
        ),
        4,
    )
    .unwrap();
    let addr = server.local_addr().unwrap();
    server.spawn();
    let (_, expected) = get_json(addr, "/api/probe?fen=pawngame&board=5x5&search=1");
    let searches: Vec<_> = (0..peasant::serve::SEARCH_QUEUE + 8)
        .map(|_| std::thread::spawn(move || get_json(addr, "/api/mainline?fen=pawngame&search=1")))
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(200));
    let mut worst = 0f64;
    for _ in 0..50 {
        let t = std::time::Instant::now();
        let (status, j) = get_json(addr, "/api/probe?fen=pawngame&board=5x5");
        assert_eq!((status, &j), (200, &expected));
        let (status, _) = get_json(addr, "/api/solved");
        assert_eq!(status, 200);
        worst = worst.max(t.elapsed().as_secs_f64());
    }
    // The probes were all answered while searches (some 10 s of them on
    // one search worker) still ran or waited: none waited behind them.
    assert!(
        searches.iter().any(|s| !s.is_finished()),
        "the probes ended after every search (the slowest waited {worst} s)"
    );
    let mut refused = 0;
    for s in searches {
        let (status, j) = s.join().unwrap();
        assert!(matches!(status, 404 | 503), "{status}: {j}");
        assert!(!j["error"].as_str().unwrap().is_empty());
        refused += usize::from(status == 503);
    }
    assert!(refused > 0, "the queue refused nothing");
    let (status, _) = get_json(addr, "/api/probe?fen=pawngame&board=5x5");
    assert_eq!(status, 200);
}

/// The moves played, in SAN, and the game's PGN; the solved list.
#[test]
fn games_and_the_solved_list() {
    let addr = start(Oracle::new(None, Budget::default()));
    let (status, j) = get_json(addr, "/api/game?fen=pawngame&board=5x5&moves=b2b3,a4a3");
    assert_eq!(status, 200, "{j}");
    assert_eq!(j["moves"][0]["san"], "b3");
    assert_eq!(j["moves"][1]["san"], "a3");
    let start = parse_position("pawngame", Some("5x5".parse().unwrap()), Rules::default()).unwrap();
    let b3 = start.play(start.parse_move("b3").unwrap());
    assert_eq!(j["fen"], b3.play(b3.parse_move("a3").unwrap()).to_string());
    assert!(j["pgn"].as_str().unwrap().contains("1. b3 a3"), "{j}");
    for path in [
        "/api/game?fen=pawngame&board=5x5&moves=b2b3,b2b3",
        "/api/solved?x=1",
        "/api/probe?fen=pawngame&board=5x5&search=maybe",
    ] {
        let (status, j) = get_json(addr, path);
        assert_eq!(status, 400, "{path}: {j}");
    }
    let (status, j) = get_json(addr, "/api/solved");
    assert_eq!(status, 200);
    assert_eq!(j["grids"].as_array().unwrap().len(), 3);
}
