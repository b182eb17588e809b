//! Evaluation benchmarks: each evaluation's `value` and `move_scores` on random mid-game
//! positions (20 stones) of 9x9 and 11x11, the leaves and interior nodes of a search, and the
//! resistance circuits on children of positions just scored (a search's leaves).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use nash_board::{BitSet, Bitboard, Cell, Position};
use nash_play::eval::{EvalKind, Evaluator};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Ten unfinished positions of `n` x `n` with `stones` random stones, the same every run.
fn positions(n: usize, stones: usize) -> Vec<Position<Bitboard>> {
    let mut rng = SmallRng::seed_from_u64(n as u64);
    let mut out = Vec::new();
    while out.len() < 10 {
        let mut pos = Position::<Bitboard>::square(n).unwrap();
        for _ in 0..stones {
            let empty: Vec<Cell> = pos.empty_cells().iter().collect();
            pos.play(empty[rng.gen_range(0..empty.len())]).unwrap();
        }
        if pos.winner().is_none() {
            out.push(pos);
        }
    }
    out
}

fn evaluations(c: &mut Criterion) {
    for n in [9, 11] {
        let set = positions(n, 20);
        let mut group = c.benchmark_group(format!("eval-{n}x{n}"));
        for &kind in EvalKind::ALL {
            let mut eval = Evaluator::<Bitboard>::new(kind);
            // Time per position: the ten positions in turn.
            let mut i = 0;
            group.bench_function(format!("{kind}/value"), |b| {
                b.iter(|| {
                    i = (i + 1) % set.len();
                    black_box(eval.value(&set[i]))
                })
            });
            let mut scores = Vec::new();
            group.bench_function(format!("{kind}/move_scores"), |b| {
                b.iter(|| {
                    i = (i + 1) % set.len();
                    eval.move_scores(&set[i], &mut scores);
                    black_box(scores.len())
                })
            });
        }
        // A search's leaves: the children of positions whose moves were just scored (the
        // resistance circuit derives their connections from the parent's).
        for kind in [EvalKind::Resistance, EvalKind::ResistancePlain] {
            let mut eval = Evaluator::<Bitboard>::new(kind);
            let mut scores = Vec::new();
            let mut children = Vec::new();
            for p in &set[..8] {
                eval.move_scores(p, &mut scores);
                for c in p.empty_cells().iter().step_by(7) {
                    let mut q = p.clone();
                    q.play(c).unwrap();
                    children.push(q);
                }
            }
            let mut i = 0;
            group.bench_function(format!("{kind}/value-of-child"), |b| {
                b.iter(|| {
                    i = (i + 1) % children.len();
                    black_box(eval.value(&children[i]))
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, evaluations);
criterion_main!(benches);
