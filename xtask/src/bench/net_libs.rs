//! `cargo xtask bench net-libs`: the policy and value net in candle, tract, burn and on two
//! matrix-product crates, checked against nash-net and timed on one thread, and the training
//! loss's gradient in those that train (docs/net-libs.md). The libraries live in the
//! standalone crate bench/net-libs, outside the workspace, so that only this command builds
//! them.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context};

/// The libraries bench/net-libs knows.
const LIBS: [&str; 6] = ["nash", "gemm", "candle", "tract", "burn-ndarray", "burn-flex"];

/// Arguments of `cargo xtask bench net-libs`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board sizes (comma-separated).
    #[arg(long, value_delimiter = ',', default_values_t = [9, 11], value_parser = clap::value_parser!(u8).range(3..=19))]
    sizes: Vec<u8>,
    /// Batch sizes (comma-separated).
    #[arg(long, value_delimiter = ',', default_values_t = [1, 8, 32], value_parser = clap::value_parser!(u16).range(1..=1024))]
    batches: Vec<u16>,
    /// Seconds of measuring per library, board size and batch size.
    #[arg(long, default_value = "2", value_parser = crate::parse_seconds)]
    seconds: std::time::Duration,
    /// Libraries (comma-separated: nash, gemm, candle, tract, burn-ndarray, burn-flex; all by
    /// default).
    #[arg(long, value_delimiter = ',', value_parser = clap::builder::PossibleValuesParser::new(LIBS))]
    libs: Vec<String>,
    /// A weights file (default: the default architecture with random weights).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Examples per training gradient timed, in the libraries that train (0: no training
    /// check nor figures).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u16).range(0..=1024))]
    train_batch: u16,
}

fn join<T: ToString>(values: &[T]) -> String {
    values.iter().map(T::to_string).collect::<Vec<_>>().join(",")
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask is in the workspace");
    let manifest = root.join("bench/net-libs/Cargo.toml");
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args(["run", "--release", "--locked", "--manifest-path"])
        .arg(&manifest)
        .args(["--", "--sizes", &join(&args.sizes), "--batches", &join(&args.batches)])
        .args(["--seconds", &args.seconds.as_secs_f64().to_string()])
        .args(["--train-batch", &args.train_batch.to_string()]);
    if !args.libs.is_empty() {
        cmd.args(["--libs", &join(&args.libs)]);
    }
    if let Some(path) = &args.weights {
        cmd.arg("--weights").arg(path);
    }
    let status = cmd.status().context("cannot run cargo run for bench/net-libs")?;
    if !status.success() {
        bail!("bench/net-libs failed ({status})");
    }
    Ok(())
}
