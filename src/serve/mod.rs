//! The HTTP API and the explorer page (`peasant serve`), on `tiny_http`
//! with a few worker threads.
//!
//! - `GET /api/probe?fen=F`: the value, DTM and source of a position and
//!   every move's value, best first;
//! - `GET /api/mainline?fen=F`: a line of perfect play;
//! - `GET /board.svg?fen=F[&lastmove=UCI][&arrow=UCI][&flip=1]`;
//! - `GET /`: the explorer page.
//!
//! `F` is a position text (spaces may be written `_`) or a setup name with
//! `board=WxH`; `no_en_passant=1` and `seventh_rank_wins=1` choose the
//! rules. Errors are JSON `{"error": "..."}`: 400 for a bad position or
//! option, 404 when no answer can be had within the search budget. Every
//! request is answered in its own `catch_unwind`, so no query can bring
//! the server down.

use crate::explore::oracle::{Analysis, Oracle, OracleError};
use crate::explore::svg::{board_svg, parse_uci_squares, SvgOptions};
use crate::rules::{parse_position, Board, Position, Rules};
use crate::solve::Solution;
use serde_json::{json, Value as Json};
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;

/// The explorer page, served at `/`.
pub const EXPLORER_HTML: &str = include_str!("explorer.html");

/// The longest line `/api/mainline` gives (no game of the family is longer).
const MAX_LINE: usize = 400;

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

/// The JSON of an analysis (what `/api/probe` answers).
pub fn analysis_json(a: &Analysis) -> Json {
    let (value, dtm) = value_json(&a.value);
    let moves: Vec<Json> = a
        .moves
        .iter()
        .map(|(m, s)| {
            let (value, dtm) = value_json(s);
            json!({ "uci": m.uci(), "san": m.san(), "value": value, "dtm": dtm })
        })
        .collect();
    json!({
        "fen": a.position.to_string(),
        "board": a.position.board().to_string(),
        "turn": a.position.turn().name(),
        "value": value,
        "dtm": dtm,
        "source": a.source.name(),
        "outcome": a.position.outcome().map(|o| o.to_string()),
        "moves": moves,
    })
}

fn oracle_error(e: OracleError) -> Reply {
    match e {
        OracleError::NoAnswer(_) => Reply::error(404, e),
        OracleError::Table(_) | OracleError::Solve(_) => Reply::error(500, e),
    }
}

/// Answers one request (`method`, `url` with its query).
pub fn handle(oracle: &Oracle, method: &str, url: &str) -> Reply {
    if method != "GET" && method != "HEAD" {
        return Reply::error(405, format!("method {method} is not allowed: only GET"));
    }
    let (path, params) = match split_url(url) {
        Ok(x) => x,
        Err(e) => return Reply::error(400, e),
    };
    match path.as_str() {
        "/" | "/index.html" => Reply {
            status: 200,
            content_type: "text/html; charset=utf-8",
            body: EXPLORER_HTML.to_string(),
        },
        "/api/probe" => match parse_query(params, &[]) {
            Err(e) => Reply::error(400, e),
            Ok(q) => match oracle.analyse(&q.pos) {
                Ok(a) => Reply::json(200, analysis_json(&a)),
                Err(e) => oracle_error(e),
            },
        },
        "/api/mainline" => match parse_query(params, &[]) {
            Err(e) => Reply::error(400, e),
            Ok(q) => match oracle.mainline(&q.pos, MAX_LINE) {
                Ok((a, line)) => {
                    let (value, dtm) = value_json(&a.value);
                    let san: Vec<String> = line.iter().map(|m| m.san()).collect();
                    let uci: Vec<String> = line.iter().map(|m| m.uci()).collect();
                    Reply::json(
                        200,
                        json!({
                            "fen": a.position.to_string(),
                            "value": value,
                            "dtm": dtm,
                            "source": a.source.name(),
                            "line": san,
                            "line_uci": uci,
                        }),
                    )
                }
                Err(e) => oracle_error(e),
            },
        },
        "/board.svg" => match parse_query(params, &["lastmove", "arrow", "flip", "size"]) {
            Err(e) => Reply::error(400, e),
            Ok(q) => {
                let squares = |key: &str| -> Result<Option<_>, String> {
                    match q.get(key) {
                        None | Some("") => Ok(None),
                        Some(t) => parse_uci_squares(t).map(Some).ok_or_else(|| {
                            format!("option {key}={t}: expected a move such as e2e4")
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
                })();
                match options {
                    Ok(o) => Reply {
                        status: 200,
                        content_type: "image/svg+xml",
                        body: board_svg(&q.pos, &o),
                    },
                    Err(e) => Reply::error(400, e),
                }
            }
        },
        _ => Reply::error(404, format!("no such page: {path}")),
    }
}

/// A running server.
pub struct Server {
    http: Arc<tiny_http::Server>,
    oracle: Arc<Oracle>,
    threads: usize,
}

impl Server {
    /// Listens on `addr` (`127.0.0.1:0` picks a free port).
    pub fn bind(addr: &str, oracle: Oracle, threads: usize) -> io::Result<Server> {
        let http = tiny_http::Server::http(addr)
            .map_err(|e| io::Error::new(io::ErrorKind::AddrNotAvailable, e.to_string()))?;
        Ok(Server {
            http: Arc::new(http),
            oracle: Arc::new(oracle),
            threads: threads.max(1),
        })
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.http.server_addr().to_ip()
    }

    /// Serves on worker threads until the process ends; returns the
    /// threads' handles.
    pub fn spawn(self) -> Vec<JoinHandle<()>> {
        (0..self.threads)
            .map(|_| {
                let http = Arc::clone(&self.http);
                let oracle = Arc::clone(&self.oracle);
                std::thread::spawn(move || {
                    while let Ok(request) = http.recv() {
                        serve_one(&oracle, request);
                    }
                })
            })
            .collect()
    }

    /// Serves until the process ends.
    pub fn run(self) {
        for t in self.spawn() {
            let _ = t.join();
        }
    }
}

fn serve_one(oracle: &Oracle, request: tiny_http::Request) {
    let method = request.method().as_str().to_string();
    let url = request.url().to_string();
    let reply = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        handle(oracle, &method, &url)
    }))
    .unwrap_or_else(|_| Reply::error(500, "internal error while answering this request"));
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
        let r = handle(&oracle, "GET", "/api/probe?fen=pawngame&board=4x4");
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
}
