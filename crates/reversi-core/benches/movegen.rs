use criterion::{black_box, criterion_group, criterion_main, Criterion};
use reversi_core::bitboard::{flips_scalar, moves, moves_scalar};
use reversi_core::perft::perft_8x8;

fn bench(c: &mut Criterion) {
    let (p, o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
    c.bench_function("moves (dispatch)", |b| {
        b.iter(|| moves(black_box(p), black_box(o)))
    });
    c.bench_function("moves (scalar)", |b| {
        b.iter(|| moves_scalar(black_box(p), black_box(o)))
    });
    c.bench_function("flips (scalar)", |b| {
        b.iter(|| flips_scalar(black_box(p), black_box(o), black_box(19)))
    });
    #[cfg(target_arch = "x86_64")]
    if reversi_core::bitboard::Avx2::detect().is_some() {
        c.bench_function("flips (avx2)", |b| {
            // SAFETY: the CPU has AVX2 (just checked).
            b.iter(|| unsafe {
                reversi_core::bitboard::flips_avx2(black_box(p), black_box(o), black_box(19))
            })
        });
    }
    c.bench_function("perft 6", |b| b.iter(|| perft_8x8(black_box(p), black_box(o), 6)));
}

criterion_group!(benches, bench);
criterion_main!(benches);
