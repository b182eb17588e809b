//! `nash show`: print a position as a board diagram.

/// Arguments of `nash show`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: crate::input::PositionArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let pos = crate::input::load(&args.position)?;
    println!("{pos}");
    Ok(())
}
