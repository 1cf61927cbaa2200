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
//! ran out: the question was then continued with a bigger budget or its
//! position expanded, see [`crate::prove::manager`]), the nodes and
//! seconds the job took, a best move (in the canonical position, `-` for
//! none), the job's number and the number of the job whose `open` answer
//! made this job's position part of the tree (0: none), for the scaling
//! simulator. An `open` job line of no nodes is a split
//! ([`LineKind::Split`]; the manager writes it with no seconds either):
//! the position was expanded for idle workers while a job on it ran on
//! (that job has a line of its own when it ends).
//!
//! ```text
//! known 8x8  <canonical position>  avoids-loss  yes  18  17               <crc>
//! ```
//!
//! A `known` line is an answer no job was asked for: the worker of job 17
//! (the last field) had proved it on its way, a ply or two below job 17's
//! position, and the manager took it when the position became a node of the
//! tree ([`crate::prove::worker::harvest`]). Its number (18) is from the
//! jobs' sequence; it costs no nodes of its own (job 17's are counted).
//!
//! A line is written with one `write` of the whole line, so a killed process
//! leaves either the whole line or a torn last line, and the file is synced
//! to disk at most `SYNC_EVERY` (one second) apart (and at the end), so a machine crash
//! loses at most that much. A torn, damaged or foreign line is reported and
//! ignored, never believed. Two logs of the same game merge by plain
//! concatenation (header lines may repeat) or by `peasant prove --merge`.
//!
//! A run may last days, and its log is meant to be committed, so the
//! log's name may be given to another file under a running proof (`git
//! stash` or `git checkout` in the repository that holds it, a copy from a
//! backup, an editor's save). Lines appended to the file the run opened
//! would then vanish with the run. Before each line the writer checks that
//! the name still names its file ([`LogWriter::diverted`]): a file there
//! that holds exactly what the run wrote is taken up and appended to; any
//! other (or none) is left alone, and the run's log goes on, whole, in a
//! proof directory of its own, `DIR/kept-SECONDS/`.

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
/// The most seconds a logged job may claim (about 30 years): more is a
/// damaged line, not a job.
pub const MAX_JOB_SECONDS: f64 = 1e9;

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
    #[error("{0}: not a regular file (a proof log is one)")]
    /// The log's name is taken by a directory or a device.
    NotAFile(PathBuf),
    #[error("{path}: cannot write a proof log there: {source}")]
    /// The proof directory cannot be made, or no log can be made in it.
    Unwritable {
        /// The directory or log file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    #[error("{path}: writing the proof log failed ({source}); the run stops, every line before is whole")]
    /// A line could not be appended (a full disk): the run must stop.
    Append {
        /// The log file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

impl LogError {
    /// Whether the user's input is at fault (another game asked of a
    /// directory, no log where one was named, a log name that is not a
    /// file, a directory that cannot be made or written) rather than the
    /// data.
    pub fn is_input(&self) -> bool {
        matches!(
            self,
            LogError::Missing(_)
                | LogError::OtherGame { .. }
                | LogError::NotAFile(_)
                | LogError::Unwritable { .. }
        )
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

    /// The answer [`Answer::text`] wrote; `None` for anything else.
    pub fn from_text(text: &str) -> Option<Answer> {
        [Answer::Yes, Answer::No, Answer::Open]
            .into_iter()
            .find(|a| a.text() == text)
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

/// What a line about a position says: a job's answer, a split or a known
/// answer. A split and a job are both `job` lines in the file: a job line
/// that is `open` after no nodes reads as a split (so a job stopped before
/// its first node reads back as one, as it always has).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineKind {
    /// A job's answer: `yes`, `no`, or `open` after the nodes it searched.
    Job,
    /// A split: `open`, no nodes; the position was expanded for idle
    /// workers while a job on it ran on.
    Split,
    /// A `known` line: an answer proved by job `dep`'s worker on its way,
    /// not by a job of its own (no nodes, no seconds, no best move).
    Known,
}

/// One line about a position (a job, a split or a known answer), as
/// logged.
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
    /// The job whose `open` answer (or split's line) put `pos` into the
    /// tree (0: none); for a `known` answer, the job whose worker knew it.
    pub dep: u64,
    /// What the line is.
    pub kind: LineKind,
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

    /// How many lines were damaged and the first few, one per line, for
    /// people (`None` if none).
    pub fn damage_report(&self) -> Option<String> {
        if self.damaged.is_empty() {
            return None;
        }
        let mut text = format!(
            "peasant: {} damaged line(s) in the proof log ignored:",
            self.damaged.len()
        );
        for d in self.damaged.iter().take(5) {
            text.push_str(&format!("\n  {}:{}: {}", d.file.display(), d.line, d.why));
        }
        Some(text)
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

/// The header line (with its newline) of a log of `v`.
pub fn header_line(v: Variant) -> String {
    with_crc(&format!("{MAGIC}\t{LOG_VERSION}\t{}", variant_tag(v)))
}

/// The line (with its newline) that logs `job` in a log of `variant`.
pub fn job_line(variant: Variant, job: &JobRecord) -> String {
    if job.kind == LineKind::Known {
        return with_crc(&format!(
            "known\t{}\t{}\t{}\t{}\t{}\t{}",
            variant_tag(variant),
            job.pos,
            question_text(job.question),
            job.answer.text(),
            job.id,
            job.dep
        ));
    }
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

/// The line (with its newline) that logs the start of a run.
pub fn root_line(variant: Variant, root: &RootRecord) -> String {
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
    if crc != crc32fast::hash(body.as_bytes()) {
        return Err("checksum mismatch (a damaged line)".into());
    }
    let parsed = parse_body(body, variant)?;
    // A line is believed only in the form this program writes: the
    // checksum in eight lower-case digits, numbers without leading zeros
    // or signs, the position in its own text, ... (a line with a good
    // checksum but another spelling was not written by `peasant prove`).
    let again = match &parsed {
        Line::Header(v) => header_line(*v),
        Line::Job(j) => job_line(j.pos.variant(), j),
        Line::Root(r) => root_line(r.pos.variant(), r),
    };
    if again.strip_suffix('\n') != Some(line) {
        return Err("a checksummed line not in the form peasant writes".into());
    }
    Ok(parsed)
}

/// Reads the fields of a line whose checksum is good.
fn parse_body(body: &str, variant: Option<Variant>) -> Result<Line, String> {
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
            let answer = Answer::from_text(f[4]).ok_or("bad answer")?;
            let num = |s: &str| s.parse::<u64>().map_err(|_| format!("bad number '{s}'"));
            let nodes = num(f[5])?;
            let seconds: f64 = f[6]
                .parse()
                .ok()
                .filter(|s: &f64| (0.0..=MAX_JOB_SECONDS).contains(s))
                .ok_or_else(|| format!("bad seconds '{}'", f[6]))?;
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
            let kind = if answer == Answer::Open && nodes == 0 {
                LineKind::Split
            } else {
                LineKind::Job
            };
            Ok(Line::Job(JobRecord {
                pos,
                question,
                answer,
                nodes,
                seconds,
                best,
                id: num(f[8])?,
                dep: num(f[9])?,
                kind,
            }))
        }
        "known" if f.len() == 7 => {
            let v = game(f[1])?;
            let pos = position(f[2], v)?;
            let question = parse_question(f[3]).ok_or("bad question")?;
            let answer = match Answer::from_text(f[4]) {
                Some(a) if a != Answer::Open => a,
                _ => return Err("bad answer".into()),
            };
            if pos.is_game_over() {
                return Err("an answer about a finished game".into());
            }
            let num = |s: &str| s.parse::<u64>().map_err(|_| format!("bad number '{s}'"));
            Ok(Line::Job(JobRecord {
                pos,
                question,
                answer,
                nodes: 0,
                seconds: 0.0,
                best: None,
                id: num(f[5])?,
                dep: num(f[6])?,
                kind: LineKind::Known,
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

/// What reading a log so far has found (a log may be read from several
/// files: the first header fixes the game).
struct Reading {
    variant: Option<Variant>,
    jobs: Vec<JobRecord>,
    roots: Vec<RootRecord>,
    damaged: Vec<Damage>,
    any_header: bool,
}

impl Reading {
    fn new(variant: Option<Variant>) -> Reading {
        Reading {
            variant,
            jobs: Vec::new(),
            roots: Vec::new(),
            damaged: Vec::new(),
            any_header: false,
        }
    }

    /// Reads the bytes of one log file (named `file` in what it reports).
    fn read(&mut self, file: &Path, bytes: &[u8]) -> Result<(), LogError> {
        let text = String::from_utf8_lossy(bytes);
        let torn = !text.is_empty() && !text.ends_with('\n');
        let lines: Vec<&str> = text.split('\n').collect();
        let n = lines.len() - 1 + torn as usize;
        for (i, line) in lines.iter().take(n).enumerate() {
            let damage = |why: String| Damage {
                file: file.to_path_buf(),
                line: i + 1,
                why,
                torn: false,
            };
            if torn && i + 1 == n {
                self.damaged.push(Damage {
                    torn: true,
                    ..damage("a torn last line (no newline)".into())
                });
                continue;
            }
            match parse_line(line, self.variant) {
                Ok(Line::Header(v)) => {
                    if let Some(w) = self.variant {
                        if w != v {
                            return Err(LogError::OtherGame {
                                path: file.to_path_buf(),
                                found: variant_tag(v),
                                wanted: variant_tag(w),
                            });
                        }
                    }
                    self.variant = Some(v);
                    self.any_header = true;
                }
                Ok(_) if !self.any_header => {
                    self.damaged.push(damage("a line before the header".into()));
                }
                Ok(Line::Job(j)) => self.jobs.push(j),
                Ok(Line::Root(r)) => self.roots.push(r),
                Err(why) => self.damaged.push(damage(why)),
            }
        }
        Ok(())
    }

    fn contents(self) -> LogContents {
        LogContents {
            variant: self.variant.expect("a header was read"),
            jobs: self.jobs,
            roots: self.roots,
            damaged: self.damaged,
        }
    }
}

/// Reads the bytes of one log (named `file` in errors and damage
/// reports) as [`read_logs`] reads a file: every valid line, and every
/// damaged one named. [`LogError::Missing`] if no header line is read.
pub fn parse_log(
    file: &Path,
    bytes: &[u8],
    variant: Option<Variant>,
) -> Result<LogContents, LogError> {
    let mut reading = Reading::new(variant);
    reading.read(file, bytes)?;
    if !reading.any_header {
        return Err(LogError::Missing(file.to_path_buf()));
    }
    Ok(reading.contents())
}

/// Reads the logs at `paths` (a proof directory or a log file each):
/// every valid line, and every damaged one named. `variant`: the game
/// expected (`None`: the first header's).
pub fn read_logs(paths: &[PathBuf], variant: Option<Variant>) -> Result<LogContents, LogError> {
    let mut reading = Reading::new(variant);
    for path in paths {
        let file = if path.is_dir() {
            path.join(LOG_FILE)
        } else {
            path.clone()
        };
        match std::fs::metadata(&file) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(LogError::Missing(path.clone()))
            }
            Err(e) => return Err(io_error(&file)(e)),
            // A device (a link to /dev/zero would never end) or a directory.
            Ok(m) if !m.is_file() => return Err(LogError::NotAFile(file)),
            Ok(_) => {}
        }
        let bytes = std::fs::read(&file).map_err(io_error(&file))?;
        reading.read(&file, &bytes)?;
        if !reading.any_header {
            return Err(LogError::Missing(path.clone()));
        }
    }
    Ok(reading.contents())
}

/// Which file a file is, to notice a name given to another: its device
/// and inode where the system has them, else nothing to compare (the
/// writer then trusts the name).
type FileId = (u64, u64);

#[cfg(unix)]
fn file_id(m: &std::fs::Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    Some((m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(_: &std::fs::Metadata) -> Option<FileId> {
    None
}

/// Writes `bytes`, a log, whole into a new proof directory beside the
/// log's, `DIR/kept-SECONDS` (with `-2`, `-3`, ... if taken): to a
/// temporary name, synced, then renamed, so that no half-written log is
/// ever there. Returns the directory and the log opened for appending.
fn keep_copy(dir: &Path, bytes: &[u8]) -> Result<(PathBuf, File), LogError> {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut n = 1;
    let kept = loop {
        let name = match n {
            1 => format!("kept-{seconds}"),
            _ => format!("kept-{seconds}-{n}"),
        };
        let kept = dir.join(name);
        match std::fs::create_dir(&kept) {
            Ok(()) => break kept,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
            Err(e) => return Err(unwritable(&kept)(e)),
        }
    };
    let path = kept.join(LOG_FILE);
    let part = kept.join(format!("{LOG_FILE}.part"));
    let mut file = File::create(&part).map_err(unwritable(&part))?;
    file.write_all(bytes)
        .and_then(|_| file.sync_all())
        .map_err(append_error(&part))?;
    drop(file);
    std::fs::rename(&part, &path).map_err(append_error(&path))?;
    let file = OpenOptions::new()
        .read(true)
        .append(true)
        .open(&path)
        .map_err(unwritable(&path))?;
    Ok((kept, file))
}

fn unwritable(path: &Path) -> impl FnOnce(std::io::Error) -> LogError + '_ {
    move |source| LogError::Unwritable {
        path: path.to_path_buf(),
        source,
    }
}

fn append_error(path: &Path) -> impl FnOnce(std::io::Error) -> LogError + '_ {
    move |source| LogError::Append {
        path: path.to_path_buf(),
        source,
    }
}

/// Appends `bytes` to `file`, whose length is `len`, in one write; if it
/// fails (a full disk can take part of a line), the file is cut back to
/// `len` so that no part of a line stays behind to be read later.
fn append_whole(file: &mut File, path: &Path, len: u64, bytes: &[u8]) -> Result<(), LogError> {
    file.write_all(bytes).map_err(|e| {
        let _ = file.set_len(len);
        append_error(path)(e)
    })
}

/// Appends lines to a proof directory's log.
pub struct LogWriter {
    file: File,
    path: PathBuf,
    /// Which file `path` named when this writer opened it (or took it up),
    /// where the system tells ([`file_id`]).
    id: Option<FileId>,
    /// The proof directory the log went on in after its name was given to
    /// another file ([`LogWriter::diverted`]).
    diverted: Option<PathBuf>,
    variant: Variant,
    last_sync: Instant,
    dirty: bool,
    /// Sync after every line instead of at most `SYNC_EVERY` (one second) apart.
    pub sync_each_line: bool,
}

impl LogWriter {
    /// Opens (creating if needed) the log of `dir` for the game `variant`.
    /// An existing log must be of the same game.
    pub fn open(dir: &Path, variant: Variant) -> Result<LogWriter, LogError> {
        std::fs::create_dir_all(dir).map_err(unwritable(dir))?;
        let path = dir.join(LOG_FILE);
        if std::fs::metadata(&path).is_ok_and(|m| !m.is_file()) {
            return Err(LogError::NotAFile(path));
        }
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)
            .map_err(unwritable(&path))?;
        let len = file.metadata().map_err(io_error(&path))?.len();
        if len == 0 {
            let header = header_line(variant);
            append_whole(&mut file, &path, 0, header.as_bytes())?;
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
                append_whole(&mut file, &path, len, b"\n")?;
            }
        }
        file.sync_data().map_err(append_error(&path))?;
        let id = file_id(&file.metadata().map_err(io_error(&path))?);
        Ok(LogWriter {
            file,
            path,
            id,
            diverted: None,
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

    /// The proof directory this writer's lines go to since the log's name
    /// was given to another file, or removed, under it: it holds the log
    /// as the run had it and every line after (`None`: the log is where
    /// it was opened). A run that sees it ends ([`crate::prove::RunEnd`]).
    pub fn diverted(&self) -> Option<&Path> {
        self.diverted.as_deref()
    }

    /// Makes sure the log's name still names the file this writer appends
    /// to (see the module's text). If another file has it that holds
    /// exactly what this writer's file holds (a copy put back), the writer
    /// takes that file up; otherwise (other lines, or no file) it leaves
    /// the name alone and goes on in `DIR/kept-SECONDS/proof.log`, a copy
    /// of its file.
    fn follow_name(&mut self) -> Result<(), LogError> {
        let Some(id) = self.id else {
            return Ok(());
        };
        if self.diverted.is_some() {
            return Ok(());
        }
        let named = std::fs::metadata(&self.path).ok();
        if named.as_ref().and_then(file_id) == Some(id) {
            return Ok(());
        }
        let mut ours = Vec::new();
        self.file
            .seek(SeekFrom::Start(0))
            .and_then(|_| self.file.read_to_end(&mut ours))
            .map_err(io_error(&self.path))?;
        if named.is_some_and(|m| m.is_file() && m.len() == ours.len() as u64) {
            let theirs = std::fs::read(&self.path).map_err(io_error(&self.path))?;
            if theirs == ours {
                let file = OpenOptions::new()
                    .read(true)
                    .append(true)
                    .open(&self.path)
                    .map_err(io_error(&self.path))?;
                self.id = file_id(&file.metadata().map_err(io_error(&self.path))?);
                self.file = file;
                return Ok(());
            }
        }
        let dir = self.path.parent().unwrap_or(Path::new("."));
        let (kept, file) = keep_copy(dir, &ours)?;
        self.id = file_id(&file.metadata().map_err(io_error(&kept))?);
        self.file = file;
        self.path = kept.join(LOG_FILE);
        self.diverted = Some(kept);
        Ok(())
    }

    fn write_line(&mut self, line: &str) -> Result<(), LogError> {
        self.follow_name()?;
        // One write of the whole line: a kill tears at most this line.
        let len = self
            .file
            .metadata()
            .map_err(append_error(&self.path))?
            .len();
        append_whole(&mut self.file, &self.path, len, line.as_bytes())?;
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
            self.file.sync_data().map_err(append_error(&self.path))?;
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
    /// Each damaged input's [`LogContents::damage_report`], in input order.
    pub damage: Vec<String>,
}

/// Merges the logs at `inputs` into the log of `out` (created if needed):
/// every valid line once (a job logged twice is kept once; jobs are
/// renumbered so numbers stay unique, and what they depend on follows).
/// Lines that contradict each other (one position and question answered
/// `yes` and `no`) are counted in the report and neither is kept. Damaged
/// lines are left out and described in the report.
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
    // Each line's number in the merged log, by what makes lines duplicates:
    // a skipped duplicate's dependants name the line that was kept (a
    // split's `open` line of no nodes repeats whenever a pair is split again).
    let mut seen: HashMap<(u128, Question, Answer, u64), u64> = existing
        .jobs
        .iter()
        .map(|j| ((j.key(), j.question, j.answer, j.nodes), j.id))
        .collect();
    let mut next_id = existing.max_id();
    let mut roots = existing.roots.clone();
    for part in &parts {
        report.damage.extend(part.damage_report());
        report.damaged += part.damaged.len();
        let mut renumber: HashMap<u64, u64> = HashMap::new();
        for j in &part.jobs {
            let key = (j.key(), j.question);
            if conflicts.contains(&key) {
                continue;
            }
            if let Some(&kept) = seen.get(&(key.0, key.1, j.answer, j.nodes)) {
                renumber.insert(j.id, kept);
                report.duplicates += 1;
                continue;
            }
            next_id += 1;
            seen.insert((key.0, key.1, j.answer, j.nodes), next_id);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_position;

    /// A line whose checksum is good but whose fields are spelled as the
    /// writer never spells them, or say what no job can (seconds that are
    /// not a number, negative or beyond any run), is not believed.
    #[test]
    fn other_spellings_and_impossible_fields_are_not_believed() {
        let v = Variant::new(Board::new(4, 5).unwrap(), Rules::default());
        let pos = parse_position("pawngame", Some(v.board), v.rules).unwrap();
        let best = pos.legal_moves()[0].san();
        let job = JobRecord {
            pos,
            question: Question::Wins,
            answer: Answer::Yes,
            nodes: 12,
            seconds: 0.5,
            best: Some(best),
            id: 3,
            dep: 1,
            kind: LineKind::Job,
        };
        // A known answer reads back as itself, and only as the writer
        // spells it: never open, never with nodes of its own.
        let known = JobRecord {
            answer: Answer::No,
            nodes: 0,
            seconds: 0.0,
            best: None,
            kind: LineKind::Known,
            ..job.clone()
        };
        let kline = job_line(v, &known);
        let kline = kline.trim_end();
        assert!(kline.starts_with("known\t"), "{kline}");
        assert!(matches!(parse_line(kline, Some(v)), Ok(Line::Job(j)) if j == known));
        for bad in [
            kline.replace("\tno\t", "\topen\t"),
            kline.replace("\tno\t", "\tno\t0\t"),
            kline.replace("known\t4x5", "known\t5x5"),
        ] {
            let (body, _) = bad.rsplit_once('\t').unwrap();
            let resealed = with_crc(body);
            assert!(
                parse_line(resealed.trim_end(), Some(v)).is_err(),
                "{resealed}"
            );
        }
        let line = job_line(v, &job);
        let line = line.trim_end();
        assert!(matches!(parse_line(line, Some(v)), Ok(Line::Job(j)) if j == job));
        let (body, crc) = line.rsplit_once('\t').unwrap();
        let upper = format!("{body}\t{}", crc.to_uppercase());
        assert_ne!(upper, line, "the checksum has a letter");
        assert!(parse_line(&upper, Some(v)).is_err(), "{upper}");
        let fields: Vec<&str> = body.split('\t').collect();
        for (k, text) in [
            (5, "012"),
            (5, "+12"),
            (6, "NaN"),
            (6, "inf"),
            (6, "-1.000"),
            (6, "0.5"),
            (6, "2000000000.000"),
            (8, "03"),
            (1, "04x5"),
        ] {
            let mut f = fields.clone();
            f[k] = text;
            let edited = with_crc(&f.join("\t"));
            assert!(
                parse_line(edited.trim_end(), Some(v)).is_err(),
                "believed {edited:?}"
            );
        }
        let mut f = fields.clone();
        f[6] = "2.250";
        assert!(parse_line(with_crc(&f.join("\t")).trim_end(), Some(v)).is_ok());
    }

    /// Each line reads back with its kind: a job, a split (a job line
    /// `open` after no nodes, as the manager writes it) and a known answer;
    /// a job `open` after nodes is a job, not a split.
    #[test]
    fn lines_read_back_with_their_kind() {
        let v = Variant::new(Board::new(4, 5).unwrap(), Rules::default());
        let pos = parse_position("pawngame", Some(v.board), v.rules).unwrap();
        let open = JobRecord {
            pos,
            question: Question::AvoidsLoss,
            answer: Answer::Open,
            nodes: 40,
            seconds: 0.25,
            best: None,
            id: 5,
            dep: 2,
            kind: LineKind::Job,
        };
        let split = JobRecord {
            nodes: 0,
            seconds: 0.0,
            kind: LineKind::Split,
            ..open.clone()
        };
        let known = JobRecord {
            answer: Answer::Yes,
            nodes: 0,
            seconds: 0.0,
            kind: LineKind::Known,
            ..open.clone()
        };
        for record in [open, split, known] {
            let line = job_line(v, &record);
            match parse_line(line.trim_end(), Some(v)) {
                Ok(Line::Job(back)) => assert_eq!(back, record, "{line}"),
                _ => panic!("not read back: {line}"),
            }
        }
    }
}
