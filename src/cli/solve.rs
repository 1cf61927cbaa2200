//! `peasant solve <POS> [--tables DIR] [--threads N] [--hash-mb M] [--dtm]`

use super::{print_json, CliError, GlobalArgs};
use clap::Args;
use peasant::{CanonicalRules, Position, Solution, SolveError, Solver, SolverConfig, Tablebase};
use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// A position text (FEN subset) or a setup name.
    pub pos: String,
    /// Answer positions of classes whose tables are in DIR from the tables
    /// (classes without a table are searched).
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Threads for the first moves (they share one transposition table).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Size of the transposition table in MiB.
    #[arg(long, value_name = "M", default_value_t = 256)]
    pub hash_mb: usize,
    /// Exact values with DTM (slower: a win no longer ends the search of a node).
    #[arg(long)]
    pub dtm: bool,
    /// Take moves as generated, unordered (to measure the move order).
    #[arg(long, hide = true)]
    pub no_order: bool,
    /// Canonical-form rules: all, walls (no frozen islands) or flip (colour
    /// flip and whole-board mirror only); to measure what each gains.
    #[arg(long, hide = true, value_name = "RULES", default_value = "all")]
    pub canonical: String,
    /// No progress lines on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn solve_error(e: SolveError) -> CliError {
    match e {
        SolveError::GameOver(_) => CliError::input(e),
        _ => CliError::failure(e),
    }
}

fn dtm_json(s: &Solution) -> serde_json::Value {
    s.dtm().map_or(serde_json::Value::Null, |d| json!(d))
}

/// Prints the solver's counters on stderr every `every` until `done`.
fn ticker(solver: &Solver, start: Instant, done: &AtomicBool, every: Duration) {
    let mut next = start + every;
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(100));
        if Instant::now() >= next {
            let s = solver.stats();
            let t = start.elapsed().as_secs_f64();
            eprintln!(
                "  {t:.0} s: {} nodes ({:.2} M/s), {} table hits, {} rule leaves",
                s.nodes,
                s.nodes as f64 / t / 1e6,
                s.table_hits,
                s.rule_hits
            );
            next += every;
        }
    }
}

impl SolveArgs {
    pub fn run(&self, global: &GlobalArgs) -> Result<(), CliError> {
        let pos: Position = global.position(&self.pos)?;
        if let Some(outcome) = pos.outcome() {
            return Err(CliError::input(SolveError::GameOver(outcome)));
        }
        if self.threads == 0 {
            return Err(CliError::input("--threads must be at least 1"));
        }
        let tb = self
            .tables
            .as_ref()
            .map(|dir| Tablebase::new(dir, pos.variant()));
        let canonical = match self.canonical.as_str() {
            "all" => CanonicalRules::ALL,
            "walls" => CanonicalRules {
                walls: true,
                islands: false,
            },
            "flip" => CanonicalRules::FLIP_MIRROR,
            other => {
                return Err(CliError::input(format!(
                    "--canonical {other}: expected all, walls or flip"
                )))
            }
        };
        let config = SolverConfig {
            hash_mb: self.hash_mb,
            dtm: self.dtm,
            threads: self.threads,
            max_nodes: None,
            ordering: !self.no_order,
            canonical,
        };
        let solver = Solver::new(config, tb.as_ref());
        let start = Instant::now();
        let done = AtomicBool::new(false);
        let quiet = self.quiet;
        let (root, line) = std::thread::scope(|scope| {
            if !quiet {
                scope.spawn(|| ticker(&solver, start, &done, Duration::from_secs(10)));
            }
            let progress = |m: peasant::Move, s: Solution| {
                if !quiet {
                    eprintln!(
                        "  {:<6} {s}  ({:.1} s)",
                        m.san(),
                        start.elapsed().as_secs_f64()
                    );
                }
            };
            let result = solver
                .solve_root(&pos, &progress)
                .and_then(|root| Ok((root, solver.line(&pos)?)));
            done.store(true, Ordering::Relaxed);
            result
        })
        .map_err(solve_error)?;
        let seconds = start.elapsed().as_secs_f64();
        let stats = solver.stats();
        let line_san: Vec<String> = line.iter().map(|m| m.san()).collect();
        if global.json {
            print_json(&json!({
                "fen": pos.to_string(),
                "value": root.value.wdl.name(),
                "dtm": dtm_json(&root.value),
                "moves": root.moves.iter().map(|(m, s)| json!({
                    "move": m.san(), "value": s.wdl.name(), "dtm": dtm_json(s)
                })).collect::<Vec<_>>(),
                "line": line_san,
                "line_is_dtm_optimal": self.dtm,
                "nodes": stats.nodes,
                "table_hits": stats.table_hits,
                "rule_leaves": stats.rule_hits,
                "tt_hits": stats.tt_hits,
                "seconds": seconds,
                "threads": self.threads,
                "hash_mb": self.hash_mb,
            }));
            return Ok(());
        }
        print!("{}", pos.diagram());
        println!();
        println!("fen:    {pos}");
        println!("rules:  {}", pos.variant());
        println!("value:  {} ({} to move)", root.value, pos.turn());
        for (m, s) in &root.moves {
            println!("  {:<6} {s}", m.san());
        }
        let kind = if self.dtm {
            "shortest win, longest loss"
        } else {
            "win/draw/loss only; --dtm for the fastest line"
        };
        println!("line:   {} ({kind})", line_san.join(" "));
        println!(
            "nodes:  {} ({:.2} M/s), table hits {}, rule leaves {}, tt hits {}",
            stats.nodes,
            stats.nodes as f64 / seconds.max(1e-9) / 1e6,
            stats.table_hits,
            stats.rule_hits,
            stats.tt_hits
        );
        println!(
            "time:   {seconds:.3} s on {} thread(s), hash {} MiB",
            self.threads, self.hash_mb
        );
        Ok(())
    }
}
