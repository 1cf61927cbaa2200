//! Probe latency of the table store: WDL and DTM probes with a warm block
//! cache, and cold probes (the block decompressed and checked first).
//!
//! Tables: `PEASANT_BENCH_TABLES=DIR` (8x8, real rules) and
//! `PEASANT_BENCH_CLASS=3v3`; otherwise 8x8 up to 4 pawns are generated into
//! a temporary directory and class 2v2 is probed.
//!
//!     cargo bench --bench store -j 1

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use peasant::{generate::*, index::*, rules::*, table::*};
use std::path::PathBuf;

fn tables() -> (PathBuf, Material, bool) {
    let variant = Variant::new(Board::STANDARD, Rules::default());
    if let Ok(dir) = std::env::var("PEASANT_BENCH_TABLES") {
        let class = std::env::var("PEASANT_BENCH_CLASS").unwrap_or_else(|_| "3v3".into());
        return (dir.into(), class.parse().unwrap(), false);
    }
    let dir = std::env::temp_dir().join(format!("peasant-bench-store-{}", std::process::id()));
    let config = GenConfig::new(variant, dir.clone());
    generate(&config, Target::MaxPawns(4), &|_| {}).unwrap();
    (dir, Material::new(2, 2), true)
}

/// `n` table positions of `m` spread over the whole index.
fn sample(index: &Index, n: u64) -> Vec<Position> {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            index.unrank(x % index.len())
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let (dir, m, temporary) = tables();
    let variant = Variant::new(Board::STANDARD, Rules::default());
    // Safety: nothing writes these tables while the bench runs.
    let tb = unsafe { Tablebase::new_mmap(&dir, variant) }.with_cache_blocks(1 << 16);
    let table = tb.table(m).unwrap();
    let positions = sample(table.index(), 1024);
    // The answers, checked against a fresh tablebase's full probes.
    let check = Tablebase::new(&dir, variant);
    for p in &positions {
        assert_eq!(
            tb.probe_wdl(p).unwrap(),
            check.probe(p).unwrap().wdl(),
            "{p}"
        );
    }
    eprintln!(
        "{m}: {} positions, file {} bytes, {} blocks of {} positions",
        table.index().len(),
        table.file_len(),
        table.header().sections[0].blocks,
        table.header().block_len
    );

    let mut g = c.benchmark_group(format!("probe {m}"));
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("wdl warm (per 1024)", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(tb.probe_wdl(black_box(p)).unwrap());
            }
        })
    });
    g.bench_function("dtm warm (per 1024)", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(tb.probe_dtm(black_box(p)).unwrap());
            }
        })
    });
    g.throughput(Throughput::Elements(1));
    let mut k = 0;
    g.bench_function("wdl cold (one block decompressed)", |b| {
        b.iter_batched(
            || {
                tb.cache().clear();
                k = (k + 1) % positions.len();
                positions[k]
            },
            |p| black_box(tb.probe_wdl(&p).unwrap()),
            criterion::BatchSize::PerIteration,
        )
    });
    g.finish();
    if temporary {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
