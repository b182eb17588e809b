//! Criterion benchmarks of the solvers on small boards (the big tables are
//! `cargo xtask bench solve`).

use criterion::{criterion_group, criterion_main, Criterion};
use nash_board::{Bitboard, MoveList, Position};
use nash_search::{solve, SolverConfig, SolverKind};

fn position(n: usize, moves: &str) -> Position<Bitboard> {
    let mut p = Position::square(n).expect("size");
    if moves.is_empty() {
        return p;
    }
    let list: MoveList = moves.parse().expect("moves");
    list.play_on(&mut p).expect("legal");
    p
}

fn bench(c: &mut Criterion) {
    let cases = [("5x5 empty", position(5, "")), ("6x6 a1", position(6, "a1"))];
    for (name, p) in &cases {
        for kind in [SolverKind::Dfpn, SolverKind::Pns] {
            let cfg = SolverConfig { kind, tt_mib: 64, ..SolverConfig::default() };
            c.bench_function(&format!("{kind:?} {name}"), |b| b.iter(|| solve(p, &cfg)));
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
