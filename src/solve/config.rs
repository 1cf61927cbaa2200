//! How the two solvers search: what both configurations share
//! ([`SearchConfig`], with the proven [`Shortcuts`] they may take), then
//! each one's own ([`SolverConfig`] for alpha-beta, [`PnConfig`] for
//! proof-number search). The settings the command line names
//! ([`PnInit`], [`PnEpsilon`]) print and parse with the same words.

use crate::rules::canonical::CanonicalRules;
use crate::rules::error::SettingError;
use crate::solve::order::{FEATURES, FEATURE_NAMES};
use std::fmt;
use std::str::FromStr;

/// Which proven shortcuts a search takes at a node instead of searching
/// below it (the rule of fact 3 is always taken). Each one is checked
/// against plain minimax (`tests/suite/race_vs_minimax.rs`,
/// `tests/suite/dead_vs_minimax.rs`, `tests/suite/bound_vs_minimax.rs`);
/// switching one off measures what it saves. No `Default`: the two solvers differ in
/// [`Shortcuts::bound`], so each configuration's default says which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shortcuts {
    /// Win/draw/loss searches: the rule of fact 3 a move ahead, for the
    /// side to move ([`crate::rules::resolve_rule_ahead`], a win) and for
    /// its opponent ([`crate::rules::resolve_opponent_rule_ahead`], a
    /// loss), instead of searching the move that reaches the
    /// second-to-last rank.
    pub rule_ahead: bool,
    /// Win/draw/loss searches: the rule of fact 3 two moves ahead
    /// ([`crate::rules::resolve_rule_two_ahead`], a win for the side to
    /// move), instead of searching the move onto the third-to-last rank.
    pub two_ahead: bool,
    /// Win/draw/loss searches: a position with an en passant right is won
    /// where the rules that prove a win for the side to move prove it for
    /// the same pawns without the right (it adds moves, never takes one
    /// away), and lost where the rules that prove a loss do and every
    /// capture en passant loses by rule too, instead of searching it.
    pub past_en_passant: bool,
    /// Win/draw/loss searches: the side to move loses where every move
    /// it has reaches a position that the rules of a win for the side to
    /// move (fact 3 and fact 3 a move and two moves ahead, the race, the
    /// free runner) call won for the opponent (asked where an opponent's
    /// pawn stands near its goal), instead of searching those moves.
    pub every_move_lost: bool,
    /// Resolve pure races by rule ([`crate::rules::resolve_race`]) instead
    /// of searching them.
    pub race: bool,
    /// Win/draw/loss searches: take a free runner
    /// ([`crate::rules::resolve_runner`]) as a win instead of searching it
    /// (never in DTM mode: the rule does not know the distance).
    pub runner: bool,
    /// Win/draw/loss searches: take the opponent's free runner
    /// ([`crate::rules::resolve_opponent_runner`]) as a loss for the side
    /// to move instead of searching it (never in DTM mode).
    pub opponent_runner: bool,
    /// Take dead positions ([`crate::rules::is_dead`]: no capture and no
    /// promotion can ever happen) as draws instead of searching them.
    pub dead: bool,
    /// The one-sided bound ([`crate::rules::may_win`]): a side to move
    /// that can never win scores at most a draw. Alpha-beta answers "does
    /// it win?" no at once, narrows a wider window to "does it avoid
    /// losing?" and scores a draw if its opponent can never win either;
    /// proof-number search disproves such a node when the side to move is
    /// the attacker (off in [`PnConfig::default`]: it changes the proof
    /// numbers' course more than it saves, pawn game 7x7 10.85 M -> 10.17 M
    /// nodes, Peasants' Chess 4x8 2.75 M -> 3.14 M).
    pub bound: bool,
    /// Proof-number search: a defender to move that can leave the attacker
    /// without a move ([`crate::rules::stalemates_at_once`], fact 7) has
    /// reached its goal, a draw at least, before its moves are searched,
    /// and an attacker to move each of whose moves lets the defender do so
    /// ([`crate::rules::stalemated_after_any_move`]) has failed (on
    /// Peasants' Chess 3% to 6% fewer nodes for the first, 4% to 7% for
    /// the second).
    pub stalemate: bool,
}

impl Shortcuts {
    /// Every shortcut.
    pub const ALL: Shortcuts = Shortcuts {
        rule_ahead: true,
        two_ahead: true,
        past_en_passant: true,
        every_move_lost: true,
        race: true,
        runner: true,
        opponent_runner: true,
        dead: true,
        bound: true,
        stalemate: true,
    };
    /// None: the search finds every value itself.
    pub const NONE: Shortcuts = Shortcuts {
        rule_ahead: false,
        two_ahead: false,
        past_en_passant: false,
        every_move_lost: false,
        race: false,
        runner: false,
        opponent_runner: false,
        dead: false,
        bound: false,
        stalemate: false,
    };
}

/// What the configurations of both solvers hold: the
/// transposition table's size, the canonical forms, the threads, the node
/// budget and the shortcuts. No `Default`: start from a solver's
/// (`SolverConfig::default().search`, `PnConfig::default().search`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Size of the transposition table in MiB (proof-number search: 0 is
    /// one bucket of four entries, to test that the search stays right
    /// whatever is replaced).
    pub hash_mb: usize,
    /// Which canonical-form rules to apply at every node.
    pub canonical: CanonicalRules,
    /// Threads for the root moves, sharing the transposition table (0:
    /// rayon's default, all cores).
    pub threads: usize,
    /// Stop with [`super::SolveError::Stopped`] after about this many
    /// nodes (exactly, on one thread): to interrupt a long solve and
    /// resume it later.
    pub max_nodes: Option<u64>,
    /// The proven shortcuts the search takes.
    pub shortcuts: Shortcuts,
}

/// How the alpha-beta solver ([`super::Solver`]) searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverConfig {
    /// What both solvers' configurations hold.
    pub search: SearchConfig,
    /// Exact values with DTM instead of win/draw/loss only.
    pub dtm: bool,
    /// Order moves (table move, immediate wins, killers, captures, most
    /// advanced first) instead of taking them as generated.
    pub ordering: bool,
    /// Enhanced transposition cutoff: look up every child in the
    /// transposition table before searching any.
    pub etc: bool,
    /// Win/draw/loss mode: search each root move with two null windows
    /// ("a win?", then "at least a draw?") instead of the full one.
    pub null_window: bool,
    /// With `ordering`: try moves whose pawn lands where no enemy pawn
    /// attacks it a little earlier (worth a few ranks of advance).
    pub safe_landing: bool,
    /// With several threads on one question (`search.threads` > 1 and a
    /// value only or one question): at nodes fewer than this many plies
    /// below the root, a thread puts off each move but the first that
    /// another thread is searching, and comes back to it after the others
    /// (ABDADA); 0: never, the threads follow one another (to measure).
    pub defer_plies: usize,
    /// With several threads on one question: they take turns of about
    /// this many nodes, one at a time in a fixed order, so that the search
    /// is the same on any machine and its makespan (the nodes of the
    /// thread that finished, which sixteen cores would search side by
    /// side) can be measured on two ([`super::Solver::makespan`]).
    pub turns: Option<u64>,
}

/// How deep threads on one alpha-beta question put off the moves other
/// threads search ([`SolverConfig::defer_plies`]).
pub const DEFER_PLIES: usize = 64;

impl Default for SolverConfig {
    fn default() -> SolverConfig {
        SolverConfig {
            search: SearchConfig {
                hash_mb: 64,
                canonical: CanonicalRules::ALL,
                threads: 1,
                max_nodes: None,
                shortcuts: Shortcuts::ALL,
            },
            dtm: false,
            ordering: true,
            etc: true,
            null_window: false,
            safe_landing: true,
            defer_plies: DEFER_PLIES,
            turns: None,
        }
    }
}

/// How the proof-number solver ([`super::PnSolver`]) searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PnConfig {
    /// What both solvers' configurations hold.
    pub search: SearchConfig,
    /// How unsearched children's numbers start.
    pub init: PnInit,
    /// How far the best child is searched before the node looks again.
    pub epsilon: PnEpsilon,
    /// Weak proof numbers (Ueda et al. 2008): δ = the largest φ of the
    /// children plus one for each other unsolved child, instead of the sum,
    /// which counts a subtree shared by transpositions once per path.
    pub weak: bool,
    /// With several threads on one question (`search.threads` > 1 and
    /// one position's value): each thread steers away from the children
    /// the others are in (virtual proof numbers). Off only to measure what
    /// it is worth.
    pub spread: bool,
    /// With [`PnConfig::spread`]: the threads steer away from one another
    /// at every node. Off (the default): only at a node one of whose
    /// moves has already failed for its mover, where the proof likely
    /// needs every move searched; elsewhere the threads go where one
    /// thread would, where its first good move is likely all that is
    /// needed. On only to measure what that is worth.
    pub spread_every: bool,
    /// With [`PnConfig::spread`]: the threads steer away from one another
    /// also at every node of the attacker (the side that must win the
    /// question the team asks), betting that it fails, as it does in both
    /// questions of a draw. Off by default; on only to measure
    /// (docs/SCALING.md: sixteen emulated threads gain on Peasants' Chess
    /// 6x7, 5x8 and 6x8-d and lose a sixth on Pawn Race d:d).
    pub spread_attacker: bool,
    /// A search on one thread reads the transposition table without
    /// taking a bucket's lock (a seqlock read; threads of one question
    /// always lock). Off only to measure what it is worth.
    pub lock_free_reads: bool,
    /// Solvers of one thread on one shared table
    /// ([`super::PnSolver::with_tt`], the proof manager's local workers)
    /// search as one team: each job's search sees the nodes the other
    /// jobs' searches are in and steers away from them, as threads on one
    /// question do, and goes back where another has solved a node above
    /// it. Off by default here; `prove` turns it on from eight workers on
    /// one table (`--pn-spread-jobs` and `--pn-no-spread-jobs` choose, to
    /// measure).
    pub spread_jobs: bool,
    /// With several threads on one question: they take turns of about
    /// this many nodes, one at a time in a fixed order, each round's turns
    /// kept apart, as [`SolverConfig::turns`] does for alpha-beta: the
    /// same search on any machine, whose makespan
    /// ([`super::PnSolver::makespan`]) two cores can measure.
    pub turns: Option<u64>,
}

impl Default for PnConfig {
    fn default() -> PnConfig {
        PnConfig {
            search: SearchConfig {
                hash_mb: 64,
                canonical: CanonicalRules::ALL,
                threads: 1,
                max_nodes: None,
                shortcuts: Shortcuts {
                    bound: false,
                    ..Shortcuts::ALL
                },
            },
            init: PnInit::Guided,
            epsilon: PnEpsilon::Stick,
            weak: false,
            spread: true,
            spread_every: false,
            spread_attacker: false,
            lock_free_reads: true,
            spread_jobs: false,
            turns: None,
        }
    }
}

/// How a child's numbers start before it is searched. Written `one`,
/// `mobility`, `guided`, `tuned`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PnInit {
    /// φ = δ = 1.
    One,
    /// φ = 1, δ = its number of legal moves (each must be refuted).
    Mobility,
    /// φ = 1, δ = its number of legal moves plus the cost of the move
    /// that led to it as a guess: one per rank it stops short of the far
    /// edge, one if an enemy pawn attacks the square it lands on, one if
    /// it is not a double step, 128 if it captures nothing. With
    /// [`PnEpsilon::Stick`] the search is depth-first (see there), so these
    /// numbers are the order in which a side tries its moves; mobility
    /// alone ignores what the move is and leaves ties to the list's order.
    /// Peasants' Chess 5x8 value-only: 123 M nodes with
    /// [`PnInit::Mobility`], 71 M with this.
    Guided,
    /// The guided numbers with the move's cost tuned on the questions of
    /// Peasants' Chess 6x8's and 5x8's own searches (docs/SOLVE.md, "A
    /// perfect move order"): one more per rank it stops short, per reply
    /// and if it is not a double step, three less if the moved pawn is
    /// then passed and three less if it lands defended (`tuned_cost` in
    /// src/solve/order.rs). Against the guided order, value-only: the
    /// eight 6x8 questions of `tools/shrink_bench.sh` 0.85 of the nodes
    /// (0.77 to 1.02 each), 5x8 0.81, 6x7 0.90, the pawn game 7x7 0.96,
    /// Pawn Race 8x8 d:d 1.31. Not the default (`solve --pn-init tuned`,
    /// `prove --pn-init tuned`).
    Tuned,
    /// The guided numbers with weights on the move's features
    /// ([`crate::solve::move_features`], in [`FEATURE_NAMES`]' order) added
    /// to its cost, never below 0: an order to measure without a build of
    /// its own, as the tuned order's weights were found. Written
    /// `weights:NAME=N,...` (a feature not named weighs 0; `weights:`
    /// alone is the guided order). The tuned order is
    /// `weights:ranks_short=1,single_step=1,replies=1,passed=-3,defended=-3`,
    /// to the node; a node costs more (every feature of every move is
    /// computed).
    Weights([i8; FEATURES]),
}

impl fmt::Display for PnInit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PnInit::One => "one",
            PnInit::Mobility => "mobility",
            PnInit::Guided => "guided",
            PnInit::Tuned => "tuned",
            PnInit::Weights(w) => {
                f.write_str("weights:")?;
                let named: Vec<String> = FEATURE_NAMES
                    .iter()
                    .zip(w)
                    .filter(|&(_, &x)| x != 0)
                    .map(|(name, x)| format!("{name}={x}"))
                    .collect();
                return f.write_str(&named.join(","));
            }
        })
    }
}

impl FromStr for PnInit {
    type Err = SettingError;

    fn from_str(text: &str) -> Result<PnInit, SettingError> {
        // The features named from FEATURE_NAMES itself, once.
        static EXPECTED: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let expected = EXPECTED.get_or_init(|| {
            format!(
                "guided, mobility, one, tuned or weights:NAME=N,... (NAME a move feature: {}; \
                 N from -128 to 127; each NAME once)",
                FEATURE_NAMES.join(", ")
            )
        });
        match text {
            "guided" => Ok(PnInit::Guided),
            "mobility" => Ok(PnInit::Mobility),
            "one" => Ok(PnInit::One),
            "tuned" => Ok(PnInit::Tuned),
            _ => {
                let bad = || SettingError { expected };
                let list = text.strip_prefix("weights:").ok_or_else(bad)?;
                let mut w = [0i8; FEATURES];
                let mut named = [false; FEATURES];
                for item in list.split(',').filter(|x| !x.is_empty()) {
                    let (name, n) = item.split_once('=').ok_or_else(bad)?;
                    let i = FEATURE_NAMES
                        .iter()
                        .position(|&f| f == name)
                        .ok_or_else(bad)?;
                    if named[i] {
                        return Err(bad());
                    }
                    named[i] = true;
                    w[i] = n.parse().map_err(|_| bad())?;
                }
                Ok(PnInit::Weights(w))
            }
        }
    }
}

/// How long df-pn searches the best child before the node compares its
/// children again: until the child's δ passes the second best's (plain
/// df-pn: by one; the 1+ε trick of Pawlewicz and Lew: by a factor), or
/// until the node's own threshold. Written `off`, the shift (`0` to `31`)
/// or `stick`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PnEpsilon {
    /// Plain df-pn: until the best child's δ passes the second best's by
    /// one.
    Plain,
    /// The 1+ε trick with ε = 2^-shift (a shift below 32): until the best
    /// child's δ passes the second best's by a factor of `1 + 2^-shift`.
    Shift(u32),
    /// The best child keeps the search until the node's own threshold is
    /// reached, however far its δ passes the second best's (the 1+ε trick
    /// with ε unbounded): a side that needs one good move commits to the
    /// one it chose instead of turning to another that looks as good. In
    /// the proofs the search finds, most moves of such a side are good
    /// (`examples/proof_choices.rs`: 4.2 of 4.9 on Peasants' Chess 4x8),
    /// so turning between them is where the nodes went. As a question
    /// starts with infinite thresholds, a child then comes back only once
    /// solved (or when the budget runs out): the search is depth-first,
    /// and the children's numbers ([`PnConfig::init`]) are the order in
    /// which each side tries its moves.
    Stick,
}

impl fmt::Display for PnEpsilon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PnEpsilon::Plain => f.write_str("off"),
            PnEpsilon::Shift(s) => write!(f, "{s}"),
            PnEpsilon::Stick => f.write_str("stick"),
        }
    }
}

impl FromStr for PnEpsilon {
    type Err = SettingError;

    fn from_str(text: &str) -> Result<PnEpsilon, SettingError> {
        match text {
            "stick" => Ok(PnEpsilon::Stick),
            "off" => Ok(PnEpsilon::Plain),
            _ => text
                .parse::<u32>()
                .ok()
                .filter(|&s| s < 32)
                .map(PnEpsilon::Shift)
                .ok_or(SettingError {
                    expected: "stick, off or a shift 0..31",
                }),
        }
    }
}

/// Which search solves: alpha-beta or proof-number search. Written `ab`
/// and `pn`, as the command line's `--method` takes them. `Default` is
/// alpha-beta, the library configurations' search (their node counts are
/// pinned by tests); `peasant solve` and `peasant prove` choose by
/// [`Method::default_for`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// Alpha-beta ([`crate::solve::Solver`]): exact values, with distances
    /// to mate when asked.
    #[default]
    AlphaBeta,
    /// Proof-number search ([`crate::solve::PnSolver`]): win/draw/loss
    /// only, in fewer nodes on every game measured.
    ProofNumber,
}

impl Method {
    /// The search `peasant solve` and `peasant prove` run when `--method`
    /// is not given: alpha-beta when distances to mate are asked (`dtm`:
    /// proof-number search answers win/draw/loss only), proof-number
    /// search otherwise.
    ///
    /// The rule is what was measured: proof-number search needs fewer
    /// nodes on every game family, for the value alone (`--value-only`)
    /// and for every first move's value, and though each of its nodes
    /// costs more (about twice alpha-beta's), it is faster everywhere a
    /// solve takes more than a second. One thread, 256 MiB, alpha-beta ->
    /// proof-number nodes, value only / every move (docs/SOLVE.md has
    /// the commands and the times):
    ///
    /// - Peasants' Chess 4x8: 5,959,768 -> 853,273 / 5,605,526 -> 922,689;
    ///   5x8 (4096 MiB): 700,937,015 -> 71,468,085 (8 min -> 87 s).
    /// - The pawn game 7x7: 10,641,146 -> 1,574,579 / 18,377,037 ->
    ///   3,215,369; without en passant 12,242,328 -> 2,221,927 /
    ///   19,770,688 -> 4,574,109; 8x8 after 1.g4 h6 2.f4 a5 (a win,
    ///   1024 MiB): 72,828,715 -> 10,534,893.
    /// - Pawn Race 8x8 (1024 MiB) c:c 54,512,915 -> 13,786,447 /
    ///   59,762,172 -> 12,857,184, d:d 34,485,556 -> 8,720,065 /
    ///   59,802,618 -> 14,271,092; every gap pair of 6x6 and 7x7, summed:
    ///   6x6 307,015 -> 133,869 / 500,783 -> 197,678, 7x7 24,971,146 ->
    ///   6,708,379 / 58,428,408 -> 14,977,144 (fewer on each pair).
    ///
    /// The one exception is too small to time: the pawn game 6x6 without
    /// en passant, value only, 15,450 -> 15,589 nodes.
    pub fn default_for(dtm: bool) -> Method {
        if dtm {
            Method::AlphaBeta
        } else {
            Method::ProofNumber
        }
    }

    /// The search's name for people: "alpha-beta", "proof-number search".
    pub fn name(self) -> &'static str {
        match self {
            Method::AlphaBeta => "alpha-beta",
            Method::ProofNumber => "proof-number search",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Method::AlphaBeta => "ab",
            Method::ProofNumber => "pn",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse::test_position;
    use crate::rules::position::Position;

    #[test]
    fn settings_print_as_they_parse() {
        for name in ["one", "mobility", "guided", "tuned"] {
            assert_eq!(name.parse::<PnInit>().unwrap().to_string(), name);
        }
        for name in ["off", "stick", "0", "1", "31"] {
            assert_eq!(name.parse::<PnEpsilon>().unwrap().to_string(), name);
        }
        assert_eq!("5".parse::<PnEpsilon>(), Ok(PnEpsilon::Shift(5)));
        for bad in ["32", "-1", "", "Stick", "1.5"] {
            let e = bad.parse::<PnEpsilon>().unwrap_err();
            assert_eq!(e.to_string(), "expected stick, off or a shift 0..31");
        }
        let e = "two".parse::<PnInit>().unwrap_err();
        assert!(e
            .to_string()
            .starts_with("expected guided, mobility, one, tuned or weights:"));
    }

    /// Weights on the move features: named in any order, each once, the
    /// rest 0; printed in the features' order without the zeros, and the
    /// message for a bad one names every feature.
    #[test]
    fn weights_print_as_they_parse() {
        let text = "weights:replies=1,ranks_short=-2,from_rank=127";
        let PnInit::Weights(w) = text.parse::<PnInit>().unwrap() else {
            panic!("{text}: not weights");
        };
        let mut want = [0i8; FEATURES];
        want[FEATURE_NAMES.iter().position(|&f| f == "replies").unwrap()] = 1;
        want[FEATURE_NAMES
            .iter()
            .position(|&f| f == "ranks_short")
            .unwrap()] = -2;
        want[FEATURES - 1] = 127;
        assert_eq!(w, want);
        assert_eq!(
            PnInit::Weights(w).to_string(),
            "weights:ranks_short=-2,replies=1,from_rank=127"
        );
        for text in [
            "weights:",
            "weights:capture=-128",
            "weights:passed=-3,defended=-3",
        ] {
            assert_eq!(text.parse::<PnInit>().unwrap().to_string(), text);
        }
        assert_eq!(
            "weights:".parse::<PnInit>(),
            Ok(PnInit::Weights([0; FEATURES]))
        );
        for bad in [
            "weights",
            "weights:replies",
            "weights:replies=",
            "weights:replies=x",
            "weights:replies=128",
            "weights:replies=1,replies=2",
            "weights:mobility=1",
            "weights:Replies=1",
            "weight:replies=1",
        ] {
            let e = bad.parse::<PnInit>().unwrap_err().to_string();
            for name in FEATURE_NAMES {
                assert!(e.contains(name), "{bad}: {e} lacks {name}");
            }
        }
    }

    /// Distances to mate are alpha-beta's alone; every other question goes
    /// to proof-number search.
    #[test]
    fn default_method_rule() {
        assert_eq!(Method::default_for(true), Method::AlphaBeta);
        assert_eq!(Method::default_for(false), Method::ProofNumber);
    }

    /// The nodes a fresh solver of `method` (16 MiB) needs for `pos`: its
    /// value alone, or every move's value.
    fn solve_nodes(method: Method, pos: &Position, value_only: bool) -> u64 {
        use crate::solve::{PnSolver, Solve, Solver};
        let ab = SolverConfig::default();
        let pn = PnConfig::default();
        let (ab_search, pn_search) = (
            SearchConfig {
                hash_mb: 16,
                ..ab.search
            },
            SearchConfig {
                hash_mb: 16,
                ..pn.search
            },
        );
        let solver: Box<dyn Solve> = match method {
            Method::AlphaBeta => Box::new(
                Solver::new(
                    SolverConfig {
                        search: ab_search,
                        ..ab
                    },
                    None,
                )
                .unwrap(),
            ),
            Method::ProofNumber => Box::new(
                PnSolver::new(
                    PnConfig {
                        search: pn_search,
                        ..pn
                    },
                    None,
                )
                .unwrap(),
            ),
        };
        let none = |_, _| {};
        match value_only {
            true => solver.solve_value(pos, &none),
            false => solver.solve_root(pos, &none),
        }
        .unwrap();
        solver.stats().nodes
    }

    /// The rule against the two searches: on a board of each game family,
    /// for the value alone and for every first move's value, the search
    /// [`Method::default_for`] picks (win/draw/loss) needs fewer nodes than
    /// the other (the measurements behind the rule, in small). A rule that
    /// gives any of these games to alpha-beta fails here.
    #[test]
    fn default_method_is_the_cheaper_search_on_each_family() {
        let chosen = Method::default_for(false);
        let other = match chosen {
            Method::AlphaBeta => Method::ProofNumber,
            Method::ProofNumber => Method::AlphaBeta,
        };
        for (setup, board) in [
            ("peasants", "3x8"),
            ("pawngame", "6x6"),
            ("pawnrace:a:d", "6x6"),
        ] {
            let pos = test_position(setup, board);
            for value_only in [true, false] {
                let c = solve_nodes(chosen, &pos, value_only);
                let o = solve_nodes(other, &pos, value_only);
                assert!(
                    c < o,
                    "{setup} {board}, value only {value_only}: {chosen} {c} nodes, {other} {o}"
                );
            }
        }
    }

    #[test]
    fn defaults_differ_only_in_the_bound() {
        let (ab, pn) = (SolverConfig::default().search, PnConfig::default().search);
        assert!(ab.shortcuts.bound && !pn.shortcuts.bound);
        // (The stalemate at once is the proof-number search's alone:
        // alpha-beta's "all" names it without using it.)
        assert!(ab.shortcuts.stalemate && pn.shortcuts.stalemate);
        let bound = Shortcuts {
            bound: true,
            ..pn.shortcuts
        };
        assert_eq!(
            ab,
            SearchConfig {
                shortcuts: bound,
                ..pn
            }
        );
    }
}
