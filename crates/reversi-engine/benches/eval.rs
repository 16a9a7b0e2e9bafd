//! Evaluations per second: the learned pattern evaluation against the hand-tuned one, on the
//! positions of a real game (so the weights' cache behaviour is realistic).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use reversi_core::bitboard::{flips, moves};
use reversi_engine::{Evaluator, HandTuned, Learned};

fn positions() -> Vec<(u64, u64)> {
    // A game by the first legal move each time, from the start: 60 positions of every stage.
    let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
    let mut out = Vec::new();
    loop {
        let mut m = moves(p, o);
        if m == 0 {
            std::mem::swap(&mut p, &mut o);
            m = moves(p, o);
            if m == 0 {
                return out;
            }
        }
        out.push((p, o));
        // The middle move rather than the first: a livelier game.
        let k = m.count_ones() / 2;
        for _ in 0..k {
            m &= m - 1;
        }
        let sq = m.trailing_zeros();
        let f = flips(p, o, sq);
        (p, o) = (o & !f, p | f | (1u64 << sq));
    }
}

fn bench(c: &mut Criterion) {
    let pos = positions();
    let learned = Learned::embedded();
    let mut g = c.benchmark_group("eval");
    g.throughput(Throughput::Elements(pos.len() as u64));
    g.bench_function("learned", |b| {
        b.iter(|| {
            pos.iter()
                .map(|&(p, o)| learned.eval(black_box(p), black_box(o)))
                .sum::<i32>()
        })
    });
    g.bench_function("hand-tuned", |b| {
        b.iter(|| {
            pos.iter()
                .map(|&(p, o)| HandTuned.eval(black_box(p), black_box(o)))
                .sum::<i32>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
