//! `cargo xtask bench <area>`: criterion benchmarks per crate, the solving tables, the
//! players' speed, the policy and value net's inference speed (in nash-net and in other
//! numerical libraries), and the solver side by side with a reference engine.

use std::process::Command;

use anyhow::{bail, Context};
use clap::Subcommand;

mod net;
mod net_libs;
mod play;
mod prior;
mod solve;
mod vs_ref;

/// Arguments of `cargo xtask bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    area: Area,
}

/// What to measure.
#[derive(Debug, Subcommand)]
enum Area {
    /// Criterion benchmarks of nash-board.
    Board(Criterion),
    /// Criterion benchmarks of inferior cell analysis (nash-patterns).
    Ica(Criterion),
    /// Criterion benchmarks of H-search (nash-vc).
    Vc(Criterion),
    /// The solving tables: 6x6 and 7x7 openings, the empty 8x8 board.
    Solve(solve::Args),
    /// The players' speed: nodes per second and depth reached per move.
    Play(play::Args),
    /// The policy and value net's inference speed: evaluations a second at batch 1, 8, 32.
    Net(net::Args),
    /// How often the net, the local patterns and the circuit order name the move the player's
    /// search chose, on held-out self-play positions.
    Prior(prior::Args),
    /// The net in candle, tract, burn and on the gemm crate beside nash-net's own inference,
    /// checked against it: evaluations a second at one thread (builds bench/net-libs).
    NetLibs(net_libs::Args),
    /// Nash's df-pn against another HTP engine's (MoHex), the same positions in one run.
    VsRef(vs_ref::Args),
}

/// Arguments passed on to criterion.
#[derive(Debug, clap::Args)]
struct Criterion {
    /// Extra arguments for the benchmark binary (a filter, `--save-baseline NAME`, ...).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    rest: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let (package, rest) = match args.area {
        Area::Board(c) => ("nash-board", c.rest),
        Area::Ica(c) => ("nash-patterns", c.rest),
        Area::Vc(c) => ("nash-vc", c.rest),
        Area::Solve(a) => return solve::run(a),
        Area::Play(a) => return play::run(a),
        Area::Net(a) => return net::run(a),
        Area::Prior(a) => return prior::run(a),
        Area::NetLibs(a) => return net_libs::run(a),
        Area::VsRef(a) => return vs_ref::run(a),
    };
    let status = Command::new(env!("CARGO"))
        .args(["bench", "-p", package, "--"])
        .args(&rest)
        .status()
        .context("cannot run cargo bench")?;
    if !status.success() {
        bail!("cargo bench -p {package} failed");
    }
    Ok(())
}
