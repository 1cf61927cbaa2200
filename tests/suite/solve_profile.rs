//! `solve --profile` (hidden): where a solve's nodes go, for both
//! searches. The profile must add up to the solve's own counts: with
//! alpha-beta every node entered is one row entry; with proof-number
//! search the searched and win-now columns are its expansions (its node
//! count) and the knowledge columns are the children the leaf knowledge
//! settled (the solve's rule, race, runner and dead leaves).

#[allow(unused_imports)]
use crate::common;
use peasant::solve::profile::END_NAMES as ENDS;

/// The rows of the profile table whose header's first cell is `table`:
/// each row's first cell, its node count and one count per column of
/// [`ENDS`] (the quiet-files table, which has no such columns, gives
/// none).
fn rows(out: &str, table: &str) -> Vec<(String, u64, Vec<u64>)> {
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in out.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 3 {
            in_table = false;
            continue;
        }
        if cells[1] == table {
            assert_eq!(&cells[4..4 + ENDS.len()], &ENDS, "header: {line}");
            in_table = true;
        } else if in_table && !cells[1].starts_with("---") {
            let n = |s: &str| s.parse::<u64>().unwrap_or_else(|_| panic!("{line}"));
            let ends = cells[4..4 + ENDS.len()].iter().map(|s| n(s)).collect();
            rows.push((cells[1].to_string(), n(cells[2]), ends));
        }
    }
    rows
}

/// The row `name` of the table `table`: its node count and its counts by
/// what ended the nodes.
fn row(out: &str, table: &str, name: &str) -> (u64, Vec<u64>) {
    rows(out, table)
        .into_iter()
        .find(|r| r.0 == name)
        .map(|(_, n, ends)| (n, ends))
        .unwrap_or_else(|| panic!("no row {name} in table {table}:\n{out}"))
}

/// The solve's own count `name` from its summary line, as in "rule leaves
/// 213439" (or "nodes:  853273").
fn count(out: &str, name: &str) -> u64 {
    let line = out
        .lines()
        .find(|l| l.starts_with("nodes:"))
        .unwrap_or_else(|| panic!("no nodes line:\n{out}"));
    let at = line
        .find(name)
        .unwrap_or_else(|| panic!("{name} in {line}"))
        + name.len();
    let digits: String = line[at..]
        .trim_start_matches([':', ' '])
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().unwrap()
}

fn profile(args: &[&str]) -> String {
    let out = common::run_peasant(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The profile of Peasants' Chess 4x6's value, with `extra` arguments.
fn peasants_4x6_profile(extra: &[&str]) -> String {
    let mut args = vec![
        "--board",
        "4x6",
        "solve",
        "peasants",
        "--value-only",
        "--profile",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    profile(&args)
}

/// The sum of the rows of the table `table` (by pawns, segments, depth).
fn table_sum(out: &str, table: &str) -> u64 {
    rows(out, table).iter().map(|r| r.1).sum()
}

#[test]
fn a_proof_number_profile_counts_its_expansions_and_settled_children() {
    for board in ["4x6", "4x7"] {
        let out = profile(&[
            "--board",
            board,
            "solve",
            "peasants",
            "--value-only",
            "--profile",
            "--quiet",
        ]);
        let (total, ends) = row(&out, "class", "all nodes");
        let col = |name: &str| ends[ENDS.iter().position(|&e| e == name).unwrap()];
        assert_eq!(
            col("searched") + col("win-now"),
            count(&out, "nodes"),
            "{board}\n{out}"
        );
        for (column, leaves) in [
            ("rule", "rule leaves"),
            ("race", "race leaves"),
            ("runner", "runner leaves"),
            ("dead", "dead leaves"),
        ] {
            assert_eq!(col(column), count(&out, leaves), "{board}: {column}\n{out}");
        }
        assert_eq!(ends.iter().sum::<u64>(), total);
        // A child settled as dead is classed as dead: the leaves are
        // classed by their own positions.
        let (dead, _) = row(
            &out,
            "class",
            "dead (no capture or promotion can ever happen)",
        );
        assert_eq!(dead, col("dead"), "{board}\n{out}");
        assert!(col("searched") > 0 && col("rule") > 0, "{board}\n{out}");
        for table in ["pawns", "segments", "depth"] {
            assert_eq!(table_sum(&out, table), total, "{board}: {table}\n{out}");
        }
        // Each question's root (the value's, then those the value-only
        // move asks of the root's children) is at depth 0, searched or
        // settled by the knowledge (a defender's stalemate at once): no
        // other node is, and the value's two questions are searched.
        let (roots, root_ends) = row(&out, "depth", "0");
        let at_root = |name: &str| root_ends[ENDS.iter().position(|&e| e == name).unwrap()];
        assert!(
            at_root("searched") >= 2
                && at_root("win-now") == 0
                && at_root("tt") == 0
                && at_root("etc") == 0,
            "{board}\n{out}"
        );
        assert!(roots >= 2, "{board}\n{out}");
    }
}

#[test]
fn an_alpha_beta_profile_counts_every_node() {
    let out = peasants_4x6_profile(&["--method", "ab"]);
    let (total, ends) = row(&out, "class", "all nodes");
    assert_eq!(total, count(&out, "nodes"), "{out}");
    assert_eq!(ends[0], count(&out, "rule leaves"), "{out}");
    for table in ["pawns", "segments", "depth"] {
        assert_eq!(table_sum(&out, table), total, "{table}\n{out}");
    }
}

/// With every table of a narrower board (Peasants' Chess 4x6 with those
/// of 3x6), the positions the profile says fit a narrower board are the
/// ones the tables answer: every table hit is one of them, and none of
/// them is searched (the rules, the dead-position rule or the tables
/// settle each before it is expanded; the question's root is not
/// narrow). A position of two segments one empty file apart that fill
/// the board does not fit: counting every position with an empty file
/// would class searched nodes as narrow.
#[test]
fn positions_fitting_a_narrower_board_are_the_ones_its_tables_answer() {
    let dir = common::temp_dir("profile-narrow");
    let path = dir.path().to_str().unwrap();
    let gen = common::run_peasant(&["--board", "3x6", "gen", "--max-pawns", "12", "--out", path]);
    assert!(
        gen.status.success(),
        "{}",
        String::from_utf8_lossy(&gen.stderr)
    );
    let out = peasants_4x6_profile(&["--tables", path]);
    let col = |ends: &[u64], name: &str| ends[ENDS.iter().position(|&e| e == name).unwrap()];
    let (_, all) = row(&out, "class", "all nodes");
    let (narrow, ends) = row(
        &out,
        "class",
        "fits a narrower board (its tables answer it)",
    );
    assert!(col(&all, "table") > 0, "{out}");
    assert_eq!(col(&ends, "table"), col(&all, "table"), "{out}");
    assert_eq!(col(&ends, "searched") + col(&ends, "win-now"), 0, "{out}");
    // Positions with an empty file that do not fit are searched.
    let (two, two_ends) = row(&out, "segments", "2");
    assert!(two > 0 && col(&two_ends, "searched") > 0, "{out}");
    // The table by pawns holds the same nodes, each row within the
    // row of all positions with as many pawns.
    let by_pawns = rows(&out, "pawns, fitting a narrower board");
    assert_eq!(by_pawns.iter().map(|r| r.1).sum::<u64>(), narrow, "{out}");
    let all_by_pawns = rows(&out, "pawns");
    for (pawns, n, ends) in &by_pawns {
        let (_, m, all_ends) = all_by_pawns
            .iter()
            .find(|r| &r.0 == pawns)
            .unwrap_or_else(|| panic!("{pawns} pawns\n{out}"));
        assert!(
            n <= m && ends.iter().zip(all_ends).all(|(a, b)| a <= b),
            "{out}"
        );
    }
}
