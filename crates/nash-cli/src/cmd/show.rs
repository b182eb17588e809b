//! `nash show`: print a position as a board diagram (or as SGF).

use nash_board::sgf::GameRecord;

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
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let (pos, _) = crate::input::load_upto(&args.position, args.upto)?;
    if args.sgf {
        let record = nash_board::with_position!(&pos, p => GameRecord::from_position(p));
        out!("{}", record.to_sgf());
    } else {
        outln!("{pos}");
    }
    Ok(())
}
