//! Stage 8, the HTTP API and the explorer page (`peasant serve`), on
//! `tiny_http`.
//!
//! - `GET /api/probe?fen=F`: the value, DTM and source of a position and
//!   every move's value, best first, from what answers at once: the
//!   tables, the proofs (`--proofs`) and the searches already finished. A
//!   position answered by a proof lists the questions the proof answered
//!   about it (`proof`: question, answer, nodes). A move a proof leaves
//!   open has the value `unknown`. With `search=1` a position nothing
//!   knows is searched, within the search budget.
//! - `GET /api/mainline?fen=F`: a line of perfect play: the tables' and
//!   the proofs' moves first (for a draw, a drawing move for each side:
//!   each side's proof answers the other's questions), then the searches
//!   already finished; `proven` counts the plies known from tables and
//!   proofs, `sources` names each ply's source and `end` says why the line
//!   stops. With `search=1` the line goes on by search, all of it within
//!   one search budget.
//! - `GET /api/solved`: what is solved, for the explorer's front panel
//!   (from the committed results and proofs, [`solved`]).
//! - `GET /api/game?fen=F&moves=UCI,UCI`: the moves played from `F` in
//!   SAN, the position they reach and the game as PGN.
//! - `GET /board.svg?fen=F[&lastmove=UCI][&arrow=UCI][&flip=1]`;
//! - `GET /`: the explorer page. Its address holds the game (`fen`,
//!   `board`, the rule options and `moves`), so every position can be
//!   shared; each move is a step of the browser's history.
//!
//! `F` is a position text (spaces may be written `_`) or a setup name with
//! `board=WxH`; `no_en_passant=1` and `seventh_rank_wins=1` choose the
//! rules. Errors are JSON `{"error": "..."}`: 400 for a bad position or
//! option, 404 when nothing answers (without `search=1`: not in the tables
//! or proofs; with it: no answer within the search budget), 503 when the
//! searches' queue is full. Every request is answered in its own
//! `catch_unwind`, so no query can bring the server down.
//!
//! Requests without `search=1` are answered by the HTTP workers at once;
//! requests with it are handed to the search workers (their own threads,
//! a bounded queue), so a probe never waits behind a search.

pub mod solved;

use crate::explore::oracle::{Analysis, Answered, Line, LineEnd, Oracle, OracleError, Source};
use crate::explore::pgn::Game;
use crate::explore::svg::{board_svg, on_board, parse_uci_squares, SvgOptions};
use crate::rules::Move;
use crate::rules::{parse_position, Board, Position, Rules};
use crate::solve::Question;
use crate::solve::Solution;
use serde_json::{json, Value as Json};
use std::io;
use std::net::SocketAddr;
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::thread::JoinHandle;

/// The explorer page, served at `/`.
pub const EXPLORER_HTML: &str = include_str!("explorer.html");

/// The longest line `/api/mainline` gives (no game of the family is longer).
pub const MAX_LINE: usize = 400;

/// An answer: status, content type and body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The Content-Type header.
    pub content_type: &'static str,
    /// The body: JSON, SVG or the explorer page.
    pub body: String,
}

impl Reply {
    fn json(status: u16, body: Json) -> Reply {
        Reply {
            status,
            content_type: "application/json",
            body: body.to_string(),
        }
    }

    fn error(status: u16, message: impl std::fmt::Display) -> Reply {
        // One line naming the problem.
        let text = message.to_string().replace('\n', " ");
        Reply::json(status, json!({ "error": text }))
    }
}

/// Decodes `%XX` and `+` of a query component.
fn percent_decode(s: &str) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = b
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| format!("bad percent escape in '{s}'"))?;
                out.push(hex);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| format!("'{s}' is not UTF-8"))
}

/// A request's path and query parameters (decoded).
fn split_url(url: &str) -> Result<(String, Vec<(String, String)>), String> {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let mut params = Vec::new();
    for part in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        params.push((percent_decode(k)?, percent_decode(v)?));
    }
    Ok((path.to_string(), params))
}

/// The query's position and what else it asked for.
struct Query {
    pos: Position,
    params: Vec<(String, String)>,
}

impl Query {
    fn get(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

fn flag(params: &[(String, String)], key: &str) -> Result<bool, String> {
    match params
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
    {
        None | Some("0") | Some("false") => Ok(false),
        Some("1") | Some("true") | Some("") => Ok(true),
        Some(v) => Err(format!("option {key}={v}: expected 1 or 0")),
    }
}

/// Reads the position of a query: `fen` (spaces as `_` allowed) or a
/// setup name, `board`, and the rule options; `allowed` lists the other
/// parameters the endpoint takes.
fn parse_query(params: Vec<(String, String)>, allowed: &[&str]) -> Result<Query, String> {
    const COMMON: [&str; 4] = ["fen", "board", "no_en_passant", "seventh_rank_wins"];
    for (k, _) in &params {
        if !COMMON.contains(&k.as_str()) && !allowed.contains(&k.as_str()) {
            return Err(format!("unknown option '{k}'"));
        }
    }
    let rules = Rules {
        en_passant: !flag(&params, "no_en_passant")?,
        seventh_rank_wins: flag(&params, "seventh_rank_wins")?,
    };
    let get = |key: &str| {
        params
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    };
    let fen = get("fen").ok_or("missing option 'fen' (a position text or setup name)")?;
    let fen = fen.replace('_', " ");
    let board = match get("board") {
        Some(b) => Some(b.parse::<Board>().map_err(|e| e.to_string())?),
        None => None,
    };
    let pos = parse_position(&fen, board, rules).map_err(|e| e.to_string())?;
    Ok(Query { pos, params })
}

fn value_json(s: &Solution) -> (Json, Json) {
    let dtm = s.dtm().map_or(Json::Null, |d| json!(d));
    (json!(s.wdl.name()), dtm)
}

/// The JSON of an analysis (what `/api/probe` answers); `proof` lists
/// the questions a proof answered about the position.
pub fn analysis_json(a: &Analysis, proof: &[Answered]) -> Json {
    let (value, dtm) = value_json(&a.value);
    let mut moves: Vec<Json> = a
        .moves
        .iter()
        .map(|(m, s)| {
            let (value, dtm) = value_json(s);
            json!({ "uci": m.uci(), "san": m.san(), "value": value, "dtm": dtm })
        })
        .collect();
    moves.extend(
        a.unknown
            .iter()
            .map(|m| json!({ "uci": m.uci(), "san": m.san(), "value": "unknown", "dtm": null })),
    );
    let mut j = json!({
        "fen": a.position.to_string(),
        "board": a.position.board().to_string(),
        "turn": a.position.turn().name(),
        "value": value,
        "dtm": dtm,
        "source": a.source.name(),
        "outcome": a.position.outcome().map(|o| o.to_string()),
        "moves": moves,
    });
    if !proof.is_empty() {
        let side = a.position.turn().name();
        j["proof"] = proof
            .iter()
            .map(|q| {
                let question = match q.question {
                    Question::Wins => format!("does {side} win?"),
                    Question::AvoidsLoss => format!("does {side} avoid losing?"),
                };
                json!({
                    "question": question,
                    "answer": if q.answer { "yes" } else { "no" },
                    "nodes": q.nodes,
                    "total_nodes": q.total_nodes,
                    "jobs": q.jobs,
                    "by_moves": q.by_moves,
                })
            })
            .collect();
    }
    j
}

/// The JSON of a line of perfect play (what `/api/mainline` answers).
pub fn line_json(line: &Line) -> Json {
    let a = &line.analysis;
    let (value, dtm) = value_json(&a.value);
    let san: Vec<String> = line.moves.iter().map(|(m, _)| m.san()).collect();
    let uci: Vec<String> = line.moves.iter().map(|(m, _)| m.uci()).collect();
    let sources: Vec<&str> = line.moves.iter().map(|(_, s)| s.name()).collect();
    let proven = line
        .moves
        .iter()
        .take_while(|(_, s)| *s != Source::Search)
        .count();
    json!({
        "fen": a.position.to_string(),
        "value": value,
        "dtm": dtm,
        "source": a.source.name(),
        "line": san,
        "line_uci": uci,
        "sources": sources,
        "proven": proven,
        "complete": matches!(line.end, LineEnd::GameOver | LineEnd::MaxPlies),
        "end": line.end.text(),
    })
}

fn oracle_error(e: OracleError) -> Reply {
    match e {
        OracleError::NoAnswer(_) | OracleError::Unknown => Reply::error(404, e),
        OracleError::Table(_) | OracleError::Solve(_) => Reply::error(500, e),
    }
}

/// What a request asks for: read from its method and URL alone (no
/// socket, no search), so that the reading can be tested and fuzzed on
/// its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `/` or `/index.html`: the explorer page.
    Page,
    /// `/api/probe`: the value of a position and of every move, from what
    /// answers at once.
    Probe(Position),
    /// `/api/mainline`: a line of perfect play from a position, from what
    /// answers at once.
    Mainline(Position),
    /// `/api/probe?search=1`: a probe that searches what nothing knows.
    ProbeSearch(Position),
    /// `/api/mainline?search=1`: a line that goes on by search.
    MainlineSearch(Position),
    /// `/board.svg`: a picture of a position.
    Board(Position, SvgOptions),
    /// `/api/solved`: what is solved.
    Solved,
    /// `/api/game`: moves played from a position, in SAN and PGN.
    Game(Position, Vec<Move>),
}

impl Request {
    /// Whether answering may search (the search workers answer it).
    pub fn searches(&self) -> bool {
        matches!(self, Request::ProbeSearch(_) | Request::MainlineSearch(_))
    }
}

/// The moves of `moves=UCI,UCI` played from `pos`: each must be legal.
fn parse_moves(pos: &Position, text: &str) -> Result<Vec<Move>, String> {
    let mut p = *pos;
    let mut out = Vec::new();
    for (i, t) in text.split(',').filter(|t| !t.is_empty()).enumerate() {
        if i >= MAX_LINE {
            return Err(format!("option moves: more than {MAX_LINE} moves"));
        }
        let m = p
            .parse_move(t)
            .map_err(|e| format!("option moves: move {} ({t}): {e}", i + 1))?;
        out.push(m);
        p = p.play(m);
    }
    Ok(out)
}

/// Reads a request (`method`, `url` with its query): what it asks for,
/// or the error to answer (405 for a method other than GET and HEAD, 400
/// for a bad query, 404 for no such page), each a JSON `{"error"}` of one
/// line.
pub fn parse_request(method: &str, url: &str) -> Result<Request, Reply> {
    if method != "GET" && method != "HEAD" {
        return Err(Reply::error(
            405,
            format!("method {method} is not allowed: only GET"),
        ));
    }
    let (path, params) = split_url(url).map_err(|e| Reply::error(400, e))?;
    let bad = |e| Reply::error(400, e);
    match path.as_str() {
        "/" | "/index.html" => Ok(Request::Page),
        "/api/probe" | "/api/mainline" => {
            let q = parse_query(params, &["search"]).map_err(bad)?;
            let search = flag(&q.params, "search").map_err(bad)?;
            Ok(match (path.as_str(), search) {
                ("/api/probe", false) => Request::Probe(q.pos),
                ("/api/probe", true) => Request::ProbeSearch(q.pos),
                (_, false) => Request::Mainline(q.pos),
                (_, true) => Request::MainlineSearch(q.pos),
            })
        }
        "/api/solved" => match params.first() {
            None => Ok(Request::Solved),
            Some((k, _)) => Err(bad(format!("unknown option '{k}'"))),
        },
        "/api/game" => {
            let q = parse_query(params, &["moves"]).map_err(bad)?;
            let moves = parse_moves(&q.pos, q.get("moves").unwrap_or("")).map_err(bad)?;
            Ok(Request::Game(q.pos, moves))
        }
        "/board.svg" => {
            let q = parse_query(params, &["lastmove", "arrow", "flip", "size"]).map_err(bad)?;
            let board = q.pos.board();
            let squares = |key: &str| -> Result<Option<_>, String> {
                match q.get(key) {
                    None | Some("") => Ok(None),
                    Some(t) => parse_uci_squares(t)
                        .filter(|&sq| on_board(board, sq))
                        .map(Some)
                        .ok_or_else(|| {
                            format!("option {key}={t}: expected a move such as e2e4 on the {board} board")
                        }),
                }
            };
            let options = (|| -> Result<SvgOptions, String> {
                let size = match q.get("size") {
                    None => 0,
                    Some(t) => t
                        .parse::<u32>()
                        .ok()
                        .filter(|s| (16..=128).contains(s))
                        .ok_or_else(|| format!("option size={t}: expected 16..128"))?,
                };
                Ok(SvgOptions {
                    last_move: squares("lastmove")?,
                    arrow: squares("arrow")?,
                    flipped: flag(&q.params, "flip")?,
                    square_px: size,
                })
            })()
            .map_err(bad)?;
            Ok(Request::Board(q.pos, options))
        }
        _ => Err(Reply::error(404, format!("no such page: {path}"))),
    }
}

/// `%XX` for every byte of `s` but letters, digits and `-._~`.
fn percent_encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The URL of a request (what the explorer page sends), which
/// [`parse_request`] reads as the same request.
pub fn request_url(request: &Request) -> String {
    let query = |pos: &Position| {
        let v = pos.variant();
        let mut q = format!(
            "fen={}&board={}",
            percent_encode(&pos.to_string()),
            pos.board()
        );
        if !v.rules.en_passant {
            q.push_str("&no_en_passant=1");
        }
        if v.rules.seventh_rank_wins {
            q.push_str("&seventh_rank_wins=1");
        }
        q
    };
    match request {
        Request::Page => "/".to_string(),
        Request::Probe(pos) => format!("/api/probe?{}", query(pos)),
        Request::Mainline(pos) => format!("/api/mainline?{}", query(pos)),
        Request::ProbeSearch(pos) => format!("/api/probe?{}&search=1", query(pos)),
        Request::MainlineSearch(pos) => format!("/api/mainline?{}&search=1", query(pos)),
        Request::Solved => "/api/solved".to_string(),
        Request::Game(pos, moves) => {
            let moves: Vec<String> = moves.iter().map(|m| m.uci()).collect();
            format!("/api/game?{}&moves={}", query(pos), moves.join(","))
        }
        Request::Board(pos, o) => {
            let mut url = format!("/board.svg?{}", query(pos));
            if let Some((a, b)) = o.last_move {
                url.push_str(&format!("&lastmove={a}{b}"));
            }
            if let Some((a, b)) = o.arrow {
                url.push_str(&format!("&arrow={a}{b}"));
            }
            if o.flipped {
                url.push_str("&flip=1");
            }
            if o.square_px != 0 {
                url.push_str(&format!("&size={}", o.square_px));
            }
            url
        }
    }
}

/// Answers a request read by [`parse_request`].
pub fn answer(oracle: &Oracle, request: &Request) -> Reply {
    match request {
        Request::Page => Reply {
            status: 200,
            content_type: "text/html; charset=utf-8",
            body: EXPLORER_HTML.to_string(),
        },
        Request::Probe(pos) => match oracle.known(pos) {
            Ok(Some(a)) => Reply::json(200, analysis_json(&a, &oracle.questions(pos))),
            Ok(None) => oracle_error(OracleError::Unknown),
            Err(e) => oracle_error(e),
        },
        Request::ProbeSearch(pos) => {
            let known = match oracle.known(pos) {
                Ok(k) => k,
                Err(e) => return oracle_error(e),
            };
            // A proof that leaves moves open: a search may know them all;
            // if it finds nothing within its budget, the proof's answer.
            let a = match known {
                Some(a) if a.unknown.is_empty() => Ok(a),
                partial => match (oracle.search(pos), partial) {
                    (Err(OracleError::NoAnswer(_)), Some(a)) => Ok(a),
                    (searched, _) => searched,
                },
            };
            match a {
                Ok(a) => Reply::json(200, analysis_json(&a, &oracle.questions(pos))),
                Err(e) => oracle_error(e),
            }
        }
        Request::Mainline(pos) | Request::MainlineSearch(pos) => {
            let search = matches!(request, Request::MainlineSearch(_));
            match oracle.line(pos, MAX_LINE, search) {
                Ok(line) => Reply::json(200, line_json(&line)),
                Err(e) => oracle_error(e),
            }
        }
        Request::Solved => {
            static SOLVED: OnceLock<String> = OnceLock::new();
            Reply {
                status: 200,
                content_type: "application/json",
                body: SOLVED
                    .get_or_init(|| solved::solved_json().to_string())
                    .clone(),
            }
        }
        Request::Game(start, moves) => {
            let end = moves.iter().fold(*start, |p, &m| p.play(m));
            let mut p = *start;
            let played: Vec<Json> = moves
                .iter()
                .map(|&m| {
                    let j = json!({ "uci": m.uci(), "san": m.san(), "turn": p.turn().name() });
                    p = p.play(m);
                    j
                })
                .collect();
            let pgn = Game {
                event: "peasant explorer",
                white: "?",
                black: "?",
                start: *start,
                moves,
                comments: &[],
            }
            .to_pgn();
            Reply::json(
                200,
                json!({
                    "start": start.to_string(),
                    "fen": end.to_string(),
                    "board": start.board().to_string(),
                    "moves": played,
                    "pgn": pgn,
                }),
            )
        }
        Request::Board(pos, options) => Reply {
            status: 200,
            content_type: "image/svg+xml",
            body: board_svg(pos, options),
        },
    }
}

/// Answers one request (`method`, `url` with its query).
pub fn handle(oracle: &Oracle, method: &str, url: &str) -> Reply {
    match parse_request(method, url) {
        Ok(request) => answer(oracle, &request),
        Err(reply) => reply,
    }
}

/// How many requests with `search=1` may wait for a search worker before
/// more are refused (503).
pub const SEARCH_QUEUE: usize = 32;

/// A running server: HTTP workers that answer at once, and search workers
/// for the requests that may search.
pub struct Server {
    http: Arc<tiny_http::Server>,
    oracle: Arc<Oracle>,
    threads: usize,
    search_threads: usize,
}

impl Server {
    /// Listens on `addr` (`127.0.0.1:0` picks a free port), with `threads`
    /// HTTP workers and one search worker.
    pub fn bind(addr: &str, oracle: Oracle, threads: usize) -> io::Result<Server> {
        let http = tiny_http::Server::http(addr)
            .map_err(|e| io::Error::new(io::ErrorKind::AddrNotAvailable, e.to_string()))?;
        Ok(Server {
            http: Arc::new(http),
            oracle: Arc::new(oracle),
            threads: threads.max(1),
            search_threads: 1,
        })
    }

    /// How many searches run at once (at least one).
    pub fn with_search_workers(mut self, n: usize) -> Server {
        self.search_threads = n.max(1);
        self
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.http.server_addr().to_ip()
    }

    /// Serves on worker threads until the process ends; returns the
    /// threads' handles.
    pub fn spawn(self) -> Vec<JoinHandle<()>> {
        let (queue, searches) = mpsc::sync_channel::<(tiny_http::Request, Request)>(SEARCH_QUEUE);
        let searches = Arc::new(Mutex::new(searches));
        let mut handles: Vec<JoinHandle<()>> = (0..self.search_threads)
            .map(|_| {
                let searches = Arc::clone(&searches);
                let oracle = Arc::clone(&self.oracle);
                std::thread::spawn(move || loop {
                    let next = searches.lock().unwrap_or_else(|e| e.into_inner()).recv();
                    let Ok((request, parsed)) = next else { return };
                    let reply = guarded(|| answer(&oracle, &parsed));
                    respond(request, reply);
                })
            })
            .collect();
        handles.extend((0..self.threads).map(|_| {
            let http = Arc::clone(&self.http);
            let oracle = Arc::clone(&self.oracle);
            let queue = queue.clone();
            std::thread::spawn(move || {
                while let Ok(request) = http.recv() {
                    let method = request.method().as_str().to_string();
                    let url = request.url().to_string();
                    let parsed = std::panic::catch_unwind(|| parse_request(&method, &url))
                        .unwrap_or_else(|_| Err(Reply::error(500, INTERNAL)));
                    match parsed {
                        Ok(r) if r.searches() => {
                            if let Err(mpsc::TrySendError::Full((request, _))) =
                                queue.try_send((request, r))
                            {
                                let busy = "the searches' queue is full: ask again later";
                                respond(request, Reply::error(503, busy));
                            }
                        }
                        Ok(r) => respond(request, guarded(|| answer(&oracle, &r))),
                        Err(reply) => respond(request, reply),
                    }
                }
            })
        }));
        handles
    }

    /// Serves until the process ends.
    pub fn run(self) {
        for t in self.spawn() {
            let _ = t.join();
        }
    }
}

const INTERNAL: &str = "internal error while answering this request";

/// The reply `f` makes, or a 500 if it panics.
fn guarded(f: impl FnOnce() -> Reply) -> Reply {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or_else(|_| Reply::error(500, INTERNAL))
}

fn respond(request: tiny_http::Request, reply: Reply) {
    let header = tiny_http::Header::from_bytes(&b"Content-Type"[..], reply.content_type.as_bytes())
        .expect("a valid header");
    let nocache = tiny_http::Header::from_bytes(&b"Cache-Control"[..], &b"no-store"[..])
        .expect("a valid header");
    let response = tiny_http::Response::from_string(reply.body)
        .with_status_code(reply.status)
        .with_header(header)
        .with_header(nocache);
    // A client that went away is no concern of the server's.
    let _ = request.respond(response);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::oracle::Budget;

    #[test]
    fn queries_decode() {
        let (path, params) = split_url("/api/probe?fen=4%2Fpppp%2FPPPP%2F4_w_-&board=4x4").unwrap();
        assert_eq!(path, "/api/probe");
        assert_eq!(params[0], ("fen".into(), "4/pppp/PPPP/4_w_-".into()));
        assert!(split_url("/x?fen=%zz").is_err());
        let oracle = Oracle::new(None, Budget::default());
        let r = handle(&oracle, "GET", "/api/probe?fen=pawngame&board=4x4&search=1");
        assert_eq!(r.status, 200, "{}", r.body);
        let j: Json = serde_json::from_str(&r.body).unwrap();
        assert_eq!(j["value"], "loss");
        assert_eq!(j["dtm"], 2);
        assert_eq!(
            handle(&oracle, "GET", "/api/probe?fen=pawngame&board=9x9").status,
            400
        );
        assert_eq!(
            handle(&oracle, "GET", "/api/probe?fen=pawngame&bogus=1").status,
            400
        );
        assert_eq!(handle(&oracle, "POST", "/").status, 405);
    }

    /// The reader alone: what each page asks for, and a refusal (with its
    /// status) for what it cannot be; a mark off the board is refused
    /// (it panicked on a flipped board: the fuzz regression
    /// arrow-off-a-flipped-board). Every request read is read the same
    /// from its own URL.
    #[test]
    fn requests_are_read_without_a_socket() {
        let pos = |t: &str, b: &str| parse_position(t, Some(b.parse().unwrap()), Rules::default());
        let p15 = pos("pawngame", "1x5").unwrap();
        assert_eq!(parse_request("GET", "/index.html"), Ok(Request::Page));
        assert_eq!(
            parse_request("HEAD", "/api/mainline?fen=pawngame&board=1x5"),
            Ok(Request::Mainline(p15))
        );
        let svg = parse_request("GET", "/board.svg?fen=pawngame&board=1x5&arrow=a2a4&flip=1");
        let options = SvgOptions {
            arrow: parse_uci_squares("a2a4"),
            flipped: true,
            ..SvgOptions::default()
        };
        assert_eq!(svg, Ok(Request::Board(p15, options)));
        for (url, status) in [
            ("/board.svg?fen=pawngame&board=1x5&arrow=b2b4&flip=1", 400),
            ("/board.svg?fen=pawngame&board=1x5&lastmove=a2a9", 400),
            ("/board.svg?fen=pawngame&board=1x5&size=8", 400),
            ("/api/probe?fen=pawngame&board=1x5&flip=1", 400),
            ("/api/probe?fen=%C3%28", 400),
            ("/api/probe", 400),
            ("/api/prob", 404),
        ] {
            let r = parse_request("GET", url).unwrap_err();
            assert_eq!(r.status, status, "{url}: {}", r.body);
            let j: Json = serde_json::from_str(&r.body).unwrap();
            assert!(j["error"].as_str().is_some_and(|e| !e.contains('\n')));
        }
        assert_eq!(parse_request("PUT", "/").unwrap_err().status, 405);
        let p = pos("4/pp2/4/PP2/4 w -", "4x5").unwrap();
        let p = Position::from_setup(
            &p.to_setup(),
            crate::rules::Variant::new(
                p.board(),
                Rules {
                    en_passant: false,
                    seventh_rank_wins: true,
                },
            ),
        )
        .unwrap();
        let moves = vec![p.legal_moves()[0]];
        for r in [
            Request::Page,
            Request::Probe(p),
            Request::Mainline(p),
            Request::ProbeSearch(p),
            Request::MainlineSearch(p),
            Request::Solved,
            Request::Game(p, moves),
            Request::Board(p, options),
        ] {
            assert_eq!(parse_request("GET", &request_url(&r)), Ok(r));
        }
    }
}
