//! How small the proof-number search's proofs could be with a perfect move
//! order: solves a position's value by the search (its nodes), then values
//! every position below it by minimax ([`ProofOracle`]) and prints, for
//! each answer that makes the value, the least expansions of its proof (as
//! a tree, and as distinct positions when each side that needs one good
//! move takes the one with the smallest proof) and the distinct positions
//! of the proof that takes, instead, the first good move in the search's
//! own guided order. Small boards only: it holds every position below the
//! question in memory.
//!
//! With `--dump FILE` first, it also writes every position of the two
//! choosers' proofs where the side to move needs one good move (and none
//! is settled at once) to FILE, one line a move, tab-separated: the board,
//! the position's number, whether the move is good, whether it is one of
//! the cheapest good moves, log2 of one plus its child's least proof (of
//! failing where the move is good, of reaching its goal where it is not:
//! what trying it costs), its starting δ in the
//! guided order, then [`move_features`] in [`FEATURE_NAMES`]' order (a
//! header line names the columns): the data a learned move order is
//! fitted to.
//!
//! With `--heaviest K LO HI` first, it solves the position and prints
//! instead K positions (as FEN, spread evenly) of its transposition table
//! whose solved entries have between LO and HI nodes of work below them:
//! questions the search met inside a big board's proof, small enough to
//! ask the oracle about. `--max-nodes N` after LO HI stops the search
//! after N nodes and prints what its table holds then: questions of a
//! board too big to solve whole (7x8's, to measure a move order on).
//!
//! With `--descend PLIES SEED` first, it asks instead about the position
//! that many random moves below POSITION (SplitMix64 from SEED). It gives
//! up past 40 million positions (some 11 GB).
//!
//!     cargo run --release --example proof_oracle -- 4x7 peasants
//!     cargo run --release --example proof_oracle -- --dump 4x7.tsv 4x7 peasants
//!     cargo run --release --example proof_oracle -- --descend 16 1 6x8 peasants
//!     cargo run --release --example proof_oracle -- --heaviest 20 10000 100000 5x8 peasants 4096
//!     cargo run --release --example proof_oracle -- --heaviest 20 1000000 20000000 --max-nodes 200000000 7x8 peasants 6144
//!     ([--dump FILE | --descend PLIES SEED | --heaviest K LO HI [--max-nodes N]] BOARD POSITION
//!     [HASH_MB, default 256 [guided|mobility|epsilon]])

use peasant::rules::{notation, position_from_key, Position, Wdl};
use peasant::solve::PnSolver;
use peasant::solve::{
    move_features, Choice, Chooser, ProofOracle, Question, SolveError, FEATURE_NAMES,
};
use peasant::SplitMix64;
use std::collections::HashSet;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

mod proof_args;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Valuing recurses once a ply: a deep game needs a deep stack.
    let run = std::thread::Builder::new()
        .stack_size(1 << 28)
        .spawn(move || run(&args))
        .expect("a thread to value on");
    match run.join().expect("the valuing thread") {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("proof_oracle: {e}");
            ExitCode::from(2)
        }
    }
}

/// Prints `k` positions (FEN, spread evenly) of the solver's table whose
/// solved entries have `work` nodes below them, of the variant of `pos`.
fn print_heaviest(solver: &PnSolver, pos: &Position, k: u64, work: std::ops::RangeInclusive<u64>) {
    let mut keys: Vec<u128> = solver
        .heaviest(1 << 22)
        .into_iter()
        .filter(|e| (e.phi == 0 || e.delta == 0) && work.contains(&u64::from(e.work)))
        // Both questions about a position: the position once.
        .map(|e| e.key & !1)
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let step = (keys.len() as u64 / k.max(1)).max(1) as usize;
    for &key in keys.iter().step_by(step).take(k as usize) {
        let p = position_from_key(key, pos.variant());
        println!("{}", notation::write(&p.to_setup()));
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let number = |s: &String| s.parse::<u64>().map_err(|_| format!("{s}: not a number"));
    let (mut dump, mut descend, mut heaviest, mut max_nodes) = (None, None, None, None);
    let args = match args {
        [flag, file, rest @ ..] if flag == "--dump" => {
            dump = Some(file.clone());
            rest
        }
        [flag, plies, seed, rest @ ..] if flag == "--descend" => {
            descend = Some((number(plies)?, number(seed)?));
            rest
        }
        [flag, k, lo, hi, rest @ ..] if flag == "--heaviest" => {
            heaviest = Some((number(k)?, number(lo)?, number(hi)?));
            match rest {
                [flag, n, rest @ ..] if flag == "--max-nodes" => {
                    max_nodes = Some(number(n)?);
                    rest
                }
                _ => rest,
            }
        }
        _ => args,
    };
    let (pos, solver) = proof_args::position_and_capped_solver("proof_oracle", args, max_nodes)?;
    let pos = match descend {
        None => pos,
        Some((plies, seed)) => {
            let mut rng = SplitMix64::new(seed);
            let mut p = pos;
            for _ in 0..plies {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let next = p.play(moves[rng.index(moves.len())]);
                if next.is_game_over() {
                    break;
                }
                p = next;
            }
            println!("position: {}", notation::write(&p.to_setup()));
            p
        }
    };
    // Some 11 GB of positions.
    let limit = 40_000_000;
    let value = solver.wdl(&pos);
    let searched = solver.stats().nodes;
    if let Some((k, lo, hi)) = heaviest {
        match value {
            Ok(v) => eprintln!("value: {v:?}, searched {searched} nodes"),
            Err(SolveError::Stopped) if max_nodes.is_some() => {
                eprintln!("stopped unsolved at {searched} nodes")
            }
            Err(e) => return Err(e.to_string()),
        }
        print_heaviest(&solver, &pos, k, lo..=hi);
        return Ok(());
    }
    let value = value.map_err(|e| e.to_string())?;
    let questions: &[Question] = match value {
        Wdl::Win => &[Question::Wins],
        Wdl::Loss => &[Question::AvoidsLoss],
        Wdl::Draw => &[Question::Wins, Question::AvoidsLoss],
    };
    println!("value: {value:?}, searched {searched} nodes");
    let mut oracle = ProofOracle::new(&solver).with_limit(limit);
    let (mut least, mut guided) = (0, 0);
    for &q in questions {
        let r = oracle.report(&pos, q).map_err(|e| match e {
            SolveError::Stopped => format!("more than {limit} positions below it"),
            e => e.to_string(),
        })?;
        least += r.cheapest;
        guided += r.guided;
        println!(
            "{q:?}: reaches {}; least proof {:.0} expansions as a tree, {} distinct; \
             guided first good moves {} distinct ({:.0} as a tree); \
             the guided first good move is a cheapest one at {} of {} choices ({:.1}%)",
            r.reaches,
            r.tree,
            r.cheapest,
            r.guided,
            r.guided_tree,
            r.guided_cheapest,
            r.choices,
            100.0 * r.guided_cheapest as f64 / r.choices.max(1) as f64
        );
    }
    if let Some(file) = dump {
        let mut out = std::io::BufWriter::new(
            std::fs::File::create(&file).map_err(|e| format!("{file}: {e}"))?,
        );
        let mut text = String::from("board\tnode\tgood\tcheapest\tlog2_size\tstart");
        for name in FEATURE_NAMES {
            text += &format!("\t{name}");
        }
        text.push('\n');
        let board = &args[0];
        let mut seen = HashSet::new();
        let mut rows = 0;
        for &q in questions {
            for chooser in [Chooser::Cheapest, Chooser::Guided] {
                oracle
                    .choices_in(&pos, q, chooser, &mut |c: &Choice| {
                        if c.moves.iter().any(|m| m.good && m.settled)
                            || !seen.insert((c.pos, q == Question::Wins))
                        {
                            return;
                        }
                        let least = c
                            .moves
                            .iter()
                            .filter(|m| m.good)
                            .map(|m| m.size)
                            .fold(f64::INFINITY, f64::min);
                        for m in &c.moves {
                            let log2 = (1.0 + m.size).log2();
                            text += &format!(
                                "{board}\t{}\t{}\t{}\t{log2:.3}\t{}",
                                seen.len(),
                                m.good as u8,
                                (m.good && m.size == least) as u8,
                                m.start
                            );
                            for f in move_features(&c.pos, m.mv) {
                                text += &format!("\t{f}");
                            }
                            text.push('\n');
                            rows += 1;
                        }
                    })
                    .map_err(|e| e.to_string())?;
                out.write_all(text.as_bytes())
                    .map_err(|e| format!("{file}: {e}"))?;
                text.clear();
            }
        }
        out.flush().map_err(|e| format!("{file}: {e}"))?;
        println!("{} positions, {rows} moves written to {file}", seen.len());
    }
    // The search again, its moves ordered by what the oracle knows: their
    // values alone, then their values and least proofs.
    for (by_size, what) in [(false, "values"), (true, "values and least proofs")] {
        let deltas = Arc::new(oracle.start_deltas(by_size).map_err(|e| e.to_string())?);
        let (_, solver) = proof_args::position_and_solver("proof_oracle", args)?;
        let solver = solver.with_start_deltas(deltas);
        let again = solver.wdl(&pos).map_err(|e| e.to_string())?;
        assert_eq!(again, value, "a move order cannot change a value");
        let nodes = solver.stats().nodes;
        println!(
            "ordered by the oracle's {what}: {nodes} nodes ({:.2} times fewer)",
            searched as f64 / nodes.max(1) as f64
        );
    }
    println!(
        "{} positions valued; searched / least = {:.2}, searched / guided first good = {:.2}",
        oracle.positions(),
        searched as f64 / least.max(1) as f64,
        searched as f64 / guided.max(1) as f64
    );
    Ok(())
}
