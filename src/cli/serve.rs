//! `peasant serve [--tables DIR] [--addr HOST:PORT] [--search-nodes N]
//! [--search-secs S]`: the HTTP API and the explorer page.

use super::{CliError, GlobalArgs};
use clap::Args;
use peasant::explore::{Budget, Oracle};
use peasant::serve::Server;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Where the tables are.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// The proof manager's logs (not readable yet: refused).
    #[arg(long, value_name = "DIR")]
    pub proofs: Option<PathBuf>,
    /// Address to listen on.
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Nodes a search may spend on one question before answering 404.
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    pub search_nodes: u64,
    /// Seconds a search may spend on one question before answering 404.
    #[arg(long, value_name = "S", default_value_t = 10.0)]
    pub search_secs: f64,
    /// Worker threads answering requests.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub workers: usize,
}

impl ServeArgs {
    pub fn run(&self, _global: &GlobalArgs) -> Result<(), CliError> {
        if let Some(dir) = &self.proofs {
            return Err(CliError::input(format!(
                "--proofs {}: reading the proof manager's logs is not built yet",
                dir.display()
            )));
        }
        if !(self.search_secs.is_finite() && self.search_secs > 0.0) {
            return Err(CliError::input("--search-secs: expected a positive number"));
        }
        let budget = Budget {
            nodes: Some(self.search_nodes),
            time: Some(Duration::from_secs_f64(self.search_secs)),
        };
        let oracle = Oracle::new(self.tables.clone(), budget);
        let server = Server::bind(&self.addr, oracle, self.workers)
            .map_err(|e| CliError::input(format!("--addr {}: {e}", self.addr)))?;
        let addr = server
            .local_addr()
            .map_or_else(|| self.addr.clone(), |a| a.to_string());
        println!("peasant explorer on http://{addr}/");
        eprintln!("peasant: serving on http://{addr}/ (Ctrl-C stops)");
        server.run();
        Ok(())
    }
}
