//! `nash show`: print a position as a board diagram (or as SGF).

use nash_board::svg::Picture;

/// Arguments of `nash show`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: crate::input::PositionArgs,
    /// Play only the first N moves of the game record or move list.
    #[arg(long = "move", value_name = "N")]
    upto: Option<usize>,
    /// Print the position as an SGF game record instead of a diagram.
    #[arg(long)]
    sgf: bool,
    #[command(flatten)]
    picture: crate::picture::SvgArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let loaded = crate::input::load_game(&args.position, args.upto)?;
    let pos = loaded.pos;
    args.picture.write(|| nash_board::with_position!(&pos, p => Picture::new(p).to_string()))?;
    if args.sgf {
        let mut record = pos.record();
        // A game record's players, result, event and source stay with it; the application is
        // the one writing the record now.
        record.properties.extend(loaded.properties.into_iter().filter(|(id, _)| id != "AP"));
        if let Some(c) = loaded.resigned {
            // A resignation leaves the board as it is, so only the record says it.
            record.moves.push((c, nash_board::Move::Resign));
        }
        out!("{}", record.to_sgf());
    } else {
        outln!("{pos}");
    }
    Ok(())
}
