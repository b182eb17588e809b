//! `cargo xtask`: Nash's task runner for slow regression suites, experiments and benchmarks.
//!
//! Each task lives in its own module; this file only parses the command line.

use clap::{Parser, Subcommand};

mod bench;
mod experiment;
mod regress;
mod regress_tst;
mod verify_patterns;

/// Nash's task runner.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask")]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Debug, Subcommand)]
enum Task {
    /// Check the solvers against the 7x7 ground truth (slow; not part of `cargo test`).
    Regress(regress::Args),
    /// Run GoGui .tst regression suites against `nash htp`.
    RegressTst(regress_tst::Args),
    /// Benchmarks: `board`, `ica`, `vc` (criterion) and `solve` (the solving tables).
    Bench(bench::Args),
    /// Verify every shipped inferior-cell pattern by brute force.
    VerifyPatterns(verify_patterns::Args),
    /// Reproduce the seed papers' tables with Nash's code.
    Experiment(experiment::Args),
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().task {
        Task::Regress(a) => regress::run(a),
        Task::RegressTst(a) => regress_tst::run(a),
        Task::Bench(a) => bench::run(a),
        Task::VerifyPatterns(a) => verify_patterns::run(a),
        Task::Experiment(a) => experiment::run(a),
    }
}
