//! `peasant book <POS>... --plies N --out FILE [--hash-mb M]` and
//! `peasant book --check FILE`
//!
//! Builds a book of proven winning moves (`peasant::explore::book`) for
//! the side that wins each position, to N plies, and writes it to FILE
//! after each position (under a temporary name, renamed when complete). A
//! build stopped part way resumes: the sections FILE already holds for the
//! same positions and plies are kept, the others built. `--check` proves
//! every move of a book again and checks that it answers every move of
//! the other side within its plies.

use super::solve::solve_error;
use super::{print_json, CliError, GlobalArgs};
use clap::Args;
use peasant::explore::book::{self, Book, BookError, Section};
use peasant::rules::{Position, Variant};
use peasant::solve::{PnConfig, PnSolver, SearchConfig};
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct BookArgs {
    /// Start positions (setup names or position texts), each won by one
    /// side.
    #[arg(value_name = "POS", required_unless_present = "check")]
    pub positions: Vec<String>,
    /// How many plies from each start the book covers.
    #[arg(long, value_name = "N", default_value_t = 2, conflicts_with = "check")]
    pub plies: u32,
    /// The file to write the book to.
    #[arg(long, value_name = "FILE", required_unless_present = "check")]
    pub out: Option<PathBuf>,
    /// Prove every move of the book in FILE again and check that it is
    /// whole.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["positions", "out"])]
    pub check: Option<PathBuf>,
    /// Size of the transposition table in MiB (kept from one proof to the
    /// next).
    #[arg(long, value_name = "M", default_value_t = 1024)]
    pub hash_mb: usize,
    /// No progress lines on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

fn book_error(e: BookError) -> CliError {
    match e {
        BookError::NotWon(_) => CliError::input(e),
        BookError::Solve(e) => solve_error(e),
        _ => CliError::failure(e),
    }
}

/// One solver per game (board and rules), as a solver solves one game;
/// kept while consecutive positions are of the same game, so that what
/// one proof learns serves the next.
struct Solvers {
    hash_mb: usize,
    current: Option<(Variant, PnSolver<'static>)>,
    /// Nodes of the solvers dropped so far.
    done_nodes: u64,
}

impl Solvers {
    fn new(hash_mb: usize) -> Solvers {
        Solvers {
            hash_mb,
            current: None,
            done_nodes: 0,
        }
    }

    fn of(&mut self, variant: Variant) -> Result<&PnSolver<'static>, CliError> {
        if self.current.as_ref().map(|(v, _)| *v) != Some(variant) {
            if let Some((_, old)) = self.current.take() {
                self.done_nodes += old.stats().nodes;
            }
            let config = PnConfig {
                search: SearchConfig {
                    hash_mb: self.hash_mb,
                    ..PnConfig::default().search
                },
                ..PnConfig::default()
            };
            let solver = PnSolver::new(config, None).map_err(solve_error)?;
            self.current = Some((variant, solver));
        }
        Ok(&self.current.as_ref().expect("set above").1)
    }

    /// Nodes searched by every solver so far.
    fn nodes(&self) -> u64 {
        self.done_nodes + self.current.as_ref().map_or(0, |(_, s)| s.stats().nodes)
    }
}

impl BookArgs {
    pub fn run(&self, global: &GlobalArgs) -> Result<(), CliError> {
        let mut solvers = Solvers::new(self.hash_mb);
        match &self.check {
            Some(path) => self.check(&mut solvers, path, global),
            None => self.build(&mut solvers, global),
        }
    }

    fn build(&self, solvers: &mut Solvers, global: &GlobalArgs) -> Result<(), CliError> {
        let out = self
            .out
            .as_ref()
            .expect("clap requires --out without --check");
        let starts = self
            .positions
            .iter()
            .map(|text| Ok((text.as_str(), global.position(text)?)))
            .collect::<Result<Vec<_>, CliError>>()?;
        if let Some((text, _)) = starts.iter().find(|(_, p)| p.is_game_over()) {
            return Err(CliError::input(format!("{text}: the game is already over")));
        }
        if out.is_dir() {
            return Err(CliError::input(format!("{} is a directory", out.display())));
        }
        let parent = out.parent().filter(|p| !p.as_os_str().is_empty());
        if parent.is_some_and(|p| !p.is_dir()) {
            return Err(CliError::input(format!(
                "{}: no such directory",
                parent.unwrap_or(out).display()
            )));
        }
        // A book stopped part way resumes: the sections already written for
        // the same position, game and plies are kept.
        let mut kept: Vec<Section> = match std::fs::read_to_string(out) {
            Ok(text) => Book::parse(&text)
                .map_err(|e| CliError::failure(format!("{} is damaged: {e}", out.display())))?
                .sections()
                .to_vec(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => {
                return Err(CliError::input(format!(
                    "cannot read {}: {e}",
                    out.display()
                )))
            }
        };
        let began = Instant::now();
        let mut book = Book::default();
        let mut text = String::new();
        for (name, start) in &starts {
            let old = kept
                .iter()
                .position(|s| s.start_text == *name && s.start == *start && s.plies == self.plies);
            let section = match old {
                Some(i) => {
                    let section = kept.swap_remove(i);
                    if !self.quiet {
                        eprintln!(
                            "{name}: {} moves kept from {}",
                            section.lines.len(),
                            out.display()
                        );
                    }
                    section
                }
                None => self.build_one(solvers, name, start, began)?,
            };
            book.add(section);
            text = format!(
                "# A book of proven winning moves, written by `peasant book`; \
                 `peasant book --check FILE` proves them again.\n{book}"
            );
            // Written whole after every section, under a temporary name
            // renamed when complete: never half a file.
            let tmp = out.with_extension("tmp");
            std::fs::write(&tmp, text.as_bytes())
                .and_then(|()| std::fs::rename(&tmp, out))
                .map_err(|e| CliError::failure(format!("cannot write {}: {e}", out.display())))?;
        }
        let nodes = solvers.nodes();
        if global.json {
            print_json(&json!({
                "file": out.display().to_string(),
                "moves": book.len(),
                "bytes": text.len(),
                "nodes": nodes,
                "seconds": began.elapsed().as_secs_f64(),
            }));
        } else {
            println!(
                "{}: {} book moves, {} bytes, {nodes} nodes, {:.1} s",
                out.display(),
                book.len(),
                text.len(),
                began.elapsed().as_secs_f64()
            );
        }
        Ok(())
    }

    /// Builds one start's section, with progress lines.
    fn build_one(
        &self,
        solvers: &mut Solvers,
        name: &str,
        start: &Position,
        began: Instant,
    ) -> Result<Section, CliError> {
        let mut lines = 0usize;
        let quiet = self.quiet;
        let before = solvers.nodes();
        let solver = solvers.of(start.variant())?;
        let section = book::build(solver, name, start, self.plies, &mut |_| {
            lines += 1;
            if !quiet && lines.is_multiple_of(100) {
                eprintln!(
                    "{name}: {lines} moves, {} nodes so far",
                    before + solver.stats().nodes
                );
            }
        })
        .map_err(book_error)?;
        if !self.quiet {
            eprintln!(
                "{name}: {} moves for {} to {} plies ({:.1} s, {} nodes so far)",
                section.lines.len(),
                section.side.name(),
                self.plies,
                began.elapsed().as_secs_f64(),
                solvers.nodes()
            );
        }
        Ok(section)
    }

    fn check(
        &self,
        solvers: &mut Solvers,
        path: &PathBuf,
        global: &GlobalArgs,
    ) -> Result<(), CliError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
        let book = Book::parse(&text)
            .map_err(|e| CliError::failure(format!("{} is damaged: {e}", path.display())))?;
        let began = Instant::now();
        let mut moves = 0;
        let mut covered = 0;
        for section in book.sections() {
            let solver = solvers.of(section.start.variant())?;
            let report = book::check(Some(solver), section).map_err(|e| match e {
                BookError::Unproven(_) => {
                    CliError::failure(format!("{} is wrong: {e}", path.display()))
                }
                e => book_error(e),
            })?;
            moves += report.moves;
            covered += report.covered;
            if !self.quiet {
                eprintln!(
                    "{}: {} moves proven, {} positions of {} answered whole",
                    section.start_text,
                    report.moves,
                    report.covered,
                    (!section.side).name()
                );
            }
        }
        let nodes = solvers.nodes();
        if global.json {
            print_json(&json!({
                "file": path.display().to_string(),
                "sections": book.sections().len(),
                "moves": moves,
                "covered": covered,
                "nodes": nodes,
                "seconds": began.elapsed().as_secs_f64(),
            }));
        } else {
            println!(
                "{}: {} sections, {moves} moves proven, every move of the other side \
                 answered ({covered} positions), {nodes} nodes, {:.1} s",
                path.display(),
                book.sections().len(),
                began.elapsed().as_secs_f64()
            );
        }
        Ok(())
    }
}
