//! `cargo xtask bench solve`: the solving tables (6x6 and 7x7 openings, the empty 8x8 board),
//! with medians, totals and peak memory next to the table-size limit. With more than one
//! thread a table of openings is solved side by side (`solve_many`) unless `--one-by-one`
//! asks for each position alone with every thread.

use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use nash_board::{Bitboard, Position};
use nash_cli::progress::{Display, Watch};
use nash_search::{solve, solve_many, Parallel, SolverConfig, SolverKind};

use crate::regress::{openings, Case, KnowledgeArg};

fn peak_rss_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Arguments of `cargo xtask bench solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only this table.
    #[arg(long, value_enum)]
    only: Option<Table>,
    /// Thread counts, each measured in turn (comma-separated).
    #[arg(long, value_delimiter = ',', default_values_t = [1, 2], value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Vec<u16>,
    /// Memory limit in MiB for each solve's table and caches.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..))]
    tt_mib: u32,
    /// Seconds allowed per position.
    #[arg(long, default_value = "120", value_parser = crate::parse_seconds)]
    time_limit: Duration,
    /// Knowledge.
    #[arg(long, value_enum, default_value_t = KnowledgeArg::All)]
    knowledge: KnowledgeArg,
    /// H-search variant words applied to the solver's (comma-separated).
    #[arg(long, value_delimiter = ',')]
    hsearch: Vec<String>,
    /// Print a line per position.
    #[arg(long)]
    each: bool,
    /// The solver: dfpn, ews, pns, negamax, pattern or cus.
    #[arg(long, default_value = "dfpn", value_parser = |s: &str| s.parse::<SolverKind>())]
    solver: SolverKind,
    /// How df-pn's threads share a solve: auto, jobs or tree.
    #[arg(long, default_value = "auto", value_parser = |s: &str| s.parse::<Parallel>())]
    parallel: Parallel,
    /// Solve a table's positions side by side, one thread each (the default with more than
    /// one thread).
    #[arg(long, conflicts_with = "one_by_one")]
    batch: bool,
    /// Solve a table's positions one after another, every thread on each.
    #[arg(long)]
    one_by_one: bool,
    /// Write a progress line to stderr every few seconds (a bar is shown on a terminal anyway).
    #[arg(long)]
    progress: bool,
}

/// The tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Table {
    /// The 36 one-move 6x6 openings.
    #[value(name = "6x6")]
    Six,
    /// The 49 one-move 7x7 openings.
    #[value(name = "7x7")]
    Seven,
    /// The empty 8x8 board.
    #[value(name = "8x8")]
    Eight,
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Solves `cases` and prints one line of totals (and one per case with `each`). With `batch`
/// the cases are solved side by side, one thread each (`solve_many`), and the total is the
/// wall time of the whole set; otherwise one after another, and the total is the sum of their
/// times.
fn table(
    name: &str,
    cases: &[Case],
    cfg: &SolverConfig,
    each: bool,
    batch: bool,
    display: Display,
) -> (usize, usize) {
    // One position has nothing to solve beside it: `solve_many` would give it every thread.
    let batch = batch && cases.len() > 1;
    let mut times = Vec::new();
    let mut wrong = 0;
    let mut undecided = 0;
    let mut worst = (0.0, String::new());
    let mut nodes = 0;
    let started = Instant::now();
    let watch = Watch::start(name, display);
    let cfg = &SolverConfig { progress: Some(watch.progress()), ..cfg.clone() };
    let results = if batch {
        let positions: Vec<_> = cases.iter().map(|c| c.pos.clone()).collect();
        solve_many(&positions, cfg)
    } else {
        // Each solve announces only itself: count the table here.
        watch.count(cases.len());
        let each = |c: &Case| {
            let r = solve(&c.pos, cfg);
            watch.done_one();
            r
        };
        cases.iter().map(each).collect()
    };
    drop(watch);
    let wall = started.elapsed().as_secs_f64();
    for (c, r) in cases.iter().zip(results) {
        let t = r.stats.time.as_secs_f64();
        nodes += r.stats.nodes;
        match r.outcome.winner(c.pos.to_move()) {
            Some(w) if w == c.winner => {}
            Some(_) => wrong += 1,
            None => undecided += 1,
        }
        if t > worst.0 {
            worst = (t, c.label.clone());
        }
        if each {
            let value = match r.outcome.winner(c.pos.to_move()) {
                Some(w) if w == c.pos.to_move() => "win",
                Some(_) => "loss",
                None => "unknown",
            };
            println!("  {:<8} {value:<7} {t:>8.3}s  nodes {}", c.label, r.stats.nodes);
        }
        times.push(t);
    }
    let total: f64 = if batch { wall } else { times.iter().sum() };
    println!(
        "{name:<14} {:>2} thr{}  {:>3} pos  total {:>9.2}s  median {:>8.3}s  max {:>8.2}s ({})  nodes {nodes}  wrong {wrong}  undecided {undecided}  peak RSS {:.0} MiB (table limit {} MiB)",
        cfg.threads,
        if batch { " batch" } else { "" },
        cases.len(),
        total,
        median(&mut times),
        worst.0,
        worst.1,
        peak_rss_mib().unwrap_or(0.0),
        cfg.tt_mib
    );
    (wrong, undecided)
}

pub fn run(o: Args) -> anyhow::Result<()> {
    let want = |t: Table| o.only.map_or(true, |x| x == t);
    let display = Display::from_flag(o.progress);
    let mut wrong = 0;
    for &threads in &o.threads {
        let threads = usize::from(threads);
        let mut cfg = SolverConfig {
            kind: o.solver,
            threads,
            parallel: o.parallel,
            tt_mib: o.tt_mib as usize,
            knowledge: o.knowledge.knowledge(),
            ..SolverConfig::default()
        };
        for w in &o.hsearch {
            cfg.knowledge.hsearch.apply(w).with_context(|| format!("--hsearch {w}"))?;
        }
        cfg.budget.time = Some(o.time_limit);
        // A set of positions on several threads is solved side by side, as `nash solve
        // --batch` and `nash winning` do; one thread solves each position alone.
        let batch = o.batch || (threads > 1 && !o.one_by_one);
        if want(Table::Six) {
            wrong += table("6x6 openings", &openings(6)?, &cfg, o.each, batch, display).0;
        }
        if want(Table::Seven) {
            wrong += table("7x7 openings", &openings(7)?, &cfg, o.each, batch, display).0;
        }
        if want(Table::Eight) {
            let pos: Position<Bitboard> = Position::square(8)?;
            let case = Case {
                label: "empty".into(),
                pos,
                winner: nash_board::Color::Black,
                winning: None,
            };
            wrong += table("8x8 empty", &[case], &cfg, o.each, batch, display).0;
        }
    }
    if wrong > 0 {
        bail!("{wrong} wrong values");
    }
    Ok(())
}
