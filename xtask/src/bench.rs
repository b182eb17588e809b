//! `cargo xtask bench <area>`: criterion benchmarks per crate, and the solving tables.

use std::process::Command;

use anyhow::{bail, Context};

mod solve;

/// Arguments of `cargo xtask bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to measure: board, ica, vc or solve.
    area: String,
    /// Extra arguments passed to the benchmark.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    rest: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let package = match args.area.as_str() {
        "board" => "nash-board",
        "ica" => "nash-patterns",
        "vc" => "nash-vc",
        "solve" => return solve::run(&args.rest),
        other => bail!("unknown benchmark area {other:?}: expected board, ica, vc or solve"),
    };
    let status = Command::new(env!("CARGO"))
        .args(["bench", "-p", package, "--"])
        .args(&args.rest)
        .status()
        .context("cannot run cargo bench")?;
    if !status.success() {
        bail!("cargo bench -p {package} failed");
    }
    Ok(())
}
