//! What a read at random from a big table costs on this machine, on the
//! allocator's 4 KiB pages and on huge pages: the tables held in memory
//! at 2 bits a position, and the generator's slots, are read so, and
//! where transparent huge pages are given only to memory that asks for
//! them (Linux's "madvise" mode) a vector gets small pages. Each read's
//! index depends on the one before, as a search's probes wait on each
//! other; nanoseconds a read, three rounds.
//!
//!     cargo run --release --example random_reads -- [MIB]   (default 1024)
use std::time::Instant;

/// Nanoseconds a read over `n` dependent reads of 2-bit values.
fn reads(words: &[u64], n: usize) -> (f64, u64) {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut acc = 0u64;
    let t = Instant::now();
    for _ in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let i = ((x ^ acc) % (words.len() as u64 * 32)) as usize;
        acc = acc.wrapping_add((words[i / 32] >> (2 * (i % 32))) & 3);
    }
    (t.elapsed().as_secs_f64() / n as f64 * 1e9, acc)
}

fn main() {
    let mib: usize = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 1024,
        Some(Ok(m)) if m > 0 => m,
        Some(_) => {
            eprintln!("usage: random_reads [MIB]");
            std::process::exit(2);
        }
    };
    let len = mib << 17;
    let n = 20_000_000;
    let mut small = vec![0u64; len];
    // The project's memory for tables read at random (huge pages asked
    // for), beside a vector's.
    let mut huge = peasant::memory::ZeroedMap::<u64>::new(len).expect("memory");
    for (i, (a, b)) in small.iter_mut().zip(huge.iter_mut()).enumerate() {
        *a = i as u64;
        *b = i as u64;
    }
    for _ in 0..3 {
        let (a, x) = reads(&small, n);
        let (b, y) = reads(&huge, n);
        assert_eq!(x, y);
        println!("{mib} MiB: 4 KiB pages {a:.0} ns a read, huge pages {b:.0} ns");
    }
}
