//! `cargo xtask`: Nash's task runner for slow regression suites, experiments and benchmarks.
//!
//! Each task lives in its own module; this file only parses the command line.

use clap::{Parser, Subcommand};

mod bench;
mod cluster_demo;
mod experiment;
mod hexgui;
mod htp;
mod openings;
mod patterns;
mod proofs;
mod regress;
mod regress_tst;
mod selfplay;
mod soak;
mod swap_table;
mod templates;
mod tournament;
mod train;
mod verify_patterns;
mod web;

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
    /// Benchmarks: `board`, `ica`, `vc` (criterion), `solve` (the solving tables), `play`
    /// (the players' speed) and `net` (the net's inference speed).
    Bench(bench::Args),
    /// Verify every shipped inferior-cell pattern by brute force.
    VerifyPatterns(verify_patterns::Args),
    /// Find the edge templates with helper stones with the solver (writes
    /// crates/nash-vc/templates/edge.txt), or check the shipped ones (`--check`).
    Templates(templates::Args),
    /// Write and check proof certificates: `sweep` (solved.tsv) or `measure` (a size's
    /// openings: sizes and check times).
    Proofs(proofs::Args),
    /// Solve a board's one-move openings one by one within a time limit each (resumable), and
    /// write their map to testdata/openings-NxN.tsv.
    Openings(openings::Args),
    /// Decide which one-stone openings White swaps on 7x7 to 13x13, from proofs and long
    /// searches (resumable), into crates/nash-play/src/swap-table.tsv and
    /// docs/pictures/swap-NxN.svg.
    SwapTable(swap_table::Args),
    /// Reproduce the seed papers' tables with Nash's code.
    Experiment(experiment::Args),
    /// Learn the Monte Carlo players' local-pattern weights from positions the solver decides
    /// (writes crates/nash-play/src/patterns.txt).
    Patterns(patterns::Args),
    /// Play HTP engines against each other: Nash's players, MoHex, Wolve, any HTP engine.
    Tournament(tournament::Args),
    /// A HexGui session with `nash htp` attached on a virtual display, driven by xdotool,
    /// with screenshots in target/hexgui (installs Xvfb, xdotool and ImageMagick with apt).
    Hexgui(hexgui::Args),
    /// A split solve on a single-node Slurm cluster started here: split, job array, merge,
    /// the root from the merged database (needs Debian's slurm-wlm; docs/cluster.md).
    ClusterDemo(cluster_demo::Args),
    /// Attack the release `nash` as a hostile user would for N minutes: an HTP fuzzer with
    /// interrupts, bit flips and cuts of a database, time limits up to 19x19, hostile inputs
    /// (docs/reliability.md); fails on an overrun, a lost position, a panic or 1 GiB of memory.
    Soak(soak::Args),
    /// Build the browser page into a folder (`--out`, default target/web); `--check` drives it
    /// in headless Chromium against the `nash` binary, `--serve PORT` serves it (docs/web.md).
    Web(web::Args),
    /// Train the policy and value net on self-play sample files (`--data DIR` of `*.nsp`):
    /// checkpoints, a TSV of the curves and their SVG plots in `--out` (resumed when rerun).
    Train(train::Args),
    /// Self-play games of a Monte Carlo player as the net's training samples (`--size N
    /// --games G --out FILE.nsp`, resumed when rerun), or `--summary FILE.nsp`: its figures
    /// and the check that its exact values agree.
    Selfplay(selfplay::Args),
    /// Serve HTP with Nash's engine, as `nash htp` does (tests of the tournament play it
    /// without building the `nash` binary).
    #[command(hide = true)]
    Htp(HtpArgs),
}

/// Arguments of the hidden `cargo xtask htp`.
#[derive(Debug, clap::Args)]
struct HtpArgs {
    /// The player `genmove` asks (as `nash htp --player`).
    #[arg(long, default_value = nash_play::DEFAULT_PLAYER)]
    player: String,
}

/// Appends `record` as one JSON line to the results file `path` (created if missing), so that
/// a run's finished work is on disk the moment it ends.
fn append_json_line(path: &std::path::Path, record: &impl serde::Serialize) -> anyhow::Result<()> {
    use anyhow::Context;
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    writeln!(f, "{}", serde_json::to_string(record)?)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// The one-minute load average, for a measurement's record (`None` where the system has none).
fn load_average() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next().map(str::to_owned)
}

/// A number of seconds on the command line: positive, finite and at most 10^9 (so that a
/// deadline can be computed from it).
fn parse_seconds(s: &str) -> Result<std::time::Duration, String> {
    match s.parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 && t <= 1e9 => Ok(std::time::Duration::from_secs_f64(t)),
        _ => Err(format!("invalid seconds {s:?}: expected a positive number up to 1000000000")),
    }
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().task {
        Task::Regress(a) => regress::run(a),
        Task::RegressTst(a) => regress_tst::run(a),
        Task::Bench(a) => bench::run(a),
        Task::VerifyPatterns(a) => verify_patterns::run(a),
        Task::Templates(a) => templates::run(a),
        Task::Experiment(a) => experiment::run(a),
        Task::Openings(a) => openings::run(a),
        Task::SwapTable(a) => swap_table::run(a),
        Task::Patterns(a) => patterns::run(a),
        Task::Proofs(a) => proofs::run(a),
        Task::Tournament(a) => tournament::run(a),
        Task::Hexgui(a) => hexgui::run(a),
        Task::Web(a) => web::run(a),
        Task::ClusterDemo(a) => cluster_demo::run(a),
        Task::Soak(a) => soak::run(a),
        Task::Train(a) => train::run(a),
        Task::Selfplay(a) => selfplay::run(a),
        Task::Htp(a) => {
            let mut engine = nash_htp::Engine::with_player(&a.player)?;
            let stdin = std::io::BufReader::new(std::io::stdin());
            match engine.run_detached(stdin, std::io::stdout()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
                _ => Ok(()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::Cli;

    #[test]
    fn values_out_of_range_are_refused() {
        for args in [
            &["regress", "--size", "0"][..],
            &["regress", "--size", "20"][..],
            &["regress", "--time-limit", "1e19"][..],
            &["regress", "--threads", "0"][..],
            &["bench", "solve", "--only", "9x9"][..],
            &["bench", "solve", "--time-limit", "NaN"][..],
            &["bench", "solve", "--batch", "--one-by-one"][..],
            &["bench", "solve", "--solver", "magic"][..],
            &["experiment", "table1", "--time-limit", "0"][..],
            &["experiment", "table9"][..],
            &["regress-tst", "x.tst", "--timeout=-1"][..],
            &["bench", "vs-ref"][..],
            &["bench", "vs-ref", "--engine", "mohex", "--sets", "9x9"][..],
            &["bench", "vs-ref", "--engine", "mohex", "--threads", "0"][..],
            &["bench", "vs-ref", "--engine", "mohex", "--time-limit", "NaN"][..],
            &["bench", "net-libs", "--libs", "onnxruntime"][..],
            &["bench", "net-libs", "--batches", "0"][..],
            &["bench", "net-libs", "--seconds", "0"][..],
            &["openings", "--size", "12"][..],
            &["openings", "--time-limit", "0"][..],
            &["soak", "--minutes", "0"][..],
            &["soak", "--only", "fuzz"][..],
            &["soak", "--hang", "NaN"][..],
        ] {
            let argv = std::iter::once("xtask").chain(args.iter().copied());
            assert!(Cli::try_parse_from(argv).is_err(), "{args:?} accepted");
        }
        for args in [
            &["regress", "--size", "5", "--knowledge", "fill"][..],
            &["bench", "solve", "--only", "7x7", "--threads", "1,2", "--one-by-one"][..],
            &["bench", "board", "--", "--save-baseline", "x"][..],
            &["bench", "net-libs", "--sizes", "9", "--batches", "1,32", "--libs", "tract"][..],
            &["bench", "vs-ref", "--engine", "mohex --quiet", "--sets", "7x7,8x8-openings"][..],
            &["openings", "--size", "8", "--only", "a1,h1", "--time-limit", "60"][..],
            &["soak", "--minutes", "1", "--only", "db,hostile", "--nash", "target/release/nash"][..],
        ] {
            let argv = std::iter::once("xtask").chain(args.iter().copied());
            assert!(Cli::try_parse_from(argv).is_ok(), "{args:?} refused");
        }
    }

    #[test]
    fn bench_net_libs_has_help_without_building_its_libraries() {
        // The libraries are built only when the command runs; its options parse here.
        let err = Cli::try_parse_from(["xtask", "bench", "net-libs", "--help"]).unwrap_err();
        assert_eq!(err.kind(), clap::error::ErrorKind::DisplayHelp);
        let help = err.to_string();
        for option in ["--sizes", "--batches", "--seconds", "--libs", "--weights"] {
            assert!(help.contains(option), "{option} missing from:\n{help}");
        }
    }
}
