//! `nash solve --batch FILE`: every position of a file solved side by side on the threads.

use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use nash_board::{AnyPosition, BitSet, Position};
use serde::Serialize;

use super::{Report, SolverArgs};
use crate::input::PositionArgs;

/// One line of the file and what solving it gave.
#[derive(Serialize)]
struct Entry {
    position: String,
    #[serde(flatten)]
    report: Report,
}

/// Reads every position of `path` (an error names the first bad line, before anything is
/// solved), solves them with `nash_search::solve_many` and prints a line per position, or a
/// JSON array.
pub(super) fn run(
    path: &Path,
    position: &PositionArgs,
    solver: &SolverArgs,
    json: bool,
) -> anyhow::Result<()> {
    let cfg = solver.config()?;
    let text = crate::files::read_text(path, crate::files::BATCH_LIMIT).context("batch file")?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut lines = Vec::new();
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = crate::input::load_text(line, position.size, None)
            .with_context(|| format!("{} line {}: {line:?}", path.display(), i + 1))?;
        lines.push(line.to_owned());
        positions.push(pos.pos);
    }
    let mut db = solver.open_db()?;
    let started = Instant::now();
    let reports = {
        let (_watch, cfg) = solver.watch("solving", &cfg);
        solve_all(&positions, &cfg, solver.solver.0.name(), db.as_mut())?
    };
    let wall = started.elapsed();
    if json {
        let entries: Vec<Entry> = lines
            .into_iter()
            .zip(reports)
            .map(|(position, report)| Entry { position, report })
            .collect();
        outln!("{}", serde_json::to_string_pretty(&entries)?);
        return Ok(());
    }
    let width = lines.iter().map(String::len).max().unwrap_or(0);
    let (mut wins, mut losses) = (0, 0);
    let stored = reports.iter().filter(|r| r.from_db).count();
    for (line, r) in lines.iter().zip(&reports) {
        match r.result {
            "win" => wins += 1,
            "loss" => losses += 1,
            _ => {}
        }
        let value = match (&r.winner, &r.reason) {
            (Some(w), _) => format!("{} ({w} wins)", r.result),
            (None, reason) => format!("unknown ({})", reason.as_deref().unwrap_or_default()),
        };
        let mv = r.winning_move.as_deref().map(|m| format!("  move {m}")).unwrap_or_default();
        let from = if r.from_db { "  from db" } else { "" };
        outln!(
            "{line:<width$}  {} to move: {value}{mv}  nodes {}  time {:.3}s{from}",
            r.to_move,
            r.stats.nodes,
            r.stats.time.as_secs_f64()
        );
    }
    let from = if db.is_some() { format!(" ({stored} from the database)") } else { String::new() };
    outln!(
        "{} positions{from}: {wins} won and {losses} lost by the player to move, {} unknown; {:.3}s on {} thread{}",
        lines.len(),
        lines.len() - wins - losses,
        wall.as_secs_f64(),
        cfg.threads,
        if cfg.threads == 1 { "" } else { "s" }
    );
    Ok(())
}

/// Solves positions of both bitboard widths, each width as one set, and returns the reports
/// in the order of `positions`; with a database, stored positions are not solved again and
/// each new answer is stored as soon as it is found.
fn solve_all(
    positions: &[AnyPosition],
    cfg: &nash_search::SolverConfig,
    solver: &str,
    mut db: Option<&mut nash_db::Db>,
) -> anyhow::Result<Vec<Report>> {
    let mut small = Vec::new();
    let mut wide = Vec::new();
    for (i, p) in positions.iter().enumerate() {
        match p {
            AnyPosition::Small(p) => small.push((i, p.clone())),
            AnyPosition::Wide(p) => wide.push((i, p.clone())),
        }
    }
    let mut out: Vec<(usize, Report)> = solve_set(small, cfg, solver, db.as_deref_mut())?;
    out.extend(solve_set(wide, cfg, solver, db)?);
    out.sort_by_key(|&(i, _)| i);
    Ok(out.into_iter().map(|(_, r)| r).collect())
}

fn solve_set<B: BitSet>(
    set: Vec<(usize, Position<B>)>,
    cfg: &nash_search::SolverConfig,
    solver: &str,
    db: Option<&mut nash_db::Db>,
) -> anyhow::Result<Vec<(usize, Report)>> {
    let (index, positions): (Vec<usize>, Vec<Position<B>>) = set.into_iter().unzip();
    let results = match db {
        Some(db) => nash_db::solve_many(db, &positions, cfg)?,
        None => nash_search::solve_many(&positions, cfg)
            .into_iter()
            .map(|r| (r, nash_db::Source::Solved))
            .collect(),
    };
    Ok(index
        .into_iter()
        .zip(positions.iter().zip(results))
        .map(|(i, (p, (r, source)))| {
            let mut report = Report::new(p, r, None, solver);
            report.from_db = source == nash_db::Source::Db;
            (i, report)
        })
        .collect())
}
