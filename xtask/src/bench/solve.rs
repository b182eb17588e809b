//! `cargo xtask bench solve`: the solving tables (6x6 and 7x7 openings, the empty 8x8 board),
//! with medians, totals and peak memory next to the table-size limit. With more than one
//! thread a table of openings is solved side by side (`solve_many`) unless `--one-by-one`
//! asks for each position alone with every thread.

use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use nash_board::{Bitboard, Position};
use nash_search::{solve, solve_many, Parallel, SolverConfig, SolverKind};

use crate::regress::{knowledge, openings, Case};

fn peak_rss_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

struct Options {
    only: Option<String>,
    threads: Vec<usize>,
    tt_mib: usize,
    time_limit: f64,
    knowledge: String,
    hsearch: Vec<String>,
    each: bool,
    solver: SolverKind,
    parallel: Parallel,
    /// Solve a table's positions side by side (`--batch`) or one after another with every
    /// thread (`--one-by-one`); by default side by side when there is more than one thread.
    batch: Option<bool>,
}

fn parse(rest: &[String]) -> anyhow::Result<Options> {
    let mut o = Options {
        only: None,
        threads: vec![1, 2],
        tt_mib: 512,
        time_limit: 120.0,
        knowledge: "all".into(),
        hsearch: Vec::new(),
        each: false,
        solver: SolverKind::Dfpn,
        parallel: Parallel::Auto,
        batch: None,
    };
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--only" => o.only = Some(val()?.clone()),
            "--threads" => {
                o.threads = val()?
                    .split(',')
                    .map(|t| t.parse().context("--threads takes numbers like 1,2"))
                    .collect::<Result<_, _>>()?
            }
            "--tt-mib" => o.tt_mib = val()?.parse().context("--tt-mib takes a number")?,
            "--time-limit" => {
                o.time_limit = val()?.parse().context("--time-limit takes seconds")?
            }
            "--knowledge" => o.knowledge = val()?.clone(),
            "--hsearch" => o.hsearch.extend(val()?.split(',').map(str::to_string)),
            "--each" => o.each = true,
            "--solver" => o.solver = val()?.parse().map_err(anyhow::Error::msg)?,
            "--parallel" => o.parallel = val()?.parse().map_err(anyhow::Error::msg)?,
            "--batch" => o.batch = Some(true),
            "--one-by-one" => o.batch = Some(false),
            other => bail!(
                "unknown option {other:?}: expected --only 6x6|7x7|8x8, --threads 1,2, \
                 --tt-mib M, --time-limit S, --knowledge all|fill|none, --hsearch WORDS, --each, --solver NAME, \
                 --parallel auto|jobs|tree, --batch, --one-by-one"
            ),
        }
    }
    Ok(o)
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
) -> (usize, usize) {
    // One position has nothing to solve beside it: `solve_many` would give it every thread.
    let batch = batch && cases.len() > 1;
    let mut times = Vec::new();
    let mut wrong = 0;
    let mut undecided = 0;
    let mut worst = (0.0, String::new());
    let mut nodes = 0;
    let started = Instant::now();
    let results = if batch {
        let positions: Vec<_> = cases.iter().map(|c| c.pos.clone()).collect();
        solve_many(&positions, cfg)
    } else {
        cases.iter().map(|c| solve(&c.pos, cfg)).collect()
    };
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

pub fn run(rest: &[String]) -> anyhow::Result<()> {
    let o = parse(rest)?;
    let want = |s: &str| o.only.as_deref().map_or(true, |x| x == s);
    let mut wrong = 0;
    for &threads in &o.threads {
        let mut cfg = SolverConfig {
            kind: o.solver,
            threads,
            parallel: o.parallel,
            tt_mib: o.tt_mib,
            knowledge: knowledge(&o.knowledge)?,
            ..SolverConfig::default()
        };
        for w in &o.hsearch {
            cfg.knowledge.hsearch.apply(w).with_context(|| format!("--hsearch {w}"))?;
        }
        cfg.budget.time = Some(Duration::from_secs_f64(o.time_limit));
        // A set of positions on several threads is solved side by side, as `nash solve
        // --batch` and `nash winning` do; one thread solves each position alone.
        let batch = o.batch.unwrap_or(threads > 1);
        if want("6x6") {
            wrong += table("6x6 openings", &openings(6)?, &cfg, o.each, batch).0;
        }
        if want("7x7") {
            wrong += table("7x7 openings", &openings(7)?, &cfg, o.each, batch).0;
        }
        if want("8x8") {
            let pos: Position<Bitboard> = Position::square(8)?;
            let case = Case {
                label: "empty".into(),
                pos,
                winner: nash_board::Color::Black,
                winning: None,
            };
            wrong += table("8x8 empty", &[case], &cfg, o.each, batch).0;
        }
    }
    if wrong > 0 {
        bail!("{wrong} wrong values");
    }
    Ok(())
}
