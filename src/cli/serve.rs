//! `peasant serve [--tables DIR] [--proofs DIR] [--addr HOST:PORT]
//! [--search-nodes N] [--search-secs S] [--workers N] [--search-workers N]`:
//! the HTTP API and the explorer page.

use super::{CliError, GlobalArgs};
use clap::Args;
use peasant::explore::{Budget, Oracle, ProofLogs};
use peasant::serve::Server;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Where the tables are.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Proven values from the proof manager's logs: a proof directory
    /// (peasant prove --dir) or a directory of them (results/).
    #[arg(long, value_name = "DIR")]
    pub proofs: Option<PathBuf>,
    /// Address to listen on.
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Nodes a search (asked with search=1) may spend on one position
    /// before answering 404.
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    pub search_nodes: u64,
    /// Seconds a search (asked with search=1) may spend on one request
    /// before answering 404 (a line's searches share them).
    #[arg(long, value_name = "S", default_value_t = 10.0)]
    pub search_secs: f64,
    /// Worker threads answering from the tables and proofs at once.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub workers: usize,
    /// Worker threads running searches (requests with search=1), apart
    /// from the others, so that no probe waits behind a search.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub search_workers: usize,
}

impl ServeArgs {
    pub fn run(&self, _global: &GlobalArgs) -> Result<(), CliError> {
        if !(self.search_secs.is_finite() && self.search_secs > 0.0) {
            return Err(CliError::input("--search-secs: expected a positive number"));
        }
        let budget = Budget {
            nodes: Some(self.search_nodes),
            time: Some(Duration::from_secs_f64(self.search_secs)),
        };
        let mut oracle = Oracle::new(self.tables.clone(), budget);
        if let Some(dir) = &self.proofs {
            oracle = with_proofs(oracle, dir)?;
        }
        let server = Server::bind(&self.addr, oracle, self.workers)
            .map_err(|e| CliError::input(format!("--addr {}: {e}", self.addr)))?
            .with_search_workers(self.search_workers);
        let addr = server
            .local_addr()
            .map_or_else(|| self.addr.clone(), |a| a.to_string());
        println!("peasant explorer on http://{addr}/");
        eprintln!("peasant: serving on http://{addr}/ (Ctrl-C stops)");
        server.run();
        Ok(())
    }
}

/// `oracle` answering also from the proof logs of `--proofs DIR`, each
/// announced on stderr.
fn with_proofs(mut oracle: Oracle, dir: &Path) -> Result<Oracle, CliError> {
    let logs = ProofLogs::read_all(dir)
        .map_err(|e| CliError::input(format!("--proofs {}: {e}", dir.display())))?;
    if logs.is_empty() {
        return Err(CliError::input(format!(
            "--proofs {}: no proof log there (peasant prove --dir writes one)",
            dir.display()
        )));
    }
    for log in logs {
        eprintln!(
            "peasant: {} answered questions of {} from the proof logs{}",
            log.len(),
            log.variant(),
            match log.damaged() {
                0 => String::new(),
                n => format!(" ({n} damaged lines ignored)"),
            }
        );
        oracle = oracle.with_knowledge(std::sync::Arc::new(log));
    }
    Ok(oracle)
}
