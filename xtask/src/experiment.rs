//! `cargo xtask experiment`: the tables of the papers Nash builds on reproduced with Nash's solvers.
//!
//! - `table1`: Rasmussen, Maire and Hayward 2006 Table 1, nodes visited to solve the empty 3x3
//!   and 4x4 boards by connection-utility search, alpha-beta (boolean negamax) and pattern
//!   search in the paper's configuration (Queenbee's order, no knowledge, no table), then in
//!   board order, and s.6, the empty 5x5 and 6x6 boards with the table of threat patterns,
//!   each beside the paper's number with Nash's over it.
//! - `negamax`: Chen 2025 Table 2.2 and s.5.3–5.8, boolean negamax with and without a table,
//!   fill-in, H-search (VC verdicts and mustplay) and move ordering, on the empty board and
//!   every one-move opening of 4x4 and 5x5.
//! - `ews`: Chen 2025 s.5.11, negamax against EWS (and df-pn) on the 50 three-move 6x6
//!   positions of testdata/hsearch-table-5.1.txt.
//! - `featureless`, `variants`, `settings`: Chen 2025's featureless EWS on the empty boards,
//!   the thesis's solver variants (`SolverConfig::chen_2025`) on Table 5.1 and the 6x6
//!   openings, and the EWS settings (`experiment/chen.rs`); they write their rows into
//!   docs/seeds.md.
//! - `horrell`: Horrell et al. Table 1, the round robin of minimax, beam, MCTS, AMAF and
//!   AMAF-bridge on 9x9 (the Monte Carlo players at `--playouts` a move), both colours of each
//!   opening of `--openings` (the west edge `a2` to `a8` unless told), beside the paper's win
//!   rates.
//! - `horrell-fig2`, `horrell-fig3`, `horrell-fig4`: Horrell et al.'s Figures 2 to 4, plain UCT
//!   against minimax-bridge as the exploration constant, playouts a move and board size vary
//!   (`experiment/figures.rs`), written as JSON and SVG into `docs/horrell/`.

mod figures;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use nash_board::{Bitboard, MoveList, Position};
use nash_cli::progress::{Display, Watch};
use nash_search::{solve, Knowledge, MoveOrdering, SolverConfig, SolverKind, ThreatTable};

/// Arguments of `cargo xtask experiment`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which table.
    #[arg(value_enum)]
    which: Experiment,
    /// Node limit per solve (the row shows `>` when a solve hits it).
    #[arg(long, default_value_t = 20_000_000)]
    nodes: u64,
    /// Seconds allowed per solve.
    #[arg(long, default_value = "60", value_parser = crate::parse_seconds)]
    time_limit: Duration,
    /// Write a progress line to stderr every few seconds (a bar is shown on a terminal anyway).
    #[arg(long)]
    progress: bool,
    /// Playouts a move of the Monte Carlo players (`horrell`).
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    playouts: u64,
    /// The openings of the `horrell` round robin, as the tournament's `--openings`:
    /// `west-edge` (`a2` to `a8`, 14 games a pairing), `balanced` (the 20 balanced 9x9
    /// openings, 40 games a pairing), `none` (the empty board) or a list of cells.
    #[arg(long, default_value = "west-edge")]
    openings: String,
    /// Games a point of the Horrell et al. figures (resumed: games already in the results
    /// file count).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    games: u32,
    /// Memory limit in MiB of each solve (`featureless`, `variants`, `settings`).
    #[arg(long, default_value_t = 4096)]
    mib: usize,
    /// The largest empty board of `featureless` (4 to 6).
    #[arg(long, default_value_t = 6)]
    max_size: usize,
    /// Where the figures' JSON and SVG go (default docs/horrell).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The progress display while the experiment runs.
    #[arg(skip)]
    watch: Option<Watch>,
}

impl Args {
    /// Runs `f`, which prints, with the progress bar out of its way.
    fn show(&self, f: impl FnOnce()) {
        match &self.watch {
            Some(w) => w.suspend(f),
            None => f(),
        }
    }

    /// Counts the experiment as `n` solves for the progress display.
    fn solves(&self, n: usize) {
        if let Some(w) = &self.watch {
            w.count(n);
        }
    }
}

/// `println!` with the progress bar out of the way.
macro_rules! say {
    ($args:expr) => {
        $args.show(|| println!())
    };
    ($args:expr, $($arg:tt)*) => {
        $args.show(|| println!($($arg)*))
    };
}

mod chen;

fn empty(n: usize) -> anyhow::Result<Position<Bitboard>> {
    Ok(Position::square(n)?)
}

fn budgeted(mut cfg: SolverConfig, args: &Args) -> SolverConfig {
    cfg.budget.nodes = Some(args.nodes);
    cfg.budget.time = Some(args.time_limit);
    cfg.progress = args.watch.as_ref().map(Watch::progress);
    cfg
}

/// Runs one solve: (nodes, seconds, solved).
fn measure(args: &Args, pos: &Position<Bitboard>, cfg: &SolverConfig) -> (u64, f64, bool) {
    let r = solve(pos, cfg);
    if let Some(w) = &args.watch {
        w.done_one();
    }
    (r.stats.nodes, r.stats.time.as_secs_f64(), r.outcome.wins().is_some())
}

/// A node count as the table shows it: `>` when the solve hit the budget.
fn shown(nodes: u64, solved: bool) -> String {
    if solved {
        nodes.to_string()
    } else {
        format!(">{nodes}")
    }
}

/// Nash's count over the paper's, as the table shows it: `1/k` below a tenth.
fn ratio(nodes: u64, paper: u64) -> String {
    let r = nodes as f64 / paper as f64;
    if r >= 0.1 {
        format!("{r:.2}")
    } else {
        format!("1/{:.0}", 1.0 / r)
    }
}

fn table1(args: &Args) -> anyhow::Result<()> {
    let paper: [(&str, SolverKind, [u64; 2]); 3] = [
        ("Connection Utility Search", SolverKind::Cus, [2_223, 3_765_784]),
        ("Alpha Beta", SolverKind::Negamax, [3_305, 9_871_596]),
        ("Pattern Search", SolverKind::Pattern, [9_613, 790_811_318]),
    ];
    args.solves(paper.len() * 4 + 4);
    say!(
        args,
        "Rasmussen, Maire and Hayward 2006, Table 1: nodes visited to solve the empty board"
    );
    say!(args, "(SolverConfig::rasmussen_2006: Queenbee's order, no knowledge, no table)\n");
    say!(args, "{:<27} {:>5} {:>11} {:>11} {:>8}", "search", "board", "paper", "Nash", "ratio");
    // The paper's order, then board order (MoveOrdering::None) for comparison.
    for ordering in [None, Some(MoveOrdering::None)] {
        if ordering.is_some() {
            say!(args, "\nThe same searches in board order (MoveOrdering::None), for comparison:");
        }
        for (name, kind, numbers) in paper {
            let mut cfg = SolverConfig::rasmussen_2006(kind);
            if let Some(o) = ordering {
                cfg.knowledge.ordering = o;
            }
            let cfg = budgeted(cfg, args);
            for (i, n) in [3usize, 4].into_iter().enumerate() {
                let (nodes, _, solved) = measure(args, &empty(n)?, &cfg);
                say!(
                    args,
                    "{name:<27} {:>5} {:>11} {:>11} {:>8}",
                    format!("{n}x{n}"),
                    numbers[i],
                    shown(nodes, solved),
                    ratio(nodes, numbers[i])
                );
            }
        }
    }
    say!(
        args,
        "\ns.6: with the table of threat patterns (ThreatTable::ThreatPatterns), the same order:"
    );
    let rows: [(&str, SolverKind, usize, Option<u64>); 4] = [
        ("Connection Utility Search", SolverKind::Cus, 5, Some(165)),
        ("Connection Utility Search", SolverKind::Cus, 6, Some(77_000)),
        ("Pattern Search", SolverKind::Pattern, 5, None),
        ("Pattern Search", SolverKind::Pattern, 6, None),
    ];
    for (name, kind, n, number) in rows {
        let cfg = SolverConfig {
            threat_table: ThreatTable::ThreatPatterns,
            ..SolverConfig::rasmussen_2006(kind)
        };
        let (nodes, secs, solved) = measure(args, &empty(n)?, &budgeted(cfg, args));
        say!(
            args,
            "{name:<27} {:>5} {:>11} {:>11} {:>8}  {secs:.1}s",
            format!("{n}x{n}"),
            number.map_or("-".to_string(), |p| p.to_string()),
            shown(nodes, solved),
            number.map_or("-".to_string(), |p| ratio(nodes, p))
        );
    }
    Ok(())
}

fn negamax(args: &Args) -> anyhow::Result<()> {
    let none = Knowledge::none();
    let fill = Knowledge { threats: false, fill_in: true, ..Knowledge::none() };
    let hsearch = Knowledge { vc: true, mustplay: true, ..fill.clone() };
    let ordered = Knowledge { ordering: MoveOrdering::HScore, ..hsearch.clone() };
    let rows: [(&str, bool, Knowledge); 5] = [
        ("negamax (no table)", false, none.clone()),
        ("negamax + table (2.2)", true, none),
        ("+ fill-in (5.3)", true, fill),
        ("+ H-search, mustplay (5.5.3)", true, hsearch),
        ("+ H-score ordering (5.8)", true, ordered),
    ];
    // The empty board and every opening of 4x4 and 5x5, for each row.
    args.solves(rows.len() * (17 + 26));
    say!(args, "Chen 2025 Table 2.2 and s.5.3-5.8: boolean negamax on the empty board and every");
    say!(args, "one-move opening (totals over the positions; `unsolved` hit the budget)\n");
    say!(
        args,
        "{:<30} {:>5} {:>14} {:>10} {:>9}",
        "variant",
        "board",
        "nodes",
        "seconds",
        "unsolved"
    );
    for n in [4usize, 5] {
        let mut positions = vec![empty(n)?];
        for c in empty(n)?.empty_cells() {
            let mut p = empty(n)?;
            p.play(c)?;
            positions.push(p);
        }
        for (name, tt, k) in &rows {
            let cfg = budgeted(
                SolverConfig {
                    kind: SolverKind::Negamax,
                    use_tt: *tt,
                    knowledge: k.clone(),
                    ..SolverConfig::default()
                },
                args,
            );
            let (mut nodes, mut secs, mut unsolved) = (0, 0.0, 0);
            for p in &positions {
                let (nn, s, ok) = measure(args, p, &cfg);
                nodes += nn;
                secs += s;
                unsolved += usize::from(!ok);
            }
            say!(
                args,
                "{name:<30} {:>5} {nodes:>14} {secs:>10.2} {unsolved:>9}",
                format!("{n}x{n}")
            );
        }
    }
    say!(
        args,
        "\nThesis figures for comparison: 4x4 empty board, negamax with table and default order"
    );
    say!(
        args,
        "3,479,112 calls in 6.1 s (Python); 5x5 openings with 3-OR H-search: 24.21 s per position"
    );
    say!(args, "without move ordering, 1.81 s with it.");
    Ok(())
}

fn testdata(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata").join(name)
}

fn ews(args: &Args) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(testdata("hsearch-table-5.1.txt"))
        .context("cannot read testdata/hsearch-table-5.1.txt")?;
    let mut positions = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let (label, moves) = line.split_once('\t').context("label<TAB>moves")?;
        let mut p = empty(6)?;
        let list: MoveList = moves.parse()?;
        list.play_on(&mut p)?;
        positions.push((label.to_string(), moves.to_string(), p));
    }
    let k = Knowledge::default();
    let solvers =
        [("Mmx", SolverKind::Negamax), ("EWS", SolverKind::Ews), ("DFPN", SolverKind::Dfpn)];
    say!(
        args,
        "Chen 2025 s.5.11: negamax vs EWS on the 50 three-move 6x6 positions (all knowledge)\n"
    );
    say!(args, "{:<6} {:<10} {:>12} {:>12} {:>12}", "label", "moves", "Mmx s", "EWS s", "DFPN s");
    let mut totals = [(0.0f64, 0usize); 3];
    args.solves(positions.len() * solvers.len());
    let start = Instant::now();
    for (label, moves, p) in &positions {
        let mut row = format!("{label:<6} {moves:<10}");
        for (i, (_, kind)) in solvers.iter().enumerate() {
            let cfg = budgeted(
                SolverConfig { kind: *kind, knowledge: k.clone(), ..SolverConfig::default() },
                args,
            );
            let (_, secs, ok) = measure(args, p, &cfg);
            if ok {
                totals[i].0 += secs;
                totals[i].1 += 1;
                row += &format!(" {secs:>12.3}");
            } else {
                row += &format!(" {:>12}", "unsolved");
            }
        }
        say!(args, "{row}");
    }
    say!(args);
    for (i, (name, _)) in solvers.iter().enumerate() {
        let (t, n) = totals[i];
        say!(
            args,
            "{name}: solved {n} of {}, {:.3} s per solved position",
            positions.len(),
            t / n.max(1) as f64
        );
    }
    say!(
        args,
        "Thesis (Python, 1000 s limit): Mmx1/Mmx2 solved 33/34 of 50; EWS1-4 solved 49, EWS4"
    );
    say!(args, "14.85 s per position. Total here: {:.1}s", start.elapsed().as_secs_f64());
    Ok(())
}

/// The experiments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Experiment {
    /// Rasmussen, Maire and Hayward 2006 Table 1 (CUS, negamax and pattern search on 3x3 and
    /// 4x4) and s.6 (CUS with the table of threat patterns on 5x5 and 6x6).
    Table1,
    /// Chen 2025 Table 2.2 and s.5.3-5.8: negamax with and without each kind of knowledge.
    Negamax,
    /// Negamax against expected-work search (Chen 2025 s.5.11).
    Ews,
    /// Chen 2025 s.4.5: featureless expected-work search on the empty 4x4, 5x5 and 6x6 boards.
    Featureless,
    /// Chen 2025 s.5.11-5.12: the thesis's solver variants on Table 5.1 and the 6x6 openings.
    Variants,
    /// Chen 2025 s.5.2, s.5.6, s.5.9: the win/loss table, the H-search table and the weight W.
    Settings,
    /// Horrell et al. Table 1: the round robin of their five players on 9x9.
    Horrell,
    /// Horrell et al. Fig. 2: UCT against minimax-bridge by exploration constant (11x11).
    HorrellFig2,
    /// Horrell et al. Fig. 3: UCT against minimax-bridge by playouts a move (11x11).
    HorrellFig3,
    /// Horrell et al. Fig. 4: UCT against minimax-bridge by board size.
    HorrellFig4,
}

/// Horrell et al.'s five players (Table 1's names) and their win rates against each other
/// there, row against column (`None` on the diagonal).
const HORRELL: [(&str, [Option<f64>; 5]); 5] = [
    ("minimax", [None, Some(0.50), Some(0.65), Some(0.25), Some(0.45)]),
    ("beam", [Some(0.50), None, Some(0.70), Some(0.25), Some(0.50)]),
    ("mcts", [Some(0.35), Some(0.30), None, Some(0.10), Some(0.35)]),
    ("amaf", [Some(0.75), Some(0.75), Some(0.90), None, Some(0.90)]),
    ("amaf-bridge", [Some(0.55), Some(0.50), Some(0.65), Some(0.10), None]),
];

/// One game on a `size` board opened by Black's `opening` (from the empty board without one):
/// whether `black` won.
fn horrell_game(
    size: usize,
    opening: Option<nash_board::Cell>,
    black: &str,
    white: &str,
) -> anyhow::Result<bool> {
    use nash_board::{AnyPosition, Color, Move};
    let mut pos = AnyPosition::new(size, size)?;
    if let Some(o) = opening {
        pos.apply(Move::Cell(o))?;
    }
    let mut players = [nash_play::build(black)?, nash_play::build(white)?];
    let budget = nash_play::MoveBudget::default();
    loop {
        if let Some(w) = pos.winner() {
            return Ok(w == Color::Black);
        }
        let side = pos.to_move().index();
        let Move::Cell(c) = players[side].choose(&pos, &budget).mv else {
            // A resignation.
            return Ok(side == 1);
        };
        pos.apply(Move::Cell(c))?;
    }
}

fn horrell(args: &Args) -> anyhow::Result<()> {
    const SIZE: usize = 9;
    let spec = |name: &str| match name {
        "minimax" | "beam" => name.to_owned(),
        _ => format!("{name}:playouts={}", args.playouts),
    };
    // The west edge by default: the set this experiment was first measured on, kept when the
    // tournament's 9x9 default became another.
    let openings = crate::tournament::openings(&args.openings, SIZE)?;
    args.solves(HORRELL.len() * (HORRELL.len() - 1) / 2 * openings.len() * 2);
    let n = HORRELL.len();
    let mut wins = vec![vec![0u32; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (spec(HORRELL[i].0), spec(HORRELL[j].0));
            for &o in &openings {
                let a_black = horrell_game(SIZE, o, &a, &b)?;
                let b_black = horrell_game(SIZE, o, &b, &a)?;
                wins[i][j] += u32::from(a_black) + u32::from(!b_black);
                wins[j][i] += u32::from(!a_black) + u32::from(b_black);
                if let Some(w) = &args.watch {
                    w.done_one();
                    w.done_one();
                }
            }
        }
    }
    let games = 2.0 * openings.len() as f64;
    say!(
        args,
        "Horrell et al. Table 1 on {SIZE}x{SIZE}: win rate of the row against the column, \
         {} games a pairing, Monte Carlo players at {} playouts (the paper's in brackets)",
        games,
        args.playouts
    );
    let names: Vec<&str> = HORRELL.iter().map(|h| h.0).collect();
    say!(args, "| | {} |", names.join(" | "));
    say!(args, "|---{}|", "|---:".repeat(n));
    for i in 0..n {
        let cells: Vec<String> = (0..n)
            .map(|j| match HORRELL[i].1[j] {
                None => "-".to_owned(),
                Some(p) => format!("{:.2} ({p:.2})", f64::from(wins[i][j]) / games),
            })
            .collect();
        say!(args, "| {} | {} |", names[i], cells.join(" | "));
    }
    Ok(())
}

fn horrell_figure(args: &Args, figure: figures::Figure) -> anyhow::Result<()> {
    let dir = args.out.clone().unwrap_or_else(figures::default_dir);
    let on_game = || {
        if let Some(w) = &args.watch {
            w.done_one();
        }
    };
    let count = |n| args.solves(n);
    let say = |line: String| say!(args, "{line}");
    figures::run(figure, args.games, &dir, &on_game, &count, &say)
}

pub fn run(mut args: Args) -> anyhow::Result<()> {
    args.watch = Some(Watch::start("experiment", Display::from_flag(args.progress)));
    match args.which {
        Experiment::Table1 => table1(&args),
        Experiment::Negamax => negamax(&args),
        Experiment::Ews => ews(&args),
        Experiment::Featureless => chen::featureless(&args),
        Experiment::Variants => chen::variants(&args),
        Experiment::Settings => chen::settings(&args),
        Experiment::Horrell => horrell(&args),
        Experiment::HorrellFig2 => horrell_figure(&args, figures::Figure::Fig2),
        Experiment::HorrellFig3 => horrell_figure(&args, figures::Figure::Fig3),
        Experiment::HorrellFig4 => horrell_figure(&args, figures::Figure::Fig4),
    }
}
