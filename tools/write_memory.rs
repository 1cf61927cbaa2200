//! Measures what writing a table file costs in memory: writes the
//! win/draw/loss-only table of one class with values from a hash of each
//! index number (about as incompressible as a class's values get, so the
//! file is large), then prints the file's size, the time and the
//! process's peak resident memory, which is the writer's, for the values
//! are never held.
//!
//!     cargo run --release --example write_memory -- WxH WvB DIR [LEVEL]
//!
//! e.g. `5x8 6v4 DIR` writes a file of 119 MB (zstd level 3, the default
//! LEVEL) into DIR.

use peasant::{index::*, memory, rules::*, table::*};
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: write_memory WxH WvB DIR [LEVEL]");
        std::process::exit(2);
    }
    let board: Board = args[0].parse().unwrap_or_else(|e| fail(&format!("{e}")));
    let material: Material = args[1].parse().unwrap_or_else(|e| fail(&format!("{e}")));
    let dir = PathBuf::from(&args[2]);
    let level = args
        .get(3)
        .map_or(3, |l| l.parse().unwrap_or_else(|_| fail("LEVEL: a number")));
    let variant = Variant::new(board, Rules::default());
    let wdl = |i: u64| match (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) % 3 {
        0 => Wdl::Win,
        1 => Wdl::Draw,
        _ => Wdl::Loss,
    };
    let opts = WriteOptions {
        level,
        ..WriteOptions::default()
    };
    let t = Instant::now();
    let path = write_wdl_table_with(&dir, variant, material, &wdl, &opts)
        .unwrap_or_else(|e| fail(&format!("{e}")));
    let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
    println!(
        "{}: {bytes} bytes in {:.1} s, peak memory {} MiB (the writer's bound {} MiB)",
        path.display(),
        t.elapsed().as_secs_f64(),
        memory::peak().unwrap_or(0) >> 20,
        write_memory_bound(Index::new(variant, material).len(), &opts) >> 20
    );
}

fn fail(message: &str) -> ! {
    eprintln!("write_memory: {message}");
    std::process::exit(2);
}
