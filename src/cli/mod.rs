//! Argument parsing and the shared parts of every command: the variant
//! options, `--json`, and the rule that bad input gets one line on stderr and
//! exit status 2.

mod book;
mod gen;
mod perft;
mod play;
mod probe;
mod progress;
mod prove;
mod serve;
mod show;
pub mod signals;
mod solve;
mod verify;

use clap::{Args, Parser, Subcommand, ValueEnum};
use peasant::rules::{parse_position, Board, Position, Rules};
use peasant::solve::Method;

// The exit statuses of every command, here only.

/// Exit status of a command that did what it was asked.
pub const EXIT_SUCCESS: i32 = 0;
/// Exit status for a failure that is not the user's input (I/O, damaged
/// tables, a save that failed).
pub const EXIT_FAILURE: i32 = 1;
/// Exit status for bad input (arguments, position text, move text).
pub const EXIT_BAD_INPUT: i32 = 2;
/// Exit status of a run stopped by its budget (`solve --max-nodes`,
/// `prove --max-jobs` or `--max-seconds`): what it proved is kept, and
/// the same command resumes.
pub const EXIT_STOPPED: i32 = 3;
/// Exit status of a run stopped by Ctrl-C (128 + SIGINT, as shells give),
/// or by SIGTERM or SIGHUP, which `prove` and `solve` take as Ctrl-C.
pub const EXIT_INTERRUPTED: i32 = 130;

#[derive(Parser, Debug)]
#[command(
    name = "peasant",
    version,
    about = "Solves pawn-only chess games exactly: Peasants' Chess, the pawn game, Pawn Race",
    long_about = None
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Options that every command takes.
#[derive(Args, Debug, Clone)]
pub struct GlobalArgs {
    /// Board size WxH (1..8 files, 4..8 ranks) for setup names; a position
    /// text has its own size, which this must then match.
    #[arg(long, global = true, value_name = "WxH")]
    pub board: Option<String>,
    /// Play without en passant captures.
    #[arg(long, global = true)]
    pub no_en_passant: bool,
    /// Moving a pawn onto its second-to-last rank wins at once (not the real rules).
    #[arg(long, global = true)]
    pub seventh_rank_wins: bool,
    /// Print one JSON object instead of text for people.
    #[arg(long, global = true)]
    pub json: bool,
}

impl GlobalArgs {
    pub fn rules(&self) -> Rules {
        Rules {
            en_passant: !self.no_en_passant,
            seventh_rank_wins: self.seventh_rank_wins,
        }
    }

    pub fn board(&self) -> Result<Option<Board>, CliError> {
        self.board
            .as_deref()
            .map(|b| b.parse::<Board>().map_err(CliError::input))
            .transpose()
    }

    /// Reads a `<POS>` argument: a setup name or a position text.
    pub fn position(&self, text: &str) -> Result<Position, CliError> {
        parse_position(text, self.board()?, self.rules()).map_err(CliError::input)
    }
}

// One value a process, parsed once: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the move sequences of DEPTH plies (a move generator check).
    Perft(perft::PerftArgs),
    /// Show a position: the board, the side to move, its legal moves.
    Show(show::ShowArgs),
    /// Generate win/draw/loss and DTM tables by retrograde analysis.
    Gen(gen::GenArgs),
    /// Look a position up in the tables: its value and every move's.
    Probe(probe::ProbeArgs),
    /// Solve a position by search (tables at the leaves where they exist):
    /// its value, every move's value and a line of perfect play.
    Solve(solve::SolveArgs),
    /// Check the tables against the search on random reachable positions.
    Verify(verify::VerifyArgs),
    /// Play against perfect play in the terminal, or speak the Pawn Race protocol.
    Play(play::PlayArgs),
    /// Serve the HTTP API and the explorer page.
    Serve(serve::ServeArgs),
    /// Prove a position's value with jobs farmed to workers, logged durably
    /// in a proof directory (resumable, mergeable, checkable).
    Prove(prove::ProveArgs),
    /// Build a book of proven winning moves for the side that wins each
    /// position, or check one.
    Book(book::BookArgs),
}

/// A command's failure: what to print and which exit status to give.
#[derive(Debug)]
pub struct CliError {
    pub message: String,
    pub status: i32,
}

impl CliError {
    /// The user's input is wrong (exit status 2).
    pub fn input(e: impl std::fmt::Display) -> CliError {
        CliError {
            message: e.to_string(),
            status: EXIT_BAD_INPUT,
        }
    }

    /// Something else went wrong (exit status 1).
    pub fn failure(e: impl std::fmt::Display) -> CliError {
        CliError {
            message: e.to_string(),
            status: EXIT_FAILURE,
        }
    }
}

/// Prints a JSON value on one line of stdout.
pub fn print_json(value: &serde_json::Value) {
    println!("{value}");
}

/// The command-line flags that select `variant`, for messages.
pub fn variant_flags(variant: peasant::rules::Variant) -> String {
    let mut s = format!("--board {}", variant.board);
    if !variant.rules.en_passant {
        s.push_str(" --no-en-passant");
    }
    if variant.rules.seventh_rank_wins {
        s.push_str(" --seventh-rank-wins");
    }
    s
}

/// Parses the process arguments, runs the command and returns the exit status.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return refuse_arguments(&e),
    };
    let result = match &cli.command {
        Command::Perft(args) => args.run(&cli.global),
        Command::Show(args) => args.run(&cli.global),
        Command::Gen(args) => args.run(&cli.global),
        Command::Probe(args) => args.run(&cli.global),
        Command::Solve(args) => args.run(&cli.global),
        Command::Verify(args) => args.run(&cli.global),
        Command::Play(args) => args.run(&cli.global),
        Command::Serve(args) => args.run(&cli.global),
        Command::Prove(args) => args.run(&cli.global),
        Command::Book(args) => args.run(&cli.global),
    };
    match result {
        Ok(()) => EXIT_SUCCESS,
        Err(e) => {
            eprintln!("peasant: {}", e.message);
            e.status
        }
    }
}

/// What clap could not parse: help and version are printed as they are
/// (status 0, or 2 for the help shown when a subcommand is missing); an
/// error becomes one line on stderr, status 2.
fn refuse_arguments(e: &clap::Error) -> i32 {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            return EXIT_SUCCESS;
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            return EXIT_BAD_INPUT;
        }
        _ => {}
    }
    eprintln!("peasant: {} (see peasant --help)", one_line(&e.to_string()));
    EXIT_BAD_INPUT
}

/// clap's message in one line: it spans several (the problem, sometimes a
/// list, then usage and tips), of which what comes before the usage is
/// joined.
fn one_line(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| {
            !l.starts_with("Usage:")
                && !l.starts_with("tip:")
                && !l.starts_with("For more information")
        })
        .filter(|l| !l.is_empty())
        .collect();
    let message = lines.join(" ");
    match message.strip_prefix("error: ").unwrap_or(&message) {
        "" => "bad arguments".to_string(),
        m => m.to_string(),
    }
}

/// `--method`: the search of `solve` and of `prove`'s workers
/// ([`peasant::solve::Method`], spelt as its `Display` spells it; without
/// the flag, [`peasant::solve::Method::default_for`] chooses). The
/// variants have no doc comments: clap would list them in `--help` and
/// switch it to its long form (`--method`'s own text names them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MethodArg {
    // Alpha-beta.
    Ab,
    // Proof-number search.
    Pn,
}

impl From<MethodArg> for Method {
    fn from(m: MethodArg) -> Method {
        match m {
            MethodArg::Ab => Method::AlphaBeta,
            MethodArg::Pn => Method::ProofNumber,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each `--method` value is the method's own spelling.
    #[test]
    fn method_flags_are_the_methods_spellings() {
        for m in MethodArg::value_variants() {
            let value = m.to_possible_value().expect("no method is skipped");
            assert_eq!(Method::from(*m).to_string(), value.get_name());
        }
        assert_eq!(MethodArg::value_variants().len(), 2);
    }
}
