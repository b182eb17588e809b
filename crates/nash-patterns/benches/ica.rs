//! Benchmarks of inferior cell analysis: full analysis (fill-in to the fixed point, then
//! pruning) on random mid-game positions of 8x8 and 11x11, and fill-in with undo.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use nash_board::{BitSet, Bitboard, Position};
use nash_patterns::Ice;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// Random positions with `stones` stones played alternately and no winner yet.
fn positions(n: usize, stones: usize, count: usize) -> Vec<Position<Bitboard>> {
    let mut rng = SmallRng::seed_from_u64(0x1ca0_0000 + n as u64);
    let mut out = Vec::new();
    while out.len() < count {
        let mut p = Position::<Bitboard>::square(n).unwrap();
        let mut cells: Vec<_> = p.empty_cells().iter().collect();
        cells.shuffle(&mut rng);
        for &c in &cells[..stones] {
            p.play_unchecked(c);
        }
        if p.winner().is_none() {
            out.push(p);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    for (n, stones) in [(8, 24), (11, 40)] {
        let ice = Ice::<Bitboard>::for_size(n, n).unwrap();
        let ps = positions(n, stones, 64);
        let mut i = 0;
        c.bench_function(&format!("analyse/{n}x{n}"), |b| {
            b.iter(|| {
                i = (i + 1) % ps.len();
                black_box(ice.analyse(black_box(&ps[i])))
            })
        });
        let mut work = ps.clone();
        let mut j = 0;
        c.bench_function(&format!("fill_in+undo/{n}x{n}"), |b| {
            b.iter(|| {
                j = (j + 1) % work.len();
                let p = &mut work[j];
                let r = ice.fill_in(p);
                for _ in 0..r.steps {
                    p.undo();
                }
                black_box(r.steps)
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
