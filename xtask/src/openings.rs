//! `cargo xtask openings`: the map of a board's one-move openings, each solved by df-pn within
//! a time limit, one at a time with every thread.
//!
//! An opening and its image under the 180-degree rotation have the same value (the reply
//! rotates with it), so only the first of each pair in board order is solved. Every answer is
//! checked against testdata/opening-maps.txt: a wrong value stops the run. Results are
//! appended to a JSON-lines file as each opening ends; a rerun skips the decided openings and
//! those that ran out of time within a limit at least as long, so a long map survives
//! interruption and a rerun with a longer limit retries only what is left. The decided openings
//! already in the table (TSV) count as results too, so a run on a fresh checkout (or with an
//! older results file) solves only what the table lacks and never drops a row; `--fresh`
//! solves everything asked for again. The table is written afresh from the results after every
//! opening: each decided opening with its
//! winner, the loser-refuting reply when White wins (the solver's move), and the time and
//! nodes of its solve. A picture of the map (SVG: each opening marked by its winner) is
//! written beside it, in docs/pictures.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use nash_board::svg::{Overlay, Picture, Style};
use nash_board::{BitSet, Bitboard, Cell, Color, Geometry, Position, Symmetry};
use nash_cli::progress::{Display, Watch};
use nash_search::{solve, Outcome, SolveResult, SolverConfig};
use serde::{Deserialize, Serialize};

use crate::regress::{openings, Case};

/// Arguments of `cargo xtask openings`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board side (the openings of an n x n board; opening-maps.txt must hold its map).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(2..=11))]
    size: u8,
    /// Seconds allowed per opening.
    #[arg(long, default_value = "600", value_parser = crate::parse_seconds)]
    time_limit: Duration,
    /// Solver threads: for each opening, or with --batch the openings solved side by side.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Solve the openings side by side, one thread each, sharing one table, instead of one at
    /// a time with every thread; the longest by earlier results first, or in the order --only
    /// gives.
    #[arg(long)]
    batch: bool,
    /// Memory limit in MiB for each solve's table and caches (with --batch, for all of them).
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..))]
    tt_mib: u32,
    /// Only these openings (cells), space- or comma-separated, in the order given; an opening
    /// whose rotation comes first in board order is solved as that one.
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// The results file (JSON lines); default target/openings/openings-NxN.jsonl.
    #[arg(long)]
    out: Option<PathBuf>,
    /// The table written from the results; default testdata/openings-NxN.tsv.
    #[arg(long)]
    tsv: Option<PathBuf>,
    /// The map's picture (SVG) written from the results; default docs/pictures/openings-NxN.svg.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Solve every opening asked for again, ignoring the table's and the results file's
    /// earlier results (new results are still appended to the results file).
    #[arg(long)]
    fresh: bool,
    /// Write a progress line to stderr every few seconds (a bar is shown on a terminal anyway).
    #[arg(long)]
    progress: bool,
}

/// One opening's solve, as the results file keeps it.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Record {
    size: usize,
    opening: String,
    /// `black` or `white`; absent when the time ran out.
    winner: Option<String>,
    /// White's winning reply, when White wins and the solver named it.
    reply: Option<String>,
    seconds: f64,
    nodes: u64,
    threads: u16,
    time_limit: f64,
    /// The number of openings solved side by side (`--batch`), each on one thread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    side_by_side: Option<u16>,
}

/// The results file's records over `out` (earlier results), each opening's best kept.
fn load(path: &Path, mut out: HashMap<String, Record>) -> anyhow::Result<HashMap<String, Record>> {
    if !path.exists() {
        return Ok(out);
    }
    let f = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    for line in BufReader::new(f).lines() {
        // A torn last line (the run was killed while writing) is skipped.
        if let Ok(r) = serde_json::from_str::<Record>(&line?) {
            let keep = match out.get(&r.opening) {
                Some(old) => better(&r, old),
                None => true,
            };
            if keep {
                out.insert(r.opening.clone(), r);
            }
        }
    }
    Ok(out)
}

/// The decided openings of an earlier table, each checked against testdata/opening-maps.txt.
/// Only the rows of the openings solved as themselves count (a rotation's row repeats them).
fn load_table(
    path: &Path,
    n: usize,
    cases: &[crate::regress::Case],
) -> anyhow::Result<HashMap<String, Record>> {
    let mut out = HashMap::new();
    if !path.exists() {
        return Ok(out);
    }
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.starts_with("opening\t") || line.trim().is_empty() {
            continue;
        }
        let bad = || anyhow::anyhow!("{}:{}: bad row {line:?}", path.display(), i + 1);
        let f: Vec<&str> = line.split('\t').collect();
        let [opening, winner, reply, seconds, nodes, threads, solved_as] = f[..] else {
            return Err(bad());
        };
        if opening != solved_as {
            continue;
        }
        let case = cases.iter().find(|c| c.label == opening).ok_or_else(bad)?;
        if winner != color_name(case.winner) {
            bail!(
                "WRONG: {}:{}: opening {opening} says {winner}, opening-maps.txt says {}",
                path.display(),
                i + 1,
                color_name(case.winner)
            );
        }
        let seconds = seconds.parse().map_err(|_| bad())?;
        let rec = Record {
            size: n,
            opening: opening.to_string(),
            winner: Some(winner.to_string()),
            reply: (reply != "-").then(|| reply.to_string()),
            seconds,
            nodes: nodes.parse().map_err(|_| bad())?,
            threads: threads.parse().map_err(|_| bad())?,
            time_limit: seconds,
            side_by_side: None,
        };
        out.insert(rec.opening.clone(), rec);
    }
    Ok(out)
}

/// Whether `new` says more than `old`: decided beats undecided, then a longer limit.
fn better(new: &Record, old: &Record) -> bool {
    match (&new.winner, &old.winner) {
        (Some(_), None) => true,
        (None, Some(_)) => false,
        _ => new.time_limit >= old.time_limit,
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let n = usize::from(args.size);
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| format!("target/openings/openings-{n}x{n}.jsonl").into());
    let tsv = args
        .tsv
        .clone()
        .unwrap_or_else(|| crate::regress::testdata(&format!("openings-{n}x{n}.tsv")));
    let svg = args.svg.clone().unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../docs/pictures/openings-{n}x{n}.svg"))
    });
    let cases = openings(n)?;
    let geom = cases.first().context("a board with cells")?.pos.geometry();
    // The representative of each opening: itself or its rotation, whichever comes first.
    let rep = |c: Cell| {
        let r = geom.map_cell(Symmetry::Rotate180, c);
        if Bitboard::bit_of(r) < Bitboard::bit_of(c) {
            r
        } else {
            c
        }
    };
    let mut todo: Vec<Cell> = Vec::new();
    if args.only.is_empty() {
        todo.extend(cases.iter().filter_map(|c| {
            let cell: Cell = c.label.parse().ok()?;
            (rep(cell) == cell).then_some(cell)
        }));
    } else {
        for word in args.only.iter().flat_map(|w| w.split_whitespace()) {
            let cell: Cell =
                word.parse().map_err(|e| anyhow::anyhow!("bad opening {word:?}: {e}"))?;
            if !geom.is_on_board(cell) {
                bail!("opening {word} is not a cell of the {n}x{n} board");
            }
            if !todo.contains(&rep(cell)) {
                todo.push(rep(cell));
            }
        }
    }
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    // Side by side, the longest solves go first (by the earlier results' times; an opening
    // never solved counts as longest), so that no thread is left alone with a long one at the
    // end. An order asked for with --only stays as it is.
    let by_time = args.batch && args.only.is_empty();
    let earlier = if args.fresh && !by_time {
        HashMap::new()
    } else {
        load(&out, load_table(&tsv, n, &cases)?)?
    };
    if by_time {
        let time = |c: &Cell| earlier.get(&c.to_string()).map_or(f64::INFINITY, |r| r.seconds);
        todo.sort_by(|a, b| time(b).total_cmp(&time(a)));
    }
    let mut done = if args.fresh { HashMap::new() } else { earlier };
    let limit = args.time_limit.as_secs_f64();
    let mut cfg = SolverConfig {
        threads: usize::from(args.threads),
        tt_mib: args.tt_mib as usize,
        ..SolverConfig::default()
    };
    cfg.budget.time = Some(args.time_limit);
    let cancel = Arc::new(AtomicBool::new(false));
    cfg.budget.cancel = Some(Arc::clone(&cancel));
    let start = Instant::now();
    let mut todo: Vec<&Case> = todo
        .iter()
        .map(|cell| {
            let label = cell.to_string();
            cases.iter().find(|c| c.label == label).context("opening of the board")
        })
        .collect::<anyhow::Result<_>>()?;
    // Decided already, or out of time within a limit at least as long.
    todo.retain(|case| {
        !done.get(&case.label).is_some_and(|r| r.winner.is_some() || r.time_limit >= limit)
    });
    let batch = args.batch && todo.len() > 1;
    let threads = if batch { 1 } else { args.threads };
    let watch = Watch::start("openings", Display::from_flag(args.progress));
    cfg.progress = Some(watch.progress());
    if !batch {
        // Each solve announces only itself: count the openings here.
        watch.count(todo.len());
    }
    // Keeps one solve's result: checked against the map, printed, appended to the results
    // file, and the table and picture rewritten, as soon as it exists.
    let keep = |case: &Case, r: &SolveResult<Bitboard>, done: &mut HashMap<String, Record>| {
        let label = case.label.clone();
        let winner = r.outcome.winner(case.pos.to_move());
        if winner.is_some_and(|w| w != case.winner) {
            bail!(
                "WRONG: opening {label} solved as a {} win, opening-maps.txt says {}",
                color_name(winner.expect("decided")),
                color_name(case.winner)
            );
        }
        let reply = match r.outcome {
            Outcome::Win { winning_move: Some(m), .. } => Some(m.to_string()),
            _ => None,
        };
        let seconds = r.stats.time.as_secs_f64();
        let rec = Record {
            size: n,
            opening: label.clone(),
            winner: winner.map(|w| color_name(w).to_string()),
            reply,
            seconds,
            nodes: r.stats.nodes,
            threads,
            time_limit: limit,
            side_by_side: batch.then_some(args.threads),
        };
        watch.suspend(|| {
            println!(
                "{label:<4} {:<9} {:<5} {seconds:>9.2}s  nodes {:>10}",
                rec.winner.as_deref().unwrap_or("undecided"),
                rec.reply.as_deref().unwrap_or("-"),
                rec.nodes
            )
        });
        crate::append_json_line(&out, &rec)?;
        done.insert(label, rec);
        write_tsv(&tsv, n, done, &rep)?;
        write_svg(&svg, n, done, &rep)?;
        Ok(())
    };
    if batch {
        let positions: Vec<Position<Bitboard>> = todo.iter().map(|c| c.pos.clone()).collect();
        let shared = Mutex::new((done, Ok(())));
        nash_search::solve_many_each(&positions, &cfg, &|i, r| {
            let mut guard = shared.lock().unwrap_or_else(PoisonError::into_inner);
            let (done, status) = &mut *guard;
            if status.is_ok() {
                *status = keep(todo[i], r, done);
                if status.is_err() {
                    // A wrong value or a file that cannot be written: stop the other solves.
                    cancel.store(true, Ordering::Relaxed);
                }
            }
        });
        let (kept, status) = shared.into_inner().unwrap_or_else(PoisonError::into_inner);
        status?;
        done = kept;
    } else {
        for case in todo {
            let r = solve(&case.pos, &cfg);
            watch.done_one();
            keep(case, &r, &mut done)?;
        }
    }
    drop(watch);
    write_tsv(&tsv, n, &done, &rep)?;
    write_svg(&svg, n, &done, &rep)?;
    let decided = done.values().filter(|r| r.winner.is_some()).count();
    println!(
        "{decided} of {} openings up to rotation decided ({}); this run {:.1}s",
        cases
            .iter()
            .filter(|c| c.label.parse().map(|x: Cell| rep(x) == x).unwrap_or(false))
            .count(),
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Writes the decided openings and their rotations, in board order.
fn write_tsv(
    path: &Path,
    n: usize,
    done: &HashMap<String, Record>,
    rep: &dyn Fn(Cell) -> Cell,
) -> anyhow::Result<()> {
    let geom = Geometry::<Bitboard>::get(n, n)?;
    let mut text = format!(
        "# The one-move openings of the {n}x{n} board solved by Nash's df-pn (cargo xtask openings).\n\
         # winner: who wins after Black's opening; reply: White's winning reply (the solver's move)\n\
         # when White wins; seconds and nodes of the solve of the opening or of its 180-degree\n\
         # rotation (column solved_as), whose value is the same and whose reply is rotated;\n\
         # threads: the solve's (1 for openings solved side by side, --batch).\n\
         opening\twinner\treply\tseconds\tnodes\tthreads\tsolved_as\n"
    );
    for cell in geom.cells() {
        let r = rep(cell);
        let Some(rec) = done.get(&r.to_string()).filter(|rec| rec.winner.is_some()) else {
            continue;
        };
        let reply = match &rec.reply {
            Some(m) if r != cell => {
                let m: Cell = m.parse().map_err(|e| anyhow::anyhow!("bad reply {m:?}: {e}"))?;
                geom.map_cell(Symmetry::Rotate180, m).to_string()
            }
            Some(m) => m.clone(),
            None => "-".to_string(),
        };
        text.push_str(&format!(
            "{cell}\t{}\t{reply}\t{:.2}\t{}\t{}\t{r}\n",
            rec.winner.as_deref().unwrap_or("-"),
            rec.seconds,
            rec.nodes,
            rec.threads
        ));
    }
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// Draws the map on the empty board: each opening marked by who wins after it (the value of
/// its rotation when that was the one solved), the undecided ones ringed.
fn write_svg(
    path: &Path,
    n: usize,
    done: &HashMap<String, Record>,
    rep: &dyn Fn(Cell) -> Cell,
) -> anyhow::Result<()> {
    let pos = Position::<Bitboard>::square(n)?;
    let (mut black, mut white, mut open) = (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
    for cell in pos.geometry().cells() {
        let set = match done.get(&rep(cell).to_string()).and_then(|r| r.winner.as_deref()) {
            Some("black") => &mut black,
            Some(_) => &mut white,
            None => &mut open,
        };
        set.insert(cell);
    }
    let decided = black.len() + white.len();
    let picture = Picture::new(&pos)
        .overlay(Overlay::labelled(
            black,
            Style::Winning,
            format!("Black's opening wins ({})", black.len()),
        ))
        .overlay(Overlay::labelled(
            white,
            Style::Losing,
            format!("White wins after it ({})", white.len()),
        ))
        .overlay(Overlay::labelled(open, Style::Inferior, format!("not decided ({})", open.len())))
        .caption(format!("The {n}x{n} openings solved by Nash: {decided} of {} decided", n * n));
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    std::fs::write(path, picture.to_string())
        .with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_tables_load_and_agree_with_the_maps() {
        for (n, decided) in [(7, 25), (8, 11)] {
            let cases = openings(n).expect("openings");
            let path = crate::regress::testdata(&format!("openings-{n}x{n}.tsv"));
            let table = load_table(&path, n, &cases).expect("the committed table");
            assert!(table.len() >= decided, "{n}x{n}: {} rows", table.len());
        }
    }

    #[test]
    fn a_table_row_against_the_map_is_refused() {
        let cases = openings(7).expect("openings");
        let dir = std::env::temp_dir().join(format!("nash-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("wrong.tsv");
        // a1 loses for Black on 7x7.
        std::fs::write(&path, "opening\twinner\treply\tseconds\tnodes\tthreads\tsolved_as\na1\tblack\t-\t1.0\t10\t2\ta1\n")
            .expect("write");
        let err = load_table(&path, 7, &cases).expect_err("a wrong value");
        assert!(err.to_string().contains("WRONG"), "{err}");
        std::fs::write(&path, "a1\twhite\n").expect("write");
        let err = load_table(&path, 7, &cases).expect_err("a short row");
        assert!(err.to_string().contains("bad row"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Side by side or one at a time, the map of 5x5 comes out whole and with the same values.
    #[test]
    fn a_batch_maps_every_opening_as_one_at_a_time_does() {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            args: Args,
        }
        let dir = std::env::temp_dir().join(format!("nash-openings-batch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let mut tables = Vec::new();
        for batch in [false, true] {
            let file = |ext: &str| dir.join(format!("{batch}.{ext}")).display().to_string();
            let mut argv = vec!["openings", "--size", "5", "--time-limit", "60", "--tt-mib", "64"];
            if batch {
                argv.push("--batch");
            }
            let (out, tsv, svg) = (file("jsonl"), file("tsv"), file("svg"));
            argv.extend(["--out", &out, "--tsv", &tsv, "--svg", &svg]);
            run(Cli::try_parse_from(argv).expect("arguments").args).expect("the map");
            let text = std::fs::read_to_string(&tsv).expect("the table");
            let lines: Vec<&str> =
                text.lines().filter(|l| !l.starts_with('#') && !l.starts_with("opening")).collect();
            assert_eq!(lines.len(), 25, "{text}");
            let threads = if batch { "1" } else { "2" };
            assert!(lines.iter().all(|l| l.split('\t').nth(5) == Some(threads)), "{text}");
            let rows: Vec<String> =
                lines.iter().map(|l| l.split('\t').take(2).collect::<Vec<_>>().join(" ")).collect();
            tables.push(rows);
        }
        assert_eq!(tables[0], tables[1]);
        std::fs::remove_dir_all(&dir).ok();
    }
}
