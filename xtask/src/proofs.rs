//! `cargo xtask proofs`: proof certificates written and checked for many positions.
//!
//! `sweep` writes and checks the certificate of every position of testdata/solved.tsv up to a
//! size (`cargo test` checks a sample); `measure` does the same for the one-move openings of a
//! size and its empty board, and prints each certificate's size and check time with their
//! medians (the figures of docs/proofs.md). Exits non-zero if any certificate is not written,
//! fails its check, or proves the wrong winner.

use std::time::{Duration, Instant};

use anyhow::bail;
use nash_board::{Bitboard, Color, Position};
use nash_search::{certificate, CertifyConfig, SolverConfig, DEFAULT_SEARCH};

use crate::regress::{openings, solved, Case};

/// Arguments of `cargo xtask proofs`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// `sweep`: every position of solved.tsv up to --max-size; `measure`: the openings of
    /// --size and its empty board.
    #[arg(value_enum)]
    what: What,
    /// The largest board of `sweep`.
    #[arg(long, default_value_t = 6)]
    max_size: usize,
    /// The board of `measure`.
    #[arg(long, default_value_t = 7)]
    size: usize,
    /// `measure` only these positions: openings by their cell, `-` for the empty board
    /// (comma-separated).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Positions with at most this many empty cells are left to the checker's search.
    #[arg(long, default_value_t = DEFAULT_SEARCH)]
    search: usize,
    /// Write every line out instead of closing it with a virtual connection.
    #[arg(long)]
    no_vc: bool,
    /// The solver's memory limit in MiB.
    #[arg(long, default_value_t = 1024)]
    tt_mib: usize,
    /// Give up on a position's certificate after this many seconds.
    #[arg(long, value_parser = crate::parse_seconds)]
    time_limit: Option<Duration>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum What {
    Sweep,
    Measure,
}

/// One certificate's figures.
struct Row {
    nodes: usize,
    bytes: usize,
    json_bytes: usize,
    build: Duration,
    check: Duration,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let cases = match args.what {
        What::Sweep => {
            let mut all = Vec::new();
            for n in 1..=args.max_size {
                all.extend(solved(n)?);
            }
            all
        }
        What::Measure => {
            let mut all = openings(args.size)?;
            let mut empty = Position::<Bitboard>::square(args.size)?;
            empty.set_to_move(Color::Black);
            let winner = solved(args.size)?.into_iter().find(|c| c.label == "-").map(|c| c.winner);
            // The first player wins every empty board (strategy stealing).
            all.push(Case {
                label: "-".into(),
                pos: empty,
                winner: winner.unwrap_or(Color::Black),
                winning: None,
            });
            if !args.only.is_empty() {
                all.retain(|c| args.only.contains(&c.label));
            }
            all
        }
    };
    let mut cfg = CertifyConfig {
        solver: SolverConfig { tt_mib: args.tt_mib, ..SolverConfig::default() },
        search: args.search,
        vc: !args.no_vc,
    };
    cfg.solver.budget.time = args.time_limit;
    println!(
        "{:<10} {:<6} {:>9} {:>11} {:>11} {:>9} {:>9}",
        "position", "winner", "nodes", "bytes", "json bytes", "build s", "check s"
    );
    let mut rows = Vec::new();
    let mut failures = 0;
    for case in &cases {
        let label = format!("{}x{} {}", case.pos.cols(), case.pos.rows(), case.label);
        match one(case, &cfg) {
            Ok(r) => {
                println!(
                    "{:<10} {:<6} {:>9} {:>11} {:>11} {:>9.3} {:>9.3}",
                    label,
                    case.winner.to_string(),
                    r.nodes,
                    r.bytes,
                    r.json_bytes,
                    r.build.as_secs_f64(),
                    r.check.as_secs_f64()
                );
                rows.push(r);
            }
            Err(e) => {
                println!("{label:<10} FAILED: {e}");
                failures += 1;
            }
        }
    }
    if !rows.is_empty() {
        let median = |f: &dyn Fn(&Row) -> f64| {
            let mut v: Vec<f64> = rows.iter().map(f).collect();
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        println!(
            "{:<10} {:<6} {:>9} {:>11} {:>11} {:>9.3} {:>9.3}",
            "median",
            "",
            median(&|r| r.nodes as f64),
            median(&|r| r.bytes as f64),
            median(&|r| r.json_bytes as f64),
            median(&|r| r.build.as_secs_f64()),
            median(&|r| r.check.as_secs_f64())
        );
    }
    println!("{} of {} certificates checked", rows.len(), cases.len());
    if failures > 0 {
        bail!("{failures} certificates failed");
    }
    Ok(())
}

/// Writes, encodes, decodes and checks one position's certificate.
fn one(case: &Case, cfg: &CertifyConfig) -> anyhow::Result<Row> {
    let start = Instant::now();
    let cert = certificate(&case.pos, cfg)?;
    let build = start.elapsed();
    let bytes = cert.to_bytes();
    let json_bytes = cert.to_json().len();
    let start = Instant::now();
    let read = nash_proof::Certificate::from_bytes(&bytes)?;
    let checked = nash_proof::check(&read)?;
    let check = start.elapsed();
    if checked.winner != case.winner {
        bail!("proves {} wins, the ground truth says {}", checked.winner, case.winner);
    }
    Ok(Row { nodes: cert.nodes.len(), bytes: bytes.len(), json_bytes, build, check })
}
