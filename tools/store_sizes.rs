//! Measures the table store on existing tables: bits per position for WDL
//! and DTM under block sizes, a trained dictionary and don't-care filling,
//! and converts format version 1 tables to the current format.
//!
//!     cargo run --release --example store_sizes -- DIR WxH [--v1] \
//!         [--classes 3v3,2v4 | --max-pawns N] [--grid [--dict] | --orders]
//!         [--convert OUT [--level L]]
//!
//! DIR holds tables of WxH (real rules); `--v1` reads format version 1
//! files. Without `--grid` each class is encoded once with the default
//! options; with it, under every option of the grid. `--convert OUT` writes
//! the default encoding (or zstd level L) into OUT.

use peasant::{index::*, rules::*, table::*};
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = PathBuf::from(&args[0]);
    let board: Board = args[1].parse().expect("WxH");
    let variant = Variant::new(board, Rules::default());
    let v1 = args.iter().any(|a| a == "--v1");
    let grid = args.iter().any(|a| a == "--grid");
    let value_of = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .map(|i| args[i + 1].clone())
    };
    let only: Option<Vec<Material>> =
        value_of("--classes").map(|s| s.split(',').map(|c| c.parse().expect("class")).collect());
    let convert = value_of("--convert").map(PathBuf::from);
    let max = value_of("--max-pawns")
        .map(|n| n.parse().expect("a number"))
        .unwrap_or(2 * board.width() * (board.height() - 3));
    let mut options = vec![WriteOptions {
        level: value_of("--level")
            .map(|l| l.parse().expect("a zstd level"))
            .unwrap_or(WriteOptions::default().level),
        ..WriteOptions::default()
    }];
    if grid {
        options.clear();
        let dicts: &[usize] = if args.iter().any(|a| a == "--dict") {
            &[0, 16 << 10]
        } else {
            &[0]
        };
        for kib in [4u32, 8, 16, 32, 64] {
            for &dict in dicts {
                for wdl_fill_previous in [false, true] {
                    options.push(WriteOptions {
                        block_len: kib << 10,
                        dict_bytes: dict,
                        wdl_fill_previous,
                        ..WriteOptions::default()
                    });
                }
            }
        }
    }
    println!(
        "{:>5} {:>11} {:>5} {:>6} {:>5} {:>6} {:>9} {:>9} {:>7} {:>7} {:>7} {:>6}",
        "class",
        "positions",
        "block",
        "dict",
        "prev",
        "dc%",
        "wdl B",
        "dtm B",
        "wdl b/p",
        "dtm b/p",
        "v1 b/p",
        "enc s"
    );
    let mut totals = vec![(0u64, 0u64, 0u64); options.len()];
    for m in Material::up_to(max) {
        if only.as_ref().is_some_and(|o| !o.contains(&m)) {
            continue;
        }
        let path = dir.join(file_name(variant, m));
        if !path.exists() {
            continue;
        }
        let values = if v1 {
            read_v1_values(&path, variant, m).expect("a version 1 table")
        } else {
            let t = Table::open(&path, variant, m).expect("a table");
            let d = t.to_dense().expect("readable");
            let index = d.index();
            (0..index.len())
                .map(|i| d.get(&index.unrank(i)).expect("value").to_byte())
                .collect()
        };
        let n = values.len() as u64;
        if args.iter().any(|a| a == "--orders") {
            orders(variant, m, &values);
            continue;
        }
        for (k, opts) in options.iter().enumerate() {
            let t = Instant::now();
            let bytes = encode_table(variant, m, &values, opts);
            let secs = t.elapsed().as_secs_f64();
            let h = Header::decode(&bytes).unwrap();
            let (w, d) = (h.sections[0].len, h.sections[1].len);
            totals[k].0 += n;
            totals[k].1 += w;
            totals[k].2 += d;
            println!(
                "{:>5} {:>11} {:>5} {:>6} {:>5} {:>6.2} {:>9} {:>9} {:>7.4} {:>7.4} {:>7} {:>6.2}",
                m.to_string(),
                n,
                opts.block_len >> 10,
                opts.dict_bytes,
                opts.wdl_fill_previous,
                100.0 * h.dont_care as f64 / n as f64,
                w,
                d,
                8.0 * w as f64 / n as f64,
                8.0 * d as f64 / n as f64,
                8,
                secs
            );
            if k == 0 {
                if let Some(out) = &convert {
                    std::fs::create_dir_all(out).unwrap();
                    let p = out.join(file_name(variant, m));
                    std::fs::write(&p, &bytes).unwrap();
                }
            }
        }
    }
    println!("totals:");
    for (opts, (n, w, d)) in options.iter().zip(totals) {
        println!(
            "  block {:>2} KiB dict {:>5} prev {:>5}: {n} positions, WDL {w} B = {:.4} bits/pos, DTM {d} B = {:.4} bits/pos",
            opts.block_len >> 10,
            opts.dict_bytes,
            opts.wdl_fill_previous,
            8.0 * w as f64 / n.max(1) as f64,
            8.0 * d as f64 / n.max(1) as f64
        );
    }
}

/// A sort key of a position's (white, black) pawn masks.
type OrderKey<'a> = dyn Fn(&(u64, u64)) -> (u64, u64) + 'a;

/// The square numbering with files and ranks exchanged (file-major order).
fn transpose(b: Bitboard, h: u8) -> u64 {
    b.fold(0u64, |acc, sq| {
        acc | 1u64 << (sq.file() as u32 * h as u32 + sq.rank() as u32)
    })
}

/// WDL bytes at 64 KiB blocks under four orders of the positions: the
/// index's (white set, then black set, rank-major square numbers), black
/// set first, and both with file-major square numbers. Subsets of equal
/// size in colex order are their masks in numeric order, so each order is a
/// sort by a pair of masks.
fn orders(variant: Variant, m: Material, values: &[u8]) {
    let index = Index::new(variant, m);
    let h = variant.board.height();
    let sets: Vec<(u64, u64)> = (0..index.len())
        .map(|i| {
            let p = index.unrank(i);
            (p.pawns(Color::White).0, p.pawns(Color::Black).0)
        })
        .collect();
    let opts = WriteOptions::default();
    let (wdl, _, _) = peasant::table::split_values(values, opts.wdl_fill_previous);
    let size = |perm: &[u32]| {
        let bytes: Vec<u8> = perm.iter().map(|&i| wdl[i as usize]).collect();
        bytes
            .chunks(opts.block_len as usize)
            .map(|c| zstd::bulk::compress(c, opts.level).unwrap().len())
            .sum::<usize>()
    };
    let n = values.len();
    let mut perm: Vec<u32> = (0..n as u32).collect();
    let key_fns: [(&str, &OrderKey<'_>); 4] = [
        ("white-first rank-major (index)", &|&(w, b)| (w, b)),
        ("black-first rank-major", &|&(w, b)| (b, w)),
        ("white-first file-major", &|&(w, b)| {
            (transpose(Bitboard(w), h), transpose(Bitboard(b), h))
        }),
        ("black-first file-major", &|&(w, b)| {
            (transpose(Bitboard(b), h), transpose(Bitboard(w), h))
        }),
    ];
    for (name, key) in key_fns {
        perm.sort_by_key(|&i| key(&sets[i as usize]));
        let bytes = size(&perm);
        println!(
            "{m:>5} {n:>11} {name:<32} WDL {bytes:>9} B = {:.4} bits/pos",
            8.0 * bytes as f64 / n as f64
        );
    }
}
