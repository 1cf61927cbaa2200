//! Single-threaded perft throughput: `cargo bench --bench perft -j 1`.
//!
//! Each bench checks its count against the known value before timing it, and
//! reports leaf nodes per second (criterion's `Throughput::Elements`), which
//! is the per-core figure since `peasant::rules::perft` runs on one thread.
//! Filter by name as usual, e.g. `cargo bench --bench perft -- peasants`.

use criterion::{
    black_box, criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use peasant::rules::{parse_position, perft, Board, Rules};
use std::time::Duration;

/// One bench: a start position, a depth and its known perft count. The counts
/// are those of the first, plain engine (commit f103645), which the fast
/// counter reproduces; tools/perft_crosscheck.py checks the same starts
/// against python-chess at shallower depths.
struct Case {
    name: &'static str,
    setup: &'static str,
    board: Board,
    rules: Rules,
    depth: u32,
    nodes: u64,
}

const EP: Rules = Rules {
    en_passant: true,
    seventh_rank_wins: false,
};
const NO_EP: Rules = Rules {
    en_passant: false,
    seventh_rank_wins: false,
};

const CASES: &[Case] = &[
    Case {
        name: "peasants_8x8",
        setup: "peasants",
        board: Board::STANDARD,
        rules: EP,
        depth: 9,
        nodes: 802_573_460,
    },
    Case {
        name: "peasants_8x8_no_ep",
        setup: "peasants",
        board: Board::STANDARD,
        rules: NO_EP,
        depth: 9,
        nodes: 802_287_678,
    },
    Case {
        name: "pawngame_8x8",
        setup: "pawngame",
        board: Board::STANDARD,
        rules: EP,
        depth: 8,
        nodes: 2_039_980_640,
    },
    Case {
        name: "pawnrace_h_a_8x8",
        setup: "pawnrace:h:a",
        board: Board::STANDARD,
        rules: EP,
        depth: 8,
        nodes: 641_523_853,
    },
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    // Each run takes 0.1-1 s: time whole runs, ten of them.
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    for case in CASES {
        let pos = parse_position(case.setup, Some(case.board), case.rules)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        // Benches check their answer: a fast wrong count is worthless.
        let got = perft(&pos, case.depth);
        assert_eq!(
            got, case.nodes,
            "{}: perft({}) of {pos}",
            case.name, case.depth
        );
        group.throughput(Throughput::Elements(case.nodes));
        group.bench_with_input(BenchmarkId::new(case.name, case.depth), &pos, |b, pos| {
            b.iter(|| {
                let n = perft(black_box(pos), black_box(case.depth));
                assert_eq!(n, case.nodes);
                n
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
