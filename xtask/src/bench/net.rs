//! `cargo xtask bench net`: the policy and value net's inference speed on one core:
//! evaluations a second at batch 1, 8 and 32 on 9x9 and 11x11 middle-game positions, the
//! figures of docs/net.md.

use std::sync::Arc;
use std::time::{Duration, Instant};

use nash_board::{Cell, WidePosition};
use nash_net::{Arch, Evaluator, Net, PlaneSet};

/// Arguments of `cargo xtask bench net`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board sizes (comma-separated).
    #[arg(long, value_delimiter = ',', default_values_t = [9, 11], value_parser = clap::value_parser!(u8).range(3..=19))]
    sizes: Vec<u8>,
    /// Batch sizes (comma-separated).
    #[arg(long, value_delimiter = ',', default_values_t = [1, 8, 32], value_parser = clap::value_parser!(u16).range(1..=4096))]
    batches: Vec<u16>,
    /// Input planes: basic or bridges.
    #[arg(long, default_value = "bridges")]
    planes: PlaneSet,
    /// Channels of every convolution.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u16).range(1..=512))]
    filters: u16,
    /// Residual blocks.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(0..=64))]
    blocks: u8,
    /// Hidden units of the value head.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u16).range(1..=4096))]
    hidden: u16,
    /// Seconds of measuring per board size and batch.
    #[arg(long, default_value = "1", value_parser = crate::parse_seconds)]
    time: Duration,
}

/// 32 positions of a size: `size * size / 4` stones each, placed by a fixed pseudo-random
/// sequence, alternating colours (some Black to move, some White).
fn positions(size: usize) -> anyhow::Result<Vec<WidePosition>> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..32)
        .map(|i| {
            let mut pos = WidePosition::square(size)?;
            let stones = size * size / 4 + i % 2;
            while pos.occupied().len() < stones {
                let cell = Cell::at((next() % size as u64) as u8, (next() % size as u64) as u8);
                if pos.color_at(cell).is_none() {
                    pos.play_unchecked(cell);
                }
            }
            Ok(pos)
        })
        .collect()
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let arch = Arch {
        planes: args.planes,
        filters: usize::from(args.filters),
        blocks: usize::from(args.blocks),
        hidden: usize::from(args.hidden),
    };
    let net = Arc::new(Net::random(arch, 1));
    println!("net: {arch} ({} parameters), one thread", arch.param_count());
    println!("| board | batch | evals/s | µs per eval |");
    println!("|---|---:|---:|---:|");
    for &size in &args.sizes {
        let all = positions(usize::from(size))?;
        for &batch in &args.batches {
            let batch = usize::from(batch);
            let set: Vec<WidePosition> = all.iter().cycle().take(batch).cloned().collect();
            let mut ev = Evaluator::new(net.clone());
            ev.evaluate(&set);
            let start = Instant::now();
            let mut evals = 0u64;
            while start.elapsed() < args.time {
                let out = ev.evaluate(&set);
                std::hint::black_box(out);
                evals += batch as u64;
            }
            let rate = evals as f64 / start.elapsed().as_secs_f64();
            println!("| {size}x{size} | {batch} | {rate:.0} | {:.0} |", 1e6 / rate);
        }
    }
    Ok(())
}
