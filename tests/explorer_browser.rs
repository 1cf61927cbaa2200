//! The explorer page in a real browser: Debian's chromium, driven through
//! chromedriver by a small WebDriver client written here (plain HTTP and
//! JSON). The page loads the 5x5 pawn game, a click on a move in the list
//! follows it (the board and the move list change to the new position's),
//! clicks on the board (a pawn, then its target square) play a move, and
//! `back` returns. With the committed proofs: an address loads exactly its
//! position (the 6x8 Peasants' start, a game's moves), the controls show
//! the variant, a move changes the address and the browser's back returns,
//! the proof's questions and line show, and the front panel's entries
//! (a list entry, a Pawn Race grid cell) open their positions.
//! Everything stays on loopback.
//!
//! Reported as ignored when chromium or chromedriver is absent, and failed
//! then under PEASANT_REQUIRE_EXTERNAL=1.

#[allow(unused_imports)]
mod common;

use peasant::explore::{Budget, Oracle};
use peasant::rules::{parse_position, Rules};
use peasant::serve::Server;
use serde_json::{json, Value as Json};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

fn find(names: &[&str]) -> Option<String> {
    for name in names {
        for dir in std::env::var("PATH").unwrap_or_default().split(':') {
            let p = std::path::Path::new(dir).join(name);
            if p.is_file() {
                return Some(p.to_string_lossy().into_owned());
            }
        }
    }
    None
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One HTTP request with a JSON body; the JSON answer.
fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&Json>) -> Json {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    // Read the head, then exactly Content-Length bytes (chromedriver may
    // keep the connection open).
    let mut raw = Vec::new();
    let mut byte = [0u8; 1];
    while !raw.ends_with(b"\r\n\r\n") {
        if s.read(&mut byte).unwrap() == 0 {
            break;
        }
        raw.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&raw).to_string();
    let len = head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case("content-length")
            .then(|| v.trim().parse::<usize>().ok())?
    });
    let mut rest = Vec::new();
    match len {
        Some(n) => {
            rest.resize(n, 0);
            s.read_exact(&mut rest).unwrap();
        }
        None => {
            s.read_to_end(&mut rest).unwrap();
        }
    }
    let rest = String::from_utf8_lossy(&rest).to_string();
    let text = format!("{head}{rest}");
    let rest = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(&rest)
    } else {
        rest
    };
    serde_json::from_str(&rest).unwrap_or_else(|e| panic!("{method} {path}: {e}: {text}"))
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

struct Driver {
    child: Child,
    addr: SocketAddr,
    session: String,
}

impl Driver {
    fn start(chromium: &str, chromedriver: &str, profile: &std::path::Path) -> Driver {
        let port = free_port();
        let child = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let t = Instant::now();
        while TcpStream::connect(addr).is_err() {
            assert!(
                t.elapsed() < Duration::from_secs(30),
                "chromedriver does not listen"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1100,800",
                    format!("--user-data-dir={}", profile.display()),
                ]
            }
        }}});
        let mut driver = Driver {
            child,
            addr,
            session: String::new(),
        };
        let r = http(addr, "POST", "/session", Some(&caps));
        driver.session = r["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {r}"))
            .to_string();
        driver
    }

    fn cmd(&self, method: &str, path: &str, body: Option<Json>) -> Json {
        let r = http(
            self.addr,
            method,
            &format!("/session/{}{path}", self.session),
            body.as_ref(),
        );
        if r["value"].get("error").is_some() {
            panic!("{method} {path}: {r}");
        }
        r["value"].clone()
    }

    fn script(&self, code: &str) -> Json {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({ "script": code, "args": [] })),
        )
    }

    fn find(&self, css: &str) -> Vec<String> {
        let r = self.cmd(
            "POST",
            "/elements",
            Some(json!({ "using": "css selector", "value": css })),
        );
        r.as_array()
            .unwrap()
            .iter()
            .map(|e| {
                e.as_object()
                    .unwrap()
                    .values()
                    .next()
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect()
    }

    fn click(&self, element: &str) {
        self.cmd(
            "POST",
            &format!("/element/{element}/click"),
            Some(json!({})),
        );
    }

    /// Waits until `code` returns something truthy; returns it.
    fn wait_for(&self, code: &str, what: &str) -> Json {
        let t = Instant::now();
        loop {
            let v = self.script(code);
            if !(v.is_null() || v == json!(false) || v == json!("")) {
                return v;
            }
            assert!(
                t.elapsed() < Duration::from_secs(30),
                "timed out waiting for {what}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                http(
                    self.addr,
                    "DELETE",
                    &format!("/session/{}", self.session),
                    None,
                )
            }));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the page shows: the board's position and the moves listed.
const STATE: &str = "const b = document.querySelector('#board');
  const moves = [...document.querySelectorAll('button.move')].map(x => x.dataset.uci);
  const pawns = [...document.querySelectorAll('#board g.pawn')].map(g => g.getAttribute('class') + '@' + g.dataset.square);
  if (!b || !b.dataset.fen || !moves.length || document.querySelector('#line').textContent == '') return null;
  return { fen: b.dataset.fen, moves: moves, pawns: pawns.sort(), line: document.querySelector('#line').textContent };";

fn page_state(d: &Driver, not_fen: &str) -> Json {
    let code = format!(
        "{STATE_FN} const s = state(); return (s && s.fen != {not}) ? s : null;",
        STATE_FN = format_args!("function state() {{ {STATE} }}"),
        not = json!(not_fen)
    );
    d.wait_for(&code, "the page to show a new position")
}

/// The pawns of a position as the page's SVG names them.
fn pawns_of(fen: &str) -> Vec<String> {
    let pos = parse_position(fen, None, Rules::default()).unwrap();
    let mut out = Vec::new();
    for (color, name) in [
        (peasant::rules::Color::White, "white"),
        (peasant::rules::Color::Black, "black"),
    ] {
        for sq in pos.pawns(color) {
            out.push(format!("pawn {name}@{sq}"));
        }
    }
    out.sort();
    out
}

/// Checks the page against the position: its pawns and its legal moves.
fn check_page(s: &Json) {
    let fen = s["fen"].as_str().unwrap();
    let pos = parse_position(fen, None, Rules::default()).unwrap();
    let shown: Vec<String> = s["pawns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    assert_eq!(shown, pawns_of(fen));
    let mut listed: Vec<String> = s["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.uci()).collect();
    listed.sort();
    legal.sort();
    assert_eq!(listed, legal, "{fen}");
}

/// Built without libtest's harness (Cargo.toml): where chromium or
/// chromedriver is missing the test is reported as ignored, not passed
/// (tests/common/external.rs).
fn main() -> ExitCode {
    common::external::run_external_tests(
        browser,
        &mut [("explorer_follows_clicks", &mut |(chromium, driver): (
            String,
            String,
        )| {
            explorer_follows_clicks(&chromium, &driver)
        })],
    )
}

/// Paths of chromium and chromedriver, or what is missing.
fn browser() -> Result<(String, String), String> {
    match (
        find(&["chromium", "chromium-browser"]),
        find(&["chromedriver"]),
    ) {
        (Some(chromium), Some(driver)) => Ok((chromium, driver)),
        _ => Err("chromium or chromedriver not installed".to_string()),
    }
}

fn explorer_follows_clicks(chromium: &str, chromedriver: &str) {
    let server = Server::bind("127.0.0.1:0", Oracle::new(None, Budget::default()), 4).unwrap();
    let addr = server.local_addr().unwrap();
    server.spawn();
    let profile = std::env::temp_dir().join(format!("peasant-chromium-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    let d = Driver::start(chromium, chromedriver, &profile);
    d.cmd(
        "POST",
        "/url",
        Some(json!({ "url": format!("http://{addr}/") })),
    );

    // The start: the 5x5 pawn game.
    let first = page_state(&d, "");
    let start = parse_position("pawngame", Some("5x5".parse().unwrap()), Rules::default()).unwrap();
    assert_eq!(first["fen"], start.to_string());
    check_page(&first);

    // Click the first listed move: the board and the list follow it.
    let buttons = d.find("button.move");
    let uci = d.script("return document.querySelector('button.move').dataset.uci;");
    let uci = uci.as_str().unwrap().to_string();
    d.click(&buttons[0]);
    let second = page_state(&d, first["fen"].as_str().unwrap());
    let expected = start.play(start.parse_move(&uci).unwrap());
    assert_eq!(second["fen"], expected.to_string());
    check_page(&second);
    assert_ne!(second["moves"], first["moves"]);

    // Play a move on the board: the pawn's square, then its target.
    let m = expected.legal_moves()[0];
    let at = |sq: String| d.find(&format!("#board rect[data-square=\"{sq}\"]"))[0].clone();
    d.click(&at(m.from.to_string()));
    d.click(&at(m.to.to_string()));
    let third = page_state(&d, second["fen"].as_str().unwrap());
    assert_eq!(third["fen"], expected.play(m).to_string());
    check_page(&third);

    // Back, twice: the start again.
    let back = d.find("#back")[0].clone();
    d.click(&back);
    let again = page_state(&d, third["fen"].as_str().unwrap());
    assert_eq!(again["fen"], second["fen"]);
    d.click(&back);
    let again = page_state(&d, second["fen"].as_str().unwrap());
    assert_eq!(again["fen"], first["fen"]);
    check_page(&again);
    shared_addresses(&d);
    drop(d);
    let _ = std::fs::remove_dir_all(&profile);
}

/// The address, the controls and the texts the page shows.
const SHOWN: &str = "return { search: location.search, setup: document.querySelector('#setupName').value,
  width: document.querySelector('#width').value, height: document.querySelector('#height').value,
  noEp: document.querySelector('#noEp').checked, status: document.querySelector('#status').textContent,
  proof: document.querySelector('#proof').textContent, line: document.querySelector('#line').textContent,
  played: document.querySelector('#played').textContent, pgn: document.querySelector('#pgn').href };";

/// Waits until the page shows `fen` (its moves listed); what it shows.
fn shows(d: &Driver, fen: &str) -> Json {
    let code = format!(
        "function state() {{ {STATE} }} const s = state(); return (s && s.fen == {fen}) ? s : null;",
        fen = json!(fen)
    );
    let s = d.wait_for(&code, &format!("the page to show {fen}"));
    check_page_rules(&s);
    d.script(SHOWN)
}

/// [`check_page`] for a position of any board and rules.
fn check_page_rules(s: &Json) {
    let fen = s["fen"].as_str().unwrap();
    if parse_position(fen, None, Rules::default()).is_ok() {
        check_page(s);
    }
}

/// The explorer on a server with the committed proofs: addresses, history
/// and the front panel.
fn shared_addresses(d: &Driver) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
    let mut oracle = Oracle::new(
        None,
        Budget {
            nodes: Some(2_000_000),
            time: Some(Duration::from_secs(2)),
        },
    );
    for log in peasant::explore::ProofLogs::read_all(&dir).unwrap() {
        oracle = oracle.with_knowledge(std::sync::Arc::new(log));
    }
    let server = Server::bind("127.0.0.1:0", oracle, 4).unwrap();
    let addr = server.local_addr().unwrap();
    server.spawn();
    let open = |path: &str| {
        d.cmd(
            "POST",
            "/url",
            Some(json!({ "url": format!("http://{addr}{path}") })),
        );
    };
    let position = |fen: &str, board: &str| {
        parse_position(fen, Some(board.parse().unwrap()), Rules::default()).unwrap()
    };

    // Loading an address shows exactly its position, with its variant in
    // the controls, the proof's questions and its line.
    open("/?fen=peasants&board=6x8");
    let start = position("peasants", "6x8");
    let shown = shows(d, &start.to_string());
    assert_eq!(
        (&shown["setup"], &shown["width"], &shown["height"]),
        (&json!("peasants"), &json!("6"), &json!("8")),
        "{shown}"
    );
    let status = shown["status"].as_str().unwrap();
    assert!(
        status.contains("draw") && status.contains("proof"),
        "{shown}"
    );
    assert!(
        shown["proof"]
            .as_str()
            .unwrap()
            .contains("does white win? no"),
        "{shown}"
    );
    d.wait_for(
        "return document.querySelector('#line').textContent.startsWith('a4 a5');",
        "the proof's line a4 a5",
    );

    // A move changes the address; the browser's back returns.
    let uci = d.script("return document.querySelector('button.move').dataset.uci;");
    let uci = uci.as_str().unwrap().to_string();
    d.click(&d.find("button.move")[0]);
    let after = start.play(start.parse_move(&uci).unwrap());
    let shown = shows(d, &after.to_string());
    assert!(
        shown["search"]
            .as_str()
            .unwrap()
            .contains(&format!("moves={uci}")),
        "{shown}"
    );
    d.cmd("POST", "/back", Some(json!({})));
    let shown = shows(d, &start.to_string());
    assert!(
        !shown["search"].as_str().unwrap().contains("moves="),
        "{shown}"
    );
    d.cmd("POST", "/forward", Some(json!({})));
    shows(d, &after.to_string());

    // An address with moves: the game, its moves in SAN and its PGN.
    open("/?fen=pawngame&board=5x5&no_en_passant=1&moves=b2b3,c4c3");
    let p5 = parse_position(
        "pawngame",
        Some("5x5".parse().unwrap()),
        Rules {
            en_passant: false,
            seventh_rank_wins: false,
        },
    )
    .unwrap();
    let b3 = p5.play(p5.parse_move("b3").unwrap());
    let shown = shows(d, &b3.play(b3.parse_move("c3").unwrap()).to_string());
    assert_eq!(shown["played"], "1. b3 c3", "{shown}");
    assert_eq!(
        (&shown["setup"], &shown["noEp"]),
        (&json!("pawngame"), &json!(true))
    );
    assert!(
        shown["pgn"].as_str().unwrap().contains("1.%20b3%20c3"),
        "{shown}"
    );

    // The front panel: a list entry and a grid cell open their positions.
    let entry = d
        .find("#solved a")
        .into_iter()
        .find(|e| d.cmd("GET", &format!("/element/{e}/text"), None) == json!("pawn game 8x8"))
        .expect("a front panel entry 'pawn game 8x8'");
    d.click(&entry);
    let shown = shows(d, &position("pawngame", "8x8").to_string());
    assert!(
        shown["search"].as_str().unwrap().contains("board=8x8"),
        "{shown}"
    );
    assert_eq!(
        (&shown["setup"], &shown["width"], &shown["height"]),
        (&json!("pawngame"), &json!("8"), &json!("8"))
    );
    let cell = d.find("table.grid[data-board=\"6x6\"] a")[3].clone();
    d.click(&cell);
    let shown = shows(d, &position("pawnrace:a:d", "6x6").to_string());
    assert_eq!(shown["setup"], "pawnrace", "{shown}");
    let status = shown["status"].as_str().unwrap();
    assert!(status.contains("wins"), "a:d is a win for white: {shown}");
}
