use nash_board::{BitSet, Bitboard, Cell, Position};
use nash_vc::{HSearchConfig, VcBuilder};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

fn main() {
    let conf = HSearchConfig {
        early_stop: false,
        max_fulls: Some(8),
        max_semis: Some(16),
        ..HSearchConfig::fast()
    };
    for n in [9usize, 11] {
        let mut rng = SmallRng::seed_from_u64(n as u64);
        let mut set = Vec::new();
        while set.len() < 5 {
            let mut pos = Position::<Bitboard>::square(n).unwrap();
            for _ in 0..20 {
                let empty: Vec<Cell> = pos.empty_cells().iter().collect();
                pos.play(empty[rng.gen_range(0..empty.len())]).unwrap();
            }
            if pos.winner().is_none() {
                set.push(pos);
            }
        }
        let mut parent = VcBuilder::new(conf);
        let mut child = VcBuilder::new(conf);
        let (mut full, mut inc, mut count) = (0.0, 0.0, 0);
        for p in &set {
            parent.build(p);
            let mut q = p.clone();
            for c in p.empty_cells().iter().take(20) {
                q.play(c).unwrap();
                let t = Instant::now();
                child.build(&q);
                full += t.elapsed().as_secs_f64();
                let t = Instant::now();
                child.build_from(&parent, &q);
                inc += t.elapsed().as_secs_f64();
                count += 1;
                q.undo();
            }
        }
        println!(
            "{n}x{n}: rebuild {:.0} us, from parent {:.0} us",
            full / count as f64 * 1e6,
            inc / count as f64 * 1e6
        );
    }
}
