//! The durable proof log: one text file per proof directory
//! (`DIR/proof.log`), append-only, one checksummed line per finished job.
//!
//! ```text
//! peasant-proof-log  1  8x8                                          <crc>
//! root  8x8  8/pppppppp/8/8/1P6/8/P1PPPPPP/8 b -  all-moves            <crc>
//! job   8x8  <canonical position>  wins  yes  1234  0.012  e5  17  3   <crc>
//! ```
//!
//! Fields are separated by tabs. A line's last field is the CRC-32 (8 hex
//! digits) of everything before its last tab. The header names the format
//! version and the game (board, then `-noep` without en passant and `-srw`
//! with the seventh-rank-wins rule); every line names the game too, so a
//! line pasted from another game's log is recognised as foreign. A job line
//! holds the canonical position (position text), the question (`wins`,
//! `avoids-loss`), the answer (`yes`, `no`, or `open` when the node budget
//! ran out: the position was then expanded), the nodes and seconds the job
//! took, a best move (in the canonical position, `-` for none), the job's
//! number and the number of the job whose `open` answer made this job's
//! position part of the tree (0: none), for the scaling simulator.
//!
//! A line is written with one `write` of the whole line, so a killed process
//! leaves either the whole line or a torn last line, and the file is synced
//! to disk at most [`SYNC_EVERY`] apart (and at the end), so a machine crash
//! loses at most that much. A torn, damaged or foreign line is reported and
//! ignored, never believed. Two logs of the same game merge by plain
//! concatenation (header lines may repeat) or by `peasant prove --merge`.

use crate::rules::{canonical, position_key, Board, Position, Rules, Variant};
use crate::solve::Question;
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use thiserror::Error;

/// The format version written in the header.
pub const LOG_VERSION: u32 = 1;
/// The name of the log file in a proof directory.
pub const LOG_FILE: &str = "proof.log";
/// The longest time between two syncs of the log to disk while appending.
pub const SYNC_EVERY: Duration = Duration::from_secs(1);
const MAGIC: &str = "peasant-proof-log";

/// Why a log could not be used.
#[derive(Debug, Error)]
pub enum LogError {
    #[error("{path}: {source}")]
    /// The log could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    #[error("{0}: no proof log here (no {LOG_FILE} with a header line)")]
    /// The directory holds no proof log.
    Missing(PathBuf),
    #[error("{path} holds a proof of the game {found}, not of {wanted}")]
    /// The log is of another game (board or rules).
    OtherGame {
        /// The log file.
        path: PathBuf,
        /// The game the log is of.
        found: String,
        /// The game asked for.
        wanted: String,
    },
}

impl LogError {
    /// Whether the user's input is at fault (another game asked of a
    /// directory, no log where one was named) rather than the data.
    pub fn is_input(&self) -> bool {
        matches!(self, LogError::Missing(_) | LogError::OtherGame { .. })
    }
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> LogError + '_ {
    move |source| LogError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The game's name in the log: `8x8`, `6x6-noep`, `5x5-srw`, ...
pub fn variant_tag(v: Variant) -> String {
    let mut s = format!("{}x{}", v.board.width(), v.board.height());
    if !v.rules.en_passant {
        s.push_str("-noep");
    }
    if v.rules.seventh_rank_wins {
        s.push_str("-srw");
    }
    s
}

/// The inverse of [`variant_tag`].
pub fn parse_variant_tag(tag: &str) -> Option<Variant> {
    let mut parts = tag.split('-');
    let board: Board = parts.next()?.parse().ok()?;
    let mut rules = Rules {
        en_passant: true,
        seventh_rank_wins: false,
    };
    let mut last = 0;
    for p in parts {
        let order = match p {
            "noep" => 1,
            "srw" => 2,
            _ => return None,
        };
        if order <= last {
            return None;
        }
        last = order;
        match p {
            "noep" => rules.en_passant = false,
            _ => rules.seventh_rank_wins = true,
        }
    }
    Some(Variant::new(board, rules))
}

/// The name of a question in the log.
pub fn question_text(q: Question) -> &'static str {
    match q {
        Question::Wins => "wins",
        Question::AvoidsLoss => "avoids-loss",
    }
}

fn parse_question(s: &str) -> Option<Question> {
    match s {
        "wins" => Some(Question::Wins),
        "avoids-loss" => Some(Question::AvoidsLoss),
        _ => None,
    }
}

/// What a job found.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Answer {
    /// The answer is yes.
    Yes,
    /// The answer is no.
    No,
    /// The node budget ran out.
    Open,
}

impl Answer {
    /// The answer as the log writes it: `yes`, `no` or `open`.
    pub fn text(self) -> &'static str {
        match self {
            Answer::Yes => "yes",
            Answer::No => "no",
            Answer::Open => "open",
        }
    }

    /// Yes for `true`, no for `false`.
    pub fn of_bool(b: bool) -> Answer {
        if b {
            Answer::Yes
        } else {
            Answer::No
        }
    }

    /// Yes as `true`, no as `false`; `None` for open.
    pub fn as_bool(self) -> Option<bool> {
        match self {
            Answer::Yes => Some(true),
            Answer::No => Some(false),
            Answer::Open => None,
        }
    }
}

/// One finished job, as logged.
#[derive(Clone, Debug, PartialEq)]
pub struct JobRecord {
    /// The canonical position asked about.
    pub pos: Position,
    /// The question asked.
    pub question: Question,
    /// What the job found.
    pub answer: Answer,
    /// Nodes the job searched.
    pub nodes: u64,
    /// Seconds the job took.
    pub seconds: f64,
    /// A best move of `pos` in standard notation: for a `yes`, a move that
    /// achieves it.
    pub best: Option<String>,
    /// The job's number (unique within a log).
    pub id: u64,
    /// The job whose `open` answer put `pos` into the tree (0: none).
    pub dep: u64,
}

impl JobRecord {
    /// The key of the record's position: [`position_key`] of its canonical form.
    pub fn key(&self) -> u128 {
        position_key(&canonical(&self.pos))
    }
}

/// The start of one `prove` run: its root and whether every first move's
/// value was asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct RootRecord {
    /// The position whose value the run set out to prove.
    pub pos: Position,
    /// Whether the value of every first move was asked for as well.
    pub all_moves: bool,
}

/// A line that was not believed.
#[derive(Clone, Debug)]
pub struct Damage {
    /// The log file.
    pub file: PathBuf,
    /// The line number (from 1).
    pub line: usize,
    /// What is wrong with it.
    pub why: String,
    /// The file's last line, cut short (a run killed while writing it).
    pub torn: bool,
}

/// Everything valid in a proof directory's log (or several logs).
#[derive(Clone, Debug)]
pub struct LogContents {
    /// The game the log is of.
    pub variant: Variant,
    /// Every finished job, in log order.
    pub jobs: Vec<JobRecord>,
    /// Every run's root.
    pub roots: Vec<RootRecord>,
    /// The lines that were not believed.
    pub damaged: Vec<Damage>,
}

impl LogContents {
    /// The biggest job number in the log (0 for none).
    pub fn max_id(&self) -> u64 {
        self.jobs.iter().map(|j| j.id).max().unwrap_or(0)
    }

    /// Prints how many lines were damaged and the first few on stderr
    /// (nothing if none).
    pub fn report_damage(&self) {
        if self.damaged.is_empty() {
            return;
        }
        eprintln!(
            "peasant: {} damaged line(s) in the proof log ignored:",
            self.damaged.len()
        );
        for d in self.damaged.iter().take(5) {
            eprintln!("  {}:{}: {}", d.file.display(), d.line, d.why);
        }
    }

    /// Pairs (key, question) answered differently by two lines: proof that
    /// some line is wrong.
    pub fn conflicts(&self) -> Vec<(u128, Question)> {
        let mut seen: HashMap<(u128, Question), bool> = HashMap::new();
        let mut out = Vec::new();
        for j in &self.jobs {
            if let Some(b) = j.answer.as_bool() {
                let k = (j.key(), j.question);
                match seen.get(&k) {
                    Some(&old) if old != b => out.push(k),
                    Some(_) => {}
                    None => {
                        seen.insert(k, b);
                    }
                }
            }
        }
        out
    }
}

fn with_crc(body: &str) -> String {
    format!("{body}\t{:08x}\n", crc32fast::hash(body.as_bytes()))
}

fn header_line(v: Variant) -> String {
    with_crc(&format!("{MAGIC}\t{LOG_VERSION}\t{}", variant_tag(v)))
}

/// The line (with its newline) that logs `job` in a log of `variant`.
pub fn job_line(variant: Variant, job: &JobRecord) -> String {
    with_crc(&format!(
        "job\t{}\t{}\t{}\t{}\t{}\t{:.3}\t{}\t{}\t{}",
        variant_tag(variant),
        job.pos,
        question_text(job.question),
        job.answer.text(),
        job.nodes,
        job.seconds,
        job.best.as_deref().unwrap_or("-"),
        job.id,
        job.dep
    ))
}

fn root_line(variant: Variant, root: &RootRecord) -> String {
    with_crc(&format!(
        "root\t{}\t{}\t{}",
        variant_tag(variant),
        root.pos,
        if root.all_moves { "all-moves" } else { "value" }
    ))
}

enum Line {
    Header(Variant),
    Job(JobRecord),
    Root(RootRecord),
}

/// Reads one line (without its newline); `variant` is the log's game once known.
fn parse_line(line: &str, variant: Option<Variant>) -> Result<Line, String> {
    let (body, crc) = line
        .rsplit_once('\t')
        .ok_or_else(|| "no checksum (a torn or foreign line)".to_string())?;
    let crc = u32::from_str_radix(crc, 16).map_err(|_| "no checksum".to_string())?;
    if crc != crc32fast::hash(body.as_bytes()) || line.len() - body.len() != 9 {
        return Err("checksum mismatch (a damaged line)".into());
    }
    let f: Vec<&str> = body.split('\t').collect();
    let game = |tag: &str| -> Result<Variant, String> {
        let v = parse_variant_tag(tag).ok_or_else(|| format!("unknown game '{tag}'"))?;
        match variant {
            Some(w) if w != v => Err(format!(
                "a line of the game {tag}, not {} (a foreign line)",
                variant_tag(w)
            )),
            _ => Ok(v),
        }
    };
    let position = |text: &str, v: Variant| -> Result<Position, String> {
        let setup = crate::rules::notation::parse(text).map_err(|e| e.to_string())?;
        Position::from_setup(&setup, v).map_err(|e| e.to_string())
    };
    match f[0] {
        MAGIC if f.len() == 3 => {
            if f[1] != LOG_VERSION.to_string() {
                return Err(format!("format version {} (this program reads 1)", f[1]));
            }
            Ok(Line::Header(game(f[2])?))
        }
        "root" if f.len() == 4 => {
            let v = game(f[1])?;
            let all_moves = match f[3] {
                "all-moves" => true,
                "value" => false,
                _ => return Err("bad root kind".into()),
            };
            Ok(Line::Root(RootRecord {
                pos: position(f[2], v)?,
                all_moves,
            }))
        }
        "job" if f.len() == 10 => {
            let v = game(f[1])?;
            let pos = position(f[2], v)?;
            let question = parse_question(f[3]).ok_or("bad question")?;
            let answer = match f[4] {
                "yes" => Answer::Yes,
                "no" => Answer::No,
                "open" => Answer::Open,
                _ => return Err("bad answer".into()),
            };
            let num = |s: &str| s.parse::<u64>().map_err(|_| format!("bad number '{s}'"));
            let nodes = num(f[5])?;
            let seconds: f64 = f[6].parse().map_err(|_| "bad seconds".to_string())?;
            let best = match f[7] {
                "-" => None,
                m => {
                    pos.parse_move(m).map_err(|e| e.to_string())?;
                    Some(m.to_string())
                }
            };
            if pos.is_game_over() {
                return Err("a job on a finished game".into());
            }
            Ok(Line::Job(JobRecord {
                pos,
                question,
                answer,
                nodes,
                seconds,
                best,
                id: num(f[8])?,
                dep: num(f[9])?,
            }))
        }
        _ => Err("not a proof log line".into()),
    }
}

/// The log of the proof directory `dir` for `variant`, or an empty one if
/// the directory holds none yet (a proof about to start).
pub fn read_dir_log(dir: &Path, variant: Variant) -> Result<LogContents, LogError> {
    if dir.join(LOG_FILE).exists() {
        read_logs(&[dir.to_path_buf()], Some(variant))
    } else {
        Ok(LogContents {
            variant,
            jobs: vec![],
            roots: vec![],
            damaged: vec![],
        })
    }
}

/// Reads the logs at `paths` (a proof directory or a log file each):
/// every valid line, and every damaged one named. `variant`: the game
/// expected (`None`: the first header's).
pub fn read_logs(paths: &[PathBuf], variant: Option<Variant>) -> Result<LogContents, LogError> {
    let mut variant = variant;
    let mut jobs = Vec::new();
    let mut roots = Vec::new();
    let mut damaged = Vec::new();
    let mut any_header = false;
    for path in paths {
        let file = if path.is_dir() {
            path.join(LOG_FILE)
        } else {
            path.clone()
        };
        let bytes = match std::fs::read(&file) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(LogError::Missing(path.clone()))
            }
            Err(e) => return Err(io_error(&file)(e)),
        };
        let text = String::from_utf8_lossy(&bytes);
        let torn = !text.is_empty() && !text.ends_with('\n');
        let lines: Vec<&str> = text.split('\n').collect();
        let n = lines.len() - 1 + torn as usize;
        for (i, line) in lines.iter().take(n).enumerate() {
            let damage = |why: String| Damage {
                file: file.clone(),
                line: i + 1,
                why,
                torn: false,
            };
            if torn && i + 1 == n {
                damaged.push(Damage {
                    torn: true,
                    ..damage("a torn last line (no newline)".into())
                });
                continue;
            }
            match parse_line(line, variant) {
                Ok(Line::Header(v)) => {
                    if let Some(w) = variant {
                        if w != v {
                            return Err(LogError::OtherGame {
                                path: file.clone(),
                                found: variant_tag(v),
                                wanted: variant_tag(w),
                            });
                        }
                    }
                    variant = Some(v);
                    any_header = true;
                }
                Ok(_) if !any_header => {
                    damaged.push(damage("a line before the header".into()));
                }
                Ok(Line::Job(j)) => jobs.push(j),
                Ok(Line::Root(r)) => roots.push(r),
                Err(why) => damaged.push(damage(why)),
            }
        }
        if !any_header {
            return Err(LogError::Missing(path.clone()));
        }
    }
    Ok(LogContents {
        variant: variant.expect("a header was read"),
        jobs,
        roots,
        damaged,
    })
}

/// Appends lines to a proof directory's log.
pub struct LogWriter {
    file: File,
    path: PathBuf,
    variant: Variant,
    last_sync: Instant,
    dirty: bool,
    /// Sync after every line instead of at most [`SYNC_EVERY`] apart.
    pub sync_each_line: bool,
}

impl LogWriter {
    /// Opens (creating if needed) the log of `dir` for the game `variant`.
    /// An existing log must be of the same game.
    pub fn open(dir: &Path, variant: Variant) -> Result<LogWriter, LogError> {
        std::fs::create_dir_all(dir).map_err(io_error(dir))?;
        let path = dir.join(LOG_FILE);
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)
            .map_err(io_error(&path))?;
        let len = file.metadata().map_err(io_error(&path))?.len();
        if len == 0 {
            file.write_all(header_line(variant).as_bytes())
                .map_err(io_error(&path))?;
        } else {
            // The header must name this game.
            let mut first = vec![0u8; len.min(256) as usize];
            file.seek(SeekFrom::Start(0)).map_err(io_error(&path))?;
            file.read_exact(&mut first).map_err(io_error(&path))?;
            let first = String::from_utf8_lossy(&first);
            let first = first.split('\n').next().unwrap_or("");
            match parse_line(first, None) {
                Ok(Line::Header(v)) if v == variant => {}
                Ok(Line::Header(v)) => {
                    return Err(LogError::OtherGame {
                        path,
                        found: variant_tag(v),
                        wanted: variant_tag(variant),
                    })
                }
                _ => return Err(LogError::Missing(dir.to_path_buf())),
            }
            // A torn last line is closed so the next line starts clean.
            let mut last = [0u8; 1];
            file.seek(SeekFrom::Start(len - 1))
                .map_err(io_error(&path))?;
            file.read_exact(&mut last).map_err(io_error(&path))?;
            if last[0] != b'\n' {
                file.write_all(b"\n").map_err(io_error(&path))?;
            }
        }
        file.sync_data().map_err(io_error(&path))?;
        Ok(LogWriter {
            file,
            path,
            variant,
            last_sync: Instant::now(),
            dirty: false,
            sync_each_line: false,
        })
    }

    /// The log file being appended to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn write_line(&mut self, line: &str) -> Result<(), LogError> {
        // One write of the whole line: a kill tears at most this line.
        self.file
            .write_all(line.as_bytes())
            .map_err(io_error(&self.path))?;
        self.dirty = true;
        if self.sync_each_line || self.last_sync.elapsed() >= SYNC_EVERY {
            self.sync()?;
        }
        Ok(())
    }

    /// Appends one finished job as a whole checksummed line.
    pub fn append_job(&mut self, job: &JobRecord) -> Result<(), LogError> {
        let line = job_line(self.variant, job);
        self.write_line(&line)
    }

    /// Appends the start of a run (its root) as a whole checksummed line.
    pub fn append_root(&mut self, root: &RootRecord) -> Result<(), LogError> {
        let line = root_line(self.variant, root);
        self.write_line(&line)
    }

    /// Puts everything written so far on the disk.
    pub fn sync(&mut self) -> Result<(), LogError> {
        if self.dirty {
            self.file.sync_data().map_err(io_error(&self.path))?;
            self.dirty = false;
        }
        self.last_sync = Instant::now();
        Ok(())
    }
}

impl Drop for LogWriter {
    fn drop(&mut self) {
        let _ = self.sync();
    }
}

/// What a merge did.
#[derive(Debug, Default)]
pub struct MergeReport {
    /// Jobs written to the merged log.
    pub jobs: usize,
    /// Roots written to the merged log.
    pub roots: usize,
    /// Jobs already there (the same position, question, answer and nodes),
    /// skipped.
    pub duplicates: usize,
    /// Questions answered both yes and no by the logs: none of their lines
    /// is written (reported).
    pub conflicts: usize,
    /// Damaged lines in the inputs, ignored.
    pub damaged: usize,
}

/// Merges the logs at `inputs` into the log of `out` (created if needed):
/// every valid line once (a job logged twice is kept once; jobs are
/// renumbered so numbers stay unique, and what they depend on follows).
/// Lines that contradict each other (one position and question answered
/// `yes` and `no`) are counted in the report and neither is kept. Damaged
/// lines are reported on stderr and left out.
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<MergeReport, LogError> {
    let first = read_logs(&inputs[..1], None)?;
    let variant = first.variant;
    let mut parts = vec![first];
    for p in &inputs[1..] {
        parts.push(read_logs(std::slice::from_ref(p), Some(variant))?);
    }
    let mut writer = LogWriter::open(out, variant)?;
    let existing = read_logs(&[out.to_path_buf()], Some(variant))?;
    let mut all = existing.clone();
    for p in &parts {
        all.jobs.extend(p.jobs.iter().cloned());
    }
    let conflicts: std::collections::HashSet<(u128, Question)> =
        all.conflicts().into_iter().collect();
    let mut report = MergeReport {
        conflicts: conflicts.len(),
        ..MergeReport::default()
    };
    let mut seen: std::collections::HashSet<(u128, Question, Answer, u64)> = existing
        .jobs
        .iter()
        .map(|j| (j.key(), j.question, j.answer, j.nodes))
        .collect();
    let mut next_id = existing.max_id();
    let mut roots = existing.roots.clone();
    for part in &parts {
        part.report_damage();
        report.damaged += part.damaged.len();
        let mut renumber: HashMap<u64, u64> = HashMap::new();
        for j in &part.jobs {
            let key = (j.key(), j.question);
            if conflicts.contains(&key) {
                continue;
            }
            if !seen.insert((key.0, key.1, j.answer, j.nodes)) {
                report.duplicates += 1;
                continue;
            }
            next_id += 1;
            renumber.insert(j.id, next_id);
            let mut r = j.clone();
            r.id = next_id;
            r.dep = renumber.get(&j.dep).copied().unwrap_or(0);
            writer.append_job(&r)?;
            report.jobs += 1;
        }
        for r in &part.roots {
            if !roots.contains(r) {
                writer.append_root(r)?;
                roots.push(r.clone());
                report.roots += 1;
            }
        }
    }
    writer.sync()?;
    Ok(report)
}
