//! `nash solve`: the value of a position, a winning move, the proof's carrier and statistics.

use std::time::Duration;

use nash_board::svg::{Overlay, Picture, Style};
use nash_board::{BitSet, CellList, Position};
use nash_board::{Cell, Color};
use nash_certify::{CertifyConfig, Form, Partial, TableCertificates};
use nash_cli::progress::{Display, Watch};
use nash_search::{
    Knowledge, MemoryLimit, Outcome, Parallel, SolveResult, SolverConfig, SolverKind, SolverTable,
    Stats,
};
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
    /// Skip the principal variation: each of its positions is solved again, which on the
    /// empty 8x8 board adds about half the solve's time.
    #[arg(long, conflicts_with = "batch")]
    no_pv: bool,
    #[command(flatten)]
    picture: crate::picture::SvgArgs,
    /// Write a proof certificate of the result to FILE (postcard binary; `nash check FILE`
    /// verifies it). While it is built, its nodes and a journal are kept in FILE.nodes and
    /// FILE.journal: a build killed part way goes on from them when the command is run again
    /// with the same position and settings. With `--threads N` its re-solves run on N threads
    /// (the certificate can then differ from run to run; each checks).
    #[arg(long, value_name = "FILE", conflicts_with = "batch")]
    proof: Option<std::path::PathBuf>,
    /// Write the certificate as JSON instead of binary.
    #[arg(long, requires = "proof")]
    proof_json: bool,
    /// Leave positions with at most N empty cells to the checker's exhaustive search (0 to 16).
    #[arg(long, value_name = "N", requires = "proof", default_value_t = nash_certify::DEFAULT_SEARCH as u8,
          value_parser = clap::value_parser!(u8).range(0..=nash_proof::SEARCH_LIMIT as i64))]
    proof_search: u8,
    /// Write every line of the strategy out instead of closing lines with virtual connections.
    #[arg(long, requires = "proof")]
    proof_no_vc: bool,
    /// Re-solve the certificate's positions without fill-in (smaller carriers), but give a
    /// position N nodes at most that way and then solve it with fill-in: on large boards the
    /// positions near the root take far longer without it (the empty 8x8 board: 100000).
    #[arg(long, value_name = "N", requires = "proof", value_parser = parse_node_count)]
    proof_fill_in_beyond: Option<u64>,
    /// Start the certificate with this move of the player to move, which must win, instead of
    /// the move the solver finds (every answer of the loser to it is in the certificate, so
    /// the first move can change its size; docs/proofs.md).
    #[arg(long, value_name = "CELL", requires = "proof")]
    proof_first: Option<String>,
    /// With --db: decide the position from the stored answers this many moves ahead when it
    /// is not stored itself (the root of a split solve; 0 to 4).
    #[arg(long, value_name = "D", default_value_t = 2, requires = "db",
          value_parser = clap::value_parser!(u8).range(0..=4))]
    db_depth: u8,
}

/// Solver options shared by `nash solve` and `nash winning`.
#[derive(Debug, Clone, clap::Args)]
pub struct SolverArgs {
    /// The algorithm.
    #[arg(long, value_enum, default_value_t = Solver::DEFAULT)]
    pub solver: Solver,
    /// Worker threads (1 to 256; more than the machine's cores run as that many).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = parse_threads)]
    pub threads: usize,
    /// How df-pn's threads share the work: each root move a job, or all workers below the
    /// root's chosen move.
    #[arg(long, value_enum, default_value_t = ParallelArg::AUTO)]
    pub parallel: ParallelArg,
    /// Memory limit in MiB for the transposition table and the search workers' caches (at most
    /// the machine's memory).
    #[arg(long, default_value_t = 256, value_name = "MIB", value_parser = parse_tt_mib)]
    pub tt_mib: usize,
    /// Give up after this many seconds (`winning`: for the whole command; `solve --batch`:
    /// for each position).
    #[arg(long, value_name = "SECONDS", value_parser = parse_time_limit)]
    pub time_limit: Option<Duration>,
    /// Give up after this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Turn off all knowledge (fill-in, virtual connections, mustplay, ordering).
    #[arg(long)]
    pub no_knowledge: bool,
    /// Change the solver's H-search: comma-separated variant words applied in order to its
    /// default (e.g. `or=3,max-semis=32`; `default`, `fast`, `exact`, `[no-]border`, ...).
    #[arg(long, value_name = "WORDS", value_parser = hsearch_words)]
    pub hsearch: Option<String>,
    /// Write a progress line to stderr every few seconds, for logs (on a terminal a progress
    /// bar is shown without it).
    #[arg(long)]
    pub progress: bool,
    /// A solved-position database (docs/db.md): positions found there are not solved again,
    /// and every position solved is stored (the file is created if missing).
    #[arg(long, value_name = "FILE")]
    pub db: Option<std::path::PathBuf>,
}

/// A clap value for a nash-search enum that lists itself (`ALL`) with a `name` and an `about`
/// line, so the command line's names and help are those written in nash-search.
macro_rules! named_arg {
    ($(#[$doc:meta])* $arg:ident($inner:ident), $default:ident = $value:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $arg(pub $inner);

        impl $arg {
            /// The default value.
            pub const $default: $arg = $arg($value);
            const ALL: [$arg; $inner::ALL.len()] = {
                let mut all = [$arg::$default; $inner::ALL.len()];
                let mut i = 0;
                while i < all.len() {
                    all[i] = $arg($inner::ALL[i]);
                    i += 1;
                }
                all
            };
        }

        impl std::fmt::Display for $arg {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.0.name())
            }
        }

        impl clap::ValueEnum for $arg {
            fn value_variants<'a>() -> &'a [$arg] {
                &$arg::ALL
            }

            fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
                Some(clap::builder::PossibleValue::new(self.0.name()).help(self.0.about()))
            }
        }
    };
}

named_arg!(
    /// `--solver`: a solver by its name in nash-search ([`SolverKind::name`]).
    Solver(SolverKind),
    DEFAULT = SolverKind::Dfpn
);

named_arg!(
    /// `--parallel`: a df-pn parallel mode by its name in nash-search ([`Parallel::name`]).
    ParallelArg(Parallel),
    AUTO = Parallel::Auto
);

/// `--threads`: the range HTP's `param_dfpn threads` accepts too.
fn parse_threads(s: &str) -> Result<usize, String> {
    let n = s.parse().map_err(|_| format!("invalid number {s:?}"))?;
    nash_play::limits::threads(n).map_err(|e| e.to_string())
}

/// A count of nodes: a whole number of at least 1.
fn parse_node_count(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(0) => Err("0 nodes: give at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("invalid node count {s:?}")),
    }
}

/// `--tt-mib`: at least 1 MiB, at most the machine's memory.
fn parse_tt_mib(s: &str) -> Result<usize, String> {
    let n = s.parse().map_err(|_| format!("invalid number {s:?}"))?;
    nash_play::limits::tt_mib(n).map_err(|e| e.to_string())
}

/// `--time-limit`: positive, finite and not absurdly large (a deadline must be representable).
fn parse_time_limit(s: &str) -> Result<Duration, String> {
    let secs: f64 = s.parse().map_err(|_| format!("invalid number {s:?}"))?;
    nash_play::limits::time_limit(secs).map_err(|e| e.to_string())
}

/// H-search variant words (separated by commas or spaces), each checked when the command line
/// is read, so that a misspelt word is refused before anything runs.
pub fn hsearch_words(s: &str) -> Result<String, String> {
    let mut scratch = nash_vc::HSearchConfig::default();
    for word in s.split([',', ' ']).filter(|w| !w.is_empty()) {
        scratch.apply(word).map_err(|e| e.to_string())?;
    }
    Ok(s.to_owned())
}

impl SolverArgs {
    /// Starts the progress display of the work named `what`, and `cfg` reporting into it.
    pub fn watch(&self, what: &str, cfg: &SolverConfig) -> (Watch, SolverConfig) {
        let watch = Watch::start(what, Display::from_flag(self.progress));
        let cfg = SolverConfig { progress: Some(watch.progress()), ..cfg.clone() };
        (watch, cfg)
    }

    /// Says on standard error when `--tt-mib` does not bound the solves of `cfg` on `p`'s
    /// board as asked (one solve, or `side_by_side` a set of them): a value beyond three
    /// quarters of the machine's memory is capped, and one below the smallest plan on the
    /// board is exceeded.
    pub fn warn_memory<B: BitSet>(&self, p: &Position<B>, cfg: &SolverConfig, side_by_side: bool) {
        let asked = cfg.tt_mib;
        match nash_search::memory_limit(cfg, p.geometry(), side_by_side) {
            MemoryLimit::AsAsked => {}
            MemoryLimit::Capped { mib } => eprintln!(
                "warning: --tt-mib {asked} is capped at {mib} MiB, three quarters of the \
                 machine's memory"
            ),
            MemoryLimit::Floor { mib } => eprintln!(
                "warning: --tt-mib {asked} is below the smallest plan on {}x{} with {} \
                 thread(s): the solve may take up to {mib} MiB",
                p.cols(),
                p.rows(),
                cfg.threads.max(1)
            ),
        }
    }

    /// The solver configuration these options describe.
    pub fn config(&self) -> anyhow::Result<SolverConfig> {
        let mut cfg = SolverConfig {
            kind: self.solver.0,
            threads: self.threads,
            parallel: self.parallel.0,
            tt_mib: self.tt_mib,
            ..SolverConfig::default()
        };
        cfg.budget.time = self.time_limit;
        cfg.budget.nodes = self.nodes;
        if self.no_knowledge {
            cfg.knowledge = Knowledge::none();
        }
        for word in self.hsearch.iter().flat_map(|w| w.split([',', ' '])).filter(|w| !w.is_empty())
        {
            cfg.knowledge.hsearch.apply(word)?;
        }
        Ok(cfg)
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
    /// The winning line, or the loser's best defence, from the position (`None` when not
    /// computed).
    principal_variation: Option<Vec<String>>,
    solver: String,
    /// Whether the answer was read from the database (`--db`) rather than solved.
    from_db: bool,
    stats: Stats,
}

impl Report {
    /// The report of solving `p` with the solver named `solver`.
    fn new<B: BitSet>(
        p: &Position<B>,
        r: SolveResult<B>,
        pv: Option<&[Cell]>,
        solver: &str,
    ) -> Report {
        let to_move = p.to_move();
        let (result, mv, carrier, reason) = match &r.outcome {
            Outcome::Win { winning_move, carrier } => {
                ("win", winning_move.map(|c| c.to_string()), Some(CellList(*carrier).names()), None)
            }
            Outcome::Loss { carrier } => ("loss", None, Some(CellList(*carrier).names()), None),
            Outcome::Unknown { reason } => ("unknown", None, None, Some(reason.to_string())),
        };
        Report {
            to_move: to_move.to_string(),
            result,
            winner: r.outcome.winner(to_move).map(|c| c.to_string()),
            winning_move: mv,
            carrier,
            reason,
            principal_variation: pv.map(|line| line.iter().map(|c| c.to_string()).collect()),
            solver: solver.to_owned(),
            from_db: false,
            stats: r.stats,
        }
    }
}

impl SolverArgs {
    /// The database of `--db`, opened for writing (a torn tail reported on stderr).
    pub fn open_db(&self) -> anyhow::Result<Option<nash_db::Db>> {
        let Some(path) = &self.db else { return Ok(None) };
        let db = crate::files::open_db(path)?;
        crate::cmd::db::warn_damage(&db);
        Ok(Some(db))
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(path) = &args.batch {
        if args.picture.svg.is_some() {
            anyhow::bail!("--svg draws one position: it does not go with --batch");
        }
        return batch::run(path, &args.position, &args.solver, args.json);
    }
    let pos = crate::input::load(&args.position)?;
    let cfg = args.solver.config()?;
    nash_board::with_position!(&pos, p => report(p, &cfg, &args))
}

/// What the caption says of the numbered stones.
fn numbered(pv: &[Cell]) -> &'static str {
    if pv.is_empty() {
        ""
    } else {
        "; numbered: the principal variation"
    }
}

/// How a principal variation ends: with a connection, or cut short by the budget.
fn line_end<B: BitSet>(p: &Position<B>, line: &[Cell]) -> String {
    let mut end = p.clone();
    for &c in line {
        if end.play(c).is_err() {
            break;
        }
    }
    match end.winner() {
        Some(Color::Black) => "black connects".to_owned(),
        Some(Color::White) => "white connects".to_owned(),
        None => "cut short by the budget".to_owned(),
    }
}

/// The picture of `nash solve`: the proof's carrier, the winning move and the principal
/// variation as numbered stones.
fn picture<B: BitSet>(p: &Position<B>, outcome: &Outcome<B>, pv: &[Cell]) -> String {
    let to_move = p.to_move();
    let pic = Picture::new(p).line(pv);
    let pic = match outcome {
        Outcome::Win { winning_move, carrier } => {
            let pic = pic.overlay(Overlay::labelled(*carrier, Style::Carrier, "proof carrier"));
            match winning_move {
                Some(m) => {
                    pic.overlay(Overlay::labelled(B::single(*m), Style::Winning, "winning move"))
                }
                None => pic,
            }
            .caption(format!("{to_move} to move wins{}", numbered(pv)))
        }
        Outcome::Loss { carrier } => pic
            .overlay(Overlay::labelled(*carrier, Style::Carrier, "proof carrier"))
            .caption(format!("{to_move} to move loses{}", numbered(pv))),
        Outcome::Unknown { reason } => {
            pic.caption(format!("{to_move} to move: unknown ({reason})"))
        }
    };
    pic.to_string()
}

fn report<B: BitSet>(p: &Position<B>, cfg: &SolverConfig, args: &Args) -> anyhow::Result<()> {
    // A certificate that could not be written there is refused before the solve.
    if let Some(path) = &args.proof {
        Partial::for_target(path)?;
    }
    args.solver.warn_memory(p, cfg, false);
    let mut db = args.solver.open_db()?;
    // A stored answer (or one the stored answers decide two moves ahead, as after a split
    // solve) is used as it is, unless a certificate is asked for, which needs the solve.
    let stored = match (&db, &args.proof) {
        (Some(db), None) => nash_db::lookup(db, p).or_else(|| {
            nash_db::from_tree(db, p, args.db_depth.into())
                .map(|outcome| SolveResult { outcome, stats: Stats::default() })
        }),
        _ => None,
    };
    let from_db = stored.is_some();
    let (r, pv, proof) = match (stored, &db) {
        (Some(r), Some(db)) => {
            // The line the stored answers give, solved on where they stop.
            let named = match r.outcome {
                Outcome::Win { winning_move, .. } => winning_move,
                _ => None,
            };
            let pv = (!args.no_pv).then(|| {
                let (_watch, cfg) = args.solver.watch("principal variation", cfg);
                nash_db::principal_variation(db, p, &cfg, &mut SolverTable::new(), named)
            });
            (r, pv, None)
        }
        _ => {
            let (_watch, cfg) = args.solver.watch("solving", cfg);
            // One table for the solve, the line and the certificate after it, which find most
            // proofs stored.
            let mut table = SolverTable::new();
            let r = table.solve(p, &cfg);
            if let Some(db) = &mut db {
                db.put(p, &r.outcome, r.stats.nodes)?;
            }
            let decided = !matches!(r.outcome, Outcome::Unknown { .. });
            // The line starts with the move the solve named, so the two agree.
            let named = match r.outcome {
                Outcome::Win { winning_move, .. } => winning_move,
                _ => None,
            };
            let pv =
                (decided && !args.no_pv).then(|| table.principal_variation_from(p, &cfg, named));
            let proof = match (&args.proof, decided) {
                (Some(path), true) => Some(write_proof(p, &cfg, &mut table, args, path)?),
                _ => None,
            };
            (r, pv, proof)
        }
    };
    if let (Some(db), true) = (&mut db, from_db) {
        // An answer decided from the stored ones is stored too.
        db.put(p, &r.outcome, 0)?;
    }
    args.picture.write(|| picture(p, &r.outcome, pv.as_deref().unwrap_or_default()))?;
    let line_end = pv.as_deref().map(|line| line_end(p, line));
    let mut rep = Report::new(p, r, pv.as_deref(), args.solver.solver.0.name());
    rep.from_db = from_db;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&rep)?);
        return Ok(());
    }
    outln!("{p}");
    match &rep.winner {
        Some(w) => outln!("{} to move: {} ({w} wins)", rep.to_move, rep.result),
        None => outln!("{} to move: unknown ({})", rep.to_move, rep.reason.unwrap_or_default()),
    }
    if let Some(m) = &rep.winning_move {
        outln!("winning move: {m}");
    }
    if from_db {
        outln!("from the database {}", args.solver.db.clone().unwrap_or_default().display());
    }
    if let Some(c) = &rep.carrier {
        outln!("carrier ({} cells): {}", c.len(), c.join(" "));
    }
    // A finished game has no line to show.
    let line = rep.principal_variation.as_ref().filter(|line| !line.is_empty());
    if let (Some(line), Some(end)) = (line, line_end) {
        outln!("principal variation ({} moves): {} ({end})", line.len(), line.join(" "));
    }
    if let Some(line) = proof {
        outln!("{line}");
    }
    let s = rep.stats;
    outln!(
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

/// Writes the certificate of `p`'s result to `path` (`--proof`); what to say about it. The
/// nodes are spooled to `PATH.nodes` as they are made, so a large certificate is never held in
/// memory as nodes, with a journal in `PATH.journal` from which a killed build resumes (both
/// removed once the certificate is written, or its writing failed; a `PATH.nodes` that is not
/// the build's own is refused, not overwritten).
fn write_proof<B: BitSet>(
    p: &Position<B>,
    cfg: &SolverConfig,
    table: &mut SolverTable<B>,
    args: &Args,
    path: &std::path::Path,
) -> anyhow::Result<String> {
    let first_move = match &args.proof_first {
        None => None,
        Some(text) => {
            let cell: nash_board::Cell =
                text.parse().map_err(|e| anyhow::anyhow!("invalid --proof-first {text:?}: {e}"))?;
            // The board says whether the move can be played; the builder whether it wins.
            p.clone().play(cell).map_err(|e| anyhow::anyhow!("--proof-first {cell}: {e}"))?;
            Some(cell)
        }
    };
    let certify = CertifyConfig {
        solver: cfg.clone(),
        search: args.proof_search.into(),
        vc: !args.proof_no_vc,
        progress: args.solver.progress,
        fill_in_beyond: args.proof_fill_in_beyond,
        threads: cfg.threads.max(1),
        first_move,
        ..CertifyConfig::default()
    };
    let files = Partial::for_target(path)?;
    let made = table.certificate_resumable(p, &certify, &files)?;
    let form = if args.proof_json { Form::Json } else { Form::Binary };
    let written = files.write_certificate(&made, path, form)?;
    let resumed = match made.kept > 0 || made.journaled > 0 {
        true => format!(
            "; resumed with {} nodes and {} re-solves of earlier runs, which took {:.1} s of CPU",
            made.kept,
            made.journaled,
            made.cpu_before.as_secs_f64()
        ),
        false => String::new(),
    };
    Ok(format!("proof: {} ({} nodes, {written} bytes{resumed})", path.display(), made.nodes))
}
