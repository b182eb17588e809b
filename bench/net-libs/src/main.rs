//! `nash-net-libs`: the policy and value net of nash-net in several Rust numerical libraries,
//! built from the same weights, checked against nash-net's own inference and timed at one
//! thread: evaluations a second per library, board size and batch size (docs/net-libs.md).
//!
//! Libraries: nash-net itself (im2col and `matrixmultiply`), kernels of this crate on the
//! `gemm` crate, candle, tract (tract-core, the model built in code) and burn on its ndarray
//! and flex CPU backends.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Parser;
use nash_board::{Cell, WidePosition};
use nash_net::{Arch, Net};

mod batch;
mod engine;
mod grad;
mod params;

use engine::Engine;

/// A library to time.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
enum Lib {
    /// nash-net's Evaluator: im2col and matrixmultiply.
    Nash,
    /// This crate's kernels on the gemm crate.
    Gemm,
    Candle,
    Tract,
    /// burn on its ndarray backend.
    BurnNdarray,
    /// burn on its flex backend.
    BurnFlex,
}

/// Times the net in candle, tract, burn and on two matrix-product crates, one thread.
#[derive(Debug, Parser)]
#[command(name = "nash-net-libs")]
struct Args {
    /// Board sizes (comma-separated).
    #[arg(long, value_delimiter = ',', default_values_t = [9, 11], value_parser = clap::value_parser!(u8).range(3..=19))]
    sizes: Vec<u8>,
    /// Batch sizes (comma-separated).
    #[arg(long, value_delimiter = ',', default_values_t = [1, 8, 32], value_parser = clap::value_parser!(u16).range(1..=1024))]
    batches: Vec<u16>,
    /// Seconds of measuring per library, board size and batch size.
    #[arg(long, default_value_t = 2.0, value_parser = seconds)]
    seconds: f64,
    /// Libraries (comma-separated; all by default).
    #[arg(long, value_delimiter = ',', value_enum)]
    libs: Vec<Lib>,
    /// A weights file (default: nash-net's default architecture with random weights).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// The seed of the random weights.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The largest difference from nash-net's policy or value accepted.
    #[arg(long, default_value_t = 1e-4)]
    tolerance: f32,
    /// Examples per training gradient timed (0: no training check nor figures).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u16).range(0..=1024))]
    train_batch: u16,
}

/// A library's gradient of the training loss (value weight 1), in nash-net's layout order.
type Gradient = fn(&Net, &[nash_net::planes::Example]) -> anyhow::Result<Vec<f32>>;

/// The libraries that train, and their gradients.
fn trainers(libs: &[Lib]) -> Vec<(&'static str, Gradient)> {
    let all: [(Lib, &str, Gradient); 4] = [
        (Lib::Nash, "nash-net (own backpropagation)", |net, ex| {
            Ok(nash_net::train::gradient(net, ex, 1.0).0)
        }),
        (Lib::Candle, "candle (backprop)", |net, ex| engine::candle::gradient(net, ex, 1.0)),
        (Lib::BurnNdarray, "burn (autodiff, ndarray backend)", |net, ex| {
            // Deprecated in favour of flex, and measured beside it.
            #[allow(deprecated)]
            engine::burn::gradient(net, ex, 1.0, burn::tensor::Device::ndarray())
        }),
        (Lib::BurnFlex, "burn (autodiff, flex backend)", |net, ex| {
            engine::burn::gradient(net, ex, 1.0, burn::tensor::Device::flex())
        }),
    ];
    all.into_iter().filter(|(l, ..)| libs.contains(l)).map(|(_, name, g)| (name, g)).collect()
}

/// Checks each training library's gradient against nash-net's backpropagation on the
/// agreement positions of each size, then times a gradient of `batch` middle-game examples.
fn check_training(
    net: &Net,
    libs: &[Lib],
    sizes: &[usize],
    batch: usize,
    time: Duration,
) -> anyhow::Result<()> {
    let trainers = trainers(libs);
    let planes = net.arch().planes;
    println!("Training: the gradient of nash-net's loss (policy cross-entropy plus the value's squared error) against nash-net's backpropagation, largest difference relative to the largest entry:");
    println!();
    println!("| library | gradient |");
    println!("|---|---:|");
    let mut failed = Vec::new();
    for (name, gradient) in &trainers {
        let mut worst = 0.0f32;
        for &size in sizes {
            let n = size * size;
            let counts = [0, 1, size, n / 4, n / 2, n / 2 + 1];
            let examples = grad::examples(&positions(size, counts.len(), |i| counts[i])?, planes)?;
            let want = nash_net::train::gradient(net, &examples, 1.0).0;
            let got = gradient(net, &examples)?;
            if got.len() != want.len() {
                bail!("{name}: {} gradient entries, nash-net has {}", got.len(), want.len());
            }
            worst = grad::worse(worst, grad::relative_difference(&got, &want));
        }
        println!("| {name} | {worst:.1e} |");
        if worst > 1e-3 {
            failed.push(*name);
        }
    }
    println!();
    if !failed.is_empty() {
        bail!("{} disagree with nash-net's gradient beyond 1e-3", failed.join(", "));
    }
    let load_before = load_average();
    let mut rows = Vec::new();
    for (name, gradient) in &trainers {
        let mut rates = Vec::new();
        for &size in sizes {
            let all = positions(size, batch, |i| size * size / 4 + i % 2)?;
            let examples = grad::examples(&all, planes)?;
            gradient(net, &examples)?;
            let start = Instant::now();
            let mut done = 0u64;
            while start.elapsed() < time {
                std::hint::black_box(gradient(net, &examples)?);
                done += batch as u64;
            }
            rates.push(format!("{:.0}", done as f64 / start.elapsed().as_secs_f64()));
            eprintln!("training {size}x{size}: {name} {}", rates.last().expect("pushed"));
        }
        rows.push(format!("| {name} | {} |", rates.join(" | ")));
    }
    println!("Training examples a second (one gradient of {batch} middle-game examples, one thread); load average {load_before} before, {} after:", load_average());
    println!();
    let head: Vec<String> = sizes.iter().map(|s| format!("{s}x{s}")).collect();
    println!("| library | {} |", head.join(" | "));
    println!("|---|{}", "---:|".repeat(sizes.len()));
    for row in rows {
        println!("{row}");
    }
    println!();
    Ok(())
}

fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 3600.0 => Ok(v),
        _ => Err(format!("{s:?} is not a number of seconds between 0 and 3600")),
    }
}

/// `count` positions of a square `size` board, the i-th with `stones(i)` stones placed by a
/// fixed pseudo-random sequence (an odd count leaves White to move).
fn positions(
    size: usize,
    count: usize,
    stones: impl Fn(usize) -> usize,
) -> anyhow::Result<Vec<WidePosition>> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ size as u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|i| {
            let mut pos = WidePosition::square(size)?;
            let stones = stones(i).min(size * size);
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

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn engine(lib: Lib, net: &Arc<Net>) -> anyhow::Result<Box<dyn Engine>> {
    Ok(match lib {
        Lib::Nash => Box::new(engine::nash::Nash::new(net.clone())),
        Lib::Gemm => Box::new(engine::gemm::Gemm::new(net)),
        Lib::Candle => Box::new(engine::candle::Candle::new(net)?),
        Lib::Tract => Box::new(engine::tract::Tract::new(net)),
        // Deprecated in favour of flex, and measured beside it.
        #[allow(deprecated)]
        Lib::BurnNdarray => Box::new(engine::burn::Burn::new(
            net,
            burn::tensor::Device::ndarray(),
            "burn (ndarray backend)",
        )),
        Lib::BurnFlex => Box::new(engine::burn::Burn::new(
            net,
            burn::tensor::Device::flex(),
            "burn (flex backend)",
        )),
    })
}

/// Checks every engine's answers against nash-net's on a few positions of each size: empty,
/// opening, middle game and crowded boards, both sides to move, in one batch.
fn check_agreement(
    engines: &mut [Box<dyn Engine>],
    reference: &mut dyn Engine,
    sizes: &[usize],
    tolerance: f32,
) -> anyhow::Result<()> {
    println!("Agreement with nash-net's own inference (largest difference over {sizes:?}, six positions each):");
    println!();
    println!("| library | policy | value |");
    println!("|---|---:|---:|");
    let mut failed = Vec::new();
    for e in engines.iter_mut() {
        let (mut dp, mut dv) = (0.0f32, 0.0f32);
        for &size in sizes {
            let n = size * size;
            let counts = [0, 1, size, n / 4, n / 2, n / 2 + 1];
            let set = positions(size, counts.len(), |i| counts[i])?;
            let want = reference.evaluate(&set)?.to_vec();
            let name = e.name().to_string();
            let got = e.evaluate(&set).with_context(|| format!("{name} failed"))?;
            for (g, w) in got.iter().zip(&want) {
                if g.policy.len() != w.policy.len() {
                    bail!(
                        "{name}: {} policy entries, nash-net has {}",
                        g.policy.len(),
                        w.policy.len()
                    );
                }
                dv = grad::worse(dv, (g.value - w.value).abs());
                for (a, b) in g.policy.iter().zip(&w.policy) {
                    dp = grad::worse(dp, (a - b).abs());
                }
            }
        }
        println!("| {} | {dp:.1e} | {dv:.1e} |", e.name());
        if dp > tolerance || dv > tolerance {
            failed.push(e.name().to_string());
        }
    }
    println!();
    if !failed.is_empty() {
        bail!("{} disagree with nash-net beyond {tolerance:e}", failed.join(", "));
    }
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    // One thread everywhere: candle, burn's backends and rayon read RAYON_NUM_THREADS; tract
    // runs on one thread unless given an executor; the gemm engine asks for no parallelism.
    std::env::set_var("RAYON_NUM_THREADS", "1");
    rayon::ThreadPoolBuilder::new().num_threads(1).build_global()?;
    tract_core::prelude::tract_linalg::multithread::set_default_executor(
        tract_core::prelude::tract_linalg::multithread::Executor::SingleThread,
    );

    let net = match &args.weights {
        Some(path) => Net::load(path)?,
        None => Net::random(Arch::default(), args.seed),
    };
    let arch = net.arch();
    let net = Arc::new(net);
    let libs = if args.libs.is_empty() {
        vec![Lib::Nash, Lib::Gemm, Lib::Candle, Lib::Tract, Lib::BurnNdarray, Lib::BurnFlex]
    } else {
        args.libs.clone()
    };
    let mut engines = libs.iter().map(|&l| engine(l, &net)).collect::<anyhow::Result<Vec<_>>>()?;
    let mut reference = engine::nash::Nash::new(net.clone());
    let sizes: Vec<usize> = args.sizes.iter().map(|&s| usize::from(s)).collect();
    let weights = match &args.weights {
        Some(path) => format!("weights {}", path.display()),
        None => format!("random weights, seed {}", args.seed),
    };
    println!("Net: {arch} ({} parameters), {weights}; one thread.", arch.param_count());
    println!();
    check_agreement(&mut engines, &mut reference, &sizes, args.tolerance)?;
    let time = Duration::from_secs_f64(args.seconds);
    if args.train_batch > 0 {
        check_training(&net, &libs, &sizes, usize::from(args.train_batch), time)?;
    }

    // Cell by cell, every library in turn, so that a change of the machine's load falls on
    // all of them alike.
    let cells: Vec<(usize, usize)> = sizes
        .iter()
        .flat_map(|&s| args.batches.iter().map(move |&b| (s, usize::from(b))))
        .collect();
    let load_before = load_average();
    let mut rates = vec![vec![0.0; cells.len()]; engines.len()];
    for (c, &(size, batch)) in cells.iter().enumerate() {
        let all = positions(size, 32, |i| size * size / 4 + i % 2)?;
        let set: Vec<WidePosition> = all.iter().cycle().take(batch).cloned().collect();
        for (e, engine) in engines.iter_mut().enumerate() {
            engine.evaluate(&set)?;
            engine.evaluate(&set)?;
            let start = Instant::now();
            let mut evals = 0u64;
            while start.elapsed() < time {
                std::hint::black_box(engine.evaluate(&set)?);
                evals += batch as u64;
            }
            rates[e][c] = evals as f64 / start.elapsed().as_secs_f64();
            eprintln!("{size}x{size} batch {batch}: {} {:.0} evals/s", engine.name(), rates[e][c]);
        }
    }
    let load_after = load_average();

    println!("Evaluations a second, one thread, {} s per cell; load average (1, 5, 15 min) {load_before} before, {load_after} after:", args.seconds);
    println!();
    let head: Vec<String> = cells.iter().map(|(s, b)| format!("{s}x{s} b{b}")).collect();
    println!("| library | {} |", head.join(" | "));
    println!("|---|{}", "---:|".repeat(cells.len()));
    for (engine, row) in engines.iter().zip(&rates) {
        let row: Vec<String> = row.iter().map(|r| format!("{r:.0}")).collect();
        println!("| {} | {} |", engine.name(), row.join(" | "));
    }
    Ok(())
}
