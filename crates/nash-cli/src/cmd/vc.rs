//! `nash vc`: virtual connections by H-search, and the mustplay of the player to move.

use std::fmt::Write as _;
use std::time::Instant;

use anyhow::{bail, Context};
use nash_board::svg::{Overlay, Picture, Style};
use nash_board::{BitSet, Cell, CellList, Color, Position};
use nash_vc::{Connection, ConnectionKind, HSearchConfig, VcBuilder};
use serde_json::{json, Value};

/// Arguments of `nash vc`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: crate::input::PositionArgs,
    /// Whose connections to list: b or w (default: the player to move).
    #[arg(long, short)]
    color: Option<Color>,
    /// H-search variant words, applied in order to the default: base, exact, or=K, or=unlimited,
    /// [no-]border, [no-]early-stop, [no-]optimization, [no-]area, [no-]semi-and, max-fulls=N,
    /// max-semis=N, or-budget=N (commas or repeated flags).
    #[arg(long, short, value_parser = crate::cmd::solve::hsearch_words)]
    variant: Vec<String>,
    /// The two ends to list connections between: cells (a stone stands for its group) or edges
    /// (north, south, west, east). Default: the colour's two edges.
    #[arg(long, num_args = 2, value_names = ["X", "Y"])]
    ends: Option<Vec<String>>,
    /// List every connection of the colour instead of those between two ends.
    #[arg(long, conflicts_with = "ends")]
    all: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    picture: crate::picture::SvgArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let pos = crate::input::load(&args.position)?;
    let mut config = HSearchConfig::default();
    for words in &args.variant {
        for word in words.split([',', ' ']).filter(|w| !w.is_empty()) {
            config.apply(word)?;
        }
    }
    nash_board::with_position!(&pos, p => report(p, &args, config))
}

fn connection_json<B: BitSet>(c: &Connection<B>) -> Value {
    let key = match c.kind {
        ConnectionKind::Full => Value::Null,
        ConnectionKind::Semi { key } => json!(key.to_string()),
    };
    json!({
        "kind": if c.kind == ConnectionKind::Full { "full" } else { "semi" },
        "ends": [c.ends[0].to_string(), c.ends[1].to_string()],
        "key": key,
        "carrier": CellList(c.carrier).names(),
    })
}

fn parse_end<B: BitSet>(p: &Position<B>, color: Color, text: &str) -> anyhow::Result<Cell> {
    let cell: Cell = text.parse().with_context(|| format!("invalid end {text:?}"))?;
    match cell.as_edge() {
        Some(e) if e.color() != color => bail!("edge {cell} is not one of {color}'s edges"),
        Some(_) => Ok(cell),
        None if !p.geometry().is_on_board(cell) => {
            bail!("end {cell} is not on the {}x{} board", p.cols(), p.rows())
        }
        None if p.stones(!color).contains(cell) => bail!("end {cell} holds a {} stone", !color),
        None => Ok(cell),
    }
}

/// The picture of `nash vc`: the carrier of one listed connection (the smallest full one, else
/// the smallest semi one, with its key) and the mustplay of the player to move.
fn picture<B: BitSet>(p: &Position<B>, color: Color, conns: &[Connection<B>], must: B) -> String {
    let smallest = |full: bool| {
        conns
            .iter()
            .filter(|c| (c.kind == ConnectionKind::Full) == full)
            .min_by_key(|c| c.carrier.len())
    };
    let mut pic = Picture::new(p);
    if let Some(c) = smallest(true).or_else(|| smallest(false)) {
        let [a, b] = c.ends;
        let kind = if c.kind == ConnectionKind::Full { "full" } else { "semi" };
        let label = format!("carrier of {color}'s {kind} connection {a}-{b}");
        pic = pic.overlay(Overlay::labelled(c.carrier, Style::Connection, label));
        if let ConnectionKind::Semi { key } = c.kind {
            pic = pic.overlay(Overlay::labelled(B::single(key), Style::Key, "its key"));
        }
    }
    let label = format!("mustplay for {}", p.to_move());
    pic.overlay(Overlay::labelled(must, Style::Mustplay, label)).to_string()
}

fn report<B: BitSet>(p: &Position<B>, args: &Args, config: HSearchConfig) -> anyhow::Result<()> {
    let color = args.color.unwrap_or(p.to_move());
    let ends = match &args.ends {
        Some(v) => [parse_end(p, color, &v[0])?, parse_end(p, color, &v[1])?],
        None => color.edges().map(Cell::edge),
    };
    if ends[0] == ends[1] {
        bail!("the two ends are the same: {}", ends[0]);
    }
    let mut text = String::new();
    let mut vc = VcBuilder::new(config);
    let start = Instant::now();
    vc.build(p);
    let micros = start.elapsed().as_secs_f64() * 1e6;
    let conns: Vec<Connection<B>> = if args.all {
        vc.all_connections(color)
    } else {
        vc.connections(color, ends[0], ends[1]).collect()
    };
    let ends = ends.map(|e| vc.end_of(color, e));
    let to_move = p.to_move();
    let win = vc.win_now();
    let lost = vc.opponent_won();
    let must = vc.saving_moves();
    args.picture.write(|| picture(p, color, &conns, must))?;
    let counts = |c: Color| {
        let (f, s) = vc.counts(c);
        json!({ "full": f, "semi": s })
    };
    if args.json {
        let out = json!({
            "config": config.to_string(),
            "to_move": to_move.to_string(),
            "microseconds": micros.round(),
            "connections_found": { "black": counts(Color::Black), "white": counts(Color::White) },
            "win_now": win.map(|w| json!({
                "key": w.key.map(|k| k.to_string()),
                "carrier": CellList(w.carrier).names(),
            })),
            "opponent_won": lost.map(|l| CellList(l).names()),
            "mustplay": CellList(must).names(),
            "color": color.to_string(),
            "ends": if args.all { Value::Null } else { json!([ends[0].to_string(), ends[1].to_string()]) },
            "connections": conns.iter().map(connection_json).collect::<Vec<_>>(),
        });
        writeln!(text, "{}", serde_json::to_string_pretty(&out)?)?;
        out!("{text}");
        return Ok(());
    }
    writeln!(text, "{p}")?;
    writeln!(text, "H-search: {config}")?;
    for c in Color::ALL {
        let (f, s) = vc.counts(c);
        writeln!(text, "{c}: {f} full, {s} semi connections")?;
    }
    writeln!(text, "built in {micros:.0} µs; {to_move} to move")?;
    match (win, lost) {
        (Some(w), _) => match w.key {
            Some(k) => {
                let n = w.carrier.len();
                writeln!(text, "{to_move} wins by playing {k} (semi connection over {n} cells)")?
            }
            None => {
                let n = w.carrier.len();
                writeln!(
                    text,
                    "{to_move} has already won virtually (full connection over {n} cells)"
                )?
            }
        },
        (None, Some(c)) => {
            let n = c.len();
            writeln!(text, "{to_move} has lost: {} has a full connection over {n} cells", !to_move)?
        }
        (None, None) => {}
    }
    if lost.is_some() {
        writeln!(text, "mustplay for {to_move}: none (every move loses)")?;
    } else {
        let names = CellList(must).names().join(" ");
        let n = must.len();
        let cells = if n == 1 { "cell" } else { "cells" };
        writeln!(text, "mustplay for {to_move} ({n} {cells}): {names}")?;
    }
    if args.all {
        writeln!(text, "all {} connections of {color}:", conns.len())?;
    } else {
        writeln!(
            text,
            "{} connections of {color} between {} and {}:",
            conns.len(),
            ends[0],
            ends[1]
        )?;
    }
    for c in &conns {
        writeln!(text, "  {c}")?;
    }
    out!("{text}");
    Ok(())
}
