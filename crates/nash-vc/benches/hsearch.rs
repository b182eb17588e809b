//! H-search benchmarks: the 50 three-move 6×6 positions of Chen 2025 Table 5.1 under each
//! variant (time per full build; connections found are printed), incremental update against a
//! full rebuild, random 8×8 and 11×11 mid-game positions, and the circuit evaluation
//! (`Resistance`) on the connections of those positions.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use nash_board::{BitSet, Bitboard, Cell, Color, MoveList, SmallPosition};
use nash_vc::{HSearchConfig, Resistance, VcBuilder};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn table_5_1() -> Vec<(SmallPosition, SmallPosition, Cell)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/hsearch-table-5.1.txt");
    let text = std::fs::read_to_string(path).expect("testdata/hsearch-table-5.1.txt");
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let moves = line.split('\t').nth(1).expect("label<TAB>moves");
        let list: MoveList = moves.parse().expect("a move list");
        let mut pos = SmallPosition::square(6).unwrap();
        list.play_on(&mut pos).unwrap();
        let mut parent = pos.clone();
        parent.undo();
        let last: Cell = moves.split_whitespace().last().unwrap().parse().unwrap();
        out.push((pos, parent, last));
    }
    out
}

fn random_position(rng: &mut SmallRng, n: usize, stones: usize) -> SmallPosition {
    loop {
        let mut pos = SmallPosition::square(n).unwrap();
        for _ in 0..stones {
            let empty: Vec<Cell> = pos.empty_cells().iter().collect();
            pos.play(empty[rng.gen_range(0..empty.len())]).unwrap();
        }
        if pos.winner().is_none() {
            return pos;
        }
    }
}

const VARIANTS: [(&str, &str); 12] = [
    ("base", "base"),
    ("or2", "base,or2"),
    ("border", "base,border"),
    ("optimization", "base,optimization"),
    ("early-stop", "base,early-stop"),
    ("area", "base,area"),
    ("or-unlimited", "base,or=unlimited,or-budget=4096"),
    ("semi-and", "base,semi-and"),
    ("default", "default"),
    ("fast", "fast"),
    // What nash-search's solvers use (`Knowledge::solver_hsearch`).
    ("solver", "or=greedy,no-semi-and,max-fulls=32,max-semis=32"),
    ("solver-or5", "or=5,no-semi-and,max-fulls=32,max-semis=64,or-budget=256"),
];

fn bench_table(c: &mut Criterion) {
    let positions = table_5_1();
    let mut group = c.benchmark_group("table-5.1");
    for (name, words) in VARIANTS {
        let config: HSearchConfig = words.parse().unwrap();
        let mut vc = VcBuilder::<Bitboard>::new(config);
        let (mut black, mut white) = (0usize, 0usize);
        for (pos, _, _) in &positions {
            vc.build(pos);
            let (f, s) = vc.counts(Color::Black);
            black += f + s;
            let (f, s) = vc.counts(Color::White);
            white += f + s;
        }
        let n = positions.len();
        println!(
            "table-5.1 {name} ({config}): connections per position: black {:.0}, white {:.0}, both {:.0}",
            black as f64 / n as f64,
            white as f64 / n as f64,
            (black + white) as f64 / n as f64
        );
        // One iteration builds all 50 positions (both players); divide the time by 50.
        group.bench_function(format!("{name}/50-positions"), |b| {
            b.iter(|| {
                for (pos, _, _) in &positions {
                    vc.build(black_box(pos));
                }
            })
        });
    }
    group.finish();
}

fn bench_incremental(c: &mut Criterion) {
    let positions = table_5_1();
    let mut group = c.benchmark_group("incremental-5.1");
    for (name, words) in [("base", "base"), ("default-no-early-stop", "no-early-stop")] {
        let config: HSearchConfig = words.parse().unwrap();
        let parents: Vec<VcBuilder<Bitboard>> = positions
            .iter()
            .map(|(_, parent, _)| {
                let mut vc = VcBuilder::new(config);
                vc.build(parent);
                vc
            })
            .collect();
        let mut work = VcBuilder::<Bitboard>::new(config);
        group.bench_function(format!("{name}/rebuild-50"), |b| {
            b.iter(|| {
                for (pos, _, _) in &positions {
                    work.build(black_box(pos));
                }
            })
        });
        group.bench_function(format!("{name}/incremental-50"), |b| {
            b.iter(|| {
                for ((_, _, last), parent) in positions.iter().zip(&parents) {
                    work.clone_from(parent);
                    work.play(black_box(*last));
                }
            })
        });
        group.bench_function(format!("{name}/copy-only-50"), |b| {
            b.iter(|| {
                for parent in &parents {
                    work.clone_from(black_box(parent));
                }
            })
        });
    }
    group.finish();
}

fn bench_random(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(2015);
    let mut group = c.benchmark_group("random");
    for (n, stones) in [(8usize, 20usize), (11, 40)] {
        let positions: Vec<SmallPosition> =
            (0..10).map(|_| random_position(&mut rng, n, stones)).collect();
        // The base case has no caps: on 11x11 it runs for seconds per position, so the random
        // boards are measured with the caps of the default.
        for (name, words) in [
            ("base-capped", "base,max-fulls=32,max-semis=64"),
            ("default", "default"),
            ("fast", "fast"),
            ("solver", "or=greedy,no-semi-and,max-fulls=32,max-semis=32"),
            ("solver-or5", "or=5,no-semi-and,max-fulls=32,max-semis=64,or-budget=256"),
        ] {
            let config: HSearchConfig = words.parse().unwrap();
            let mut vc = VcBuilder::<Bitboard>::new(config);
            let mut total = 0;
            for pos in &positions {
                vc.build(pos);
                let (a, b) = vc.counts(Color::Black);
                let (c, d) = vc.counts(Color::White);
                total += a + b + c + d;
            }
            println!("random {n}x{n} {name}: connections per position {:.0}", total as f64 / 10.0);
            group.bench_function(format!("{n}x{n}-{stones}-stones/{name}/10-positions"), |b| {
                b.iter(|| {
                    for pos in &positions {
                        vc.build(black_box(pos));
                    }
                })
            });
        }
    }
    group.finish();
}

fn bench_resistance(c: &mut Criterion) {
    let mut group = c.benchmark_group("resistance");
    let table: Vec<SmallPosition> = table_5_1().into_iter().map(|(pos, _, _)| pos).collect();
    let mut rng = SmallRng::seed_from_u64(2000);
    let sets = [
        ("table-5.1", table),
        ("8x8-20-stones", (0..10).map(|_| random_position(&mut rng, 8, 20)).collect()),
        ("11x11-40-stones", (0..10).map(|_| random_position(&mut rng, 11, 40)).collect()),
    ];
    for (name, positions) in sets {
        // The connections are built once; only the circuits are timed.
        let built: Vec<VcBuilder<Bitboard>> = positions
            .iter()
            .map(|pos| {
                let mut vc = VcBuilder::new(HSearchConfig::fast());
                vc.build(pos);
                vc
            })
            .collect();
        let mut r = Resistance::<Bitboard>::default();
        let n = built.len();
        group.bench_function(format!("{name}/{n}-positions"), |b| {
            b.iter(|| {
                for vc in &built {
                    r.evaluate(black_box(vc));
                }
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = bench_table, bench_incremental, bench_random, bench_resistance
}
criterion_main!(benches);
