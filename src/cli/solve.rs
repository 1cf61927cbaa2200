//! `peasant solve <POS> [--method ab|pn] [--tables DIR] [--threads N]
//! [--hash-mb M] [--dtm] [--value-only] [--save FILE [--save-every SECS]]
//! [--max-nodes N]`
//!
//! `--method ab` is the alpha-beta `Solver`; `--method pn` the
//! proof-number `PnSolver`, which answers win/draw/loss only (`--dtm` is
//! refused). Without `--method` the search is
//! [`Method::default_for`]'s: alpha-beta with `--dtm`, proof-number
//! search otherwise (the cheaper one on every game measured). Both keep
//! the same win/draw/loss proven-results files, so either resumes from
//! what the other saved. `--value-only` asks for the position's value and
//! one best move instead of every move's value.
//!
//! With `--save FILE` the proven results (exact values, never bounds) are
//! loaded from FILE first if it exists, and written to it every
//! `--save-every` seconds, when the solve ends, and when it is stopped by
//! Ctrl-C, SIGTERM or SIGHUP (exit status 130) or by `--max-nodes` (exit
//! status 3). The same command then resumes where it stopped.

use super::{print_json, CliError, GlobalArgs, MethodArg, EXIT_INTERRUPTED, EXIT_STOPPED};
use clap::Args;
use peasant::solve::{Event, Finished, Goal, Method, Session, SessionConfig, Solve};
use peasant::{
    rules::{CanonicalRules, Move, Position, SettingError},
    solve::{
        PnConfig, PnEpsilon, PnInit, PnSolver, ProvenError, RootSolution, SearchConfig, Shortcuts,
        Solution, SolveError, SolveStats, Solver, SolverConfig, TableUse, DEFER_PLIES,
    },
    table::Tablebase,
};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// A position text (FEN subset) or a setup name.
    pub pos: String,
    /// The search: ab (alpha-beta) or pn (proof-number search, df-pn;
    /// win/draw/loss only). Default: pn, or ab with --dtm (pn needs fewer
    /// nodes on every game measured; docs/SOLVE.md).
    #[arg(long, value_enum, value_name = "METHOD", hide_possible_values = true)]
    pub method: Option<MethodArg>,
    /// With --method pn: the order in which each side tries its moves
    /// (values never depend on it): guided (the default), tuned (the guess
    /// cost tuned on Peasants' Chess 6x8 and 5x8 questions: fewer nodes
    /// there, more on the Pawn Race; docs/SOLVE.md), mobility or one (to
    /// measure), or weights:NAME=N,... on the moves' features (to tune an
    /// order without a build of its own; docs/SOLVE.md).
    #[arg(
        long,
        value_name = "INIT",
        default_value = "guided",
        value_parser = setting::<PnInit>
    )]
    pub pn_init: PnInit,
    /// With --method pn: "stick" (the best child keeps the search until the
    /// node's own threshold), or the epsilon of the 1+epsilon trick as a
    /// shift (epsilon = 2^-SHIFT), or "off" for plain df-pn (to measure).
    #[arg(long, hide = true, value_name = "SHIFT", default_value = "stick",
          value_parser = setting::<PnEpsilon>)]
    pub pn_epsilon: PnEpsilon,
    /// With --method pn: weak proof numbers (max instead of sum; to
    /// measure). The same search to the node with the default
    /// --pn-epsilon stick, which searches one open child of a node at a
    /// time (the others' numbers still 1): they differ only where the
    /// search turns (another --pn-epsilon).
    #[arg(long, hide = true)]
    pub pn_weak: bool,
    /// With --method pn and --threads above 1: threads do not steer away
    /// from the positions other threads are searching (to measure).
    #[arg(long, hide = true)]
    pub pn_no_spread: bool,
    /// With --method pn and --threads above 1: threads steer away from
    /// one another at every node, not only where a move has already
    /// failed for the side to move (to measure).
    #[arg(long, hide = true)]
    pub pn_spread_every: bool,
    /// With --method pn and --threads above 1: threads steer away from
    /// one another also at every node of the side that must win the
    /// question a team asks (to measure).
    #[arg(long, hide = true)]
    pub pn_spread_attacker: bool,
    /// With --method ab, --value-only and --threads above 1: how many
    /// plies below the root a thread puts off the moves another thread is
    /// searching (0: never; to measure).
    #[arg(long, hide = true, value_name = "PLIES", default_value_t = DEFER_PLIES)]
    pub ab_defer_plies: usize,
    /// With --value-only and --threads above 1: the threads take turns of
    /// about K nodes, one at a time, each round's turns kept apart, and
    /// the solve reports its makespan (the finishing thread's nodes): T
    /// threads emulated on any machine, node for node the same on each
    /// (to measure; alpha-beta and proof-number search alike).
    #[arg(long, hide = true, value_name = "K")]
    pub emulate_turns: Option<u64>,
    /// With --method pn on one thread: read the transposition table under
    /// each bucket's lock, as threads of one question do (to measure).
    #[arg(long, hide = true)]
    pub pn_locked_reads: bool,
    /// Answer positions of classes whose tables are in DIR from the tables
    /// (classes without a table are searched).
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Threads, sharing one transposition table: they share out the first
    /// moves, or with --value-only and proof-number search they search the
    /// position together.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Size of the transposition table in MiB.
    #[arg(long, value_name = "M", default_value_t = 256)]
    pub hash_mb: usize,
    /// With --tables: MiB of decompressed table blocks kept in memory.
    #[arg(long, value_name = "M", default_value_t = 256)]
    pub cache_mb: usize,
    /// With --tables: MiB for the tables' win/draw/loss values held whole
    /// in memory, 2 bits a position, for the fastest probes (tables past
    /// it are read through the block cache; 0: none held).
    #[arg(long, value_name = "M", default_value_t = 1024)]
    pub wdl_memory_mb: usize,
    /// Exact values with DTM (slower: a win no longer ends the search of a node).
    #[arg(long)]
    pub dtm: bool,
    /// Take moves as generated, unordered (to measure the move order).
    #[arg(long, hide = true)]
    pub no_order: bool,
    /// Search pure races instead of resolving them by rule (to measure the
    /// rule).
    #[arg(long, hide = true)]
    pub no_race: bool,
    /// Search free runners instead of taking them as wins (to measure the
    /// rule).
    #[arg(long, hide = true)]
    pub no_runner: bool,
    /// Search the opponent's free runners instead of taking them as
    /// losses for the side to move (to measure the rule).
    #[arg(long, hide = true)]
    pub no_opponent_runner: bool,
    /// Search the moves onto the second-to-last rank instead of taking the
    /// rule of fact 3 a move ahead (to measure the rule).
    #[arg(long, hide = true)]
    pub no_rule_ahead: bool,
    /// Search the moves onto the third-to-last rank instead of taking the
    /// rule of fact 3 two moves ahead (to measure the rule).
    #[arg(long, hide = true)]
    pub no_two_ahead: bool,
    /// Search positions with an en passant right instead of asking the
    /// rules of the same pawns without it (to measure the rule).
    #[arg(long, hide = true)]
    pub no_past_en_passant: bool,
    /// Search the positions whose every move reaches a position the
    /// opponent wins by rule instead of taking them as lost (to measure
    /// the rule).
    #[arg(long, hide = true)]
    pub no_every_move_lost: bool,
    /// Search a defender to move that can leave the attacker without a
    /// move instead of taking it as having its draw, and an attacker each
    /// of whose moves lets it do so instead of taking it as failed
    /// (proof-number search; to measure the rules).
    #[arg(long, hide = true)]
    pub no_stalemate: bool,
    /// Search dead positions (no capture and no promotion can ever happen)
    /// instead of taking them as draws (to measure the rule).
    #[arg(long, hide = true)]
    pub no_dead: bool,
    /// No one-sided bound (a side that can never win scores at most a
    /// draw): to measure it.
    #[arg(long, hide = true)]
    pub no_bound: bool,
    /// With --method pn: disprove a node whose attacker is to move and can
    /// never win (the one-sided bound; off by default, it costs nodes on
    /// some games).
    #[arg(long, hide = true)]
    pub pn_bound: bool,
    /// Order moves without the safe-landing hint (to measure it).
    #[arg(long, hide = true)]
    pub no_safe_landing: bool,
    /// Count where the nodes go (pawns, segments, depth, what ended them)
    /// and print the profile on stdout after the solve. With proof-number
    /// search, the searched and win-now columns are its expansions (its
    /// node count) and the others the children settled before they were
    /// expanded.
    #[arg(long, hide = true)]
    pub profile: bool,
    /// No enhanced transposition cutoff (looking up every child before
    /// searching any): to measure it.
    #[arg(long, hide = true)]
    pub no_etc: bool,
    /// Search each root move with two null windows ("a win?", then "at
    /// least a draw?") instead of the full window (to measure it).
    #[arg(long, hide = true)]
    pub null_window: bool,
    /// Canonical-form rules: all, walls (no frozen islands) or flip (colour
    /// flip and whole-board mirror only); to measure what each gains.
    #[arg(
        long,
        hide = true,
        value_name = "RULES",
        default_value = "all",
        value_parser = setting::<CanonicalRules>
    )]
    pub canonical: CanonicalRules,
    /// Keep proven results in FILE: load them first if FILE exists, save
    /// them while solving, at the end and when stopped (Ctrl-C or
    /// --max-nodes); run the same command again to resume.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// With --save: save every SECS seconds while solving.
    #[arg(long, value_name = "SECS", default_value_t = 300, requires = "save")]
    pub save_every: u64,
    /// Stop after about N nodes (exactly N on one thread), saving with
    /// --save: a solve in parts (exit status 3 when stopped).
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Only the position's value and one best move (with any other move
    /// whose value the search settled on the way): much cheaper than every
    /// move's value when a move wins.
    #[arg(long)]
    pub value_only: bool,
    /// No progress lines on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Reads a search setting (`--pn-init`, `--pn-epsilon`, `--canonical`)
/// as the library spells it.
pub(crate) fn setting<T: FromStr<Err = SettingError>>(text: &str) -> Result<T, String> {
    text.parse().map_err(|e: SettingError| e.to_string())
}

/// More root threads than any machine this runs on has cores.
pub(crate) const MAX_THREADS: usize = 1024;

/// The search a solve runs, configured.
enum Search {
    AlphaBeta(SolverConfig),
    ProofNumber(PnConfig),
}

impl Search {
    fn method(&self) -> Method {
        match self {
            Search::AlphaBeta(_) => Method::AlphaBeta,
            Search::ProofNumber(_) => Method::ProofNumber,
        }
    }

    /// Whether values are exact with DTM (else win/draw/loss).
    fn dtm(&self) -> bool {
        match self {
            Search::AlphaBeta(c) => c.dtm,
            Search::ProofNumber(_) => false,
        }
    }

    /// The configuration both searches share.
    fn common(&self) -> &SearchConfig {
        match self {
            Search::AlphaBeta(c) => &c.search,
            Search::ProofNumber(c) => &c.search,
        }
    }
}

/// A solve as its flags ask for it, every flag checked: built before any
/// work is done.
struct Plan {
    pos: Position,
    search: Search,
    /// Whether `--method` chose the search (else the rule did).
    method_given: bool,
    tables: Option<Tablebase>,
    save: Option<PathBuf>,
    session: SessionConfig,
    /// Count where the nodes go and print the profile.
    profile: bool,
    /// No progress on stderr.
    quiet: bool,
    /// One JSON object on stdout instead of text.
    json: bool,
}

/// What a finished solve found, to print.
struct Solved<'a> {
    root: RootSolution,
    line: Vec<Move>,
    stats: SolveStats,
    seconds: f64,
    /// With --emulate-turns: the makespan in nodes.
    makespan: Option<u64>,
    /// Proven positions loaded from the save file.
    loaded: usize,
    /// The save file and the positions written to it.
    saved: Option<(&'a Path, usize)>,
}

impl SolveArgs {
    pub fn run(&self, global: &GlobalArgs) -> Result<(), CliError> {
        let plan = self.plan(global)?;
        let proof_number = matches!(plan.search, Search::ProofNumber(_));
        let (ab, pn);
        let solver: &dyn Solve = match plan.search {
            Search::AlphaBeta(config) => {
                ab = Solver::new(config, plan.tables.as_ref()).map_err(solve_error)?;
                &ab
            }
            Search::ProofNumber(config) => {
                pn = PnSolver::new(config, plan.tables.as_ref()).map_err(solve_error)?;
                &pn
            }
        };
        if plan.profile {
            peasant::solve::profile::enable();
        }
        let session =
            Session::new(solver, &plan.pos, plan.save.as_deref()).map_err(proven_error)?;
        if !plan.quiet {
            eprintln!("  method: {}", plan.method_text());
            print_loaded(&session);
        }
        // Ctrl-C stops the search so that what it proved is saved.
        let interrupts = match plan.save {
            Some(_) => stop_on_signal(&session)?,
            None => Arc::default(),
        };
        let quiet = plan.quiet;
        let end = session.run(&plan.pos, &plan.session, &|e| {
            if !quiet {
                print_event(e)
            }
        });
        if plan.profile {
            if proof_number {
                println!(
                    "proof-number search: searched and win-now count its expansions \
                     (its nodes), the other columns the children settled before expansion"
                );
            }
            println!("{}", peasant::solve::profile::take());
        }
        plan.finish(&session, end, interrupts.load(Ordering::SeqCst) > 0)
    }

    /// Checks every flag, before any work, and says what to do.
    fn plan(&self, global: &GlobalArgs) -> Result<Plan, CliError> {
        let pos: Position = global.position(&self.pos)?;
        if let Some(outcome) = pos.outcome() {
            return Err(CliError::input(SolveError::GameOver(outcome)));
        }
        if self.threads == 0 {
            return Err(CliError::input("--threads must be at least 1"));
        }
        if self.threads > MAX_THREADS {
            return Err(CliError::input(format!(
                "--threads {}: at most {MAX_THREADS}",
                self.threads
            )));
        }
        if let Some(dir) = &self.tables {
            tables_dir_is_there(dir)?;
        }
        if let Some(k) = self.emulate_turns {
            if k == 0 {
                return Err(CliError::input("--emulate-turns K: K must be at least 1"));
            }
            if !self.value_only || self.threads < 2 {
                return Err(CliError::input(
                    "--emulate-turns takes turns of threads on one question: \
                     it needs --value-only and --threads above 1",
                ));
            }
        }
        if let Some(path) = &self.save {
            save_path_writable(path)?;
        }
        if self.method == Some(MethodArg::Pn) && self.dtm {
            return Err(CliError::input(
                "--dtm needs --method ab: proof-number search answers win/draw/loss only",
            ));
        }
        let tables = self.tables.as_ref().map(|dir| {
            Tablebase::new(dir, pos.variant())
                .with_cache_mib(self.cache_mb)
                .with_wdl_memory_mib(self.wdl_memory_mb)
        });
        Ok(Plan {
            pos,
            search: self.search(),
            method_given: self.method.is_some(),
            tables,
            save: self.save.clone(),
            session: SessionConfig {
                goal: if self.value_only {
                    Goal::ValueOnly
                } else {
                    Goal::EveryMove
                },
                save_every: Duration::from_secs(self.save_every.max(1)),
                tick_every: (!self.quiet).then_some(Duration::from_secs(10)),
            },
            profile: self.profile,
            quiet: self.quiet,
            json: global.json,
        })
    }

    /// The search: `--method`'s, or the rule's for the question asked.
    fn method(&self) -> Method {
        self.method
            .map_or_else(|| Method::default_for(self.dtm), Method::from)
    }

    /// The solver's configuration, from the flags.
    fn search(&self) -> Search {
        let search = SearchConfig {
            hash_mb: self.hash_mb,
            canonical: self.canonical,
            threads: self.threads,
            max_nodes: self.max_nodes,
            shortcuts: Shortcuts {
                rule_ahead: !self.no_rule_ahead,
                two_ahead: !self.no_two_ahead,
                past_en_passant: !self.no_past_en_passant,
                every_move_lost: !self.no_every_move_lost,
                race: !self.no_race,
                runner: !self.no_runner,
                opponent_runner: !self.no_opponent_runner,
                dead: !self.no_dead,
                bound: !self.no_bound,
                stalemate: !self.no_stalemate,
            },
        };
        match self.method() {
            Method::AlphaBeta => Search::AlphaBeta(SolverConfig {
                search,
                dtm: self.dtm,
                ordering: !self.no_order,
                safe_landing: !self.no_safe_landing,
                etc: !self.no_etc,
                null_window: self.null_window,
                defer_plies: self.ab_defer_plies,
                turns: self.emulate_turns,
            }),
            Method::ProofNumber => Search::ProofNumber(PnConfig {
                search: SearchConfig {
                    shortcuts: Shortcuts {
                        bound: self.pn_bound,
                        ..search.shortcuts
                    },
                    ..search
                },
                init: self.pn_init,
                epsilon: self.pn_epsilon,
                weak: self.pn_weak,
                spread: !self.pn_no_spread,
                spread_every: self.pn_spread_every,
                spread_attacker: self.pn_spread_attacker,
                lock_free_reads: !self.pn_locked_reads,
                spread_jobs: false,
                turns: self.emulate_turns,
            }),
        }
    }
}

impl Plan {
    /// Reports how the solve ended: the solution on stdout, or why it
    /// stopped (exit status 3, 130) or failed.
    fn finish(&self, session: &Session, end: Finished, interrupted: bool) -> Result<(), CliError> {
        let Finished {
            result,
            seconds,
            saved,
            stats,
            makespan,
        } = end;
        // A save that failed (a full disk) is reported after the result,
        // which is still printed: exit status 1.
        let (saved, save_failed) = match saved {
            Some(Ok(n)) => (Some(n), None),
            Some(Err(e)) => (None, Some(e)),
            None => (None, None),
        };
        let saved_text = match (session.path(), saved) {
            (Some(path), Some(n)) => format!("{n} proven positions saved to {}", path.display()),
            (Some(_), None) => "the save failed".to_string(),
            _ => "nothing saved (no --save)".to_string(),
        };
        let (root, line) = match result {
            Err(SolveError::Stopped) => {
                return Err(stopped(
                    save_failed,
                    interrupted,
                    stats.nodes,
                    seconds,
                    &saved_text,
                ))
            }
            other => other.map_err(solve_error)?,
        };
        if !self.quiet && saved.is_some() {
            eprintln!("  {saved_text}");
        }
        let solved = Solved {
            root,
            line,
            stats,
            seconds,
            makespan,
            loaded: session.loaded(),
            saved: session.path().zip(saved),
        };
        if self.json {
            print_json(&self.solution_json(&solved));
        } else {
            self.print_solution(&solved);
        }
        save_failed.map_or(Ok(()), |e| Err(proven_error(e)))
    }

    /// "pn (proof-number search, the default for win/draw/loss; --method
    /// ab for alpha-beta)", or where `--method` chose, "ab (alpha-beta,
    /// --method ab)".
    fn method_text(&self) -> String {
        let method = self.search.method();
        let why = match (self.method_given, method) {
            (true, _) => format!("--method {method}"),
            (false, Method::AlphaBeta) => "the default with --dtm".to_string(),
            (false, Method::ProofNumber) => {
                "the default for win/draw/loss; --method ab for alpha-beta".to_string()
            }
        };
        format!("{method} ({}, {why})", method.name())
    }

    fn solution_json(&self, s: &Solved) -> serde_json::Value {
        let stats = &s.stats;
        json!({
            "fen": self.pos.to_string(),
            "value": s.root.value.wdl.name(),
            "dtm": dtm_json(&s.root.value),
            "moves": s.root.moves.iter().map(|(m, v)| json!({
                "move": m.san(), "value": v.wdl.name(), "dtm": dtm_json(v)
            })).collect::<Vec<_>>(),
            "line": s.line.iter().map(|m| m.san()).collect::<Vec<_>>(),
            "line_is_dtm_optimal": self.search.dtm(),
            "value_only": self.session.goal == Goal::ValueOnly,
            "nodes": stats.nodes,
            "table_hits": stats.table_hits,
            "rule_leaves": stats.rule_hits,
            "race_leaves": stats.race_hits,
            "runner_leaves": stats.runner_hits,
            "dead_leaves": stats.dead_hits,
            "bound_cuts": stats.bound_hits,
            "tt_hits": stats.tt_hits,
            "tt_stores": stats.table.stores,
            "tt_replaced": stats.table.replaced,
            "tt_replaced_max_work": stats.table.replaced_max_work,
            "seconds": s.seconds,
            "makespan": s.makespan,
            "threads": self.search.common().threads,
            "hash_mb": self.search.common().hash_mb,
            "method": self.search.method().to_string(),
            "pn_init": match &self.search {
                Search::ProofNumber(c) => Some(c.init.to_string()),
                Search::AlphaBeta(_) => None,
            },
            "loaded": s.loaded,
            "saved": s.saved.map(|(_, n)| n),
        })
    }

    fn print_solution(&self, s: &Solved) {
        let pos = &self.pos;
        print!("{}", pos.diagram());
        println!();
        println!("fen:    {pos}");
        println!("rules:  {}", pos.variant());
        println!("value:  {} ({} to move)", s.root.value, pos.turn());
        for (m, v) in &s.root.moves {
            println!("  {:<6} {v}", m.san());
        }
        let unsettled = pos.count_moves() as usize - s.root.moves.len();
        if unsettled > 0 {
            println!("  ({unsettled} other moves not settled: --value-only)");
        }
        let kind = if self.search.dtm() {
            "shortest win, longest loss"
        } else {
            "win/draw/loss only; --dtm for the fastest line"
        };
        let line: Vec<String> = s.line.iter().map(|m| m.san()).collect();
        println!("line:   {} ({kind})", line.join(" "));
        println!("method: {}", self.method_text());
        let (stats, seconds) = (&s.stats, s.seconds);
        println!(
            "nodes:  {} ({:.2} M/s), table hits {}, rule leaves {}, race leaves {}, runner leaves {}, dead leaves {}, bound cuts {}, tt hits {}",
            stats.nodes,
            stats.nodes as f64 / seconds.max(1e-9) / 1e6,
            stats.table_hits,
            stats.rule_hits,
            stats.race_hits,
            stats.runner_hits,
            stats.dead_hits,
            stats.bound_hits,
            stats.tt_hits
        );
        println!(
            "time:   {seconds:.3} s on {} thread(s), hash {} MiB",
            self.search.common().threads,
            self.search.common().hash_mb
        );
        println!(
            "table:  {}",
            table_room(&stats.table, self.search.method() == Method::AlphaBeta)
        );
        if let Some(span) = s.makespan {
            let turns = match &self.search {
                Search::AlphaBeta(c) => c.turns,
                Search::ProofNumber(c) => c.turns,
            };
            println!(
                "emulated: {} threads taking turns of {} nodes: makespan {span} nodes \
                 ({:.2}x the work's {} nodes in time)",
                self.search.common().threads,
                turns.unwrap_or(0),
                stats.nodes as f64 / span.max(1) as f64,
                stats.nodes
            );
        }
        if let Some((path, n)) = s.saved {
            println!(
                "saved:  {n} proven positions in {} ({} loaded)",
                path.display(),
                s.loaded
            );
        }
    }
}

/// The error of a stopped solve: by `--max-nodes` (exit status 3) or
/// Ctrl-C (130), saying what was saved; a failure (1) if the save failed.
fn stopped(
    save_failed: Option<ProvenError>,
    interrupted: bool,
    nodes: u64,
    seconds: f64,
    saved_text: &str,
) -> CliError {
    if let Some(e) = save_failed {
        return CliError::failure(format!(
            "{e} (stopped after {nodes} nodes: what was proven is lost)"
        ));
    }
    let (why, status) = if interrupted {
        ("by Ctrl-C or a signal", EXIT_INTERRUPTED)
    } else {
        ("by --max-nodes", EXIT_STOPPED)
    };
    CliError {
        message: format!("stopped {why} after {nodes} nodes, {seconds:.1} s: {saved_text}"),
        status,
    }
}

/// Sets the stop flag of `session` on Ctrl-C (and on SIGTERM or SIGHUP),
/// so that what the search proved is saved; a second one ends the process
/// at once (the saved file stays whole). The count of them.
fn stop_on_signal(session: &Session) -> Result<Arc<AtomicUsize>, CliError> {
    let interrupts = Arc::new(AtomicUsize::new(0));
    let (flag, count) = (session.stop_flag(), Arc::clone(&interrupts));
    super::signals::on_stop_signal(move || {
        if count.fetch_add(1, Ordering::SeqCst) > 0 {
            std::process::exit(EXIT_INTERRUPTED);
        }
        flag.store(true, Ordering::SeqCst);
    })
    .map_err(|e| CliError::failure(format!("cannot catch Ctrl-C: {e}")))?;
    Ok(interrupts)
}

/// Refuses a `--tables` path that is not a directory.
fn tables_dir_is_there(dir: &Path) -> Result<(), CliError> {
    if dir.is_dir() {
        return Ok(());
    }
    Err(CliError::input(format!(
        "--tables {}: {}",
        dir.display(),
        if dir.exists() {
            "not a directory (--tables takes the directory of the tables)"
        } else {
            "no such directory"
        }
    )))
}

/// Refuses, before any search, a `--save` path that could never be
/// written: a directory, a file in a directory that does not exist, or a
/// directory where no file can be made (a long solve would otherwise run
/// for nothing).
fn save_path_writable(path: &Path) -> Result<(), CliError> {
    let bad = |why: String| CliError::input(format!("--save {}: {why}", path.display()));
    if path.is_dir() {
        return Err(bad("is a directory; --save takes a file".into()));
    }
    // A device (a link to /dev/zero or /dev/full would be read without
    // end) or a pipe: a save file is written elsewhere and renamed, so it
    // is never one of these.
    if path.exists() && !path.is_file() {
        return Err(bad("not a regular file; --save takes a file".into()));
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(bad(format!("{} is not a directory", dir.display())));
    }
    let probe = dir.join(format!(".peasant-save-test-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .map_err(|e| bad(format!("cannot write in {}: {e}", dir.display())))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

fn proven_error(e: ProvenError) -> CliError {
    match e {
        ProvenError::WrongKind { .. } => CliError::input(e),
        _ => CliError::failure(e),
    }
}

pub fn solve_error(e: SolveError) -> CliError {
    match e {
        // The library does not know the flag; every command's table size
        // is --hash-mb.
        SolveError::Memory { mib, .. } => CliError::input(format!("--hash-mb {mib}: {e}")),
        SolveError::GameOver(_) => CliError::input(e),
        // DTM asked of win/draw/loss-only tables: the wrong tables given.
        SolveError::Table(peasant::table::TableError::NoDtm { .. }) => CliError::input(e),
        _ => CliError::failure(e),
    }
}

fn dtm_json(s: &Solution) -> serde_json::Value {
    s.dtm().map_or(serde_json::Value::Null, |d| json!(d))
}

/// "  loaded N proven positions from FILE (S s)" on stderr, where a save
/// file held some.
fn print_loaded(session: &Session) {
    let loaded = session.loaded();
    if let (Some(path), true) = (session.path(), loaded > 0) {
        eprintln!(
            "  loaded {loaded} proven positions from {} ({:.1} s)",
            path.display(),
            session.load_seconds()
        );
    }
}

/// What a summary says of the transposition table's room: how many of
/// the stores gave up another position's entry (the bucket full), and
/// the most nodes searched below one of those, which a search that meets
/// that position again spends again. `log2_work`: the search keeps each
/// entry's work as a log2 (alpha-beta), so the nodes said are a floor.
pub(super) fn table_room(t: &TableUse, log2_work: bool) -> String {
    let (stores, replaced, max_work) = (t.stores, t.replaced, t.replaced_max_work);
    if replaced == 0 {
        return format!("no entry given up in {stores} stores (the transposition table had room)");
    }
    let floor = if log2_work { "at least " } else { "" };
    format!(
        "{replaced} of {stores} stores ({:.1}%) gave up another position's entry, the largest \
         with {floor}{max_work} nodes below it (a larger --hash-mb keeps more)",
        100.0 * replaced as f64 / stores.max(1) as f64,
    )
}

/// Progress on stderr: each settled move, the counters every tick, each
/// periodic save.
fn print_event(event: Event) {
    match event {
        Event::Move {
            mv,
            solution,
            seconds,
        } => eprintln!("  {:<6} {solution}  ({seconds:.1} s)", mv.san()),
        Event::Tick {
            stats: s,
            seconds: t,
            note,
        } => eprintln!(
            "  {t:.0} s: {} nodes ({:.2} M/s), {} table hits, {} rule leaves, {} race leaves, {} runner leaves, {} tt entries given up{note}",
            s.nodes,
            s.nodes as f64 / t / 1e6,
            s.table_hits,
            s.rule_hits,
            s.race_hits,
            s.runner_hits,
            s.table.replaced,
        ),
        Event::Saved { positions, path } => {
            eprintln!("  saved {positions} proven positions to {}", path.display())
        }
        Event::SaveFailed(e) => eprintln!("peasant: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--pn-epsilon` reads `stick`, `off` and shifts 0..31, nothing else.
    #[test]
    fn pn_epsilon_spellings() {
        let parse = setting::<PnEpsilon>;
        assert_eq!(parse("stick"), Ok(PnEpsilon::Stick));
        assert_eq!(parse("off"), Ok(PnEpsilon::Plain));
        assert_eq!(parse("0"), Ok(PnEpsilon::Shift(0)));
        assert_eq!(parse("31"), Ok(PnEpsilon::Shift(31)));
        for bad in ["32", "-1", "", "Stick", "1.5"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
