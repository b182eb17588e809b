//! `nash winning`: the exact set of winning moves, every legal move decided.

use nash_board::svg::{Overlay, Picture, Style};
use nash_board::{BitSet, CellList, Position};
use nash_search::{SolverConfig, Stats};
use serde::Serialize;

use crate::cmd::solve::SolverArgs;

/// Arguments of `nash winning`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: crate::input::PositionArgs,
    #[command(flatten)]
    solver: SolverArgs,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    picture: crate::picture::SvgArgs,
}

#[derive(Serialize)]
struct Report {
    to_move: String,
    winning: Vec<String>,
    losing: Vec<String>,
    unknown: Vec<String>,
    exact: bool,
    /// Whether the set was read from the database (`--db`) rather than decided.
    from_db: bool,
    stats: Stats,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let pos = crate::input::load(&args.position)?;
    let mut cfg = args.solver.config()?;
    // --time-limit bounds the whole command, not each of its solves.
    let _deadline = nash_play::limits::CommandDeadline::arm(&mut cfg);
    nash_board::with_position!(&pos, p => report(p, &cfg, &args))
}

fn report<B: BitSet>(p: &Position<B>, cfg: &SolverConfig, args: &Args) -> anyhow::Result<()> {
    let json = args.json;
    args.solver.warn_memory(p, cfg, true);
    let mut db = args.solver.open_db()?;
    let (w, source) = {
        let (_watch, cfg) = args.solver.watch("deciding every move", cfg);
        match &mut db {
            Some(db) => nash_db::winning_moves(db, p, &cfg)?,
            None => (nash_search::winning_moves(p, &cfg), nash_db::Source::Solved),
        }
    };
    let from_db = source == nash_db::Source::Db;
    args.picture.write(|| {
        let mover = p.to_move();
        Picture::new(p)
            .overlay(Overlay::labelled(
                w.winning,
                Style::Winning,
                format!("winning moves for {mover}"),
            ))
            .overlay(Overlay::labelled(
                w.losing,
                Style::Losing,
                format!("losing moves for {mover}"),
            ))
            .overlay(Overlay::labelled(w.unknown, Style::Inferior, "undecided within the budget"))
            .caption(format!("{mover} to move: {} winning moves", w.winning.len()))
            .to_string()
    })?;
    let rep = Report {
        to_move: p.to_move().to_string(),
        winning: CellList(w.winning).names(),
        losing: CellList(w.losing).names(),
        unknown: CellList(w.unknown).names(),
        exact: w.unknown.is_empty(),
        from_db,
        stats: w.stats,
    };
    if json {
        outln!("{}", serde_json::to_string_pretty(&rep)?);
        return Ok(());
    }
    outln!("{p}");
    let named = |cells: &[String]| match cells {
        [] => "none".to_owned(),
        _ => cells.join(" "),
    };
    outln!(
        "{} to move; winning moves ({}): {}",
        rep.to_move,
        rep.winning.len(),
        named(&rep.winning)
    );
    if !rep.exact {
        outln!("undecided within the budget ({}): {}", rep.unknown.len(), rep.unknown.join(" "));
    }
    if from_db {
        outln!("from the database {}", args.solver.db.clone().unwrap_or_default().display());
    }
    outln!("nodes {}  time {:.3}s", rep.stats.nodes, rep.stats.time.as_secs_f64());
    Ok(())
}
