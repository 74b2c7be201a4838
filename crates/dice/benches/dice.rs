//! Rolling speed and exact-odds query time.
//!
//! `cargo bench -p battlemat-dice -- --quick` (or `--warm-up-time 1 --measurement-time 2`).

use std::hint::black_box;

use battlemat_dice::{Expr, Roller};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_core::{Rng, SeedableRng};

fn rolling(c: &mut Criterion) {
    let mut g = c.benchmark_group("roll");
    g.throughput(Throughput::Elements(1));
    let mut roller = Roller::new(1, 0);
    g.bench_function("1d6 Roller::roll", |b| b.iter(|| roller.roll(black_box(6))));
    // The peer, same run: one raw ChaCha8 word, the floor under any die.
    let mut raw = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    g.bench_function("peer: raw ChaCha8 next_u32", |b| {
        b.iter(|| black_box(raw.next_u32()))
    });
    let expr: Expr = "4d6kh3".parse().expect("valid");
    let mut roller = Roller::new(2, 0);
    g.bench_function("4d6kh3 Expr::roll", |b| {
        b.iter(|| black_box(&expr).roll(&mut roller).total)
    });
    g.finish();
}

fn exact_odds(c: &mut Criterion) {
    let mut g = c.benchmark_group("odds");
    let a: Expr = "3d6!1".parse().expect("valid");
    let d: Expr = "4d6".parse().expect("valid");
    g.bench_function("3d6!1 vs 4d6 (build + versus)", |b| {
        b.iter(|| black_box(&a).dist().versus(&black_box(&d).dist()))
    });
    let kh: Expr = "4d6kh3".parse().expect("valid");
    g.bench_function("4d6kh3 dist", |b| b.iter(|| black_box(&kh).dist()));
    g.bench_function("parse 2d6+1d4-2", |b| {
        b.iter(|| black_box("2d6+1d4-2").parse::<Expr>())
    });
    g.finish();
}

/// Wide sums, where the cost is the convolution: N dice of S sides cost about N²·S/2
/// additions (each die is added across the whole running sum, up to N·S wide).
fn wide_sums(c: &mut Criterion) {
    let mut g = c.benchmark_group("odds-wide");
    g.sample_size(10);
    for notation in ["100d6", "1000d6", "100d1000", "1000d1000"] {
        let e: Expr = notation.parse().expect("valid");
        g.bench_function(format!("{notation} dist"), |b| {
            b.iter(|| black_box(&e).dist())
        });
    }
    g.finish();
}

criterion_group!(benches, rolling, exact_odds, wide_sums);
criterion_main!(benches);
