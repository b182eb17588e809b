//! `nash solve`: the value of a position, a winning move, the proof's carrier and statistics.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::bail;
use nash_board::{BitSet, Position};
use nash_search::{Knowledge, Outcome, Parallel, SolveResult, SolverConfig, SolverKind, Stats};
use serde::Serialize;

mod batch;

/// Arguments of `nash solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: crate::input::PositionArgs,
    #[command(flatten)]
    pub solver: SolverArgs,
    /// Solve every position listed in this file instead (one per line, written as the
    /// position argument is; blank lines and lines starting with `#` are skipped), side by
    /// side on the threads, one line of result each.
    #[arg(long, value_name = "FILE", conflicts_with = "position")]
    batch: Option<std::path::PathBuf>,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

/// Solver options shared by `nash solve` and `nash winning`.
#[derive(Debug, Clone, clap::Args)]
pub struct SolverArgs {
    /// The algorithm: dfpn, ews, pns, negamax, pattern or cus.
    #[arg(long, default_value = "dfpn")]
    pub solver: String,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// How df-pn's threads share the work: auto, jobs (each root move a job) or tree (all
    /// workers below the root's chosen move).
    #[arg(long, default_value = "auto")]
    pub parallel: String,
    /// Memory limit in MiB for the transposition table and the search workers' caches.
    #[arg(long, default_value_t = 256)]
    pub tt_mib: usize,
    /// Give up after this many seconds.
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// Give up after this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Turn off all knowledge (fill-in, virtual connections, mustplay, ordering).
    #[arg(long)]
    pub no_knowledge: bool,
    /// Change the solver's H-search: comma-separated variant words applied in order to its
    /// default (e.g. `or=3,max-semis=32`; `default`, `fast`, `exact`, `[no-]border`, ...).
    #[arg(long, value_name = "WORDS")]
    pub hsearch: Option<String>,
}

impl SolverArgs {
    /// The solver configuration these options describe.
    pub fn config(&self) -> anyhow::Result<SolverConfig> {
        let kind: SolverKind = self.solver.parse().map_err(anyhow::Error::msg)?;
        let parallel: Parallel = self.parallel.parse().map_err(anyhow::Error::msg)?;
        if self.threads == 0 {
            bail!("invalid --threads 0: at least one thread is needed");
        }
        let mut cfg = SolverConfig {
            kind,
            threads: self.threads,
            parallel,
            tt_mib: self.tt_mib,
            ..SolverConfig::default()
        };
        if let Some(t) = self.time_limit {
            if !(t.is_finite() && t > 0.0) {
                bail!("invalid --time-limit {t}: expected a positive number of seconds");
            }
            cfg.budget.time = Some(Duration::from_secs_f64(t));
        }
        cfg.budget.nodes = self.nodes;
        if self.no_knowledge {
            cfg.knowledge = Knowledge::none();
        }
        for word in self.hsearch.iter().flat_map(|w| w.split(',')) {
            cfg.knowledge.hsearch.apply(word.trim())?;
        }
        Ok(cfg)
    }
}

/// A progress line on stderr for long solves: elapsed time, once a second, after the first.
pub struct Ticker {
    stop: Arc<AtomicBool>,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl Ticker {
    /// Starts the ticker (silent when `quiet`, or when stderr is not a terminal, so that logs
    /// stay clean).
    pub fn start(what: &'static str, quiet: bool) -> Ticker {
        use std::io::IsTerminal;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let quiet = quiet || !std::io::stderr().is_terminal();
        let handle = (!quiet).then(|| {
            std::thread::spawn(move || {
                let start = Instant::now();
                let mut shown = false;
                while !flag.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                    let t = start.elapsed();
                    if t >= Duration::from_secs(1) && t.subsec_millis() < 100 {
                        eprint!("\r{what}… {}s", t.as_secs());
                        let _ = std::io::stderr().flush();
                        shown = true;
                    }
                }
                if shown {
                    eprint!("\r\x1b[K");
                }
            })
        });
        Ticker { stop, handle }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// What `nash solve` reports about one position.
#[derive(Serialize)]
pub(crate) struct Report {
    to_move: String,
    result: &'static str,
    winner: Option<String>,
    winning_move: Option<String>,
    carrier: Option<Vec<String>>,
    reason: Option<String>,
    solver: String,
    stats: Stats,
}

impl Report {
    /// The report of solving `p` with the solver named `solver`.
    fn new<B: BitSet>(p: &Position<B>, r: SolveResult<B>, solver: &str) -> Report {
        let to_move = p.to_move();
        let (result, mv, carrier, reason) = match &r.outcome {
            Outcome::Win { winning_move, carrier } => {
                ("win", winning_move.map(|c| c.to_string()), Some(names(*carrier)), None)
            }
            Outcome::Loss { carrier } => ("loss", None, Some(names(*carrier)), None),
            Outcome::Unknown { reason } => ("unknown", None, None, Some(reason.to_string())),
        };
        Report {
            to_move: to_move.to_string(),
            result,
            winner: r.outcome.winner(to_move).map(|c| c.to_string()),
            winning_move: mv,
            carrier,
            reason,
            solver: solver.to_owned(),
            stats: r.stats,
        }
    }
}

/// What `nash solve` solves when no position is given: the empty board, 7x7 unless `--size`
/// says otherwise.
const DEFAULT_SOLVE: (&str, &str) = ("-", "7");

pub fn run(mut args: Args) -> anyhow::Result<()> {
    if let Some(path) = &args.batch {
        return batch::run(path, &args.position, &args.solver, args.json);
    }
    if args.position.position.is_none() {
        args.position.position = Some(DEFAULT_SOLVE.0.to_owned());
        args.position.size.get_or_insert_with(|| DEFAULT_SOLVE.1.to_owned());
    }
    let pos = crate::input::load(&args.position)?;
    let cfg = args.solver.config()?;
    nash_board::with_position!(&pos, p => report(p, &cfg, &args))
}

fn names<B: BitSet>(set: B) -> Vec<String> {
    set.iter().map(|c| c.to_string()).collect()
}

fn report<B: BitSet>(p: &Position<B>, cfg: &SolverConfig, args: &Args) -> anyhow::Result<()> {
    let r = {
        let _t = Ticker::start("solving", args.json);
        nash_search::solve(p, cfg)
    };
    let rep = Report::new(p, r, &args.solver.solver);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rep)?);
        return Ok(());
    }
    println!("{p}");
    match &rep.winner {
        Some(w) => println!("{} to move: {} ({w} wins)", rep.to_move, rep.result),
        None => println!("{} to move: unknown ({})", rep.to_move, rep.reason.unwrap_or_default()),
    }
    if let Some(m) = &rep.winning_move {
        println!("winning move: {m}");
    }
    if let Some(c) = &rep.carrier {
        println!("carrier ({} cells): {}", c.len(), c.join(" "));
    }
    let s = rep.stats;
    println!(
        "nodes {}  time {:.3}s  tt hits {}  knowledge calls {} (decided {}, cached {})",
        s.nodes,
        s.time.as_secs_f64(),
        s.tt_hits,
        s.knowledge_calls,
        s.knowledge_decided,
        s.knowledge_cached
    );
    Ok(())
}
