//! `cargo xtask bench net`: the policy and value net's inference speed on one core:
//! evaluations a second at batch 1, 8 and 32 on 9x9 and 11x11 middle-game positions, the
//! figures of docs/net.md; then training's speed: examples a second through
//! `Trainer::step` at `--train-batch` on 11x11, with one thread and with two.

use std::sync::Arc;
use std::time::{Duration, Instant};

use nash_board::{Cell, WidePosition};
use nash_net::planes::{from_sample, Example};
use nash_net::{Arch, Evaluator, Net, PlaneSet, Sample, TrainSettings, Trainer};

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
    /// Examples per training step measured (0: no training figures).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u16).range(0..=4096))]
    train_batch: u16,
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
    if args.train_batch > 0 {
        train_speed(&args, arch)?;
    }
    Ok(())
}

/// Training examples a second on 11x11, with one thread and with two.
fn train_speed(args: &Args, arch: Arch) -> anyhow::Result<()> {
    let all = positions(11)?;
    let examples: Vec<Example> = all
        .iter()
        .cycle()
        .take(usize::from(args.train_batch))
        .enumerate()
        .map(|(i, pos)| {
            let visits: Vec<(Cell, u32)> =
                pos.empty_cells().into_iter().zip(1..).map(|(c, v)| (c, v % 7)).collect();
            from_sample(&Sample::new(pos, &visits, i % 2 == 0, None, 0, 0), arch.planes)
        })
        .collect::<Result<_, _>>()?;
    println!();
    println!("| training, 11x11, batch {} | examples/s |", args.train_batch);
    println!("|---|---:|");
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
        let mut net = Net::random(arch, 1);
        let mut trainer = Trainer::new(&net, TrainSettings::default());
        let rate = pool.install(|| {
            trainer.step(&mut net, &examples);
            let start = Instant::now();
            let mut done = 0u64;
            while start.elapsed() < args.time {
                trainer.step(&mut net, &examples);
                done += examples.len() as u64;
            }
            done as f64 / start.elapsed().as_secs_f64()
        });
        println!("| {threads} thread{} | {rate:.0} |", if threads > 1 { "s" } else { "" });
    }
    Ok(())
}
