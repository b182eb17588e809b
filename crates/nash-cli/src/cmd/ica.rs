//! `nash ica`: inferior cell analysis of a position, as a marked board diagram and a list of
//! findings, or as JSON.

use anyhow::Context;
use nash_board::svg::{Overlay, Picture, Style};
use nash_board::{BitSet, Color, Position};
use nash_patterns::{Ice, Report};

/// Arguments of `nash ica`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: crate::input::PositionArgs,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    picture: crate::picture::SvgArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let pos = crate::input::load(&args.position)?;
    nash_board::with_position!(&pos, p => analyse(p, &args))
}

fn analyse<B: BitSet>(pos: &Position<B>, args: &Args) -> anyhow::Result<()> {
    let ice = Ice::shared(pos.geometry());
    let a = ice.analyse(pos);
    let report = Report::new(ice, &a);
    args.picture.write(|| {
        Picture::new(pos)
            .overlay(Overlay::labelled(a.dead, Style::Dead, "dead"))
            .overlay(Overlay::labelled(
                a.captured[0],
                Style::Captured(Color::Black),
                "captured by black (filled)",
            ))
            .overlay(Overlay::labelled(
                a.captured[1],
                Style::Captured(Color::White),
                "captured by white (filled)",
            ))
            .overlay(Overlay::labelled(
                a.dominated | a.vulnerable,
                Style::Inferior,
                "dominated or vulnerable (pruned)",
            ))
            .caption(format!("{} to move", pos.to_move()))
            .to_string()
    })?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report).context("cannot write JSON")?);
        return Ok(());
    }
    let mark = |c| match pos.color_at(c) {
        Some(Color::Black) => 'B',
        Some(Color::White) => 'W',
        None if a.dead.contains(c) => 'x',
        None if a.captured[0].contains(c) => 'b',
        None if a.captured[1].contains(c) => 'w',
        None if a.dominated.contains(c) => 'd',
        None if a.vulnerable.contains(c) => 'v',
        None => '.',
    };
    let mut text = String::new();
    nash_board::diagram::write_diagram(&mut text, pos, &mark).context("cannot draw the board")?;
    outln!("{text}");
    outln!("x dead, b/w captured by black/white (filled), d dominated, v vulnerable (pruned)");
    if let Some(w) = &report.winner {
        outln!("after fill-in {w} has won");
    }
    for f in &report.findings {
        match &f.by {
            Some(by) => outln!("{:<5} {:<15} {} (by {by})", f.cell, f.class, f.rule),
            None => outln!("{:<5} {:<15} {}", f.cell, f.class, f.rule),
        }
    }
    outln!("candidates ({}): {}", report.candidates.len(), report.candidates.join(" "));
    Ok(())
}
